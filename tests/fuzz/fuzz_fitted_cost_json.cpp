// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A fitted tile-cost model file (JSON written by `elk fit-cost`, loaded with --tile-cost): parse, and
// a parsed model writes back to the same text.
#include "engine/cost/fitted_cost.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const elk::cost::FittedCostParseResult parsed = elk::cost::fittedCostFromJson(elk::fuzz::asText(data, size));
    if (!parsed.ok())
        return 0;
    const std::string text = elk::cost::fittedCostToJson(parsed.data);
    const elk::cost::FittedCostParseResult again = elk::cost::fittedCostFromJson(text);
    ELK_FUZZ_CHECK(again.ok(), again.error);
    ELK_FUZZ_CHECK(elk::cost::fittedCostToJson(again.data) == text, "the written model reads back differently");
    return 0;
}
