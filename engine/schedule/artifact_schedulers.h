// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/partition/artifact_search.h"
#include "engine/schedule/schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Artifact parity: the five designs as the published Elk artifact schedules them (elk-reference.md
// §4, its backward list schedules are its "simulation", §5), with the per-design constants it uses.
// Times are cycles, backward: the last execution ends at 0.

namespace elk::schedule::artifact {

/// One op of the program in execution order.
struct ParityOp {
    const partition::artifact::ExprPlans* plans = nullptr; ///< not owned; ok()
    int exprKey = 0; ///< equal for ops sharing one expression (memo and layer detection)
    bool matmul = false; ///< anchors a preload-order group (§4.4)
    std::vector<std::int64_t> dims; ///< the op's loop extents: a matmul's label its preload-order group (§4.4)
};

/// The artifact's behaviours that change a latency and are not the plan search's, each a switch so
/// that the ablation can turn them off one at a time. true = as the artifact does it.
struct SchedulerQuirks {
    /// Per-design NoC constants: κ = ⌊link⌋ (5) for Basic, Static, Elk-Dyn and κ = link (5.5) for
    /// Elk-Full and Ideal; θ = 0.7 (Basic, Static), best of {0.9, 0.7, 0.5} (Elk-Dyn), 0.99 (Elk-Full);
    /// Elk-Full also tries delay-compute off. false: every design uses `sharedTheta`, κ = link and
    /// delay-compute on.
    bool perDesignConstants = true;
    /// The chooser charges overlapped preloads at their smallest preload state (Elk-Dyn: the geometric
    /// mean with the size chosen), so a schedule may exceed the SRAM. false: at their chosen size.
    bool chooserUnderchargesPreloads = true;
    /// Basic and Static preloads stretched to (NoC time ÷ θ) like the others (§4.5). false: θ = 1.
    bool basicPreloadStretch = true;
    double sharedTheta = 0.9; ///< used when perDesignConstants is false
};

struct ParityKnobs {
    std::int64_t cores = 0;
    std::int64_t sramBytesPerCore = 624 * 1024;
    double hbmMiBPerMs = 16000; ///< the artifact's "GB/s" (MiB per ms)
    double cyclesPerMs = 1.325e6;
    double linkGiBpsPerCore = 5.5; ///< the artifact's GBPS_PER_CORE, read as GiB/s by its penalty
    int layers = 1;
    double meshRatio = 0; ///< 0: all-to-all; r > 0: the artifact's scalar "mesh" (§5.1)
    double commScale = 1; ///< --comm: divides every plan's comm cycles
    double compScale = 1; ///< --comp: divides every plan's compute cycles
    bool training = false;
    /// Elk-Full stops an order once it is longer than the best so far (same result, fewer steps).
    /// false: every order runs to the end (tests compare the two).
    bool boundOrderSearch = true;
    SchedulerQuirks quirks;
};

/// One design's schedule, the artifact's .timing block (§5.3).
struct ParitySchedule {
    Design design = Design::Basic;
    std::vector<Interval> execute; ///< by op, backward cycles
    std::vector<Interval> preload; ///< by op
    std::vector<std::pair<double, double>> compComm; ///< by op, after the comp/comm scaling
    std::vector<double> nocIdle; ///< by op
    std::vector<std::pair<std::int64_t, std::int64_t>> coldHot; ///< by op: chosen (preload, execute) bytes per core
    std::vector<int> preloadOrder; ///< op indices
    double latencyCycles = 0;
    std::int64_t ordersTried = 1; ///< elk-full: orders; static: execute-space sizes × variants
    std::int64_t validOrders = 0; ///< elk-full: order runs that completed valid
    std::int64_t ordersCutShort = 0; ///< elk-full: order runs stopped once longer than the best so far
    std::string note; ///< the variant, θ or execute space that won
};

struct ParityResult {
    std::optional<ParitySchedule> schedule;
    std::string error;
};

/// Schedules one design. Contract: every op's plans are ok().
ParityResult scheduleParity(
    const std::vector<ParityOp>& ops, const ParityKnobs& knobs, Design design, RunControl& control);

/// The artifact's layer block (§1.3): prefix length and layer length, found by matching expression
/// keys; and its preload orders (§4.4, reduced list, displacement ≤ maxDisplacement).
struct LayerBlock {
    int prefix = 0;
    int length = 0;
};
LayerBlock detectLayerBlock(const std::vector<ParityOp>& ops, int layers);
/// More than `maxOrders` distinct orders: none, and `error` (when given) says so and points at the layer count.
std::vector<std::vector<int>> reducedPreloadOrders(const std::vector<ParityOp>& ops, int layers, int maxDisplacement,
    std::string* error = nullptr, std::int64_t maxOrders = 20000);

} // namespace elk::schedule::artifact
