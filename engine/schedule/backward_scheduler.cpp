// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/backward_scheduler.h"

#include <algorithm>
#include <limits>

namespace elk::schedule::detail {

namespace {
    constexpr double kInf = std::numeric_limits<double>::infinity();
}

BackwardScheduler::BackwardScheduler(const ScheduleProblem& problem, const Allocator& allocator)
    : m_problem(problem)
    , m_allocator(allocator)
{
    const std::size_t n = problem.steps.size();
    m_hbmBytes.resize(n);
    m_identity.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        m_hbmBytes[i] = problem.planSets[problem.steps[i].planSet]->hbmBytes;
        m_identity[i] = static_cast<int>(i);
    }
    m_times.resize(n);
    m_position.resize(n);
    m_inverted.resize(n);
    m_loaded.reserve(n);
}

int BackwardScheduler::fixedPair(std::uint32_t planSet, std::int64_t executeBytes, bool largestPreload) const
{
    if (!largestPreload)
        return m_allocator.bestEntry(planSet, executeBytes, true);
    // The largest preload state that still fits X, and the fastest execute state for it.
    const auto& table = m_problem.planSets[planSet]->table;
    int best = -1;
    for (std::size_t e = 0; e < table.size(); ++e) {
        if (table[e].executeBytes > executeBytes)
            continue;
        const auto& b = table[static_cast<std::size_t>(best < 0 ? 0 : best)];
        if (best < 0 || table[e].preloadBytes > b.preloadBytes
            || (table[e].preloadBytes == b.preloadBytes && table[e].totalCycles < b.totalCycles))
            best = static_cast<int>(e);
    }
    return best;
}

double BackwardScheduler::nocFit(double deadline, double commCycles, int k) const
{
    // The execution's inter-core traffic must fit into NoC time the overlapped preloads leave idle
    // (their R = L − Ln, prorated) or into gaps between them; walk back from the deadline.
    double need = commCycles;
    double cursor = deadline;
    for (int q = k - 2; q >= 0 && need > 0; --q) {
        const StepTimes& p = m_times[static_cast<std::size_t>(preloadOp(static_cast<std::size_t>(q)))];
        const double end = std::min(p.preloadEndCycles, cursor);
        if (end < cursor) {
            if (need <= cursor - end)
                return cursor - need;
            need -= cursor - end;
            cursor = end;
        }
        const double length = p.preloadEndCycles - p.preloadStartCycles;
        if (end > p.preloadStartCycles && length > 0 && p.nocIdleCycles > 0) {
            const double available = p.nocIdleCycles * (end - p.preloadStartCycles) / length;
            if (available >= need)
                return end - (end - p.preloadStartCycles) * need / available;
            need -= available;
        }
        cursor = std::min(cursor, p.preloadStartCycles);
    }
    return cursor - need;
}

void BackwardScheduler::pushPreloads(double start, double deadline, double commCycles, int k)
{
    // delayCompute off: the execution keeps its length and the overlapped preloads are slowed by the
    // NoC time it takes from them, so (backwards) they must start earlier.
    double busy = 0;
    int latest = -1;
    for (int q = k - 2; q >= 0; --q) {
        const StepTimes& p = m_times[static_cast<std::size_t>(preloadOp(static_cast<std::size_t>(q)))];
        const double overlap = std::min(p.preloadEndCycles, deadline) - std::max(p.preloadStartCycles, start);
        if (p.preloadEndCycles <= start)
            break;
        if (overlap <= 0 || p.preloadEndCycles <= p.preloadStartCycles)
            continue;
        if (latest < 0)
            latest = q;
        busy += overlap * (1.0 - p.nocIdleCycles / (p.preloadEndCycles - p.preloadStartCycles));
    }
    const double deficit = commCycles - ((deadline - start) - busy);
    if (latest < 0 || deficit <= 0)
        return;
    m_times[static_cast<std::size_t>(preloadOp(static_cast<std::size_t>(latest)))].preloadStartCycles -= deficit;
    for (int q = latest - 1; q >= 0; --q) {
        StepTimes& p = m_times[static_cast<std::size_t>(preloadOp(static_cast<std::size_t>(q)))];
        const double nextStart
            = m_times[static_cast<std::size_t>(preloadOp(static_cast<std::size_t>(q + 1)))].preloadStartCycles;
        if (p.preloadEndCycles <= nextStart)
            break;
        const double shift = p.preloadEndCycles - nextStart;
        p.preloadStartCycles -= shift;
        p.preloadEndCycles -= shift;
    }
}

void BackwardScheduler::materialize(int step)
{
    StepTimes& t = m_times[static_cast<std::size_t>(step)];
    double end = t.executeStartCycles;
    if (!m_loaded.empty())
        end = std::min(end, m_times[static_cast<std::size_t>(m_loaded.back())].preloadStartCycles);
    const auto& entry = m_problem.planSets[m_problem.steps[static_cast<std::size_t>(step)].planSet]
                            ->table[static_cast<std::size_t>(t.entry)];
    const PreloadTime load = preloadTime(m_problem, m_hbmBytes[static_cast<std::size_t>(step)], entry.preloadBytes);
    t.preloadEndCycles = end;
    t.preloadStartCycles = end - load.totalCycles;
    t.nocIdleCycles = load.idleCycles();
    m_loaded.push_back(step);
    m_pendingBytes -= entry.preloadBytes;
    --m_pendingCount;
}

bool BackwardScheduler::run(const BackwardOptions& options)
{
    const int n = static_cast<int>(m_problem.steps.size());
    const std::vector<int>& order = options.preloadOrder ? *options.preloadOrder : m_identity;
    int maxPosition = -1;
    for (int q = 0; q < n; ++q)
        m_position[static_cast<std::size_t>(order[static_cast<std::size_t>(q)])] = q;
    for (int i = 0; i < n; ++i) {
        const int p = m_position[static_cast<std::size_t>(i)];
        m_inverted[static_cast<std::size_t>(i)] = p < maxPosition ? 1 : 0;
        maxPosition = std::max(maxPosition, p);
    }
    m_loaded.clear();
    m_pendingBytes = 0;
    m_pendingCount = 0;
    m_failedStep = -1;
    int back = n - 1; // last preload (in order) not placed yet
    const std::int64_t sram = m_problem.sramBytesPerCore;

    for (int i = n - 1; i >= 0; --i) {
        const Step& step = m_problem.steps[static_cast<std::size_t>(i)];
        const std::uint32_t set = step.planSet;
        const auto& table = m_problem.planSets[set]->table;
        const bool restricted = m_inverted[static_cast<std::size_t>(i)] != 0;
        const double nextExe = i == n - 1 ? 0.0 : m_times[static_cast<std::size_t>(i + 1)].executeStartCycles;

        // Candidates k = 1..: op i ends before the k-th placed preload starts.
        m_candidates.clear();
        const int kLimit = std::max(1, options.maxOverlap - m_pendingCount);
        std::int64_t resident = m_pendingBytes;
        for (int k = 1; k <= kLimit; ++k) {
            const std::size_t q = static_cast<std::size_t>(k - 1);
            const bool placed = q < m_loaded.size();
            const double start = placed ? m_times[static_cast<std::size_t>(preloadOp(q))].preloadStartCycles : kInf;
            m_candidates.push_back({ std::min(start, nextExe), resident });
            if (!placed || start >= nextExe)
                break;
            resident += m_times[static_cast<std::size_t>(preloadOp(q))].preloadBytes;
        }
        const std::int64_t cap = options.preloadCap ? (*options.preloadCap)[set] : -1;
        const std::int64_t base = (cap >= 0 ? m_allocator.minExecuteBytesCapped(set, restricted, cap)
                                            : m_allocator.minExecuteBytes(set, restricted))
            + step.reservedBytesPerCore;
        int feasible = 0;
        while (feasible < static_cast<int>(m_candidates.size())
            && base + m_candidates[static_cast<std::size_t>(feasible)].residentBytes <= sram)
            ++feasible;
        if (feasible == 0) {
            m_failedStep = i;
            return false;
        }

        int k = 1;
        int entry = -1;
        const auto budget = [&](int kk) {
            return sram - step.reservedBytesPerCore - m_candidates[static_cast<std::size_t>(kk - 1)].residentBytes;
        };
        const auto startOf = [&](int e, int kk) {
            const double deadline = m_candidates[static_cast<std::size_t>(kk - 1)].deadline;
            const auto& pe = table[static_cast<std::size_t>(e)];
            double s = deadline - pe.totalCycles;
            if (m_problem.delayCompute && m_problem.nocContention && kk > 1)
                s = std::min(s, nocFit(deadline, m_problem.planSets[set]->costs[pe.executePlan].commCycles(), kk));
            return s;
        };
        if (options.policy == CandidatePolicy::LatestStart) {
            // Descending k with a bound: no entry runs faster than the fastest, and deadlines only
            // shrink as k shrinks, so stop once even that cannot reach the best start.
            const double fastest = m_allocator.fastestCycles(set);
            double best = -kInf;
            for (int kk = feasible; kk >= 1; --kk) {
                if (m_candidates[static_cast<std::size_t>(kk - 1)].deadline - fastest < best)
                    break;
                const int e = cap >= 0 ? m_allocator.bestEntryCapped(set, budget(kk), restricted, cap)
                                       : m_allocator.bestEntry(set, budget(kk), restricted);
                if (e < 0)
                    continue;
                const double s = startOf(e, kk);
                if (s >= best) {
                    best = s;
                    k = kk;
                    entry = e;
                }
            }
        } else if (options.policy == CandidatePolicy::Basic) {
            for (int kk = 2; kk <= feasible; ++kk) {
                k = kk;
                if (m_hbmBytes[static_cast<std::size_t>(preloadOp(static_cast<std::size_t>(kk - 2)))] > 0)
                    break; // at most one op that loads anything
            }
            entry = fixedPair(set, budget(k), options.largestPreload);
        } else {
            const std::int64_t room = sram - options.staticExecuteBytes;
            while (k < static_cast<int>(m_candidates.size())
                && m_candidates[static_cast<std::size_t>(k)].residentBytes <= room)
                ++k;
            k = std::min(k, feasible);
            entry = fixedPair(set, std::min(budget(k), options.staticExecuteBytes - step.reservedBytesPerCore),
                options.largestPreload);
        }
        if (entry < 0) {
            m_failedStep = i;
            return false;
        }

        StepTimes& t = m_times[static_cast<std::size_t>(i)];
        const auto& pe = table[static_cast<std::size_t>(entry)];
        const double deadline = m_candidates[static_cast<std::size_t>(k - 1)].deadline;
        t.entry = entry;
        t.preloadBytes = pe.preloadBytes;
        t.k = k;
        t.executeEndCycles = deadline;
        t.executeStartCycles = startOf(entry, k);
        t.stallCycles = std::max(0.0, deadline - pe.totalCycles - t.executeStartCycles);
        if (!m_problem.delayCompute && m_problem.nocContention && k > 1)
            pushPreloads(
                t.executeStartCycles, deadline, m_problem.planSets[set]->costs[pe.executePlan].commCycles(), k);
        m_pendingBytes += pe.preloadBytes;
        ++m_pendingCount;
        while (back >= 0 && order[static_cast<std::size_t>(back)] >= i)
            materialize(order[static_cast<std::size_t>(back--)]);
    }
    double earliest = 0;
    for (const StepTimes& t : m_times)
        earliest = std::min({ earliest, t.preloadStartCycles, t.executeStartCycles });
    m_latencyCycles = -earliest;
    return true;
}

Schedule BackwardScheduler::toSchedule(Design design) const
{
    Schedule schedule;
    schedule.design = design;
    const double offset = m_latencyCycles;
    schedule.steps.resize(m_times.size());
    schedule.preloadOrder.resize(m_times.size());
    for (std::size_t i = 0; i < m_times.size(); ++i) {
        const StepTimes& t = m_times[i];
        const partition::OpPlans& plans = *m_problem.planSets[m_problem.steps[i].planSet];
        const auto& pe = plans.table[static_cast<std::size_t>(t.entry)];
        const auto& cost = plans.costs[pe.executePlan];
        StepSchedule& s = schedule.steps[i];
        s.tableEntry = static_cast<std::uint32_t>(t.entry);
        s.preloadBytes = pe.preloadBytes;
        s.executeBytes = pe.executeBytes;
        s.preload = { t.preloadStartCycles + offset, t.preloadEndCycles + offset };
        s.execute = { t.executeStartCycles + offset, t.executeEndCycles + offset };
        s.computeCycles = cost.computeCycles;
        s.commCycles = cost.commCycles();
        s.warmupCycles = pe.warmupCycles;
        s.stallCycles = t.stallCycles;
        s.nocIdleCycles = t.nocIdleCycles;
        s.overlappedPreloads = t.k - 1;
        s.preloadPosition = m_position[i];
        schedule.preloadOrder[static_cast<std::size_t>(m_position[i])] = static_cast<int>(i);
    }
    schedule.latencyCycles = m_times.empty() ? 0.0 : schedule.steps.back().execute.endCycles;
    schedule.sramPeakBytesPerCore = sramPeakBytesPerCore(m_problem, schedule);
    return schedule;
}

} // namespace elk::schedule::detail
