// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 7 targets (release build): ResNet-50 train step (hespas fixture, 1.1 MB) parse + slice +
// roofline ≤ 0.3 s; the whole StableHLO corpus parses in ≤ 30 s on 2 cores; a second run of the same
// module is served from the region cache (hit rate printed).
//   bench_hlo [--runs N] [--corpus DIR] [--module FILE] [--system NAME] [--estimator SPEC]
#include "engine/hlo/hlo_run.h"
#include "engine/store/result_store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

using namespace elk;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 7;
    std::string shared = ELK_SHARED_DIR;
    std::string corpus = shared + "/corpus/stablehlo";
    std::string module = corpus + "/hespas/resnet_50_train_step_4_devices_1024_batch.mlir";
    std::string system = "4x-a100-sxm-40gb";
    std::vector<std::string> estimators;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--corpus") == 0)
            corpus = argv[i + 1];
        else if (std::strcmp(argv[i], "--module") == 0)
            module = argv[i + 1];
        else if (std::strcmp(argv[i], "--system") == 0)
            system = argv[i + 1];
        else if (std::strcmp(argv[i], "--estimator") == 0)
            estimators.push_back(argv[i + 1]);
    }
    if (estimators.empty())
        estimators.push_back("roofline");

    // 1. Parse + flatten + fuse + slice + estimate + network + step, no cache.
    hlo::HloRunOptions options;
    options.system = system;
    options.estimators = estimators;
    std::vector<double> parseTimes, totalTimes;
    hlo::HloRunResult last;
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        const hlo::ReadResult read = hlo::readHloFile(module);
        parseTimes.push_back(secondsSince(start));
        if (!read.ok()) {
            std::fprintf(
                stderr, "%s\n", read.errors.empty() ? "no module" : hlo::toString(read.errors.front()).c_str());
            return 1;
        }
        NullRunControl control;
        last = hlo::runHloModule(read.modules.front(), options, nullptr, control);
        totalTimes.push_back(secondsSince(start));
        if (!last.ok()) {
            std::fprintf(stderr, "%s\n", last.errors.front().c_str());
            return 1;
        }
    }
    std::printf("%s on %s (%s): %lld ops, %zu regions, step %.3f ms (compute %.3f, comm %.3f, exposed %.3f)\n",
        module.c_str(), system.c_str(), estimators.front().c_str(), static_cast<long long>(last.opCount),
        last.regions.size(), last.stepSeconds * 1e3, last.computeSeconds * 1e3, last.commSeconds * 1e3,
        last.exposedCommSeconds * 1e3);
    std::printf(
        "  parse: median %.4f s; parse + analyse + fuse + slice + estimate + step: median %.4f s over %d runs\n",
        median(parseTimes), median(totalTimes), runs);

    // 2. The region cache: a cold run then a warm one on a fresh cache file.
    const std::filesystem::path cacheDir = std::filesystem::temp_directory_path() / "elk-bench-hlo-cache";
    std::filesystem::remove_all(cacheDir);
    store::OpenResult opened = store::ResultStore::open((cacheDir / "results.sqlite").string());
    if (opened.store) {
        for (int pass = 0; pass < 2; ++pass) {
            NullRunControl control;
            const auto start = std::chrono::steady_clock::now();
            const hlo::HloRunResult result = hlo::runHloFile(module, options, opened.store.get(), control);
            const double seconds = secondsSince(start);
            const double lookups = double(result.cacheHits + result.cacheMisses);
            std::printf("  cache pass %d: %lld hits, %lld misses (hit rate %.1f %%), %.4f s\n", pass + 1,
                static_cast<long long>(result.cacheHits), static_cast<long long>(result.cacheMisses),
                lookups > 0 ? 100.0 * double(result.cacheHits) / lookups : 0.0, seconds);
        }
        opened.store.reset();
    }
    std::filesystem::remove_all(cacheDir);

    // 3. The whole corpus, parsed on all hardware threads.
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus))
        if (entry.is_regular_file() && entry.path().extension() == ".mlir")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::size_t> parsedParts(threads, 0), failedParts(threads, 0), bytes(threads, 0);
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = t; i < files.size(); i += threads) {
                const hlo::ReadResult read = hlo::readHloFile(files[i]);
                parsedParts[t] += read.modules.size();
                failedParts[t] += read.errors.size();
                bytes[t] += std::filesystem::file_size(files[i]);
            }
        });
    for (std::thread& thread : pool)
        thread.join();
    const double corpusSeconds = secondsSince(start);
    std::size_t parsed = 0, failed = 0, total = 0;
    for (unsigned t = 0; t < threads; ++t) {
        parsed += parsedParts[t];
        failed += failedParts[t];
        total += bytes[t];
    }
    std::printf("  corpus: %zu files, %.1f MB, %zu parts parsed, %zu parts rejected, %.3f s on %u threads\n",
        files.size(), double(total) / 1e6, parsed, failed, corpusSeconds, threads);
    return 0;
}
