// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/impl/preload_table.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace elk::partition::detail {

namespace {

    struct BestPair {
        std::vector<std::int32_t> temporal;
        double warmupCycles = 0;
        double totalCycles = 0;
    };

    bool isRefinementOf(const std::int32_t* cold, const std::int32_t* hot, std::size_t count)
    {
        // The preload layout must be a finer rotation split of the execute layout.
        for (std::size_t i = 0; i < count; ++i) {
            if (cold[i] % hot[i] != 0)
                return false;
        }
        return true;
    }

} // namespace

bool buildPreloadTable(const ExprFacts& facts, const std::vector<FrontPlan>& front, PlanEvaluator& evaluator,
    TemporalEnumerator& temporal, RunControl& control, std::vector<TableDraft>& table)
{
    const auto D = std::size_t(facts.dims);
    const std::size_t cells = D * std::size_t(facts.operands);
    std::vector<std::int64_t> tile(D, 1);
    std::map<std::int64_t, BestPair> best; // preload bytes → fastest pair with this front plan
    int untilStopCheck = 1024;
    for (std::size_t h = 0; h < front.size(); ++h) {
        const FrontPlan& hot = front[h];
        const double executeCycles = hot.cost.executeCycles();
        for (std::size_t d = 0; d < D; ++d)
            tile[d] = ceilDiv(facts.extent[d], hot.spatial[d]);
        best.clear();
        temporal.reset(hot.spatial.data(), tile.data());
        while (temporal.next()) {
            if (--untilStopCheck == 0) {
                untilStopCheck = 1024;
                if (control.stopRequested())
                    return false;
            }
            const std::int32_t* cold = temporal.temporal();
            if (!isRefinementOf(cold, hot.temporal.data(), cells))
                continue;
            evaluator.measure(tile.data(), cold);
            const std::int64_t preloadBytes = evaluator.preloadBytes();
            if (preloadBytes > hot.cost.executeBytes)
                continue;
            const double warmup = evaluator.warmupCycles(cold, hot.temporal.data());
            const double total = executeCycles + warmup;
            auto [it, inserted] = best.try_emplace(preloadBytes);
            if (inserted || total < it->second.totalCycles) { // ties: the first enumerated stays
                it->second.temporal.assign(cold, cold + cells);
                it->second.warmupCycles = warmup;
                it->second.totalCycles = total;
            }
        }
        for (const auto& [preloadBytes, pair] : best) {
            TableDraft draft;
            draft.preloadBytes = preloadBytes;
            draft.executeBytes = hot.cost.executeBytes;
            draft.executeFront = h;
            draft.preloadTemporal = pair.temporal;
            evaluator.measure(tile.data(), pair.temporal.data());
            draft.preloadCost = evaluator.cost(tile.data(), pair.temporal.data(), temporal.replicas());
            draft.warmupCycles = pair.warmupCycles;
            draft.totalCycles = pair.totalCycles;
            table.push_back(std::move(draft));
        }
    }
    // (preload, execute) pairs are unique: each front plan has its own execute size.
    std::sort(table.begin(), table.end(), [](const TableDraft& a, const TableDraft& b) {
        return std::tie(a.preloadBytes, a.executeBytes) < std::tie(b.preloadBytes, b.executeBytes);
    });
    return true;
}

} // namespace elk::partition::detail
