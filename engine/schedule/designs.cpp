// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The five designs (elk-design.md §4, elk-reference.md §4.3–4.5) on equal terms: all of them use the
// problem's θ, κ and delayCompute; they differ only in decisions.
#include "engine/schedule/backward_scheduler.h"
#include "engine/schedule/preload_orders.h"
#include "engine/schedule/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace elk::schedule {

const char* toString(Design design)
{
    switch (design) {
    case Design::Basic: return "basic";
    case Design::Static: return "static";
    case Design::ElkDyn: return "elk-dyn";
    case Design::ElkFull: return "elk-full";
    case Design::Ideal: return "ideal";
    }
    return "?";
}

std::optional<Design> designFromString(std::string_view text)
{
    for (Design d : kAllDesigns)
        if (text == toString(d))
            return d;
    return std::nullopt;
}

namespace {

    ScheduleResult failure(std::string message)
    {
        ScheduleResult result;
        result.error = std::move(message);
        return result;
    }

    std::string fitError(const ScheduleProblem& problem, const Allocator& allocator, int step)
    {
        const Step& s = problem.steps[static_cast<std::size_t>(step)];
        const std::int64_t need = allocator.minExecuteBytes(s.planSet, false) + s.reservedBytesPerCore;
        return "op '" + s.name + "' (step " + std::to_string(step) + ") needs at least " + std::to_string(need)
            + " bytes per core (smallest execute state + " + std::to_string(s.reservedBytesPerCore)
            + " reserved); the chip has " + std::to_string(problem.sramBytesPerCore);
    }

    /// K: most preloads that may overlap one execution = ops per layer (a graph without repetition is
    /// one layer of every op).
    int overlapBound(const ScheduleProblem& problem)
    {
        const int ops = problem.layers.opsPerLayer;
        return std::max(1, ops > 0 ? ops : static_cast<int>(problem.steps.size()));
    }

    std::string problemError(const ScheduleProblem& problem)
    {
        if (problem.steps.empty())
            return "nothing to schedule: the model has no ops";
        if (!(problem.hbmBytesPerCycle > 0) || !(problem.preloadIngressBytesPerCycle > 0))
            return "hbmBytesPerCycle and preloadIngressBytesPerCycle must be positive";
        if (!(problem.preloadNocThreshold > 0) || problem.preloadNocThreshold > 1)
            return "preloadNocThreshold (θ) must be in (0, 1]";
        if (problem.sramBytesPerCore <= 0)
            return "sramBytesPerCore must be positive";
        for (std::size_t i = 0; i < problem.steps.size(); ++i) {
            const Step& s = problem.steps[i];
            if (s.planSet >= problem.planSets.size() || !problem.planSets[s.planSet]
                || problem.planSets[s.planSet]->table.empty())
                return "op '" + s.name + "' (step " + std::to_string(i) + ") has no plan table";
        }
        return {};
    }

    ScheduleResult runBackward(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, const detail::BackwardOptions& options, Design design)
    {
        if (!scheduler.run(options))
            return failure(fitError(problem, allocator, scheduler.failedStep()));
        ScheduleResult result;
        result.schedule = scheduler.toSchedule(design);
        return result;
    }

    ScheduleResult scheduleBasic(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler)
    {
        detail::BackwardOptions options;
        options.policy = detail::CandidatePolicy::Basic;
        options.maxOverlap = overlapBound(problem);
        std::optional<Schedule> best;
        for (bool largest : { false, true }) {
            options.largestPreload = largest;
            if (!scheduler.run(options))
                continue;
            if (!best || scheduler.latencyCycles() < best->latencyCycles) {
                best = scheduler.toSchedule(Design::Basic);
                best->note = largest ? "largest-preload variant" : "smallest-preload variant";
            }
        }
        if (!best)
            return failure(fitError(problem, allocator, scheduler.failedStep()));
        ScheduleResult result;
        result.schedule = std::move(best);
        return result;
    }

    ScheduleResult scheduleStatic(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, RunControl& control)
    {
        // X from the smallest space every op fits in up to the whole SRAM, in 10 KiB steps (reference §4.5).
        constexpr std::int64_t kStepBytes = 10 * 1024;
        std::int64_t smallest = 0;
        for (const Step& s : problem.steps)
            smallest = std::max(smallest, allocator.minExecuteBytes(s.planSet, false) + s.reservedBytesPerCore);
        if (smallest > problem.sramBytesPerCore) {
            for (std::size_t i = 0; i < problem.steps.size(); ++i) {
                const Step& s = problem.steps[i];
                if (allocator.minExecuteBytes(s.planSet, false) + s.reservedBytesPerCore > problem.sramBytesPerCore)
                    return failure(fitError(problem, allocator, static_cast<int>(i)));
            }
        }
        std::vector<std::int64_t> sizes;
        for (std::int64_t x = smallest; x < problem.sramBytesPerCore; x += kStepBytes)
            sizes.push_back(x);
        sizes.push_back(problem.sramBytesPerCore);
        detail::BackwardOptions options;
        options.policy = detail::CandidatePolicy::Static;
        options.maxOverlap = overlapBound(problem);
        std::optional<Schedule> best;
        std::int64_t swept = 0;
        for (bool largest : { false, true }) {
            for (std::int64_t x : sizes) {
                if (control.stopRequested())
                    return failure("stopped");
                options.staticExecuteBytes = x;
                options.largestPreload = largest;
                ++swept;
                if (!scheduler.run(options))
                    continue; // some op has no entry of the chosen variant within X
                if (!best || scheduler.latencyCycles() < best->latencyCycles) {
                    best = scheduler.toSchedule(Design::Static);
                    best->note = "execute space " + std::to_string(x) + " bytes/core ("
                        + (largest ? "largest" : "smallest") + "-preload variant)";
                }
            }
        }
        if (!best)
            return failure("no execute-space size fits every op (static)");
        best->ordersTried = swept;
        ScheduleResult result;
        result.schedule = std::move(best);
        return result;
    }

    ScheduleResult scheduleFull(const ScheduleProblem& problem, const Allocator& allocator,
        detail::BackwardScheduler& scheduler, RunControl& control)
    {
        const LayerOrders orders = generateLayerOrders(problem, allocator, PreloadOrderOptions {}, control);
        if (orders.stopped)
            return failure("stopped");
        detail::BackwardOptions options;
        options.maxOverlap = overlapBound(problem);
        std::optional<Schedule> best;
        std::int64_t tried = 0;
        std::size_t bestIndex = 0;
        std::vector<int> order;
        for (std::size_t o = 0; o < orders.orders.size(); ++o) {
            if (control.stopRequested())
                return failure("stopped");
            control.progress(static_cast<std::int64_t>(o), static_cast<std::int64_t>(orders.orders.size()), "elk-full orders");
            order = expandLayerOrder(problem, orders.orders[o]);
            options.preloadOrder = &order;
            ++tried;
            if (!scheduler.run(options)) {
                if (o == 0) // the identity order is Elk-Dyn: an op that does not fit at all
                    return failure(fitError(problem, allocator, scheduler.failedStep()));
                continue;
            }
            // Strictly better only: ties keep the earlier order (the identity first).
            if (!best || scheduler.latencyCycles() < best->latencyCycles) {
                best = scheduler.toSchedule(Design::ElkFull);
                bestIndex = o;
            }
        }
        best->ordersTried = tried;
        char note[160];
        std::snprintf(note, sizeof note, "order %zu of %zu%s; %zu reordered ops per layer", bestIndex,
            orders.orders.size(), orders.truncated ? " (generator bound reached)" : "", orders.movable.size());
        best->note = note;
        ScheduleResult result;
        result.schedule = std::move(best);
        return result;
    }

    // Ideal — a true lower bound. Every op runs at its fastest entry with the whole SRAM, preloads are
    // serialised in execution order at L* = max(Lh, smallest preload bytes ÷ κ), preload space is
    // unlimited and nothing contends; everything starts as early as possible (forward).
    // Why ideal <= every other design: any other schedule (shifted to start at 0) runs preloads one at a
    // time from time >= 0, each at least as long as L* (its preload bytes >= the smallest, θ <= 1), so
    // all preloads of ops 0..i — whatever their order — end no earlier than Σ_{u<=i} L*_u, the ideal's
    // end of preload i; execution i starts after preload i and execution i−1 and lasts at least the
    // fastest entry. By induction on i each execution of the other schedule ends no earlier than the
    // ideal's, which is the earliest-start schedule of the same precedence chain with shorter durations
    // and fewer constraints.
    ScheduleResult scheduleIdeal(const ScheduleProblem& problem)
    {
        Schedule schedule;
        schedule.design = Design::Ideal;
        schedule.steps.resize(problem.steps.size());
        schedule.preloadOrder.resize(problem.steps.size());
        double preloadCursor = 0;
        double executeCursor = 0;
        for (std::size_t i = 0; i < problem.steps.size(); ++i) {
            const Step& step = problem.steps[i];
            const partition::OpPlans& plans = *problem.planSets[step.planSet];
            int bestEntry = -1;
            for (std::size_t e = 0; e < plans.table.size(); ++e) {
                const auto& pe = plans.table[e];
                if (pe.executeBytes > problem.sramBytesPerCore)
                    continue;
                if (bestEntry < 0 || pe.totalCycles < plans.table[static_cast<std::size_t>(bestEntry)].totalCycles)
                    bestEntry = static_cast<int>(e);
            }
            if (bestEntry < 0)
                return failure("op '" + step.name + "' (step " + std::to_string(i) + ") does not fit the SRAM ("
                    + std::to_string(problem.sramBytesPerCore) + " bytes per core) even alone");
            const auto& pe = plans.table[static_cast<std::size_t>(bestEntry)];
            double load = 0, noc = 0;
            if (plans.hbmBytes > 0) {
                // θ = 1: the bound lets preloads fill the whole ingress share (and a mesh's edge links).
                noc = preloadTime(problem, plans.hbmBytes, plans.minPreloadBytes()).nocCycles;
                load = std::max(static_cast<double>(plans.hbmBytes) / problem.hbmBytesPerCycle, noc);
            }
            StepSchedule& s = schedule.steps[i];
            s.tableEntry = static_cast<std::uint32_t>(bestEntry);
            s.preloadBytes = pe.preloadBytes;
            s.executeBytes = pe.executeBytes;
            s.preload = { preloadCursor, preloadCursor + load };
            preloadCursor += load;
            const double start = std::max(executeCursor, s.preload.endCycles);
            s.execute = { start, start + pe.totalCycles };
            executeCursor = s.execute.endCycles;
            const auto& cost = plans.costs[pe.executePlan];
            s.computeCycles = cost.computeCycles;
            s.commCycles = cost.commCycles();
            s.warmupCycles = pe.warmupCycles;
            s.nocIdleCycles = load - noc;
            s.preloadPosition = static_cast<int>(i);
            schedule.preloadOrder[i] = static_cast<int>(i);
        }
        schedule.latencyCycles = executeCursor;
        schedule.sramPeakBytesPerCore = detail::sramPeakBytesPerCore(problem, schedule);
        schedule.note = "unlimited preload space; no contention";
        ScheduleResult result;
        result.schedule = std::move(schedule);
        return result;
    }

} // namespace

ScheduleResult scheduleDesign(const ScheduleProblem& problem, Design design, RunControl& control)
{
    if (const std::string error = problemError(problem); !error.empty())
        return failure(error);
    if (control.stopRequested())
        return failure("stopped");
    if (design == Design::Ideal)
        return scheduleIdeal(problem);
    const Allocator allocator(problem);
    detail::BackwardScheduler scheduler(problem, allocator);
    switch (design) {
    case Design::Basic: return scheduleBasic(problem, allocator, scheduler);
    case Design::Static: return scheduleStatic(problem, allocator, scheduler, control);
    case Design::ElkDyn: {
        detail::BackwardOptions options;
        options.maxOverlap = overlapBound(problem);
        return runBackward(problem, allocator, scheduler, options, Design::ElkDyn);
    }
    case Design::ElkFull: return scheduleFull(problem, allocator, scheduler, control);
    case Design::Ideal: break;
    }
    return failure("unknown design");
}

} // namespace elk::schedule
