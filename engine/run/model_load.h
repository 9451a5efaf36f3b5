// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/import_result.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph.h"
#include "engine/run/run_spec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::run {

/// A RunSpec's model path for a bundled model: "bundled:llama2-13b".
inline constexpr std::string_view kBundledPrefix = "bundled:";

/// The bundled model a path names ("llama2-13b" or "bundled:llama2-13b"), or nothing.
std::optional<std::string> bundledModelName(std::string_view pathOrName);

import::ModelPhase toModelPhase(Phase phase);

/// The step a model file's symbolic dims are bound for.
struct ModelStep {
    Phase phase = Phase::Decode;
    std::int64_t batch = 1;
    std::int64_t seqLen = 1; ///< new tokens per sequence
    std::int64_t kvLen = 0; ///< cached tokens per sequence (0: none)
    std::map<std::string, std::int64_t> dims; ///< free dims bound by name
    std::map<std::string, std::vector<std::int64_t>> inputShapes; ///< whole input shapes by input name
    /// Polled by the importers (between passes, every few hundred nodes); null: never stops.
    const RunControl* control = nullptr;
};

/// What one step of a model is, in words: "decode, batch 32, 1 new token(s) over a KV cache of 2048"
/// for a model with KV-cache inputs; a decode-phase model without any (a CNN, an encoder) is "one
/// inference pass, batch 1" — the LLM wording only where a KV cache exists.
std::string describeStep(const ModelStep& step, bool hasKvCache);
/// Whether the step reads a KV cache: a tensor has the KV-cache role, or (`kvLen` > 1) a graph input
/// has an axis of the KV length (formats without roles, e.g. an einstein_v2 attention op whose cache
/// is a plain input).
bool hasKvCache(const model::Graph& graph, std::int64_t kvLen = 0);

struct LoadedModel {
    model::Graph graph; ///< validated
    std::string description; ///< "bundled Llama-2-13B, decode, batch 32, ..." or the path and step
    /// A bundled model's parameter count from its architecture (the graph's weight tensors may hold
    /// tied copies); nothing for a file.
    std::optional<std::int64_t> declaredParams;
    std::vector<std::string> warnings; ///< "FILE: location: message"
};

struct ModelLoadResult {
    std::optional<LoadedModel> model;
    std::vector<std::string> errors; ///< "FILE: location: message", every problem found
    /// Input dims no binding gave a size (each is also among the errors): what a form would ask for.
    std::vector<import::FreeDim> freeDims;
    bool stopped = false; ///< ModelStep::control asked to stop (errors say so too)
    bool ok() const { return model.has_value(); }
};

/// Imports a model file (format by extension: .onnx, .elk.json, other .json = einstein_v2) or a
/// bundled model (by name or "bundled:NAME") for `step`, and validates the graph. An elk.graph file
/// has fixed shapes: `step` is not applied to it.
ModelLoadResult loadModel(const std::string& pathOrName, const ModelStep& step);

/// The model of a resolved RunSpec, bound to its phase, batch, sequence and KV lengths.
ModelLoadResult loadRunModel(const RunSpec& spec, const RunControl* control = nullptr);

} // namespace elk::run
