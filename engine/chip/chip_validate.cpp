// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/chip/chip_validate.h"

#include "engine/chip/chip_fields.h"

#include <charconv>
#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

namespace elk::chip {

namespace {

    /// A field's upper bound from the table (chip_fields.cpp).
    double maxOf(std::string_view pointer)
    {
        return findChipField(pointer)->maxValue;
    }

    std::string number(double value)
    {
        if (std::isnan(value))
            return "NaN";
        if (std::isinf(value))
            return value > 0 ? "inf" : "-inf";
        if (std::floor(value) == value && std::fabs(value) < 1e15)
            return std::to_string(static_cast<std::int64_t>(value));
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
        return std::string(buffer, end);
    }

    std::string number(std::int64_t value)
    {
        return std::to_string(value);
    }

    std::string number(int value)
    {
        return std::to_string(value);
    }

    std::string withQuotes(std::string_view text)
    {
        return "\"" + std::string(text) + "\"";
    }

    bool isValidUtf8(std::string_view text)
    {
        std::size_t i = 0;
        while (i < text.size()) {
            const auto lead = static_cast<unsigned char>(text[i]);
            std::size_t length = 0;
            if (lead < 0x80)
                length = 1;
            else if ((lead & 0xE0) == 0xC0 && lead >= 0xC2)
                length = 2;
            else if ((lead & 0xF0) == 0xE0)
                length = 3;
            else if ((lead & 0xF8) == 0xF0 && lead <= 0xF4)
                length = 4;
            else
                return false;
            if (i + length > text.size())
                return false;
            for (std::size_t k = 1; k < length; ++k) {
                if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
                    return false;
            }
            i += length;
        }
        return true;
    }

    bool isBlank(std::string_view text)
    {
        return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
    }

    class Checker {
    public:
        std::vector<FieldError> errors;

        void fail(std::string field, std::string message)
        {
            errors.push_back({ std::move(field), std::move(message) });
        }

        /// lo <= value <= hi; the message shows the value and the range, both with the unit.
        template <typename T> void range(const char* field, T value, T lo, T hi, const std::string& unit)
        {
            if (!(value >= lo && value <= hi)) // written so NaN fails
                fail(field,
                    number(value) + unit + " is out of range; allowed: " + number(lo) + " to " + number(hi) + unit);
        }

        /// 0 < value <= hi.
        void positive(const char* field, double value, double hi, const std::string& unit, const std::string& why = {})
        {
            if (!(value > 0 && value <= hi))
                fail(field,
                    number(value) + unit + " is out of range; allowed" + why + ": more than 0 up to " + number(hi)
                        + unit);
        }

        /// The field's own range from the table (chip_fields.cpp), with its unit.
        template <typename T> void field(const char* pointer, T value, const std::string& why = {})
        {
            const ChipField& f = fieldAt(pointer);
            const std::string unit = f.unit.empty() ? std::string() : " " + std::string(f.unit);
            if (f.rule == RangeRule::Positive) {
                positive(pointer, double(value), f.maxValue, unit, why);
            } else if constexpr (std::is_integral_v<T>) {
                range(pointer, value, T(f.minValue), T(f.maxValue), unit);
            } else {
                range(pointer, value, f.minValue, f.maxValue, unit);
            }
        }

        /// 0 < value <= the field's maximum: a Custom field while something needs it (the reason says what).
        void positiveField(const char* pointer, double value, const std::string& why)
        {
            const ChipField& f = fieldAt(pointer);
            positive(pointer, value, f.maxValue, f.unit.empty() ? std::string() : " " + std::string(f.unit), why);
        }

        static const ChipField& fieldAt(const char* pointer)
        {
            const ChipField* f = findChipField(pointer);
            return *f; // every pointer passed here is a row of the table (tst_chip_fields)
        }

        void finite(const char* field, double value)
        {
            if (!std::isfinite(value))
                fail(field, number(value) + " is not a finite number (JSON cannot hold it)");
        }

        void utf8(const char* field, const std::string& text)
        {
            if (!isValidUtf8(text))
                fail(field, "is not valid UTF-8 text");
        }
    };

    void checkName(Checker& check, const std::string& name)
    {
        const std::string allowed = "allowed characters: a-z, 0-9, '.', '_', '-'";
        if (name.empty()) {
            check.fail("/name", "must not be empty; " + allowed);
            return;
        }
        for (char c : name) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            if (ok)
                continue;
            const auto byte = static_cast<unsigned char>(c);
            std::string shown;
            if (byte >= 0x20 && byte < 0x7F) {
                shown = std::string("'") + c + "'";
            } else {
                const char* hex = "0123456789abcdef";
                shown = std::string("byte 0x") + hex[byte >> 4] + hex[byte & 0xF];
            }
            check.fail("/name",
                (isValidUtf8(name) ? withQuotes(name) : std::string("the name")) + " contains " + shown + "; "
                    + allowed);
            return;
        }
    }

    void checkTileCost(Checker& check, const ChipSpec& spec)
    {
        const TileCostSpec& tileCost = spec.tileCost;
        const RooflineTileCost& roofline = tileCost.roofline;
        if (tileCost.model == TileCostModelKind::Roofline) {
            check.field("/tileCost/roofline/peakFlopPerCycleFp32", roofline.peakFlopPerCycleFp32);
            check.field("/tileCost/roofline/peakFlopPerCycleFp16", roofline.peakFlopPerCycleFp16);
            // 0 is allowed: a part without fp8 units (the cost model then uses the fp16 peak).
            if (!(roofline.peakFlopPerCycleFp8 >= 0
                    && roofline.peakFlopPerCycleFp8 <= maxOf("/tileCost/roofline/peakFlopPerCycleFp8")))
                check.fail("/tileCost/roofline/peakFlopPerCycleFp8",
                    number(roofline.peakFlopPerCycleFp8) + " FLOP/cycle is out of range; allowed: 0 (no fp8 units) to "
                        + number(maxOf("/tileCost/roofline/peakFlopPerCycleFp8")) + " FLOP/cycle");
            check.field("/tileCost/roofline/sramBytesPerCycle", roofline.sramBytesPerCycle);
            check.field("/tileCost/roofline/opOverheadCycles", roofline.opOverheadCycles);
        } else {
            // Inactive, but written to JSON, which cannot hold NaN or infinity.
            check.finite("/tileCost/roofline/peakFlopPerCycleFp32", roofline.peakFlopPerCycleFp32);
            check.finite("/tileCost/roofline/peakFlopPerCycleFp16", roofline.peakFlopPerCycleFp16);
            check.finite("/tileCost/roofline/peakFlopPerCycleFp8", roofline.peakFlopPerCycleFp8);
            check.finite("/tileCost/roofline/sramBytesPerCycle", roofline.sramBytesPerCycle);
        }
        if (tileCost.model == TileCostModelKind::Fitted && isBlank(tileCost.fitted.modelPath))
            check.fail("/tileCost/fitted/modelPath", "must name the fitted model JSON file when model is \"fitted\"");
        check.utf8("/tileCost/fitted/modelPath", tileCost.fitted.modelPath);
    }

    /// The SRAM port serves the core's own link traffic too, so on an all-to-all chip a modelled port is at
    /// least as fast as the core's link. On a 2D mesh the links carry other cores' traffic through the
    /// router without touching this core's SRAM, so a mesh link may be faster than the port.
    void checkSramPort(Checker& check, const ChipSpec& spec)
    {
        const double port = spec.sramBandwidthBytesPerCyclePerCore;
        const char* field = "/sramBandwidthBytesPerCyclePerCore";
        const double kMaxSramBytesPerCycle = maxOf(field);
        if (!std::isfinite(port)) {
            check.finite(field, port);
            return;
        }
        // Compared with the link only when clock and link are valid, so one bad field gives one error.
        const double linkGBps = spec.interconnect.linkBandwidthGBpsPerCore;
        const bool linkKnown = spec.clockHz >= 1e6 && spec.clockHz <= 1e10 && linkGBps > 0 && linkGBps <= 10000
            && spec.interconnect.topology != Topology::Mesh2d;
        const double link = linkKnown ? spec.linkBytesPerCycle() : 0.0;
        const std::string allowed = link > 0
            ? "; allowed: 0 (not modelled) or from " + number(link)
                + " B/cycle (the per-core link bandwidth, /interconnect/linkBandwidthGBpsPerCore) up to "
                + number(kMaxSramBytesPerCycle) + " B/cycle"
            : "; allowed: 0 (not modelled) up to " + number(kMaxSramBytesPerCycle) + " B/cycle";
        if (port < 0 || port > kMaxSramBytesPerCycle || (port > 0 && port < link))
            check.fail(field, number(port) + " B/cycle is out of range" + allowed);
    }

    void checkInterconnect(Checker& check, const ChipSpec& spec)
    {
        const InterconnectSpec& net = spec.interconnect;
        if (net.topology == Topology::Mesh2d) {
            const bool widthOk = net.meshWidth >= 1 && net.meshWidth <= maxOf("/interconnect/meshWidth");
            const bool heightOk = net.meshHeight >= 1 && net.meshHeight <= maxOf("/interconnect/meshHeight");
            check.field("/interconnect/meshWidth", net.meshWidth);
            check.field("/interconnect/meshHeight", net.meshHeight);
            const std::int64_t routers = std::int64_t(net.meshWidth) * net.meshHeight;
            if (widthOk && heightOk && routers != spec.coresPerChip)
                check.fail("/interconnect/meshWidth",
                    "meshWidth x meshHeight = " + number(net.meshWidth) + " x " + number(net.meshHeight) + " = "
                        + number(routers) + " routers, but coresPerChip is " + number(spec.coresPerChip)
                        + "; they must be equal (one router per core)");
        }
        check.field("/interconnect/linkBandwidthGBpsPerCore", net.linkBandwidthGBpsPerCore);
        check.field("/interconnect/hopLatencyCycles", net.hopLatencyCycles);
        check.field("/interconnect/syncCostCycles", net.syncCostCycles);
    }

    void checkInterChip(Checker& check, const ChipSpec& spec)
    {
        const InterChipSpec& link = spec.interChip;
        if (spec.chips > 1)
            check.positiveField(
                "/interChip/linkBandwidthGBps", link.linkBandwidthGBps, " with " + number(spec.chips) + " chips");
        else
            check.field("/interChip/linkBandwidthGBps", link.linkBandwidthGBps);
        check.field("/interChip/latencyCycles", link.latencyCycles);
        check.field("/interChip/overheadFactor", link.overheadFactor);
    }

    void checkControllerPlacement(Checker& check, const ChipSpec& spec)
    {
        const HbmSpec& hbm = spec.hbm;
        const bool edge = hbm.controllerPlacement == ControllerPlacement::WestEdge
            || hbm.controllerPlacement == ControllerPlacement::WestEastEdges
            || hbm.controllerPlacement == ControllerPlacement::AllEdges;
        // On a valid mesh (width, height >= 1) every edge placement has at least one edge router, so only the
        // topology needs checking here; bad mesh sizes are reported under /interconnect.
        if (edge && spec.interconnect.topology != Topology::Mesh2d)
            check.fail("/hbm/controllerPlacement",
                withQuotes(toString(hbm.controllerPlacement))
                    + " needs topology \"mesh2d\" (controllers attach to edge "
                      "routers), but topology is "
                    + withQuotes(toString(spec.interconnect.topology)) + "; allowed here: \"spread\", \"explicit\"");

        const std::vector<int>& ids = hbm.controllerCoreIds;
        if (hbm.controllerPlacement != ControllerPlacement::Explicit) {
            if (!ids.empty())
                check.fail("/hbm/controllerCoreIds",
                    number(int(ids.size())) + " core ids given, but controllerPlacement is "
                        + withQuotes(toString(hbm.controllerPlacement)) + "; ids are allowed only with \"explicit\"");
            return;
        }
        if (int(ids.size()) != hbm.stacksPerChip)
            check.fail("/hbm/controllerCoreIds",
                number(int(ids.size())) + " core ids given; \"explicit\" placement needs exactly one per stack ("
                    + number(hbm.stacksPerChip) + ")");
        std::set<int> seen;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const std::string field = "/hbm/controllerCoreIds/" + std::to_string(i);
            if (ids[i] < 0 || ids[i] >= spec.coresPerChip)
                check.fail(field,
                    "core id " + number(ids[i]) + " is out of range; allowed: 0 to "
                        + number(std::int64_t(spec.coresPerChip) - 1) + " (coresPerChip - 1)");
            else if (!seen.insert(ids[i]).second)
                check.fail(field, "core id " + number(ids[i]) + " is listed twice; each stack needs its own core");
        }
    }

    void checkHbm(Checker& check, const ChipSpec& spec)
    {
        const HbmSpec& hbm = spec.hbm;
        check.field("/hbm/stacksPerChip", hbm.stacksPerChip);
        if (hbm.stacksPerChip > 0) {
            const std::string why = " with " + number(hbm.stacksPerChip) + " stacks";
            check.positiveField("/hbm/bandwidthGBpsPerStack", hbm.bandwidthGBpsPerStack, why);
            check.positiveField("/hbm/capacityGiBPerStack", hbm.capacityGiBPerStack, why);
        } else {
            check.field("/hbm/bandwidthGBpsPerStack", hbm.bandwidthGBpsPerStack);
            check.field("/hbm/capacityGiBPerStack", hbm.capacityGiBPerStack);
        }
        check.field("/hbm/latencyNs", hbm.latencyNs);
        checkControllerPlacement(check, spec);
    }

} // namespace

std::int64_t minimumSramBytesPerCore(const TileCostSpec& tileCost)
{
    switch (tileCost.model) {
    case TileCostModelKind::IpuMk2:
        // One 16x16x16 fp16 AMP tile: A, B and C of 16x16 x 2 B each, double-buffered.
        return 2 * 3 * 16 * 16 * 2;
    case TileCostModelKind::Roofline:
    case TileCostModelKind::Fitted:
        // No fixed engine shape: one 8x8x8 fp32 matmul tile (A, B, C of 8x8 x 4 B), double-buffered.
        return 2 * 3 * 8 * 8 * 4;
    }
    return 0;
}

std::vector<FieldError> validateChipSpec(const ChipSpec& spec)
{
    Checker check;
    checkName(check, spec.name);
    check.utf8("/description", spec.description);
    if (isBlank(spec.source))
        check.fail("/source", "must not be empty; say where the numbers come from (datasheet, paper, artifact)");
    check.utf8("/source", spec.source);
    check.field("/chips", spec.chips);
    check.field("/coresPerChip", spec.coresPerChip);

    const std::int64_t minimumSram = minimumSramBytesPerCore(spec.tileCost);
    const auto kMaxSramBytesPerCore = std::int64_t(maxOf("/sramBytesPerCore"));
    const std::string sramRange
        = "; allowed: " + number(minimumSram) + " B to " + number(kMaxSramBytesPerCore) + " B (1 GiB)";
    if (spec.sramBytesPerCore < minimumSram)
        check.fail("/sramBytesPerCore",
            number(spec.sramBytesPerCore) + " B is smaller than one tile (" + number(minimumSram) + " B) of the "
                + toString(spec.tileCost.model) + " cost model" + sramRange);
    else if (spec.sramBytesPerCore > kMaxSramBytesPerCore)
        check.fail("/sramBytesPerCore", number(spec.sramBytesPerCore) + " B is larger than 1 GiB" + sramRange);

    check.field("/clockHz", spec.clockHz);
    checkSramPort(check, spec);
    checkTileCost(check, spec);
    checkInterconnect(check, spec);
    checkInterChip(check, spec);
    checkHbm(check, spec);
    return check.errors;
}

} // namespace elk::chip
