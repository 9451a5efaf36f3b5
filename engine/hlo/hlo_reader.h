// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-written reader for MLIR text as StableHLO exports write it (import.md §4, hlo-design.md §2).
// Any well-formed op parses (the generic form is uniform); malformed text is an error located at
// `file:line:column: expected X, found Y`. Files split with `// -----` are read part by part.

#include "engine/hlo/hlo_module.h"

#include <string>
#include <string_view>
#include <vector>

namespace elk::hlo {

struct ReadError {
    std::string file;
    SourceLocation location;
    std::string message; ///< "expected ']', found 'x'"
    bool operator==(const ReadError&) const = default;
};

/// "file:line:column: message"
std::string toString(const ReadError& error);

struct ReadLimits {
    /// A tensor whose element count exceeds this (or overflows int64) is an error: "absurd shape".
    std::int64_t maxElementsPerTensor = std::int64_t(1) << 48;
    int maxNestingDepth = 256; ///< regions/attributes nested deeper are an error, not a stack overflow
};

struct ReadResult {
    /// One module per `// -----` part (one for an ordinary file). A part that failed is left out.
    std::vector<Module> modules;
    std::vector<ReadError> errors; ///< first error of each failed part
    std::vector<std::string> warnings; ///< "file:line:column: message"
    /// The text holds nothing but comments and white space (a valid file with no module, e.g. a test
    /// file of RUN lines): no error, no module, and a warning that says so.
    bool onlyComments = false;
    bool ok() const { return errors.empty() && !modules.empty(); }
};

/// Parses text; `sourceName` is used in messages. Never throws on malformed input.
ReadResult readHloText(std::string_view text, std::string sourceName, const ReadLimits& limits = {});
/// Reads the file (errors: "FILE: cannot open", not UTF-8 text...) and parses it.
ReadResult readHloFile(const std::string& path, const ReadLimits& limits = {});

} // namespace elk::hlo
