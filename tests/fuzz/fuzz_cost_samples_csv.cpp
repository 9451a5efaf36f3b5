// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Measured tile-cost samples (`elk fit-cost SAMPLES.csv`): parse; when it parses, fit a model on it.
#include "engine/cost/fitted_cost.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const elk::cost::CostSamplesResult parsed
        = elk::cost::parseCostSamplesCsv(elk::fuzz::asText(data, size), "fuzz.csv");
    if (!parsed.ok() || parsed.samples.size() > 2'000)
        return 0;
    elk::cost::FitOptions options;
    const elk::cost::FittedCostData fitted = elk::cost::fitCostModel(parsed.samples, options);
    const elk::cost::FittedCostParseResult again = elk::cost::fittedCostFromJson(elk::cost::fittedCostToJson(fitted));
    ELK_FUZZ_CHECK(again.ok(), again.error);
    return 0;
}
