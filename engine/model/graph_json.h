// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace elk::model {

/// One problem with a graph file. `location` is "line L, column C" for a syntax error (line and
/// column are then also set, 1-based), a JSON pointer such as "/ops/3/operands/1/axes/0" for a
/// field error, or the file path for an I/O error.
struct GraphParseError {
    std::string location;
    std::string message;
    int line = 0;
    int column = 0;
    bool operator==(const GraphParseError&) const = default;
};

struct GraphParseResult {
    Graph graph; ///< meaningful only when ok()
    std::vector<GraphParseError> errors;
    bool ok() const { return errors.empty(); }
};

inline constexpr const char* kGraphSchema = "elk.graph/1";

/// Reads "elk.graph/1" JSON text (format: sample_models/README.md). Unknown, missing and
/// duplicated keys, wrong types, unknown dtypes/roles/kinds, references to undeclared tensors
/// and out-of-range dim indices are errors; all of them are reported, not just the first. Operand
/// dtypes and roles come from the tensors. Does not run Graph::validate() (shapes, cycles, ...).
GraphParseResult graphFromJson(std::string_view jsonText);

/// Reads a file (at most 256 MiB) with graphFromJson(); an unreadable file gives one error whose
/// location is the path.
GraphParseResult loadGraphFile(const std::string& path);

/// Deterministic, readable JSON (one tensor, dim or operand per line). For a graph whose operands
/// agree with their tensors in dtype and role (validate() checks it),
/// graphFromJson(graphToJson(g)).graph == g, and graphToJson of that is the same text.
std::string graphToJson(const Graph& graph);

/// "location: message" (just the message when there is no location).
std::string toString(const GraphParseError& error);

} // namespace elk::model
