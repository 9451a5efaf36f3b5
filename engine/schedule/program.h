// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/schedule/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace elk::schedule {

/// The hardware mapping interface of elk-design.md §5: a schedule lowered to the two device functions.
enum class CallKind { PreloadAsync, Execute };

/// preload_async(op): every core requests its share of op's HBM data laid out per the preload plan;
/// the controllers append done_preload(op) after the data.
struct PreloadCall {
    std::uint32_t preloadPlan = 0; ///< index into the op's OpPlans::plans
    std::int64_t bytesPerCore = 0; ///< preload state per core
    std::int64_t hbmBytes = 0; ///< read from HBM (each byte once; replicas are NoC broadcast)
    std::vector<std::int32_t> spatial; ///< the preload plan's split per loop dim
};

/// execute(op): waits for done_preload(op), then distribute_data (preload layout → execute layout),
/// then local_execute (each core its tile, with the plan's rotation shifts and final reduction).
struct ExecuteCall {
    std::int64_t distributeBytesPerCore = 0; ///< HBM-input bytes a core receives from peers for warm-up
    double distributeCycles = 0;
    std::uint32_t executePlan = 0;
    std::int64_t executeBytesPerCore = 0;
    std::vector<std::int32_t> spatial; ///< per loop dim
    std::vector<std::vector<std::int32_t>> rotation; ///< [dim][operand] rotation factors (1 = none)
    std::int64_t iterations = 1;
    double computeCycles = 0, shiftCycles = 0, reduceCycles = 0;
};

struct ProgramCall {
    CallKind kind = CallKind::Execute;
    int step = 0; ///< the op's execution step
    std::string opName;
    double startCycles = 0, endCycles = 0; ///< the analytic schedule's interval for this call
    PreloadCall preload; ///< kind == PreloadAsync
    ExecuteCall execute; ///< kind == Execute
};

/// Calls in program order. Blocking rules: an execute blocks every later call until it completes;
/// preload_async calls run in program order; preload_async(i) blocks only execute(i). So every
/// preload_async(i) comes before execute(i), preloads appear in preload order, and a preload comes
/// before execute(j) when the schedule starts it before execution j ends, or earlier where the
/// schedule's earlyPreloadRoomBytesPerCore holds it at every execution it then overlaps.
struct Program {
    Design design = Design::ElkDyn;
    std::int64_t cores = 0;
    double clockHz = 0;
    double latencyCycles = 0;
    std::vector<ProgramCall> calls;
};

/// Contract: `schedule` was produced for `problem` (checkSchedule ordering rules hold).
Program lowerProgram(const ScheduleProblem& problem, const Schedule& schedule);

/// One line per call, e.g. `preload_async(op 12 "layers.3.q_proj")  1.20 MiB/core  hbm 25.00 MiB ...`,
/// after a header line. Deterministic.
std::string programText(const Program& program);

/// JSON, schema "elk.program/1". Deterministic.
std::string programJson(const Program& program);

} // namespace elk::schedule
