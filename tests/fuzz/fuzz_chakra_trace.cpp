// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A Chakra execution trace (protobuf, as ASTRA-sim reads it): decode; a decoded trace re-encodes to
// bytes that decode to the same encoding.
#include "engine/hlo/hlo_chakra.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace elk::hlo;
    const ChakraDecodeResult decoded = decodeChakraTrace(elk::fuzz::asText(data, size));
    if (!decoded.ok())
        return 0;
    const std::string encoded = encodeChakraTrace(decoded.trace);
    const ChakraDecodeResult again = decodeChakraTrace(encoded);
    ELK_FUZZ_CHECK(again.ok(), again.error);
    ELK_FUZZ_CHECK(encodeChakraTrace(again.trace) == encoded, "the trace does not round-trip");
    return 0;
}
