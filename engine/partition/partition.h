// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/cost/tile_cost.h"
#include "engine/model/tensor_expr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elk::partition {

/// What one partition search depends on besides the chip: the expression and which of its inputs
/// come from HBM (weights, KV cache, spilled activations). Operand 0 (the output) is never loaded.
/// Two steps with equal PartitionInputs share one search (layers repeat).
struct PartitionInput {
    model::TensorExpr expr;
    std::vector<bool> fromHbm; ///< one per operand; fromHbm[0] == false
    auto operator<=>(const PartitionInput&) const = default;
};

/// How rotation factors are attached to loop dimensions (elk-reference.md §2.4, §7 item 16).
enum class TemporalEnumeration {
    Fixed, ///< a tensor is rotated only along dimensions it uses (what Elk Studio does)
};

struct PartitionSettings {
    std::int64_t cores = 0; ///< all cores the operator spreads over (chips × coresPerChip)
    std::int64_t coresPerChip = 0; ///< multi-chip overhead applies when cores > coresPerChip
    std::int64_t sramBytesPerCore = 0;
    bool training = false; ///< stricter core-utilisation threshold (elk-reference.md §2.2)
    TemporalEnumeration temporal = TemporalEnumeration::Fixed;
    auto operator<=>(const PartitionSettings&) const = default;
};

/// A T10-style partition plan: `spatial[d]` parts of loop dim d across cores; `temporal[d][v]`
/// rotation parts of operand v along dim d (1 = not rotated).
struct Plan {
    std::vector<std::int32_t> spatial;
    std::vector<std::vector<std::int32_t>> temporal; ///< [dim][operand]
    auto operator<=>(const Plan&) const = default;
};

/// Per-core costs of one plan. Cycles are core clock cycles.
struct PlanCost {
    std::int64_t executeBytes = 0; ///< execute state: every operand's sub-tensor, rotated ones double-buffered
    std::int64_t preloadBytes = 0; ///< preload state: the HBM inputs' sub-tensors only
    std::int64_t iterations = 1; ///< temporal iterations (product over dims of the largest rotation factor)
    double computeCycles = 0; ///< iterations × tile cycles
    double shiftCycles = 0; ///< rotation transfers and their syncs (× multi-chip factor)
    double reduceCycles = 0; ///< after compute: redistribution and partial-sum reduction (× multi-chip factor)
    /// The compute part of reduceCycles: adding up partial sums (tile cost model, no multi-chip factor);
    /// the simulator runs it as compute after the exchange it models itself.
    double partialSumCycles = 0;
    double executeCycles() const { return computeCycles + shiftCycles + reduceCycles; }
    double commCycles() const { return shiftCycles + reduceCycles; }
};

/// One (preload state, execute state) choice of an operator: the paper's
/// (preload space, execute space) → time point, with the compatible pair that achieves it.
struct PreloadEntry {
    std::int64_t preloadBytes = 0; ///< per core, while preloaded and waiting
    std::int64_t executeBytes = 0; ///< per core, while executing (>= preloadBytes)
    std::uint32_t preloadPlan = 0; ///< index into OpPlans::plans
    std::uint32_t executePlan = 0; ///< index into OpPlans::plans
    double warmupCycles = 0; ///< distribute_data: preload layout → execute layout
    double totalCycles = 0; ///< executePlan's executeCycles() + warmupCycles
};

/// Result of one partition search.
struct OpPlans {
    std::vector<Plan> plans; ///< every plan referred to below (not every plan enumerated)
    std::vector<PlanCost> costs; ///< parallel to plans
    /// Execute-state Pareto front: indices into plans, ascending executeBytes, strictly decreasing
    /// executeCycles().
    std::vector<std::uint32_t> pareto;
    /// Sorted by (preloadBytes, executeBytes); for each pair of sizes the fastest compatible pair.
    /// An op with no HBM input has preloadBytes 0 in every entry and no warm-up.
    std::vector<PreloadEntry> table;
    std::int64_t hbmBytes = 0; ///< bytes read from HBM to preload this op: sum of its HBM inputs' sizes
    std::int64_t enumeratedPlans = 0; ///< (spatial, temporal) plans evaluated, for reports
    std::int64_t minPreloadBytes() const { return table.empty() ? 0 : table.front().preloadBytes; }
};

struct PartitionResult {
    std::optional<OpPlans> plans;
    /// Set when no plan fits: the smallest per-core bytes any plan needs (execute state).
    std::int64_t smallestBytesPerCore = 0;
    std::string error; ///< e.g. "needs at least 812,032 bytes per core; the chip has 638,976"
    bool ok() const { return plans.has_value(); }
};

/// Pass 1 of a search over part of its spatial splits, so that several threads can share one large
/// search: the splits whose first loop dim takes candidate values [firstBegin, firstEnd) of
/// firstDimCandidates(). Holds that part's execute-state front.
struct PartialSearch {
    std::vector<Plan> frontPlans; ///< ascending executeBytes
    std::vector<PlanCost> frontCosts; ///< parallel to frontPlans
    std::int64_t enumerated = 0;
    std::int64_t smallestBytes = INT64_MAX; ///< smallest execute state of any plan of the part
    bool anyFits = false;
    bool stopped = false;
};

/// How many values the first loop dim's split may take (the parts searchPart() can be given).
int firstDimCandidates(const PartitionInput& input, const PartitionSettings& settings);
PartialSearch searchPart(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, int firstBegin, int firstEnd,
    RunControl& control);
/// The search's result from its parts, given in ascending candidate order covering all of them:
/// bit-identical to partitionOp() whatever the parts (the fronts merge with the same tie rule).
PartitionResult finishSearch(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, const std::vector<PartialSearch>& parts,
    RunControl& control);

/// Enumerates, evaluates and filters the plans of one operator. Deterministic: the same inputs give
/// bit-identical results. Stops early (returns an empty result with error "stopped") when
/// `control.stopRequested()`.
/// Contract: validateExpr(input.expr) is empty; settings.cores >= 1.
PartitionResult partitionOp(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, RunControl& control);

} // namespace elk::partition
