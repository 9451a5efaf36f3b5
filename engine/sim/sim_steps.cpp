// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/sim_steps.h"

#include "engine/sim/plan_traffic.h"

#include <algorithm>
#include <map>

namespace elk::sim::detail {

namespace {

    struct CommContext {
        TrafficBuilder* traffic = nullptr;
        double syncCycles = 0;
        double hopLatencyCycles = 0;
        bool mesh = false;
    };

    /// A comm phase: its syncs, then its bytes per core around rings of `ringSize` cores at link speed.
    StageSpec commStage(const CommContext& c, const PhaseTraffic& phase, double extraFixedCycles = 0)
    {
        StageSpec stage;
        stage.fixedCycles = phase.syncs * c.syncCycles + extraFixedCycles;
        const int vector = c.traffic->ring(phase.ringSize, phase.bytesPerCore);
        if (vector < 0)
            return stage;
        const PhaseVector& v = c.traffic->vector(vector);
        stage.vector = vector;
        stage.soloRate = 1.0 / v.minCycles;
        if (c.mesh)
            stage.fixedCycles += v.maxHops * c.hopLatencyCycles;
        return stage;
    }

} // namespace

std::vector<StepPlan> planSteps(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
    const schedule::Program& program, TrafficBuilder& traffic)
{
    CommContext c;
    c.traffic = &traffic;
    c.syncCycles = static_cast<double>(chip.interconnect.syncCostCycles);
    c.hopLatencyCycles = static_cast<double>(chip.interconnect.hopLatencyCycles);
    c.mesh = chip.interconnect.topology == chip::Topology::Mesh2d;

    std::vector<StepPlan> steps(problem.steps.size());
    std::vector<const schedule::PreloadCall*> preloads(problem.steps.size(), nullptr);
    for (const schedule::ProgramCall& call : program.calls)
        if (call.kind == schedule::CallKind::PreloadAsync)
            preloads[static_cast<std::size_t>(call.step)] = &call.preload;
    // Layers repeat: one geometry per (plan set, plan), one distribution per (plan set, cold, hot).
    std::map<std::pair<std::uint32_t, std::uint32_t>, PlanTraffic> geometry;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, PhaseTraffic> distribution;

    for (const schedule::ProgramCall& call : program.calls) {
        StepPlan& step = steps[static_cast<std::size_t>(call.step)];
        const std::uint32_t planSet = problem.steps[static_cast<std::size_t>(call.step)].planSet;
        const partition::OpPlans& plans = *problem.planSets[planSet];
        if (call.kind == schedule::CallKind::PreloadAsync) {
            const schedule::PreloadCall& p = call.preload;
            step.hbmBytes = p.hbmBytes;
            step.preloadBytes = p.bytesPerCore;
            if (p.hbmBytes <= 0)
                continue;
            const int vector = traffic.preload(p.hbmBytes, p.bytesPerCore);
            step.preload.vector = vector;
            step.preload.soloRate = 1.0 / traffic.vector(vector).minCycles;
            continue;
        }
        const schedule::ExecuteCall& e = call.execute;
        const partition::PartitionInput& input = *problem.planInputs[planSet];
        step.executeBytes = e.executeBytesPerCore;
        const partition::Plan& hot = plans.plans[e.executePlan];
        auto found = geometry.find({ planSet, e.executePlan });
        if (found == geometry.end())
            found = geometry.emplace(std::pair { planSet, e.executePlan }, planTraffic(input, hot)).first;
        const PlanTraffic& t = found->second;
        if (const schedule::PreloadCall* p = preloads[static_cast<std::size_t>(call.step)]) {
            const auto key = std::make_tuple(planSet, p->preloadPlan, e.executePlan);
            auto d = distribution.find(key);
            if (d == distribution.end())
                d = distribution.emplace(key, distributeTraffic(input, plans.plans[p->preloadPlan], hot)).first;
            step.stages[Warmup] = commStage(c, d->second);
        }
        step.stages[Compute].fixedCycles = e.computeCycles;
        step.stages[Shift] = commStage(c, t.shift);
        step.stages[Reduce] = commStage(c, t.reduce, plans.costs[e.executePlan].partialSumCycles);
    }
    return steps;
}

} // namespace elk::sim::detail
