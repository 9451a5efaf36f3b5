// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Test helpers for the StableHLO flow: parse MLIR text (as users feed modules) and flatten it.

#include "engine/hlo/hlo_program.h"
#include "engine/hlo/hlo_reader.h"

#include <QString>

#include <memory>
#include <string>

namespace elk::hlo::test {

struct Flattened {
    std::unique_ptr<Module> module; ///< kept alive: the program points into it
    HloProgram program;
    std::string error; ///< read errors, empty when the text parsed
    bool ok() const { return module != nullptr; }
};

inline Flattened flattenParsed(ReadResult read, const FlattenOptions& options)
{
    Flattened out;
    if (!read.ok()) {
        out.error = read.errors.empty() ? "no module" : toString(read.errors.front());
        return out;
    }
    out.module = std::make_unique<Module>(std::move(read.modules.front()));
    out.program = flattenModule(*out.module, options);
    return out;
}

inline Flattened flattenText(const std::string& text, const FlattenOptions& options = {})
{
    return flattenParsed(readHloText(text, "test.mlir"), options);
}

inline Flattened flattenFile(const std::string& path, const FlattenOptions& options = {})
{
    return flattenParsed(readHloFile(path), options);
}

inline double totalTranscendentals(const HloProgram& program)
{
    double sum = 0;
    for (const FlatOp& op : program.ops)
        if (op.opClass == OpClass::Compute)
            sum += op.cost.transcendentals * op.executions;
    return sum;
}

/// The first flattened op whose name is `name` (nullptr: none).
inline const FlatOp* findOp(const HloProgram& program, const std::string& name)
{
    for (const FlatOp& op : program.ops)
        if (op.op->name == name)
            return &op;
    return nullptr;
}

inline int countOps(const HloProgram& program, const std::string& name)
{
    int count = 0;
    for (const FlatOp& op : program.ops)
        count += op.op->name == name ? 1 : 0;
    return count;
}

/// The in-repo StableHLO fixtures (tests/data/stablehlo: hespas, tt-mlir and stablehlo-testdata files
/// under their licences), always present.
inline QString fixtureDir()
{
    return QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo");
}

/// The whole shared corpus (../shared/corpus/stablehlo): optional, tests of it skip without it.
inline QString sharedCorpusDir()
{
    return QStringLiteral(ELK_SHARED_DIR "/corpus/stablehlo");
}

} // namespace elk::hlo::test
