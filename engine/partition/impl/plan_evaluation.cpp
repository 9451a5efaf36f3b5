// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/impl/plan_evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace elk::partition::detail {

PlanEvaluator::PlanEvaluator(const ExprFacts& facts, const PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer)
    : m_facts(facts)
    , m_costModel(costModel)
    , m_transfer(transfer)
{
    m_multiChip = settings.cores > settings.coresPerChip ? transfer.multiChipFactor : 1.0;
    if (!facts.expr->operands.empty())
        m_outputType = facts.expr->operands.front().dtype;
    m_operandBytes.assign(std::size_t(facts.operands), 0);
    m_rotated.assign(std::size_t(facts.operands), 0);
    m_iterExtent.assign(std::size_t(facts.dims), 1);
    m_largest.assign(std::size_t(facts.dims), 1);
    m_row.assign(std::size_t(facts.operands), 1);
    // Each round divides a dim's factors by at least 2: at most 63 rounds per dim.
    m_rounds.reserve(std::size_t(facts.dims) * 63);
}

void PlanEvaluator::measure(const std::int64_t* tile, const std::int32_t* temporal)
{
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    m_executeBytes = 0;
    m_preloadBytes = 0;
    std::int64_t outputElements = 0;
    for (std::size_t v = 0; v < V; ++v) {
        std::int64_t elements = 1;
        const AxisRef* axis = m_facts.axes.data() + m_facts.axisBegin[v];
        const AxisRef* end = m_facts.axes.data() + m_facts.axisBegin[v + 1];
        for (; axis != end; ++axis) {
            const auto d = std::size_t(axis->dim);
            std::int64_t extent = ceilDiv(tile[d], temporal[d * V + v]);
            if (axis->windowDim >= 0) {
                // A sliding-window axis spans (e0 - 1) · stride + e1 input elements.
                const auto w = std::size_t(axis->windowDim);
                extent = (extent - 1) * axis->stride + ceilDiv(tile[w], temporal[w * V + v]);
            }
            elements *= extent;
        }
        if (m_facts.copied[v])
            elements = std::min(elements, outputElements); // operand 0 was measured first
        if (v == 0)
            outputElements = elements;
        bool rotated = false;
        for (std::size_t d = 0; d < D; ++d)
            rotated = rotated || temporal[d * V + v] > 1;
        const std::int64_t bytes = elements * m_facts.elementBytes[v];
        m_operandBytes[v] = bytes;
        m_rotated[v] = rotated ? 1 : 0;
        // Rotated tensors are double-buffered: one part computes while the next arrives.
        m_executeBytes += rotated ? 2 * bytes : bytes;
        if (m_facts.fromHbm[v])
            m_preloadBytes += bytes;
    }
}

void PlanEvaluator::measure(const TemporalEnumerator& temporal)
{
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    const std::int32_t* rotation = temporal.temporal();
    if (temporal.plainAxes()) {
        const std::int64_t* elements = temporal.elements();
        const std::int64_t* rotationProduct = temporal.rotationProducts();
        m_executeBytes = 0;
        m_preloadBytes = 0;
        for (std::size_t v = 0; v < V; ++v) {
            const std::int64_t count = m_facts.copied[v] ? std::min(elements[v], elements[0]) : elements[v];
            const std::int64_t bytes = count * m_facts.elementBytes[v];
            const bool rotated = rotationProduct[v] > 1;
            m_operandBytes[v] = bytes;
            m_rotated[v] = rotated ? 1 : 0;
            m_executeBytes += rotated ? 2 * bytes : bytes;
            if (m_facts.fromHbm[v])
                m_preloadBytes += bytes;
        }
        return;
    }
    m_executeBytes = 0;
    m_preloadBytes = 0;
    std::int64_t outputElements = 0;
    for (std::size_t v = 0; v < V; ++v) {
        std::int64_t elements = 1;
        const AxisRef* axis = m_facts.axes.data() + m_facts.axisBegin[v];
        const AxisRef* end = m_facts.axes.data() + m_facts.axisBegin[v + 1];
        for (; axis != end; ++axis) {
            std::int64_t extent = temporal.extents(axis->dim)[v];
            if (axis->windowDim >= 0)
                extent = (extent - 1) * axis->stride + temporal.extents(axis->windowDim)[v];
            elements *= extent;
        }
        if (m_facts.copied[v])
            elements = std::min(elements, outputElements);
        if (v == 0)
            outputElements = elements;
        bool rotated = false;
        for (std::size_t d = 0; d < D && !rotated; ++d)
            rotated = rotation[d * V + v] > 1;
        const std::int64_t bytes = elements * m_facts.elementBytes[v];
        m_operandBytes[v] = bytes;
        m_rotated[v] = rotated ? 1 : 0;
        m_executeBytes += rotated ? 2 * bytes : bytes;
        if (m_facts.fromHbm[v])
            m_preloadBytes += bytes;
    }
}

double PlanEvaluator::shiftCycles(const std::int32_t* temporal)
{
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    m_rounds.clear();
    for (std::size_t d = 0; d < D; ++d) {
        if (m_largest[d] == 1)
            continue; // nothing rotates along d
        std::copy(temporal + d * V, temporal + (d + 1) * V, m_row.begin());
        for (;;) {
            // The factors > 1 of one dim form a divisibility chain (the enumeration guarantees it),
            // so their gcd is the smallest; anything else has no common rotation ring.
            std::int32_t g = 0;
            for (std::int32_t f : m_row) {
                if (f > 1 && (g == 0 || f < g))
                    g = f;
            }
            if (g == 0)
                break;
            Round round;
            round.shifts = g - 1;
            for (std::size_t v = 0; v < V; ++v) {
                if (m_row[v] > 1) {
                    if (m_row[v] % g != 0)
                        return std::numeric_limits<double>::infinity();
                    round.bytes += m_operandBytes[v];
                    ++round.tensors;
                    m_row[v] /= g;
                }
            }
            // Stable insertion by descending bytes: the heaviest ring is the outermost loop.
            auto pos = m_rounds.end();
            while (pos != m_rounds.begin() && (pos - 1)->bytes < round.bytes)
                --pos;
            m_rounds.insert(pos, round);
        }
    }
    double bytes = 0;
    double shifts = 0;
    double outer = 1; // Π (iters + 1) of the rounds outside this one
    for (const Round& round : m_rounds) {
        bytes += outer * double(round.shifts) * double(round.bytes);
        shifts += outer * double(round.shifts) * double(round.tensors);
        outer *= double(round.shifts + 1);
    }
    // Two buffer exchanges (syncs) per shift.
    return m_transfer.syncCycles * 2 * shifts + m_transfer.cyclesForBytes(bytes);
}

double PlanEvaluator::shuffleCycles(const std::int32_t* temporal, const std::int64_t* replicas)
{
    const double sync = m_transfer.syncCycles;
    m_partialSumCycles = 0;
    if (m_facts.syncOnlyShuffle)
        return sync;
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    std::int64_t outputRotation = 1;
    for (std::size_t d = 0; d < D; ++d)
        outputRotation *= temporal[d * V];
    // Cores holding partial sums of the same output part (a reduction dim split across cores).
    const std::int64_t partials = replicas[0] / outputRotation;
    double gather = 0;
    double reduce = 0;
    if (partials >= 2) {
        std::int64_t outputElements = 1;
        for (int a = m_facts.axisBegin[0]; a < m_facts.axisBegin[1]; ++a) {
            const AxisRef& axis = m_facts.axes[std::size_t(a)];
            std::int64_t extent = m_iterExtent[std::size_t(axis.dim)];
            if (axis.windowDim >= 0)
                extent = (extent - 1) * axis.stride + m_iterExtent[std::size_t(axis.windowDim)];
            outputElements *= extent;
        }
        const double outputBytes = double(outputElements) * double(m_facts.elementBytes[0]);
        const std::int64_t share = ceilDiv(outputElements, partials);
        gather = m_transfer.gatherCycles(outputBytes, double(partials));
        reduce = m_costModel.partialSumCycles(share, partials, m_outputType);
        m_partialSumCycles = reduce;
    }
    // Output redistribution, its syncs, then the partial-sum gather and reduction.
    return m_transfer.cyclesForBytes(double(m_operandBytes[0])) + 2 * sync + 4 * sync + gather + reduce;
}

double PlanEvaluator::commLowerBound(const TemporalEnumerator& temporal)
{
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    std::int64_t iterations = 1;
    for (std::size_t d = 0; d < D; ++d) {
        const std::int32_t largest = temporal.largest(int(d));
        m_largest[d] = largest;
        iterations *= largest;
        m_iterExtent[d] = temporal.iterExtent(int(d));
    }
    double shift = 0;
    if (iterations > 1) {
        std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
        for (std::size_t v = 0; v < V; ++v) {
            if (m_rotated[v])
                smallest = std::min(smallest, m_operandBytes[v]);
        }
        const double shifts = double(iterations - 1);
        shift = m_transfer.syncCycles * 2 * shifts + m_transfer.cyclesForBytes(shifts * double(smallest));
    }
    m_boundIterations = iterations;
    m_boundShuffle = shuffleCycles(temporal.temporal(), temporal.replicas());
    m_boundPartialSum = m_partialSumCycles;
    // A hair below, so that rounding never makes the bound exceed the exact sum.
    return (shift + m_boundShuffle) * m_multiChip * (1 - 1e-9);
}

double PlanEvaluator::computeAfterBound()
{
    constexpr std::size_t kSlots = 4096;
    if (m_tileCache.empty())
        m_tileCache.resize(kSlots);
    std::uint64_t hash = 1469598103934665603ull;
    for (std::int64_t e : m_iterExtent)
        hash = (hash ^ std::uint64_t(e)) * 1099511628211ull;
    TileCacheSlot& slot = m_tileCache[std::size_t(hash % kSlots)];
    if (slot.extents != m_iterExtent) {
        slot.extents = m_iterExtent;
        slot.cycles = m_costModel.tileCycles(
            *m_facts.expr, std::span<const std::int64_t>(m_iterExtent.data(), std::size_t(m_facts.dims)));
    }
    return double(m_boundIterations) * slot.cycles;
}

PlanCost PlanEvaluator::costAfterBound(const std::int32_t* temporal, double computeCycles)
{
    PlanCost cost;
    cost.executeBytes = m_executeBytes;
    cost.preloadBytes = m_preloadBytes;
    cost.iterations = m_boundIterations;
    cost.shiftCycles = shiftCycles(temporal) * m_multiChip;
    cost.reduceCycles = m_boundShuffle * m_multiChip;
    cost.partialSumCycles = m_boundPartialSum;
    cost.computeCycles = computeCycles;
    return cost;
}

PlanCost PlanEvaluator::commCost(const std::int64_t* tile, const std::int32_t* temporal, const std::int64_t* replicas)
{
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    PlanCost cost;
    cost.executeBytes = m_executeBytes;
    cost.preloadBytes = m_preloadBytes;
    std::int64_t iterations = 1;
    for (std::size_t d = 0; d < D; ++d) {
        std::int32_t largest = 1;
        for (std::size_t v = 0; v < V; ++v)
            largest = std::max(largest, temporal[d * V + v]);
        m_largest[d] = largest;
        iterations *= largest;
        m_iterExtent[d] = ceilDiv(tile[d], largest);
    }
    cost.iterations = iterations;
    cost.shiftCycles = shiftCycles(temporal) * m_multiChip;
    cost.reduceCycles = shuffleCycles(temporal, replicas) * m_multiChip;
    cost.partialSumCycles = m_partialSumCycles;
    return cost;
}

void PlanEvaluator::addCompute(PlanCost& cost) const
{
    const double tileCycles = m_costModel.tileCycles(
        *m_facts.expr, std::span<const std::int64_t>(m_iterExtent.data(), std::size_t(m_facts.dims)));
    cost.computeCycles = double(cost.iterations) * tileCycles;
}

PlanCost PlanEvaluator::cost(const std::int64_t* tile, const std::int32_t* temporal, const std::int64_t* replicas)
{
    PlanCost cost = commCost(tile, temporal, replicas);
    addCompute(cost);
    return cost;
}

double PlanEvaluator::warmupCycles(const std::int32_t* coldTemporal, const std::int32_t* hotTemporal) const
{
    const auto V = std::size_t(m_facts.operands);
    const auto D = std::size_t(m_facts.dims);
    double bytes = 0;
    double syncs = 0;
    for (std::size_t v = 0; v < V; ++v) {
        std::int64_t ratio = 1;
        for (std::size_t d = 0; d < D; ++d)
            ratio *= coldTemporal[d * V + v] / hotTemporal[d * V + v];
        if (ratio == 1)
            continue; // same layout: nothing moves
        if (v > 0)
            bytes += double(ratio) * double(m_operandBytes[v]);
        syncs += double(ratio);
    }
    return m_transfer.cyclesForBytes(bytes) + m_transfer.syncCycles * syncs;
}

} // namespace elk::partition::detail
