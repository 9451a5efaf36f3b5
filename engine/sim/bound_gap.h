// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/sim/sim_steps.h"
#include "engine/sim/topology.h"
#include "engine/sim/traffic.h"

#include <vector>

namespace elk::sim::detail {

/// What one pipe (preload or execute) is doing during a segment of constant rates.
struct PipeState {
    bool active = false;
    bool transferring = false; ///< in its transfer part (else its fixed part: latency, syncs, compute)
    int step = -1;
    int stage = 0; ///< execute: Stage
    int vector = -1;
    double rate = 0, soloRate = 0; ///< fraction of the vector per cycle
    double fixedSpeed = 1; ///< share of full speed its fixed part runs at
    bool contended() const { return transferring && rate < soloRate * (1 - 1e-9); }
};

/// The bound-gap waterfall, measured while the event loop runs. The floor resource R is chosen before
/// the loop from totals the run is sure to move (every phase's vector once, every op's peak compute
/// cycles): HBM, compute or the hottest link. Then L − F = Σ over segments of dtCycles × (1 − u_R), u_R
/// being R's utilisation in the segment (≤ 1: the fair sharing never exceeds a capacity), so each
/// segment's loss dtCycles × (1 − u_R) is ≥ 0 and goes to the one cause its pipes' state names.
/// Separate planes (ideal design): preload and execute traffic are counted on separate link copies.
class BoundGapRecorder {
public:
    BoundGapRecorder(const Topology& topology, const TrafficBuilder& traffic, const schedule::ScheduleProblem& problem,
        const std::vector<StepPlan>& plans, bool separatePlanes);

    /// [nowCycles, nowCycles + dtCycles). `preloadsLeft`: a preload call has not started (so, with the preload pipe
    /// idle, it is held back until earlier executions end); `awaitedHeld`: the preload the idle
    /// execute pipe waits for started held back like that.
    void segment(double nowCycles, double dtCycles, const PipeState& pre, const PipeState& exe, bool preloadsLeft,
        bool awaitedHeld);
    BoundGap finish() const { return m_gap; }

private:
    double floorUse(const PipeState& pipe, bool preloadPipe, double dtCycles) const;
    GapCause cause(const PipeState& pre, const PipeState& exe, bool preloadsLeft, bool awaitedHeld) const;

    const TrafficBuilder& m_traffic;
    const std::vector<StepPlan>& m_plans;
    std::vector<double> m_computeWork; ///< by step: peak compute cycles ÷ compute fixed cycles (≤ 1)
    BoundGap m_gap;
    int m_link = -1; ///< Link floor: the link
    bool m_linkPreloadPlane = false; ///< separate planes: the floor link's preload copy binds
    bool m_separatePlanes = false;
    bool m_preloadFirst = true; ///< R is fed by preloads (HBM, or a link carrying mostly preload bytes)
    double m_capacity = 0; ///< bytes per cycle of R (HBM: all stacks)
    mutable std::vector<double> m_bytesOnLink; ///< by vector: bytes on m_link (-1: not looked up)
};

} // namespace elk::sim::detail
