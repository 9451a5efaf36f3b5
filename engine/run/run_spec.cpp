// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/run_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/chip/chip_validate.h"
#include "engine/core/sha256.h"

namespace elk::run {

const char* toString(Phase phase)
{
    switch (phase) {
    case Phase::Decode:
        return "decode";
    case Phase::Prefill:
        return "prefill";
    case Phase::Train:
        return "train";
    }
    return "?";
}

std::optional<Phase> phaseFromString(std::string_view text)
{
    for (Phase phase : { Phase::Decode, Phase::Prefill, Phase::Train }) {
        if (text == toString(phase))
            return phase;
    }
    return std::nullopt;
}

const std::vector<std::string>& knownDesigns()
{
    static const std::vector<std::string> designs = { "basic", "static", "elk-dyn", "elk-full", "ideal" };
    return designs;
}

const std::vector<std::string>& knownModelFormats()
{
    static const std::vector<std::string> formats = { "onnx", "stablehlo", "elk-graph", "einstein-v2" };
    return formats;
}

std::optional<std::string> modelFormatFromPath(std::string_view path)
{
    if (path.ends_with(".onnx"))
        return "onnx";
    if (path.ends_with(".mlir"))
        return "stablehlo";
    if (path.ends_with(".elk.json"))
        return "elk-graph";
    if (path.ends_with(".json")) // any other JSON model is an NNFusion einstein_v2 graph
        return "einstein-v2";
    return std::nullopt;
}

namespace {

    std::string numberText(double value)
    {
        char buffer[64];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
        return std::string(buffer, result.ptr);
    }

    std::string joined(const std::vector<std::string>& items)
    {
        std::string text;
        for (const std::string& item : items)
            text += (text.empty() ? "" : ", ") + item;
        return text;
    }

    void checkRange(std::vector<FieldError>& errors, const char* field, std::int64_t value, std::int64_t min,
        std::int64_t max, const char* what)
    {
        if (value < min || value > max) {
            errors.push_back({ field,
                std::to_string(value) + " is out of range; expected " + what + " from " + std::to_string(min) + " to "
                    + std::to_string(max) });
        }
    }

    void checkOptions(std::vector<FieldError>& errors, const RunSpec& spec)
    {
        const RunOptions& options = spec.options;
        // Written as !(inside) so that NaN fails too.
        if (!(options.preloadNocThreshold > 0 && options.preloadNocThreshold <= 1)) {
            errors.push_back({ "/options/preloadNocThreshold",
                numberText(options.preloadNocThreshold) + " is out of range; expected 0 < θ ≤ 1" });
        }
        const double linkGBps = spec.chip.interconnect.linkBandwidthGBpsPerCore;
        if (!(options.preloadIngressGBpsPerCore > 0 && std::isfinite(options.preloadIngressGBpsPerCore))) {
            errors.push_back({ "/options/preloadIngressGBpsPerCore",
                numberText(options.preloadIngressGBpsPerCore) + " GB/s is out of range; expected a finite κ > 0" });
        } else if (options.preloadIngressGBpsPerCore > linkGBps) {
            errors.push_back({ "/options/preloadIngressGBpsPerCore",
                numberText(options.preloadIngressGBpsPerCore) + " GB/s exceeds the chip's link bandwidth per core ("
                    + numberText(linkGBps) + " GB/s); expected 0 < κ ≤ " + numberText(linkGBps) });
        }
    }

} // namespace

std::vector<FieldError> validateRunSpec(const RunSpec& spec)
{
    std::vector<FieldError> errors;

    // Fields in the order of the canonical JSON, so messages come out in a predictable order.
    checkRange(errors, "/batch", spec.batch, 1, kMaxBatch, "a batch size");
    for (const auto& [name, size] : spec.dims) {
        if (name.empty())
            errors.push_back({ "/dims", "a dim binding has an empty name" });
        checkRange(errors, ("/dims/" + name).c_str(), size, 1, std::int64_t(1) << 40, "a dim size");
    }
    for (const auto& [name, shape] : spec.inputShapes) {
        if (name.empty())
            errors.push_back({ "/inputShapes", "an input shape has an empty input name" });
        if (shape.empty())
            errors.push_back({ "/inputShapes/" + name, "the shape has no dims" });
        for (std::size_t d = 0; d < shape.size(); ++d)
            checkRange(errors, ("/inputShapes/" + name + "/" + std::to_string(d)).c_str(), shape[d], 1,
                std::int64_t(1) << 40, "a dim size");
    }
    for (const FieldError& error : chip::validateChipSpec(spec.chip))
        errors.push_back({ "/chip" + error.field, error.message });

    std::vector<std::string> seen;
    if (spec.designs.empty())
        errors.push_back({ "/designs", "no design given; expected at least one of " + joined(knownDesigns()) });
    for (std::size_t i = 0; i < spec.designs.size(); ++i) {
        const std::string& design = spec.designs[i];
        const std::string field = "/designs/" + std::to_string(i);
        const auto& known = knownDesigns();
        if (std::find(known.begin(), known.end(), design) == known.end())
            errors.push_back({ field, "unknown design '" + design + "'; expected one of " + joined(known) });
        else if (std::find(seen.begin(), seen.end(), design) != seen.end())
            errors.push_back({ field, "design '" + design + "' is listed twice" });
        seen.push_back(design);
    }

    if (spec.engineVersion.empty())
        errors.push_back({ "/engineVersion", "empty; expected the version of the engine that resolved the spec" });

    checkRange(errors, "/kvLen", spec.kvLen, 0, kMaxTokens, "a KV cache length in tokens");
    if (spec.phase == Phase::Decode && spec.kvLen < 1)
        errors.push_back({ "/kvLen", std::to_string(spec.kvLen) + ": a decode step needs a KV cache length ≥ 1" });
    if (spec.phase == Phase::Train && spec.kvLen != 0)
        errors.push_back({ "/kvLen", std::to_string(spec.kvLen) + ": a training pass has no KV cache; expected 0" });

    if (spec.model.format.empty()
        || std::find(knownModelFormats().begin(), knownModelFormats().end(), spec.model.format)
            == knownModelFormats().end()) {
        errors.push_back({ "/model/format",
            "'" + spec.model.format + "' is not a model format; expected one of " + joined(knownModelFormats()) });
    }
    if (spec.model.path.empty())
        errors.push_back({ "/model/path", "empty; expected the path of the model file" });
    if (!isSha256Hex(spec.model.sha256)) {
        errors.push_back(
            { "/model/sha256", "'" + spec.model.sha256 + "' is not a SHA-256; expected 64 lower-case hex digits" });
    }

    checkOptions(errors, spec);

    checkRange(errors, "/seqLen", spec.seqLen, 1, kMaxTokens, "a token count");

    return errors;
}

std::string runSpecHash(const RunSpec& spec)
{
    return sha256Hex(runSpecToCanonicalJson(spec));
}

} // namespace elk::run
