// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/chip/chip_spec_json.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "engine/core/json_parse.h"
#include "engine/core/json_text.h"

namespace elk::chip {

namespace {

    using Json = nlohmann::json;

    constexpr std::string_view kSchema = "elk.chip/1";
    constexpr const char* kArtifactBandwidthKey = "bandwidthMiBPerMsPerStack";
    // Field name used for problems with the document as a whole (the empty JSON pointer is unreadable in messages).
    constexpr std::string_view kRootField = "/";

    std::string childPointer(const std::string& pointer, std::string_view key)
    {
        return pointer + "/" + jsonPointerToken(key);
    }

    /// Reads typed members out of JSON objects, collecting every problem instead of stopping at the first.
    class Reader {
    public:
        std::vector<FieldError> errors;

        void fail(std::string field, std::string message)
        {
            errors.push_back({ std::move(field), std::move(message) });
        }

        void rejectUnknownKeys(
            const Json& object, const std::string& pointer, std::initializer_list<std::string_view> allowed)
        {
            for (const auto& item : object.items()) {
                bool known = false;
                for (std::string_view key : allowed)
                    known = known || item.key() == key;
                if (known)
                    continue;
                std::string list;
                for (std::string_view key : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(key);
                fail(childPointer(pointer, item.key()),
                    "unknown key " + jsonQuoted(item.key()) + "; allowed keys here: " + list);
            }
        }

        /// The member, or nullptr; a missing member is an error only when required.
        const Json* find(const Json& object, const std::string& pointer, std::string_view key, bool required)
        {
            const auto it = object.find(std::string(key));
            if (it != object.end())
                return &*it;
            if (required)
                fail(childPointer(pointer, key), "missing; this key is required");
            return nullptr;
        }

        const Json* readObject(const Json& object, const std::string& pointer, std::string_view key, bool required)
        {
            const Json* value = find(object, pointer, key, required);
            if (value && !value->is_object()) {
                fail(childPointer(pointer, key), "expected an object, found " + describeJsonValue(*value));
                return nullptr;
            }
            return value;
        }

        bool readString(const Json& object, const std::string& pointer, std::string_view key, std::string& out,
            bool required = true)
        {
            const Json* value = find(object, pointer, key, required);
            if (!value)
                return false;
            if (!value->is_string()) {
                fail(childPointer(pointer, key), "expected a string, found " + describeJsonValue(*value));
                return false;
            }
            out = value->get<std::string>();
            return true;
        }

        bool readDouble(
            const Json& object, const std::string& pointer, std::string_view key, double& out, bool required = true)
        {
            const Json* value = find(object, pointer, key, required);
            if (!value)
                return false;
            if (!value->is_number()) {
                fail(childPointer(pointer, key), "expected a number, found " + describeJsonValue(*value));
                return false;
            }
            const double number = value->get<double>();
            if (!std::isfinite(number)) {
                fail(childPointer(pointer, key), "expected a finite number, found " + value->dump());
                return false;
            }
            out = number;
            return true;
        }

        template <typename Int>
        bool readInteger(
            const Json& object, const std::string& pointer, std::string_view key, Int& out, bool required = true)
        {
            const Json* value = find(object, pointer, key, required);
            return value && toInteger(*value, childPointer(pointer, key), out);
        }

        template <typename Int> bool toInteger(const Json& value, const std::string& field, Int& out)
        {
            using Limits = std::numeric_limits<Int>;
            if (value.is_number_unsigned()) { // check before is_number_integer(), which is true for both
                const auto number = value.get<std::uint64_t>();
                if (number <= std::uint64_t(Limits::max())) {
                    out = Int(number);
                    return true;
                }
            } else if (value.is_number_integer()) {
                const auto number = value.get<std::int64_t>();
                if (number >= std::int64_t(Limits::min()) && number <= std::int64_t(Limits::max())) {
                    out = Int(number);
                    return true;
                }
            } else if (value.is_number_float()) {
                const double number = value.get<double>();
                if (!std::isfinite(number) || std::floor(number) != number) {
                    fail(field, "expected an integer, found " + describeJsonValue(value));
                    return false;
                }
                // -min() is 2^(bits-1), exactly representable, so the comparison is exact.
                if (number >= double(Limits::min()) && number < -double(Limits::min())) {
                    out = Int(number);
                    return true;
                }
            } else {
                fail(field, "expected an integer, found " + describeJsonValue(value));
                return false;
            }
            fail(field,
                "number " + value.dump() + " does not fit in a " + std::to_string(Limits::digits + 1) + "-bit integer ("
                    + std::to_string(Limits::min()) + " to " + std::to_string(Limits::max()) + ")");
            return false;
        }

        template <typename Enum, std::size_t N>
        bool readEnum(
            const Json& object, const std::string& pointer, std::string_view key, const Enum (&all)[N], Enum& out)
        {
            std::string text;
            if (!readString(object, pointer, key, text))
                return false;
            std::string allowed;
            for (Enum value : all) {
                if (text == toString(value)) {
                    out = value;
                    return true;
                }
                allowed += (allowed.empty() ? "" : ", ") + jsonQuoted(toString(value));
            }
            fail(childPointer(pointer, key), "unknown value " + jsonQuoted(text) + "; allowed values: " + allowed);
            return false;
        }
    };

    void readTileCost(Reader& reader, const Json& object, TileCostSpec& out)
    {
        const std::string pointer = "/tileCost";
        reader.rejectUnknownKeys(object, pointer, { "model", "roofline", "fitted" });
        const bool modelKnown = reader.readEnum(object, pointer, "model", kAllTileCostModelKinds, out.model);

        // Inactive blocks are optional but, when present, read in full so a written spec reads back identical.
        const bool needRoofline = modelKnown && out.model == TileCostModelKind::Roofline;
        if (const Json* roofline = reader.readObject(object, pointer, "roofline", needRoofline)) {
            const std::string p = pointer + "/roofline";
            reader.rejectUnknownKeys(*roofline, p,
                { "peakFlopPerCycleFp32", "peakFlopPerCycleFp16", "peakFlopPerCycleFp8", "sramBytesPerCycle",
                    "opOverheadCycles" });
            reader.readDouble(*roofline, p, "peakFlopPerCycleFp32", out.roofline.peakFlopPerCycleFp32);
            reader.readDouble(*roofline, p, "peakFlopPerCycleFp16", out.roofline.peakFlopPerCycleFp16);
            reader.readDouble(*roofline, p, "peakFlopPerCycleFp8", out.roofline.peakFlopPerCycleFp8);
            reader.readDouble(*roofline, p, "sramBytesPerCycle", out.roofline.sramBytesPerCycle);
            reader.readInteger(*roofline, p, "opOverheadCycles", out.roofline.opOverheadCycles);
        }
        const bool needFitted = modelKnown && out.model == TileCostModelKind::Fitted;
        if (const Json* fitted = reader.readObject(object, pointer, "fitted", needFitted)) {
            const std::string p = pointer + "/fitted";
            reader.rejectUnknownKeys(*fitted, p, { "modelPath" });
            reader.readString(*fitted, p, "modelPath", out.fitted.modelPath);
        }
    }

    void readInterconnect(Reader& reader, const Json& object, InterconnectSpec& out)
    {
        const std::string pointer = "/interconnect";
        reader.rejectUnknownKeys(object, pointer,
            { "topology", "meshWidth", "meshHeight", "linkBandwidthGBpsPerCore", "hopLatencyCycles",
                "syncCostCycles" });
        const bool topologyKnown = reader.readEnum(object, pointer, "topology", kAllTopologies, out.topology);
        const bool needMesh = topologyKnown && out.topology == Topology::Mesh2d;
        reader.readInteger(object, pointer, "meshWidth", out.meshWidth, needMesh);
        reader.readInteger(object, pointer, "meshHeight", out.meshHeight, needMesh);
        reader.readDouble(object, pointer, "linkBandwidthGBpsPerCore", out.linkBandwidthGBpsPerCore);
        reader.readInteger(object, pointer, "hopLatencyCycles", out.hopLatencyCycles);
        reader.readInteger(object, pointer, "syncCostCycles", out.syncCostCycles);
    }

    void readInterChip(Reader& reader, const Json& object, InterChipSpec& out)
    {
        const std::string pointer = "/interChip";
        reader.rejectUnknownKeys(object, pointer, { "linkBandwidthGBps", "latencyCycles", "overheadFactor" });
        reader.readDouble(object, pointer, "linkBandwidthGBps", out.linkBandwidthGBps);
        reader.readInteger(object, pointer, "latencyCycles", out.latencyCycles);
        reader.readDouble(object, pointer, "overheadFactor", out.overheadFactor);
    }

    void readHbm(Reader& reader, const Json& object, HbmSpec& out)
    {
        const std::string pointer = "/hbm";
        reader.rejectUnknownKeys(object, pointer,
            { "stacksPerChip", "bandwidthGBpsPerStack", kArtifactBandwidthKey, "capacityGiBPerStack", "latencyNs",
                "controllerPlacement", "controllerCoreIds" });
        reader.readInteger(object, pointer, "stacksPerChip", out.stacksPerChip);
        // The product keeps SI (GB/s = 10^9 B/s); the Elk artifact's "GB/s" is MiB per ms (2^20 B / 10^-3 s =
        // 1.048576 GB/s), accepted so that an artifact setting can be entered exactly. Exactly one of the two.
        const bool si = object.contains("bandwidthGBpsPerStack");
        const bool artifact = object.contains(kArtifactBandwidthKey);
        if (si && artifact) {
            reader.fail(pointer + "/" + kArtifactBandwidthKey,
                "give the HBM bandwidth once: bandwidthGBpsPerStack (GB/s) or " + std::string(kArtifactBandwidthKey)
                    + " (the Elk artifact's MiB/ms), not both");
        } else if (artifact) {
            double mibPerMs = 0;
            if (reader.readDouble(object, pointer, kArtifactBandwidthKey, mibPerMs))
                out.bandwidthGBpsPerStack = mibPerMs * kGBpsPerMiBPerMs;
        } else {
            reader.readDouble(object, pointer, "bandwidthGBpsPerStack", out.bandwidthGBpsPerStack);
        }
        reader.readDouble(object, pointer, "capacityGiBPerStack", out.capacityGiBPerStack);
        reader.readInteger(object, pointer, "latencyNs", out.latencyNs);
        const bool placementKnown = reader.readEnum(
            object, pointer, "controllerPlacement", kAllControllerPlacements, out.controllerPlacement);
        const bool needIds = placementKnown && out.controllerPlacement == ControllerPlacement::Explicit;
        if (const Json* ids = reader.find(object, pointer, "controllerCoreIds", needIds)) {
            const std::string p = pointer + "/controllerCoreIds";
            if (!ids->is_array()) {
                reader.fail(p, "expected an array of core ids, found " + describeJsonValue(*ids));
                return;
            }
            out.controllerCoreIds.clear();
            for (std::size_t i = 0; i < ids->size(); ++i) {
                int id = 0;
                if (reader.toInteger((*ids)[i], p + "/" + std::to_string(i), id))
                    out.controllerCoreIds.push_back(id);
            }
        }
    }

    void readChip(Reader& reader, const Json& root, ChipSpec& spec)
    {
        const std::string pointer; // the root
        reader.rejectUnknownKeys(root, pointer,
            { "schema", "name", "description", "source", "chips", "coresPerChip", "sramBytesPerCore",
                "sramBandwidthBytesPerCyclePerCore", "clockHz", "tileCost", "interconnect", "interChip", "hbm" });
        reader.readString(root, pointer, "name", spec.name);
        reader.readString(root, pointer, "description", spec.description);
        reader.readString(root, pointer, "source", spec.source);
        reader.readInteger(root, pointer, "chips", spec.chips);
        reader.readInteger(root, pointer, "coresPerChip", spec.coresPerChip);
        reader.readInteger(root, pointer, "sramBytesPerCore", spec.sramBytesPerCore);
        reader.readDouble(root, pointer, "sramBandwidthBytesPerCyclePerCore", spec.sramBandwidthBytesPerCyclePerCore,
            false); // optional: absent = 0 = not modelled
        reader.readDouble(root, pointer, "clockHz", spec.clockHz);
        if (const Json* tileCost = reader.readObject(root, pointer, "tileCost", true))
            readTileCost(reader, *tileCost, spec.tileCost);
        if (const Json* interconnect = reader.readObject(root, pointer, "interconnect", true))
            readInterconnect(reader, *interconnect, spec.interconnect);
        if (const Json* interChip = reader.readObject(root, pointer, "interChip", true))
            readInterChip(reader, *interChip, spec.interChip);
        if (const Json* hbm = reader.readObject(root, pointer, "hbm", true))
            readHbm(reader, *hbm, spec.hbm);
    }

    /// Where an out_of_range number literal (which nlohmann reports without a position) sits in the text.

} // namespace

ChipParseResult chipSpecFromJson(std::string_view jsonText)
{
    ChipParseResult result;
    std::vector<DuplicateJsonKey> duplicates;
    Json root;
    try {
        root = parseJsonReportingDuplicates(jsonText, duplicates);
    } catch (const Json::parse_error& error) {
        result.errors.push_back(
            { positionText(parseErrorPosition(jsonText, error.byte)), jsonSyntaxReason(error.what()) });
        return result;
    } catch (const Json::exception& error) {
        result.errors.push_back(
            { locateJsonLiteral(jsonText, error.what(), kRootField), jsonSyntaxReason(error.what()) });
        return result;
    }
    if (!root.is_object()) {
        result.errors.push_back(
            { std::string(kRootField), "expected a chip object, found " + describeJsonValue(root) });
        return result;
    }

    Reader reader;
    for (const DuplicateJsonKey& duplicate : duplicates)
        reader.errors.push_back({ duplicate.pointer, duplicate.message() });
    if (const Json* schema = reader.find(root, "", "schema", false)) {
        if (!schema->is_string() || schema->get<std::string>() != kSchema) {
            // Another schema means other rules: reading on would only produce noise.
            reader.fail("/schema", "expected " + jsonQuoted(kSchema) + ", found " + describeJsonValue(*schema));
            result.errors = std::move(reader.errors);
            return result;
        }
    } else {
        reader.fail("/schema", "missing; expected " + jsonQuoted(kSchema));
    }
    readChip(reader, root, result.spec);
    result.errors = std::move(reader.errors);
    return result;
}

std::string chipSpecToJson(const ChipSpec& spec)
{
    // Every field is written (the optional SRAM port bandwidth only when set), inactive blocks included, so
    // reading the text back gives the same spec.
    Json roofline = {
        { "peakFlopPerCycleFp32", spec.tileCost.roofline.peakFlopPerCycleFp32 },
        { "peakFlopPerCycleFp16", spec.tileCost.roofline.peakFlopPerCycleFp16 },
        { "peakFlopPerCycleFp8", spec.tileCost.roofline.peakFlopPerCycleFp8 },
        { "sramBytesPerCycle", spec.tileCost.roofline.sramBytesPerCycle },
        { "opOverheadCycles", spec.tileCost.roofline.opOverheadCycles },
    };
    Json tileCost = {
        { "model", toString(spec.tileCost.model) },
        { "roofline", roofline },
        { "fitted", { { "modelPath", spec.tileCost.fitted.modelPath } } },
    };
    Json interconnect = {
        { "topology", toString(spec.interconnect.topology) },
        { "meshWidth", spec.interconnect.meshWidth },
        { "meshHeight", spec.interconnect.meshHeight },
        { "linkBandwidthGBpsPerCore", spec.interconnect.linkBandwidthGBpsPerCore },
        { "hopLatencyCycles", spec.interconnect.hopLatencyCycles },
        { "syncCostCycles", spec.interconnect.syncCostCycles },
    };
    Json interChip = {
        { "linkBandwidthGBps", spec.interChip.linkBandwidthGBps },
        { "latencyCycles", spec.interChip.latencyCycles },
        { "overheadFactor", spec.interChip.overheadFactor },
    };
    Json hbm = {
        { "stacksPerChip", spec.hbm.stacksPerChip },
        { "bandwidthGBpsPerStack", spec.hbm.bandwidthGBpsPerStack },
        { "capacityGiBPerStack", spec.hbm.capacityGiBPerStack },
        { "latencyNs", spec.hbm.latencyNs },
        { "controllerPlacement", toString(spec.hbm.controllerPlacement) },
        { "controllerCoreIds", Json(spec.hbm.controllerCoreIds) },
    };
    Json root = {
        { "schema", std::string(kSchema) },
        { "name", spec.name },
        { "description", spec.description },
        { "source", spec.source },
        { "chips", spec.chips },
        { "coresPerChip", spec.coresPerChip },
        { "sramBytesPerCore", spec.sramBytesPerCore },
        { "clockHz", spec.clockHz },
        { "tileCost", tileCost },
        { "interconnect", interconnect },
        { "interChip", interChip },
        { "hbm", hbm },
    };
    // Optional key, written only when set (valid specs: > 0), so chips without it keep their canonical text
    // and cache keys; a negative value is still written so an invalid spec round-trips to its errors.
    if (spec.sramBandwidthBytesPerCyclePerCore != 0)
        root["sramBandwidthBytesPerCyclePerCore"] = spec.sramBandwidthBytesPerCyclePerCore;
    // nlohmann's objects keep keys sorted and its doubles print in shortest round-trip form; invalid UTF-8
    // (never produced by the parser) is replaced rather than thrown on.
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace elk::chip
