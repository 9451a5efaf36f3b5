// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/artifact_schedulers.h"
#include "engine/schedule/artifact_list_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_set>

namespace elk::schedule::artifact {

namespace {

    using detail::DesignConstants;
    using detail::i64;
    using detail::kCutShort;
    using detail::Scheduler;

} // namespace

LayerBlock detectLayerBlock(const std::vector<ParityOp>& ops, int layers)
{
    const int n = int(ops.size());
    LayerBlock block;
    const int a = layers > 0 ? n / layers : n;
    block.length = a;
    auto key = [&](int i) { return ops[std::size_t(i)].exprKey; };
    for (int offset = 0; offset < a; ++offset) {
        for (int shift = 0; shift < a; ++shift) {
            const int count = a - offset;
            if (a + shift + count > n)
                break;
            bool equal = true;
            for (int t = 0; t < count && equal; ++t)
                equal = key(a + shift + t) == key(offset + t);
            if (equal) {
                block.prefix = offset;
                block.length = a - offset + shift;
                if (block.prefix + layers * block.length > n)
                    block.prefix = 0;
                return block;
            }
        }
    }
    block.prefix = 0;
    return block;
}

std::vector<std::vector<int>> reducedPreloadOrders(
    const std::vector<ParityOp>& ops, int layers, int maxDisplacement, std::string* error, std::int64_t maxOrders)
{
    const LayerBlock block = detectLayerBlock(ops, layers);
    const int n = int(ops.size());
    std::vector<std::vector<int>> orders;
    if (block.length <= 0 || block.prefix + layers * block.length > n)
        return { {} };
    // Groups of one layer, each ending at a matmul; trailing small ops join the last group. A group's
    // label is its matmul's dims (QK^T and S·V have equal sizes but other shapes), as a small id.
    std::vector<std::pair<int, int>> groups; // [begin, end) relative to the layer start
    std::vector<std::vector<i64>> labelDims;
    std::string labels; // one char per group: the index of its dims in labelDims
    int begin = 0;
    for (int t = 0; t < block.length; ++t) {
        const ParityOp& op = ops[std::size_t(block.prefix + t)];
        if (op.matmul) {
            groups.emplace_back(begin, t + 1);
            const auto found = std::find(labelDims.begin(), labelDims.end(), op.dims);
            labels.push_back(char(found - labelDims.begin()));
            if (found == labelDims.end())
                labelDims.push_back(op.dims);
            begin = t + 1;
        }
    }
    if (groups.empty() || labelDims.size() > 255) // a layer of that many matmul shapes has no tractable orders
        return { {} };
    groups.back().second = block.length;
    const int G = int(groups.size());
    std::vector<int> perm(static_cast<std::size_t>(G));
    for (int g = 0; g < G; ++g)
        perm[std::size_t(g)] = g;
    std::unordered_set<std::string> seen;
    std::vector<std::vector<int>> groupOrders;
    // The orders grow exponentially with the groups of a layer (a wrong --layers doubles a "layer"):
    // past either limit the search is refused instead of running for hours. Permutations that only swap
    // equally labelled groups are visited too (the first one found is kept, as the artifact does):
    // opt-30 at b64 / KV 4096 splits each KV matmul in four, 12 groups, 10 773 distinct orders among
    // 1.4 M permutations.
    const std::int64_t maxPermutations = 500 * maxOrders;
    std::int64_t permutations = 0;
    bool tooMany = false;
    std::string sequence(std::size_t(G), '\0');
    auto recurse = [&](auto&& self, int k) -> void {
        if (tooMany)
            return;
        if (k == G) {
            if (++permutations > maxPermutations) {
                tooMany = true;
                return;
            }
            for (int p = 0; p < G; ++p)
                sequence[std::size_t(p)] = labels[std::size_t(perm[std::size_t(p)])];
            if (seen.insert(sequence).second) {
                if (std::int64_t(groupOrders.size()) >= maxOrders) {
                    tooMany = true;
                    return;
                }
                groupOrders.push_back(perm);
            }
            return;
        }
        for (int j = k; j < G; ++j) {
            std::swap(perm[std::size_t(k)], perm[std::size_t(j)]);
            // |π(x) − x| ≤ maxDisplacement for the group placed here and for every group still unplaced
            // (one whose home lies more than maxDisplacement before the next position can no longer be
            // placed): every leaf is a valid order, and no order found changes.
            bool placeable = std::abs(perm[std::size_t(k)] - k) <= maxDisplacement;
            for (int t = k + 1; t < G && placeable; ++t)
                placeable = perm[std::size_t(t)] >= k + 1 - maxDisplacement;
            if (placeable)
                self(self, k + 1);
            std::swap(perm[std::size_t(k)], perm[std::size_t(j)]);
        }
    };
    recurse(recurse, 0);
    if (tooMany) {
        if (error != nullptr)
            *error = "more than " + std::to_string(maxOrders) + " preload orders (or " + std::to_string(maxPermutations)
                + " permutations) for a layer of " + std::to_string(G) + " matmul groups ("
                + std::to_string(block.length) + " ops, found for " + std::to_string(layers)
                + " layers); check the layer count (--layers): the paper's models have 32–80";
        return {};
    }
    for (const auto& groupOrder : groupOrders) {
        std::vector<int> order;
        order.reserve(std::size_t(n));
        for (int i = 0; i < block.prefix; ++i)
            order.push_back(i);
        for (int layer = 0; layer < layers; ++layer) {
            const int base = block.prefix + layer * block.length;
            for (int g : groupOrder)
                for (int t = groups[std::size_t(g)].first; t < groups[std::size_t(g)].second; ++t)
                    order.push_back(base + t);
        }
        for (int i = block.prefix + layers * block.length; i < n; ++i)
            order.push_back(i);
        orders.push_back(std::move(order));
    }
    return orders;
}

ParityResult scheduleParity(
    const std::vector<ParityOp>& ops, const ParityKnobs& knobs, Design design, RunControl& control)
{
    ParityResult result;
    if (ops.empty()) {
        result.error = "no operators";
        return result;
    }
    Scheduler scheduler(ops, knobs);
    const bool perDesign = knobs.quirks.perDesignConstants;
    const double link = knobs.linkGiBpsPerCore;
    auto keepBest = [&](std::optional<ParitySchedule> candidate, const std::string& note) {
        if (candidate && (!result.schedule || candidate->latencyCycles < result.schedule->latencyCycles)) {
            candidate->note = note;
            result.schedule = std::move(candidate);
        }
    };
    std::string error;
    switch (design) {
    case Design::Basic:
        keepBest(scheduler.basic(false, error), "smallest-cold variant");
        keepBest(scheduler.basic(true, error), "largest-cold variant");
        break;
    case Design::Static: {
        std::int64_t tried = 0;
        for (bool largest : { false, true }) {
            for (std::int64_t x = scheduler.staticLowestExecuteBytes(); x <= knobs.sramBytesPerCore; x += 10 * 1024) {
                if (control.stopRequested()) {
                    result.error = "stopped";
                    return result;
                }
                ++tried;
                keepBest(scheduler.staticDesign(x, largest, error),
                    std::string(largest ? "max-cold" : "min-cold") + ", execute space " + std::to_string(x / 1024)
                        + " KiB");
            }
        }
        if (result.schedule)
            result.schedule->ordersTried = tried;
        break;
    }
    case Design::ElkDyn: {
        DesignConstants constants;
        constants.kappaMiBPerMs = perDesign ? std::floor(link) : link;
        constants.minColdCharge = false;
        std::vector<double> thetas;
        if (!perDesign)
            thetas = { knobs.quirks.sharedTheta };
        else if (knobs.meshRatio > 0)
            thetas = { 0.7 };
        else
            thetas = { 0.9, 0.7, 0.5 };
        for (double theta : thetas) {
            constants.theta = theta;
            keepBest(scheduler.elk(constants, nullptr, error), "theta " + std::to_string(theta).substr(0, 4));
        }
        break;
    }
    case Design::ElkFull: {
        DesignConstants constants;
        constants.kappaMiBPerMs = link;
        constants.theta = perDesign ? 0.99 : knobs.quirks.sharedTheta;
        constants.minColdCharge = true;
        std::string orderError;
        const auto orders = knobs.training ? std::vector<std::vector<int>> { {} }
                                           : reducedPreloadOrders(ops, knobs.layers, 4, &orderError);
        if (!orderError.empty()) {
            result.error = orderError;
            return result;
        }
        std::int64_t tried = 0, valid = 0, cutShort = 0;
        for (const auto& order : orders) {
            for (bool delay : perDesign ? std::vector<bool> { false, true } : std::vector<bool> { true }) {
                if (control.stopRequested()) {
                    result.error = "stopped";
                    return result;
                }
                constants.delayCompute = delay;
                ++tried;
                // Only a strictly shorter schedule replaces the best (keepBest), so an order already
                // longer than it can stop: the same order wins as without the bound. The chooser's
                // memo is a pure cache here (Elk-Full charges preloads at their smallest size).
                const double bound = result.schedule && knobs.boundOrderSearch
                    ? result.schedule->latencyCycles
                    : std::numeric_limits<double>::infinity();
                auto schedule = scheduler.elk(constants, order.empty() ? nullptr : &order, error, bound);
                if (schedule) {
                    ++valid;
                    schedule->design = Design::ElkFull;
                } else if (error == kCutShort) {
                    ++cutShort;
                    error.clear();
                }
                keepBest(std::move(schedule), std::string("delay-compute ") + (delay ? "on" : "off"));
            }
        }
        if (result.schedule) {
            result.schedule->ordersTried = tried;
            result.schedule->validOrders = valid;
            result.schedule->ordersCutShort = cutShort;
        }
        break;
    }
    case Design::Ideal:
        keepBest(scheduler.ideal(error), "");
        break;
    }
    if (!result.schedule)
        result.error = error.empty() ? "no valid schedule" : error;
    return result;
}

} // namespace elk::schedule::artifact
