// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-built chips, problems and programs for the simulator's hand-computed scenarios.
#include "engine/chip/chip_spec.h"
#include "engine/schedule/program.h"

#include <memory>
#include <vector>

namespace elk::simtest {

/// All-to-all chip: `cores` cores, 16 B/cycle ports (1 GHz, 16 GB/s), one HBM stack of 64 B/cycle,
/// no sync cost, HBM latency `latencyNs`.
inline chip::ChipSpec smallChip(int cores, std::int64_t latencyNs = 0)
{
    chip::ChipSpec chip;
    chip.name = "sim-test";
    chip.coresPerChip = cores;
    chip.sramBytesPerCore = 1 << 20;
    chip.clockHz = 1e9;
    chip.interconnect.linkBandwidthGBpsPerCore = 16;
    chip.interconnect.syncCostCycles = 0;
    chip.hbm.stacksPerChip = 1;
    chip.hbm.bandwidthGBpsPerStack = 64;
    chip.hbm.capacityGiBPerStack = 1;
    chip.hbm.latencyNs = latencyNs;
    return chip;
}

/// One plan set shared by every step: an elementwise op over 800 fp16 elements (out = f(in)) with two
/// one-dim plans on one core: plan 0 not rotated, plan 1 rotating both operands in a ring of 2 (one
/// shift of 400 elements each: 1600 bytes per core).
struct Fixture {
    partition::PartitionInput input;
    partition::OpPlans plans;
    schedule::ScheduleProblem problem;
    schedule::Program program;

    Fixture(const chip::ChipSpec& chip, int steps)
    {
        input.expr.kind = model::OpKind::Elementwise;
        input.expr.dimExtents = { 800 };
        input.expr.operands
            = { model::Operand { { model::Axis::loop(0) } }, model::Operand { { model::Axis::loop(0) } } };
        input.fromHbm = { false, true };
        plans.plans = { partition::Plan { { 1 }, { { 1, 1 } } }, partition::Plan { { 1 }, { { 2, 2 } } } };
        plans.costs = { partition::PlanCost {}, partition::PlanCost {} };
        plans.table = { partition::PreloadEntry {} };
        problem.planSets = { &plans };
        problem.planInputs = { &input };
        problem.cores = chip.totalCores();
        problem.sramBytesPerCore = chip.sramBytesPerCore;
        problem.clockHz = chip.clockHz;
        problem.hbmBytesPerCycle = chip.totalHbmBandwidthGBps() * 1e9 / chip.clockHz;
        problem.preloadIngressBytesPerCycle = chip.linkBytesPerCycle();
        problem.preloadNocThreshold = 0.9;
        for (int i = 0; i < steps; ++i)
            problem.steps.push_back({ "op" + std::to_string(i), 0, 1000, 0 });
    }
    void preload(int step, std::int64_t hbmBytes, std::int64_t bytesPerCore)
    {
        schedule::ProgramCall call;
        call.kind = schedule::CallKind::PreloadAsync;
        call.step = step;
        call.preload.hbmBytes = hbmBytes;
        call.preload.bytesPerCore = bytesPerCore;
        program.calls.push_back(call);
    }
    /// `rotated`: plan 1 (a 1600-byte shift per core after compute), else plan 0 (no traffic).
    void execute(int step, double computeCycles, bool rotated = false)
    {
        schedule::ProgramCall call;
        call.kind = schedule::CallKind::Execute;
        call.step = step;
        call.execute.computeCycles = computeCycles;
        call.execute.executePlan = rotated ? 1 : 0;
        call.execute.rotation = plans.plans[call.execute.executePlan].temporal;
        call.execute.executeBytesPerCore = 1000;
        program.calls.push_back(call);
    }
};

} // namespace elk::simtest
