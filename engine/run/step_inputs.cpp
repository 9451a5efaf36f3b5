// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/step_inputs.h"

#include "engine/model/expr_fusion.h"

#include <algorithm>
#include <map>

namespace elk::run {

namespace {

    using model::TensorId;
    using model::TensorRole;

    bool isOperandOf(const model::Op& op, TensorId tensor)
    {
        return std::find(op.tensors.begin(), op.tensors.end(), tensor) != op.tensors.end();
    }

    /// An activation produced by a step and read (or handed back) at least one step later.
    struct LiveAcross {
        TensorId tensor = 0;
        int start = 0; ///< producing step
        int end = 0; ///< last reading step (step count for a graph output)
        std::int64_t bytesPerCore = 0;
    };

} // namespace

StepInputs buildStepInputs(const model::Graph& graph, const model::GraphAnalysis& analysis, std::int64_t cores,
    std::int64_t sramBytesPerCore, double maxReservedFraction)
{
    StepInputs result;
    const std::vector<model::OpId>& order = analysis.order;
    const int steps = int(order.size());

    std::vector<LiveAcross> live;
    for (TensorId id = 0; id < graph.tensors().size(); ++id) {
        const model::Tensor& tensor = graph.tensor(id);
        const model::TensorLifetime& lifetime = analysis.lifetimes[id];
        if (model::residesInHbm(tensor.role) || lifetime.start < 0 || lifetime.end <= lifetime.start + 1)
            continue;
        const std::int64_t bytes = graph.tensorBytes(id);
        live.push_back({ id, lifetime.start, lifetime.end, (bytes + cores - 1) / cores });
    }

    // reserved[s]: live-across activations at step s that are not operands of the op at s.
    std::vector<std::int64_t> reserved(std::size_t(steps) + 1, 0);
    std::vector<std::int64_t> delta(std::size_t(steps) + 2, 0);
    for (const LiveAcross& t : live) {
        delta[std::size_t(t.start + 1)] += t.bytesPerCore;
        delta[std::size_t(std::min(t.end, steps))] -= t.bytesPerCore;
    }
    std::int64_t running = 0;
    for (int s = 0; s < steps; ++s) {
        running += delta[std::size_t(s)];
        reserved[std::size_t(s)] = running;
    }
    std::vector<std::uint8_t> spilled(graph.tensors().size(), 0);
    // An operand is part of its op's execute state, not reserved space.
    for (int s = 0; s < steps; ++s) {
        const model::Op& op = graph.op(order[std::size_t(s)]);
        std::vector<TensorId> seen;
        for (TensorId id : op.tensors) {
            if (std::find(seen.begin(), seen.end(), id) != seen.end())
                continue;
            seen.push_back(id);
            const model::TensorLifetime& lifetime = analysis.lifetimes[id];
            const model::Tensor& tensor = graph.tensor(id);
            if (!model::residesInHbm(tensor.role) && lifetime.start >= 0 && lifetime.start < s && s < lifetime.end)
                reserved[std::size_t(s)] -= (graph.tensorBytes(id) + cores - 1) / cores;
        }
    }

    // Spill the largest activations first until every step keeps within the limit.
    const auto limit = std::int64_t(maxReservedFraction * double(sramBytesPerCore));
    auto overLimit
        = [&] { return std::any_of(reserved.begin(), reserved.end(), [&](std::int64_t r) { return r > limit; }); };
    if (overLimit()) {
        std::vector<LiveAcross> bySize = live;
        std::stable_sort(bySize.begin(), bySize.end(), [](const LiveAcross& a, const LiveAcross& b) {
            return a.bytesPerCore != b.bytesPerCore ? a.bytesPerCore > b.bytesPerCore : a.tensor < b.tensor;
        });
        for (const LiveAcross& t : bySize) {
            bool helps = false;
            for (int s = t.start + 1; s < std::min(t.end, steps) && !helps; ++s)
                helps = reserved[std::size_t(s)] > limit && !isOperandOf(graph.op(order[std::size_t(s)]), t.tensor);
            if (!helps)
                continue;
            spilled[t.tensor] = 1;
            result.spilledTensors.push_back(t.tensor);
            result.spilledBytes += graph.tensorBytes(t.tensor);
            for (int s = t.start + 1; s < std::min(t.end, steps); ++s) {
                if (!isOperandOf(graph.op(order[std::size_t(s)]), t.tensor))
                    reserved[std::size_t(s)] -= t.bytesPerCore;
            }
            if (!overLimit())
                break;
        }
        std::sort(result.spilledTensors.begin(), result.spilledTensors.end());
    }

    std::map<partition::PartitionInput, std::uint32_t> index;
    result.inputOfStep.reserve(std::size_t(steps));
    result.reservedBytesPerCore.assign(reserved.begin(), reserved.begin() + steps);
    for (int s = 0; s < steps; ++s) {
        const model::Op& op = graph.op(order[std::size_t(s)]);
        partition::PartitionInput input;
        // Fused dims: the same work over the few dims the operator really has (fast searches, and
        // operators that differ only in how a front end split their axes share one search).
        input.expr = fuseLoopDims(graph.expressions().at(op.expr));
        input.fromHbm.assign(op.tensors.size(), false);
        for (std::size_t v = 1; v < op.tensors.size(); ++v) {
            const TensorId id = op.tensors[v];
            const model::Tensor& tensor = graph.tensor(id);
            // Graph-input activations come from the host through HBM; spilled ones were written there
            // (the step right after the producer still finds its output on chip).
            const bool readBack = spilled[id] != 0 && s > analysis.lifetimes[id].start + 1;
            input.fromHbm[v] = model::residesInHbm(tensor.role) || !tensor.producer || readBack;
        }
        const auto [it, added] = index.try_emplace(std::move(input), std::uint32_t(result.distinctInputs.size()));
        if (added)
            result.distinctInputs.push_back(it->first);
        result.inputOfStep.push_back(it->second);
    }
    return result;
}

} // namespace elk::run
