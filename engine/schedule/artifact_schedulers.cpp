// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/artifact_schedulers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace elk::schedule::artifact {

namespace {
    constexpr const char* kCutShort = "cut short by the bound";
}
namespace {

    using i64 = std::int64_t;
    using partition::artifact::TableEntry;

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
        Scheduler(const std::vector<ParityOp>& ops, const ParityKnobs& knobs)
            : m_ops(ops)
            , m_knobs(knobs)
            , m_n(int(ops.size()))
        {
            m_K = std::max(1, m_n / std::max(1, knobs.layers));
            m_penaltyBytesPerCycle = knobs.linkGiBpsPerCore * double(1 << 30) / (knobs.cyclesPerMs * 1000.0);
            for (const ParityOp& op : ops) {
                const auto& table = op.plans->table;
                const i64 minCold = table.front().coldBytes;
                i64 smallestHotOfMinCold = std::numeric_limits<i64>::max(), smallestHot = smallestHotOfMinCold;
                for (const TableEntry& e : table) {
                    smallestHot = std::min(smallestHot, e.hotBytes);
                    if (e.coldBytes == minCold)
                        smallestHotOfMinCold = std::min(smallestHotOfMinCold, e.hotBytes);
                }
                m_minCold.push_back(minCold);
                m_smallestHotOfMinCold.push_back(smallestHotOfMinCold);
                m_smallestHot.push_back(smallestHot);
                // Lh (§3.3): the smallest preload footprint on every core, streamed at the HBM bandwidth.
                m_hbmCycles.push_back(
                    double(minCold) * double(knobs.cores) * knobs.cyclesPerMs / (double(1 << 20) * knobs.hbmMiBPerMs));
            }
        }

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
        void postprocessLoads(double start, double executeCycles, const std::vector<int>& loads);
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
        void placeFixed(int op, int entryIndex, double deadline, const std::vector<int>& loads, bool delay,
            double kappa, double theta);

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

    int Scheduler::choose(
        const std::vector<int>& group, const std::vector<i64>* chosenCold, const DesignConstants& constants)
    {
        // The artifact memoises per tuple of expression keys, ignoring the chosen sizes (§7 item 18).
        std::vector<int>& key = m_key;
        key.clear();
        key.push_back(constants.ideal ? 1 : 0);
        for (int op : group)
            key.push_back(m_ops[std::size_t(op)].exprKey);
        if (auto it = m_memo.find(key); it != m_memo.end())
            return it->second;
        const int op = group.front();
        double charged = 0;
        for (std::size_t g = 1; g < group.size(); ++g) {
            const auto j = std::size_t(group[g]);
            const double minCold = double(m_minCold[j]);
            if (!m_knobs.quirks.chooserUnderchargesPreloads)
                charged += double(entry(int(j), m_entry[j]).coldBytes);
            else if (constants.minColdCharge || chosenCold == nullptr || g > chosenCold->size())
                charged += minCold;
            else
                charged += std::sqrt(minCold * double((*chosenCold)[g - 1]));
        }
        const double budget = double(m_knobs.sramBytesPerCore) - 1.01 * charged;
        int best = -1;
        if (double(m_smallestHotOfMinCold[std::size_t(op)]) <= budget) {
            double bestCost = std::numeric_limits<double>::infinity();
            const auto& table = m_ops[std::size_t(op)].plans->table;
            for (std::size_t e = 0; e < table.size(); ++e) {
                const TableEntry& t = table[e];
                if (double(t.coldBytes) > budget || double(t.hotBytes) > budget)
                    continue;
                double cost;
                if (m_knobs.training) {
                    cost = t.totalCycles + double(t.coldBytes) / (2 * m_penaltyBytesPerCycle);
                } else {
                    double penalty = 0;
                    if (!constants.ideal) {
                        penalty = m_knobs.meshRatio > 0 ? commScaled(t) * std::max(0.0, 1 - 4 * (m_knobs.meshRatio - 1))
                                                        : double(t.coldBytes) / (2 * m_penaltyBytesPerCycle);
                    }
                    cost = executeCycles(t) + penalty;
                }
                if (cost < bestCost) {
                    bestCost = cost;
                    best = int(e);
                }
            }
        }
        // Only memoise groups whose charge does not depend on chosen sizes the key does not hold.
        if (m_knobs.quirks.chooserUnderchargesPreloads)
            m_memo.emplace(key, best);
        return best;
    }

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

    double Scheduler::nocFit(double deadline, double comm, const std::vector<int>& loads) const
    {
        // loads: latest first. Execution's shifts must fit the NoC idle time of the overlapped preloads.
        double left = comm;
        for (int j : loads) {
            const Interval& p = m_pre[std::size_t(j)];
            if (p.startCycles >= deadline)
                continue; // runs after this execution ends (Basic and Static overlap by memory, not by time)
            double available = m_idle[std::size_t(j)];
            double end = p.endCycles;
            if (end > deadline && p.endCycles > p.startCycles) {
                available *= (deadline - p.startCycles) / (p.endCycles - p.startCycles);
                end = deadline;
            }
            const double before = left;
            left -= available;
            if (left <= 0 && available > 0)
                return end - (end - p.startCycles) * before / available;
        }
        const double earliest = loads.empty() ? deadline : m_pre[std::size_t(loads.back())].startCycles;
        return earliest - left;
    }

    void Scheduler::postprocessLoads(double start, double executeCycles, const std::vector<int>& loads)
    {
        // Execution stalls the NoC instead of waiting (§4.3, delay-compute off): the overlapped preloads'
        // NoC-busy time must fit into the op's execution; what does not moves earlier. The reference says
        // "the op's compute cycles"; we read it as the op's execution time (compute + shifts, the interval
        // the preloads overlap). With compute only, Elk-Full on ipu-pod4-hbm is 7.37 ms against the
        // artifact's 6.72 ms, with the execution time 6.74 ms; the other nine measured latencies do not move.
        double left = executeCycles;
        for (std::size_t q = 0; q < loads.size(); ++q) {
            const int j = loads[q];
            Interval& p = m_pre[std::size_t(j)];
            if (p.startCycles < start)
                break;
            const double duration = p.endCycles - p.startCycles;
            if (duration <= 0)
                continue;
            const double busy = duration - m_idle[std::size_t(j)];
            left -= busy;
            if (left < 0 && busy > 0) {
                const double that = -left * duration / busy;
                const double newStart = std::min(p.startCycles, start - that);
                const double offset = newStart - p.startCycles;
                // Preloads of the ops between keep HBM serialised: they move by as much.
                for (std::size_t r = q; r < loads.size(); ++r) {
                    m_pre[std::size_t(loads[r])].startCycles += offset;
                    m_pre[std::size_t(loads[r])].endCycles += offset;
                }
                break;
            }
        }
    }

    std::optional<ParitySchedule> Scheduler::elk(
        const DesignConstants& constants, const std::vector<int>* order, std::string& error, double abandonAboveCycles)
    {
        reset();
        const int N = m_n;
        std::vector<int> pi;
        if (order)
            pi = *order;
        else
            for (int i = 0; i < N; ++i)
                pi.push_back(i);
        bool identity = true;
        for (int p = 0; p < N && identity; ++p)
            identity = pi[std::size_t(p)] == p;
        std::vector<int> pos(static_cast<std::size_t>(N));
        for (int p = 0; p < N; ++p)
            pos[std::size_t(pi[std::size_t(p)])] = p;
        std::vector<int> materialized; // latest placed last (= earliest in time)
        int back = N - 1;
        auto materialize = [&](int i) {
            while (back >= 0 && pi[std::size_t(back)] >= i) {
                const int op = pi[std::size_t(back)];
                double end = m_exe[std::size_t(op)].startCycles;
                if (!materialized.empty())
                    end = std::min(end, m_pre[std::size_t(materialized.back())].startCycles);
                placePreload(op, end);
                materialized.push_back(op);
                --back;
            }
        };
        const double meshR = m_knobs.meshRatio;
        std::vector<int> group, loads, bestLoads;
        std::vector<i64> chosen;
        struct Candidate {
            double deadline;
            std::vector<int> group;
            std::vector<int> loads; ///< materialized overlapped preloads, latest first
        };
        std::vector<Candidate> candidates;
        for (int i = N - 1; i >= 0; --i) {
            bool delay = constants.delayCompute;
            if (meshR >= 1 && meshR <= 1.15) {
                const int period = std::max(1, int(std::floor(32 / std::pow(meshR, 13))));
                delay = i % period == 0;
            }
            candidates.clear();
            chosen.clear();
            group.assign(1, i);
            if (!identity) {
                for (int p = std::max(0, pos[std::size_t(i)] - m_K); p < pos[std::size_t(i)]; ++p) {
                    if (pi[std::size_t(p)] > i)
                        group.push_back(pi[std::size_t(p)]);
                }
            }
            const int resident = int(group.size()) - 1;
            const int kCurrent = m_K - resident;
            loads.clear();
            if (i == N - 1) {
                candidates.push_back({ 0.0, group, {} });
            } else {
                const int walk = std::min(int(materialized.size()), kCurrent);
                bool broke = false;
                for (int q = 0; q < walk; ++q) {
                    if (!identity && q == kCurrent - 1) {
                        error = "order too memory bound";
                        return std::nullopt;
                    }
                    const int j = materialized[materialized.size() - 1 - std::size_t(q)];
                    chosen.push_back(m_entry[std::size_t(j)] >= 0 ? entry(j, m_entry[std::size_t(j)]).coldBytes : 0);
                    const double nextStart = m_exe[std::size_t(i + 1)].startCycles;
                    if (m_pre[std::size_t(j)].startCycles >= nextStart) {
                        candidates.push_back({ nextStart, group, loads });
                        broke = true;
                        break;
                    }
                    candidates.push_back({ m_pre[std::size_t(j)].startCycles, group, loads });
                    group.push_back(j);
                    loads.insert(loads.begin(), j);
                }
                if (candidates.empty() && !broke) {
                    if (!identity) {
                        error = "order too memory bound";
                        return std::nullopt;
                    }
                    candidates.push_back({ m_exe[std::size_t(i + 1)].startCycles, group, loads });
                }
            }
            if (m_minCold[std::size_t(i)] == 0 && candidates.size() > 1)
                candidates.erase(candidates.begin(), candidates.end() - 1);
            double bestStart = -std::numeric_limits<double>::infinity();
            int bestEntry = -1;
            std::size_t bestCandidate = 0;
            for (std::size_t c = 0; c < candidates.size(); ++c) {
                const int e = choose(candidates[c].group, &chosen, constants);
                if (e < 0)
                    break;
                const TableEntry& t = entry(i, e);
                double start = candidates[c].deadline - executeCycles(t);
                if (delay && !constants.ideal)
                    start = std::min(start, nocFit(candidates[c].deadline, commScaled(t), candidates[c].loads));
                if (start > bestStart) {
                    bestStart = start;
                    bestEntry = e;
                    bestCandidate = c;
                }
            }
            if (bestEntry < 0) {
                error = "no plan of op " + std::to_string(i) + " fits the SRAM left by the preloads it overlaps";
                return std::nullopt;
            }
            const Candidate& best = candidates[bestCandidate];
            m_entry[std::size_t(i)] = bestEntry;
            m_exe[std::size_t(i)] = { bestStart, best.deadline };
            if (!delay && !constants.ideal)
                postprocessLoads(bestStart, executeCycles(entry(i, bestEntry)), best.loads);
            m_loadCycles[std::size_t(i)]
                = preloadTime(i, entry(i, bestEntry).coldBytes, constants.kappaMiBPerMs, constants.theta);
            materialize(i);
            // Everything placed so far lies within the final latency (the first preload starts earliest).
            double earliest = m_exe[std::size_t(i)].startCycles;
            if (!materialized.empty())
                earliest = std::min(earliest, m_pre[std::size_t(materialized.back())].startCycles);
            if (-earliest > abandonAboveCycles) {
                error = kCutShort;
                return std::nullopt;
            }
        }
        return finish(Design::ElkDyn, pi);
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

    ParitySchedule Scheduler::finish(Design design, std::vector<int> order) const
    {
        ParitySchedule s;
        s.design = design;
        s.execute = m_exe;
        s.preload = m_pre;
        s.nocIdle = m_idle;
        if (order.empty())
            for (int i = 0; i < m_n; ++i)
                order.push_back(i);
        s.preloadOrder = order;
        for (int i = 0; i < m_n; ++i) {
            const TableEntry& t = entry(i, m_entry[std::size_t(i)]);
            s.compComm.emplace_back(compScaled(t), commScaled(t));
            s.coldHot.emplace_back(t.coldBytes, t.hotBytes);
        }
        // The artifact reports −start of the first preload in preload order.
        s.latencyCycles = -m_pre[std::size_t(order.front())].startCycles;
        return s;
    }

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
    // Groups of one layer, each ending at a matmul; trailing small ops join the last group.
    std::vector<std::pair<int, int>> groups; // [begin, end) relative to the layer start
    std::vector<std::vector<i64>> labels;
    int begin = 0;
    for (int t = 0; t < block.length; ++t) {
        const ParityOp& op = ops[std::size_t(block.prefix + t)];
        if (op.matmul) {
            groups.emplace_back(begin, t + 1);
            labels.push_back(op.dims); // QK^T and S·V have equal sizes but other shapes
            begin = t + 1;
        }
    }
    if (groups.empty())
        return { {} };
    groups.back().second = block.length;
    const int G = int(groups.size());
    std::vector<int> perm(static_cast<std::size_t>(G));
    for (int g = 0; g < G; ++g)
        perm[std::size_t(g)] = g;
    std::set<std::vector<std::vector<i64>>> seen;
    std::vector<std::vector<int>> groupOrders;
    // The orders grow exponentially with the groups of a layer (a wrong --layers doubles a "layer"):
    // past the limit the search is refused instead of filling the memory for hours.
    std::int64_t leaves = 0;
    bool tooMany = false;
    auto recurse = [&](auto&& self, int k) -> void {
        if (tooMany)
            return;
        if (k == G) {
            if (++leaves > 8 * maxOrders) {
                tooMany = true;
                return;
            }
            for (int p = 0; p < G; ++p) {
                if (std::abs(perm[std::size_t(p)] - p) > maxDisplacement)
                    return;
            }
            std::vector<std::vector<i64>> sequence;
            for (int g : perm)
                sequence.push_back(labels[std::size_t(g)]);
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
            if (std::abs(perm[std::size_t(k)] - k) <= maxDisplacement)
                self(self, k + 1);
            std::swap(perm[std::size_t(k)], perm[std::size_t(j)]);
        }
    };
    recurse(recurse, 0);
    if (tooMany) {
        if (error != nullptr)
            *error = "more than " + std::to_string(maxOrders) + " preload orders for a layer of " + std::to_string(G)
                + " matmul groups (" + std::to_string(block.length) + " ops, found for " + std::to_string(layers)
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
