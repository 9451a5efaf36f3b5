// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What `elk explain` costs (issue 18 targets, release build, 2 cores): Llama-2-70B decode on
// ipu-pod4-hbm, every design's bound-gap waterfall as JSON, cold (empty result cache: import,
// partition, schedule, simulate; ≤ 3 s) and from the cache (≤ 0.2 s).
//   bench_explain [--runs N] [--model NAME] [--chip PRESET]
#include "engine/run/explain.h"
#include "engine/store/result_store.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

} // namespace

int main(int argc, char** argv)
{
    int runs = 3;
    std::string model = "llama2-70b", chip = "ipu-pod4-hbm";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--model"))
            model = argv[i + 1];
        else if (!std::strcmp(argv[i], "--chip"))
            chip = argv[i + 1];
    }
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    const run::RunSpecResult resolved = run::resolveRunSpec(request);
    if (!resolved.ok()) {
        std::fprintf(stderr, "%s\n", resolved.errors.front().message.c_str());
        return 2;
    }
    const std::filesystem::path dir
        = std::filesystem::temp_directory_path() / ("bench_explain_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::vector<double> cold, cached;
    std::size_t jsonBytes = 0;
    for (int r = 0; r < runs; ++r) {
        const std::string path = (dir / ("cache" + std::to_string(r) + ".sqlite")).string();
        store::OpenResult opened = store::ResultStore::open(path);
        if (!opened.store) {
            std::fprintf(stderr, "%s\n", opened.error.c_str());
            return 1;
        }
        // As `elk explain` does it: the cached designs alone, else the cached pipeline (which stores).
        for (int pass = 0; pass < 2; ++pass) {
            const auto begin = std::chrono::steady_clock::now();
            std::optional<std::vector<run::DesignRun>> designs = opened.store->loadDesigns(resolved.spec, false);
            if (designs.has_value() != (pass == 1)) {
                std::fprintf(stderr, "unexpected cache outcome (pass %d)\n", pass);
                return 1;
            }
            if (!designs) {
                NullRunControl control;
                run::RunResult result = run::runCached(resolved.spec, opened.store.get(), control, 0, nullptr, true);
                if (!result.ok()) {
                    std::fprintf(stderr, "run failed\n");
                    return 1;
                }
                designs = std::move(result.designs);
            }
            const std::string json = run::explainJson(resolved.spec, *designs);
            (pass == 0 ? cold : cached).push_back(secondsOf(begin));
            jsonBytes = json.size();
        }
    }
    std::filesystem::remove_all(dir);
    std::printf("explain %s on %s: cold %.3f s (target ≤ 3 s), cached %.3f s (target ≤ 0.2 s), median of %d; "
                "JSON %zu bytes\n",
        model.c_str(), chip.c_str(), median(cold), median(cached), runs, jsonBytes);
    return 0;
}
