// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Basic, Static and Ideal designs (elk-reference.md §4), each placing the ops backwards: Basic and
// Static with the plan that fits their split of the SRAM, Ideal with the chooser's plan for the op alone.
#include "engine/schedule/artifact_list_scheduler.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace elk::schedule::artifact::detail {

int Scheduler::fixedPair(int op, i64 executeBytes, bool largestCold) const
{
    const auto& table = m_ops[std::size_t(op)].plans->table;
    i64 cold = -1;
    if (!largestCold) {
        cold = m_minCold[std::size_t(op)];
    } else {
        // The largest cold size whose smallest hot fits.
        std::map<i64, i64> smallestHot;
        for (const TableEntry& e : table) {
            auto [it, inserted] = smallestHot.try_emplace(e.coldBytes, e.hotBytes);
            if (!inserted)
                it->second = std::min(it->second, e.hotBytes);
        }
        for (const auto& [c, h] : smallestHot) {
            if (h <= executeBytes)
                cold = c;
        }
    }
    int best = -1;
    for (std::size_t e = 0; e < table.size(); ++e) {
        if (table[e].coldBytes == cold && table[e].hotBytes <= executeBytes
            && (best < 0 || table[e].hotBytes > table[std::size_t(best)].hotBytes))
            best = int(e);
    }
    return best;
}

void Scheduler::placeFixed(
    int op, int entryIndex, double deadline, const std::vector<int>& loads, bool delay, double kappa, double theta)
{
    const TableEntry& t = entry(op, entryIndex);
    double start = deadline - executeCycles(t);
    if (delay)
        start = std::min(start, nocFit(deadline, commScaled(t), loads));
    m_entry[std::size_t(op)] = entryIndex;
    m_exe[std::size_t(op)] = { start, deadline };
    m_loadCycles[std::size_t(op)] = preloadTime(op, t.coldBytes, kappa, theta);
    const double end = op + 1 < m_n ? std::min(start, m_pre[std::size_t(op + 1)].startCycles) : start;
    placePreload(op, end);
}

std::optional<ParitySchedule> Scheduler::basic(bool largestCold, std::string& error)
{
    reset();
    const double theta = m_knobs.quirks.basicPreloadStretch ? 0.7 : 1.0;
    const double kappa
        = m_knobs.quirks.perDesignConstants ? std::floor(m_knobs.linkGiBpsPerCore) : m_knobs.linkGiBpsPerCore;
    std::vector<int> loads;
    for (int i = m_n - 1; i >= 0; --i) {
        const i64 budget = m_knobs.sramBytesPerCore - m_smallestHotOfMinCold[std::size_t(i)];
        i64 accumulated = 0;
        int next = i + 1;
        loads.clear();
        // Preload later ops while they fit, stopping after the first that loads anything.
        for (; next < m_n; ++next) {
            const i64 cold = entry(next, m_entry[std::size_t(next)]).coldBytes;
            if (accumulated + cold > budget)
                break;
            accumulated += cold;
            loads.insert(loads.begin(), next);
            if (cold > 0) {
                ++next;
                break;
            }
        }
        double deadline = 0;
        if (i + 1 < m_n) {
            deadline = m_exe[std::size_t(i + 1)].startCycles;
            if (next < m_n)
                deadline = std::min(deadline, m_pre[std::size_t(next)].startCycles);
        }
        const int e = fixedPair(i, m_knobs.sramBytesPerCore - accumulated, largestCold);
        if (e < 0) {
            error = "op " + std::to_string(i) + " has no plan within the execute space Basic leaves";
            return std::nullopt;
        }
        placeFixed(i, e, deadline, loads, true, kappa, theta);
    }
    return finish(Design::Basic, {});
}

std::optional<ParitySchedule> Scheduler::staticDesign(i64 executeBytes, bool largestCold, std::string& error)
{
    reset();
    const double theta = m_knobs.quirks.basicPreloadStretch ? 0.7 : 1.0;
    const double kappa
        = m_knobs.quirks.perDesignConstants ? std::floor(m_knobs.linkGiBpsPerCore) : m_knobs.linkGiBpsPerCore;
    const i64 preloadSpace = m_knobs.sramBytesPerCore - executeBytes;
    const double meshR = m_knobs.meshRatio;
    std::vector<int> loads;
    for (int i = m_n - 1; i >= 0; --i) {
        bool delay = true;
        if (meshR >= 1 && meshR <= 1.15) {
            const int period = std::max(1, int(std::floor(10 / std::pow(meshR, 10))));
            delay = i % period == 0;
        }
        i64 accumulated = 0;
        int next = i + 1;
        loads.clear();
        for (; next < m_n; ++next) {
            const i64 cold = entry(next, m_entry[std::size_t(next)]).coldBytes;
            if (accumulated + cold > preloadSpace)
                break;
            accumulated += cold;
            loads.insert(loads.begin(), next);
        }
        double deadline = 0;
        if (i + 1 < m_n) {
            deadline = m_exe[std::size_t(i + 1)].startCycles;
            if (next < m_n)
                deadline = std::min(deadline, m_pre[std::size_t(next)].startCycles);
        }
        const int e = fixedPair(i, executeBytes, largestCold);
        if (e < 0) {
            error = "op " + std::to_string(i) + " has no plan within " + std::to_string(executeBytes) + " bytes";
            return std::nullopt;
        }
        placeFixed(i, e, deadline, loads, delay, kappa, theta);
    }
    return finish(Design::Static, {});
}

std::optional<ParitySchedule> Scheduler::ideal(std::string& error)
{
    reset();
    DesignConstants constants;
    constants.ideal = true;
    const double kappa = m_knobs.linkGiBpsPerCore;
    for (int i = m_n - 1; i >= 0; --i) {
        const int e = choose({ i }, nullptr, constants);
        if (e < 0) {
            error = "op " + std::to_string(i) + " fits no plan";
            return std::nullopt;
        }
        // The preload window is counted apart from the execute space (the op may use all of the SRAM).
        const i64 budget = m_knobs.sramBytesPerCore - m_smallestHotOfMinCold[std::size_t(i)];
        i64 accumulated = 0;
        int next = i + 1;
        for (int k = 1; next < m_n && k < m_K; ++next, ++k) {
            if (accumulated + m_minCold[std::size_t(next)] > budget)
                break;
            accumulated += m_minCold[std::size_t(next)];
        }
        double deadline = 0;
        if (i + 1 < m_n) {
            deadline = m_exe[std::size_t(i + 1)].startCycles;
            if (next < m_n)
                deadline = std::min(deadline, m_pre[std::size_t(next)].startCycles);
        }
        const TableEntry& t = entry(i, e);
        const double start = deadline - executeCycles(t);
        m_entry[std::size_t(i)] = e;
        m_exe[std::size_t(i)] = { start, deadline };
        const double lh = m_hbmCycles[std::size_t(i)];
        const double total = std::max(lh, lh / (kappa * double(m_knobs.cores) / m_knobs.hbmMiBPerMs));
        m_loadCycles[std::size_t(i)] = { total, total };
        const double end = i + 1 < m_n ? std::min(start, m_pre[std::size_t(i + 1)].startCycles) : start;
        placePreload(i, end);
    }
    return finish(Design::Ideal, {});
}
} // namespace elk::schedule::artifact::detail
