// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/run_compile.h"

#include "engine/chip/chip_spec_json.h"
#include "engine/core/sha256.h"
#include "engine/cost/tile_cost.h"
#include "engine/schedule/program.h"
#include "engine/sim/simulator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
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

    /// An operator whose smallest plan does not fit the SRAM runs as n consecutive steps, each over
    /// 1/n of one output dimension (largest first; n divides it, so all parts are the same operator
    /// and share one search). Reduction dims are never split: that would need a partial-sum pass.
    struct SplitPart {
        InputSplit split;
        partition::PartitionInput input;
    };

    /// The part of `input` that `split` describes: dim `split.dim` cut into `split.parts` equal parts.
    partition::PartitionInput partOf(const partition::PartitionInput& input, const InputSplit& split)
    {
        partition::PartitionInput part = input;
        part.expr.dimExtents[std::size_t(split.dim)] /= split.parts;
        return part;
    }

    /// Returns the split and the part's search, or nothing when no split up to 64 parts fits.
    std::optional<SplitPart> splitToFit(const partition::PartitionInput& input,
        const partition::PartitionResult& failed, const partition::PartitionSettings& settings,
        const cost::TileCostModel& costModel, const cost::TransferCost& transfer, RunControl& control,
        partition::PartitionResult& partResult)
    {
        const model::TensorExpr& expr = input.expr;
        if (failed.smallestBytesPerCore <= 0 || expr.operands.empty())
            return std::nullopt;
        std::vector<int> dims;
        for (const model::Axis& axis : expr.operands[0].axes) {
            if (!axis.isWindow())
                dims.push_back(axis.dim);
        }
        for (const model::Operand& operand : expr.operands) {
            for (const model::Axis& axis : operand.axes) {
                if (axis.isWindow())
                    std::erase_if(dims, [&](int d) { return d == axis.dim || d == axis.windowDim; });
            }
        }
        std::stable_sort(dims.begin(), dims.end(),
            [&](int a, int b) { return expr.dimExtents[std::size_t(a)] > expr.dimExtents[std::size_t(b)]; });
        const auto first = int(std::max<std::int64_t>(
            2, (failed.smallestBytesPerCore + settings.sramBytesPerCore - 1) / settings.sramBytesPerCore));
        for (int parts = first; parts <= 64; ++parts) {
            for (int dim : dims) {
                const std::int64_t extent = expr.dimExtents[std::size_t(dim)];
                if (extent % parts != 0)
                    continue;
                const InputSplit split { parts, dim };
                partition::PartitionInput part = partOf(input, split);
                partResult = partition::partitionOp(part, settings, costModel, transfer, control);
                if (partResult.ok())
                    return SplitPart { split, std::move(part) };
                if (control.stopRequested())
                    return std::nullopt;
            }
        }
        return std::nullopt;
    }

    /// Repeats every step of a split operator once per part.
    void expandSplitSteps(StepInputs& steps, const std::vector<int>& partsOfInput)
    {
        StepInputs expanded;
        for (std::size_t s = 0; s < steps.inputOfStep.size(); ++s) {
            const int parts = partsOfInput[steps.inputOfStep[s]];
            for (int k = 0; k < parts; ++k) {
                expanded.inputOfStep.push_back(steps.inputOfStep[s]);
                expanded.reservedBytesPerCore.push_back(steps.reservedBytesPerCore[s]);
                expanded.graphStep.push_back(steps.graphStep[s]);
                expanded.partCount.push_back(parts);
            }
        }
        steps.inputOfStep = std::move(expanded.inputOfStep);
        steps.reservedBytesPerCore = std::move(expanded.reservedBytesPerCore);
        steps.graphStep = std::move(expanded.graphStep);
        steps.partCount = std::move(expanded.partCount);
    }

    /// Whether cached tables can stand for the searches of `inputs` (a cache row of another engine
    /// build or a damaged one must never reach the scheduler).
    bool tablesFit(const std::vector<partition::PartitionInput>& inputs, const PartitionTables& tables)
    {
        if (tables.plans.size() != inputs.size() || (!tables.splits.empty() && tables.splits.size() != inputs.size()))
            return false;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const model::TensorExpr& expr = inputs[i].expr;
            const std::size_t dims = expr.dimExtents.size();
            if (!tables.splits.empty()) {
                const InputSplit& split = tables.splits[i];
                const bool unsplit = split.parts == 1 && split.dim == -1;
                const bool validSplit = split.parts >= 2 && split.parts <= 64 && split.dim >= 0
                    && std::size_t(split.dim) < dims && expr.dimExtents[std::size_t(split.dim)] % split.parts == 0;
                if (!unsplit && !validSplit)
                    return false;
            }
            const partition::OpPlans& plans = tables.plans[i];
            if (plans.table.empty() || plans.costs.size() != plans.plans.size())
                return false;
            for (const partition::Plan& plan : plans.plans) {
                if (plan.spatial.size() != dims || plan.temporal.size() != dims)
                    return false;
                for (const auto& perOperand : plan.temporal) {
                    if (perOperand.size() != expr.operands.size())
                        return false;
                }
            }
            for (const partition::PreloadEntry& entry : plans.table) {
                if (entry.preloadPlan >= plans.plans.size() || entry.executePlan >= plans.plans.size())
                    return false;
            }
            for (std::uint32_t index : plans.pareto) {
                if (index >= plans.plans.size())
                    return false;
            }
        }
        return true;
    }

    /// Links through which HBM data enters a 2D mesh, whole part, as the simulator routes it: one
    /// inward link per row on each controller edge (XY routing from the edge router of the core's
    /// row), all four links of a controller's router when controllers sit inside. 0 on all-to-all.
    double meshInjectionBytesPerCycle(const chip::ChipSpec& chip)
    {
        if (chip.interconnect.topology != chip::Topology::Mesh2d)
            return 0;
        const int width = chip.interconnect.meshWidth;
        const int height = chip.interconnect.meshHeight;
        int links = 0;
        switch (chip.hbm.controllerPlacement) {
        case chip::ControllerPlacement::WestEdge:
            links = height;
            break;
        case chip::ControllerPlacement::WestEastEdges:
            links = 2 * height;
            break;
        case chip::ControllerPlacement::AllEdges:
            links = 2 * height + 2 * width;
            break;
        case chip::ControllerPlacement::Spread:
        case chip::ControllerPlacement::Explicit:
            links = 4 * chip.hbm.stacksPerChip;
            break;
        }
        return double(links) * double(chip.chips) * chip.linkBytesPerCycle();
    }

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
    return compileModel(spec, control, threads, nullptr);
}

PartitionTables partitionTablesOf(const CompiledModel& compiled)
{
    return PartitionTables { compiled.plans, compiled.splits };
}

CompileResult compileModel(const RunSpec& spec, RunControl& control, int threads, const PartitionTables* cached)
{
    const auto start = std::chrono::steady_clock::now();
    control.progress(0, 1, "import");
    ModelLoadResult loaded = loadRunModel(spec);
    if (!loaded.ok()) {
        CompileResult result;
        result.errors = std::move(loaded.errors);
        result.status = RunStatus::Failed;
        return result;
    }
    const double importSeconds = secondsSince(start);
    CompileResult result = compileLoadedModel(std::move(*loaded.model), spec, control, threads, cached);
    result.timings.importSeconds += importSeconds;
    return result;
}

CompileResult compileLoadedModel(
    LoadedModel model, const RunSpec& spec, RunControl& control, int threads, const PartitionTables* cached)
{
    CompileResult result;
    auto start = std::chrono::steady_clock::now();
    auto compiled = std::make_shared<CompiledModel>();
    compiled->model = std::move(model);
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
    if (cached != nullptr && tablesFit(inputs, *cached)) {
        std::vector<int> partsOfInput(inputs.size(), 1);
        bool anySplit = false;
        compiled->splits.assign(inputs.size(), InputSplit {});
        for (std::size_t i = 0; i < cached->splits.size(); ++i) {
            const InputSplit& split = cached->splits[i];
            if (split.parts == 1)
                continue;
            compiled->steps.distinctInputs[i] = partOf(inputs[i], split);
            compiled->splits[i] = split;
            partsOfInput[i] = split.parts;
            anySplit = true;
        }
        if (anySplit)
            expandSplitSteps(compiled->steps, partsOfInput);
        compiled->plans = cached->plans;
        result.timings.partitionSeconds = secondsSince(start);
        result.fromCache = true;
        result.compiled = std::move(compiled);
        return result;
    }
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
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }

    // Operators too large for the SRAM are split over one output dim; the rest that fit no plan are named.
    std::vector<int> partsOfInput(inputs.size(), 1);
    bool anySplit = false;
    compiled->splits.assign(inputs.size(), InputSplit {});
    for (std::size_t i = 0; i < searched.size(); ++i) {
        if (searched[i].ok() || searched[i].smallestBytesPerCore <= 0)
            continue;
        partition::PartitionResult partResult;
        if (auto split = splitToFit(inputs[i], searched[i], settings, *costModel.model, transfer, shared, partResult)) {
            partsOfInput[i] = split->split.parts;
            compiled->splits[i] = split->split;
            compiled->steps.distinctInputs[i] = std::move(split->input);
            searched[i] = std::move(partResult);
            anySplit = true;
        }
    }
    if (anySplit)
        expandSplitSteps(compiled->steps, partsOfInput);
    result.timings.partitionSeconds = secondsSince(start);
    for (std::size_t i = 0; i < searched.size(); ++i) {
        if (searched[i].ok())
            continue;
        const auto scheduleStep = std::size_t(std::find(compiled->steps.inputOfStep.begin(),
                                                  compiled->steps.inputOfStep.end(), i)
            - compiled->steps.inputOfStep.begin());
        const auto step = std::size_t(compiled->steps.graphStep[scheduleStep]);
        const model::Op& op = compiled->model.graph.op(compiled->analysis.order[step]);
        result.errors.push_back("op '" + op.name + "' (" + model::toString(inputs[i].expr.kind) + ", step "
            + std::to_string(step) + "): " + searched[i].error
            + (searched[i].smallestBytesPerCore > 0 ? "; splitting it over one output dimension into up to 64 parts does not fit either" : ""));
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
    const StepInputs& inputs = compiled.steps;
    problem.steps.reserve(inputs.inputOfStep.size());
    for (std::size_t s = 0; s < inputs.inputOfStep.size(); ++s) {
        const model::OpId op = order[std::size_t(inputs.graphStep[s])];
        const int parts = inputs.partCount[s];
        schedule::Step step;
        step.name = graph.op(op).name;
        if (parts > 1) {
            const int part = 1 + int(s) - int(std::find(inputs.graphStep.begin(), inputs.graphStep.end(), inputs.graphStep[s])
                                         - inputs.graphStep.begin());
            step.name += " [part " + std::to_string(part) + "/" + std::to_string(parts) + "]";
        }
        step.planSet = inputs.inputOfStep[s];
        step.flops = model::flopCount(graph.exprOf(op)) / parts;
        step.reservedBytesPerCore = inputs.reservedBytesPerCore[s];
        problem.steps.push_back(std::move(step));
    }
    // Layers over schedule steps: a split operator adds its parts to the block it belongs to.
    const model::LayerStructure& graphLayers = compiled.analysis.layers;
    problem.layers = graphLayers;
    if (inputs.graphStep.size() != order.size()) {
        const auto stepsBefore = [&](int graphStep) {
            return int(std::lower_bound(inputs.graphStep.begin(), inputs.graphStep.end(), graphStep)
                - inputs.graphStep.begin());
        };
        problem.layers.prefixOps = stepsBefore(graphLayers.prefixOps);
        problem.layers.firstLayerStart = problem.layers.prefixOps;
        problem.layers.opsPerLayer
            = stepsBefore(graphLayers.prefixOps + graphLayers.opsPerLayer) - problem.layers.prefixOps;
        problem.layers.suffixOps = int(inputs.graphStep.size()) - problem.layers.prefixOps
            - graphLayers.layerCount * problem.layers.opsPerLayer;
    }
    problem.cores = spec.chip.totalCores();
    problem.sramBytesPerCore = spec.chip.sramBytesPerCore;
    problem.clockHz = spec.chip.clockHz;
    problem.hbmBytesPerCycle = spec.chip.totalHbmBandwidthGBps() * 1e9 / spec.chip.clockHz;
    problem.preloadIngressBytesPerCycle = spec.options.preloadIngressGBpsPerCore * 1e9 / spec.chip.clockHz;
    problem.preloadNocThreshold = spec.options.preloadNocThreshold;
    problem.delayCompute = spec.options.delayCompute;
    problem.mesh = spec.chip.interconnect.topology == chip::Topology::Mesh2d;
    problem.preloadInjectionBytesPerCycle = meshInjectionBytesPerCycle(spec.chip);
    return problem;
}

namespace {

    /// Schedules and simulates one design. Reads only `problem` and `spec`, so designs may run on
    /// several threads at once.
    DesignRun runDesign(const schedule::ScheduleProblem& problem, const RunSpec& spec, const std::string& name,
        double linkBytesPerCycle, RunControl& control)
    {
        DesignRun run;
        run.design = *schedule::designFromString(name);
        const auto designStart = std::chrono::steady_clock::now();
        schedule::ScheduleResult scheduled = schedule::scheduleDesign(problem, run.design, control);
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
            const schedule::Program program = schedule::lowerProgram(problem, *run.schedule);
            sim::SimRunResult simulated = sim::simulate(spec.chip, problem, program, options, control);
            run.simulateSeconds = secondsSince(simStart);
            if (control.stopRequested())
                return run;
            if (simulated.ok())
                run.simulated = std::move(simulated.result);
            else
                run.error = "simulation: " + simulated.error;
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
    result.problem = scheduleProblemFor(*compiled, spec);
    const double linkBytesPerCycle = cost::TransferCost::fromChip(spec.chip).linkBytesPerCycle;
    const std::size_t count = spec.designs.size();
    std::vector<std::optional<DesignRun>> runs(count);
    DesignControl shared(control, std::int64_t(count));
    std::atomic<std::size_t> next { 0 };
    auto work = [&] {
        for (std::size_t d = next++; d < count && !control.stopRequested(); d = next++) {
            shared.progress(0, 1, "schedule " + spec.designs[d]);
            DesignRun run = runDesign(result.problem, spec, spec.designs[d], linkBytesPerCycle, shared);
            if (!control.stopRequested())
                runs[d] = std::move(run);
        }
    };
    const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
    const int threadCount = std::clamp(threads > 0 ? threads : hardware, 1, std::max(1, int(count)));
    std::vector<std::thread> pool;
    for (int t = 1; t < threadCount; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& thread : pool)
        thread.join();
    for (std::optional<DesignRun>& run : runs) {
        if (!run)
            continue;
        result.timings.scheduleSeconds += run->seconds;
        result.timings.simulateSeconds += run->simulateSeconds;
        result.designs.push_back(std::move(*run));
    }
    if (control.stopRequested() || result.designs.size() != count)
        result.status = RunStatus::Stopped;
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
