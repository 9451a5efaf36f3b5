// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Pipelined splits: which variant of each operator a schedule problem runs, chosen per design.
#include "engine/run/split_choice_detail.h"

#include "engine/core/parallel_for.h"
#include "engine/sim/topology.h"
#include "engine/sim/traffic.h"

#include <algorithm>
#include <limits>

namespace elk::run {

namespace detail {

    /// Bytes per cycle, whole part, at which a 2D mesh delivers preload data to its cores, as the
    /// simulator routes it (XY from each stack's injection router): a preload of P bytes per core keeps
    /// the busiest mesh link busy for P × its load; cores × P over that time. 0 on all-to-all.
    double meshInjectionBytesPerCycle(const chip::ChipSpec& chip)
    {
        if (chip.interconnect.topology != chip::Topology::Mesh2d)
            return 0;
        const sim::Topology topology(chip);
        sim::TrafficBuilder traffic(topology);
        const sim::PhaseVector& onePerCore = traffic.vector(traffic.preload(0, 1));
        return onePerCore.minCycles > 0 ? double(chip.totalCores()) / onePerCore.minCycles : 0.0;
    }

    /// The problem with every distinct operator i run as compiled.variants[i][variantOfInput[i]].
    schedule::ScheduleProblem buildProblem(const CompiledModel& compiled, const RunSpec& spec,
        const std::vector<std::uint32_t>& variantOfInput, double injectionBytesPerCycle)
    {
        schedule::ScheduleProblem problem;
        for (const partition::OpPlans& plans : compiled.plans)
            problem.planSets.push_back(&plans);
        for (const partition::PartitionInput& input : compiled.planInputs)
            problem.planInputs.push_back(&input);
        const model::Graph& graph = compiled.model.graph;
        const std::vector<model::OpId>& order = compiled.analysis.order;
        const StepInputs& inputs = compiled.steps;
        const std::int64_t cores = std::max<std::int64_t>(1, spec.chip.totalCores());
        std::vector<int> graphStepOf;
        problem.steps.reserve(inputs.inputOfStep.size());
        for (std::size_t s = 0; s < inputs.inputOfStep.size(); ++s) {
            const model::OpId op = order[s];
            const std::uint32_t input = inputs.inputOfStep[s];
            const SplitVariant& variant = compiled.variants[input][variantOfInput[input]];
            const int parts = variant.split.parts;
            // Earlier parts' outputs stay on chip (spread over the cores) until the consumers run.
            std::int64_t partOutputBytesPerCore = 0;
            if (parts > 1) {
                const model::TensorExpr& part = compiled.planInputs[variant.planSet].expr;
                const std::int64_t bytes
                    = model::operandElements(part, 0) * model::bytesPerElement(part.operands[0].dtype);
                partOutputBytesPerCore = (bytes + cores - 1) / cores;
            }
            for (int k = 0; k < parts; ++k) {
                schedule::Step step;
                step.name = graph.op(op).name;
                if (parts > 1)
                    step.name += " [part " + std::to_string(k + 1) + "/" + std::to_string(parts) + "]";
                step.planSet = variant.planSet;
                step.flops = model::flopCount(graph.exprOf(op)) / parts;
                if (const double peak = compiled.peakFlopPerCyclePerCore[variant.planSet]; peak > 0)
                    step.peakComputeCycles = double(step.flops) / (double(cores) * peak);
                step.reservedBytesPerCore = inputs.reservedBytesPerCore[s] + k * partOutputBytesPerCore;
                step.graphStep = int(s);
                step.part = k;
                step.parts = parts;
                problem.steps.push_back(std::move(step));
                graphStepOf.push_back(int(s));
            }
        }
        // Layers over schedule steps: a split operator adds its parts to the block it belongs to.
        const model::LayerStructure& graphLayers = compiled.analysis.layers;
        problem.layers = graphLayers;
        if (graphStepOf.size() != order.size()) {
            const auto stepsBefore = [&](int graphStep) {
                return int(std::lower_bound(graphStepOf.begin(), graphStepOf.end(), graphStep) - graphStepOf.begin());
            };
            problem.layers.prefixOps = stepsBefore(graphLayers.prefixOps);
            problem.layers.firstLayerStart = problem.layers.prefixOps;
            problem.layers.opsPerLayer
                = stepsBefore(graphLayers.prefixOps + graphLayers.opsPerLayer) - problem.layers.prefixOps;
            problem.layers.suffixOps = int(graphStepOf.size()) - problem.layers.prefixOps
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
        problem.preloadInjectionBytesPerCycle = injectionBytesPerCycle;
        return problem;
    }

    namespace {
        double analyticLatency(const schedule::ScheduleProblem& problem, schedule::Design design)
        {
            NullRunControl control;
            const schedule::ScheduleResult scheduled = schedule::scheduleDesign(problem, design, control);
            return scheduled.ok() ? scheduled.schedule->latencyCycles : std::numeric_limits<double>::infinity();
        }
    } // namespace

    RunSplits chooseRunSplits(const CompiledModel& compiled, const RunSpec& spec, int threads, RunControl& control)
    {
        constexpr std::size_t judges = std::size(RunSplits::kJudges);
        RunSplits splits;
        control.progress(0, 1, "pipelined splits");
        std::vector<SplitChoice> greedy(judges);
        parallelFor(
            judges, threads,
            [&](std::size_t j) {
                // Static's judge sweeps execute spaces at every trial: the longest, so it gets the threads.
                const bool sweeps = RunSplits::kJudges[j] == schedule::Design::Static;
                greedy[j] = chooseSplits(compiled, spec, RunSplits::kJudges[j], sweeps ? threads : 1);
            },
            [&] { return control.stopRequested(); });
        const double injection = meshInjectionBytesPerCycle(spec.chip);
        std::vector<std::size_t> candidateOfGreedy(judges);
        const auto addCandidate = [&](const std::vector<std::uint32_t>& variants, std::string whose) {
            for (std::size_t c = 0; c < splits.candidates.size(); ++c) {
                if (splits.candidates[c].variantOfInput == variants)
                    return c;
            }
            splits.candidates.push_back({ variants, std::move(whose),
                std::make_shared<const schedule::ScheduleProblem>(buildProblem(compiled, spec, variants, injection)) });
            return splits.candidates.size() - 1;
        };
        for (std::size_t j = 0; j < judges; ++j)
            candidateOfGreedy[j]
                = addCandidate(greedy[j].variantOfInput, std::string(schedule::toString(RunSplits::kJudges[j])) + "'s");
        const std::vector<std::uint32_t> none = noPipelinedSplits(compiled).variantOfInput;
        splits.noneCandidate = addCandidate(none, "no pipelined splits");
        if (splits.candidates[splits.noneCandidate].whose != "no pipelined splits")
            splits.candidates[splits.noneCandidate].whose += " (no pipelined splits)";

        // Each judge's estimate of every candidate it has not estimated during its own search.
        std::vector<std::vector<double>> estimate(judges, std::vector<double>(splits.candidates.size(), -1));
        std::vector<std::pair<std::size_t, std::size_t>> missing;
        for (std::size_t j = 0; j < judges; ++j) {
            for (std::size_t c = 0; c < splits.candidates.size(); ++c) {
                if (greedy[j].evaluations == 0)
                    estimate[j][c] = 0; // no operator has pipelined variants: one candidate, nothing to estimate
                else if (splits.candidates[c].variantOfInput == greedy[j].variantOfInput)
                    estimate[j][c] = greedy[j].analyticCycles;
                else if (splits.candidates[c].variantOfInput == none)
                    estimate[j][c] = greedy[j].unsplitAnalyticCycles;
                else
                    missing.push_back({ j, c });
            }
        }
        parallelFor(
            missing.size(), threads,
            [&](std::size_t m) {
                const auto [j, c] = missing[m];
                estimate[j][c] = analyticLatency(*splits.candidates[c].problem, RunSplits::kJudges[j]);
            },
            [&] { return control.stopRequested(); });
        for (std::size_t j = 0; j < judges; ++j) {
            std::size_t best = candidateOfGreedy[j]; // its own search's choice wins ties
            for (std::size_t c = 0; c < splits.candidates.size(); ++c) {
                if (estimate[j][c] < estimate[j][best])
                    best = c;
            }
            SplitChoice choice = greedy[j];
            choice.variantOfInput = splits.candidates[best].variantOfInput;
            choice.analyticCycles = greedy[j].evaluations > 0 ? estimate[j][best] : 0;
            choice.evaluations
                += int(std::count_if(missing.begin(), missing.end(), [&](const auto& m) { return m.first == j; }));
            splits.ofJudge.push_back(std::move(choice));
            splits.candidateOfJudge.push_back(best);
        }
        return splits;
    }

} // namespace detail

using detail::buildProblem;
using detail::meshInjectionBytesPerCycle;

SplitChoice noPipelinedSplits(const CompiledModel& compiled)
{
    SplitChoice choice;
    choice.variantOfInput.assign(compiled.variants.size(), 0);
    return choice;
}

SplitChoice chooseSplits(const CompiledModel& compiled, const RunSpec& spec)
{
    return chooseSplits(compiled, spec, schedule::Design::ElkDyn);
}

SplitChoice chooseSplits(const CompiledModel& compiled, const RunSpec& spec, schedule::Design judge, int threads)
{
    SplitChoice choice;
    choice.judge = judge;
    const std::size_t inputs = compiled.variants.size();
    choice.variantOfInput.assign(inputs, 0);
    // Candidates: operators with pipelined variants, the largest HBM load over the model first.
    std::vector<std::int64_t> loadOfInput(inputs, 0);
    for (std::uint32_t input : compiled.steps.inputOfStep)
        loadOfInput[input] += compiled.plans[compiled.variants[input].front().planSet].hbmBytes;
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < inputs; ++i) {
        if (compiled.variants[i].size() > 1)
            candidates.push_back(i);
    }
    if (candidates.empty())
        return choice; // nothing to choose: no estimates (evaluations 0)
    std::stable_sort(candidates.begin(), candidates.end(),
        [&](std::size_t a, std::size_t b) { return loadOfInput[a] > loadOfInput[b]; });
    NullRunControl control;
    const double injection = meshInjectionBytesPerCycle(spec.chip);
    const auto latency = [&](const std::vector<std::uint32_t>& variantOfInput) {
        ++choice.evaluations;
        const schedule::ScheduleProblem problem = buildProblem(compiled, spec, variantOfInput, injection);
        const schedule::ScheduleResult scheduled = schedule::scheduleDesign(problem, judge, control, threads);
        return scheduled.ok() ? scheduled.schedule->latencyCycles : std::numeric_limits<double>::infinity();
    };
    double best = latency(choice.variantOfInput);
    choice.unsplitAnalyticCycles = best;
    for (std::size_t i : candidates) {
        while (choice.variantOfInput[i] + 1 < compiled.variants[i].size()) {
            std::vector<std::uint32_t> trial = choice.variantOfInput;
            ++trial[i];
            const double candidate = latency(trial);
            if (!(candidate < best * (1 - 1e-4)))
                break; // more parts no longer help this operator
            best = candidate;
            choice.variantOfInput = std::move(trial);
        }
    }
    choice.analyticCycles = best;
    return choice;
}

schedule::Design splitJudgeOf(schedule::Design design)
{
    return design == schedule::Design::ElkFull || design == schedule::Design::Ideal ? schedule::Design::ElkDyn : design;
}

int correspondingStep(const schedule::ScheduleProblem& from, int step, const schedule::ScheduleProblem& to)
{
    if (step < 0 || std::size_t(step) >= from.steps.size())
        return -1;
    if (&from == &to)
        return step;
    const schedule::Step& source = from.steps[std::size_t(step)];
    // Steps run the graph in order, an operator's parts consecutively: the first step of the graph step.
    const auto first = std::lower_bound(to.steps.begin(), to.steps.end(), source.graphStep,
        [](const schedule::Step& s, int graphStep) { return s.graphStep < graphStep; });
    if (first == to.steps.end() || first->graphStep != source.graphStep)
        return -1;
    const int parts = std::max(1, first->parts);
    const int part = source.parts > 1 ? source.part * parts / source.parts : 0;
    return int(first - to.steps.begin()) + std::min(part, parts - 1);
}

schedule::ScheduleProblem scheduleProblemFor(const CompiledModel& compiled, const RunSpec& spec)
{
    return scheduleProblemFor(compiled, spec, chooseSplits(compiled, spec));
}

schedule::ScheduleProblem scheduleProblemFor(
    const CompiledModel& compiled, const RunSpec& spec, const SplitChoice& choice)
{
    return buildProblem(compiled, spec, choice.variantOfInput, meshInjectionBytesPerCycle(spec.chip));
}

} // namespace elk::run
