// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Measured step times to validate against (`elk hlo validate --reference FILE.csv`): parse.
#include "engine/hlo/hlo_validate.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(elk::fuzz::asText(data, size));
    const elk::hlo::ReferenceTable table = elk::hlo::parseReferenceCsv(text, "fuzz.csv");
    for (const std::string& error : table.errors)
        ELK_FUZZ_CHECK(!error.empty(), "an empty error");
    return 0;
}
