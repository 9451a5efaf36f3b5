// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/classroom/classroom_events.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/run/run_compile.h"

namespace elk::widgets {

namespace {

    std::string fixed(double value, int decimals)
    {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
        return buffer;
    }

    /// 3 significant digits: 2 decimals below 10, 1 below 100, none above.
    std::string significant3(double value)
    {
        const double magnitude = std::abs(value);
        // Round first so that 9.996 prints as "10.0", not "10.00".
        if (std::round(magnitude * 100) / 100 < 10)
            return fixed(value, 2);
        if (std::round(magnitude * 10) / 10 < 100)
            return fixed(value, 1);
        return fixed(value, 0);
    }

    /// Keeps long graph names readable on a projector: head and tail, the middle elided.
    std::string shortName(const std::string& name)
    {
        constexpr std::size_t kMax = 40;
        if (name.size() <= kMax)
            return name;
        std::size_t head = 16, tail = kMax - head - 1;
        // Never cut a UTF-8 sequence in two.
        while (head > 0 && (static_cast<unsigned char>(name[head]) & 0xC0) == 0x80)
            --head;
        std::size_t tailStart = name.size() - tail;
        while (tailStart < name.size() && (static_cast<unsigned char>(name[tailStart]) & 0xC0) == 0x80)
            ++tailStart;
        return name.substr(0, head) + "…" + name.substr(tailStart);
    }

    /// What the story needs of one design, gathered once.
    struct Story {
        const sim::SimResult* sim = nullptr;
        const schedule::Schedule* schedule = nullptr;
        const schedule::ScheduleProblem* problem = nullptr;
        std::vector<std::string> labels; ///< by step: "op 12 (q_proj, matmul)"
        double cyclesPerMicrosecond = 1000;

        double us(double cycles) const { return cycles / cyclesPerMicrosecond; }
        std::int64_t preloadBytes(int step) const { return schedule->steps[std::size_t(step)].preloadBytes; }
        std::int64_t executeBytes(int step) const { return schedule->steps[std::size_t(step)].executeBytes; }
        std::int64_t reservedBytes(int step) const
        {
            return step >= 0 && std::size_t(step) < problem->steps.size()
                ? problem->steps[std::size_t(step)].reservedBytesPerCore
                : 0;
        }
        const sim::StepTrace& trace(int step) const { return sim->steps[std::size_t(step)]; }
        int stepCount() const { return int(sim->steps.size()); }
        bool hasPreload(int step) const { return trace(step).preload.length() > 0 || preloadBytes(step) > 0; }
        /// How long `step` waited for its own preload after the previous execution ended (0: no stall).
        double stallCycles(int step) const
        {
            if (step <= 0 || step >= stepCount() || trace(step).waitedFor != "preload")
                return 0;
            return std::max(0.0, trace(step).execute.startCycles - trace(step - 1).execute.endCycles);
        }
    };

    std::vector<std::string> stepLabels(
        const run::RunResult& run, const schedule::ScheduleProblem& problem, const sim::SimResult& sim)
    {
        std::vector<std::string> labels(sim.steps.size());
        const run::CompiledModel* compiled = run.compiled.get();
        for (std::size_t step = 0; step < labels.size(); ++step) {
            std::string detail = step < sim.stepNames.size() ? shortName(sim.stepNames[step]) : std::string();
            if (compiled) {
                const auto& steps = problem.steps;
                const int graphStep = step < steps.size() ? steps[step].graphStep : int(step);
                const auto& order = compiled->analysis.order;
                if (graphStep >= 0 && std::size_t(graphStep) < order.size()) {
                    const char* kind
                        = model::toString(compiled->model.graph.exprOf(order[std::size_t(graphStep)]).kind);
                    detail += detail.empty() ? kind : std::string(", ") + kind;
                }
            }
            labels[step] = "op " + std::to_string(step) + (detail.empty() ? std::string() : " (" + detail + ")");
        }
        return labels;
    }

    int rank(ClassroomEventKind kind)
    {
        switch (kind) {
        case ClassroomEventKind::ExecuteEnd:
            return 0;
        case ClassroomEventKind::PreloadEnd:
            return 1;
        case ClassroomEventKind::ExecuteStart:
            return 2;
        case ClassroomEventKind::PreloadStart:
            return 3;
        }
        return 4;
    }

    ClassroomEvent makeEvent(ClassroomEventKind kind, int step, double atCycles)
    {
        ClassroomEvent event;
        event.kind = kind;
        event.step = step;
        event.atCycles = atCycles;
        return event;
    }

    /// The two lanes as they happen, each in its own order, merged by time (ties: rank()).
    std::vector<ClassroomEvent> mergedLanes(const Story& story)
    {
        std::vector<ClassroomEvent> execute, preload;
        for (int step = 0; step < story.stepCount(); ++step) {
            const schedule::Interval& interval = story.trace(step).execute;
            execute.push_back(makeEvent(ClassroomEventKind::ExecuteStart, step, interval.startCycles));
            execute.push_back(makeEvent(ClassroomEventKind::ExecuteEnd, step, interval.endCycles));
        }
        for (int step : story.sim->preloadOrder) {
            if (step < 0 || step >= story.stepCount() || !story.hasPreload(step))
                continue;
            const schedule::Interval& interval = story.trace(step).preload;
            preload.push_back(makeEvent(ClassroomEventKind::PreloadStart, step, interval.startCycles));
            preload.push_back(makeEvent(ClassroomEventKind::PreloadEnd, step, interval.endCycles));
        }
        std::vector<ClassroomEvent> events;
        events.reserve(execute.size() + preload.size());
        std::size_t e = 0, p = 0;
        while (e < execute.size() || p < preload.size()) {
            bool takeExecute = p == preload.size();
            if (e < execute.size() && p < preload.size()) {
                const ClassroomEvent& a = execute[e];
                const ClassroomEvent& b = preload[p];
                takeExecute = a.atCycles != b.atCycles ? a.atCycles < b.atCycles : rank(a.kind) < rank(b.kind);
            }
            events.push_back(takeExecute ? execute[e++] : preload[p++]);
        }
        return events;
    }

    std::string waitingFor(int firstUnfinished, int step)
    {
        std::vector<int> before;
        for (int s = firstUnfinished; s < step; ++s)
            before.push_back(s);
        return describeSteps(before);
    }

    std::string caption(const Story& story, const ClassroomEvent& event, int firstUnfinished)
    {
        const int step = event.step;
        const sim::StepTrace& trace = story.trace(step);
        const std::string& label = story.labels[std::size_t(step)];
        switch (event.kind) {
        case ClassroomEventKind::PreloadStart: {
            std::string text
                = label + " starts preloading " + formatBytes(story.preloadBytes(step)) + " per core from HBM";
            if (!event.executing.empty())
                text += " while op " + std::to_string(event.executing.front()) + " executes";
            else
                text += "; no op is executing";
            return text;
        }
        case ClassroomEventKind::PreloadEnd: {
            std::string text = "op " + std::to_string(step) + " finishes preloading "
                + formatBytes(story.preloadBytes(step)) + " per core from HBM in "
                + formatMicroseconds(story.us(trace.preload.length()));
            if (firstUnfinished >= step)
                text += "; it can execute now";
            else
                text += "; it waits for " + waitingFor(firstUnfinished, step);
            return text;
        }
        case ClassroomEventKind::ExecuteStart: {
            const std::int64_t capacity = story.problem->sramBytesPerCore;
            const double share = capacity > 0 ? 100.0 * double(story.executeBytes(step)) / double(capacity) : 0.0;
            // "0 %" would read as "needs no memory"; small ops get "< 1 %".
            const std::string percent
                = share > 0 && share < 0.5 ? std::string("< 1") : std::to_string(std::lround(share));
            std::string text = label + " executes in " + percent + " % of SRAM";
            if (event.stallMicroseconds > 0)
                text += " after waiting " + formatMicroseconds(event.stallMicroseconds) + " for its preload (stall)";
            if (!event.preloading.empty()) {
                const bool one = event.preloading.size() == 1;
                text += " while " + describeSteps(event.preloading) + (one ? " preloads" : " preload");
                if (!event.preloaded.empty())
                    text += "; " + describeSteps(event.preloaded) + (event.preloaded.size() == 1 ? " is" : " are")
                        + " already loaded";
            } else if (!event.preloaded.empty()) {
                text += "; " + describeSteps(event.preloaded) + (event.preloaded.size() == 1 ? " is" : " are")
                    + " already loaded";
            } else {
                text += "; no preload runs alongside";
            }
            return text;
        }
        case ClassroomEventKind::ExecuteEnd: {
            std::string text = "op " + std::to_string(step) + " finishes executing after "
                + formatMicroseconds(story.us(trace.execute.length()));
            const int next = step + 1;
            if (next >= story.stepCount())
                return text + "; the run ends at " + formatMicroseconds(story.us(story.sim->latencyCycles));
            const double gapCycles = story.trace(next).execute.startCycles - trace.execute.endCycles;
            if (gapCycles <= 0)
                return text + "; op " + std::to_string(next) + " starts at once";
            text += "; op " + std::to_string(next) + " waits " + formatMicroseconds(story.us(gapCycles));
            if (story.trace(next).waitedFor == "preload")
                text += " for its preload (stall)";
            return text;
        }
        }
        return label;
    }

} // namespace

const char* toString(ClassroomEventKind kind)
{
    switch (kind) {
    case ClassroomEventKind::PreloadStart:
        return "preload-start";
    case ClassroomEventKind::PreloadEnd:
        return "preload-end";
    case ClassroomEventKind::ExecuteStart:
        return "execute-start";
    case ClassroomEventKind::ExecuteEnd:
        return "execute-end";
    }
    return "?";
}

std::vector<ClassroomEvent> classroomEvents(const run::RunResult& run, int designIndex)
{
    if (designIndex < 0 || std::size_t(designIndex) >= run.designs.size())
        return {};
    const run::DesignRun& design = run.designs[std::size_t(designIndex)];
    if (!design.simulated || !design.schedule)
        return {};
    Story story;
    story.sim = &*design.simulated;
    story.schedule = &*design.schedule;
    story.problem = &run.problemOf(design);
    if (story.schedule->steps.size() != story.sim->steps.size())
        return {}; // a schedule and a simulation of different problems: nothing consistent to tell
    const double clockHz = story.sim->clockHz > 0 ? story.sim->clockHz : story.problem->clockHz;
    story.cyclesPerMicrosecond = clockHz > 0 ? clockHz / 1e6 : 1000;
    story.labels = stepLabels(run, *story.problem, *story.sim);

    std::vector<ClassroomEvent> events = mergedLanes(story);
    // Replay the events, keeping the state the simulator keeps (MetricsRecorder::sampleSram).
    std::set<int> preloading, preloaded, started;
    std::int64_t residentBytes = 0;
    int executing = -1;
    int firstUnfinished = 0; ///< the next op to finish executing
    for (ClassroomEvent& event : events) {
        const int step = event.step;
        switch (event.kind) {
        case ClassroomEventKind::PreloadStart:
            preloading.insert(step);
            started.insert(step);
            residentBytes += story.preloadBytes(step);
            break;
        case ClassroomEventKind::PreloadEnd:
            preloading.erase(step);
            preloaded.insert(step);
            break;
        case ClassroomEventKind::ExecuteStart:
            if (started.count(step)) {
                residentBytes -= story.preloadBytes(step); // now part of its execute state
                preloading.erase(step);
                preloaded.erase(step);
            }
            executing = step;
            event.stallMicroseconds = story.us(story.stallCycles(step));
            break;
        case ClassroomEventKind::ExecuteEnd:
            executing = -1;
            firstUnfinished = step + 1;
            event.stallMicroseconds = story.us(story.stallCycles(step + 1));
            break;
        }
        event.atMicroseconds = story.us(event.atCycles);
        if (executing >= 0)
            event.executing = { executing };
        event.preloading.assign(preloading.begin(), preloading.end());
        event.preloaded.assign(preloaded.begin(), preloaded.end());
        event.sram.capacityBytes = run.problem.sramBytesPerCore;
        event.sram.preloadBytes = residentBytes;
        event.sram.executeBytes = executing >= 0 ? story.executeBytes(executing) : 0;
        event.sram.reservedBytes = story.reservedBytes(executing >= 0 ? executing : firstUnfinished);
        event.caption = caption(story, event, firstUnfinished);
    }
    return events;
}

std::vector<ClassroomTick> classroomTicks(const std::vector<std::vector<ClassroomEvent>>& designs)
{
    std::vector<ClassroomTick> ticks;
    for (std::size_t lane = 0; lane < designs.size(); ++lane) {
        for (std::size_t e = 0; e < designs[lane].size(); ++e)
            ticks.push_back({ designs[lane][e].atCycles, int(lane), int(e) });
    }
    // Each design's events are already in order; a stable sort by time keeps it and puts the
    // first design first on ties.
    std::stable_sort(ticks.begin(), ticks.end(),
        [](const ClassroomTick& a, const ClassroomTick& b) { return a.atCycles < b.atCycles; });
    return ticks;
}

std::vector<int> classroomEventsAtTick(const std::vector<ClassroomTick>& ticks, int tick, std::size_t laneCount)
{
    std::vector<int> latest(laneCount, -1);
    const int last = std::min(tick, int(ticks.size()) - 1);
    for (int t = 0; t <= last; ++t) {
        const ClassroomTick& current = ticks[std::size_t(t)];
        if (current.lane >= 0 && std::size_t(current.lane) < laneCount)
            latest[std::size_t(current.lane)] = current.event;
    }
    return latest;
}

std::string describeSteps(std::vector<int> steps)
{
    if (steps.empty())
        return "no op";
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    if (steps.size() == 1)
        return "op " + std::to_string(steps.front());
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < steps.size();) {
        std::size_t j = i;
        while (j + 1 < steps.size() && steps[j + 1] == steps[j] + 1)
            ++j;
        if (j == i)
            parts.push_back(std::to_string(steps[i]));
        else if (j == i + 1) // two neighbours read better as "3 and 4" than "3–4"
            parts.insert(parts.end(), { std::to_string(steps[i]), std::to_string(steps[j]) });
        else
            parts.push_back(std::to_string(steps[i]) + "–" + std::to_string(steps[j]));
        i = j + 1;
    }
    std::string text = "ops ";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            text += i + 1 == parts.size() ? " and " : ", ";
        text += parts[i];
    }
    return text;
}

std::string formatBytes(std::int64_t bytes)
{
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    const char* units[] = { "KiB", "MiB", "GiB", "TiB" };
    double value = double(bytes) / 1024;
    int unit = 0;
    while (std::round(value * 10) / 10 >= 1024 && unit < 3) {
        value /= 1024;
        ++unit;
    }
    return fixed(value, std::round(value * 10) / 10 < 100 ? 1 : 0) + " " + units[unit];
}

std::string formatMicroseconds(double microseconds)
{
    const double magnitude = std::abs(microseconds);
    if (magnitude == 0)
        return "0 µs";
    if (magnitude < 1)
        return significant3(microseconds * 1000) + " ns";
    if (std::round(magnitude * 10) / 10 < 1000)
        return significant3(microseconds) + " µs";
    if (magnitude < 1e6)
        return significant3(microseconds / 1000) + " ms";
    return significant3(microseconds / 1e6) + " s";
}

} // namespace elk::widgets
