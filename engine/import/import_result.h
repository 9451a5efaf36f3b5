// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/model/graph.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace elk::import {

/// Values for the symbolic dimensions of a model file. `batch`, `seqLen` and `kvLen` bind the
/// conventional names (batch: "batch", "batch_size", "N", "B"; new tokens: "seq", "sequence",
/// "seq_len", "sequence_length", "T"; cached tokens: "past", "past_len", "kv_len",
/// "past_sequence_length", "P"); `named` binds any other dim_param by its exact name and wins
/// over the conventional bindings. A dim_param that is an expression of names ("past + seq",
/// "batch * seq") takes the value the expression gives.
struct DimBindings {
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> seqLen;
    std::optional<std::int64_t> kvLen;
    std::map<std::string, std::int64_t> named;
    /// Whole shapes of graph inputs by input name (`--input-shape x=1,3,640,640`): they bind every
    /// dim of that input, named or unnamed; a dim the file fixes must agree.
    std::map<std::string, std::vector<std::int64_t>> inputShapes;
};

/// The error every importer records when ImportOptions::control stops it.
inline constexpr const char* kStoppedMessage = "stopped before the import finished";

struct ImportOptions {
    DimBindings dims;
    /// Upper bounds the rest of the engine relies on; a file beyond them is refused, not truncated.
    std::int64_t maxNodes = 1'000'000;
    /// Rank of the model's tensors. A Graph IR tensor may have up to twice as many axes: the ONNX
    /// importer splits stored axes where reshapes regroup them ([B, S, 4096] read as heads is
    /// stored as [B, S, 32, 128]).
    int maxRank = 8;
    /// ONNX import: also run ONNX 1.12's shape inference (opset <= 17) and warn wherever its shapes
    /// differ from the importer's own rules (a self-check for tests; costs time on large graphs).
    bool crossCheckShapes = false;
    /// Integer graph inputs whose values are fixed at import time (a window length or a position
    /// passed as a tensor), by input name, row-major. Shape arithmetic on them folds.
    std::map<std::string, std::vector<std::int64_t>> inputValues;
    /// Polled between passes and every few hundred nodes: when it asks to stop, the import ends with
    /// ImportResult::stopped (and an error saying so). Null: never stops.
    const RunControl* control = nullptr;
};

/// One problem, located as precisely as the format allows.
struct ImportIssue {
    std::string location; ///< "node 'name' (OpType, domain)", "line L, column C", "/nodes/3", or "" for the file
    std::string message; ///< what was found and what was expected
    bool operator==(const ImportIssue&) const = default;
};

/// A dim of a graph input that no binding gives a size, for a form that asks the user for it.
struct FreeDim {
    std::string input; ///< the graph input
    int axis = 0;
    std::string name; ///< the file's dim_param; empty for an unnamed dim
    std::vector<std::int64_t> fileShape; ///< the input's shape as the file gives it, 0 where free
    std::int64_t suggested = 1; ///< a size to start from (see suggestedSize), not a claim
};

/// What an importer returns. On errors the graph is unspecified (possibly partial) and must not be used.
struct ImportResult {
    model::Graph graph;
    std::vector<ImportIssue> errors; ///< non-empty: the import failed
    std::vector<ImportIssue> warnings; ///< the import succeeded, but something was approximated
    std::vector<FreeDim> freeDims; ///< unbound input dims (each also an error), in input and axis order
    bool stopped
        = false; ///< ImportOptions::control asked to stop: not a fault of the file (errors say kStoppedMessage)
    bool ok() const { return errors.empty(); }
};

/// A starting size for a free dim: the run's batch for a leading or batch-named dim, the run's
/// sequence length for a sequence-named one, 224 for the height / width of an image input
/// [N, C <= 4, H, W] (the usual classifier size), else 1.
std::int64_t suggestedSize(const std::string& name, int axis, const std::vector<std::int64_t>& fileShape,
    std::int64_t batch, std::int64_t seqLen);

/// Bindings that give every free dim its size: named dims by name, an input with an unnamed dim by
/// its whole shape (the file's sizes where it has them).
DimBindings bindFreeDims(const std::vector<FreeDim>& dims, const std::vector<std::int64_t>& sizes);

/// "FILE: location: message" (location omitted when empty).
std::string toString(const std::string& file, const ImportIssue& issue);

} // namespace elk::import
