// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What the result cache's payload codec costs (issue 20: the codec's size and speed, before and after
// a change of encoding). One real run per configuration (all designs, with detail), then each
// payload encoded and decoded N times: bytes, and the median seconds.
//   bench_payload [--runs N] [--model NAME] [--chip PRESET]...   (default: llama2-13 on ipu-pod4-hbm
//   and on ipu-pod4-hbm-mesh)
#include "engine/run/run_compile.h"
#include "engine/store/payload_codec.h"
#include "engine/store/result_store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace elk;

namespace {

template <typename F> double medianSeconds(int runs, F&& work)
{
    std::vector<double> seconds;
    for (int r = 0; r < runs; ++r) {
        const auto begin = std::chrono::steady_clock::now();
        work();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
    }
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
}

bool benchOne(const std::string& model, const std::string& chip, int runs)
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    const run::RunSpecResult resolved = run::resolveRunSpec(request);
    if (!resolved.ok()) {
        std::fprintf(stderr, "%s\n", resolved.errors.front().message.c_str());
        return false;
    }
    NullRunControl control;
    const run::RunResult result = run::runCached(resolved.spec, nullptr, control, 0, nullptr, true);
    if (!result.ok()) {
        std::fprintf(stderr, "run failed\n");
        return false;
    }
    const run::PartitionTables tables = run::partitionTablesOf(*result.compiled);
    std::string tablesPayload, detailPayload, summaryPayload;
    const double encodeTables
        = medianSeconds(runs, [&] { tablesPayload = store::detail::encodePartitionTables(tables); });
    const double decodeTables = medianSeconds(runs, [&] {
        if (!store::detail::decodePartitionTables(tablesPayload))
            std::abort();
    });
    const double encodeDetail
        = medianSeconds(runs, [&] { detailPayload = store::detail::encodeDesigns(result.designs, true); });
    const double decodeDetail = medianSeconds(runs, [&] {
        if (!store::detail::decodeDesigns(detailPayload))
            std::abort();
    });
    const double encodeSummary
        = medianSeconds(runs, [&] { summaryPayload = store::detail::encodeDesigns(result.designs, false); });
    const double decodeSummary = medianSeconds(runs, [&] {
        if (!store::detail::decodeDesigns(summaryPayload))
            std::abort();
    });
    std::printf("%s on %s (median of %d):\n", model.c_str(), chip.c_str(), runs);
    std::printf("  partition tables  %10zu bytes  encode %8.4f s  decode %8.4f s\n", tablesPayload.size(), encodeTables,
        decodeTables);
    std::printf("  designs, detail   %10zu bytes  encode %8.4f s  decode %8.4f s\n", detailPayload.size(), encodeDetail,
        decodeDetail);
    std::printf("  designs, summary  %10zu bytes  encode %8.4f s  decode %8.4f s\n", summaryPayload.size(),
        encodeSummary, decodeSummary);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    std::string model = "llama2-13b";
    std::vector<std::string> chips;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--model"))
            model = argv[i + 1];
        else if (!std::strcmp(argv[i], "--chip"))
            chips.push_back(argv[i + 1]);
    }
    if (chips.empty())
        chips = { "ipu-pod4-hbm", "ipu-pod4-hbm-mesh" };
    for (const std::string& chip : chips) {
        if (!benchOne(model, chip, runs))
            return 1;
    }
    return 0;
}
