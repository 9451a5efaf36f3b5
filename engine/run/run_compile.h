// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/model/graph_analysis.h"
#include "engine/partition/partition.h"
#include "engine/run/model_load.h"
#include "engine/run/run_spec.h"
#include "engine/run/step_inputs.h"
#include "engine/schedule/schedule.h"
#include "engine/sim/sim_result.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elk::run {

/// Wall-clock seconds per stage of one run (reports and benchmarks; never part of results).
struct StageTimings {
    double importSeconds = 0;
    double partitionSeconds = 0;
    double scheduleSeconds = 0;
    double simulateSeconds = 0;
};

/// How one partition search splits its distinct operator: `parts` equal parts over loop dim `dim`
/// (parts 1, dim -1: not split). Kept with cached partition tables, since they are searches of the
/// parts.
struct InputSplit {
    int parts = 1;
    int dim = -1;
    bool operator==(const InputSplit&) const = default;
};

/// Partition tables as a cache keeps them: enough to rebuild a CompiledModel without searching.
/// One entry per search (plan set); every distinct operator has one or more searches, one per way of
/// splitting it (its variants).
struct PartitionTables {
    std::vector<partition::OpPlans> plans; ///< by plan set
    std::vector<InputSplit> splits; ///< by plan set
    std::vector<std::uint32_t> inputOfPlanSet; ///< by plan set: index into StepInputs::distinctInputs
};

/// One way to run a distinct operator: as `split.parts` consecutive parts (1: whole) searched as
/// plan set `planSet`.
struct SplitVariant {
    InputSplit split;
    std::uint32_t planSet = 0;
};

/// Everything a run computes before any design decides: the graph, its analysis, the per-step
/// partition inputs and every distinct partition search. It depends on the model, the step and the
/// chip's cores, SRAM, interconnect and tile cost — not on HBM bandwidth or the preload knobs — so a
/// bandwidth edit re-runs only scheduling (partitionKey() says what it depends on).
///
/// Pipelined splitting (elk-design.md §4, "the same for every design"): an operator whose preload or
/// execute state is large against the SRAM is also searched as 2, 4, 8 … parts over one output
/// dimension that its HBM inputs use (so each part loads a slice: the next part's preload overlaps
/// this part's execution). Which variant a run uses depends on the schedule, hence on HBM bandwidth:
/// scheduleProblemFor() chooses it (chooseSplits()), not the compiler.
struct CompiledModel {
    LoadedModel model;
    model::GraphAnalysis analysis;
    StepInputs steps; ///< by graph step (unsplit)
    std::vector<partition::OpPlans> plans; ///< by plan set
    std::vector<partition::PartitionInput> planInputs; ///< by plan set: the searched (part) expression
    /// By plan set: the tile cost model's peak FLOP/cycle per core for its dtype (0: none stated).
    std::vector<double> peakFlopPerCyclePerCore;
    /// By distinct input: its variants, ascending parts; variants[i][0] is the smallest split that fits
    /// (the whole operator unless it does not fit the SRAM at all).
    std::vector<std::vector<SplitVariant>> variants;
    std::string costModel; ///< name and version of the tile cost model
    std::string partitionKey; ///< partitionKey() of the spec it was compiled for
};

struct CompileResult {
    std::shared_ptr<const CompiledModel> compiled;
    std::vector<std::string> errors; ///< import errors, or every operator that fits no plan
    RunStatus status = RunStatus::Completed;
    StageTimings timings; ///< import and partition
    bool fromCache = false; ///< the partition tables were the `cached` ones (no search)
    bool ok() const { return compiled != nullptr; }
};

/// Imports, analyses and partitions. Partition searches of distinct operators run on up to
/// `threads` threads (0: one per hardware thread); results do not depend on the thread count.
CompileResult compileModel(const RunSpec& spec, RunControl& control, int threads = 0);
/// The same with partition tables from a cache (compiled for partitionKey(spec)): no search. Tables
/// that do not fit the model (count, split dims, plan ranks) are ignored and searched again
/// (CompileResult::fromCache false). `cached` null: search.
CompileResult compileModel(const RunSpec& spec, RunControl& control, int threads, const PartitionTables* cached);

/// The same from a model already in memory (e.g. a StableHLO region lowered to the Graph IR); the
/// spec's model reference is not read.
CompileResult compileLoadedModel(
    LoadedModel model, const RunSpec& spec, RunControl& control, int threads, const PartitionTables* cached = nullptr);

/// The tables of a compiled model, for a cache.
PartitionTables partitionTablesOf(const CompiledModel& compiled);

/// SHA-256 of what partition tables depend on: model hash and step, cores, SRAM, clock, interconnect,
/// inter-chip overhead and the tile cost model (not HBM, not the run options, not the designs).
std::string partitionKey(const RunSpec& spec);

/// Which variant each distinct operator runs as (by distinct input: index into CompiledModel::variants[i]),
/// and what the design that judged it estimated with it and without any pipelined split.
struct SplitChoice {
    std::vector<std::uint32_t> variantOfInput;
    /// Analytic schedules tried to choose it; 0 when no operator has pipelined variants (nothing to
    /// choose, and the two estimates below are not computed).
    int evaluations = 0;
    schedule::Design judge = schedule::Design::ElkDyn; ///< whose analytic latency chose it
    double analyticCycles = 0; ///< the judge's analytic latency with this choice (infinity: no schedule)
    double unsplitAnalyticCycles = 0; ///< the judge's analytic latency with no pipelined splits
};

/// One design's outcome.
struct DesignRun {
    schedule::Design design = schedule::Design::Basic;
    /// This design's pipelined splits (issue 42: every design keeps the splits that help it).
    SplitChoice splits;
    /// The problem `schedule` and `simulated` index into: the model with `splits`. Shared by designs with
    /// the same splits; not stored in caches (rebuilt from `splits`).
    std::shared_ptr<const schedule::ScheduleProblem> problem;
    std::optional<schedule::Schedule> schedule;
    schedule::ScheduleMetrics metrics; ///< of the analytic schedule
    /// The program of `schedule` run by the event-driven simulator (with contention, except for ideal,
    /// whose preloads and executions have interconnects of their own).
    std::optional<sim::SimResult> simulated;
    std::string error; ///< why this design has no schedule (or simulation)
    double seconds = 0; ///< scheduling
    double simulateSeconds = 0;
};

struct RunResult {
    RunSpec spec;
    std::shared_ptr<const CompiledModel> compiled;
    /// The reference step list, points into compiled->plans: the model with Elk-Dyn's splits (with the
    /// first design's when Elk-Dyn did not run). Views select steps of it; a design's own schedule indexes
    /// problemOf(design), which correspondingStep() maps to and from it.
    schedule::ScheduleProblem problem;
    std::vector<DesignRun> designs; ///< in spec.designs order
    StageTimings timings;
    std::vector<std::string> errors; ///< fatal: nothing was scheduled
    RunStatus status = RunStatus::Completed;
    bool ok() const { return errors.empty() && status == RunStatus::Completed; }
    /// The problem `design`'s schedule and simulation index into (`problem` when it carries none).
    const schedule::ScheduleProblem& problemOf(const DesignRun& design) const
    {
        return design.problem ? *design.problem : problem;
    }
};

/// The step of `to` that runs the same operator as step `step` of `from`, and within an operator split
/// into another number of parts the part that covers the same fraction of it; -1 when `to` does not
/// run that graph step (or `step` is out of range). Identity when both have the same splits.
int correspondingStep(const schedule::ScheduleProblem& from, int step, const schedule::ScheduleProblem& to);

/// The design whose problem is the run's reference step list (RunResult::problem): the first Elk-Dyn or
/// Elk-Full (both run Elk-Dyn's splits), else the first design; null without designs.
const DesignRun* referenceDesign(const std::vector<DesignRun>& designs);

/// The failed run of a compile that did not succeed: its spec, errors, status and timings.
RunResult failedRun(const RunSpec& spec, CompileResult compiled);

/// Rebuilds each design's problem from its stored `splits` (designs with the same splits share one) and
/// the run's reference problem; false when a stored choice does not fit the compiled model (then the
/// designs are not usable with it).
bool attachProblems(RunResult& result);

/// Pipelined splitting judged by Elk-Dyn's analytic latency (the compiler's own choice; the step list
/// RunResult::problem has): starting from each operator's smallest fitting variant, operators with more
/// variants (largest HBM load first) try the next one (2, 4, 8 … parts) while it lowers the judge's
/// analytic latency of the whole model by more than 0.01 %. Deterministic. Contract:
/// compiled.partitionKey == partitionKey(spec).
SplitChoice chooseSplits(const CompiledModel& compiled, const RunSpec& spec);
/// The same greedy search judged by another design's analytic latency: the choice that design runs with
/// (splitJudgeOf()). Elk-Full as a judge searches its orders at every trial (tests only). `threads`:
/// for the judge's own searches (scheduleDesign()); the choice does not depend on it.
SplitChoice chooseSplits(const CompiledModel& compiled, const RunSpec& spec, schedule::Design judge, int threads = 1);
/// Whose analytic latency chooses a design's pipelined splits: its own for Basic, Static and Elk-Dyn;
/// Elk-Dyn's for Elk-Full (which is Elk-Dyn plus a preload-order search: judging every split trial by a
/// whole order search would multiply its cost by the trials, and tst_split_choice checks that Elk-Full
/// does not do better with its own choice). Ideal has no judge: it is scheduled with each design's
/// choice and without pipelined splits, and keeps the fastest simulated, so it stays a bound on all of
/// them.
schedule::Design splitJudgeOf(schedule::Design design);
/// Every operator as its smallest fitting variant: no pipelined splits (oversized ones stay split to fit).
SplitChoice noPipelinedSplits(const CompiledModel& compiled);

/// The schedule problem of `spec` on a compiled model with `choice` (chooseSplits() when omitted).
/// Contract: compiled.partitionKey == partitionKey(spec).
schedule::ScheduleProblem scheduleProblemFor(const CompiledModel& compiled, const RunSpec& spec);
schedule::ScheduleProblem scheduleProblemFor(
    const CompiledModel& compiled, const RunSpec& spec, const SplitChoice& choice);

/// Runs every design of `spec` on an already compiled model (reusing its partition tables). An error
/// when the spec needs other partition tables (partitionKey differs).
RunResult scheduleRun(std::shared_ptr<const CompiledModel> compiled, const RunSpec& spec, RunControl& control);
/// The same with the designs scheduled and simulated on up to `threads` threads (0: one per hardware
/// thread); results are identical to the serial run. Stage timings are then summed over threads.
RunResult scheduleRun(
    std::shared_ptr<const CompiledModel> compiled, const RunSpec& spec, RunControl& control, int threads);

/// compileModel + scheduleRun.
RunResult executeRun(const RunSpec& spec, RunControl& control, int threads = 0);

/// The run JSON of `elk run --json`: engine_version, model, chip (resolved), designs, timings_s. A design's
/// latency_ms and its utilisations and breakdown are the simulated ones; analytic_latency_ms is the
/// schedule's own estimate.
std::string runResultToJson(const RunResult& result);

} // namespace elk::run
