// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/sim/sim_steps.h"
#include "engine/sim/topology.h"
#include "engine/sim/traffic.h"

#include <cstdint>
#include <vector>

namespace elk::sim::detail {

/// Collects what the event loop reports and turns it into SimResult's metrics.
class MetricsRecorder {
public:
    MetricsRecorder(const Topology& topology, const TrafficBuilder& traffic, const schedule::ScheduleProblem& problem,
        const std::vector<StepPlan>& plans, SimResult& result);

    void preloadStarted(int step, double nowCycles);
    void executeStarted(int step, double nowCycles);
    void executeEnded(int step, double nowCycles);
    /// [nowCycles, nowCycles + dtCycles) with the given phases active; `transferring` holds `count` slots whose
    /// `vector` and `rate` members are read.
    template <typename Slot>
    void segment(
        double nowCycles, double dtCycles, bool preloadActive, bool executeActive, Slot* const* transferring, int count)
    {
        if (!(dtCycles > 0))
            return;
        double hbm = 0, noc = 0;
        for (int k = 0; k < count; ++k) {
            const PhaseVector& v = m_traffic.vector(transferring[k]->vector);
            hbm += transferring[k]->rate * v.hbmBytes;
            noc += transferring[k]->rate * (v.nocBytes + v.interChipBytes);
            m_segments.push_back(
                { transferring[k]->vector, nowCycles, nowCycles + dtCycles, transferring[k]->rate * dtCycles });
        }
        span(nowCycles, dtCycles, preloadActive, executeActive, hbm, noc);
    }
    void delivered(int vector, double fraction);
    void finish(double latencyCycles, const SimOptions& options);

private:
    void span(double nowCycles, double dtCycles, bool preloadActive, bool executeActive, double hbm, double noc);
    void sampleSram(double nowCycles);
    void linkBins(const SimOptions& options);

    const Topology& m_topology;
    const TrafficBuilder& m_traffic;
    const schedule::ScheduleProblem& m_problem;
    const std::vector<StepPlan>& m_plans;
    SimResult& m_result;
    std::vector<double> m_delivered; ///< by vector: fractions delivered
    std::vector<Segment> m_segments;
    std::vector<char> m_preloaded; ///< by step: preload started, its bytes resident
    std::int64_t m_resident = 0; ///< preloaded bytes per core not yet executing
    int m_executing = -1;
    int m_nextStep = 0;
};

} // namespace elk::sim::detail
