// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"
#include "engine/schedule/program.h"
#include "engine/sim/traffic.h"

#include <cstdint>
#include <vector>

namespace elk::sim::detail {

/// One phase of a step as the event loop runs it: a fixed latency part that shares nothing (syncs,
/// hop latency, compute) and then a transfer of `vector` at up to `soloRate` (fraction per cycle).
struct StageSpec {
    double fixedCycles = 0;
    int vector = -1; ///< -1: no transfer
    double soloRate = 0;
    double soloCycles() const { return fixedCycles + (vector >= 0 ? 1.0 / soloRate : 0.0); }
    bool empty() const { return fixedCycles <= 0 && vector < 0; }
};

enum Stage { Warmup = 0, Compute = 1, Shift = 2, Reduce = 3, StageCount = 4 };

struct StepPlan {
    StageSpec preload; ///< fixedCycles excludes the HBM latency (the loop adds it when HBM was idle)
    StageSpec stages[StageCount];
    std::int64_t hbmBytes = 0;
    std::int64_t preloadBytes = 0; ///< per core
    std::int64_t executeBytes = 0; ///< per core
};

/// Per step (by execution step): the stages of its preload and its execution, built from the
/// program's calls and the plans' geometry (plan_traffic.h) on the chip's links — never from the cost
/// model's communication cycles, nor from the scheduler's preload knobs (θ, κ): a preload moves as fast
/// as the HBM stacks and the links it crosses allow. Each comm phase is a fixed part (its exchange
/// syncs × the chip's sync cost, plus the longest route's hop latency on a mesh) and a transfer of
/// its bytes per core in rings of consecutive cores. Compute comes from the tile cost model (the
/// plan's computeCycles, and the partial-sum adds of a split reduction).
/// Contract: problem.planInputs[p] is set for every plan set p the program uses.
std::vector<StepPlan> planSteps(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
    const schedule::Program& program, TrafficBuilder& traffic);

/// Fraction of a phase vector delivered during [startCycles, endCycles) at a constant rate.
struct Segment {
    int vector = 0;
    double startCycles = 0, endCycles = 0;
    double fraction = 0;
};

} // namespace elk::sim::detail
