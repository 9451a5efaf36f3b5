// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// How long a cancel takes in each stage of a run (the app's Cancel button): a run of Llama-2-70B
// decode, batch 16, KV 2048, on ipu-pod4-hbm on a worker thread; the stop is requested as soon as
// the run reports the stage, and the time until the run returns is the cancel latency. Prints the
// median and the worst of N runs per stage. (That every stage polls at all is tst_run_stop's job.)
//   bench_cancel [--runs N] [--model NAME] [--chip NAME]
#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace elk;

namespace {

using Clock = std::chrono::steady_clock;

/// Milliseconds from the stop request to the run's return; negative when the run ended first.
double cancelOnce(const run::RunSpec& spec, const std::string& family)
{
    std::atomic<bool> reached { false };
    AtomicRunControl control([&](std::int64_t, std::int64_t, std::string_view stage) {
        if (stage.substr(0, stage.find(' ')) == family)
            reached.store(true);
    });
    std::atomic<bool> finished { false };
    Clock::time_point returned;
    std::thread worker([&] {
        (void)run::executeRun(spec, control, 1);
        returned = Clock::now();
        finished.store(true);
    });
    while (!reached.load() && !finished.load())
        std::this_thread::yield();
    const Clock::time_point requested = Clock::now();
    control.requestStop();
    worker.join();
    if (!reached.load())
        return -1;
    return std::chrono::duration<double, std::milli>(returned - requested).count();
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
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
    request.batch = 16;
    request.kvLen = 2048;
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok()) {
        std::fprintf(stderr, "%s: %s\n", spec.errors.front().field.c_str(), spec.errors.front().message.c_str());
        return 1;
    }
    std::printf("cancel latency, %s on %s (b16, kv 2048), %d runs per stage:\n", model.c_str(), chip.c_str(), runs);
    for (const char* family : { "import", "partition", "schedule", "simulate" }) {
        std::vector<double> ms;
        for (int i = 0; i < runs; ++i) {
            const double latency = cancelOnce(spec.spec, family);
            if (latency >= 0)
                ms.push_back(latency);
        }
        if (ms.empty()) {
            std::printf("  %-9s  the run never reached this stage\n", family);
            continue;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("  %-9s  median %8.2f ms   worst %8.2f ms\n", family, ms[ms.size() / 2], ms.back());
    }
    return 0;
}
