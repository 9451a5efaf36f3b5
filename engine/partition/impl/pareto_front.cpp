// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/impl/pareto_front.h"

#include <algorithm>

namespace elk::partition::detail {

std::size_t ParetoFront::upperBound(std::int64_t executeBytes) const
{
    const auto it = std::upper_bound(m_plans.begin(), m_plans.end(), executeBytes,
        [](std::int64_t bytes, const FrontPlan& plan) { return bytes < plan.cost.executeBytes; });
    return std::size_t(it - m_plans.begin());
}

bool ParetoFront::dominated(std::int64_t executeBytes, double executeCycles) const
{
    // The kept plan with the largest bytes <= executeBytes is the fastest of all kept plans that small.
    const std::size_t pos = upperBound(executeBytes);
    return pos > 0 && m_plans[pos - 1].cost.executeCycles() <= executeCycles;
}

void ParetoFront::insert(
    const std::int32_t* spatial, const std::int32_t* temporal, int dims, int operands, const PlanCost& cost)
{
    const double cycles = cost.executeCycles();
    const std::size_t pos = upperBound(cost.executeBytes);
    // A kept plan of the same size is slower (else dominated()): it goes.
    const std::size_t first = pos > 0 && m_plans[pos - 1].cost.executeBytes == cost.executeBytes ? pos - 1 : pos;
    std::size_t last = pos;
    while (last < m_plans.size() && m_plans[last].cost.executeCycles() >= cycles)
        ++last;
    FrontPlan plan;
    plan.spatial.assign(spatial, spatial + dims);
    plan.temporal.assign(temporal, temporal + std::ptrdiff_t(dims) * operands);
    plan.cost = cost;
    if (first < last) {
        m_plans[first] = std::move(plan);
        m_plans.erase(m_plans.begin() + std::ptrdiff_t(first + 1), m_plans.begin() + std::ptrdiff_t(last));
    } else {
        m_plans.insert(m_plans.begin() + std::ptrdiff_t(pos), std::move(plan));
    }
}

} // namespace elk::partition::detail
