// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// RunRequest -> RunSpec: presets, chip files and overrides are resolved here, so the engine only
// ever sees fully specified inputs.
#include "engine/run/run_spec.h"

#include <nlohmann/json.hpp>

#include "engine/chip/chip_spec_json.h"
#include "engine/chip/presets.h"
#include "engine/core/build_fingerprint.h"
#include "engine/core/json_text.h"
#include "engine/core/read_file.h"
#include "engine/core/sha256.h"
#include "engine/import/transformer_builder.h"
#include "engine/run/model_load.h"

#include <filesystem>

namespace elk::run {

namespace {

    using nlohmann::json;

    struct Override {
        std::string text; ///< as given: "field=value"
        std::string name; ///< the field as given
        std::string pointer; ///< the field as a JSON pointer
        bool existed = false; ///< whether the base chip JSON had the field
    };

    std::string presetNames()
    {
        std::string names;
        for (const chip::ChipSpec& preset : chip::builtinPresets())
            names += (names.empty() ? "" : ", ") + preset.name;
        return names;
    }

    /// "a.b.c" → "/a/b/c", each name between dots taken literally; a name starting with '/' already
    /// is a pointer.
    std::string toPointer(const std::string& name)
    {
        if (name.starts_with("/"))
            return name;
        std::string pointer;
        std::size_t start = 0;
        while (true) {
            const std::size_t dot = name.find('.', start);
            pointer += "/" + jsonPointerToken(std::string_view(name).substr(start, dot - start));
            if (dot == std::string::npos)
                return pointer;
            start = dot + 1;
        }
    }

    /// The value of an override: JSON when it parses as JSON, otherwise the bare text as a string
    /// (so "topology=mesh2d" works); a field that holds a string always takes the text verbatim.
    json overrideValue(const std::string& text, const json* current)
    {
        if (current != nullptr && current->is_string())
            return text;
        try {
            return json::parse(text);
        } catch (const json::exception&) { // not JSON, or a number beyond a double: the value is the text
            return text;
        }
    }

    /// Points at the override(s) responsible for an error, so "/interconnect/meshWidth: ..." after
    /// --set interconnect.meshWidth=5 says so.
    std::string annotated(const FieldError& error, const std::vector<Override>& overrides)
    {
        std::string message = error.message;
        for (const Override& o : overrides) {
            const std::string field = "/chip" + o.pointer;
            const bool related
                = error.field == field || error.field.starts_with(field + "/") || field.starts_with(error.field + "/");
            if (!related)
                continue;
            if (!o.existed)
                message = "unknown chip field '" + o.name + "' in override '" + o.text + "': " + message;
            else
                message += " (set by override '" + o.text + "')";
        }
        return message;
    }

} // namespace

ChipResolveResult resolveChip(const std::string& presetOrFile, const std::vector<std::string>& overrides)
{
    ChipResolveResult result;
    auto fail = [&result](const std::string& field, const std::string& message) {
        result.errors.push_back({ field, message });
        return result;
    };

    // The base chip, always as its canonical JSON so overrides see every field by its real name.
    std::string baseText;
    if (presetOrFile.empty())
        return fail("/chip", "no chip given; expected a preset name (" + presetNames() + ") or a chip JSON file");
    if (const auto preset = chip::findBuiltinPreset(presetOrFile)) {
        baseText = chip::chipSpecToJson(*preset);
    } else {
        std::string readError;
        const auto text = readFileText(presetOrFile, readError);
        if (!text) {
            return fail("/chip",
                "'" + presetOrFile + "' is neither a built-in preset (" + presetNames()
                    + ") nor a readable chip file: " + readError);
        }
        chip::ChipParseResult parsed = chip::chipSpecFromJson(*text);
        for (const FieldError& error : parsed.errors)
            result.errors.push_back({ "/chip", presetOrFile + ": " + error.field + ": " + error.message });
        if (!parsed.ok())
            return result;
        baseText = chip::chipSpecToJson(parsed.spec);
    }
    if (overrides.empty()) {
        chip::ChipParseResult parsed = chip::chipSpecFromJson(baseText);
        result.spec = std::move(parsed.spec);
        return result;
    }

    json chipJson = json::parse(baseText);
    std::vector<Override> applied;
    for (const std::string& text : overrides) {
        const std::size_t equals = text.find('=');
        if (equals == std::string::npos || equals == 0) {
            result.errors.push_back({ "/chip", "override '" + text + "' is not field=value" });
            continue;
        }
        Override o { text, text.substr(0, equals), toPointer(text.substr(0, equals)), false };
        try {
            const json::json_pointer pointer(o.pointer);
            // The artifact's unit (MiB/ms) stands in for the SI field rather than beside it.
            if (o.pointer == "/hbm/bandwidthMiBPerMsPerStack" && chipJson.contains("hbm")
                && chipJson["hbm"].is_object())
                chipJson["hbm"].erase("bandwidthGBpsPerStack");
            if (o.pointer == "/hbm/bandwidthGBpsPerStack" && chipJson.contains("hbm") && chipJson["hbm"].is_object())
                chipJson["hbm"].erase("bandwidthMiBPerMsPerStack");
            o.existed = chipJson.contains(pointer);
            const json* current = o.existed ? &chipJson.at(pointer) : nullptr;
            chipJson[pointer] = overrideValue(text.substr(equals + 1), current);
        } catch (const json::exception&) {
            // Invalid pointer syntax, or a path through a number or string: no such chip field.
            result.errors.push_back(
                { "/chip" + o.pointer, "unknown chip field '" + o.name + "' in override '" + text + "'" });
            continue;
        }
        applied.push_back(o);
    }
    if (!result.errors.empty())
        return result;

    chip::ChipParseResult parsed = chip::chipSpecFromJson(chipJson.dump());
    for (const FieldError& error : parsed.errors) {
        const FieldError prefixed { "/chip" + error.field, error.message };
        result.errors.push_back({ prefixed.field, annotated(prefixed, applied) });
    }
    if (parsed.ok())
        result.spec = std::move(parsed.spec);
    return result;
}

RunSpecResult resolveRunSpec(const RunRequest& request)
{
    RunSpecResult result;
    RunSpec& spec = result.spec;

    spec.model.path = request.modelPath;
    std::error_code ignored;
    const std::optional<std::string> bundled
        = std::filesystem::exists(request.modelPath, ignored) ? std::nullopt : bundledModelName(request.modelPath);
    if (request.modelPath.empty()) {
        result.errors.push_back({ "/model/path", "no model file given" });
    } else if (bundled) {
        // A bundled model is built in memory; its identity is the content of the ONNX it builds for the phase.
        spec.model.path = std::string(kBundledPrefix) + *bundled;
        spec.model.format = "onnx";
        const auto config = import::bundledModelConfig(*bundled);
        const auto phases = import::supportedPhases(*config);
        const import::ModelPhase phase = toModelPhase(request.phase);
        if (std::find(phases.begin(), phases.end(), phase) == phases.end())
            result.errors.push_back({ "/phase", *bundled + " has no " + toString(request.phase) + " phase" });
        else
            spec.model.sha256 = sha256Hex(import::buildTransformerOnnx(*config, phase));
    } else {
        std::string hashError;
        if (const auto hash = sha256HexOfFile(request.modelPath, hashError))
            spec.model.sha256 = *hash;
        else
            result.errors.push_back({ "/model/path", "model file: " + hashError });
        if (const auto format = modelFormatFromPath(request.modelPath))
            spec.model.format = *format;
        else
            result.errors.push_back({ "/model/format",
                "cannot tell the format of '" + request.modelPath
                    + "' from its extension; expected .onnx, .mlir or .elk.json" });
    }

    ChipResolveResult chipResult = resolveChip(request.chip, request.chipOverrides);
    result.errors.insert(result.errors.end(), chipResult.errors.begin(), chipResult.errors.end());
    const bool chipOk = chipResult.ok();
    spec.chip = std::move(chipResult.spec);

    const bool decode = request.phase == Phase::Decode;
    spec.phase = request.phase;
    spec.batch = request.batch.value_or(1);
    spec.dims = request.dims;
    spec.inputShapes = request.inputShapes;
    spec.seqLen = request.seqLen.value_or(decode ? 1 : 2048);
    spec.kvLen = request.kvLen.value_or(decode ? 2048 : 0);
    spec.designs = request.designs.empty() ? knownDesigns() : request.designs;

    const RunOptions defaults;
    spec.options.preloadNocThreshold = request.preloadNocThreshold.value_or(defaults.preloadNocThreshold);
    spec.options.preloadIngressGBpsPerCore
        = request.preloadIngressGBpsPerCore.value_or(spec.chip.interconnect.linkBandwidthGBpsPerCore);
    spec.options.delayCompute = request.delayCompute.value_or(defaults.delayCompute);
    spec.options.seed = request.seed.value_or(defaults.seed);
    spec.engineVersion = engineBuildId();

    if (!result.errors.empty()) {
        // Still report what is wrong with the rest, but only problems the request caused: a
        // missing model hash or chip would only repeat errors already given.
        for (const FieldError& error : validateRunSpec(spec)) {
            const bool repeatsModel = error.field.starts_with("/model/");
            const bool repeatsChip
                = !chipOk && (error.field.starts_with("/chip") || error.field.starts_with("/options/preloadIngress"));
            if (!repeatsModel && !repeatsChip)
                result.errors.push_back(error);
        }
        return result;
    }

    std::vector<Override> overrides;
    for (const std::string& text : request.chipOverrides) {
        const std::size_t equals = text.find('=');
        overrides.push_back({ text, text.substr(0, equals), toPointer(text.substr(0, equals)), true });
    }
    for (const FieldError& error : validateRunSpec(spec))
        result.errors.push_back({ error.field, annotated(error, overrides) });
    return result;
}

} // namespace elk::run
