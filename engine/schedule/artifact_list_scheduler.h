// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal: the artifact's backward list scheduler behind scheduleParity. Split over
// artifact_list_scheduler.cpp (the steps the designs share, and the Elk-Dyn/Elk-Full pass) and
// artifact_basic_static_ideal.cpp (the Basic, Static and Ideal passes).

#include "engine/schedule/artifact_schedulers.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace elk::schedule::artifact::detail {

using i64 = std::int64_t;
using partition::artifact::TableEntry;

/// The error of an Elk pass abandoned by its bound: scheduleParity counts these apart from failures.
inline constexpr const char* kCutShort = "cut short by the bound";

/// Per-design constants (§4.1, §4.5).
struct DesignConstants {
    double kappaMiBPerMs = 5; ///< per-core preload ingress
    double theta = 0.7;
    bool delayCompute = true;
    bool minColdCharge = true; ///< chooser charges preloads at min cold (else geometric mean with chosen)
    bool ideal = false;
};

class Scheduler {
public:
    Scheduler(const std::vector<ParityOp>& ops, const ParityKnobs& knobs);

    /// `abandonAboveCycles`: give up (nothing, error "cut short by the bound") as soon as the schedule is
    /// certain to be longer: the latency only grows as ops are placed backwards.
    std::optional<ParitySchedule> elk(const DesignConstants& constants, const std::vector<int>* order,
        std::string& error, double abandonAboveCycles = std::numeric_limits<double>::infinity());
    std::optional<ParitySchedule> basic(bool largestCold, std::string& error);
    std::optional<ParitySchedule> staticDesign(i64 executeBytes, bool largestCold, std::string& error);
    std::optional<ParitySchedule> ideal(std::string& error);
    i64 staticLowestExecuteBytes() const
    {
        i64 most = 0;
        for (i64 hot : m_smallestHot)
            most = std::max(most, hot);
        return (most + 1023) / 1024 * 1024;
    }
    void clearMemo() { m_memo.clear(); }

private:
    const TableEntry& entry(int op, int e) const { return m_ops[std::size_t(op)].plans->table[std::size_t(e)]; }
    double compScaled(const TableEntry& e) const { return e.compCycles / m_knobs.compScale; }
    double commScaled(const TableEntry& e) const { return e.commCycles / m_knobs.commScale; }
    double executeCycles(const TableEntry& e) const
    {
        if (m_knobs.training)
            return e.totalCycles;
        return e.totalCycles - (e.commCycles - commScaled(e)) - (e.compCycles - compScaled(e));
    }
    /// (L, Ln) of op's preload with `coldBytes` per core (§4.1).
    std::pair<double, double> preloadTime(int op, i64 coldBytes, double kappa, double theta) const
    {
        const double lh = m_hbmCycles[std::size_t(op)];
        if (m_minCold[std::size_t(op)] == 0)
            return { 0, 0 };
        if (m_knobs.meshRatio > 0)
            return { lh, lh / m_knobs.meshRatio };
        const double ln = double(coldBytes) * m_knobs.cyclesPerMs / (double(1 << 20) * kappa);
        return { std::max(lh, ln / theta), ln };
    }
    /// search_optimal_global_config_icbm (§4.2): op group[0] executes, the rest are preloaded.
    int choose(const std::vector<int>& group, const std::vector<i64>* chosenCold, const DesignConstants& constants);
    int fixedPair(int op, i64 executeBytes, bool largestCold) const;
    double nocFit(double deadline, double comm, const std::vector<int>& loads) const;
    void postprocessLoads(double start, double deadline, double computeCycles, const std::vector<int>& loads);
    void reset()
    {
        const auto n = std::size_t(m_n);
        m_exe.assign(n, { 0, 0 });
        m_pre.assign(n, { 0, 0 });
        m_idle.assign(n, 0);
        m_entry.assign(n, -1);
        m_loadCycles.assign(n, { 0, 0 });
    }
    /// Places op's preload to end at min(end, the next preload's start).
    void placePreload(int op, double end)
    {
        const auto [total, noc] = m_loadCycles[std::size_t(op)];
        m_pre[std::size_t(op)] = { end - total, end };
        m_idle[std::size_t(op)] = total - noc;
    }
    ParitySchedule finish(Design design, std::vector<int> order) const;
    /// The common step of Basic, Static and Ideal: op executes before `deadline` with `entry`.
    void placeFixed(
        int op, int entryIndex, double deadline, const std::vector<int>& loads, bool delay, double kappa, double theta);

    const std::vector<ParityOp>& m_ops;
    const ParityKnobs& m_knobs;
    int m_n;
    int m_K = 1;
    double m_penaltyBytesPerCycle = 0;
    std::vector<i64> m_minCold, m_smallestHotOfMinCold, m_smallestHot;
    std::vector<double> m_hbmCycles;
    /// FNV-1a over the keys: the memo is looked up tens of millions of times in an Elk-Full search.
    struct KeyHash {
        std::size_t operator()(const std::vector<int>& key) const
        {
            std::uint64_t h = 1469598103934665603ull;
            for (int k : key)
                h = (h ^ std::uint64_t(std::uint32_t(k))) * 1099511628211ull;
            return std::size_t(h);
        }
    };
    std::unordered_map<std::vector<int>, int, KeyHash> m_memo;
    std::vector<int> m_key; ///< choose()'s key, reused (no allocation per lookup)
    std::vector<Interval> m_exe, m_pre;
    std::vector<double> m_idle;
    std::vector<int> m_entry;
    std::vector<std::pair<double, double>> m_loadCycles;
};

} // namespace elk::schedule::artifact::detail
