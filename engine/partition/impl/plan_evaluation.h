// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/partition/impl/expr_facts.h"
#include "engine/partition/impl/plan_enumeration.h"

#include <cstdint>
#include <vector>

namespace elk::partition::detail {

/// Prices plans with the formulas of elk-reference.md §2.5, in bytes (real dtype sizes) and core
/// cycles (transfers from TransferCost, tiles from the TileCostModel). Holds scratch buffers so
/// that evaluating a plan allocates nothing. Not thread-safe: one per search.
class PlanEvaluator {
public:
    PlanEvaluator(const ExprFacts& facts, const PartitionSettings& settings, const cost::TileCostModel& costModel,
        const cost::TransferCost& transfer);

    /// Per-core sub-tensor sizes of the plan with tiles `tile` [d] and rotations `temporal` [d * V + v].
    void measure(const std::int64_t* tile, const std::int32_t* temporal);
    /// measure() of the enumerator's current plan, from its precomputed extents (same results).
    void measure(const TemporalEnumerator& temporal);
    /// Results of the last measure().
    std::int64_t executeBytes() const { return m_executeBytes; }
    std::int64_t preloadBytes() const { return m_preloadBytes; }
    std::int64_t operandBytes(int v) const { return m_operandBytes[std::size_t(v)]; } ///< one iteration's sub-tensor

    /// Cycles of the plan last passed to measure() (same `tile` and `temporal`), `replicas` [v] as
    /// from TemporalEnumerator. Byte fields are those of measure().
    PlanCost cost(const std::int64_t* tile, const std::int32_t* temporal, const std::int64_t* replicas);
    /// cost() in two steps, so that a search can drop a plan whose communication alone is already
    /// too slow without pricing its tile: commCost() leaves computeCycles 0, addCompute() (right
    /// after it) fills it in.
    PlanCost commCost(const std::int64_t* tile, const std::int32_t* temporal, const std::int64_t* replicas);
    /// Right after commLowerBound() with the same plan: the tile compute (iterations × tile cycles),
    /// then the exact cost reusing what the bound worked out (equal to cost()).
    double computeAfterBound();
    /// A lower bound on commCost(...).commCycles() of the enumerator's current plan, right after measure(temporal),
    /// cheap enough to drop most dominated plans before their rotation rounds are worked out: rotation rounds of
    /// factors g_k in the heaviest-first nesting make Σ_k (g_k − 1)·Π_{j<k} g_j = iterations − 1 shifts at least (each
    /// round moves at least one operand), each with its two syncs and at least the smallest rotated sub-tensor; the
    /// shuffle exactly.
    double commLowerBound(const TemporalEnumerator& temporal);

    PlanCost costAfterBound(const std::int32_t* temporal, double computeCycles);
    void addCompute(PlanCost& cost) const;

    /// distribute_data from a preload plan (`coldTemporal`, last measure()d) to an execute plan with
    /// the same spatial split (`hotTemporal`), elk-reference.md §2.7.
    double warmupCycles(const std::int32_t* coldTemporal, const std::int32_t* hotTemporal) const;

private:
    double shiftCycles(const std::int32_t* temporal);
    double shuffleCycles(const std::int32_t* temporal, const std::int64_t* replicas);

    const ExprFacts& m_facts;
    const cost::TileCostModel& m_costModel;
    const cost::TransferCost& m_transfer;
    double m_multiChip = 1;
    model::DType m_outputType = model::DType::F16;
    std::vector<std::int64_t> m_operandBytes; ///< [v]
    std::vector<std::uint8_t> m_rotated; ///< [v]
    std::int64_t m_executeBytes = 0;
    std::int64_t m_preloadBytes = 0;
    double m_partialSumCycles = 0; ///< of the last shuffleCycles()
    double m_boundShuffle = 0; ///< shuffle of the last commLowerBound(), before the multi-chip factor
    double m_boundPartialSum = 0;
    std::int64_t m_boundIterations = 1;
    /// Tile cycles by iteration extents: plans of one search share few distinct tiles. Direct-mapped,
    /// a pure cache (the cost model is deterministic), so results do not depend on it.
    struct TileCacheSlot {
        std::vector<std::int64_t> extents;
        double cycles = 0;
    };
    std::vector<TileCacheSlot> m_tileCache;
    std::vector<std::int64_t> m_iterExtent; ///< [d]: e = ceil(t / max_v T)
    std::vector<std::int32_t> m_largest; ///< [d]: max_v T[d][v]
    std::vector<std::int32_t> m_row; ///< [v]: one dim's remaining rotation factors
    struct Round {
        std::int64_t bytes = 0;
        std::int64_t shifts = 0; ///< g - 1
        std::int64_t tensors = 0;
    };
    std::vector<Round> m_rounds;
};

} // namespace elk::partition::detail
