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

/// Exchange synchronisations of a plan's rotation shifts: the partition model's count
/// (engine/partition/impl/plan_evaluation.cpp: two per shift, rounds of a divisibility chain per
/// dim, nested) with rounds ordered by tensor count where the partition code orders them by bytes
/// (the program does not carry operand sizes; the count differs only for plans with several
/// rounds of unequal sizes).
double shiftSyncs(const std::vector<std::vector<std::int32_t>>& rotation);

/// Per step (by execution step): the stages of its preload and its execution, built from the
/// program's calls. Comm phases: bytes per core = (phase cycles ÷ multi-chip factor − syncs × sync
/// cost) × link bytes per cycle; the syncs (× multi-chip factor) are the fixed part, so alone every
/// phase lasts exactly its analytic length on an all-to-all chip. A mesh adds the longest route's
/// hop latency to every transfer. Reduction keeps the partition model's 6 fixed syncs as its fixed
/// part (the gather's syncs and the partial-sum adds are counted as transfer time).
std::vector<StepPlan> planSteps(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
    const schedule::Program& program, TrafficBuilder& traffic);

/// Fraction of a phase vector delivered during [startCycles, endCycles) at a constant rate.
struct Segment {
    int vector = 0;
    double startCycles = 0, endCycles = 0;
    double fraction = 0;
};

} // namespace elk::sim::detail
