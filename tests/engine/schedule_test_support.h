// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-made OpPlans and scheduling problems for the schedule tests (no partition search involved).
#pragma once

#include "engine/partition/partition.h"
#include "engine/schedule/schedule.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace elk::schedule::test {

struct EntrySpec {
    std::int64_t preloadBytes = 0;
    std::int64_t executeBytes = 0;
    double totalCycles = 0;
    double commCycles = 0; ///< part of totalCycles spent on shifts
    double warmupCycles = 0; ///< part of totalCycles spent on distribute_data
};

/// One plan per entry (preload plan = execute plan = that plan); table sorted as OpPlans requires.
inline partition::OpPlans makePlans(std::int64_t hbmBytes, std::vector<EntrySpec> entries)
{
    std::stable_sort(entries.begin(), entries.end(), [](const EntrySpec& a, const EntrySpec& b) {
        return a.preloadBytes != b.preloadBytes ? a.preloadBytes < b.preloadBytes : a.executeBytes < b.executeBytes;
    });
    partition::OpPlans plans;
    plans.hbmBytes = hbmBytes;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        const EntrySpec& e = entries[k];
        partition::Plan plan;
        plan.spatial = { static_cast<std::int32_t>(k + 1), 1 };
        plan.temporal = { { 1, 1 }, { 1, k % 2 ? 2 : 1 } };
        plans.plans.push_back(plan);
        partition::PlanCost cost;
        cost.executeBytes = e.executeBytes;
        cost.preloadBytes = e.preloadBytes;
        cost.iterations = k % 2 ? 2 : 1;
        cost.shiftCycles = e.commCycles;
        cost.computeCycles = e.totalCycles - e.commCycles - e.warmupCycles;
        plans.costs.push_back(cost);
        partition::PreloadEntry entry;
        entry.preloadBytes = e.preloadBytes;
        entry.executeBytes = e.executeBytes;
        entry.preloadPlan = static_cast<std::uint32_t>(k);
        entry.executePlan = static_cast<std::uint32_t>(k);
        entry.warmupCycles = e.warmupCycles;
        entry.totalCycles = e.totalCycles;
        plans.table.push_back(entry);
        plans.pareto.push_back(static_cast<std::uint32_t>(k));
    }
    return plans;
}

/// A problem plus the plan sets it points at (kept alive here).
struct TestProblem {
    std::deque<partition::OpPlans> storage;
    ScheduleProblem problem;

    std::uint32_t addPlans(partition::OpPlans plans)
    {
        storage.push_back(std::move(plans));
        problem.planSets.push_back(&storage.back());
        return static_cast<std::uint32_t>(problem.planSets.size() - 1);
    }
    void addStep(std::uint32_t planSet, std::int64_t reserved = 0, std::string name = {})
    {
        Step step;
        step.planSet = planSet;
        step.reservedBytesPerCore = reserved;
        step.flops = 1000;
        step.name = name.empty() ? "op" + std::to_string(problem.steps.size()) : std::move(name);
        problem.steps.push_back(std::move(step));
    }
};

/// Entries of a matmul-like op: `pre` preload states (multiples of the smallest), execute states
/// from `minExec` doubling; bigger execute state = faster.
inline partition::OpPlans heavyPlans(std::int64_t hbmBytes, std::int64_t cores, std::int64_t minExec, double baseCycles)
{
    const std::int64_t minPre = hbmBytes / cores;
    std::vector<EntrySpec> entries;
    for (int p = 0; p < 3; ++p) {
        const std::int64_t pre = minPre + minPre * p / 2;
        for (int x = 0; x < 5; ++x) {
            const std::int64_t exec = std::max(pre, minExec) << x;
            const double warmup = p == 0 ? 200.0 : 60.0 / p;
            const double comm = baseCycles * 0.3 / (1 + x);
            entries.push_back({ pre, exec, baseCycles / (1.0 + 0.5 * x) + comm + warmup, comm, warmup });
        }
    }
    return makePlans(hbmBytes, entries);
}

inline partition::OpPlans lightPlans(std::int64_t minExec, double cycles)
{
    return makePlans(0, { { 0, minExec, cycles, cycles * 0.2, 0 }, { 0, minExec * 2, cycles * 0.7, cycles * 0.1, 0 } });
}

/// `layers` × 5 ops (heavy, light, heavy, kv-like, light) between one prefix and one suffix op.
/// sramBytes small enough that overlap is limited by SRAM.
inline void buildRepeatedLayers(TestProblem& t, int layers, std::int64_t sramBytes, bool delayCompute, double theta)
{
    const std::int64_t cores = 1000;
    ScheduleProblem& p = t.problem;
    p.cores = cores;
    p.sramBytesPerCore = sramBytes;
    p.clockHz = 1.325e9;
    p.hbmBytesPerCycle = 3000;
    p.preloadIngressBytesPerCycle = 4.15;
    p.preloadNocThreshold = theta;
    p.delayCompute = delayCompute;
    const auto embed = t.addPlans(heavyPlans(4'000'000, cores, 6000, 800));
    const auto qkv = t.addPlans(heavyPlans(12'000'000, cores, 8000, 2500));
    const auto norm = t.addPlans(lightPlans(3000, 300));
    const auto ffn = t.addPlans(heavyPlans(16'000'000, cores, 10000, 3200));
    const auto kv = t.addPlans(heavyPlans(5'000'000, cores, 6000, 1500));
    const auto add = t.addPlans(lightPlans(2000, 150));
    t.addStep(embed, 0, "embed");
    for (int l = 0; l < layers; ++l) {
        const std::string prefix = "layers." + std::to_string(l) + ".";
        t.addStep(qkv, 0, prefix + "qkv");
        t.addStep(norm, 2048, prefix + "norm");
        t.addStep(ffn, 2048, prefix + "ffn");
        t.addStep(kv, 1024, prefix + "kv");
        t.addStep(add, 0, prefix + "add");
    }
    t.addStep(embed, 0, "lm_head");
    p.layers.prefixOps = 1;
    p.layers.firstLayerStart = 1;
    p.layers.layerCount = layers;
    p.layers.opsPerLayer = 5;
    p.layers.suffixOps = 1;
}

} // namespace elk::schedule::test
