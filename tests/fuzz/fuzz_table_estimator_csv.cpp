// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A measured kernel table (`elk hlo --estimator table:FILE.csv`): parse into an estimator.
#include "engine/hlo/hlo_estimator.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(elk::fuzz::asText(data, size));
    const elk::hlo::EstimatorResult result = elk::hlo::makeTableEstimatorFromText(text, "fuzz.csv");
    ELK_FUZZ_CHECK(result.ok() || !result.error.empty(), "refused without a message");
    return 0;
}
