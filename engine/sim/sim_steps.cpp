// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/sim_steps.h"

#include <algorithm>

namespace elk::sim::detail {

namespace {

    struct CommContext {
        TrafficBuilder* traffic = nullptr;
        double linkBytesPerCycle = 0;
        double syncCycles = 0;
        double hopLatencyCycles = 0;
        bool mesh = false;
    };

    /// A comm phase of `cycles` analytic cycles, `syncs` of which are synchronisations, with
    /// `factor` the multi-chip overhead the partition model applied to the whole phase.
    StageSpec commStage(const CommContext& c, double cycles, double syncs, double factor, int ringSize)
    {
        StageSpec stage;
        if (!(cycles > 0))
            return stage;
        const double fixed = std::min(cycles, syncs * c.syncCycles * factor);
        const double bytesPerCore = (cycles - fixed) / factor * c.linkBytesPerCycle;
        const int vector = c.traffic->ring(ringSize, bytesPerCore);
        stage.fixedCycles = fixed;
        if (vector < 0 || cycles - fixed <= 0) {
            stage.fixedCycles = cycles;
            return stage;
        }
        const PhaseVector& v = c.traffic->vector(vector);
        stage.vector = vector;
        stage.soloRate = std::min(1.0 / (cycles - fixed), 1.0 / v.minCycles);
        if (c.mesh)
            stage.fixedCycles += v.maxHops * c.hopLatencyCycles;
        return stage;
    }

    int largestFactor(const std::vector<std::vector<std::int32_t>>& factors)
    {
        int largest = 1;
        for (const auto& row : factors)
            for (std::int32_t f : row)
                largest = std::max(largest, static_cast<int>(f));
        return largest;
    }

} // namespace

double shiftSyncs(const std::vector<std::vector<std::int32_t>>& rotation)
{
    struct Round {
        double shifts = 0;
        double tensors = 0;
    };
    std::vector<Round> rounds;
    for (const auto& dim : rotation) {
        std::vector<std::int32_t> row = dim;
        for (;;) {
            std::int32_t g = 0;
            for (std::int32_t f : row)
                if (f > 1 && (g == 0 || f < g))
                    g = f;
            if (g == 0)
                break;
            Round round;
            round.shifts = g - 1;
            for (std::int32_t& f : row)
                if (f > 1) {
                    round.tensors += 1;
                    f = f % g == 0 ? f / g : 1;
                }
            auto pos = rounds.end();
            while (pos != rounds.begin() && (pos - 1)->tensors < round.tensors)
                --pos;
            rounds.insert(pos, round);
        }
    }
    double shifts = 0, outer = 1;
    for (const Round& round : rounds) {
        shifts += outer * round.shifts * round.tensors;
        outer *= round.shifts + 1;
    }
    return 2 * shifts;
}

std::vector<StepPlan> planSteps(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
    const schedule::Program& program, TrafficBuilder& traffic)
{
    CommContext c;
    c.traffic = &traffic;
    c.linkBytesPerCycle = chip.linkBytesPerCycle();
    c.syncCycles = static_cast<double>(chip.interconnect.syncCostCycles);
    c.hopLatencyCycles = static_cast<double>(chip.interconnect.hopLatencyCycles);
    c.mesh = chip.interconnect.topology == chip::Topology::Mesh2d;
    const double multiChip = chip.chips > 1 ? chip.interChip.overheadFactor : 1.0;

    std::vector<StepPlan> steps(problem.steps.size());
    std::vector<const schedule::PreloadCall*> preloads(problem.steps.size(), nullptr);
    for (const schedule::ProgramCall& call : program.calls)
        if (call.kind == schedule::CallKind::PreloadAsync)
            preloads[static_cast<std::size_t>(call.step)] = &call.preload;
    const double kappa = problem.preloadIngressBytesPerCycle * problem.preloadNocThreshold;

    for (const schedule::ProgramCall& call : program.calls) {
        StepPlan& step = steps[static_cast<std::size_t>(call.step)];
        const partition::OpPlans& plans = *problem.planSets[problem.steps[static_cast<std::size_t>(call.step)].planSet];
        if (call.kind == schedule::CallKind::PreloadAsync) {
            const schedule::PreloadCall& p = call.preload;
            step.hbmBytes = p.hbmBytes;
            step.preloadBytes = p.bytesPerCore;
            if (p.hbmBytes <= 0)
                continue;
            // The analytic length L = max(Lh, Ln ÷ θ): the rate alone is 1 ÷ L, capped by the links.
            const double length = std::max(static_cast<double>(p.hbmBytes) / problem.hbmBytesPerCycle,
                static_cast<double>(p.bytesPerCore) / kappa);
            const int vector = traffic.preload(p.hbmBytes, p.bytesPerCore);
            step.preload.vector = vector;
            step.preload.soloRate = std::min(1.0 / length, 1.0 / traffic.vector(vector).minCycles);
            continue;
        }
        const schedule::ExecuteCall& e = call.execute;
        step.executeBytes = e.executeBytesPerCore;
        // distribute_data: layout ratio per operand between the preload plan and the execute plan.
        double warmupSyncs = 0;
        int warmupRing = 1;
        if (const schedule::PreloadCall* p = preloads[static_cast<std::size_t>(call.step)]) {
            const auto& cold = plans.plans[p->preloadPlan].temporal;
            const auto& hot = e.rotation;
            const std::size_t operands = hot.empty() ? 0 : hot.front().size();
            for (std::size_t v = 0; v < operands; ++v) {
                std::int64_t ratio = 1;
                for (std::size_t d = 0; d < hot.size() && d < cold.size(); ++d)
                    ratio *= std::max(1, cold[d][v] / std::max(1, hot[d][v]));
                if (ratio != 1) {
                    warmupSyncs += static_cast<double>(ratio);
                    warmupRing = std::max(warmupRing, static_cast<int>(ratio));
                }
            }
        }
        step.stages[Warmup] = commStage(c, e.distributeCycles, warmupSyncs, 1.0, std::max(2, warmupRing));
        step.stages[Compute].fixedCycles = e.computeCycles;
        step.stages[Shift] = commStage(c, e.shiftCycles, shiftSyncs(e.rotation), multiChip, largestFactor(e.rotation));
        step.stages[Reduce] = commStage(c, e.reduceCycles, 6.0, multiChip, 2);
    }
    return steps;
}

} // namespace elk::sim::detail
