// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A cached partition-table payload (SQLite result cache): decode; a decoded payload round-trips.
#include "engine/store/payload_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace elk::store::detail;
    const auto tables = decodePartitionTables(elk::fuzz::asText(data, size));
    if (!tables)
        return 0;
    const std::string encoded = encodePartitionTables(*tables);
    const auto again = decodePartitionTables(encoded);
    ELK_FUZZ_CHECK(again.has_value(), "a re-encoded payload does not decode");
    ELK_FUZZ_CHECK(encodePartitionTables(*again) == encoded, "the payload does not round-trip");
    return 0;
}
