// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What simulating one schedule costs (issue 5 target, release build, one thread): Llama-2-13B
// decode, batch 32, KV 2048, every design, on ipu-pod4-hbm-mesh (≤ 1 s per simulation) and
// ipu-pod4-hbm. Prints per design: median seconds, events, events per second, and the simulated
// vs analytic latency (contention on and off).
//   bench_sim [--runs N] [--model NAME] [--batch B] [--kv K] [--chip NAME]
#include "engine/run/run_compile.h"
#include "engine/schedule/program.h"
#include "engine/sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace elk;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

int benchChip(const std::string& model, const std::string& chip, std::int64_t batch, std::int64_t kv, int runs)
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    request.batch = batch;
    request.kvLen = kv;
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok()) {
        std::fprintf(stderr, "%s: %s\n", spec.errors.front().field.c_str(), spec.errors.front().message.c_str());
        return 1;
    }
    NullRunControl control;
    const run::RunResult result = run::executeRun(spec.spec, control);
    if (!result.ok()) {
        for (const std::string& error : result.errors)
            std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    std::printf("%s on %s (b%lld, kv %lld), %lld cores:\n", model.c_str(), chip.c_str(), static_cast<long long>(batch),
        static_cast<long long>(kv), static_cast<long long>(spec.spec.chip.totalCores()));
    const double msPerCycle = 1e3 / spec.spec.chip.clockHz;
    for (const run::DesignRun& design : result.designs) {
        if (!design.schedule) {
            std::printf("  %-9s no schedule: %s\n", schedule::toString(design.design), design.error.c_str());
            continue;
        }
        const schedule::ScheduleProblem& problem = result.problemOf(design); // its own pipelined splits
        const schedule::Program program = schedule::lowerProgram(problem, *design.schedule);
        std::vector<double> seconds;
        sim::SimResult last;
        for (int i = 0; i < runs; ++i) {
            const auto begin = std::chrono::steady_clock::now();
            sim::SimRunResult r = sim::simulate(spec.spec.chip, problem, program, {}, control);
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
            if (!r.ok()) {
                std::fprintf(stderr, "simulate: %s\n", r.error.c_str());
                return 1;
            }
            last = std::move(*r.result);
        }
        sim::SimOptions off;
        off.contention = false;
        const sim::SimRunResult solo = sim::simulate(spec.spec.chip, problem, program, off, control);
        const double t = median(seconds);
        const double analytic = design.schedule->latencyCycles;
        std::printf("  %-9s simulate %.3f s  %lld events  %.3g events/s | latency %.3f ms (analytic %.3f, %+.2f %%; "
                    "contention off %.3f, %+.3f %%) | HBM %.1f %%  NoC %.1f %%  overlap %.3f  pre-only %.3f  "
                    "exe-only %.3f  stall %.3f ms  links %zu\n",
            schedule::toString(design.design), t, static_cast<long long>(last.events), double(last.events) / t,
            last.latencyCycles * msPerCycle, analytic * msPerCycle, 100 * (last.latencyCycles / analytic - 1),
            solo.result->latencyCycles * msPerCycle, 100 * (solo.result->latencyCycles / analytic - 1),
            100 * last.hbmUtilization, 100 * last.nocUtilization, last.overlapCycles * msPerCycle,
            last.preloadOnlyCycles * msPerCycle, last.executeOnlyCycles * msPerCycle,
            last.interconnectStallCycles * msPerCycle, last.links.size());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    std::string model = "llama2-13b";
    std::int64_t batch = 32, kv = 2048;
    std::vector<std::string> chips;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--model"))
            model = argv[i + 1];
        else if (!std::strcmp(argv[i], "--batch"))
            batch = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--kv"))
            kv = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--chip"))
            chips.emplace_back(argv[i + 1]);
    }
    if (chips.empty())
        chips = { "ipu-pod4-hbm-mesh", "ipu-pod4-hbm" };
    for (const std::string& chip : chips)
        if (int rc = benchChip(model, chip, batch, kv, runs))
            return rc;
    return 0;
}
