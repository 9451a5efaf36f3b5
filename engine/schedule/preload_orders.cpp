// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/preload_orders.h"

#include <algorithm>
#include <cstdlib>

namespace elk::schedule {

namespace {

    /// Per layer-relative op: the largest need over all layers (identical layers: one value).
    struct LayerNeeds {
        std::vector<std::int64_t> execAll, execMin, preloadMin, hbm;
        std::vector<std::uint32_t> label;
    };

    LayerNeeds layerNeeds(const ScheduleProblem& problem, const Allocator& allocator)
    {
        const auto& layers = problem.layers;
        const auto ops = static_cast<std::size_t>(layers.opsPerLayer);
        LayerNeeds needs;
        needs.execAll.assign(ops, 0);
        needs.execMin.assign(ops, 0);
        needs.preloadMin.assign(ops, 0);
        needs.hbm.assign(ops, 0);
        needs.label.assign(ops, 0);
        for (int l = 0; l < layers.layerCount; ++l) {
            for (std::size_t r = 0; r < ops; ++r) {
                const Step& step = problem.steps[static_cast<std::size_t>(layers.firstLayerStart)
                    + static_cast<std::size_t>(l) * ops + r];
                const auto& plans = *problem.planSets[step.planSet];
                needs.execAll[r] = std::max(
                    needs.execAll[r], allocator.minExecuteBytes(step.planSet, false) + step.reservedBytesPerCore);
                needs.execMin[r] = std::max(
                    needs.execMin[r], allocator.minExecuteBytes(step.planSet, true) + step.reservedBytesPerCore);
                needs.preloadMin[r] = std::max(needs.preloadMin[r], plans.minPreloadBytes());
                needs.hbm[r] = std::max(needs.hbm[r], plans.hbmBytes);
                if (l == 0)
                    needs.label[r] = step.planSet;
            }
        }
        return needs;
    }

    /// `position` per layer-relative op; -1 = not placed yet (then its position is at most `unknownMax`).
    /// Checks the needs the placed positions already force; exact when every position is known.
    bool fits(const LayerNeeds& needs, const std::vector<int>& position, int unknownMax, std::int64_t sram)
    {
        const int n = static_cast<int>(position.size());
        int maxKnown = -1; // over ops u <= r with a known position
        for (int r = 0; r < n; ++r) {
            const int p = position[static_cast<std::size_t>(r)];
            const bool inverted = p >= 0 && p < maxKnown;
            if (p >= 0)
                maxKnown = std::max(maxKnown, p);
            std::int64_t need
                = inverted ? needs.execMin[static_cast<std::size_t>(r)] : needs.execAll[static_cast<std::size_t>(r)];
            for (int m = r + 1; m < n && need <= sram; ++m) {
                const int pm = position[static_cast<std::size_t>(m)];
                if ((pm >= 0 ? pm : unknownMax) < maxKnown)
                    need += needs.preloadMin[static_cast<std::size_t>(m)];
            }
            if (need > sram)
                return false;
        }
        return true;
    }

    struct Search {
        const LayerNeeds& needs;
        const PreloadOrderOptions& options;
        RunControl& control;
        std::int64_t sram;
        std::vector<int> movable; // slot j holds home position movable[j]
        std::vector<int> position; // layer-relative op -> position, -1 unknown
        std::vector<char> used;
        LayerOrders& out;

        void descend(int slot)
        {
            if (out.truncated || out.stopped)
                return;
            if (++out.nodesVisited > options.maxNodes) {
                out.truncated = true;
                return;
            }
            if ((out.nodesVisited & 1023) == 0 && control.stopRequested()) {
                out.stopped = true;
                return;
            }
            if (slot < 0) {
                std::vector<int> order(position.size());
                for (std::size_t r = 0; r < position.size(); ++r)
                    order[static_cast<std::size_t>(position[r])] = static_cast<int>(r);
                out.orders.push_back(std::move(order));
                if (static_cast<int>(out.orders.size()) >= options.maxOrders)
                    out.truncated = true;
                return;
            }
            const int h = static_cast<int>(movable.size());
            std::vector<std::uint32_t> triedLabels;
            for (int home = h - 1; home >= 0; --home) { // descending: identity first
                if (used[static_cast<std::size_t>(home)])
                    continue;
                const std::uint32_t label
                    = needs.label[static_cast<std::size_t>(movable[static_cast<std::size_t>(home)])];
                // Equal labels keep their relative order: only the largest unused home of a label may
                // take this slot, so no order is produced twice.
                if (std::find(triedLabels.begin(), triedLabels.end(), label) != triedLabels.end())
                    continue;
                triedLabels.push_back(label);
                if (std::abs(home - slot) > options.maxDisplacement)
                    continue;
                // Every op left must still reach a slot within the displacement bound.
                bool reachable = true;
                for (int other = h - 1; other >= 0 && reachable; --other)
                    if (other != home && !used[static_cast<std::size_t>(other)]
                        && other - options.maxDisplacement > slot - 1)
                        reachable = false;
                if (!reachable)
                    continue;
                const int op = movable[static_cast<std::size_t>(home)];
                used[static_cast<std::size_t>(home)] = 1;
                position[static_cast<std::size_t>(op)] = movable[static_cast<std::size_t>(slot)];
                const int unknownMax = slot > 0 ? movable[static_cast<std::size_t>(slot - 1)] : -1;
                if (fits(needs, position, unknownMax, sram))
                    descend(slot - 1);
                position[static_cast<std::size_t>(op)] = -1;
                used[static_cast<std::size_t>(home)] = 0;
                if (out.truncated || out.stopped)
                    return;
            }
        }
    };

} // namespace

bool orderFitsSram(const ScheduleProblem& problem, const Allocator& allocator, const std::vector<int>& layerOrder)
{
    if (problem.layers.layerCount <= 0)
        return true;
    const LayerNeeds needs = layerNeeds(problem, allocator);
    std::vector<int> position(layerOrder.size());
    for (std::size_t q = 0; q < layerOrder.size(); ++q)
        position[static_cast<std::size_t>(layerOrder[q])] = static_cast<int>(q);
    return fits(needs, position, -1, problem.sramBytesPerCore);
}

LayerOrders generateLayerOrders(
    const ScheduleProblem& problem, const Allocator& allocator, const PreloadOrderOptions& options, RunControl& control)
{
    LayerOrders out;
    const auto& layers = problem.layers;
    const int ops = layers.opsPerLayer;
    if (layers.layerCount <= 0 || ops <= 0) {
        out.orders.emplace_back();
        return out;
    }
    std::vector<int> identity(static_cast<std::size_t>(ops));
    for (int r = 0; r < ops; ++r)
        identity[static_cast<std::size_t>(r)] = r;
    const LayerNeeds needs = layerNeeds(problem, allocator);
    const std::int64_t largest = *std::max_element(needs.hbm.begin(), needs.hbm.end());
    for (int r = 0; r < ops; ++r) {
        const auto load = static_cast<double>(needs.hbm[static_cast<std::size_t>(r)]);
        if (load > 0 && load >= options.heavyFraction * static_cast<double>(largest))
            out.movable.push_back(r);
    }
    if (out.movable.size() < 2 || options.maxOrders <= 1) {
        out.orders.push_back(identity);
        return out;
    }
    std::vector<int> position(identity);
    for (int r : out.movable)
        position[static_cast<std::size_t>(r)] = -1;
    Search search { needs, options, control, problem.sramBytesPerCore, out.movable, position,
        std::vector<char>(out.movable.size(), 0), out };
    search.descend(static_cast<int>(out.movable.size()) - 1);
    if (out.orders.empty() || out.orders.front() != identity)
        out.orders.insert(out.orders.begin(), identity); // identity first even when it overflows
    return out;
}

std::vector<int> expandLayerOrder(const ScheduleProblem& problem, const std::vector<int>& layerOrder)
{
    const int n = static_cast<int>(problem.steps.size());
    std::vector<int> order;
    order.reserve(static_cast<std::size_t>(n));
    const auto& layers = problem.layers;
    const int first = layers.firstLayerStart;
    const int ops = layers.opsPerLayer;
    const int layered = layerOrder.empty() ? 0 : layers.layerCount * ops;
    for (int i = 0; i < first && i < n; ++i)
        order.push_back(i);
    for (int l = 0; l < (layered > 0 ? layers.layerCount : 0); ++l)
        for (int r : layerOrder)
            order.push_back(first + l * ops + r);
    for (int i = layered > 0 ? first + layered : first; i < n; ++i)
        order.push_back(i);
    return order;
}

} // namespace elk::schedule
