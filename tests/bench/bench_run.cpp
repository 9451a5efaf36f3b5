// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What `elk run` costs (issue 4 targets, release build, 2 cores): Llama-2-13B decode, batch 32,
// KV 2048, every design, on ipu-mk2-hbm (≤ 2 s, ≤ 1 GB RSS) and ipu-pod4-hbm (≤ 5 s); and
// re-scheduling after an HBM-bandwidth change that reuses the partition tables (≤ 0.3 s).
//   bench_run [--runs N] [--model NAME] [--batch B] [--kv K]
#include "engine/cost/tile_cost.h"
#include "engine/run/run_compile.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace elk;

namespace {

double secondsOf(const std::chrono::steady_clock::time_point begin)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

long maxRssMiB()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

std::optional<run::RunSpec> resolve(const std::string& model, const std::string& chip, std::int64_t batch,
    std::int64_t kv, std::vector<std::string> overrides = {})
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    request.batch = batch;
    request.kvLen = kv;
    request.chipOverrides = std::move(overrides);
    run::RunSpecResult resolved = run::resolveRunSpec(request);
    for (const chip::FieldError& error : resolved.errors)
        std::fprintf(stderr, "%s: %s\n", error.field.c_str(), error.message.c_str());
    if (!resolved.ok())
        return std::nullopt;
    return resolved.spec;
}

int benchChip(const std::string& model, const std::string& chip, std::int64_t batch, std::int64_t kv, int runs)
{
    const auto spec = resolve(model, chip, batch, kv);
    if (!spec)
        return 1;
    std::vector<double> total, partition, schedule;
    run::RunResult result;
    for (int i = 0; i < runs; ++i) {
        NullRunControl control;
        const auto begin = std::chrono::steady_clock::now();
        result = run::executeRun(*spec, control);
        total.push_back(secondsOf(begin));
        partition.push_back(result.timings.partitionSeconds);
        schedule.push_back(result.timings.scheduleSeconds);
        if (!result.ok()) {
            for (const std::string& error : result.errors)
                std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
    }
    std::printf("%s on %s (b%lld, kv %lld): whole run %.3f s (import %.3f, partition %.3f, schedule %.3f), "
                "%zu steps, %zu partition searches, max RSS %ld MiB\n",
        model.c_str(), chip.c_str(), (long long)batch, (long long)kv, median(total), result.timings.importSeconds,
        median(partition), median(schedule), result.problem.steps.size(), result.compiled->plans.size(), maxRssMiB());
    for (const run::DesignRun& design : result.designs) {
        std::printf("  %-9s %.3f s  latency %.3f ms%s\n", schedule::toString(design.design), design.seconds,
            design.schedule ? design.metrics.latencyCycles / spec->chip.clockHz * 1e3 : 0.0,
            design.schedule ? "" : "  (no schedule)");
    }

    // The slowest partition searches, each timed alone on one thread.
    auto costModel = cost::makeTileCostModel(spec->chip);
    const cost::TransferCost transfer = cost::TransferCost::fromChip(spec->chip);
    partition::PartitionSettings settings { spec->chip.totalCores(), spec->chip.coresPerChip,
        spec->chip.sramBytesPerCore, spec->phase == run::Phase::Train };
    std::vector<std::pair<double, std::size_t>> searches;
    const auto& inputs = result.compiled->planInputs;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        NullRunControl control;
        const auto begin = std::chrono::steady_clock::now();
        (void)partition::partitionOp(inputs[i], settings, *costModel.model, transfer, control);
        searches.push_back({ secondsOf(begin), i });
    }
    std::sort(searches.rbegin(), searches.rend());
    for (std::size_t k = 0; k < std::min<std::size_t>(5, searches.size()); ++k) {
        const std::size_t i = searches[k].second;
        std::printf("  partition %.3f s: %lld plans, %zu on the front: %s\n", searches[k].first,
            (long long)result.compiled->plans[i].enumeratedPlans, result.compiled->plans[i].pareto.size(),
            model::toString(inputs[i].expr).c_str());
    }

    // HBM bandwidth edit: same partition key, only scheduling runs again.
    const auto edited = resolve(model, chip, batch, kv, { "hbm.bandwidthGBpsPerStack=2000" });
    if (!edited)
        return 1;
    std::vector<double> reschedule;
    for (int i = 0; i < runs; ++i) {
        NullRunControl control;
        const auto begin = std::chrono::steady_clock::now();
        const run::RunResult again = run::scheduleRun(result.compiled, *edited, control);
        reschedule.push_back(secondsOf(begin));
        if (!again.ok())
            return 1;
    }
    std::printf(
        "  re-schedule after hbm.bandwidthGBpsPerStack=2000 (partition tables reused): %.3f s\n", median(reschedule));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 3;
    std::string model = "llama2-13b";
    std::int64_t batch = 32;
    std::int64_t kv = 2048;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--model") == 0)
            model = argv[i + 1];
        else if (std::strcmp(argv[i], "--batch") == 0)
            batch = std::atoll(argv[i + 1]);
        else if (std::strcmp(argv[i], "--kv") == 0)
            kv = std::atoll(argv[i + 1]);
    }
    int status = benchChip(model, "ipu-mk2-hbm", batch, kv, runs);
    status |= benchChip(model, "ipu-pod4-hbm", batch, kv, runs);
    return status;
}
