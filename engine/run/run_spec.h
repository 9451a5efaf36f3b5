// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::run {

using chip::FieldError;

/// Which pass over the model one run simulates.
enum class Phase {
    Decode, ///< one generation step: seqLen new tokens per sequence attend to kvLen cached ones
    Prefill, ///< the prompt pass: seqLen tokens per sequence (after kvLen cached ones, chunked prefill)
    Train, ///< a forward training pass over seqLen tokens; no KV cache
};

const char* toString(Phase phase); ///< "decode" | "prefill" | "train"
std::optional<Phase> phaseFromString(std::string_view text);

/// Scheduling designs in canonical order: basic, static, elk-dyn, elk-full, ideal.
const std::vector<std::string>& knownDesigns();
/// Model formats the importers read: onnx, stablehlo, elk-graph (the Graph IR's own "elk.graph/1" JSON),
/// einstein-v2 (NNFusion's graph JSON).
const std::vector<std::string>& knownModelFormats();
/// Format from the file extension (".onnx" → onnx, ".mlir" → stablehlo, ".elk.json" → elk-graph,
/// other ".json" → einstein-v2), or nothing.
std::optional<std::string> modelFormatFromPath(std::string_view path);

inline constexpr std::int64_t kMaxBatch = 1 << 16;
inline constexpr std::int64_t kMaxTokens = 1 << 20; ///< bound of seqLen and kvLen

/// The model a run uses. Identity is the content hash; the path is kept to say where it came from.
struct ModelRef {
    std::string path; ///< as the user gave it; "bundled:NAME" for a bundled model (built in memory)
    std::string sha256; ///< lower-case hex SHA-256 of the file's bytes
    std::string format; ///< one of knownModelFormats()
    bool operator==(const ModelRef&) const = default;
};

/// Knobs shared by every design: a design differs only in its decisions, never in these.
struct RunOptions {
    /// θ: a preload takes at least (NoC delivery time / θ), i.e. preload traffic may fill at most
    /// this fraction of a core's ingress port; the rest is left to the executing op. 0 < θ ≤ 1.
    double preloadNocThreshold = 0.9;
    /// κ: ingress bandwidth per core that preload data may use, GB/s (1 GB = 1e9 bytes).
    /// 0 < κ ≤ the chip's interconnect.linkBandwidthGBpsPerCore; resolveRunSpec defaults it to that.
    double preloadIngressGBpsPerCore = 0;
    /// true: an executing op whose inter-core traffic does not fit the NoC idle time left by
    /// concurrent preloads is delayed; false: the preloads are moved earlier instead.
    bool delayCompute = true;
    /// Seed of every randomised choice (search tie-breaks, sampling); recorded so runs reproduce.
    std::uint64_t seed = 0;
    bool operator==(const RunOptions&) const = default;
};

/// Everything one run depends on, fully resolved (no preset names, no defaults left to fill).
/// Contract: the engine only runs a RunSpec for which validateRunSpec() returned no errors.
struct RunSpec {
    static constexpr int kSchemaVersion = 1; ///< JSON "schema": "elk.runspec/1"

    ModelRef model;
    std::int64_t batch = 1; ///< sequences processed together
    std::int64_t seqLen = 1; ///< new tokens per sequence in this pass (prefill: prompt length)
    std::int64_t kvLen = 0; ///< tokens already in the KV cache per sequence (decode: ≥ 1; train: 0)
    Phase phase = Phase::Decode;
    /// Free dims of the model file bound by name (`--dim NAME=VALUE`), and whole input shapes
    /// (`--input-shape INPUT=d0,d1,...`, for unnamed dims too); part of the hash when given.
    std::map<std::string, std::int64_t> dims;
    std::map<std::string, std::vector<std::int64_t>> inputShapes;
    chip::ChipSpec chip;
    std::vector<std::string> designs; ///< from knownDesigns(), order kept, no duplicates
    RunOptions options;
    std::string engineVersion; ///< elk::kEngineVersion of the engine that resolved the spec

    bool operator==(const RunSpec&) const = default;
};

/// Canonical JSON text: compact (no whitespace outside strings), keys sorted, integral numbers
/// written as integers, other doubles in shortest round-trip form. This text is what gets hashed
/// and stored. Throws std::invalid_argument on NaN or infinity (validateRunSpec rejects them).
std::string runSpecToCanonicalJson(const RunSpec& spec);

/// Lower-case hex SHA-256 of runSpecToCanonicalJson(spec): the result cache key.
std::string runSpecHash(const RunSpec& spec);

struct RunSpecParseResult {
    RunSpec spec;
    std::vector<FieldError> errors; ///< empty on success
    bool ok() const { return errors.empty(); }
};

/// Parses "elk.runspec/1" JSON. Syntax errors have `field` = "line L, column C"; other errors name
/// the JSON pointer (chip errors under "/chip"). Unknown keys, missing keys, wrong types and unknown
/// enum values are errors. Does not run validateRunSpec().
RunSpecParseResult runSpecFromJson(std::string_view jsonText);

/// Checks every field (the chip through chip::validateChipSpec, its pointers prefixed by "/chip").
/// Returns all errors, each naming field, value and what is allowed.
std::vector<FieldError> validateRunSpec(const RunSpec& spec);

/// What a user asks for; resolveRunSpec() turns it into a RunSpec.
struct RunRequest {
    std::string modelPath;
    /// A built-in preset name, or the path of a chip JSON file (taken as a path when it names no
    /// preset).
    std::string chip;
    /// "field=value" changes to the chip JSON. `field` is dotted ("interconnect.meshWidth") or a JSON
    /// pointer ("/hbm/stacksPerChip"); `value` is JSON (a bare word is taken as a string).
    std::vector<std::string> chipOverrides;
    Phase phase = Phase::Decode;
    std::optional<std::int64_t> batch; ///< default 1
    std::optional<std::int64_t> seqLen; ///< default: decode 1, prefill and train 2048
    std::optional<std::int64_t> kvLen; ///< default: decode 2048, prefill and train 0
    std::map<std::string, std::int64_t> dims; ///< RunSpec::dims
    std::map<std::string, std::vector<std::int64_t>> inputShapes; ///< RunSpec::inputShapes
    std::vector<std::string> designs; ///< empty: every known design
    std::optional<double> preloadNocThreshold; ///< default RunOptions{}
    std::optional<double> preloadIngressGBpsPerCore; ///< default: the chip's link bandwidth per core
    std::optional<bool> delayCompute; ///< default RunOptions{}
    std::optional<std::uint64_t> seed; ///< default 0
};

struct RunSpecResult {
    RunSpec spec;
    std::vector<FieldError> errors; ///< empty on success; then `spec` is valid
    bool ok() const { return errors.empty(); }
};

struct ChipResolveResult {
    chip::ChipSpec spec;
    std::vector<FieldError> errors; ///< fields are "/chip/..." pointers
    bool ok() const { return errors.empty(); }
};

/// Loads a preset or chip file and applies the overrides; does not validate the result.
/// Errors name the file (and line, column or field) or the override and its field.
ChipResolveResult resolveChip(const std::string& presetOrFile, const std::vector<std::string>& overrides);

/// Hashes the model file, resolves the chip, fills defaults and validates the whole spec.
RunSpecResult resolveRunSpec(const RunRequest& request);

} // namespace elk::run
