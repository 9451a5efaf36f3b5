// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The fidelity issue's speed targets (release build, 2 cores), every design scheduled and simulated,
// no result cache: ipu-mk2-hbm Llama-2-13B decode b32 KV 2048 (≤ 1 s), ipu-pod4-hbm Llama-2-70B decode
// b32 KV 2048 (≤ 3 s), DiT-XL/2 prefill batch 8 on ipu-pod4-hbm (≤ 4 s). For each: the stage times,
// the searches (distinct operators, pipelined variants), the five simulated latencies against the
// HBM bound, and the slowest partition searches.
//   bench_fidelity [--runs N]
#include "engine/cost/tile_cost.h"
#include "engine/run/run_compile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace elk;

namespace {

double secondsOf(const std::chrono::steady_clock::time_point begin)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

struct Target {
    const char* model;
    const char* chip;
    run::Phase phase;
    std::int64_t batch;
    std::int64_t tokens; ///< KV length (decode) or sequence length (prefill)
    double limitSeconds;
};

int bench(const Target& target, int runs)
{
    run::RunRequest request;
    request.modelPath = target.model;
    request.chip = target.chip;
    request.phase = target.phase;
    request.batch = target.batch;
    if (target.phase == run::Phase::Decode)
        request.kvLen = target.tokens;
    else if (target.tokens > 0)
        request.seqLen = target.tokens;
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok()) {
        std::fprintf(stderr, "%s\n", spec.errors.front().message.c_str());
        return 1;
    }
    std::vector<double> walls;
    run::RunResult result;
    for (int i = 0; i < runs; ++i) {
        NullRunControl control;
        const auto begin = std::chrono::steady_clock::now();
        result = run::executeRun(spec.spec, control);
        walls.push_back(secondsOf(begin));
        if (!result.ok()) {
            std::fprintf(stderr, "%s\n", result.errors.empty() ? "stopped" : result.errors.front().c_str());
            return 1;
        }
    }
    std::sort(walls.begin(), walls.end());
    const double wall = walls[walls.size() / 2];
    std::size_t variants = 0;
    for (const auto& v : result.compiled->variants)
        variants += v.size() - 1;
    std::int64_t hbmBytes = 0;
    int split = 0;
    for (const schedule::Step& step : result.problem.steps) {
        hbmBytes += result.problem.planSets[step.planSet]->hbmBytes;
        split += step.parts > 1 && step.part == 0 ? 1 : 0;
    }
    const double clock = result.spec.chip.clockHz;
    const double boundMs = double(hbmBytes) / result.problem.hbmBytesPerCycle / clock * 1e3;
    std::printf("%s %s on %s: %.3f s wall (target <= %.0f s: %s); import %.3f, partition %.3f, schedule %.3f, "
                "simulate %.3f (stage times summed over threads)\n",
        target.model, run::toString(target.phase), target.chip, wall, target.limitSeconds,
        wall <= target.limitSeconds ? "met" : "MISSED", result.timings.importSeconds, result.timings.partitionSeconds,
        result.timings.scheduleSeconds, result.timings.simulateSeconds);
    std::printf(
        "  %zu distinct operators, %zu pipelined variants searched, %d graph ops run in parts; HBM bound %.3f ms\n",
        result.compiled->variants.size(), variants, split, boundMs);
    for (const run::DesignRun& d : result.designs) {
        const double ms = d.simulated ? d.simulated->latencyCycles / clock * 1e3 : 0.0;
        std::printf(
            "  %-9s simulated %8.3f ms (bound %+6.2f %%), analytic %8.3f ms, schedule %.3f s, simulate %.3f s\n",
            schedule::toString(d.design), ms, 100 * (ms / boundMs - 1),
            d.schedule ? d.schedule->latencyCycles / clock * 1e3 : 0.0, d.seconds, d.simulateSeconds);
    }
    // The slowest searches, each timed alone on one thread.
    auto costModel = cost::makeTileCostModel(result.spec.chip);
    const cost::TransferCost transfer = cost::TransferCost::fromChip(result.spec.chip);
    partition::PartitionSettings settings { result.spec.chip.totalCores(), result.spec.chip.coresPerChip,
        result.spec.chip.sramBytesPerCore, result.spec.phase == run::Phase::Train };
    std::vector<std::pair<double, std::size_t>> searches;
    const auto& inputs = result.compiled->planInputs;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        NullRunControl control;
        const auto begin = std::chrono::steady_clock::now();
        (void)partition::partitionOp(inputs[i], settings, *costModel.model, transfer, control);
        searches.push_back({ secondsOf(begin), i });
    }
    std::sort(searches.rbegin(), searches.rend());
    for (std::size_t k = 0; k < std::min<std::size_t>(4, searches.size()); ++k) {
        const std::size_t i = searches[k].second;
        std::printf("  search %.3f s: %lld plans: %s\n", searches[k].first,
            (long long)result.compiled->plans[i].enumeratedPlans, model::toString(inputs[i].expr).c_str());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
    }
    const Target targets[] = {
        { "llama2-13b", "ipu-mk2-hbm", run::Phase::Decode, 32, 2048, 1 },
        { "llama2-70b", "ipu-pod4-hbm", run::Phase::Decode, 32, 2048, 3 },
        { "dit-xl", "ipu-pod4-hbm", run::Phase::Prefill, 8, 0, 4 },
    };
    int status = 0;
    for (const Target& target : targets)
        status |= bench(target, runs);
    return status;
}
