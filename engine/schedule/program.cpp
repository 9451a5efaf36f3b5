// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/program.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace elk::schedule {

namespace {

    ProgramCall preloadCall(const ScheduleProblem& problem, const Schedule& schedule, int step)
    {
        const StepSchedule& s = schedule.steps[static_cast<std::size_t>(step)];
        const partition::OpPlans& plans = *problem.planSets[problem.steps[static_cast<std::size_t>(step)].planSet];
        const partition::PreloadEntry& entry = plans.table[s.tableEntry];
        ProgramCall call;
        call.kind = CallKind::PreloadAsync;
        call.step = step;
        call.opName = problem.steps[static_cast<std::size_t>(step)].name;
        call.startCycles = s.preload.startCycles;
        call.endCycles = s.preload.endCycles;
        call.preload.preloadPlan = entry.preloadPlan;
        call.preload.bytesPerCore = s.preloadBytes;
        call.preload.hbmBytes = plans.hbmBytes;
        call.preload.spatial = plans.plans[entry.preloadPlan].spatial;
        return call;
    }

    ProgramCall executeCall(const ScheduleProblem& problem, const Schedule& schedule, int step)
    {
        const StepSchedule& s = schedule.steps[static_cast<std::size_t>(step)];
        const partition::OpPlans& plans = *problem.planSets[problem.steps[static_cast<std::size_t>(step)].planSet];
        const partition::PreloadEntry& entry = plans.table[s.tableEntry];
        const partition::PlanCost& cost = plans.costs[entry.executePlan];
        ProgramCall call;
        call.kind = CallKind::Execute;
        call.step = step;
        call.opName = problem.steps[static_cast<std::size_t>(step)].name;
        call.startCycles = s.execute.startCycles;
        call.endCycles = s.execute.endCycles;
        ExecuteCall& e = call.execute;
        // The execute layout holds cost.preloadBytes of HBM inputs per core; what the preload layout
        // did not already put there comes from peers.
        e.distributeBytesPerCore = std::max<std::int64_t>(0, cost.preloadBytes - s.preloadBytes);
        e.distributeCycles = entry.warmupCycles;
        e.executePlan = entry.executePlan;
        e.executeBytesPerCore = s.executeBytes;
        e.spatial = plans.plans[entry.executePlan].spatial;
        e.rotation = plans.plans[entry.executePlan].temporal;
        e.iterations = cost.iterations;
        e.computeCycles = cost.computeCycles;
        e.shiftCycles = cost.shiftCycles;
        e.reduceCycles = cost.reduceCycles;
        return call;
    }

    std::string bytesText(std::int64_t bytes)
    {
        char text[48];
        const auto b = static_cast<double>(bytes);
        if (bytes >= (1 << 20))
            std::snprintf(text, sizeof text, "%.2f MiB", b / (1 << 20));
        else if (bytes >= 1024)
            std::snprintf(text, sizeof text, "%.1f KiB", b / 1024);
        else
            std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
        return text;
    }

    std::string listText(const std::vector<std::int32_t>& values)
    {
        std::string text = "[";
        for (std::size_t k = 0; k < values.size(); ++k)
            text += (k ? "," : "") + std::to_string(values[k]);
        return text + "]";
    }

    std::string rotationText(const std::vector<std::vector<std::int32_t>>& rotation)
    {
        std::string text;
        for (std::size_t d = 0; d < rotation.size(); ++d)
            for (std::size_t v = 0; v < rotation[d].size(); ++v)
                if (rotation[d][v] > 1)
                    text += (text.empty() ? "" : ",") + std::string("d") + std::to_string(d) + ".t" + std::to_string(v)
                        + "=" + std::to_string(rotation[d][v]);
        return text.empty() ? "none" : text;
    }

} // namespace

namespace {

    /// Per preload-order position, the execute it is issued before: the first execution j that is its
    /// own or during which the timeline starts it (execute(j) would otherwise block it until j ends).
    std::vector<std::size_t> timelineIssues(const Schedule& schedule)
    {
        const std::size_t n = schedule.steps.size();
        const double eps = 1e-9 * std::max(1.0, std::abs(schedule.latencyCycles));
        std::vector<std::size_t> issueBefore(n);
        std::size_t q = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const StepSchedule& s = schedule.steps[j];
            const auto position = static_cast<std::size_t>(s.preloadPosition);
            while (q < n
                && (q <= position
                    || schedule.steps[static_cast<std::size_t>(schedule.preloadOrder[q])].preload.startCycles
                        < s.execute.endCycles - eps))
                issueBefore[q++] = j;
        }
        return issueBefore;
    }

    /// Moves issue points earlier where the design's preload space allows it whatever the timing: a
    /// preload issued before execute(j) may be resident from the end of execution j − 1, so for every
    /// execution m it newly overlaps, m's execute and reserved bytes plus every preload of a later step
    /// issued by then must fit the SRAM, and those preloads the room. In preload order (preloads run in
    /// that order, so an earlier one gains first) and never before the previous one's issue point.
    void hoistIssues(const ScheduleProblem& problem, const Schedule& schedule, std::vector<std::size_t>& issueBefore)
    {
        const std::size_t n = schedule.steps.size();
        const std::int64_t room = std::min(schedule.earlyPreloadRoomBytesPerCore, problem.sramBytesPerCore);
        std::vector<std::int64_t> preloads(n, 0); // resident preload bytes during execution m
        for (std::size_t q = 0; q < n; ++q) {
            const auto step = static_cast<std::size_t>(schedule.preloadOrder[q]);
            for (std::size_t m = issueBefore[q]; m < step; ++m)
                preloads[m] += schedule.steps[step].preloadBytes;
        }
        const auto fits = [&](std::size_t m, std::int64_t bytes) {
            const std::int64_t resident = preloads[m] + bytes;
            return resident <= room
                && schedule.steps[m].executeBytes + problem.steps[m].reservedBytesPerCore + resident
                <= problem.sramBytesPerCore;
        };
        for (std::size_t q = 0; q < n; ++q) {
            const std::int64_t bytes = schedule.steps[static_cast<std::size_t>(schedule.preloadOrder[q])].preloadBytes;
            const std::size_t floor = q > 0 ? issueBefore[q - 1] : 0;
            std::size_t j = issueBefore[q];
            while (j > floor && fits(j - 1, bytes))
                preloads[--j] += bytes;
            issueBefore[q] = j;
        }
    }

} // namespace

Program lowerProgram(const ScheduleProblem& problem, const Schedule& schedule)
{
    Program program;
    program.design = schedule.design;
    program.cores = problem.cores;
    program.clockHz = problem.clockHz;
    program.latencyCycles = schedule.latencyCycles;
    const std::size_t n = schedule.steps.size();
    program.calls.reserve(2 * n);
    std::vector<std::size_t> issueBefore = timelineIssues(schedule);
    if (schedule.earlyPreloadRoomBytesPerCore >= 0)
        hoistIssues(problem, schedule, issueBefore);
    std::size_t q = 0; // next preload in preload order
    for (std::size_t j = 0; j < n; ++j) {
        while (q < n && issueBefore[q] <= j)
            program.calls.push_back(preloadCall(problem, schedule, schedule.preloadOrder[q++]));
        program.calls.push_back(executeCall(problem, schedule, static_cast<int>(j)));
    }
    return program;
}

std::string programText(const Program& program)
{
    std::string text;
    char line[512];
    std::snprintf(line, sizeof line, "# elk.program/1  design %s  %lld cores  %zu calls  latency %.1f cycles\n",
        toString(program.design), static_cast<long long>(program.cores), program.calls.size(), program.latencyCycles);
    text += line;
    for (const ProgramCall& call : program.calls) {
        if (call.kind == CallKind::PreloadAsync) {
            const PreloadCall& p = call.preload;
            std::snprintf(line, sizeof line, "preload_async(op %d \"%s\")  %s/core  hbm %s  plan %u %s  @%.1f-%.1f\n",
                call.step, call.opName.c_str(), bytesText(p.bytesPerCore).c_str(), bytesText(p.hbmBytes).c_str(),
                p.preloadPlan, listText(p.spatial).c_str(), call.startCycles, call.endCycles);
        } else {
            const ExecuteCall& e = call.execute;
            std::snprintf(line, sizeof line,
                "execute(op %d \"%s\")  wait done_preload(%d); distribute_data %s/core %.1f cycles; "
                "local_execute plan %u %s/core spatial %s rotate %s x%lld: compute %.1f shift %.1f reduce %.1f cycles"
                "  @%.1f-%.1f\n",
                call.step, call.opName.c_str(), call.step, bytesText(e.distributeBytesPerCore).c_str(),
                e.distributeCycles, e.executePlan, bytesText(e.executeBytesPerCore).c_str(),
                listText(e.spatial).c_str(), rotationText(e.rotation).c_str(), static_cast<long long>(e.iterations),
                e.computeCycles, e.shiftCycles, e.reduceCycles, call.startCycles, call.endCycles);
        }
        text += line;
    }
    return text;
}

} // namespace elk::schedule
