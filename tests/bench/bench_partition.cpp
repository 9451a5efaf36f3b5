// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What one partition search costs (target: each < 0.3 s at 5888 cores, Release, one core): the
// Llama-2-13B decode b32 QKV matmul [32 x 15360 x 5120] and the KV-cache scores batch-matmul
// [32,40,1,2048,128], at 1472 (one chip) and 5888 (four chips) cores, with a roofline-like tile
// cost (the bench's own, so that it measures the search rather than a cost model), then with the
// ipu-mk2-hbm / ipu-pod4-hbm presets' own tile cost models and transfer costs.
//   bench_partition [--runs N]
#include "engine/chip/presets.h"
#include "engine/partition/partition.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace elk;

namespace {

double threadCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// max(FLOPs / 128 per cycle, touched bytes / 32 per cycle) + 100: IPU-tile-like peaks.
class RooflineLikeCost final : public cost::TileCostModel {
public:
    std::string name() const override { return "bench-roofline"; }
    std::string version() const override { return "1"; }
    double tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tile) const override
    {
        double iterations = 1;
        for (std::int64_t e : tile)
            iterations *= double(e);
        double bytes = 0;
        for (const model::Operand& operand : expr.operands) {
            double elements = 1;
            for (const model::Axis& axis : operand.axes)
                elements *= double(tile[std::size_t(axis.dim)]);
            bytes += elements * model::bytesPerElement(operand.dtype);
        }
        return std::max(2 * iterations / 128.0, bytes / 32.0) + 100;
    }
    double partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType) const override
    {
        return double(outputElements) * double(partials) / 16.0 + 50;
    }
};

model::Operand operand(std::vector<int> dims, model::TensorRole role)
{
    model::Operand op;
    for (int d : dims)
        op.axes.push_back(model::Axis::loop(d));
    op.role = role;
    return op;
}

partition::PartitionInput qkvMatmul()
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::MatMul;
    input.expr.dimExtents = { 32, 15360, 5120 };
    input.expr.operands = { operand({ 0, 1 }, model::TensorRole::Output),
        operand({ 0, 2 }, model::TensorRole::Activation), operand({ 2, 1 }, model::TensorRole::Weight) };
    input.fromHbm = { false, false, true };
    return input;
}

/// The same projection as the graph carries it: a batch dim and an extent-1 sequence dim.
partition::PartitionInput decodeProjection()
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::MatMul;
    input.expr.dimExtents = { 32, 1, 5120, 5120 };
    input.expr.operands = { operand({ 0, 1, 2 }, model::TensorRole::Output),
        operand({ 0, 1, 3 }, model::TensorRole::Activation), operand({ 3, 2 }, model::TensorRole::Weight) };
    input.fromHbm = { false, false, true };
    return input;
}

partition::PartitionInput kvScores()
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::MatMul;
    input.expr.dimExtents = { 32, 40, 1, 2048, 128 };
    input.expr.operands = { operand({ 0, 1, 2, 3 }, model::TensorRole::Output),
        operand({ 0, 1, 2, 4 }, model::TensorRole::Activation), operand({ 0, 1, 3, 4 }, model::TensorRole::KvCache) };
    input.fromHbm = { false, false, true };
    return input;
}

void benchOne(const char* name, const partition::PartitionInput& input, const partition::PartitionSettings& settings,
    const cost::TileCostModel& costModel, const cost::TransferCost& transfer, int runs)
{
    NullRunControl control;
    std::vector<double> times;
    std::vector<double> cpu;
    partition::PartitionResult result;
    for (int run = 0; run < runs; ++run) {
        const double cpuBegin = threadCpuMs();
        const auto begin = std::chrono::steady_clock::now();
        result = partition::partitionOp(input, settings, costModel, transfer, control);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
        cpu.push_back(threadCpuMs() - cpuBegin);
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu.begin(), cpu.end());
    const auto cores = static_cast<long long>(settings.cores);
    if (!result.ok()) {
        std::printf("  %s @ %lld cores: error %s\n", name, cores, result.error.c_str());
        return;
    }
    const partition::OpPlans& plans = *result.plans;
    std::set<std::int64_t> preloadSizes;
    for (const partition::PreloadEntry& entry : plans.table)
        preloadSizes.insert(entry.preloadBytes);
    std::printf("  %s @ %lld cores: %lld plans, pareto %zu, table %zu over %zu preload sizes (min preload %lld B, "
                "smallest execute %lld B, fastest %.0f cycles); median %.1f ms wall, %.1f ms CPU of %d\n",
        name, cores, static_cast<long long>(plans.enumeratedPlans), plans.pareto.size(), plans.table.size(),
        preloadSizes.size(), static_cast<long long>(plans.minPreloadBytes()),
        static_cast<long long>(plans.costs[plans.pareto.front()].executeBytes),
        plans.costs[plans.pareto.back()].executeCycles(), times[times.size() / 2], cpu[cpu.size() / 2], runs);
}

const std::vector<std::pair<const char*, partition::PartitionInput>>& cases()
{
    static const std::vector<std::pair<const char*, partition::PartitionInput>> all
        = { { "matmul [32 x 15360 x 5120]", qkvMatmul() }, { "kv bmm [32,40,1,2048,128]", kvScores() },
              { "matmul [32,1 x 5120 x 5120]", decodeProjection() } };
    return all;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
    }
    // 1. The bench's own roofline-like tile cost, IPU-like transfers: measures the search alone.
    std::printf("bench roofline-like tile cost:\n");
    const RooflineLikeCost benchCost;
    cost::TransferCost transfer;
    transfer.linkBytesPerCycle = 5.5e9 / 1.325e9;
    transfer.syncCycles = 118;
    transfer.multiChipFactor = 1.25;
    for (const auto& [name, input] : cases()) {
        for (std::int64_t cores : { 1472, 5888 }) {
            partition::PartitionSettings settings;
            settings.cores = cores;
            settings.coresPerChip = 1472;
            settings.sramBytesPerCore = 624 * 1024;
            benchOne(name, input, settings, benchCost, transfer, runs);
        }
    }
    // 2. The presets' own tile cost models and transfer costs (what `elk run` uses).
    for (const char* preset : { "ipu-mk2-hbm", "ipu-pod4-hbm" }) {
        const std::optional<chip::ChipSpec> chip = chip::findBuiltinPreset(preset);
        if (!chip)
            continue;
        const cost::TileCostModelResult model = cost::makeTileCostModel(*chip);
        if (!model.ok()) {
            std::printf("%s: %s\n", preset, model.error.c_str());
            continue;
        }
        std::printf("%s, tile cost %s:\n", preset, model.model->name().c_str());
        partition::PartitionSettings settings;
        settings.cores = chip->totalCores();
        settings.coresPerChip = chip->coresPerChip;
        settings.sramBytesPerCore = chip->sramBytesPerCore;
        for (const auto& [name, input] : cases())
            benchOne(name, input, settings, *model.model, cost::TransferCost::fromChip(*chip), runs);
    }
    return 0;
}
