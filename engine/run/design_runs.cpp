// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Running the designs of a run: each with its own pipelined splits, scheduled and simulated.
#include "engine/run/split_choice_detail.h"

#include "engine/core/parallel_for.h"
#include "engine/cost/tile_cost.h"
#include "engine/schedule/program.h"
#include "engine/sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>

namespace elk::run {

using detail::chooseRunSplits;
using detail::RunSplits;

namespace {

    double secondsSince(std::chrono::steady_clock::time_point start)
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    const char* finalistsWhat(schedule::Design design)
    {
        switch (design) {
        case schedule::Design::ElkFull:
            return "best analytic orders and the identity";
        case schedule::Design::ElkDyn:
            return "with and without the joint allocation";
        case schedule::Design::Static:
            return "best analytic execute-space sizes";
        case schedule::Design::Basic:
            return "smallest- and largest-preload variants";
        case schedule::Design::Ideal:
            break;
        }
        return "candidates";
    }

    /// Schedules and simulates one design. Reads only `problem` and `spec`, so designs may run on
    /// several threads at once.
    DesignRun runDesign(const schedule::ScheduleProblem& problem, const RunSpec& spec, const std::string& name,
        double linkBytesPerCycle, RunControl& control, int threads)
    {
        DesignRun run;
        run.design = *schedule::designFromString(name);
        const auto designStart = std::chrono::steady_clock::now();
        schedule::ScheduleResult scheduled = schedule::scheduleDesign(problem, run.design, control, threads);
        run.seconds = secondsSince(designStart);
        if (control.stopRequested())
            return run;
        if (scheduled.ok()) {
            run.metrics = schedule::scheduleMetrics(problem, *scheduled.schedule, linkBytesPerCycle);
            run.schedule = std::move(scheduled.schedule);
        } else {
            run.error = scheduled.error;
        }
        if (run.schedule) {
            control.progress(0, 1, "simulate " + name);
            const auto simStart = std::chrono::steady_clock::now();
            sim::SimOptions options;
            options.contention = run.design != schedule::Design::Ideal;
            // One selection rule for every design that chooses among candidates: the analytic finalists
            // are simulated and the fastest simulated one is kept (the first on a tie), so a candidate that
            // only looks better in the contention-free estimate is not taken. Elk-Full: its best orders and
            // the identity (Elk-Dyn's); Elk-Dyn: with and without the joint allocation's memory-saving
            // preload plans; Static: its best execute-space sizes; Basic: its two preload variants. The
            // finalists simulate on the design's threads; each result goes to its own slot.
            const std::size_t finalists = std::max<std::size_t>(1, scheduled.finalists.size());
            std::vector<sim::SimRunResult> simulated(finalists);
            parallelFor(
                finalists, threads,
                [&](std::size_t f) {
                    const schedule::Schedule& candidate = f == 0 ? *run.schedule : scheduled.finalists[f];
                    simulated[f] = sim::simulate(
                        spec.chip, problem, schedule::lowerProgram(problem, candidate), options, control);
                },
                [&] { return control.stopRequested(); });
            if (control.stopRequested())
                return run;
            if (simulated[0].ok())
                run.simulated = std::move(simulated[0].result);
            else
                run.error = "simulation: " + simulated[0].error;
            for (std::size_t f = 1; run.simulated && f < finalists; ++f) {
                if (simulated[f].ok() && simulated[f].result->latencyCycles < run.simulated->latencyCycles) {
                    run.schedule = scheduled.finalists[f];
                    run.metrics = schedule::scheduleMetrics(problem, *run.schedule, linkBytesPerCycle);
                    run.simulated = std::move(simulated[f].result);
                }
            }
            if (scheduled.finalists.size() > 1)
                run.schedule->note += "; chosen by simulation among " + std::to_string(scheduled.finalists.size())
                    + " finalists (" + finalistsWhat(run.design) + ")";
            run.simulateSeconds = secondsSince(simStart);
        }
        return run;
    }

    /// Forwards stop requests and serialises progress from designs running at once. As in a serial
    /// run, "schedule NAME" counts the designs started before it and "simulate NAME" the designs
    /// simulating including it; other stages (elk-full orders) pass through.
    class DesignControl final : public RunControl {
    public:
        DesignControl(RunControl& outer, std::int64_t total)
            : m_outer(outer)
            , m_total(total)
        {
        }
        bool stopRequested() const override { return m_outer.stopRequested(); }
        void progress(std::int64_t done, std::int64_t total, std::string_view stage) override
        {
            const std::lock_guard lock(m_mutex);
            if (stage.substr(0, 9) == "schedule ")
                m_outer.progress(m_scheduled++, m_total, stage);
            else if (stage.substr(0, 9) == "simulate ")
                m_outer.progress(++m_simulated, m_total, stage);
            else
                m_outer.progress(done, total, stage);
        }

    private:
        RunControl& m_outer;
        std::mutex m_mutex;
        std::int64_t m_total;
        std::int64_t m_scheduled = 0;
        std::int64_t m_simulated = 0;
    };

    /// The run's reference step list (RunResult::problem); null when no design has one.
    std::shared_ptr<const schedule::ScheduleProblem> referenceProblem(const std::vector<DesignRun>& designs)
    {
        const DesignRun* reference = referenceDesign(designs);
        return reference ? reference->problem : nullptr;
    }

    /// Ideal's run: the fastest simulated of its runs with every candidate (the first on a tie), with
    /// Ideal's own analytic latency with the kept candidate and without pipelined splits.
    std::optional<DesignRun> keepFastest(
        std::vector<std::optional<DesignRun>>& runs, const std::vector<std::size_t>& tasks, const RunSplits& splits)
    {
        if (tasks.empty() || std::any_of(tasks.begin(), tasks.end(), [&](std::size_t t) { return !runs[t]; }))
            return std::nullopt;
        const auto latency = [&](std::size_t t) {
            return runs[t]->simulated ? runs[t]->simulated->latencyCycles : std::numeric_limits<double>::infinity();
        };
        std::size_t best = 0;
        double seconds = 0, simulateSeconds = 0;
        for (std::size_t k = 0; k < tasks.size(); ++k) {
            seconds += runs[tasks[k]]->seconds;
            simulateSeconds += runs[tasks[k]]->simulateSeconds;
            if (latency(tasks[k]) < latency(tasks[best]))
                best = k;
        }
        const DesignRun& unsplit = *runs[tasks[splits.noneCandidate]]; // task k runs candidate k
        DesignRun kept = std::move(*runs[tasks[best]]);
        kept.splits = SplitChoice {};
        kept.splits.variantOfInput = splits.candidates[best].variantOfInput;
        kept.splits.judge = schedule::Design::Ideal;
        kept.seconds = seconds;
        kept.simulateSeconds = simulateSeconds;
        if (tasks.size() > 1) {
            kept.splits.evaluations = int(tasks.size());
            const double inf = std::numeric_limits<double>::infinity();
            kept.splits.analyticCycles = kept.schedule ? kept.metrics.latencyCycles : inf;
            kept.splits.unsplitAnalyticCycles = unsplit.schedule ? unsplit.metrics.latencyCycles : inf;
            if (kept.schedule)
                kept.schedule->note += "; pipelined splits: " + splits.candidates[best].whose
                    + ", the fastest simulated of " + std::to_string(tasks.size())
                    + " distinct candidates (basic's, static's and elk-dyn's choices, none)";
        }
        return kept;
    }

} // namespace

RunResult scheduleRun(std::shared_ptr<const CompiledModel> compiled, const RunSpec& spec, RunControl& control)
{
    return scheduleRun(std::move(compiled), spec, control, 1);
}

RunResult scheduleRun(
    std::shared_ptr<const CompiledModel> compiled, const RunSpec& spec, RunControl& control, int threads)
{
    RunResult result;
    result.spec = spec;
    result.compiled = compiled;
    if (!compiled || compiled->partitionKey != partitionKey(spec)) {
        result.errors.push_back("the compiled model was partitioned for another model, step or chip layout");
        result.status = RunStatus::Failed;
        return result;
    }
    const double linkBytesPerCycle = cost::TransferCost::fromChip(spec.chip).linkBytesPerCycle;
    const auto splitStart = std::chrono::steady_clock::now();
    const RunSplits splits = chooseRunSplits(*compiled, spec, threads, control);
    const double splitSeconds = secondsSince(splitStart);
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }

    // One task per design, and for Ideal one per candidate.
    struct Task {
        std::size_t design = 0;
        std::size_t candidate = 0;
    };
    std::vector<Task> tasks;
    std::vector<std::vector<std::size_t>> tasksOfDesign(spec.designs.size());
    for (std::size_t d = 0; d < spec.designs.size(); ++d) {
        const schedule::Design design = *schedule::designFromString(spec.designs[d]);
        const std::size_t candidates = design == schedule::Design::Ideal ? splits.candidates.size() : 1;
        for (std::size_t c = 0; c < candidates; ++c) {
            tasksOfDesign[d].push_back(tasks.size());
            tasks.push_back({ d,
                design == schedule::Design::Ideal ? c
                                                  : splits.candidateOfJudge[RunSplits::slotOf(splitJudgeOf(design))] });
        }
    }
    // Elk-Full's order search and Static's execute-space sweep are the longest tasks: claimed first, and
    // given the run's threads for their searches, so that the other designs fill the other threads
    // meanwhile. Results go by task index.
    const auto designOf = [&](std::size_t t) { return *schedule::designFromString(spec.designs[tasks[t].design]); };
    const auto searches = [&](std::size_t t) {
        return designOf(t) == schedule::Design::ElkFull || designOf(t) == schedule::Design::Static;
    };
    std::vector<std::size_t> claim(tasks.size());
    for (std::size_t t = 0; t < tasks.size(); ++t)
        claim[t] = t;
    std::stable_sort(claim.begin(), claim.end(), [&](std::size_t a, std::size_t b) {
        const auto rank = [&](std::size_t t) {
            return designOf(t) == schedule::Design::ElkFull ? 0 : searches(t) ? 1 : 2;
        };
        return rank(a) < rank(b);
    });
    std::vector<std::optional<DesignRun>> runs(tasks.size());
    DesignControl shared(control, std::int64_t(tasks.size()));
    parallelFor(
        tasks.size(), threads,
        [&](std::size_t claimed) {
            const std::size_t t = claim[claimed];
            const Task& task = tasks[t];
            const std::string& name = spec.designs[task.design];
            shared.progress(0, 1, "schedule " + name);
            const RunSplits::Candidate& candidate = splits.candidates[task.candidate];
            DesignRun run
                = runDesign(*candidate.problem, spec, name, linkBytesPerCycle, shared, searches(t) ? threads : 1);
            run.problem = candidate.problem;
            if (run.design != schedule::Design::Ideal)
                run.splits = splits.ofJudge[RunSplits::slotOf(splitJudgeOf(run.design))];
            if (!control.stopRequested())
                runs[t] = std::move(run);
        },
        [&] { return control.stopRequested(); });
    result.timings.scheduleSeconds += splitSeconds;
    for (std::size_t d = 0; d < spec.designs.size(); ++d) {
        const bool ideal = *schedule::designFromString(spec.designs[d]) == schedule::Design::Ideal;
        std::optional<DesignRun> kept;
        if (ideal)
            kept = keepFastest(runs, tasksOfDesign[d], splits);
        else
            kept = std::move(runs[tasksOfDesign[d].front()]);
        if (!kept)
            continue;
        result.timings.scheduleSeconds += kept->seconds;
        result.timings.simulateSeconds += kept->simulateSeconds;
        result.designs.push_back(std::move(*kept));
    }
    const auto reference = referenceProblem(result.designs);
    result.problem = reference
        ? *reference
        : *splits.candidates[splits.candidateOfJudge[RunSplits::slotOf(schedule::Design::ElkDyn)]].problem;
    if (control.stopRequested() || result.designs.size() != spec.designs.size())
        result.status = RunStatus::Stopped;
    return result;
}

bool attachProblems(RunResult& result)
{
    if (!result.compiled)
        return false;
    const CompiledModel& compiled = *result.compiled;
    const double injection = detail::meshInjectionBytesPerCycle(result.spec.chip);
    for (std::size_t d = 0; d < result.designs.size(); ++d) {
        DesignRun& run = result.designs[d];
        const std::vector<std::uint32_t>& variants = run.splits.variantOfInput;
        if (variants.size() != compiled.variants.size())
            return false;
        for (std::size_t i = 0; i < variants.size(); ++i) {
            if (variants[i] >= compiled.variants[i].size())
                return false;
        }
        run.problem = nullptr;
        for (std::size_t earlier = 0; earlier < d && !run.problem; ++earlier) {
            if (result.designs[earlier].splits.variantOfInput == variants)
                run.problem = result.designs[earlier].problem;
        }
        if (!run.problem)
            run.problem = std::make_shared<const schedule::ScheduleProblem>(
                detail::buildProblem(compiled, result.spec, variants, injection));
        if (run.schedule && run.schedule->steps.size() != run.problem->steps.size())
            return false;
    }
    const auto reference = referenceProblem(result.designs);
    result.problem = reference ? *reference : scheduleProblemFor(compiled, result.spec);
    return true;
}

const DesignRun* referenceDesign(const std::vector<DesignRun>& designs)
{
    for (const DesignRun& run : designs) {
        if (run.design == schedule::Design::ElkDyn || run.design == schedule::Design::ElkFull)
            return &run;
    }
    return designs.empty() ? nullptr : &designs.front();
}

RunResult failedRun(const RunSpec& spec, CompileResult compiled)
{
    RunResult failed;
    failed.spec = spec;
    failed.errors = std::move(compiled.errors);
    failed.status = compiled.status;
    failed.timings = compiled.timings;
    return failed;
}

RunResult executeRun(const RunSpec& spec, RunControl& control, int threads)
{
    CompileResult compiled = compileModel(spec, control, threads);
    if (!compiled.ok())
        return failedRun(spec, std::move(compiled));
    RunResult result = scheduleRun(compiled.compiled, spec, control, threads);
    result.timings.importSeconds = compiled.timings.importSeconds;
    result.timings.partitionSeconds = compiled.timings.partitionSeconds;
    return result;
}

} // namespace elk::run
