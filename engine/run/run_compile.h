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

/// One design's outcome.
struct DesignRun {
    schedule::Design design = schedule::Design::Basic;
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
    schedule::ScheduleProblem problem; ///< points into compiled->plans
    std::vector<DesignRun> designs; ///< in spec.designs order
    StageTimings timings;
    std::vector<std::string> errors; ///< fatal: nothing was scheduled
    RunStatus status = RunStatus::Completed;
    bool ok() const { return errors.empty() && status == RunStatus::Completed; }
};

/// Which variant each distinct operator runs as (by distinct input: index into CompiledModel::variants[i]).
struct SplitChoice {
    std::vector<std::uint32_t> variantOfInput;
    int evaluations = 0; ///< Elk-Dyn schedules tried to choose it
};

/// Pipelined splitting as a compiler decision, the same for every design: starting from each
/// operator's smallest fitting variant, operators with more variants (largest HBM load first) try the
/// next one (2, 4, 8 … parts) while it lowers the Elk-Dyn analytic latency of the whole model by more
/// than 0.01 %. Deterministic. Contract: compiled.partitionKey == partitionKey(spec).
SplitChoice chooseSplits(const CompiledModel& compiled, const RunSpec& spec);
/// The same greedy search judged by another design's analytic latency: what that design would choose
/// on its own terms (tests compare it with the shared choice; Elk-Full searches its orders each time).
SplitChoice chooseSplits(const CompiledModel& compiled, const RunSpec& spec, schedule::Design judge);
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
