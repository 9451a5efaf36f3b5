// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Replaying a schedule: SRAM over time, ordering rules, raw metrics.
#include "engine/schedule/backward_scheduler.h"
#include "engine/schedule/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace elk::schedule {

namespace {

    struct Event {
        double at;
        std::int64_t deltaBytes;
        int step; ///< step whose execution (or wait) the level after this event belongs to; -1 none
    };

    double tolerance(const Schedule& schedule)
    {
        return 1e-9 * std::max(1.0, std::abs(schedule.latencyCycles));
    }

    /// Resident bytes over time: an op's preloadBytes from its preload start to its execute start,
    /// its executeBytes while it executes, and step i's reserved bytes from the end of execution i − 1
    /// to the end of execution i (activations living across it already exist while it waits).
    std::vector<Event> residencyEvents(const ScheduleProblem& problem, const Schedule& schedule)
    {
        std::vector<Event> events;
        double previousEnd = 0;
        for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
            const StepSchedule& s = schedule.steps[i];
            const int step = static_cast<int>(i);
            if (s.preloadBytes > 0 && s.execute.startCycles > s.preload.startCycles) {
                events.push_back({ s.preload.startCycles, s.preloadBytes, -1 });
                events.push_back({ s.execute.startCycles, -s.preloadBytes, -1 });
            }
            events.push_back({ s.execute.startCycles, s.executeBytes, step });
            events.push_back({ s.execute.endCycles, -s.executeBytes, -1 });
            const std::int64_t reserved = problem.steps[i].reservedBytesPerCore;
            const double from = std::min(previousEnd, s.execute.startCycles);
            if (reserved > 0 && s.execute.endCycles > from) {
                events.push_back({ from, reserved, step });
                events.push_back({ s.execute.endCycles, -reserved, -1 });
            }
            previousEnd = s.execute.endCycles;
        }
        std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.at < b.at; });
        return events;
    }

    /// Calls `segment(start, end, bytes, step)` for each maximal piece of constant level.
    template <typename Segment> void replay(const ScheduleProblem& problem, const Schedule& schedule, Segment segment)
    {
        const std::vector<Event> events = residencyEvents(problem, schedule);
        std::int64_t level = 0;
        int step = 0;
        for (std::size_t k = 0; k < events.size();) {
            const double at = events[k].at;
            for (; k < events.size() && events[k].at == at; ++k) {
                level += events[k].deltaBytes;
                if (events[k].step >= 0)
                    step = events[k].step;
            }
            if (k < events.size())
                segment(at, events[k].at, level, step);
        }
    }

    void add(std::vector<SramViolation>& out, int step, double at, std::string message)
    {
        out.push_back({ step, at, 0, std::move(message) });
    }

} // namespace

std::int64_t detail::sramPeakBytesPerCore(const ScheduleProblem& problem, const Schedule& schedule)
{
    const double eps = tolerance(schedule);
    std::int64_t peak = 0;
    replay(problem, schedule, [&](double start, double end, std::int64_t bytes, int) {
        if (end - start > eps)
            peak = std::max(peak, bytes);
    });
    return peak;
}

std::vector<SramViolation> checkSchedule(const ScheduleProblem& problem, const Schedule& schedule)
{
    std::vector<SramViolation> out;
    const std::size_t n = problem.steps.size();
    if (schedule.steps.size() != n || schedule.preloadOrder.size() != n) {
        add(out, 0, 0,
            "schedule has " + std::to_string(schedule.steps.size()) + " steps and a preload order of "
                + std::to_string(schedule.preloadOrder.size()) + "; the problem has " + std::to_string(n));
        return out;
    }
    const double eps = tolerance(schedule);
    std::vector<char> seen(n, 0);
    for (int s : schedule.preloadOrder) {
        if (s < 0 || static_cast<std::size_t>(s) >= n || seen[static_cast<std::size_t>(s)]) {
            add(out, 0, 0, "preload order is not a permutation of the steps");
            return out;
        }
        seen[static_cast<std::size_t>(s)] = 1;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const StepSchedule& s = schedule.steps[i];
        const int step = static_cast<int>(i);
        const auto& table = problem.planSets[problem.steps[i].planSet]->table;
        if (s.tableEntry >= table.size() || table[s.tableEntry].preloadBytes != s.preloadBytes
            || table[s.tableEntry].executeBytes != s.executeBytes)
            add(out, step, s.execute.startCycles, "step " + std::to_string(i) + ": bytes differ from its table entry");
        if (s.preload.startCycles < -eps || s.preload.length() < -eps || s.execute.length() < -eps)
            add(out, step, s.preload.startCycles, "step " + std::to_string(i) + ": negative time or interval");
        if (s.preload.endCycles > s.execute.startCycles + eps)
            add(out, step, s.preload.endCycles,
                "step " + std::to_string(i) + ": preload ends after its execution starts");
        if (i > 0 && schedule.steps[i - 1].execute.endCycles > s.execute.startCycles + eps)
            add(out, step, s.execute.startCycles, "step " + std::to_string(i) + ": executions overlap");
    }
    for (std::size_t q = 1; q < n; ++q) {
        const StepSchedule& a = schedule.steps[static_cast<std::size_t>(schedule.preloadOrder[q - 1])];
        const StepSchedule& b = schedule.steps[static_cast<std::size_t>(schedule.preloadOrder[q])];
        if (a.preload.endCycles > b.preload.startCycles + eps)
            add(out, schedule.preloadOrder[q], b.preload.startCycles,
                "preloads overlap: step " + std::to_string(schedule.preloadOrder[q - 1]) + " and step "
                    + std::to_string(schedule.preloadOrder[q]));
    }
    // Ideal assumes a separate, unlimited preload space: only its ordering is checked.
    if (schedule.design == Design::Ideal)
        return out;
    replay(problem, schedule, [&](double start, double end, std::int64_t bytes, int step) {
        if (end - start > eps && bytes > problem.sramBytesPerCore) {
            char text[200];
            std::snprintf(text, sizeof text, "%lld bytes per core resident at cycle %.1f (step %d); SRAM holds %lld",
                static_cast<long long>(bytes), start, step, static_cast<long long>(problem.sramBytesPerCore));
            out.push_back({ step, start, bytes, text });
        }
    });
    return out;
}

ScheduleMetrics scheduleMetrics(const ScheduleProblem& problem, const Schedule& schedule, double linkBytesPerCycle)
{
    ScheduleMetrics m;
    m.latencyCycles = schedule.latencyCycles;
    std::vector<Interval> preloads;
    double nocCyclesPerCore = 0;
    for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
        const StepSchedule& s = schedule.steps[i];
        m.executeCycles += s.execute.length();
        m.preloadCycles += s.preload.length();
        m.interconnectStallCycles += s.stallCycles;
        m.hbmBytes += problem.planSets[problem.steps[i].planSet]->hbmBytes;
        m.flops += problem.steps[i].flops;
        if (linkBytesPerCycle > 0)
            nocCyclesPerCore += static_cast<double>(s.preloadBytes) / linkBytesPerCycle;
        nocCyclesPerCore += s.warmupCycles + s.commCycles;
        if (s.preload.length() > 0)
            preloads.push_back(s.preload);
    }
    std::sort(preloads.begin(), preloads.end(),
        [](const Interval& a, const Interval& b) { return a.startCycles < b.startCycles; });
    // Executions are disjoint and in order, preloads disjoint: a two-pointer sweep gives the overlap.
    std::size_t p = 0;
    for (const StepSchedule& s : schedule.steps) {
        while (p < preloads.size() && preloads[p].endCycles <= s.execute.startCycles)
            ++p;
        for (std::size_t q = p; q < preloads.size() && preloads[q].startCycles < s.execute.endCycles; ++q)
            m.overlapCycles += std::max(0.0,
                std::min(preloads[q].endCycles, s.execute.endCycles)
                    - std::max(preloads[q].startCycles, s.execute.startCycles));
    }
    m.preloadOnlyCycles = m.preloadCycles - m.overlapCycles;
    m.executeOnlyCycles = m.executeCycles - m.overlapCycles;
    if (m.latencyCycles > 0) {
        m.hbmUtilization = static_cast<double>(m.hbmBytes) / (problem.hbmBytesPerCycle * m.latencyCycles);
        m.nocUtilization = nocCyclesPerCore / m.latencyCycles;
        m.flopsPerCycle = static_cast<double>(m.flops) / m.latencyCycles;
    }
    return m;
}

} // namespace elk::schedule
