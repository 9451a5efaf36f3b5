// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/chip/chip_fields.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <variant>

namespace elk::chip {

namespace {

    constexpr double kMaxCycles = 1e9; // one second at 1 GHz
    constexpr double kGiB = 1073741824.0;

    // One row per numeric field. Ranges are what validation allows (chip_validate.cpp adds the rules
    // that depend on other fields: SRAM at least one tile, the SRAM port at least the link, bandwidths
    // positive when there are chips or stacks to use them).
    const std::array kFields = {
        ChipField { "/chips", FieldType::Int, FieldScope::Always, RangeRule::Closed, 1, 1024, "chips", "Chips",
            "Number of identical chips working together (e.g. 4 for an IPU-POD4).", "Cores", "", 1, 0, true, "Chips",
            [](ChipSpec& s) -> FieldRef { return &s.chips; } },
        ChipField { "/coresPerChip", FieldType::Int, FieldScope::Always, RangeRule::Closed, 1, 1e6, "cores",
            "Cores per chip", "Compute cores (tiles) on one chip, each with its own SRAM.", "Cores", "cores", 1, 0,
            true, "Cores per chip", [](ChipSpec& s) -> FieldRef { return &s.coresPerChip; } },
        ChipField { "/sramBytesPerCore", FieldType::Int64, FieldScope::Always, RangeRule::Custom, 0, kGiB, "B",
            "SRAM per core", "Local SRAM of one core, in KiB (1 KiB = 1024 bytes); stored in bytes.", "Cores", "KiB",
            1024, 4, true, "SRAM per core (bytes)", [](ChipSpec& s) -> FieldRef { return &s.sramBytesPerCore; } },
        ChipField { "/sramBandwidthBytesPerCyclePerCore", FieldType::Double, FieldScope::Always, RangeRule::Custom, 0,
            1e8, "B/cycle", "SRAM port bandwidth",
            "Bytes per cycle one core's SRAM port serves, its own compute and remote accesses together; the "
            "simulator slows a core's compute while preloads stream into its SRAM. 0 = not modelled; otherwise at "
            "least the per-core link bandwidth.",
            "Cores", "B/cycle", 1, 3, false, "SRAM port bandwidth per core (B/cycle)",
            [](ChipSpec& s) -> FieldRef { return &s.sramBandwidthBytesPerCyclePerCore; }, true },
        ChipField { "/clockHz", FieldType::Double, FieldScope::Always, RangeRule::Closed, 1e6, 1e10, "Hz", "Clock",
            "Core clock in GHz (stored in Hz); converts cycles to seconds.", "Cores", "GHz", 1e9, 6, true, "Clock (Hz)",
            [](ChipSpec& s) -> FieldRef { return &s.clockHz; } },

        ChipField { "/tileCost/roofline/peakFlopPerCycleFp32", FieldType::Double, FieldScope::Roofline,
            RangeRule::Positive, 0, 1e8, "FLOP/cycle", "Peak FP32", "Roofline: peak FP32 FLOP per cycle of one core.",
            "Tile cost model", "FLOP/cycle", 1, 3, false, "Roofline peak FP32 per core (FLOP/cycle)",
            [](ChipSpec& s) -> FieldRef { return &s.tileCost.roofline.peakFlopPerCycleFp32; } },
        ChipField { "/tileCost/roofline/peakFlopPerCycleFp16", FieldType::Double, FieldScope::Roofline,
            RangeRule::Positive, 0, 1e8, "FLOP/cycle", "Peak FP16/BF16",
            "Roofline: peak FP16 (and BF16) FLOP per cycle of one core.", "Tile cost model", "FLOP/cycle", 1, 3, false,
            "Roofline peak FP16 per core (FLOP/cycle)",
            [](ChipSpec& s) -> FieldRef { return &s.tileCost.roofline.peakFlopPerCycleFp16; } },
        ChipField { "/tileCost/roofline/peakFlopPerCycleFp8", FieldType::Double, FieldScope::Roofline,
            RangeRule::Custom, 0, 1e8, "FLOP/cycle", "Peak FP8/INT8",
            "Roofline: peak FP8 (and INT8) FLOP per cycle of one core; 0 = no FP8 units, FP8 runs at the FP16 "
            "peak.",
            "Tile cost model", "FLOP/cycle", 1, 3, false, "Roofline peak FP8 per core (FLOP/cycle)",
            [](ChipSpec& s) -> FieldRef { return &s.tileCost.roofline.peakFlopPerCycleFp8; } },
        ChipField { "/tileCost/roofline/sramBytesPerCycle", FieldType::Double, FieldScope::Roofline,
            RangeRule::Positive, 0, 1e8, "B/cycle", "SRAM bandwidth",
            "Roofline: bytes one core reads or writes in its SRAM per cycle.", "Tile cost model", "B/cycle", 1, 3,
            false, "Roofline SRAM bandwidth per core (B/cycle)",
            [](ChipSpec& s) -> FieldRef { return &s.tileCost.roofline.sramBytesPerCycle; } },
        ChipField { "/tileCost/roofline/opOverheadCycles", FieldType::Int64, FieldScope::Roofline, RangeRule::Closed, 0,
            kMaxCycles, "cycles", "Op overhead", "Roofline: fixed launch cost of every operator tile, in cycles.",
            "Tile cost model", "cycles", 1, 0, false, "Roofline op overhead (cycles)",
            [](ChipSpec& s) -> FieldRef { return &s.tileCost.roofline.opOverheadCycles; } },

        ChipField { "/interconnect/meshWidth", FieldType::Int, FieldScope::Mesh, RangeRule::Closed, 1, 1e6, "routers",
            "Mesh width", "mesh2d: routers per row on one chip; width × height must equal cores per chip.",
            "On-chip interconnect", "routers", 1, 0, false, "Mesh width (routers)",
            [](ChipSpec& s) -> FieldRef { return &s.interconnect.meshWidth; } },
        ChipField { "/interconnect/meshHeight", FieldType::Int, FieldScope::Mesh, RangeRule::Closed, 1, 1e6, "routers",
            "Mesh height", "mesh2d: routers per column on one chip; width × height must equal cores per chip.",
            "On-chip interconnect", "routers", 1, 0, false, "Mesh height (routers)",
            [](ChipSpec& s) -> FieldRef { return &s.interconnect.meshHeight; } },
        ChipField { "/interconnect/linkBandwidthGBpsPerCore", FieldType::Double, FieldScope::Always,
            RangeRule::Positive, 0, 10000, "GB/s", "Link bandwidth per core",
            "Each core's ingress (and egress) port, in GB/s (1 GB = 10⁹ bytes).", "On-chip interconnect", "GB/s", 1, 3,
            true, "NoC link bandwidth per core (GB/s)",
            [](ChipSpec& s) -> FieldRef { return &s.interconnect.linkBandwidthGBpsPerCore; } },
        ChipField { "/interconnect/hopLatencyCycles", FieldType::Int64, FieldScope::Always, RangeRule::Closed, 0, 1e6,
            "cycles", "Hop latency", "Cycles per router hop (mesh2d) or per transfer (all-to-all).",
            "On-chip interconnect", "cycles", 1, 0, true, "NoC hop latency (cycles)",
            [](ChipSpec& s) -> FieldRef { return &s.interconnect.hopLatencyCycles; } },
        ChipField { "/interconnect/syncCostCycles", FieldType::Int64, FieldScope::Always, RangeRule::Closed, 0,
            kMaxCycles, "cycles", "Sync cost", "Cycles of one global exchange synchronisation.", "On-chip interconnect",
            "cycles", 1, 0, true, "Exchange sync cost (cycles)",
            [](ChipSpec& s) -> FieldRef { return &s.interconnect.syncCostCycles; } },

        ChipField { "/interChip/linkBandwidthGBps", FieldType::Double, FieldScope::Always, RangeRule::Custom, 0, 1e6,
            "GB/s", "Bandwidth per chip", "All inter-chip links of one chip together, in GB/s.", "Inter-chip links",
            "GB/s", 1, 3, true, "Inter-chip bandwidth per chip (GB/s)",
            [](ChipSpec& s) -> FieldRef { return &s.interChip.linkBandwidthGBps; } },
        ChipField { "/interChip/latencyCycles", FieldType::Int64, FieldScope::Always, RangeRule::Closed, 0, kMaxCycles,
            "cycles", "Latency", "Cycles of one inter-chip transfer.", "Inter-chip links", "cycles", 1, 0, false,
            "Inter-chip latency (cycles)", [](ChipSpec& s) -> FieldRef { return &s.interChip.latencyCycles; } },
        ChipField { "/interChip/overheadFactor", FieldType::Double, FieldScope::Always, RangeRule::Closed, 1, 100, "",
            "Overhead factor", "Multiplies inter-core communication time when an operator spans chips (≥ 1).",
            "Inter-chip links", "×", 1, 3, false, "Inter-chip overhead factor",
            [](ChipSpec& s) -> FieldRef { return &s.interChip.overheadFactor; } },

        ChipField { "/hbm/stacksPerChip", FieldType::Int, FieldScope::Always, RangeRule::Closed, 0, 64, "stacks",
            "Stacks per chip", "HBM stacks (or memory channels) attached to each chip; 0 = no off-chip memory.", "HBM",
            "", 1, 0, true, "HBM stacks per chip", [](ChipSpec& s) -> FieldRef { return &s.hbm.stacksPerChip; } },
        ChipField { "/hbm/bandwidthGBpsPerStack", FieldType::Double, FieldScope::Always, RangeRule::Custom, 0, 1e5,
            "GB/s", "Bandwidth per stack", "Peak bandwidth of one stack, in GB/s.", "HBM", "GB/s", 1, 3, true,
            "HBM bandwidth per stack (GB/s)", [](ChipSpec& s) -> FieldRef { return &s.hbm.bandwidthGBpsPerStack; } },
        ChipField { "/hbm/capacityGiBPerStack", FieldType::Double, FieldScope::Always, RangeRule::Custom, 0, 1024,
            "GiB", "Capacity per stack", "Capacity of one stack, in GiB (2³⁰ bytes).", "HBM", "GiB", 1, 3, false,
            "HBM capacity per stack (GiB)", [](ChipSpec& s) -> FieldRef { return &s.hbm.capacityGiBPerStack; } },
        ChipField { "/hbm/latencyNs", FieldType::Int64, FieldScope::Always, RangeRule::Closed, 0, 1e6, "ns", "Latency",
            "Access latency of HBM, in nanoseconds.", "HBM", "ns", 1, 0, true, "HBM latency (ns)",
            [](ChipSpec& s) -> FieldRef { return &s.hbm.latencyNs; } },
    };

} // namespace

double ChipField::get(const ChipSpec& spec) const
{
    // ref() only forms a pointer; nothing is written through it here.
    return std::visit([](auto* value) { return double(*value); }, ref(const_cast<ChipSpec&>(spec)));
}

void ChipField::set(ChipSpec& spec, double value) const
{
    std::visit([&](auto* member) { *member = static_cast<std::remove_pointer_t<decltype(member)>>(value); }, ref(spec));
}

std::string ChipField::dotted() const
{
    std::string name(pointer.substr(1));
    std::replace(name.begin(), name.end(), '/', '.');
    return name;
}

std::string_view ChipField::parent() const
{
    return pointer.substr(0, pointer.rfind('/'));
}

std::string_view ChipField::key() const
{
    return pointer.substr(pointer.rfind('/') + 1);
}

std::span<const ChipField> chipFields()
{
    return kFields;
}

const ChipField* findChipField(std::string_view name)
{
    for (const ChipField& field : kFields) {
        if (field.pointer == name || (!name.empty() && name.front() != '/' && field.dotted() == name))
            return &field;
    }
    return nullptr;
}

} // namespace elk::chip
