// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/graph_analysis.h"

#include <algorithm>
#include <climits>

namespace elk::model {

int LayerStructure::layerOf(int step) const
{
    if (opsPerLayer <= 0 || step < firstLayerStart)
        return -1;
    const int layer = (step - firstLayerStart) / opsPerLayer;
    return layer < layerCount ? layer : -1;
}

namespace {

    std::vector<int> stepsOf(const Graph& graph, const std::vector<OpId>& order)
    {
        std::vector<int> stepOf(graph.ops().size(), -1);
        for (std::size_t step = 0; step < order.size(); ++step) {
            if (order[step] < stepOf.size())
                stepOf[order[step]] = int(step);
        }
        return stepOf;
    }

    // ---- Layer detection -------------------------------------------------------------------

    constexpr int kFar = INT_MAX; ///< an input with no producer earlier in the order
    /// Block lengths tried: the most frequent spacings between occurrences of one expression.
    constexpr std::size_t kMaxCandidates = 24;
    /// Spacings from an occurrence to the next 1..8 of the same expression: a block length shows up
    /// for every expression used at most this often per block.
    constexpr std::size_t kOccurrenceSpan = 8;
    /// Repetition covering less than a quarter of the ops is structure inside one layer (Q/K/V
    /// projections, gate/up), not layers. Not half: in a training step the forward, backward and
    /// optimizer passes each repeat per layer, and the largest of them is about a third to a half.
    constexpr std::int64_t kMinCoverageDivisor = 4;

    /// The execution order reduced to what layer matching compares: each step's expression and,
    /// per input, how many steps back its producer ran.
    struct StepKeys {
        std::vector<ExprId> expr;
        std::vector<std::size_t> inputBegin; ///< inputs of step i: distance[inputBegin[i] .. inputBegin[i + 1])
        std::vector<int> distance; ///< step - producer step, or kFar
    };

    StepKeys stepKeys(const Graph& graph, const std::vector<OpId>& order, const std::vector<int>& stepOf)
    {
        StepKeys keys;
        keys.expr.reserve(order.size());
        keys.inputBegin.reserve(order.size() + 1);
        for (std::size_t step = 0; step < order.size(); ++step) {
            const Op& op = graph.op(order[step]);
            keys.expr.push_back(op.expr);
            keys.inputBegin.push_back(keys.distance.size());
            for (std::size_t i = 1; i < op.tensors.size(); ++i) {
                int distance = kFar;
                if (op.tensors[i] < graph.tensors().size()) {
                    const auto& producer = graph.tensor(op.tensors[i]).producer;
                    if (producer && *producer < stepOf.size() && stepOf[*producer] >= 0
                        && stepOf[*producer] < int(step))
                        distance = int(step) - stepOf[*producer];
                }
                keys.distance.push_back(distance);
            }
        }
        keys.inputBegin.push_back(keys.distance.size());
        return keys;
    }

    /// How deep into a block step i may sit for steps i and i + p to count as the same op of two
    /// consecutive blocks: 0 never (different expressions), kFar anywhere. An input whose producer
    /// distances differ (a, b) still matches while both producers lie outside the block, i.e. for
    /// block offsets below min(a, b).
    int matchLimit(const StepKeys& keys, std::size_t i, std::size_t p)
    {
        const std::size_t j = i + p;
        if (keys.expr[i] != keys.expr[j])
            return 0;
        const std::size_t countI = keys.inputBegin[i + 1] - keys.inputBegin[i];
        if (countI != keys.inputBegin[j + 1] - keys.inputBegin[j])
            return 0;
        int limit = kFar;
        for (std::size_t k = 0; k < countI; ++k) {
            const int a = keys.distance[keys.inputBegin[i] + k];
            const int b = keys.distance[keys.inputBegin[j] + k];
            if (a != b)
                limit = std::min(limit, std::min(a, b));
        }
        return limit;
    }

    struct Run {
        int start = 0;
        int count = 0; ///< blocks; 0 or 1 means no repetition
    };

    /// The longest run of consecutive matching blocks of length p (ties: the earlier start).
    Run longestRun(const StepKeys& keys, int p)
    {
        const int n = int(keys.expr.size());
        Run best;
        if (p <= 0 || 2 * p > n)
            return best;
        std::vector<int> limit(std::size_t(n - p));
        for (int i = 0; i < n - p; ++i)
            limit[std::size_t(i)] = matchLimit(keys, std::size_t(i), std::size_t(p));
        std::vector<int> constrained; // steps that match only at some block offsets
        int i = 0;
        while (i < n - p) {
            if (limit[std::size_t(i)] == 0) {
                ++i;
                continue;
            }
            const int runBegin = i;
            constrained.clear();
            for (; i < n - p && limit[std::size_t(i)] > 0; ++i) {
                if (limit[std::size_t(i)] < p)
                    constrained.push_back(i);
            }
            const int runEnd = i; // steps [runBegin, runEnd) match their successor block at some offsets
            // A start s' = s + p gives the same offsets as s but fewer blocks, so p starts suffice.
            for (int start = runBegin; start < runEnd && start < runBegin + p; ++start) {
                const int upperBound = 1 + (runEnd - start) / p;
                if (upperBound < 2 || upperBound <= best.count)
                    break; // later starts only do worse
                int firstMismatch = runEnd;
                for (auto it = std::lower_bound(constrained.begin(), constrained.end(), start); it != constrained.end();
                     ++it) {
                    if ((*it - start) % p >= limit[std::size_t(*it)]) {
                        firstMismatch = *it;
                        break;
                    }
                }
                const int count = 1 + (firstMismatch - start) / p;
                if (count >= 2 && count > best.count)
                    best = Run { start, count };
            }
        }
        return best;
    }

    /// Like longestRun, but two consecutive blocks still match when at most `tolerance` of their
    /// steps differ (an export that wires a few ops of some layers differently, or lists a layer's
    /// span twice): the run of blocks with the most blocks, starts tried at every offset of the first
    /// block. O(n · p).
    Run tolerantRun(const StepKeys& keys, int p, int tolerance)
    {
        const int n = int(keys.expr.size());
        Run best;
        if (p <= 0 || 2 * p > n)
            return best;
        std::vector<int> limit(std::size_t(n - p));
        for (int i = 0; i < n - p; ++i)
            limit[std::size_t(i)] = matchLimit(keys, std::size_t(i), std::size_t(p));
        for (int start = 0; start < p && start + 2 * p <= n; ++start) {
            int runStart = start;
            int blocks = 1;
            for (int b = start; b + 2 * p <= n; b += p) {
                int mismatches = 0;
                for (int i = b; i < b + p && mismatches <= tolerance; ++i)
                    mismatches += (i - b) >= limit[std::size_t(i)] ? 1 : 0;
                if (mismatches <= tolerance) {
                    ++blocks;
                } else {
                    runStart = b + p;
                    blocks = 1;
                }
                if (blocks >= 2 && blocks > best.count)
                    best = Run { runStart, blocks };
            }
        }
        return best;
    }

    /// Block lengths worth trying, most promising first: a block repeated L times puts every
    /// expression it uses c times at spacing p (reached c occurrences later), so p collects about
    /// one hit per op of the run. Sorted by hits, then length; deterministic.
    std::vector<int> candidateBlockLengths(const StepKeys& keys, std::size_t exprCount)
    {
        const std::size_t n = keys.expr.size();
        std::vector<std::vector<int>> occurrences(exprCount);
        for (std::size_t step = 0; step < n; ++step) {
            if (keys.expr[step] < exprCount)
                occurrences[keys.expr[step]].push_back(int(step));
        }
        std::vector<int> hits(n / 2 + 1, 0);
        for (const std::vector<int>& steps : occurrences) {
            for (std::size_t t = 0; t < steps.size(); ++t) {
                for (std::size_t c = 1; c <= kOccurrenceSpan && t + c < steps.size(); ++c) {
                    const std::size_t spacing = std::size_t(steps[t + c] - steps[t]);
                    if (spacing < hits.size())
                        ++hits[spacing];
                }
            }
        }
        std::vector<int> lengths;
        for (std::size_t p = 1; p < hits.size(); ++p) {
            if (hits[p] > 0)
                lengths.push_back(int(p));
        }
        const auto moreHits = [&](int a, int b) {
            return hits[std::size_t(a)] != hits[std::size_t(b)] ? hits[std::size_t(a)] > hits[std::size_t(b)] : a < b;
        };
        const std::size_t keep = std::min(kMaxCandidates, lengths.size());
        std::partial_sort(lengths.begin(), lengths.begin() + std::ptrdiff_t(keep), lengths.end(), moreHits);
        lengths.resize(keep);
        return lengths;
    }

    // ---- Totals ---------------------------------------------------------------------------

    struct ExprCost {
        std::int64_t flops = 0;
        std::int64_t bytes = 0;
    };

    /// Costs per distinct expression: layers repeat, so there are far fewer of them than ops.
    std::vector<ExprCost> exprCosts(const Graph& graph)
    {
        std::vector<ExprCost> costs;
        costs.reserve(graph.expressions().size());
        for (const TensorExpr& expr : graph.expressions().expressions())
            costs.push_back(ExprCost { flopCount(expr), byteCount(expr) });
        return costs;
    }

    GraphTotals totalsWith(const Graph& graph, const std::vector<ExprCost>& costs)
    {
        GraphTotals totals;
        for (const Op& op : graph.ops()) {
            const ExprCost& cost = costs.at(op.expr);
            totals.flops += cost.flops;
            totals.hbmBytesNoReuse += cost.bytes;
        }
        for (TensorId id = 0; id < graph.tensors().size(); ++id) {
            const Tensor& tensor = graph.tensor(id);
            if (tensor.role == TensorRole::Weight && !tensor.producer) {
                totals.params += elementCount(tensor.shape);
                totals.weightBytes += graph.tensorBytes(id);
            } else if (tensor.role == TensorRole::OptimizerState && !tensor.producer) {
                totals.optimizerStateBytes += graph.tensorBytes(id);
            } else if (tensor.role == TensorRole::KvCache) {
                if (tensor.producer)
                    totals.kvBytesWritten += graph.tensorBytes(id);
                else if (!tensor.consumers.empty())
                    totals.kvBytesRead += graph.tensorBytes(id);
            }
        }
        return totals;
    }

} // namespace

std::vector<TensorLifetime> tensorLifetimes(const Graph& graph, const std::vector<OpId>& order)
{
    const std::vector<int> stepOf = stepsOf(graph, order);
    std::vector<TensorLifetime> lifetimes(graph.tensors().size());
    for (std::size_t step = 0; step < order.size(); ++step) {
        const Op& op = graph.op(order[step]);
        for (std::size_t i = 1; i < op.tensors.size(); ++i) {
            if (op.tensors[i] >= lifetimes.size())
                continue;
            TensorLifetime& life = lifetimes[op.tensors[i]];
            if (life.firstUse < 0)
                life.firstUse = int(step); // steps ascend, so the first read seen is the first use
            life.end = int(step);
        }
    }
    std::vector<bool> isOutput(lifetimes.size(), false);
    for (TensorId id : graph.outputs()) {
        if (id < isOutput.size())
            isOutput[id] = true;
    }
    for (TensorId id = 0; id < lifetimes.size(); ++id) {
        TensorLifetime& life = lifetimes[id];
        const auto& producer = graph.tensor(id).producer;
        if (producer && *producer < stepOf.size())
            life.start = stepOf[*producer];
        if (isOutput[id])
            life.end = int(order.size());
        else if (life.firstUse < 0)
            life.end = life.start; // -1 when neither produced nor read
    }
    return lifetimes;
}

LayerStructure detectLayers(const Graph& graph, const std::vector<OpId>& order)
{
    const int n = int(order.size());
    LayerStructure whole { 0, n > 0 ? 1 : 0, n, 0, 0 };
    if (n < 2)
        return whole;
    const StepKeys keys = stepKeys(graph, order, stepsOf(graph, order));

    int bestLength = 0;
    Run bestRun;
    const auto consider = [&](int p, bool preferOnTie) {
        const Run run = longestRun(keys, p);
        const std::int64_t covered = std::int64_t(run.count) * p;
        const std::int64_t bestCovered = std::int64_t(bestRun.count) * bestLength;
        if (run.count >= 2 && (covered > bestCovered || (covered == bestCovered && (preferOnTie || p < bestLength)))) {
            bestLength = p;
            bestRun = run;
            return true;
        }
        return false;
    };
    for (int p : candidateBlockLengths(keys, graph.expressions().size()))
        consider(p, false);
    // Real exports are not always regular: when exact repetition covers less than two thirds of the
    // ops, blocks that differ in at most 1 of 16 steps count as the same layer, if that covers at
    // least a quarter more.
    if (std::int64_t(bestRun.count) * bestLength * 3 < 2 * std::int64_t(n)) {
        int tolerantLength = 0;
        Run tolerant;
        for (int p : candidateBlockLengths(keys, graph.expressions().size())) {
            if (p < 16)
                continue; // shorter blocks are matched exactly: one differing step is a sixteenth
            const Run run = tolerantRun(keys, p, p / 16);
            const std::int64_t covered = std::int64_t(run.count) * p;
            if (run.count >= 2
                && (covered > std::int64_t(tolerant.count) * tolerantLength
                    || (covered == std::int64_t(tolerant.count) * tolerantLength && p < tolerantLength))) {
                tolerant = run;
                tolerantLength = p;
            }
        }
        const std::int64_t exactCovered = std::int64_t(bestRun.count) * bestLength;
        if (4 * std::int64_t(tolerant.count) * tolerantLength >= 5 * exactCovered && tolerant.count >= 2) {
            bestRun = tolerant;
            bestLength = tolerantLength;
        }
    }
    if (bestRun.count < 2 || std::int64_t(bestRun.count) * bestLength * kMinCoverageDivisor < n)
        return whole;
    // A block that is itself periodic (two identical halves) covers as much with a shorter length.
    const int found = bestLength;
    for (int q = 1; q < found; ++q) {
        if (found % q == 0 && consider(q, true))
            break;
    }
    const int covered = bestRun.count * bestLength;
    return LayerStructure { bestRun.start, bestRun.count, bestLength, n - bestRun.start - covered, bestRun.start };
}

GraphTotals graphTotals(const Graph& graph)
{
    return totalsWith(graph, exprCosts(graph));
}

GraphAnalysis analyzeGraph(const Graph& graph)
{
    GraphAnalysis analysis;
    analysis.order = graph.topologicalOrder();
    analysis.stepOf = stepsOf(graph, analysis.order);
    analysis.lifetimes = tensorLifetimes(graph, analysis.order);
    analysis.layers = detectLayers(graph, analysis.order);
    const std::vector<ExprCost> costs = exprCosts(graph);
    analysis.totals = totalsWith(graph, costs);
    analysis.arithmeticIntensity.reserve(graph.ops().size());
    for (const Op& op : graph.ops()) {
        const ExprCost& cost = costs.at(op.expr);
        analysis.arithmeticIntensity.push_back(cost.bytes > 0 ? double(cost.flops) / double(cost.bytes) : 0.0);
    }
    return analysis;
}

} // namespace elk::model
