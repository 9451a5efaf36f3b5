// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/run_compile.h"

#include "engine/chip/chip_spec_json.h"
#include "engine/core/sha256.h"
#include "engine/cost/tile_cost.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace elk::run {

namespace {

    double secondsSince(std::chrono::steady_clock::time_point start)
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    /// Forwards stop requests and serialises progress from several partition threads.
    class SharedControl final : public RunControl {
    public:
        explicit SharedControl(RunControl& outer) : m_outer(outer) { }
        bool stopRequested() const override { return m_outer.stopRequested(); }
        void progress(std::int64_t, std::int64_t, std::string_view) override { } // per-op progress is not shown
        void opDone(std::int64_t total)
        {
            const std::lock_guard lock(m_mutex);
            m_outer.progress(++m_done, total, "partition");
        }

    private:
        RunControl& m_outer;
        std::mutex m_mutex;
        std::int64_t m_done = 0;
    };

} // namespace

std::string partitionKey(const RunSpec& spec)
{
    chip::ChipSpec chip = spec.chip;
    chip.name.clear();
    chip.description.clear();
    chip.source.clear();
    chip.hbm = chip::HbmSpec {}; // HBM only changes how long preloads take, never the plans
    chip.interChip.linkBandwidthGBps = 0;
    chip.interChip.latencyCycles = 0;
    const std::string text = std::string("elk.partition-key/1\n") + spec.model.sha256 + "\n" + toString(spec.phase) + "\n"
        + std::to_string(spec.batch) + "\n" + std::to_string(spec.seqLen) + "\n" + std::to_string(spec.kvLen) + "\n"
        + spec.engineVersion + "\n" + chip::chipSpecToJson(chip);
    return sha256Hex(text);
}

CompileResult compileModel(const RunSpec& spec, RunControl& control, int threads)
{
    CompileResult result;
    auto start = std::chrono::steady_clock::now();
    control.progress(0, 1, "import");
    ModelLoadResult loaded = loadRunModel(spec);
    if (!loaded.ok()) {
        result.errors = std::move(loaded.errors);
        result.status = RunStatus::Failed;
        return result;
    }
    auto compiled = std::make_shared<CompiledModel>();
    compiled->model = std::move(*loaded.model);
    compiled->analysis = model::analyzeGraph(compiled->model.graph);
    compiled->steps = buildStepInputs(
        compiled->model.graph, compiled->analysis, spec.chip.totalCores(), spec.chip.sramBytesPerCore);
    compiled->partitionKey = partitionKey(spec);
    result.timings.importSeconds = secondsSince(start);
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }

    start = std::chrono::steady_clock::now();
    cost::TileCostModelResult costModel = cost::makeTileCostModel(spec.chip);
    if (!costModel.ok()) {
        result.errors.push_back("tile cost model: " + costModel.error);
        result.status = RunStatus::Failed;
        return result;
    }
    compiled->costModel = costModel.model->name() + " " + costModel.model->version();
    const cost::TransferCost transfer = cost::TransferCost::fromChip(spec.chip);
    partition::PartitionSettings settings;
    settings.cores = spec.chip.totalCores();
    settings.coresPerChip = spec.chip.coresPerChip;
    settings.sramBytesPerCore = spec.chip.sramBytesPerCore;
    settings.training = spec.phase == Phase::Train;

    const auto& inputs = compiled->steps.distinctInputs;
    std::vector<partition::PartitionResult> searched(inputs.size());
    // Largest searches first so that threads finish together; the order of results is by index.
    std::vector<std::size_t> queue(inputs.size());
    for (std::size_t i = 0; i < queue.size(); ++i)
        queue[i] = i;
    std::stable_sort(queue.begin(), queue.end(), [&](std::size_t a, std::size_t b) {
        return model::iterationCount(inputs[a].expr) > model::iterationCount(inputs[b].expr);
    });
    SharedControl shared(control);
    std::atomic<std::size_t> next { 0 };
    auto work = [&] {
        for (std::size_t slot = next++; slot < queue.size(); slot = next++) {
            const std::size_t i = queue[slot];
            searched[i] = partition::partitionOp(inputs[i], settings, *costModel.model, transfer, shared);
            shared.opDone(std::int64_t(inputs.size()));
        }
    };
    const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
    const int threadCount = std::clamp(threads > 0 ? threads : hardware, 1, std::max(1, int(inputs.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threadCount; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& thread : pool)
        thread.join();
    result.timings.partitionSeconds = secondsSince(start);
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }

    // Name the first step of each operator that fits no plan.
    for (std::size_t i = 0; i < searched.size(); ++i) {
        if (searched[i].ok())
            continue;
        const auto step = std::size_t(std::find(compiled->steps.inputOfStep.begin(), compiled->steps.inputOfStep.end(), i)
            - compiled->steps.inputOfStep.begin());
        const model::Op& op = compiled->model.graph.op(compiled->analysis.order[step]);
        result.errors.push_back("op '" + op.name + "' (" + model::toString(inputs[i].expr.kind) + ", step "
            + std::to_string(step) + "): " + searched[i].error);
    }
    if (!result.errors.empty()) {
        result.status = RunStatus::Failed;
        return result;
    }
    compiled->plans.reserve(searched.size());
    for (partition::PartitionResult& one : searched)
        compiled->plans.push_back(std::move(*one.plans));
    result.compiled = std::move(compiled);
    return result;
}

schedule::ScheduleProblem scheduleProblemFor(const CompiledModel& compiled, const RunSpec& spec)
{
    schedule::ScheduleProblem problem;
    for (const partition::OpPlans& plans : compiled.plans)
        problem.planSets.push_back(&plans);
    const model::Graph& graph = compiled.model.graph;
    const std::vector<model::OpId>& order = compiled.analysis.order;
    problem.steps.reserve(order.size());
    for (std::size_t s = 0; s < order.size(); ++s) {
        schedule::Step step;
        step.name = graph.op(order[s]).name;
        step.planSet = compiled.steps.inputOfStep[s];
        step.flops = model::flopCount(graph.exprOf(order[s]));
        step.reservedBytesPerCore = compiled.steps.reservedBytesPerCore[s];
        problem.steps.push_back(std::move(step));
    }
    problem.layers = compiled.analysis.layers;
    problem.cores = spec.chip.totalCores();
    problem.sramBytesPerCore = spec.chip.sramBytesPerCore;
    problem.clockHz = spec.chip.clockHz;
    problem.hbmBytesPerCycle = spec.chip.totalHbmBandwidthGBps() * 1e9 / spec.chip.clockHz;
    problem.preloadIngressBytesPerCycle = spec.options.preloadIngressGBpsPerCore * 1e9 / spec.chip.clockHz;
    problem.preloadNocThreshold = spec.options.preloadNocThreshold;
    problem.delayCompute = spec.options.delayCompute;
    problem.mesh = spec.chip.interconnect.topology == chip::Topology::Mesh2d;
    return problem;
}

RunResult scheduleRun(std::shared_ptr<const CompiledModel> compiled, const RunSpec& spec, RunControl& control)
{
    RunResult result;
    result.spec = spec;
    result.compiled = compiled;
    if (!compiled || compiled->partitionKey != partitionKey(spec)) {
        result.errors.push_back("the compiled model was partitioned for another model, step or chip layout");
        result.status = RunStatus::Failed;
        return result;
    }
    result.problem = scheduleProblemFor(*compiled, spec);
    const double linkBytesPerCycle = cost::TransferCost::fromChip(spec.chip).linkBytesPerCycle;
    const auto start = std::chrono::steady_clock::now();
    std::int64_t done = 0;
    for (const std::string& name : spec.designs) {
        DesignRun run;
        run.design = *schedule::designFromString(name);
        control.progress(done++, std::int64_t(spec.designs.size()), "schedule " + name);
        const auto designStart = std::chrono::steady_clock::now();
        schedule::ScheduleResult scheduled = schedule::scheduleDesign(result.problem, run.design, control);
        run.seconds = secondsSince(designStart);
        if (control.stopRequested()) {
            result.status = RunStatus::Stopped;
            return result;
        }
        if (scheduled.ok()) {
            run.metrics = schedule::scheduleMetrics(result.problem, *scheduled.schedule, linkBytesPerCycle);
            run.schedule = std::move(scheduled.schedule);
        } else {
            run.error = scheduled.error;
        }
        result.designs.push_back(std::move(run));
    }
    result.timings.scheduleSeconds = secondsSince(start);
    return result;
}

RunResult executeRun(const RunSpec& spec, RunControl& control, int threads)
{
    CompileResult compiled = compileModel(spec, control, threads);
    if (!compiled.ok()) {
        RunResult failed;
        failed.spec = spec;
        failed.errors = std::move(compiled.errors);
        failed.status = compiled.status;
        failed.timings = compiled.timings;
        return failed;
    }
    RunResult result = scheduleRun(compiled.compiled, spec, control);
    result.timings.importSeconds = compiled.timings.importSeconds;
    result.timings.partitionSeconds = compiled.timings.partitionSeconds;
    return result;
}

} // namespace elk::run
