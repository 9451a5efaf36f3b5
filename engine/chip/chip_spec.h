// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::chip {

/// Which formula family prices one core's tile of work (engine/cost implements them).
/// 1 MiB/ms (the Elk artifact's "GB/s": 2^20 bytes per millisecond) in GB/s (10^9 bytes per second).
inline constexpr double kGBpsPerMiBPerMs = 1048576.0 / 1e6;

enum class TileCostModelKind { IpuMk2, Roofline, Fitted };

/// On-chip interconnect shape.
enum class Topology { AllToAll, Mesh2d };

/// Where the HBM controllers attach to the on-chip interconnect.
enum class ControllerPlacement {
    Spread, ///< evenly spaced over core ids (natural for all-to-all)
    WestEdge, ///< mesh: routers of column 0
    WestEastEdges, ///< mesh: routers of columns 0 and width-1
    AllEdges, ///< mesh: every edge router, round-robin
    Explicit, ///< the core ids in HbmSpec::controllerCoreIds
};

/// Per-core peaks for the `roofline` tile cost model.
struct RooflineTileCost {
    double peakFlopPerCycleFp32 = 0;
    double peakFlopPerCycleFp16 = 0; ///< also used for bf16
    double peakFlopPerCycleFp8 = 0; ///< also used for int8; 0 = no fp8 units (fp8 ops run at the fp16 peak)
    double sramBytesPerCycle = 0;
    std::int64_t opOverheadCycles = 0; ///< fixed launch cost per operator tile
    bool operator==(const RooflineTileCost&) const = default;
};

/// The `fitted` tile cost model: a linear model tree saved as JSON (engine/cost reads it).
struct FittedTileCost {
    std::string modelPath; ///< path of the fitted model JSON; relative paths resolve against the chip file
    bool operator==(const FittedTileCost&) const = default;
};

struct TileCostSpec {
    TileCostModelKind model = TileCostModelKind::IpuMk2;
    RooflineTileCost roofline; ///< required when model == Roofline
    FittedTileCost fitted; ///< required when model == Fitted
    bool operator==(const TileCostSpec&) const = default;
};

struct InterconnectSpec {
    Topology topology = Topology::AllToAll;
    int meshWidth = 0; ///< routers per row, per chip (mesh2d only; width × height = coresPerChip)
    int meshHeight = 0; ///< routers per column, per chip (mesh2d only)
    double linkBandwidthGBpsPerCore = 0; ///< each core's ingress (and egress) port, 1 GB = 1e9 bytes
    std::int64_t hopLatencyCycles = 0; ///< per router hop (mesh) or per transfer (all-to-all)
    std::int64_t syncCostCycles = 0; ///< one global exchange synchronisation
    bool operator==(const InterconnectSpec&) const = default;
};

struct InterChipSpec {
    double linkBandwidthGBps = 0; ///< per chip, all inter-chip links together
    std::int64_t latencyCycles = 0; ///< one inter-chip transfer
    double overheadFactor = 1.0; ///< multiplies inter-core communication time when an op spans chips
    bool operator==(const InterChipSpec&) const = default;
};

struct HbmSpec {
    int stacksPerChip = 0;
    double bandwidthGBpsPerStack = 0;
    double capacityGiBPerStack = 0;
    std::int64_t latencyNs = 0;
    ControllerPlacement controllerPlacement = ControllerPlacement::Spread;
    std::vector<int> controllerCoreIds; ///< per chip, only for Explicit; one id per stack
    bool operator==(const HbmSpec&) const = default;
};

/// A fully specified chip (or multi-chip part). Units are in the field names.
/// Contract: the engine only runs on a ChipSpec for which validateChipSpec() returned no errors.
struct ChipSpec {
    static constexpr int kSchemaVersion = 1; ///< JSON "schema": "elk.chip/1"

    std::string name;
    std::string description;
    std::string source; ///< where the numbers come from (datasheet, paper, artifact)
    int chips = 1;
    int coresPerChip = 0;
    std::int64_t sramBytesPerCore = 0;
    /// Bytes per cycle one core's SRAM port serves, its own compute and remote accesses together;
    /// 0 = not modelled (JSON key optional). The simulator slows a core's compute while other phases
    /// stream into its SRAM (engine/sim/simulator.cpp).
    double sramBandwidthBytesPerCyclePerCore = 0;
    double clockHz = 0;
    TileCostSpec tileCost;
    InterconnectSpec interconnect;
    InterChipSpec interChip;
    HbmSpec hbm;

    bool operator==(const ChipSpec&) const = default;

    // Derived quantities (no validation; call on a valid spec).
    std::int64_t totalCores() const { return std::int64_t(chips) * coresPerChip; }
    /// HBM bandwidth of the whole part in the Elk artifact's unit (its "GB/s" is MiB per ms).
    double totalHbmBandwidthMiBPerMs() const { return totalHbmBandwidthGBps() / kGBpsPerMiBPerMs; }
    double totalHbmBandwidthGBps() const { return double(chips) * hbm.stacksPerChip * hbm.bandwidthGBpsPerStack; }
    double totalHbmCapacityGiB() const { return double(chips) * hbm.stacksPerChip * hbm.capacityGiBPerStack; }
    std::int64_t totalSramBytes() const { return totalCores() * sramBytesPerCore; }
    double linkBytesPerCycle() const { return interconnect.linkBandwidthGBpsPerCore * 1e9 / clockHz; }
};

/// One validation or parse problem. `field` is a JSON pointer ("/interconnect/meshWidth").
struct FieldError {
    std::string field;
    std::string message; ///< names the value and the allowed range
    bool operator==(const FieldError&) const = default;
};

const char* toString(TileCostModelKind kind); ///< "ipu-mk2" | "roofline" | "fitted"
const char* toString(Topology topology); ///< "all-to-all" | "mesh2d"
const char* toString(
    ControllerPlacement placement); ///< "spread" | "west-edge" | "west-east-edges" | "all-edges" | "explicit"

// Inverses of toString(); nothing for an unknown name.
std::optional<TileCostModelKind> tileCostModelKindFromString(std::string_view text);
std::optional<Topology> topologyFromString(std::string_view text);
std::optional<ControllerPlacement> controllerPlacementFromString(std::string_view text);

// Every enumerator, in declaration order (for pickers and "allowed values" messages).
inline constexpr TileCostModelKind kAllTileCostModelKinds[]
    = { TileCostModelKind::IpuMk2, TileCostModelKind::Roofline, TileCostModelKind::Fitted };
inline constexpr Topology kAllTopologies[] = { Topology::AllToAll, Topology::Mesh2d };
inline constexpr ControllerPlacement kAllControllerPlacements[]
    = { ControllerPlacement::Spread, ControllerPlacement::WestEdge, ControllerPlacement::WestEastEdges,
          ControllerPlacement::AllEdges, ControllerPlacement::Explicit };

} // namespace elk::chip
