// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/model_load.h"

#include "engine/import/einstein_importer.h"
#include "engine/import/onnx_importer.h"
#include "engine/model/graph_json.h"

#include <algorithm>
#include <filesystem>

namespace elk::run {

namespace {

    import::ImportOptions optionsFor(const ModelStep& step){ import::ImportOptions options;
    options.dims.batch = step.batch;
    options.dims.seqLen = step.seqLen;
    if (step.kvLen > 0)
        options.dims.kvLen = step.kvLen;
    options.dims.named = step.dims;
    options.dims.inputShapes = step.inputShapes;
    options.control = step.control;
    return options;
}

/// Moves a finished import into `out`, or its errors; the description is `prefix` and the step.
void takeImport(import::ImportResult&& imported, const std::string& file, ModelLoadResult& out,
    const std::string& prefix, const ModelStep& step, std::optional<std::int64_t> declaredParams = std::nullopt)
{
    for (const import::ImportIssue& issue : imported.errors)
        out.errors.push_back(import::toString(file, issue));
    out.stopped = imported.stopped;
    out.freeDims = std::move(imported.freeDims);
    if (!imported.ok())
        return;
    std::string description = prefix + describeStep(step, hasKvCache(imported.graph, step.kvLen));
    LoadedModel loaded { std::move(imported.graph), std::move(description), declaredParams, {} };
    for (const import::ImportIssue& issue : imported.warnings)
        loaded.warnings.push_back(import::toString(file, issue));
    out.model = std::move(loaded);
}

} // namespace

bool hasKvCache(const model::Graph& graph, std::int64_t kvLen)
{
    for (const model::Tensor& tensor : graph.tensors()) {
        if (tensor.role == model::TensorRole::KvCache)
            return true;
    }
    if (kvLen <= 1)
        return false;
    // An attention product: a matmul of two activations, one of them a graph input with an axis of
    // the KV length (the cache read as a plain input).
    for (model::OpId id = 0; id < model::OpId(graph.ops().size()); ++id) {
        const model::Op& op = graph.op(id);
        if (graph.exprOf(id).kind != model::OpKind::MatMul || op.tensors.size() != 3)
            continue;
        bool activations = true, cacheShaped = false;
        for (std::size_t v = 1; v < op.tensors.size(); ++v) {
            const model::Tensor& input = graph.tensor(op.tensors[v]);
            activations = activations && input.role == model::TensorRole::Activation;
            cacheShaped = cacheShaped
                || (!input.producer && std::find(input.shape.begin(), input.shape.end(), kvLen) != input.shape.end());
        }
        if (activations && cacheShaped)
            return true;
    }
    return false;
}

std::string describeStep(const ModelStep& step, bool kvCache)
{
    if (step.phase == Phase::Decode && !kvCache)
        return "one inference pass, batch " + std::to_string(step.batch);
    std::string text = std::string(toString(step.phase)) + ", batch " + std::to_string(step.batch);
    if (step.phase == Phase::Decode)
        return text + ", " + std::to_string(step.seqLen) + " new token(s) over a KV cache of "
            + std::to_string(step.kvLen);
    text += ", " + std::to_string(step.seqLen) + " tokens";
    if (step.kvLen > 0)
        text += " after " + std::to_string(step.kvLen) + " cached";
    return text;
}

std::optional<std::string> bundledModelName(std::string_view pathOrName)
{
    std::string name(pathOrName.substr(0, kBundledPrefix.size()) == kBundledPrefix
            ? pathOrName.substr(kBundledPrefix.size())
            : pathOrName);
    if (import::bundledModelConfig(name))
        return name;
    return std::nullopt;
}

import::ModelPhase toModelPhase(Phase phase){ switch (phase){ case Phase::Decode: return import::ModelPhase::Decode;
case Phase::Prefill:
return import::ModelPhase::Prefill;
case Phase::Train:
return import::ModelPhase::Train;
}
return import::ModelPhase::Decode;
}

ModelLoadResult loadModel(const std::string& pathOrName, const ModelStep& step)
{
    ModelLoadResult result;
    std::error_code error;
    const bool exists = std::filesystem::exists(pathOrName, error);
    if (!exists) {
        if (const auto name = bundledModelName(pathOrName)) {
            const import::TransformerConfig config = *import::bundledModelConfig(*name);
            const import::ModelPhase phase = toModelPhase(step.phase);
            const auto phases = import::supportedPhases(config);
            if (std::find(phases.begin(), phases.end(), phase) == phases.end()) {
                result.errors.push_back(*name + ": has no " + toString(step.phase) + " phase");
                return result;
            }
            const std::string bytes = import::buildTransformerOnnx(config, phase);
            if (step.control && step.control->stopRequested()) {
                result.errors.push_back(*name + ": " + import::kStoppedMessage);
                result.stopped = true;
                return result;
            }
            takeImport(import::importOnnxBytes(bytes, config.name, optionsFor(step)), *name + " (bundled)", result,
                "bundled " + config.title + ", ", step, import::parameterCount(config));
        } else {
            std::string names;
            for (const std::string& bundled : import::bundledModelNames())
                names += (names.empty() ? "" : ", ") + bundled;
            result.errors.push_back(pathOrName + ": no such file, and not a bundled model (" + names + ")");
            return result;
        }
    } else if (std::filesystem::is_directory(pathOrName, error)) {
        result.errors.push_back(pathOrName + ": is a directory; expected a model file");
        return result;
    } else if (pathOrName.ends_with(".elk.json")) {
        model::GraphParseResult parsed = model::loadGraphFile(pathOrName);
        for (const model::GraphParseError& parseError : parsed.errors)
            result.errors.push_back(pathOrName + ": " + model::toString(parseError));
        if (parsed.ok())
            result.model = LoadedModel { std::move(parsed.graph), pathOrName + " (fixed shapes)", std::nullopt, {} };
    } else if (pathOrName.ends_with(".onnx")) {
        takeImport(import::importOnnxFile(pathOrName, optionsFor(step)), pathOrName, result, pathOrName + ", ", step);
    } else if (pathOrName.ends_with(".json")) {
        if (step.phase == Phase::Train) {
            result.errors.push_back(pathOrName
                + ": an einstein_v2 graph is a forward pass; a training step needs an ONNX or bundled model");
            return result;
        }
        takeImport(import::importEinsteinFile(pathOrName, optionsFor(step)), pathOrName, result,
            pathOrName + ", einstein_v2, ", step);
    } else {
        result.errors.push_back(pathOrName
            + ": unknown model format; expected .onnx, .elk.json, an einstein_v2 .json, or a bundled model name");
        return result;
    }
    if (!result.model)
        return result;
    for (const model::GraphError& graphError : result.model->graph.validate())
        result.errors.push_back(pathOrName + ": " + model::toString(graphError));
    if (!result.errors.empty())
        result.model.reset();
    return result;
}

ModelLoadResult loadRunModel(const RunSpec& spec, const RunControl* control)
{
    ModelStep step { spec.phase, spec.batch, spec.seqLen, spec.kvLen, spec.dims, spec.inputShapes, control };
    return loadModel(spec.model.path, step);
}

} // namespace elk::run
