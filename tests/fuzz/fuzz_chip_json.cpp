// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Chip JSON (a user's chip file or an edited preset): parse, validate, and a parsed chip writes back
// to text that parses to the same chip.
#include "engine/chip/chip_spec_json.h"
#include "engine/chip/chip_validate.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const elk::chip::ChipParseResult parsed = elk::chip::chipSpecFromJson(elk::fuzz::asText(data, size));
    if (!parsed.ok())
        return 0;
    (void)elk::chip::validateChipSpec(parsed.spec);
    const std::string text = elk::chip::chipSpecToJson(parsed.spec);
    const elk::chip::ChipParseResult again = elk::chip::chipSpecFromJson(text);
    ELK_FUZZ_CHECK(again.ok(), again.errors.front().field + ": " + again.errors.front().message);
    ELK_FUZZ_CHECK(elk::chip::chipSpecToJson(again.spec) == text, "the written chip reads back differently");
    return 0;
}
