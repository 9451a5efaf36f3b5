// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Graph IR JSON ("elk.graph/1", *.elk.json): parse, and a parsed graph writes back to the same text.
#include "engine/model/graph_json.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const elk::model::GraphParseResult parsed = elk::model::graphFromJson(elk::fuzz::asText(data, size));
    if (!parsed.ok())
        return 0;
    const std::string text = elk::model::graphToJson(parsed.graph);
    const elk::model::GraphParseResult again = elk::model::graphFromJson(text);
    ELK_FUZZ_CHECK(again.ok(), elk::model::toString(again.errors.front()));
    ELK_FUZZ_CHECK(elk::model::graphToJson(again.graph) == text, "the written graph reads back differently");
    return 0;
}
