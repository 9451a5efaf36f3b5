// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// StableHLO/MHLO text through the reader and everything a read module goes through in `elk hlo`:
// flattening (shardings, loops, costs), fusion and both slicing modes.
#include "engine/hlo/hlo_fusion.h"
#include "engine/hlo/hlo_program.h"
#include "engine/hlo/hlo_reader.h"
#include "engine/hlo/hlo_slice.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace elk::hlo;
    ReadResult read = readHloText(elk::fuzz::asText(data, size), "fuzz.mlir");
    for (const ReadError& error : read.errors)
        ELK_FUZZ_CHECK(!error.message.empty(), "an error without a message");
    for (Module& module : read.modules) {
        FlattenOptions flatten;
        flatten.deviceCount = 4;
        const HloProgram program = flattenModule(module, flatten);
        const FusionResult fusion = fuseProgram(program);
        for (SplitMode mode : { SplitMode::Linear, SplitMode::Dependency }) {
            SliceOptions slice;
            slice.mode = mode;
            const SliceResult slices = sliceProgram(program, fusion, slice);
            (void)computeFlopsOf(slices, fusion);
        }
    }
    return 0;
}
