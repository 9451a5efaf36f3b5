// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX bytes through the whole importer (protobuf decode, checks, shapes, lowering to the Graph IR),
// with the usual free dims bound, as `elk run model.onnx --batch 1 --seq 8` would.
#include "engine/import/onnx_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    elk::import::ImportOptions options;
    options.dims.batch = 1;
    options.dims.seqLen = 8;
    options.dims.kvLen = 8;
    options.maxNodes = 20'000; // keeps one input fast; a larger file is refused with a message
    const elk::import::ImportResult result
        = elk::import::importOnnxBytes(elk::fuzz::asText(data, size), "fuzz.onnx", options);
    if (result.ok()) {
        const auto problems = result.graph.validate(); // what later stages rely on
        ELK_FUZZ_CHECK(problems.empty(), problems.front().message);
    } else {
        ELK_FUZZ_CHECK(!result.errors.front().message.empty(), "an error without a message");
    }
    return 0;
}
