// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Artifact parity (issue 14): wall time of a parity run of llama2-13 (b32, kv 2048) on the artifact's
// two measured points (the artifact: 53 min for the 4-chip point on 2 cores), and how each design's
// latency moves when one quirk at a time is switched off. Needs ../shared/corpus/einstein.
// Usage: bench_parity [--runs N] [--threads T]
#include "engine/run/artifact_parity.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

using namespace elk;

int main(int argc, char** argv)
{
    int runs = 3, threads = 2;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (std::strcmp(argv[a], "--runs") == 0)
            runs = std::atoi(argv[a + 1]);
        else if (std::strcmp(argv[a], "--threads") == 0)
            threads = std::atoi(argv[a + 1]);
    }
    const std::string model = ELK_SHARED_DIR "/corpus/einstein/llama2-13.json";
    if (!std::filesystem::exists(model)) {
        std::printf("SKIP: %s is absent\n", model.c_str());
        return 0;
    }
    for (const char* chip : { "ipu-mk2-hbm", "ipu-pod4-hbm" }) {
        run::RunRequest request;
        request.modelPath = model;
        request.chip = chip;
        request.batch = 32;
        request.kvLen = 2048;
        const run::RunSpecResult resolved = run::resolveRunSpec(request);
        if (!resolved.ok())
            return 1;
        run::ParityOptions options;
        options.threads = threads;
        NullRunControl control;
        // The first run searches; later ones find the plans in the process-wide search memo (as the
        // points of a reproduction that differ only in HBM bandwidth do).
        double best = 1e300, first = 0, firstSearch = 0;
        run::ParityRun result;
        for (int r = 0; r < runs; ++r) {
            const auto start = std::chrono::steady_clock::now();
            result = run::runArtifactParity(resolved.spec, options, control);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (r == 0) {
                first = seconds;
                firstSearch = result.searchSeconds;
            }
            best = std::min(best, seconds);
        }
        std::printf("%s: parity run %.2f s cold (plan search %.2f s), %.2f s with the plans memoised (best of %d); "
                    "%d threads\n",
            chip, first, firstSearch, best, runs, threads);
        auto row = [](const char* label, const run::ParityRun& run) {
            std::printf("  %-24s", label);
            for (const run::ParityDesign& design : run.designs)
                std::printf(" %s %8.3f", schedule::toString(design.design), design.schedule ? design.latencyMs : -1.0);
            std::printf("\n");
        };
        row("parity", result);
        for (const std::string& quirk : run::parityQuirkNames()) {
            run::ParityOptions off = options;
            run::setParityQuirk(off.quirks, quirk, false);
            row(("without " + quirk).c_str(), run::runArtifactParity(resolved.spec, off, control));
        }
    }
    return 0;
}
