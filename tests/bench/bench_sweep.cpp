// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 6 performance targets (release build, 2 cores), Llama-2-13B decode, batch 32, KV 2048 on
// ipu-pod4-hbm:
//   (a) after an HBM-bandwidth edit, updated views ≤ 0.5 s: schedule + simulate every design on a
//       reused compiled model (threads 2), median of N;
//   (b) a 9 × 9 sweep (HBM bandwidth per stack × NoC link bandwidth per core) ≤ 60 s cold, fresh cache;
//   (c) the same sweep again ≤ 1 s, from the cache.
// Also: a cached rerun of one run with detail (the app's history/reopen path).
//   bench_sweep [--runs N] [--threads T] [--no-sweep]
#include "engine/run/run_compile.h"
#include "engine/run/sweep.h"
#include "engine/store/result_store.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

/// User + system CPU seconds of this process so far: with other jobs on the machine, wall time
/// alone overstates what the work costs.
double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

run::RunRequest baseRequest()
{
    run::RunRequest request;
    request.modelPath = "llama2-13b";
    request.chip = "ipu-pod4-hbm";
    request.batch = 32;
    request.kvLen = 2048;
    return request;
}

std::optional<run::RunSpec> resolve(std::vector<std::string> overrides = {})
{
    run::RunRequest request = baseRequest();
    request.chipOverrides = std::move(overrides);
    run::RunSpecResult resolved = run::resolveRunSpec(request);
    for (const chip::FieldError& error : resolved.errors)
        std::fprintf(stderr, "%s: %s\n", error.field.c_str(), error.message.c_str());
    if (!resolved.ok())
        return std::nullopt;
    return resolved.spec;
}

std::uintmax_t cacheBytes(const std::string& path)
{
    std::uintmax_t bytes = 0;
    std::error_code ec;
    for (const char* suffix : { "", "-wal" }) {
        const std::uintmax_t size = std::filesystem::file_size(path + suffix, ec);
        bytes += ec ? 0 : size;
    }
    return bytes;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    int threads = 2;
    bool sweep = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--no-sweep") == 0)
            sweep = false;
    }
    const auto spec = resolve();
    const auto edited = resolve({ "hbm.bandwidthGBpsPerStack=500" });
    if (!spec || !edited)
        return 1;
    NullRunControl control;
    auto begin = std::chrono::steady_clock::now();
    const run::CompileResult compiled = run::compileModel(*spec, control, threads);
    if (!compiled.ok())
        return 1;
    std::printf("Llama-2-13B decode b32 kv2048 on ipu-pod4-hbm: compile %.3f s (import %.3f, partition %.3f), "
                "%zu partition searches\n",
        secondsOf(begin), compiled.timings.importSeconds, compiled.timings.partitionSeconds,
        compiled.compiled->plans.size());

    // (a) HBM edit: the compiled model is reused; every design is scheduled and simulated again.
    for (const int t : { 1, threads }) {
        std::vector<double> seconds;
        const double cpuBefore = cpuSeconds();
        for (int i = 0; i < runs; ++i) {
            begin = std::chrono::steady_clock::now();
            const run::RunResult again = run::scheduleRun(compiled.compiled, *edited, control, t);
            seconds.push_back(secondsOf(begin));
            if (!again.ok())
                return 1;
        }
        std::printf("(a) HBM edit, schedule + simulate 5 designs on %d thread%s: median %.3f s (target <= 0.5 s), "
                    "%.3f CPU s each\n",
            t, t == 1 ? "" : "s", median(seconds), (cpuSeconds() - cpuBefore) / runs);
    }

    const std::filesystem::path folder = std::filesystem::temp_directory_path()
        / ("bench_sweep-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    const std::string cachePath = (folder / "results.sqlite").string();
    store::OpenResult opened = store::ResultStore::open(cachePath);
    if (!opened.store) {
        std::fprintf(stderr, "%s\n", opened.error.c_str());
        return 1;
    }

    // A reopened run (history): import + cached partition tables + stored designs with detail.
    {
        begin = std::chrono::steady_clock::now();
        run::runCached(*spec, opened.store.get(), control, threads);
        const double cold = secondsOf(begin);
        std::vector<double> seconds;
        for (int i = 0; i < runs; ++i) {
            begin = std::chrono::steady_clock::now();
            run::CacheOutcome outcome;
            run::runCached(*spec, opened.store.get(), control, threads, nullptr, true, &outcome);
            seconds.push_back(secondsOf(begin));
            if (!outcome.runHit)
                return 1;
        }
        std::printf("    one run with detail: cold %.3f s, cached rerun (import + stored tables + designs) median "
                    "%.3f s, cache %.1f MiB\n",
            cold, median(seconds), double(cacheBytes(cachePath)) / (1 << 20));
    }

    if (sweep) {
        std::vector<run::SweepAxis> axes;
        for (const char* text :
            { "hbm.bandwidthGBpsPerStack=125:1125:125", "interconnect.linkBandwidthGBpsPerCore=1.5:9.5:1" })
            axes.push_back(run::parseSweepAxis(text).axis);
        const std::uintmax_t before = cacheBytes(cachePath);
        const double cpuBefore = cpuSeconds();
        begin = std::chrono::steady_clock::now();
        const run::SweepResult cold = run::runSweep(baseRequest(), axes, opened.store.get(), control, threads);
        const double coldSeconds = secondsOf(begin);
        int failed = 0;
        for (const run::SweepPoint& point : cold.points)
            failed += point.error.empty() ? 0 : 1;
        std::printf("(b) 9 x 9 sweep cold on %d threads: %.2f s (target <= 60 s; %.1f CPU s), %zu points, %d failed, "
                    "cache grew by %.1f MiB\n",
            threads, coldSeconds, cpuSeconds() - cpuBefore, cold.points.size(), failed,
            double(cacheBytes(cachePath) - before) / (1 << 20));
        std::vector<double> seconds;
        for (int i = 0; i < runs; ++i) {
            begin = std::chrono::steady_clock::now();
            const run::SweepResult warm = run::runSweep(baseRequest(), axes, opened.store.get(), control, threads);
            seconds.push_back(secondsOf(begin));
            for (const run::SweepPoint& point : warm.points) {
                if (!point.fromCache && point.error.empty())
                    return 1;
            }
        }
        std::printf("(c) the same sweep from the cache: median %.3f s (target <= 1 s)\n", median(seconds));
    }
    std::printf("    cache %s: %.1f MiB, %lld runs, %lld partition tables\n", cachePath.c_str(),
        double(cacheBytes(cachePath)) / (1 << 20), (long long)opened.store->runCount(),
        (long long)opened.store->partitionCount());
    opened.store.reset();
    std::error_code ec;
    std::filesystem::remove_all(folder, ec);
    return 0;
}
