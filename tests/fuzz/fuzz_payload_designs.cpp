// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A cached run payload (a row of the SQLite result cache, which any process or a damaged disk may
// have written): decode; a decoded payload re-encodes to bytes that decode to the same encoding.
#include "engine/store/payload_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace elk::store::detail;
    const auto designs = decodeDesigns(elk::fuzz::asText(data, size));
    if (!designs)
        return 0;
    const std::string encoded = encodeDesigns(*designs, true);
    const auto again = decodeDesigns(encoded);
    ELK_FUZZ_CHECK(again.has_value(), "a re-encoded payload does not decode");
    ELK_FUZZ_CHECK(encodeDesigns(*again, true) == encoded, "the payload does not round-trip");
    return 0;
}
