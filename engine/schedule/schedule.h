// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/model/graph_analysis.h"
#include "engine/partition/partition.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::schedule {

/// The five scheduling designs of the paper, in canonical order.
enum class Design { Basic, Static, ElkDyn, ElkFull, Ideal };
inline constexpr Design kAllDesigns[]
    = { Design::Basic, Design::Static, Design::ElkDyn, Design::ElkFull, Design::Ideal };
const char* toString(Design design); ///< "basic" "static" "elk-dyn" "elk-full" "ideal"
std::optional<Design> designFromString(std::string_view text);

/// One operator in execution order, as the scheduler sees it.
struct Step {
    std::string name; ///< the graph op's name (for traces and errors)
    std::uint32_t planSet = 0; ///< index into ScheduleProblem::planSets; equal indices = one shared search
    std::int64_t flops = 0; ///< of this op (metrics only)
    /// flops ÷ (cores × the tile cost model's peak FLOP/cycle per core for its dtype): its share of the
    /// compute floor (bound-gap waterfall); 0 when the cost model states no peak.
    double peakComputeCycles = 0;
    /// SRAM per core held during this step by activations that live across it (produced earlier,
    /// read later) and are not its operands: unavailable to execute and preload space.
    std::int64_t reservedBytesPerCore = 0;
    int graphStep = -1; ///< the graph step it computes (index into the graph's execution order); -1: unknown
    int part = 0; ///< 0-based part of a split operator
    int parts = 1; ///< parts its operator runs as (1: not split)
};

/// Everything a design needs. Times inside are core clock cycles.
struct ScheduleProblem {
    std::vector<const partition::OpPlans*> planSets; ///< distinct searches; not owned
    /// The searched (part) expression of each plan set, parallel to planSets; not owned. The simulator
    /// derives every phase's traffic from it and the plans' geometry.
    std::vector<const partition::PartitionInput*> planInputs;
    std::vector<Step> steps; ///< execution order
    model::LayerStructure layers; ///< over `steps` (prefix / L × layer / suffix)
    std::int64_t cores = 0;
    std::int64_t sramBytesPerCore = 0;
    double clockHz = 0;
    double hbmBytesPerCycle = 0; ///< whole part, all stacks together
    /// κ: ingress bytes per cycle per core that preload data may use (shared by every design).
    double preloadIngressBytesPerCycle = 0;
    /// θ: a preload lasts at least its NoC delivery time ÷ θ (shared by every design), 0 < θ <= 1.
    double preloadNocThreshold = 0.9;
    /// true: execution waits for NoC idle time left by concurrent preloads; false: preloads move
    /// earlier instead (elk-reference.md §4.3, shared by every design).
    bool delayCompute = true;
    bool mesh = false; ///< 2D mesh interconnect (informs preload/execute NoC sharing)
    /// 2D mesh: bytes per cycle, whole part, at which the mesh delivers preload data to the cores (set
    /// from the topology's routing of a preload: cores ÷ the busiest link's cycles per byte per core); a
    /// preload of P bytes per core takes at least P × cores ÷ this. 0: no such limit (all-to-all:
    /// controllers reach every core port).
    double preloadInjectionBytesPerCycle = 0;
    /// false: the scheduler assumes an execution's inter-core traffic never competes with preloads
    /// (no NoC stall, no preload moved earlier) — the contention-free model the simulator's
    /// contention-off mode reproduces, for validation. Designs always run with true.
    bool nocContention = true;
};

struct Interval {
    double startCycles = 0;
    double endCycles = 0;
    double length() const { return endCycles - startCycles; }
};

/// What one design decided for one step, and the analytic timeline it implies (time 0 = the
/// first preload starts; intervals are forward, non-negative).
struct StepSchedule {
    std::uint32_t tableEntry = 0; ///< index into the step's OpPlans::table
    std::int64_t preloadBytes = 0; ///< per core (table entry)
    std::int64_t executeBytes = 0; ///< per core (table entry)
    Interval preload; ///< empty (start == end) for an op with nothing to load
    Interval execute;
    double computeCycles = 0; ///< of the chosen execute plan
    double commCycles = 0; ///< shift + reduce of the chosen execute plan
    double warmupCycles = 0;
    double stallCycles = 0; ///< execution stretched by NoC contention with concurrent preloads
    double nocIdleCycles = 0; ///< part of this step's preload during which its NoC share is idle
    int overlappedPreloads = 0; ///< k - 1: preloads of later ops that may run during this execution
    int preloadPosition = 0; ///< index of this op's preload in the preload order
};

/// Elk-Full's search over preload orders (elk-design.md §4), for reports.
struct OrderSearch {
    std::int64_t prefixesVisited = 0; ///< nodes of the suffix tree the generator walked
    std::int64_t validOrders = 0; ///< orders that fit the SRAM exactly; each one scheduled
    int movableOps = 0; ///< ops per layer the generator may reorder
    bool truncated = false; ///< the budget (orders or tree nodes) ended the walk
    /// The chosen layer order's distance from the identity: the fewest ops to take out and put back
    /// elsewhere (ops per layer − longest run kept in order).
    int movesFromIdentity = 0;
    double minCycles = 0, medianCycles = 0, maxCycles = 0; ///< analytic latency over the valid orders
    /// Analytic latency of the model under each valid order (the layer order applied to every layer of
    /// the block), in generation order: [0] is the identity order (Elk-Dyn's). The order spread.
    std::vector<double> orderLatencyCycles;
    /// Which of them this schedule uses (index into orderLatencyCycles); the schedule that drops the
    /// joint allocation's memory-saving plans keeps the identity order: 0.
    int chosenOrder = 0;
};

struct Schedule {
    Design design = Design::Basic;
    std::vector<StepSchedule> steps; ///< by execution step
    std::vector<int> preloadOrder; ///< step indices in the order their preloads run (identity except elk-full)
    double latencyCycles = 0; ///< end of the last execution
    std::int64_t sramPeakBytesPerCore = 0; ///< max over time of execute + resident preload + reserved bytes
    std::int64_t ordersTried = 1; ///< elk-full: preload orders scheduled; static: execute-space sizes swept
    std::string note; ///< e.g. static's chosen execute space; empty when nothing to say
    OrderSearch orders; ///< elk-full only
    /// The design's preload space, for lowering: a preload may be issued before an earlier execute
    /// than its analytic start says while every preload it would then be resident with fits this room
    /// and the SRAM (so a preload that the simulator finds ahead of the timeline is not held back).
    /// Elk-Dyn and Elk-Full: the SRAM; Static: the SRAM less its execute space; −1 (Basic, whose design
    /// preloads only the next op, and Ideal, already as early as possible): issue as the timeline says.
    std::int64_t earlyPreloadRoomBytesPerCore = -1;
};

struct ScheduleResult {
    std::optional<Schedule> schedule;
    /// Elk-Full: the runner-up orders' schedules and the identity order's (Elk-Dyn's), best first, for a
    /// caller that confirms the choice on the simulator; `schedule` is the first of them analytically.
    std::vector<Schedule> finalists;
    std::string error; ///< "stopped", or why no valid schedule exists (names the op)
    bool ok() const { return schedule.has_value(); }
};

/// Runs one design. Deterministic. Contract: every plan set has a non-empty table; steps non-empty.
/// threads: Elk-Full schedules its candidate preload orders on up to that many threads (0: one per
/// hardware thread); the result does not depend on it.
ScheduleResult scheduleDesign(const ScheduleProblem& problem, Design design, RunControl& control, int threads = 1);

/// One instant where resident data exceeds SRAM (should never happen; tests assert none).
struct SramViolation {
    int step = 0; ///< executing step at that instant
    double atCycles = 0;
    std::int64_t bytesPerCore = 0;
    std::string message;
};

/// Replays `schedule` over time and lists every instant where execute + resident preloads +
/// reserved bytes exceed the SRAM, and every broken ordering rule (preloads overlapping, a preload
/// ending after its execution starts, executions overlapping). Empty = valid.
std::vector<SramViolation> checkSchedule(const ScheduleProblem& problem, const Schedule& schedule);

/// Raw metrics of an analytic schedule (elk-design.md §7: never smoothed). Times in cycles.
struct ScheduleMetrics {
    double latencyCycles = 0;
    double executeCycles = 0; ///< sum of execute interval lengths
    double preloadCycles = 0; ///< sum of preload interval lengths
    double overlapCycles = 0; ///< time where a preload and an execution both run
    double preloadOnlyCycles = 0;
    double executeOnlyCycles = 0;
    double interconnectStallCycles = 0; ///< sum of stallCycles
    std::int64_t hbmBytes = 0; ///< bytes read from HBM (sum of the steps' OpPlans::hbmBytes)
    double hbmUtilization = 0; ///< hbmBytes ÷ (hbmBytesPerCycle × latency)
    /// NoC bytes (preload delivery + warm-up + rotation/reduction traffic, all cores) ÷
    /// (cores × link bytes per cycle × latency)
    double nocUtilization = 0;
    std::int64_t flops = 0;
    double flopsPerCycle = 0; ///< flops ÷ latency
};

/// `linkBytesPerCycle` is the per-core port bandwidth (cost::TransferCost).
ScheduleMetrics scheduleMetrics(const ScheduleProblem& problem, const Schedule& schedule, double linkBytesPerCycle);

} // namespace elk::schedule
