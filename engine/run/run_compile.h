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

/// How compileModel split one distinct operator too large for the SRAM: `parts` equal parts over loop
/// dim `dim` (parts 1, dim -1: not split). Kept with cached partition tables, since they are searches
/// of the parts.
struct InputSplit {
    int parts = 1;
    int dim = -1;
    bool operator==(const InputSplit&) const = default;
};

/// Partition tables as a cache keeps them: enough to rebuild a CompiledModel without searching.
struct PartitionTables {
    std::vector<partition::OpPlans> plans; ///< by StepInputs::distinctInputs
    std::vector<InputSplit> splits; ///< by StepInputs::distinctInputs; empty: nothing split
};

/// Everything a run computes before any design decides: the graph, its analysis, the per-step
/// partition inputs and every distinct partition search. It depends on the model, the step and the
/// chip's cores, SRAM, interconnect and tile cost — not on HBM bandwidth or the preload knobs — so a
/// bandwidth edit re-runs only scheduling (partitionKey() says what it depends on).
struct CompiledModel {
    LoadedModel model;
    model::GraphAnalysis analysis;
    StepInputs steps;
    std::vector<partition::OpPlans> plans; ///< by StepInputs::distinctInputs
    std::vector<InputSplit> splits; ///< by StepInputs::distinctInputs
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

/// The schedule problem of `spec` on a compiled model. Contract: compiled.partitionKey == partitionKey(spec).
schedule::ScheduleProblem scheduleProblemFor(const CompiledModel& compiled, const RunSpec& spec);

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
