// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The artifact's list scheduler (elk-reference.md §4): the plan chooser, the NoC fit of an execution
// into the preloads it overlaps, the Elk-Dyn/Elk-Full backward pass and the finished schedule.
#include "engine/schedule/artifact_list_scheduler.h"

#include <algorithm>
#include <cmath>

namespace elk::schedule::artifact::detail {

Scheduler::Scheduler(const std::vector<ParityOp>& ops, const ParityKnobs& knobs)
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

void Scheduler::postprocessLoads(double start, double deadline, double computeCycles, const std::vector<int>& loads)
{
    // Execution stalls the NoC instead of waiting (delay-compute off). elk-reference.md §4.3 on
    // postprocess_loads: "walk the same preloads, subtracting each one's NoC-busy time (end − start − R)
    // (prorated the same way) from the op's compute cycles; stop early when a preload started before the
    // op's start". So the budget is the op's compute cycles (not its execution time), and a preload that
    // runs past the deadline counts only its part before it, as in noc_fit. When the budget runs out
    // inside preload j, j moves earlier so that its remaining busy part ends before the op starts.
    double left = computeCycles;
    for (std::size_t q = 0; q < loads.size(); ++q) {
        const int j = loads[q];
        Interval& p = m_pre[std::size_t(j)];
        if (p.startCycles < start)
            break;
        const double duration = p.endCycles - p.startCycles;
        if (duration <= 0 || p.startCycles >= deadline)
            continue; // nothing of it overlaps the execution (noc_fit skips it too)
        double busy = duration - m_idle[std::size_t(j)];
        if (p.endCycles > deadline)
            busy *= (deadline - p.startCycles) / duration; // prorated like noc_fit's idle time
        left -= busy;
        if (left < 0 && busy > 0) {
            // Prorating scales the busy part and the span it lies in alike, so their ratio is the whole
            // preload's: the remaining busy part takes (−left)·duration/busy of preload time.
            const double that = -left * duration / (duration - m_idle[std::size_t(j)]);
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
            postprocessLoads(bestStart, best.deadline, compScaled(entry(i, bestEntry)), best.loads);
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
} // namespace elk::schedule::artifact::detail
