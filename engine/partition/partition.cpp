// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/partition.h"

#include "engine/partition/impl/expr_facts.h"
#include "engine/partition/impl/pareto_front.h"
#include "engine/partition/impl/plan_enumeration.h"
#include "engine/partition/impl/plan_evaluation.h"
#include "engine/partition/impl/preload_table.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace elk::partition {

namespace {

    using detail::FrontPlan;

    constexpr int kStopCheckInterval = 2048; // plans between two stopRequested() calls

    /// 812032 → "812,032" for error messages.
    std::string groupDigits(std::int64_t value)
    {
        std::string digits = std::to_string(value < 0 ? -value : value);
        std::string out;
        for (std::size_t i = 0; i < digits.size(); ++i) {
            if (i > 0 && (digits.size() - i) % 3 == 0)
                out += ',';
            out += digits[i];
        }
        return value < 0 ? "-" + out : out;
    }

    Plan toPlan(const std::vector<std::int32_t>& spatial, const std::vector<std::int32_t>& temporal, int operands)
    {
        Plan plan;
        plan.spatial = spatial;
        plan.temporal.resize(spatial.size());
        for (std::size_t d = 0; d < spatial.size(); ++d) {
            const auto begin = temporal.begin() + std::ptrdiff_t(d * std::size_t(operands));
            plan.temporal[d].assign(begin, begin + operands);
        }
        return plan;
    }

    /// Numbers the plans the front and the table refer to, each once.
    class PlanNumbering {
    public:
        explicit PlanNumbering(OpPlans& out)
            : m_out(out)
        {
        }
        std::uint32_t add(Plan plan, const PlanCost& cost)
        {
            const auto [it, inserted] = m_index.try_emplace(std::move(plan), std::uint32_t(m_out.plans.size()));
            if (inserted) {
                m_out.plans.push_back(it->first);
                m_out.costs.push_back(cost);
            }
            return it->second;
        }

    private:
        OpPlans& m_out;
        std::map<Plan, std::uint32_t> m_index;
    };

    PartitionResult stopped()
    {
        PartitionResult result;
        result.error = "stopped";
        return result;
    }

} // namespace

int firstDimCandidates(const PartitionInput& input, const PartitionSettings& settings)
{
    if (input.expr.dimExtents.empty() || settings.cores < 1)
        return 0;
    const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
    return int(detail::SpatialEnumerator(facts).firstDimCandidates());
}

PartialSearch searchPart(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, int firstBegin, int firstEnd,
    RunControl& control)
{
    PartialSearch part;
    if (input.expr.dimExtents.empty() || settings.cores < 1)
        return part;
    const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
    detail::SpatialEnumerator spatial(facts);
    spatial.restrictFirstDim(std::size_t(std::max(0, firstBegin)), std::size_t(std::max(0, firstEnd)));
    detail::TemporalEnumerator temporal(facts);
    detail::PlanEvaluator evaluator(facts, settings, costModel, transfer);
    detail::ParetoFront front;

    // Every valid (spatial, temporal) plan; only the execute-state front is kept.
    int untilStopCheck = kStopCheckInterval;
    while (spatial.next()) {
        const std::int64_t* tile = spatial.tile();
        temporal.reset(spatial.spatial(), tile);
        while (temporal.next()) {
            if (--untilStopCheck == 0) {
                untilStopCheck = kStopCheckInterval;
                if (control.stopRequested()) {
                    part.stopped = true;
                    return part;
                }
            }
            ++part.enumerated;
            const std::int32_t* rotation = temporal.temporal();
            evaluator.measure(temporal);
            const std::int64_t executeBytes = evaluator.executeBytes();
            part.smallestBytes = std::min(part.smallestBytes, executeBytes);
            if (executeBytes > settings.sramBytesPerCore)
                continue;
            part.anyFits = true;
            // Cheapest checks first: a lower bound on communication, then with the tile's compute,
            // and only then the exact rotation rounds.
            const double bound = evaluator.commLowerBound(temporal);
            if (front.dominated(executeBytes, bound))
                continue;
            const double compute = evaluator.computeAfterBound();
            if (!std::isfinite(compute) || front.dominated(executeBytes, bound + compute))
                continue;
            const PlanCost cost = evaluator.costAfterBound(rotation, compute);
            const double cycles = cost.executeCycles();
            if (!std::isfinite(cycles) || front.dominated(executeBytes, cycles))
                continue;
            front.insert(spatial.spatial(), rotation, facts.dims, facts.operands, cost);
        }
    }
    for (const FrontPlan& plan : front.plans()) {
        part.frontPlans.push_back(toPlan(plan.spatial, plan.temporal, facts.operands));
        part.frontCosts.push_back(plan.cost);
    }
    return part;
}

PartitionResult partitionOp(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, RunControl& control)
{
    std::vector<PartialSearch> parts;
    parts.push_back(searchPart(input, settings, costModel, transfer, 0, INT32_MAX, control));
    return finishSearch(input, settings, costModel, transfer, parts, control);
}

PartitionResult finishSearch(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, const std::vector<PartialSearch>& parts,
    RunControl& control)
{
    if (input.expr.dimExtents.empty() || settings.cores < 1) {
        PartitionResult result; // outside the contract; an error beats a crash
        result.error = "nothing to partition: the expression needs loop dims and the chip at least one core";
        return result;
    }
    const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
    detail::TemporalEnumerator temporal(facts);
    detail::PlanEvaluator evaluator(facts, settings, costModel, transfer);
    // The parts' fronts in enumeration order: the same front, ties to the first, as one pass over all.
    detail::ParetoFront front;
    std::int64_t enumerated = 0;
    std::int64_t smallestBytes = std::numeric_limits<std::int64_t>::max();
    bool anyFits = false;
    std::vector<std::int32_t> flat;
    for (const PartialSearch& part : parts) {
        if (part.stopped)
            return stopped();
        enumerated += part.enumerated;
        smallestBytes = std::min(smallestBytes, part.smallestBytes);
        anyFits = anyFits || part.anyFits;
        for (std::size_t k = 0; k < part.frontPlans.size(); ++k) {
            const PlanCost& cost = part.frontCosts[k];
            if (front.dominated(cost.executeBytes, cost.executeCycles()))
                continue;
            const Plan& plan = part.frontPlans[k];
            flat.clear();
            for (const auto& perOperand : plan.temporal)
                flat.insert(flat.end(), perOperand.begin(), perOperand.end());
            front.insert(plan.spatial.data(), flat.data(), facts.dims, facts.operands, cost);
        }
    }
    if (control.stopRequested())
        return stopped();

    PartitionResult result;
    if (!anyFits) {
        result.smallestBytesPerCore = smallestBytes;
        result.error = "needs at least " + groupDigits(smallestBytes)
            + " bytes per core (execute state of its smallest plan); the chip has "
            + groupDigits(settings.sramBytesPerCore);
        return result;
    }
    if (front.plans().empty()) {
        result.error = "the tile cost model '" + costModel.name() + "' gives no finite time for any plan";
        return result;
    }

    // Pass 2: preload plans of the front plans' spatial splits.
    std::vector<detail::TableDraft> drafts;
    if (facts.anyHbm && !detail::buildPreloadTable(facts, front.plans(), evaluator, temporal, control, drafts))
        return stopped();

    OpPlans plans;
    plans.enumeratedPlans = enumerated;
    for (std::size_t v = 1; v < input.expr.operands.size(); ++v) {
        if (!facts.fromHbm[v])
            continue;
        const std::int64_t elements = facts.copied[v]
            ? std::min(model::operandElements(input.expr, v), model::operandElements(input.expr, 0))
            : model::operandElements(input.expr, v);
        plans.hbmBytes += elements * facts.elementBytes[v];
    }
    PlanNumbering numbering(plans);
    std::vector<std::uint32_t> frontIndex;
    for (const FrontPlan& plan : front.plans()) {
        frontIndex.push_back(numbering.add(toPlan(plan.spatial, plan.temporal, facts.operands), plan.cost));
        plans.pareto.push_back(frontIndex.back());
    }
    if (!facts.anyHbm) {
        // Nothing to preload: each front plan is its own preload plan, with nothing to distribute.
        for (std::size_t h = 0; h < front.plans().size(); ++h) {
            PreloadEntry entry;
            entry.preloadBytes = 0;
            entry.executeBytes = front.plans()[h].cost.executeBytes;
            entry.preloadPlan = entry.executePlan = frontIndex[h];
            entry.totalCycles = front.plans()[h].cost.executeCycles();
            plans.table.push_back(entry);
        }
    }
    for (const detail::TableDraft& draft : drafts) {
        const FrontPlan& hot = front.plans()[draft.executeFront];
        PreloadEntry entry;
        entry.preloadBytes = draft.preloadBytes;
        entry.executeBytes = draft.executeBytes;
        entry.preloadPlan
            = numbering.add(toPlan(hot.spatial, draft.preloadTemporal, facts.operands), draft.preloadCost);
        entry.executePlan = frontIndex[draft.executeFront];
        entry.warmupCycles = draft.warmupCycles;
        entry.totalCycles = draft.totalCycles;
        plans.table.push_back(entry);
    }
    result.plans = std::move(plans);
    return result;
}

} // namespace elk::partition
