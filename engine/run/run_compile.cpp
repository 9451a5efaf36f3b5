// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/run_compile.h"

#include "engine/core/parallel_for.h"

#include "engine/chip/chip_spec_json.h"
#include "engine/core/build_fingerprint.h"
#include "engine/core/sha256.h"
#include "engine/cost/tile_cost.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
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
        explicit SharedControl(RunControl& outer)
            : m_outer(outer)
        {
        }
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

    /// Output dims a pipelined split may cut: plain (not windowed) output axes that every HBM input
    /// indexes, so that each part loads only its slice; largest extent first (ties: lower dim).
    std::vector<int> pipelineDims(const partition::PartitionInput& input)
    {
        const model::TensorExpr& expr = input.expr;
        std::vector<int> dims;
        if (expr.operands.empty())
            return dims;
        for (const model::Axis& axis : expr.operands[0].axes) {
            if (axis.isWindow())
                continue;
            bool everyHbmInput = true, anyHbm = false;
            for (std::size_t v = 1; v < expr.operands.size(); ++v) {
                if (v >= input.fromHbm.size() || !input.fromHbm[v])
                    continue;
                anyHbm = true;
                bool uses = false;
                for (const model::Axis& in : expr.operands[v].axes)
                    uses = uses || (!in.isWindow() && in.dim == axis.dim);
                everyHbmInput = everyHbmInput && uses;
            }
            if (anyHbm && everyHbmInput)
                dims.push_back(axis.dim);
        }
        std::stable_sort(dims.begin(), dims.end(),
            [&](int a, int b) { return expr.dimExtents[std::size_t(a)] > expr.dimExtents[std::size_t(b)]; });
        return dims;
    }

    /// Large against the SRAM: the operator's smallest preload state takes a quarter of it, or its
    /// smallest execute state half of it (then the next operator's preload has little room to overlap).
    bool worthPipelining(const partition::OpPlans& plans, std::int64_t sramBytesPerCore)
    {
        if (plans.hbmBytes <= 0 || plans.table.empty())
            return false;
        std::int64_t smallestExecute = plans.table.front().executeBytes;
        for (const partition::PreloadEntry& entry : plans.table)
            smallestExecute = std::min(smallestExecute, entry.executeBytes);
        return 4 * plans.minPreloadBytes() >= sramBytesPerCore || 2 * smallestExecute >= sramBytesPerCore;
    }

    constexpr int kMaxPipelineParts = 8; ///< beyond 8 parts the per-part syncs dominate what overlaps

    /// Whether cached tables can stand for the searches of `inputs` (a cache row of another engine
    /// build or a damaged one must never reach the scheduler): every input has at least one search,
    /// searches of one input come together in ascending parts, and every plan has the part's ranks.
    bool tablesFit(const std::vector<partition::PartitionInput>& inputs, const PartitionTables& tables)
    {
        const std::size_t sets = tables.plans.size();
        if (tables.splits.size() != sets || tables.inputOfPlanSet.size() != sets)
            return false;
        std::vector<int> lastParts(inputs.size(), 0);
        std::uint32_t previous = 0;
        for (std::size_t p = 0; p < sets; ++p) {
            const std::uint32_t i = tables.inputOfPlanSet[p];
            if (i >= inputs.size() || i < previous || (i > previous + 1) || (p == 0 && i != 0))
                return false;
            previous = i;
            const model::TensorExpr& expr = inputs[i].expr;
            const std::size_t dims = expr.dimExtents.size();
            const InputSplit& split = tables.splits[p];
            const bool unsplit = split.parts == 1 && split.dim == -1;
            const bool validSplit = split.parts >= 2 && split.parts <= 64 && split.dim >= 0
                && std::size_t(split.dim) < dims && expr.dimExtents[std::size_t(split.dim)] % split.parts == 0;
            if ((!unsplit && !validSplit) || split.parts <= lastParts[i])
                return false;
            lastParts[i] = split.parts;
            const partition::OpPlans& plans = tables.plans[p];
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
        return sets > 0 ? std::size_t(previous) + 1 == inputs.size() : inputs.empty();
    }

    /// One partition search: an operator input, whole or as parts.
    struct Job {
        std::size_t input = 0;
        InputSplit split;
    };

    /// Runs searches of (input, split) jobs on the pool; results by job index. Each search runs as parts
    /// over its first dim's split values (up to two per thread, so that one large search does not keep
    /// the others waiting), then its parts merge; results do not depend on how it was cut
    /// (finishSearch()).
    struct JobSearch {
        const std::vector<partition::PartitionInput>& inputs;
        const partition::PartitionSettings& settings;
        const cost::TileCostModel& costModel;
        const cost::TransferCost& transfer;
        int threadCount = 1;
        SharedControl& shared;

        std::vector<partition::PartitionResult> operator()(const std::vector<Job>& jobs) const
        {
            std::vector<partition::PartitionInput> parts(jobs.size());
            for (std::size_t j = 0; j < jobs.size(); ++j)
                parts[j]
                    = jobs[j].split.parts > 1 ? partOf(inputs[jobs[j].input], jobs[j].split) : inputs[jobs[j].input];
            struct Piece {
                std::size_t job = 0;
                int begin = 0, end = 0;
            };
            std::vector<std::vector<partition::PartialSearch>> partials(jobs.size());
            std::vector<Piece> pieces;
            std::vector<std::size_t> bySize(jobs.size());
            for (std::size_t j = 0; j < jobs.size(); ++j)
                bySize[j] = j;
            // Largest searches first so that threads finish together.
            std::stable_sort(bySize.begin(), bySize.end(), [&](std::size_t a, std::size_t b) {
                return model::iterationCount(parts[a].expr) > model::iterationCount(parts[b].expr);
            });
            for (std::size_t j : bySize) {
                const int candidates = partition::firstDimCandidates(parts[j], settings);
                const int count = std::clamp(
                    threadCount > 1 ? std::min(candidates, 2 * threadCount) : 1, 1, std::max(1, candidates));
                partials[j].resize(std::size_t(count));
                for (int c = 0; c < count; ++c)
                    pieces.push_back(Piece { j, c * candidates / count, (c + 1) * candidates / count });
            }
            std::vector<std::size_t> pieceOf; // piece index → slot in partials[job]
            std::vector<int> slotCounter(jobs.size(), 0);
            for (const Piece& piece : pieces)
                pieceOf.push_back(std::size_t(slotCounter[piece.job]++));
            parallelFor(pieces.size(), threadCount, [&](std::size_t p) {
                const Piece& piece = pieces[p];
                partials[piece.job][pieceOf[p]] = partition::searchPart(
                    parts[piece.job], settings, costModel, transfer, piece.begin, piece.end, shared);
            });
            std::vector<partition::PartitionResult> searched(jobs.size());
            parallelFor(bySize.size(), threadCount, [&](std::size_t k) {
                const std::size_t j = bySize[k];
                searched[j] = partition::finishSearch(parts[j], settings, costModel, transfer, partials[j], shared);
                shared.opDone(std::int64_t(jobs.size()));
            });
            return searched;
        }
    };

    /// Pipelined variants: 2×, 4×, … the base parts over one dim the HBM inputs use, up to 8 parts.
    std::vector<Job> pipelineJobsFor(const std::vector<partition::PartitionInput>& inputs,
        const std::vector<partition::PartitionResult>& whole, const std::vector<InputSplit>& baseSplit,
        std::int64_t sramBytesPerCore)
    {
        std::vector<Job> jobs;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            if (!worthPipelining(*whole[i].plans, sramBytesPerCore))
                continue;
            const InputSplit base = baseSplit[i];
            std::vector<int> dims = pipelineDims(inputs[i]);
            if (base.parts > 1)
                dims = std::find(dims.begin(), dims.end(), base.dim) != dims.end() ? std::vector<int> { base.dim }
                                                                                   : std::vector<int> {};
            for (int dim : dims) {
                const std::int64_t extent = inputs[i].expr.dimExtents[std::size_t(dim)];
                bool any = false;
                for (int parts = 2 * base.parts; parts <= std::max(kMaxPipelineParts, base.parts); parts *= 2) {
                    if (extent % parts != 0 || extent / parts < 1)
                        break;
                    jobs.push_back(Job { i, InputSplit { parts, dim } });
                    any = true;
                }
                if (any)
                    break; // one dim per operator: its largest that divides
            }
        }
        return jobs;
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
    std::string text = std::string("elk.partition-key/1\n") + spec.model.sha256 + "\n" + toString(spec.phase) + "\n"
        + std::to_string(spec.batch) + "\n" + std::to_string(spec.seqLen) + "\n" + std::to_string(spec.kvLen) + "\n"
        + engineBuildId() + "\n" + chip::chipSpecToJson(chip);
    for (const auto& [name, size] : spec.dims)
        text += "dim " + name + "=" + std::to_string(size) + "\n";
    for (const auto& [name, shape] : spec.inputShapes) {
        text += "input " + name + "=";
        for (std::int64_t d : shape)
            text += std::to_string(d) + ",";
        text += "\n";
    }
    return sha256Hex(text);
}

CompileResult compileModel(const RunSpec& spec, RunControl& control, int threads)
{
    return compileModel(spec, control, threads, nullptr);
}

PartitionTables partitionTablesOf(const CompiledModel& compiled)
{
    PartitionTables tables;
    tables.plans = compiled.plans;
    tables.splits.resize(compiled.plans.size());
    tables.inputOfPlanSet.resize(compiled.plans.size());
    for (std::size_t i = 0; i < compiled.variants.size(); ++i) {
        for (const SplitVariant& variant : compiled.variants[i]) {
            tables.splits[variant.planSet] = variant.split;
            tables.inputOfPlanSet[variant.planSet] = std::uint32_t(i);
        }
    }
    return tables;
}

CompileResult compileModel(const RunSpec& spec, RunControl& control, int threads, const PartitionTables* cached)
{
    const auto start = std::chrono::steady_clock::now();
    control.progress(0, 1, "import");
    ModelLoadResult loaded = loadRunModel(spec, &control);
    if (loaded.stopped) {
        CompileResult result;
        result.status = RunStatus::Stopped;
        return result;
    }
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
    compiled->variants.assign(inputs.size(), {});
    const auto addVariant = [&](std::size_t i, InputSplit split, partition::OpPlans plans) {
        const auto planSet = std::uint32_t(compiled->plans.size());
        compiled->variants[i].push_back(SplitVariant { split, planSet });
        compiled->planInputs.push_back(split.parts > 1 ? partOf(inputs[i], split) : inputs[i]);
        compiled->peakFlopPerCyclePerCore.push_back(
            costModel.model->peakFlopPerCycle(compiled->planInputs.back().expr));
        compiled->plans.push_back(std::move(plans));
    };
    if (cached != nullptr && tablesFit(inputs, *cached)) {
        for (std::size_t p = 0; p < cached->plans.size(); ++p)
            addVariant(cached->inputOfPlanSet[p], cached->splits[p], cached->plans[p]);
        result.timings.partitionSeconds = secondsSince(start);
        result.fromCache = true;
        result.compiled = std::move(compiled);
        return result;
    }

    SharedControl shared(control);
    const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
    const JobSearch searchAll { inputs, settings, *costModel.model, transfer,
        std::clamp(threads > 0 ? threads : hardware, 1, 64), shared };
    std::vector<Job> wholeJobs(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
        wholeJobs[i].input = i;
    std::vector<partition::PartitionResult> whole = searchAll(wholeJobs);
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }

    // Operators too large for the SRAM are split over one output dim until they fit (their smallest
    // variant); the rest that fit no plan are named.
    std::vector<InputSplit> baseSplit(inputs.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (whole[i].ok() || whole[i].smallestBytesPerCore <= 0)
            continue;
        partition::PartitionResult partResult;
        if (auto split = splitToFit(inputs[i], whole[i], settings, *costModel.model, transfer, shared, partResult)) {
            baseSplit[i] = split->split;
            whole[i] = std::move(partResult);
        }
    }
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (whole[i].ok())
            continue;
        const auto step
            = std::size_t(std::find(compiled->steps.inputOfStep.begin(), compiled->steps.inputOfStep.end(), i)
                - compiled->steps.inputOfStep.begin());
        const model::Op& op = compiled->model.graph.op(compiled->analysis.order[step]);
        result.errors.push_back("op '" + op.name + "' (" + model::toString(inputs[i].expr.kind) + ", step "
            + std::to_string(step) + "): " + whole[i].error
            + (whole[i].smallestBytesPerCore > 0
                    ? "; splitting it over one output dimension into up to 64 parts does not fit either"
                    : ""));
    }
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }
    if (!result.errors.empty()) {
        result.status = RunStatus::Failed;
        return result;
    }

    const std::vector<Job> pipelineJobs = pipelineJobsFor(inputs, whole, baseSplit, settings.sramBytesPerCore);
    std::vector<partition::PartitionResult> pipelined = searchAll(pipelineJobs);
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }
    std::size_t job = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        addVariant(i, baseSplit[i], std::move(*whole[i].plans));
        for (; job < pipelineJobs.size() && pipelineJobs[job].input == i; ++job) {
            if (pipelined[job].ok())
                addVariant(i, pipelineJobs[job].split, std::move(*pipelined[job].plans));
        }
    }
    result.timings.partitionSeconds = secondsSince(start);
    result.compiled = std::move(compiled);
    return result;
}

} // namespace elk::run
