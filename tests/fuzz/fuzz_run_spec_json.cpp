// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Run-spec JSON ("elk.runspec/1", `elk run --spec`): parse and validate; a valid spec's canonical
// text (the cache key's input) parses back to the same text.
#include "engine/run/run_spec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const elk::run::RunSpecParseResult parsed = elk::run::runSpecFromJson(elk::fuzz::asText(data, size));
    if (!parsed.ok() || !elk::run::validateRunSpec(parsed.spec).empty())
        return 0;
    const std::string canonical = elk::run::runSpecToCanonicalJson(parsed.spec);
    const elk::run::RunSpecParseResult again = elk::run::runSpecFromJson(canonical);
    ELK_FUZZ_CHECK(again.ok(), again.errors.front().field + ": " + again.errors.front().message);
    ELK_FUZZ_CHECK(
        elk::run::runSpecToCanonicalJson(again.spec) == canonical, "the canonical spec reads back differently");
    ELK_FUZZ_CHECK(elk::run::runSpecHash(again.spec) == elk::run::runSpecHash(parsed.spec), "the cache key changed");
    return 0;
}
