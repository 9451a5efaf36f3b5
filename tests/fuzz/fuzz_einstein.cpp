// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// einstein_v2 JSON (the Elk artifact's model format) through the importer and its lowering.
#include "engine/import/einstein_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    elk::import::ImportOptions options;
    options.maxNodes = 20'000;
    const elk::import::ImportResult result
        = elk::import::importEinsteinText(elk::fuzz::asText(data, size), "fuzz.json", options);
    if (result.ok()) {
        const auto problems = result.graph.validate();
        ELK_FUZZ_CHECK(problems.empty(), problems.front().message);
    } else {
        ELK_FUZZ_CHECK(!result.errors.front().message.empty(), "an error without a message");
    }
    return 0;
}
