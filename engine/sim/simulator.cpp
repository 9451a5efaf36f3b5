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

namespace {

    /// The event loop of one simulation: two pipes (preload, execute) that start calls in program order
    /// and advance to the next completion. `run()` returns the result or what stopped it.
    class EventLoop {
    public:
        EventLoop(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
            const schedule::Program& program, const SimOptions& options, const Topology& topology,
            const TrafficBuilder& traffic, FairShare& sharing, const std::vector<detail::StepPlan>& plans)
            : m_chip(chip)
            , m_program(program)
            , m_options(options)
            , m_topology(topology)
            , m_traffic(traffic)
            , m_sharing(sharing)
            , m_plans(plans)
            , m_share(options.contention && program.design != schedule::Design::Ideal)
            // Preloads an HBM pipe that was idle pays the HBM latency (plus the routers on a mesh).
            , m_hbmLatencyCycles(static_cast<double>(chip.hbm.latencyNs) * 1e-9 * chip.clockHz)
            // SRAM port contention (off with contention, for the ideal design's separate preload path, and
            // for chips that do not model the port): a core's SRAM port serves P bytes per cycle to its own
            // compute and to remote writes together. While a preload delivers r bytes per cycle into every
            // core's SRAM (all-to-all: its per-core ingress rate; mesh: the average per core, bytesPerCore ×
            // rate), an execution's compute runs at max(kMinComputeSpeed, 1 − r ÷ P) of its solo speed. Its
            // remaining work is counted in cycles at solo speed and the speed is recomputed at every event,
            // like link shares; the stretch shows up in executeStallCycles. Warm-up, shift and reduce belong
            // to the op itself.
            , m_sramPortBytesPerCycle(m_share ? chip.sramBandwidthBytesPerCyclePerCore : 0.0)
            , m_recorder(topology, traffic, problem, plans, m_result)
            , m_gap(topology, traffic, problem, plans, program.design == schedule::Design::Ideal)
        {
            const std::size_t n = problem.steps.size();
            // Calls in program order: preloads wait for every execute before them.
            m_hasPreload.assign(n, 0);
            for (const schedule::ProgramCall& call : program.calls) {
                if (call.kind == schedule::CallKind::PreloadAsync) {
                    m_preloadSteps.push_back(call.step);
                    m_executesBefore.push_back(static_cast<int>(m_executeSteps.size()));
                    m_hasPreload[static_cast<std::size_t>(call.step)] = 1;
                } else {
                    m_executeSteps.push_back(call.step);
                }
            }
            m_result.clockHz = chip.clockHz;
            m_result.steps.resize(n);
            m_result.preloadOrder = m_preloadSteps;
            m_preloadDone.assign(n, 0);
            m_preloadHeld.assign(n, 0);
            for (std::size_t i = 0; i < n; ++i)
                m_preloadDone[i] = m_hasPreload[i] ? 0 : 1;
        }

        SimRunResult run(RunControl& control)
        {
            SimRunResult out;
            std::int64_t iterations = 0;
            for (;;) {
                if ((++iterations & 63) == 0 && control.stopRequested()) {
                    out.error = "stopped";
                    return out;
                }
                startWhatMay();
                if (!m_pre.active && !m_exe.active) {
                    if (m_nextExecute < m_executeSteps.size()) {
                        out.error = "the program blocks forever before executing step "
                            + std::to_string(m_executeSteps[m_nextExecute]) + " (its preload never runs)";
                        return out;
                    }
                    break;
                }
                shareRates();
                if (std::string error = advance(); !error.empty()) {
                    out.error = std::move(error);
                    return out;
                }
            }
            m_result.latencyCycles = cyclesOf(m_now);
            m_recorder.finish(m_result.latencyCycles, m_options);
            m_result.boundGap = m_gap.finish();
            out.result = std::move(m_result);
            return out;
        }

    private:
        /// Starts what may start now (zero-length calls complete on the spot).
        void startWhatMay()
        {
            for (bool progress = true; progress;) {
                progress = false;
                if (!m_pre.active && m_nextPreload < m_preloadSteps.size()
                    && m_executesDone >= m_executesBefore[m_nextPreload]) {
                    startPreload();
                    progress = true;
                }
                if (!m_exe.active && m_nextExecute < m_executeSteps.size()
                    && m_preloadDone[static_cast<std::size_t>(m_executeSteps[m_nextExecute])]) {
                    startExecute();
                    progress = true;
                }
            }
        }

        void startPreload()
        {
            const int step = m_preloadSteps[m_nextPreload++];
            const detail::StepPlan& plan = m_plans[static_cast<std::size_t>(step)];
            StepTrace& trace = m_result.steps[static_cast<std::size_t>(step)];
            trace.preload.startCycles = cyclesOf(m_now);
            m_recorder.preloadStarted(step, cyclesOf(m_now));
            if (plan.preload.vector < 0) {
                trace.preload.endCycles = cyclesOf(m_now);
                m_preloadDone[static_cast<std::size_t>(step)] = 1;
                return;
            }
            m_pre.active = true;
            m_pre.step = step;
            const bool idle = m_now > m_lastPreloadEnd;
            m_preloadHeld[static_cast<std::size_t>(step)] = m_now > std::max<Ticks>(m_lastPreloadEnd, 0);
            const double latency = idle ? m_hbmLatencyCycles
                    + (m_topology.mesh() ? m_traffic.vector(plan.preload.vector).maxHops
                                * double(m_chip.interconnect.hopLatencyCycles)
                                         : 0.0)
                                        : 0.0;
            m_pre.load(plan.preload, latency);
            m_pre.startTicks = m_now;
        }

        void startExecute()
        {
            m_exe.active = true;
            m_exe.step = m_executeSteps[m_nextExecute++];
            m_exe.stage = 0;
            StepTrace& trace = m_result.steps[static_cast<std::size_t>(m_exe.step)];
            trace.execute.startCycles = cyclesOf(m_now);
            if (m_exe.step > 0)
                trace.waitedFor = m_hasPreload[static_cast<std::size_t>(m_exe.step)]
                        && m_result.steps[static_cast<std::size_t>(m_exe.step)].preload.endCycles
                            > m_lastExecuteEndCycles
                    ? "preload"
                    : "execute";
            m_recorder.executeStarted(m_exe.step, cyclesOf(m_now));
            if (!startStage(m_exe))
                finishExecute();
        }

        /// Skips empty stages; false when the execution has no stage left (it then frees the slot).
        bool startStage(Slot& slot)
        {
            while (slot.stage < detail::StageCount
                && m_plans[static_cast<std::size_t>(slot.step)].stages[slot.stage].empty()) {
                auto& trace = m_result.steps[static_cast<std::size_t>(slot.step)];
                schedule::Interval* intervals[] = { &trace.warmup, &trace.compute, &trace.shift, &trace.reduce };
                *intervals[slot.stage] = { cyclesOf(m_now), cyclesOf(m_now) };
                ++slot.stage;
            }
            if (slot.stage == detail::StageCount)
                return false;
            slot.load(m_plans[static_cast<std::size_t>(slot.step)].stages[slot.stage], 0.0);
            slot.startTicks = m_now;
            return true;
        }

        void finishExecute()
        {
            StepTrace& trace = m_result.steps[static_cast<std::size_t>(m_exe.step)];
            trace.execute.endCycles = cyclesOf(m_now);
            double solo = 0;
            for (const StageSpec& spec : m_plans[static_cast<std::size_t>(m_exe.step)].stages)
                solo += spec.soloCycles();
            trace.executeStallCycles = std::max(0.0, trace.execute.length() - solo);
            m_exe.active = false;
            m_lastExecuteEndCycles = cyclesOf(m_now);
            ++m_executesDone;
            m_recorder.executeEnded(m_exe.step, cyclesOf(m_now));
        }

        /// Rates: max-min fair sharing among the transferring phases; then the SRAM port's share.
        void shareRates()
        {
            m_flows.clear();
            m_transferring[0] = m_transferring[1] = nullptr;
            m_count = 0;
            for (Slot* slot : { &m_pre, &m_exe })
                if (slot->transferring()) {
                    m_transferring[m_count++] = slot;
                    m_flows.push_back({ slot->vector, slot->soloRate });
                }
            double utilization = 0;
            if (m_share && m_count == 2) {
                const FairShareResult& r = m_sharing.solve(m_flows, true);
                m_transferring[0]->rate = r.rates[0];
                m_transferring[1]->rate = r.rates[1];
                utilization = r.maxUtilization;
            } else if (m_count > 0 && m_program.design == schedule::Design::Ideal) {
                // Separate interconnects for preload and execution: each phase loads its own links.
                for (int k = 0; k < m_count; ++k) {
                    const FairShareResult& r
                        = m_sharing.solve(std::span(&m_flows[static_cast<std::size_t>(k)], 1), false);
                    m_transferring[k]->rate = r.rates[0];
                    utilization = std::max(utilization, r.maxUtilization);
                }
            } else if (m_count > 0) {
                const FairShareResult& r = m_sharing.solve(m_flows, false);
                for (int k = 0; k < m_count; ++k)
                    m_transferring[k]->rate = r.rates[static_cast<std::size_t>(k)];
                utilization = r.maxUtilization;
            }
            m_result.maxLinkUtilization = std::max(m_result.maxLinkUtilization, utilization);
            m_exe.fixedSpeed = 1;
            if (m_sramPortBytesPerCycle > 0 && m_exe.active && m_exe.stage == detail::Compute
                && m_exe.fixedCyclesLeft > 0 && m_pre.transferring()) {
                const double remoteBytesPerCycle
                    = static_cast<double>(m_plans[static_cast<std::size_t>(m_pre.step)].preloadBytes) * m_pre.rate;
                m_exe.fixedSpeed = std::max(kMinComputeSpeed, 1.0 - remoteBytesPerCycle / m_sramPortBytesPerCycle);
            }
        }

        /// Advances to the next completion, rounded to the nearest tick (no drift either way): a phase is
        /// done when its time left, so rounded, fits in the step (the one that set it always does).
        std::string advance()
        {
            const auto ticksLeft = [](const Slot& slot) {
                return static_cast<Ticks>(std::llround(std::max(0.0, slot.timeLeftCycles()) * kTicksPerCycle));
            };
            double dtCyclesExact = std::numeric_limits<double>::infinity();
            for (const Slot* slot : { &m_pre, &m_exe })
                if (slot->active)
                    dtCyclesExact = std::min(dtCyclesExact, std::max(0.0, slot->timeLeftCycles()));
            if (!(dtCyclesExact * kTicksPerCycle < kMaxTicks - static_cast<double>(m_now)))
                return "internal: no phase can progress at cycle " + std::to_string(cyclesOf(m_now));
            const Ticks dt = static_cast<Ticks>(std::llround(dtCyclesExact * kTicksPerCycle));
            const double dtCycles = cyclesOf(dt);
            m_recorder.segment(cyclesOf(m_now), dtCycles, m_pre.active, m_exe.active, m_transferring, m_count);
            const bool awaitedHeld = !m_exe.active && m_pre.active && m_nextExecute < m_executeSteps.size()
                && m_pre.step == m_executeSteps[m_nextExecute] && m_preloadHeld[static_cast<std::size_t>(m_pre.step)];
            m_gap.segment(cyclesOf(m_now), dtCycles, m_pre.state(), m_exe.state(),
                m_nextPreload < m_preloadSteps.size(), awaitedHeld);
            const Ticks end = m_now + dt;
            const double endCycles = cyclesOf(end);
            for (Slot* slot : { &m_pre, &m_exe }) {
                if (!slot->active)
                    continue;
                const bool done = ticksLeft(*slot) <= dt;
                if (slot->fixedCyclesLeft > 0) {
                    slot->fixedCyclesLeft = done ? 0.0 : slot->fixedCyclesLeft - dtCycles * slot->fixedSpeed;
                    if (done && slot->vector >= 0)
                        continue; // transfer starts now
                } else if (slot->vector >= 0) {
                    m_recorder.delivered(slot->vector, done ? slot->fractionLeft : slot->rate * dtCycles);
                    slot->fractionLeft = done ? 0.0 : slot->fractionLeft - slot->rate * dtCycles;
                }
                if (!done)
                    continue;
                m_now = end;
                if (slot == &m_pre) {
                    StepTrace& trace = m_result.steps[static_cast<std::size_t>(m_pre.step)];
                    trace.preload.endCycles = endCycles;
                    trace.preloadStallCycles = std::max(0.0,
                        trace.preload.length() - m_plans[static_cast<std::size_t>(m_pre.step)].preload.soloCycles());
                    m_preloadDone[static_cast<std::size_t>(m_pre.step)] = 1;
                    m_pre.active = false;
                    m_lastPreloadEnd = end;
                } else {
                    StepTrace& trace = m_result.steps[static_cast<std::size_t>(m_exe.step)];
                    schedule::Interval* intervals[] = { &trace.warmup, &trace.compute, &trace.shift, &trace.reduce };
                    *intervals[m_exe.stage] = { cyclesOf(m_exe.startTicks), endCycles };
                    ++m_exe.stage;
                    if (!startStage(m_exe))
                        finishExecute();
                }
            }
            m_now = end;
            ++m_result.events;
            return {};
        }

        const chip::ChipSpec& m_chip;
        const schedule::Program& m_program;
        const SimOptions& m_options;
        const Topology& m_topology;
        const TrafficBuilder& m_traffic;
        FairShare& m_sharing;
        const std::vector<detail::StepPlan>& m_plans;
        const bool m_share;
        const double m_hbmLatencyCycles;
        const double m_sramPortBytesPerCycle;

        SimResult m_result;
        detail::MetricsRecorder m_recorder;
        detail::BoundGapRecorder m_gap;
        std::vector<int> m_preloadSteps, m_executesBefore, m_executeSteps;
        std::vector<char> m_hasPreload, m_preloadDone;
        std::vector<char> m_preloadHeld; ///< started after the preload pipe idled: held until executions ended

        Slot m_pre, m_exe;
        Ticks m_now = 0;
        Ticks m_lastPreloadEnd = -1; ///< before the first preload: the pipe is idle at 0
        double m_lastExecuteEndCycles = 0;
        std::size_t m_nextPreload = 0, m_nextExecute = 0;
        int m_executesDone = 0;
        std::vector<FlowDemand> m_flows;
        Slot* m_transferring[2] = { nullptr, nullptr };
        int m_count = 0;
    };

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
    return EventLoop(chip, problem, program, options, topology, traffic, sharing, plans).run(control);
}

} // namespace elk::sim
