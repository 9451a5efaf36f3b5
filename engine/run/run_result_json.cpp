// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/run_compile.h"

#include "engine/run/bound_gap_json.h"

#include "engine/chip/chip_spec_json.h"
#include "engine/core/version.h"

#include <nlohmann/json.hpp>

namespace elk::run {

namespace {

    using nlohmann::ordered_json;

    double milliseconds(double cycles, double clockHz)
    {
        return cycles / clockHz * 1e3;
    }

    std::int64_t hbmBytesOfSteps(const RunResult& result)
    {
        std::int64_t bytes = 0;
        for (const schedule::Step& step : result.problem.steps)
            bytes += result.problem.planSets[step.planSet]->hbmBytes;
        return bytes;
    }

    /// Operators run as several parts (pipelined splitting, or too large for the SRAM): one entry per
    /// distinct operator, with how many graph ops use it.
    ordered_json splitOpsJson(
        const CompiledModel& compiled, const schedule::ScheduleProblem& problem, schedule::Design judge)
    {
        const std::string pipelined = std::string("(") + schedule::toString(judge) + ")";
        std::vector<int> graphOps(compiled.plans.size(), 0);
        std::vector<const schedule::Step*> first(compiled.plans.size(), nullptr);
        for (const schedule::Step& step : problem.steps) {
            if (step.parts <= 1 || step.part != 0)
                continue;
            ++graphOps[step.planSet];
            if (!first[step.planSet])
                first[step.planSet] = &step;
        }
        ordered_json out = ordered_json::array();
        for (const std::vector<SplitVariant>& variants : compiled.variants) {
            for (const SplitVariant& variant : variants) {
                const schedule::Step* step = first[variant.planSet];
                if (!step)
                    continue;
                const model::TensorExpr& expr = compiled.planInputs[variant.planSet].expr;
                const int dim = variant.split.dim;
                out.push_back(ordered_json { { "first_op", step->name.substr(0, step->name.rfind(" [part ")) },
                    { "kind", model::toString(expr.kind) }, { "graph_ops", graphOps[variant.planSet] },
                    { "parts", variant.split.parts }, { "dim", dim },
                    { "dim_extent_per_part", expr.dimExtents[std::size_t(dim)] },
                    { "why",
                        variants.front().split.parts == 1 ? "pipelined: fewer parts schedule slower " + pipelined
                            : variant.split.parts == variants.front().split.parts
                            ? std::string("too large for the SRAM whole")
                            : "too large for the SRAM whole; more parts than that pipeline better " + pipelined } });
            }
        }
        return out;
    }

    /// Whose splits the reference step list has (RunResult::problem).
    schedule::Design referenceJudge(const RunResult& result)
    {
        const DesignRun* reference = referenceDesign(result.designs);
        return reference ? reference->splits.judge : schedule::Design::ElkDyn;
    }

    ordered_json breakdownJson(double overlap, double preloadOnly, double executeOnly, double stall, double clock)
    {
        return ordered_json { { "overlap", milliseconds(overlap, clock) },
            { "preload_only", milliseconds(preloadOnly, clock) }, { "execute_only", milliseconds(executeOnly, clock) },
            { "interconnect", milliseconds(stall, clock) } };
    }

    /// A design's own pipelined splits: whose analytic latency chose them, that latency with and without
    /// them (absent when no operator has pipelined variants), and the operators run as parts.
    ordered_json splitsJson(const DesignRun& run, const RunResult& result)
    {
        const double clock = result.spec.chip.clockHz;
        ordered_json out { { "judge", schedule::toString(run.splits.judge) },
            { "evaluations", run.splits.evaluations } };
        if (run.splits.evaluations > 0) {
            out["analytic_latency_ms"] = milliseconds(run.splits.analyticCycles, clock);
            out["analytic_latency_without_ms"] = milliseconds(run.splits.unsplitAnalyticCycles, clock);
        }
        out["split_ops"] = splitOpsJson(*result.compiled, result.problemOf(run), run.splits.judge);
        return out;
    }

    ordered_json designJson(const DesignRun& run, const RunResult& result, const DesignRun* basic)
    {
        const double clock = result.spec.chip.clockHz;
        ordered_json out;
        out["design"] = schedule::toString(run.design);
        if (!run.schedule || !run.simulated) {
            out["error"] = run.error;
            return out;
        }
        const schedule::ScheduleMetrics& m = run.metrics;
        const sim::SimResult& simulated = *run.simulated;
        double executeCycles = 0;
        double preloadCycles = 0;
        for (const sim::StepTrace& step : simulated.steps) {
            executeCycles += step.execute.length();
            preloadCycles += step.preload.length();
        }
        out["latency_ms"] = milliseconds(simulated.latencyCycles, clock);
        out["analytic_latency_ms"] = milliseconds(m.latencyCycles, clock);
        out["execute_ms"] = milliseconds(executeCycles, clock);
        out["preload_ms"] = milliseconds(preloadCycles, clock);
        out["hbm_utilization"] = simulated.hbmUtilization;
        out["noc_utilization"] = simulated.nocUtilization;
        out["tflops"] = simulated.flopsPerCycle * clock / 1e12;
        out["breakdown_ms"] = breakdownJson(simulated.overlapCycles, simulated.preloadOnlyCycles,
            simulated.executeOnlyCycles, simulated.interconnectStallCycles, clock);
        out["sram_peak_bytes_per_core"] = simulated.sramPeakBytesPerCore;
        if (basic && basic->simulated && simulated.latencyCycles > 0)
            out["speedup_vs_basic"] = basic->simulated->latencyCycles / simulated.latencyCycles;
        out["max_link_utilization"] = simulated.maxLinkUtilization;
        out["bound_gap"] = detail::waterfallJson(waterfallOf(simulated, run.design));
        out["analytic"] = ordered_json { { "execute_ms", milliseconds(m.executeCycles, clock) },
            { "preload_ms", milliseconds(m.preloadCycles, clock) }, { "hbm_utilization", m.hbmUtilization },
            { "noc_utilization", m.nocUtilization },
            { "breakdown_ms",
                breakdownJson(
                    m.overlapCycles, m.preloadOnlyCycles, m.executeOnlyCycles, m.interconnectStallCycles, clock) },
            { "sram_peak_bytes_per_core", run.schedule->sramPeakBytesPerCore } };
        out["pipelined_splits"] = splitsJson(run, result);
        out["contention"] = run.design != schedule::Design::Ideal;
        out["orders_tried"] = run.schedule->ordersTried;
        if (run.design == schedule::Design::ElkFull) {
            const schedule::OrderSearch& o = run.schedule->orders;
            out["order_search"] = ordered_json { { "prefixes_visited", o.prefixesVisited },
                { "valid_orders", o.validOrders }, { "movable_ops_per_layer", o.movableOps },
                { "budget_reached", o.truncated }, { "moves_from_identity", o.movesFromIdentity },
                { "analytic_latency_ms",
                    ordered_json { { "min", milliseconds(o.minCycles, clock) },
                        { "median", milliseconds(o.medianCycles, clock) },
                        { "max", milliseconds(o.maxCycles, clock) } } } };
            ordered_json spread = ordered_json::array();
            for (double cycles : o.orderLatencyCycles)
                spread.push_back(milliseconds(cycles, clock));
            out["order_search"]["order_latencies_ms"] = std::move(spread); // [0]: the identity order
            out["order_search"]["chosen_order"] = o.chosenOrder;
        }
        if (!run.schedule->note.empty())
            out["note"] = run.schedule->note;
        out["schedule_s"] = run.seconds;
        out["simulate_s"] = run.simulateSeconds;
        out["simulation_events"] = simulated.events;
        return out;
    }

} // namespace

std::string runResultToJson(const RunResult& result)
{
    ordered_json out;
    out["engine_version"] = kEngineVersion;
    out["run_spec_sha256"] = runSpecHash(result.spec);
    if (result.compiled) {
        const CompiledModel& compiled = *result.compiled;
        const model::GraphTotals& totals = compiled.analysis.totals;
        out["model"] = ordered_json { { "name", compiled.model.graph.name() }, { "path", result.spec.model.path },
            { "ops", compiled.model.graph.ops().size() },
            { "params", compiled.model.declaredParams.value_or(totals.params) }, { "flops_per_step", totals.flops },
            { "hbm_bytes_per_step", hbmBytesOfSteps(result) }, { "hbm_bytes_no_reuse", totals.hbmBytesNoReuse },
            { "spilled_activation_bytes", compiled.steps.spilledBytes },
            { "distinct_partitions", compiled.plans.size() }, { "tile_cost_model", compiled.costModel },
            { "split_ops", splitOpsJson(compiled, result.problem, referenceJudge(result)) } };
    }
    out["step"] = ordered_json { { "phase", toString(result.spec.phase) }, { "batch", result.spec.batch },
        { "seq_len", result.spec.seqLen }, { "kv_len", result.spec.kvLen } };
    out["chip"] = ordered_json::parse(chip::chipSpecToJson(result.spec.chip));
    out["options"] = ordered_json { { "preload_noc_threshold", result.spec.options.preloadNocThreshold },
        { "preload_ingress_gbps_per_core", result.spec.options.preloadIngressGBpsPerCore },
        { "delay_compute", result.spec.options.delayCompute } };
    const DesignRun* basic = nullptr;
    for (const DesignRun& run : result.designs) {
        if (run.design == schedule::Design::Basic)
            basic = &run;
    }
    ordered_json designs = ordered_json::array();
    for (const DesignRun& run : result.designs)
        designs.push_back(designJson(run, result, basic));
    out["designs"] = std::move(designs);
    out["timings_s"]
        = ordered_json { { "import", result.timings.importSeconds }, { "partition", result.timings.partitionSeconds },
              { "schedule", result.timings.scheduleSeconds }, { "simulate", result.timings.simulateSeconds } };
    if (!result.errors.empty())
        out["errors"] = result.errors;
    return out.dump(2) + "\n";
}

} // namespace elk::run
