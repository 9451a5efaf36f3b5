// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/allocator.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace elk::schedule {

PreloadTime preloadTime(const ScheduleProblem& problem, std::int64_t hbmBytes, std::int64_t preloadBytes)
{
    if (hbmBytes <= 0)
        return {};
    const double hbmCycles = static_cast<double>(hbmBytes) / problem.hbmBytesPerCycle;
    double nocCycles = static_cast<double>(preloadBytes) / problem.preloadIngressBytesPerCycle;
    if (problem.preloadInjectionBytesPerCycle > 0) // a mesh is fed through its edge links
        nocCycles = std::max(nocCycles,
            static_cast<double>(preloadBytes) * static_cast<double>(problem.cores)
                / problem.preloadInjectionBytesPerCycle);
    PreloadTime time;
    time.nocCycles = nocCycles;
    time.totalCycles = std::max(hbmCycles, nocCycles / problem.preloadNocThreshold);
    return time;
}

namespace {

    // Thresholds where the best cost strictly improves, over entries sorted by footprint.
    template <typename Footprint>
    void buildFrontier(std::vector<std::int64_t>& bytes, std::vector<std::uint32_t>& entries,
        const std::vector<std::uint32_t>& candidates, const std::vector<double>& cost, Footprint footprint)
    {
        std::vector<std::uint32_t> sorted = candidates;
        std::stable_sort(sorted.begin(), sorted.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (footprint(a) != footprint(b))
                return footprint(a) < footprint(b);
            if (cost[a] != cost[b])
                return cost[a] < cost[b];
            return a < b;
        });
        for (std::uint32_t e : sorted) {
            if (!entries.empty() && cost[e] >= cost[entries.back()])
                continue;
            if (!bytes.empty() && bytes.back() == footprint(e)) {
                entries.back() = e; // same size, cheaper (cannot happen after the sort; kept for safety)
                continue;
            }
            bytes.push_back(footprint(e));
            entries.push_back(e);
        }
    }

} // namespace

int Allocator::bestEntryCapped(
    std::uint32_t planSet, std::int64_t budgetBytes, bool minPreloadOnly, std::int64_t preloadCapBytes) const
{
    const partition::OpPlans& plans = *m_problem.planSets[planSet];
    const std::int64_t cap = std::max(preloadCapBytes, plans.minPreloadBytes());
    // The cheapest entry that qualifies, the lowest index on a tie: the first in cost order.
    for (std::uint32_t e : m_sets[planSet].byCost) {
        const auto& pe = plans.table[e];
        if (pe.executeBytes <= budgetBytes && pe.preloadBytes <= cap
            && (!minPreloadOnly || pe.preloadBytes == plans.minPreloadBytes()))
            return static_cast<int>(e);
    }
    return -1;
}

std::int64_t Allocator::minExecuteBytesCapped(
    std::uint32_t planSet, bool minPreloadOnly, std::int64_t preloadCapBytes) const
{
    const partition::OpPlans& plans = *m_problem.planSets[planSet];
    const std::int64_t cap = std::max(preloadCapBytes, plans.minPreloadBytes());
    std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
    for (const auto& pe : plans.table) {
        if (pe.preloadBytes <= cap && (!minPreloadOnly || pe.preloadBytes == plans.minPreloadBytes()))
            smallest = std::min(smallest, pe.executeBytes);
    }
    return smallest;
}

Allocator::Allocator(const ScheduleProblem& problem)
    : m_problem(problem)
{
    m_sets.resize(problem.planSets.size());
    for (std::size_t s = 0; s < problem.planSets.size(); ++s) {
        const partition::OpPlans& plans = *problem.planSets[s];
        SetTables& tables = m_sets[s];
        const auto& table = plans.table;
        const double minLoad = preloadTime(problem, plans.hbmBytes, plans.minPreloadBytes()).totalCycles;
        tables.cost.resize(table.size());
        tables.fastestCycles = table.empty() ? 0.0 : table.front().totalCycles;
        std::vector<std::uint32_t> all, minOnly;
        for (std::uint32_t e = 0; e < table.size(); ++e) {
            const double load = preloadTime(problem, plans.hbmBytes, table[e].preloadBytes).totalCycles;
            tables.cost[e] = table[e].totalCycles + (load - minLoad);
            tables.fastestCycles = std::min(tables.fastestCycles, table[e].totalCycles);
            all.push_back(e);
            if (table[e].preloadBytes == plans.minPreloadBytes())
                minOnly.push_back(e);
        }
        tables.byCost = all;
        std::stable_sort(tables.byCost.begin(), tables.byCost.end(),
            [&](std::uint32_t a, std::uint32_t b) { return tables.cost[a] < tables.cost[b]; });
        const auto exec = [&](std::uint32_t e) { return table[e].executeBytes; };
        const auto load = [&](std::uint32_t e) { return table[e].preloadBytes; };
        buildFrontier(tables.execAll.bytes, tables.execAll.entry, all, tables.cost, exec);
        buildFrontier(tables.execMinPreload.bytes, tables.execMinPreload.entry, minOnly, tables.cost, exec);
        buildFrontier(tables.preload.bytes, tables.preload.entry, all, tables.cost, load);
    }
}

const Allocator::Frontier& Allocator::frontier(std::uint32_t planSet, bool executing, bool minPreloadOnly) const
{
    const SetTables& tables = m_sets[planSet];
    if (!executing)
        return tables.preload;
    return minPreloadOnly ? tables.execMinPreload : tables.execAll;
}

int Allocator::bestEntry(std::uint32_t planSet, std::int64_t budgetBytes, bool minPreloadOnly) const
{
    const Frontier& f = frontier(planSet, true, minPreloadOnly);
    const auto it = std::upper_bound(f.bytes.begin(), f.bytes.end(), budgetBytes);
    if (it == f.bytes.begin())
        return -1;
    return static_cast<int>(f.entry[static_cast<std::size_t>(it - f.bytes.begin()) - 1]);
}

std::int64_t Allocator::minExecuteBytes(std::uint32_t planSet, bool minPreloadOnly) const
{
    const Frontier& f = frontier(planSet, true, minPreloadOnly);
    return f.bytes.empty() ? INT64_MAX / 4 : f.bytes.front();
}

std::optional<std::vector<std::uint32_t>> Allocator::allocateGroup(
    std::span<const Member> members, std::int64_t fixedBytes, std::int64_t capacityBytes)
{
    // The result depends on the members (plan sets and roles, in order) and the room they share.
    auto key = std::make_pair(std::vector<Member>(members.begin(), members.end()), capacityBytes - fixedBytes);
    if (const auto it = m_memo.find(key); it != m_memo.end())
        return it->second;

    std::vector<const Frontier*> fronts;
    std::vector<std::size_t> at; // position on each member's frontier
    std::int64_t total = fixedBytes;
    bool empty = false;
    for (const Member& m : members) {
        const Frontier& f = frontier(m.planSet, m.executing, false);
        fronts.push_back(&f);
        empty = empty || f.bytes.empty();
        at.push_back(f.bytes.empty() ? 0 : f.bytes.size() - 1);
        if (!f.bytes.empty())
            total += f.bytes.back();
    }
    std::optional<std::vector<std::uint32_t>> result;
    while (!empty && total > capacityBytes) {
        int pick = -1;
        double pickRatio = 0;
        for (std::size_t k = 0; k < members.size(); ++k) {
            if (at[k] == 0)
                continue;
            const Frontier& f = *fronts[k];
            const double dt
                = m_sets[members[k].planSet].cost[f.entry[at[k] - 1]] - m_sets[members[k].planSet].cost[f.entry[at[k]]];
            const double db = static_cast<double>(f.bytes[at[k]] - f.bytes[at[k] - 1]);
            const double ratio = dt / db;
            if (pick < 0 || ratio < pickRatio) {
                pick = static_cast<int>(k);
                pickRatio = ratio;
            }
        }
        if (pick < 0)
            break;
        const Frontier& f = *fronts[static_cast<std::size_t>(pick)];
        auto& pos = at[static_cast<std::size_t>(pick)];
        total -= f.bytes[pos] - f.bytes[pos - 1];
        --pos;
    }
    if (!empty && total <= capacityBytes) {
        result.emplace();
        for (std::size_t k = 0; k < members.size(); ++k)
            result->push_back(fronts[k]->entry[at[k]]);
    }
    m_memo.emplace(std::move(key), result);
    return result;
}

} // namespace elk::schedule
