// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/partition/partition.h"

#include <cstdint>
#include <vector>

namespace elk::sim::detail {

/// What one core moves in one communication phase: bytes it sends (and receives) over its port,
/// exchange synchronisations, and the ring of consecutive cores the exchange runs in.
struct PhaseTraffic {
    double bytesPerCore = 0;
    double syncs = 0;
    int ringSize = 1;
};

/// The simulator's own reading of a plan's geometry (elk-design.md §6), from the expression and the
/// plan alone — never from the cost model's cycles, so that a wrong scheduler estimate shows up as a
/// difference between the analytic schedule and the simulation.
/// - shift: each rotation round moves the rotated operands' per-iteration sub-tensors to the ring
///   neighbour, once per shift, two syncs per shift (one buffer exchange each way);
/// - reduce: the output tile is redistributed once (six syncs: the exchange's two and the reduction's
///   four barriers, the IPU count of elk-reference.md §2.5); where a reduction dim is split over P
///   cores, each of them exchanges (P − 1)/P of its partial output tile in one superstep (two syncs);
///   elementwise, unary and pool outputs stay where they were computed (one sync).
struct PlanTraffic {
    std::vector<std::int64_t> operandBytes; ///< per-iteration sub-tensor of each operand, per core
    PhaseTraffic shift;
    PhaseTraffic reduce;
    std::int64_t partials = 1; ///< cores holding partial sums of one output part
};

/// Contract: `plan` is a plan of `input.expr` (one spatial factor per dim, one rotation per operand).
PlanTraffic planTraffic(const partition::PartitionInput& input, const partition::Plan& plan);

/// distribute_data from preload layout `cold` to execute layout `hot` (same spatial split): every
/// HBM operand whose rotation split is finer in `cold` gathers the ratio of cold sub-tensors from peers.
PhaseTraffic distributeTraffic(
    const partition::PartitionInput& input, const partition::Plan& cold, const partition::Plan& hot);

} // namespace elk::sim::detail
