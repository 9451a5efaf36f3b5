// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/schedule/schedule.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace elk::sim {

/// Run-time switches of the simulator.
struct SimOptions {
    /// false: every transfer runs at the rate it would get alone (no sharing between concurrent
    /// phases) — the validation mode whose latency must match the analytic schedule on all-to-all.
    bool contention = true;
    /// Width of the per-link utilisation bins (heatmaps); 0: latency ÷ 200.
    double timeBinCycles = 0;
};

/// What kind of resource a link is.
enum class LinkKind {
    CoreIngress, ///< all-to-all: a core's receive port
    CoreEgress, ///< all-to-all: a core's send port
    MeshLink, ///< 2D mesh: one directed link between neighbouring routers
    HbmStack, ///< an HBM stack's channel into its controller
    InterChip, ///< the links between two chips (per direction)
};
const char* toString(LinkKind kind); ///< "core-ingress" "core-egress" "mesh" "hbm" "inter-chip"

struct LinkInfo {
    LinkKind kind = LinkKind::CoreIngress;
    double bytesPerCycle = 0; ///< capacity
    int chip = 0;
    int core = -1; ///< CoreIngress / CoreEgress: the core (global id); MeshLink: the source router
    int x = -1, y = -1; ///< MeshLink: source router position on its chip
    char direction = 0; ///< MeshLink: 'E' 'W' 'N' 'S'
    int stack = -1; ///< HbmStack: stack index on its chip
    std::string name; ///< "chip 0 core 12 ingress", "chip 1 (3,4)→E", "chip 0 HBM 2", "chip 0→1"
};

/// One step's simulated timeline (cycles from 0 = the first call). The execute interval holds the
/// warm-up (distribute_data), compute, shift and reduce phases back to back.
struct StepTrace {
    schedule::Interval preload; ///< start == end for an op that loads nothing
    schedule::Interval execute;
    schedule::Interval warmup;
    schedule::Interval compute;
    schedule::Interval shift;
    schedule::Interval reduce;
    double preloadStallCycles = 0; ///< preload length minus its length alone (sharing)
    /// Execute length minus its length alone: link sharing, plus compute slowed by SRAM port contention
    /// (preloads writing into the core's SRAM while it computes; ChipSpec::sramBandwidthBytesPerCyclePerCore).
    double executeStallCycles = 0;
    /// Why execute could not start earlier: "preload" (waited for done_preload), "execute" (the
    /// previous execution), or "" (the first).
    std::string waitedFor;
};

/// A step function sample: `value` holds from `atCycles` until the next sample.
struct CounterSample {
    double atCycles = 0;
    double value = 0;
};

/// The physical floor a run cannot beat (bound-gap waterfall).
enum class FloorKind : std::uint8_t {
    Hbm, ///< HBM bytes ÷ the bandwidth of all stacks
    Compute, ///< Σ FLOPs ÷ (cores × peak FLOP/cycle per core of each op's dtype)
    Link, ///< the hottest on-chip or inter-chip link's bytes ÷ its capacity
};
const char* toString(FloorKind kind); ///< "hbm" "compute" "link"

/// Why the floor resource was not fully used during a stretch of the run. Each simulated segment
/// (constant rates) gets exactly one cause from the state of the two pipes (gap_causes in bound_gap.cpp).
enum class GapCause : std::uint8_t {
    SramFullWait, ///< the next preload was held back: SRAM full until earlier executions end
    DependencyWait, ///< execution idle, waiting for an operator's preload to arrive
    InterconnectContention, ///< a transfer ran below its solo rate: it shared links with the other pipe
    SramPortContention, ///< compute slowed by preload writes into the same SRAM ports
    Warmup, ///< execution distributing data (distribute_data) before compute
    Shift, ///< execution rotating operands between cores
    Reduction, ///< execution reducing partial sums
    PreloadPath, ///< a preload below the floor's rate: HBM latency, syncs, or a slower link on its route
    ComputeBound, ///< the floor resource idle while an execution computes (nothing left to load, or not its work)
    ComputeEfficiency, ///< compute below peak FLOP/cycle (tile shapes, per-op overhead)
};
inline constexpr int kGapCauseCount = 10;
const char* toString(GapCause cause); ///< "sram-full-wait" "dependency-wait" … (kebab case)
const char* describe(GapCause cause); ///< a short label for plots and tables

/// One named loss of the waterfall.
struct GapPart {
    double lossCycles = 0; ///< Σ over its segments of length × (1 − floor resource's utilisation)
    double durationCycles = 0; ///< Σ of its segments' lengths
    /// Where the loss happens (merged segments that lose anything), ascending: what the Gantt highlights.
    std::vector<schedule::Interval> intervals;
};

/// Floor plus named losses: floorCycles + Σ parts[c].lossCycles = latencyCycles (to rounding). The
/// losses are measured during the simulation against the floor resource, never fitted afterwards.
struct BoundGap {
    FloorKind floorKind = FloorKind::Hbm;
    std::string floorResource; ///< "HBM (4 stacks)", "compute (peak 128 FLOP/cycle/core)", a link name
    double floorCycles = 0; ///< max of the three candidates below
    double hbmFloorCycles = 0;
    double computeFloorCycles = 0; ///< 0: the tile cost model states no peak
    double linkFloorCycles = 0;
    std::array<GapPart, kGapCauseCount> parts;
};

/// Raw metrics (elk-design.md §7). Times in cycles of the chip clock.
struct SimResult {
    double clockHz = 0;
    double latencyCycles = 0;
    std::vector<StepTrace> steps; ///< by execution step
    std::vector<std::string> stepNames; ///< by execution step
    std::vector<int> preloadOrder; ///< step indices in preload order

    std::vector<LinkInfo> links;
    std::vector<double> linkBytes; ///< by link: bytes carried over the run
    double maxLinkUtilization = 0; ///< highest instantaneous load ÷ capacity seen (≤ 1 + 1e-9)
    double binCycles = 0;
    /// [bin][link]: bytes carried in the bin ÷ (capacity × binCycles). Only links that carry bytes
    /// are listed, by index into `links`: `binLinks`.
    std::vector<std::uint32_t> binLinks;
    std::vector<std::vector<float>> linkUtilizationBins;

    std::vector<CounterSample> hbmBytesPerCycle; ///< all stacks together
    std::vector<CounterSample> nocBytesPerCycle; ///< all on-chip and inter-chip links together
    std::vector<CounterSample> sramBytesPerCore; ///< execute state + resident preloads + reserved

    std::int64_t hbmBytes = 0; ///< read from HBM
    double nocBytes = 0; ///< summed over on-chip links (a byte crossing 3 mesh links counts 3 times)
    double hbmUtilization = 0; ///< hbmBytes ÷ (peak HBM bytes per cycle × latency)
    double nocUtilization = 0; ///< Σ link bytes ÷ (Σ link capacity × latency), on-chip links only
    std::int64_t flops = 0;
    double flopsPerCycle = 0; ///< flops ÷ latency
    std::int64_t sramPeakBytesPerCore = 0;

    // 4-way breakdown of the latency (sums to latencyCycles).
    double overlapCycles = 0; ///< a preload and an execution both in progress
    double preloadOnlyCycles = 0;
    double executeOnlyCycles = 0;
    double interconnectStallCycles
        = 0; ///< Σ executeStallCycles (link and SRAM port contention; part of the execute time above)

    BoundGap boundGap;

    std::int64_t events = 0; ///< events processed (for the benchmark)
};

} // namespace elk::sim
