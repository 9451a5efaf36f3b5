// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/partition/partition.h"

#include <cstdint>
#include <vector>

namespace elk::partition::detail {

/// One plan kept on the execute-state front, in the flat layout of the enumerators.
struct FrontPlan {
    std::vector<std::int32_t> spatial; ///< [d]
    std::vector<std::int32_t> temporal; ///< [d * V + v]
    PlanCost cost;
};

/// The execute-state Pareto front of elk-reference.md §2.6, maintained while plans stream in:
/// equal to grouping all plans by executeBytes (keeping the first fastest), sorting by bytes and
/// keeping a plan only when it is strictly faster than the last kept one — but it never stores the
/// plans it drops, so a search holds only the front in memory.
class ParetoFront {
public:
    /// True when a kept plan is at most as large and at most as slow: the candidate would be dropped.
    bool dominated(std::int64_t executeBytes, double executeCycles) const;
    /// Adds a plan that dominated() accepted; drops the kept plans it now dominates.
    void insert(
        const std::int32_t* spatial, const std::int32_t* temporal, int dims, int operands, const PlanCost& cost);
    /// Ascending executeBytes, strictly decreasing executeCycles().
    const std::vector<FrontPlan>& plans() const { return m_plans; }

private:
    std::size_t upperBound(std::int64_t executeBytes) const;
    std::vector<FrontPlan> m_plans;
};

} // namespace elk::partition::detail
