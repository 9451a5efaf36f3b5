// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/simulator.h"

#include "engine/sim/bound_gap.h"
#include "engine/sim/fair_share.h"
#include "engine/sim/sim_metrics.h"
#include "engine/sim/sim_steps.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace elk::sim {

namespace {

    using detail::StageSpec;

    /// Simulated time: an integer count of ticks, 1/65536 of a cycle. The clock is a sum of integers,
    /// so it never drifts over millions of events, compares exactly, and reads out exactly in cycles
    /// (a tick count over 2^16 is a double). Work left (cycles at full speed, fractions of a transfer)
    /// stays a real number; only time is quantised, each event rounded to the nearest tick.
    using Ticks = std::int64_t;
    constexpr double kTicksPerCycle = 65536.0;
    /// Beyond this a tick count would lose integer precision as a double (2^53).
    constexpr double kMaxTicks = 9007199254740992.0;
    double cyclesOf(Ticks ticks)
    {
        return static_cast<double>(ticks) / kTicksPerCycle;
    }

    /// A phase in progress: its fixed part first, then its transfer.
    struct Slot {
        bool active = false;
        int step = -1;
        int stage = 0; ///< execute: detail::Stage
        double fixedCyclesLeft = 0; ///< in cycles at full speed
        double fixedSpeed = 1; ///< share of full speed the fixed part runs at (SRAM port contention)
        double fractionLeft = 0;
        int vector = -1;
        double soloRate = 0; ///< fraction of the transfer per cycle, alone on the links
        double rate = 0; ///< fraction per cycle under the current sharing
        Ticks startTicks = 0;
        bool transferring() const { return active && fixedCyclesLeft <= 0 && vector >= 0 && fractionLeft > 0; }
        detail::PipeState state() const
        {
            return { active, transferring(), step, stage, vector, rate, soloRate, fixedSpeed };
        }
        double timeLeftCycles() const
        {
            return fixedCyclesLeft > 0 ? fixedCyclesLeft / fixedSpeed
                                       : (vector >= 0 && fractionLeft > 0 ? fractionLeft / rate : 0.0);
        }
        void load(const StageSpec& spec, double extraFixed)
        {
            fixedCyclesLeft = spec.fixedCycles + extraFixed;
            fixedSpeed = 1;
            vector = spec.vector;
            soloRate = spec.soloRate;
            fractionLeft = spec.vector >= 0 ? 1.0 : 0.0;
            rate = soloRate;
        }
    };

    /// A compute phase never slows below this share of its solo speed (the port always serves it some).
    constexpr double kMinComputeSpeed = 0.05;

    std::string checkInputs(
        const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem, const schedule::Program& program)
    {
        const int n = static_cast<int>(problem.steps.size());
        std::vector<int> executes(static_cast<std::size_t>(n), 0), preloads(static_cast<std::size_t>(n), 0);
        for (std::size_t k = 0; k < program.calls.size(); ++k) {
            const schedule::ProgramCall& call = program.calls[k];
            if (call.step < 0 || call.step >= n)
                return "program call " + std::to_string(k) + " names step " + std::to_string(call.step)
                    + "; the problem has " + std::to_string(n) + " steps";
            auto& count = call.kind == schedule::CallKind::Execute ? executes : preloads;
            if (++count[static_cast<std::size_t>(call.step)] > 1)
                return "program call " + std::to_string(k) + " repeats a call of step " + std::to_string(call.step);
            if (call.kind == schedule::CallKind::Execute && call.step > 0
                && !executes[static_cast<std::size_t>(call.step - 1)])
                return "program call " + std::to_string(k) + " executes step " + std::to_string(call.step)
                    + " before step " + std::to_string(call.step - 1);
        }
        for (int i = 0; i < n; ++i)
            if (!executes[static_cast<std::size_t>(i)])
                return "the program never executes step " + std::to_string(i);
        for (const schedule::Step& step : problem.steps) {
            if (step.planSet >= problem.planSets.size() || step.planSet >= problem.planInputs.size()
                || !problem.planSets[step.planSet] || !problem.planInputs[step.planSet])
                return "step '" + step.name + "' has no plan set or expression (the problem's planInputs)";
        }
        for (const schedule::ProgramCall& call : program.calls) {
            const partition::OpPlans& plans = *problem.planSets[problem.steps[std::size_t(call.step)].planSet];
            const bool preload = call.kind == schedule::CallKind::PreloadAsync;
            const std::uint32_t plan = preload ? call.preload.preloadPlan : call.execute.executePlan;
            if (plan >= plans.plans.size())
                return "program call of step " + std::to_string(call.step) + " names plan " + std::to_string(plan)
                    + "; its plan set has " + std::to_string(plans.plans.size());
        }
        if (static_cast<std::int64_t>(chip.totalCores()) != problem.cores)
            return "the chip has " + std::to_string(chip.totalCores()) + " cores; the problem was built for "
                + std::to_string(problem.cores);
        return {};
    }

} // namespace

SimRunResult simulate(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
    const schedule::Program& program, const SimOptions& options, RunControl& control)
{
    SimRunResult out;
    if (std::string error = checkInputs(chip, problem, program); !error.empty()) {
        out.error = error;
        return out;
    }
    const Topology topology(chip);
    TrafficBuilder traffic(topology);
    FairShare sharing(topology, traffic);
    const std::vector<detail::StepPlan> plans = detail::planSteps(chip, problem, program, traffic);
    if (control.stopRequested()) {
        out.error = "stopped";
        return out;
    }
    const std::size_t n = problem.steps.size();
    const bool share = options.contention && program.design != schedule::Design::Ideal;
    // Preloads an HBM pipe that was idle pays the HBM latency (plus the routers on a mesh).
    const double hbmLatencyCycles = static_cast<double>(chip.hbm.latencyNs) * 1e-9 * chip.clockHz;
    // SRAM port contention (off with contention, for the ideal design's separate preload path, and for
    // chips that do not model the port): a core's SRAM port serves P bytes per cycle to its own compute
    // and to remote writes together. While a preload delivers r bytes per cycle into every core's SRAM
    // (all-to-all: its per-core ingress rate; mesh: the average per core, bytesPerCore × rate), an
    // execution's compute runs at max(kMinComputeSpeed, 1 − r ÷ P) of its solo speed. Its remaining work
    // is counted in cycles at solo speed and the speed is recomputed at every event, like link shares;
    // the stretch shows up in executeStallCycles. Warm-up, shift and reduce belong to the op itself.
    const double sramPortBytesPerCycle = share ? chip.sramBandwidthBytesPerCyclePerCore : 0.0;

    // Calls in program order: preloads wait for every execute before them.
    std::vector<int> preloadSteps, executesBefore, executeSteps;
    std::vector<char> hasPreload(n, 0);
    for (const schedule::ProgramCall& call : program.calls) {
        if (call.kind == schedule::CallKind::PreloadAsync) {
            preloadSteps.push_back(call.step);
            executesBefore.push_back(static_cast<int>(executeSteps.size()));
            hasPreload[static_cast<std::size_t>(call.step)] = 1;
        } else {
            executeSteps.push_back(call.step);
        }
    }

    SimResult result;
    result.clockHz = chip.clockHz;
    result.steps.resize(n);
    result.preloadOrder = preloadSteps;
    detail::MetricsRecorder recorder(topology, traffic, problem, plans, result);
    detail::BoundGapRecorder gap(topology, traffic, problem, plans, program.design == schedule::Design::Ideal);
    std::vector<char> preloadDone(n, 0), preloadStarted(n, 0);
    std::vector<char> preloadHeld(n, 0); ///< started after the preload pipe idled: held until executions ended
    for (std::size_t i = 0; i < n; ++i)
        preloadDone[i] = hasPreload[i] ? 0 : 1;

    Slot pre, exe;
    Ticks now = 0;
    Ticks lastPreloadEnd = -1; ///< before the first preload: the pipe is idle at 0
    double lastExecuteEndCycles = 0;
    std::size_t nextPreload = 0, nextExecute = 0;
    int executesDone = 0;
    std::vector<FlowDemand> flows;

    const auto startStage = [&](Slot& slot) {
        // Skip empty stages; a finished execution frees the slot.
        while (
            slot.stage < detail::StageCount && plans[static_cast<std::size_t>(slot.step)].stages[slot.stage].empty()) {
            auto& trace = result.steps[static_cast<std::size_t>(slot.step)];
            schedule::Interval* intervals[] = { &trace.warmup, &trace.compute, &trace.shift, &trace.reduce };
            *intervals[slot.stage] = { cyclesOf(now), cyclesOf(now) };
            ++slot.stage;
        }
        if (slot.stage == detail::StageCount)
            return false;
        slot.load(plans[static_cast<std::size_t>(slot.step)].stages[slot.stage], 0.0);
        slot.startTicks = now;
        return true;
    };
    const auto finishExecute = [&]() {
        StepTrace& trace = result.steps[static_cast<std::size_t>(exe.step)];
        trace.execute.endCycles = cyclesOf(now);
        double solo = 0;
        for (const StageSpec& spec : plans[static_cast<std::size_t>(exe.step)].stages)
            solo += spec.soloCycles();
        trace.executeStallCycles = std::max(0.0, trace.execute.length() - solo);
        exe.active = false;
        lastExecuteEndCycles = cyclesOf(now);
        ++executesDone;
        recorder.executeEnded(exe.step, cyclesOf(now));
    };

    std::int64_t iterations = 0;
    for (;;) {
        if ((++iterations & 63) == 0 && control.stopRequested()) {
            out.error = "stopped";
            return out;
        }
        // Start what may start now (zero-length calls complete on the spot).
        for (bool progress = true; progress;) {
            progress = false;
            if (!pre.active && nextPreload < preloadSteps.size() && executesDone >= executesBefore[nextPreload]) {
                const int step = preloadSteps[nextPreload++];
                const detail::StepPlan& plan = plans[static_cast<std::size_t>(step)];
                StepTrace& trace = result.steps[static_cast<std::size_t>(step)];
                trace.preload.startCycles = cyclesOf(now);
                preloadStarted[static_cast<std::size_t>(step)] = 1;
                recorder.preloadStarted(step, cyclesOf(now));
                progress = true;
                if (plan.preload.vector < 0) {
                    trace.preload.endCycles = cyclesOf(now);
                    preloadDone[static_cast<std::size_t>(step)] = 1;
                    continue;
                }
                pre.active = true;
                pre.step = step;
                const bool idle = now > lastPreloadEnd;
                preloadHeld[static_cast<std::size_t>(step)] = now > std::max<Ticks>(lastPreloadEnd, 0);
                const double latency = idle ? hbmLatencyCycles
                        + (topology.mesh() ? traffic.vector(plan.preload.vector).maxHops
                                    * double(chip.interconnect.hopLatencyCycles)
                                           : 0.0)
                                            : 0.0;
                pre.load(plan.preload, latency);
                pre.startTicks = now;
            }
            if (!exe.active && nextExecute < executeSteps.size()
                && preloadDone[static_cast<std::size_t>(executeSteps[nextExecute])]) {
                exe.active = true;
                exe.step = executeSteps[nextExecute++];
                exe.stage = 0;
                StepTrace& trace = result.steps[static_cast<std::size_t>(exe.step)];
                trace.execute.startCycles = cyclesOf(now);
                if (exe.step > 0)
                    trace.waitedFor = hasPreload[static_cast<std::size_t>(exe.step)]
                            && result.steps[static_cast<std::size_t>(exe.step)].preload.endCycles > lastExecuteEndCycles
                        ? "preload"
                        : "execute";
                recorder.executeStarted(exe.step, cyclesOf(now));
                progress = true;
                if (!startStage(exe))
                    finishExecute();
            }
        }
        if (!pre.active && !exe.active) {
            if (nextExecute < executeSteps.size()) {
                out.error = "the program blocks forever before executing step "
                    + std::to_string(executeSteps[nextExecute]) + " (its preload never runs)";
                return out;
            }
            break;
        }
        // Rates: max-min fair sharing among the transferring phases.
        flows.clear();
        Slot* transferring[2] = { nullptr, nullptr };
        int count = 0;
        for (Slot* slot : { &pre, &exe })
            if (slot->transferring()) {
                transferring[count++] = slot;
                flows.push_back({ slot->vector, slot->soloRate });
            }
        double utilization = 0;
        if (share && count == 2) {
            const FairShareResult& r = sharing.solve(flows, true);
            transferring[0]->rate = r.rates[0];
            transferring[1]->rate = r.rates[1];
            utilization = r.maxUtilization;
        } else if (count > 0 && program.design == schedule::Design::Ideal) {
            // Separate interconnects for preload and execution: each phase loads its own links.
            for (int k = 0; k < count; ++k) {
                const FairShareResult& r = sharing.solve(std::span(&flows[static_cast<std::size_t>(k)], 1), false);
                transferring[k]->rate = r.rates[0];
                utilization = std::max(utilization, r.maxUtilization);
            }
        } else if (count > 0) {
            const FairShareResult& r = sharing.solve(flows, false);
            for (int k = 0; k < count; ++k)
                transferring[k]->rate = r.rates[static_cast<std::size_t>(k)];
            utilization = r.maxUtilization;
        }
        result.maxLinkUtilization = std::max(result.maxLinkUtilization, utilization);
        exe.fixedSpeed = 1;
        if (sramPortBytesPerCycle > 0 && exe.active && exe.stage == detail::Compute && exe.fixedCyclesLeft > 0
            && pre.transferring()) {
            const double remoteBytesPerCycle
                = static_cast<double>(plans[static_cast<std::size_t>(pre.step)].preloadBytes) * pre.rate;
            exe.fixedSpeed = std::max(kMinComputeSpeed, 1.0 - remoteBytesPerCycle / sramPortBytesPerCycle);
        }

        // Advance to the next completion, rounded to the nearest tick (no drift either way): a phase is
        // done when its time left, so rounded, fits in the step (the one that set it always does).
        const auto ticksLeft = [&](const Slot& slot) {
            return static_cast<Ticks>(std::llround(std::max(0.0, slot.timeLeftCycles()) * kTicksPerCycle));
        };
        double dtCyclesExact = std::numeric_limits<double>::infinity();
        for (const Slot* slot : { &pre, &exe })
            if (slot->active)
                dtCyclesExact = std::min(dtCyclesExact, std::max(0.0, slot->timeLeftCycles()));
        if (!(dtCyclesExact * kTicksPerCycle < kMaxTicks - static_cast<double>(now))) {
            out.error = "internal: no phase can progress at cycle " + std::to_string(cyclesOf(now));
            return out;
        }
        const Ticks dt = static_cast<Ticks>(std::llround(dtCyclesExact * kTicksPerCycle));
        const double dtCycles = cyclesOf(dt);
        recorder.segment(cyclesOf(now), dtCycles, pre.active, exe.active, transferring, count);
        const bool awaitedHeld = !exe.active && pre.active && nextExecute < executeSteps.size()
            && pre.step == executeSteps[nextExecute] && preloadHeld[static_cast<std::size_t>(pre.step)];
        gap.segment(cyclesOf(now), dtCycles, pre.state(), exe.state(), nextPreload < preloadSteps.size(), awaitedHeld);
        const Ticks end = now + dt;
        const double endCycles = cyclesOf(end);
        for (Slot* slot : { &pre, &exe }) {
            if (!slot->active)
                continue;
            const bool done = ticksLeft(*slot) <= dt;
            if (slot->fixedCyclesLeft > 0) {
                slot->fixedCyclesLeft = done ? 0.0 : slot->fixedCyclesLeft - dtCycles * slot->fixedSpeed;
                if (done && slot->vector >= 0)
                    continue; // transfer starts now
            } else if (slot->vector >= 0) {
                recorder.delivered(slot->vector, done ? slot->fractionLeft : slot->rate * dtCycles);
                slot->fractionLeft = done ? 0.0 : slot->fractionLeft - slot->rate * dtCycles;
            }
            if (!done)
                continue;
            now = end;
            if (slot == &pre) {
                StepTrace& trace = result.steps[static_cast<std::size_t>(pre.step)];
                trace.preload.endCycles = endCycles;
                trace.preloadStallCycles = std::max(
                    0.0, trace.preload.length() - plans[static_cast<std::size_t>(pre.step)].preload.soloCycles());
                preloadDone[static_cast<std::size_t>(pre.step)] = 1;
                pre.active = false;
                lastPreloadEnd = end;
            } else {
                StepTrace& trace = result.steps[static_cast<std::size_t>(exe.step)];
                schedule::Interval* intervals[] = { &trace.warmup, &trace.compute, &trace.shift, &trace.reduce };
                *intervals[exe.stage] = { cyclesOf(exe.startTicks), endCycles };
                ++exe.stage;
                if (!startStage(exe))
                    finishExecute();
            }
        }
        now = end;
        ++result.events;
    }
    result.latencyCycles = cyclesOf(now);
    recorder.finish(result.latencyCycles, options);
    result.boundGap = gap.finish();
    out.result = std::move(result);
    return out;
}

} // namespace elk::sim
