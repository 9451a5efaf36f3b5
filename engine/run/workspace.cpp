// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/workspace.h"

#include "engine/chip/chip_spec_json.h"
#include "engine/chip/presets.h"
#include "engine/core/json_text.h"
#include "engine/core/read_file.h"
#include "engine/core/sha256.h"
#include "engine/import/transformer_builder.h"
#include "engine/run/model_load.h"

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace elk::run {

namespace {

    using Json = nlohmann::json;
    namespace fs = std::filesystem;

    std::string resolveAgainst(const std::string& folder, const std::string& path)
    {
        const fs::path asGiven(path);
        if (asGiven.is_absolute() || folder.empty())
            return asGiven.lexically_normal().string();
        return (fs::path(folder) / asGiven).lexically_normal().string();
    }

    /// `path` relative to `folder` (both made absolute against the working directory first), with '/'
    /// separators; absolute when the two share no root.
    std::string relativeTo(const std::string& folder, const std::string& path)
    {
        std::error_code error;
        fs::path target = fs::absolute(path, error).lexically_normal();
        if (error)
            return path;
        fs::path base = fs::absolute(folder.empty() ? fs::path(".") : fs::path(folder), error).lexically_normal();
        if (error)
            return target.generic_string();
        if (!base.has_filename())
            base = base.parent_path(); // "/a/b/" → "/a/b"
        if (target.root_name() != base.root_name())
            return target.generic_string();
        const fs::path relative = target.lexically_relative(base);
        return relative.empty() ? target.generic_string() : relative.generic_string();
    }

    std::string typeName(const Json& value)
    {
        return value.type_name();
    }

    std::string joined(const std::vector<std::string>& names)
    {
        std::string text;
        for (const std::string& name : names)
            text += (text.empty() ? "" : ", ") + name;
        return text;
    }

    std::string presetNames()
    {
        std::vector<std::string> names;
        for (const chip::ChipSpec& preset : chip::builtinPresets())
            names.push_back(preset.name);
        return joined(names);
    }

    class Reader {
    public:
        explicit Reader(std::vector<FieldError>& errors)
            : m_errors(errors)
        {
        }

        void error(const std::string& pointer, const std::string& message) { m_errors.push_back({ pointer, message }); }

        const Json* field(const Json& object, const std::string& pointer, const char* key, bool required)
        {
            const auto found = object.find(key);
            if (found == object.end()) {
                if (required)
                    error(pointer + "/" + key, "missing; this field is required");
                return nullptr;
            }
            return &*found;
        }

        std::optional<std::string> string(
            const Json& object, const std::string& pointer, const char* key, bool required)
        {
            const Json* value = field(object, pointer, key, required);
            if (!value)
                return std::nullopt;
            if (!value->is_string() || value->get_ref<const std::string&>().empty()) {
                error(pointer + "/" + key, "expected a non-empty string, found " + typeName(*value));
                return std::nullopt;
            }
            return value->get<std::string>();
        }

        std::optional<std::int64_t> integer(const Json& object, const std::string& pointer, const char* key)
        {
            const Json* value = field(object, pointer, key, false);
            if (!value)
                return std::nullopt;
            if (!value->is_number_integer()) {
                error(pointer + "/" + key, "expected an integer, found " + typeName(*value));
                return std::nullopt;
            }
            return value->get<std::int64_t>();
        }

        std::optional<std::uint64_t> unsignedInteger(const Json& object, const std::string& pointer, const char* key)
        {
            const Json* value = field(object, pointer, key, false);
            if (!value)
                return std::nullopt;
            if (!value->is_number_unsigned()) {
                error(pointer + "/" + key,
                    "expected an integer >= 0, found "
                        + (value->is_number_integer() ? value->dump() : typeName(*value)));
                return std::nullopt;
            }
            return value->get<std::uint64_t>();
        }

        std::optional<double> number(const Json& object, const std::string& pointer, const char* key)
        {
            const Json* value = field(object, pointer, key, false);
            if (!value)
                return std::nullopt;
            if (!value->is_number()) {
                error(pointer + "/" + key, "expected a number, found " + typeName(*value));
                return std::nullopt;
            }
            return value->get<double>();
        }

        std::optional<bool> boolean(const Json& object, const std::string& pointer, const char* key)
        {
            const Json* value = field(object, pointer, key, false);
            if (!value)
                return std::nullopt;
            if (!value->is_boolean()) {
                error(pointer + "/" + key, "expected true or false, found " + typeName(*value));
                return std::nullopt;
            }
            return value->get<bool>();
        }

        /// The object at `pointer`, or nullptr with an error naming what the object should hold.
        const Json* object(const Json& value, const std::string& pointer, const std::string& expected)
        {
            if (value.is_object())
                return &value;
            error(pointer, "expected " + expected + ", found " + typeName(value));
            return nullptr;
        }

        /// Exactly one of `keys` must be present; returns it, or nullptr after an error.
        const char* oneOf(const Json& object, const std::string& pointer, std::initializer_list<const char*> keys)
        {
            const char* found = nullptr;
            std::string names;
            for (const char* key : keys) {
                names += std::string(names.empty() ? "" : " or ") + "\"" + key + "\"";
                if (!object.contains(key))
                    continue;
                if (found) {
                    error(pointer + "/" + key,
                        std::string("conflicts with \"") + found + "\"; give only one of " + names);
                    return nullptr;
                }
                found = key;
            }
            if (!found)
                error(pointer, "expected one of " + names);
            return found;
        }

        void rejectUnknownKeys(
            const Json& object, const std::string& pointer, std::initializer_list<const char*> allowed)
        {
            for (const auto& [key, value] : object.items()) {
                bool known = false;
                std::string allowedText;
                for (const char* name : allowed) {
                    known = known || key == name;
                    allowedText += (allowedText.empty() ? "" : ", ") + std::string(name);
                }
                if (!known)
                    error(pointer + "/" + jsonPointerToken(key), "unknown key; expected one of " + allowedText);
            }
        }

        std::vector<std::string> strings(const Json& value, const std::string& pointer, const char* what)
        {
            std::vector<std::string> result;
            if (!value.is_array()) {
                error(pointer, std::string("expected an array of ") + what + ", found " + typeName(value));
                return result;
            }
            for (std::size_t i = 0; i < value.size(); ++i) {
                const Json& item = value[i];
                if (item.is_string() && !item.get_ref<const std::string&>().empty())
                    result.push_back(item.get<std::string>());
                else
                    error(pointer + "/" + std::to_string(i),
                        std::string("expected ") + what + " (a non-empty string), found " + typeName(item));
            }
            return result;
        }

    private:
        std::vector<FieldError>& m_errors;
    };

    void readRunSection(const Json& run, Reader& reader, int version, RunRequest& request)
    {
        if (!reader.object(run, "/run", "an object"))
            return;
        if (version == 1)
            reader.rejectUnknownKeys(run, "/run", { "phase", "batch", "seqLen", "kvLen", "designs" });
        else
            reader.rejectUnknownKeys(
                run, "/run", { "phase", "batch", "seqLen", "kvLen", "designs", "options", "dims", "inputShapes" });
        if (const auto phase = reader.string(run, "/run", "phase", false)) {
            if (const auto parsed = phaseFromString(*phase))
                request.phase = *parsed;
            else
                reader.error("/run/phase", "'" + *phase + "' is not a phase; expected decode, prefill or train");
        }
        request.batch = reader.integer(run, "/run", "batch");
        request.seqLen = reader.integer(run, "/run", "seqLen");
        request.kvLen = reader.integer(run, "/run", "kvLen");
        if (const auto found = run.find("designs"); found != run.end())
            request.designs = reader.strings(*found, "/run/designs", "design names");
        // Free dims of the model file: {"NAME": size} and {"INPUT": [d0, d1, ...]} (the CLI's --dim and
        // --input-shape).
        if (const auto found = run.find("dims"); version == 2 && found != run.end()) {
            if (const Json* dims = reader.object(*found, "/run/dims", "an object of dim name → size"))
                for (const auto& [name, value] : dims->items()) {
                    if (value.is_number_integer())
                        request.dims[name] = value.get<std::int64_t>();
                    else
                        reader.error("/run/dims/" + name, "expected an integer size, found " + typeName(value));
                }
        }
        if (const auto found = run.find("inputShapes"); version == 2 && found != run.end()) {
            if (const Json* shapes
                = reader.object(*found, "/run/inputShapes", "an object of input name → [d0, d1, ...]"))
                for (const auto& [name, value] : shapes->items()) {
                    std::vector<std::int64_t> shape;
                    bool ok = value.is_array() && !value.empty();
                    for (const auto& d : value)
                        ok = ok && d.is_number_integer() && (shape.push_back(d.get<std::int64_t>()), true);
                    if (ok)
                        request.inputShapes[name] = std::move(shape);
                    else
                        reader.error(
                            "/run/inputShapes/" + name, "expected an array of integer sizes, found " + typeName(value));
                }
        }
        if (const auto found = run.find("options"); version == 2 && found != run.end()) {
            if (const Json* options = reader.object(*found, "/run/options", "an object")) {
                const std::string at = "/run/options";
                reader.rejectUnknownKeys(
                    *options, at, { "preloadNocThreshold", "preloadIngressGBpsPerCore", "delayCompute", "seed" });
                request.preloadNocThreshold = reader.number(*options, at, "preloadNocThreshold");
                request.preloadIngressGBpsPerCore = reader.number(*options, at, "preloadIngressGBpsPerCore");
                request.delayCompute = reader.boolean(*options, at, "delayCompute");
                request.seed = reader.unsignedInteger(*options, at, "seed");
            }
        }
    }

    void readModel(const Json& value, Reader& reader, const std::string& folder, Workspace& workspace)
    {
        const Json* model = reader.object(value, "/model", "an object {\"path\": FILE} or {\"bundled\": NAME}");
        if (!model)
            return;
        reader.rejectUnknownKeys(*model, "/model", { "path", "bundled", "sha256" });
        const char* kind = reader.oneOf(*model, "/model", { "path", "bundled" });
        if (!kind)
            return;
        if (std::string_view(kind) == "bundled") {
            const auto name = reader.string(*model, "/model", "bundled", true);
            if (name && !import::bundledModelConfig(*name))
                reader.error("/model/bundled",
                    "'" + *name + "' is not a bundled model; expected one of " + joined(import::bundledModelNames()));
            else if (name)
                workspace.modelPath = std::string(kBundledPrefix) + *name;
            if (model->contains("sha256"))
                reader.error(
                    "/model/sha256", "only a model file has a recorded sha256; a bundled model is built by the engine");
            return;
        }
        if (const auto path = reader.string(*model, "/model", "path", true))
            workspace.modelPath = resolveAgainst(folder, *path);
        if (const auto sha = reader.string(*model, "/model", "sha256", false)) {
            if (isSha256Hex(*sha))
                workspace.modelSha256 = *sha;
            else
                reader.error("/model/sha256", "'" + *sha + "' is not a SHA-256; expected 64 lower-case hex digits");
        }
    }

    /// A preset name or a resolved chip file from {"preset": NAME} or {"path": FILE}.
    std::string readChipRef(const Json& object, const std::string& pointer, Reader& reader, const std::string& folder)
    {
        if (object.contains("preset")) {
            const auto preset = reader.string(object, pointer, "preset", true);
            if (preset && !chip::findBuiltinPreset(*preset)) {
                reader.error(pointer + "/preset",
                    "'" + *preset + "' is not a built-in preset; expected one of " + presetNames());
                return {};
            }
            return preset.value_or("");
        }
        const auto path = reader.string(object, pointer, "path", true);
        return path ? resolveAgainst(folder, *path) : std::string();
    }

    void readChip(const Json& value, Reader& reader, const std::string& folder, Workspace& workspace)
    {
        const Json* chipObject = reader.object(
            value, "/chip", "an object {\"preset\": NAME}, {\"path\": FILE} or {\"spec\": {elk.chip/1}}");
        if (!chipObject)
            return;
        reader.rejectUnknownKeys(*chipObject, "/chip", { "preset", "path", "spec", "overrides" });
        const char* kind = reader.oneOf(*chipObject, "/chip", { "preset", "path", "spec" });
        if (const auto found = chipObject->find("overrides"); found != chipObject->end()) {
            workspace.run.chipOverrides = reader.strings(*found, "/chip/overrides", "field=value overrides");
            for (std::size_t i = 0; i < workspace.run.chipOverrides.size(); ++i) {
                if (workspace.run.chipOverrides[i].find('=') == std::string::npos)
                    reader.error("/chip/overrides/" + std::to_string(i),
                        "'" + workspace.run.chipOverrides[i] + "' is not field=value");
            }
        }
        if (!kind)
            return;
        if (std::string_view(kind) != "spec") {
            workspace.chip = readChipRef(*chipObject, "/chip", reader, folder);
            return;
        }
        if (chipObject->contains("overrides"))
            reader.error("/chip/overrides", "not allowed with an embedded chip spec; change the spec itself");
        const Json& spec = chipObject->at("spec");
        if (!reader.object(spec, "/chip/spec", "an elk.chip/1 object"))
            return;
        chip::ChipParseResult parsed = chip::chipSpecFromJson(spec.dump());
        for (const FieldError& error : parsed.errors)
            reader.error("/chip/spec" + error.field, error.message);
        if (parsed.ok())
            workspace.embeddedChip = std::move(parsed.spec);
    }

    void readViews(const Json& value, Reader& reader, WorkspaceViews& views)
    {
        const Json* object = reader.object(value, "/views", "an object");
        if (!object)
            return;
        reader.rejectUnknownKeys(*object, "/views", { "open", "current", "selectedDesign", "selectedStep" });
        if (const auto found = object->find("open"); found != object->end()) {
            views.open = reader.strings(*found, "/views/open", "view kinds");
            for (std::size_t i = 0; i < views.open.size(); ++i) {
                if (std::find(views.open.begin(), views.open.begin() + std::ptrdiff_t(i), views.open[i])
                    != views.open.begin() + std::ptrdiff_t(i))
                    reader.error("/views/open/" + std::to_string(i), "'" + views.open[i] + "' is listed twice");
            }
        }
        if (const auto current = reader.string(*object, "/views", "current", false)) {
            if (std::find(views.open.begin(), views.open.end(), *current) == views.open.end())
                reader.error("/views/current", "'" + *current + "' is not one of the open views (/views/open)");
            else
                views.current = *current;
        }
        views.selectedDesign = reader.string(*object, "/views", "selectedDesign", false).value_or("");
        views.selectedStep = reader.integer(*object, "/views", "selectedStep");
        if (views.selectedStep && *views.selectedStep < 0) {
            reader.error("/views/selectedStep", std::to_string(*views.selectedStep) + ": expected a step index >= 0");
            views.selectedStep.reset();
        }
    }

    void readVersion1(const Json& root, Reader& reader, const std::string& folder, Workspace& workspace)
    {
        reader.rejectUnknownKeys(root, "", { "schema", "model", "chip", "run" });
        if (const auto model = reader.string(root, "", "model", true))
            workspace.modelPath = resolveAgainst(folder, *model);
        if (const auto chip = reader.string(root, "", "chip", true))
            workspace.chip = chip::findBuiltinPreset(*chip) ? *chip : resolveAgainst(folder, *chip);
        if (const auto found = root.find("run"); found != root.end())
            readRunSection(*found, reader, 1, workspace.run);
    }

    void readVersion2(const Json& root, Reader& reader, const std::string& folder, Workspace& workspace)
    {
        reader.rejectUnknownKeys(root, "", { "schema", "model", "chip", "compareChip", "run", "views" });
        if (const Json* model = reader.field(root, "", "model", true))
            readModel(*model, reader, folder, workspace);
        if (const Json* chip = reader.field(root, "", "chip", true))
            readChip(*chip, reader, folder, workspace);
        if (const auto found = root.find("compareChip"); found != root.end()) {
            if (const Json* compare
                = reader.object(*found, "/compareChip", "an object {\"preset\": NAME} or {\"path\": FILE}")) {
                reader.rejectUnknownKeys(*compare, "/compareChip", { "preset", "path" });
                if (reader.oneOf(*compare, "/compareChip", { "preset", "path" }))
                    workspace.compareChip = readChipRef(*compare, "/compareChip", reader, folder);
            }
        }
        if (const auto found = root.find("run"); found != root.end())
            readRunSection(*found, reader, 2, workspace.run);
        if (const auto found = root.find("views"); found != root.end())
            readViews(*found, reader, workspace.views);
    }

    Json chipRefJson(const std::string& chip, const std::string& folder)
    {
        if (chip::findBuiltinPreset(chip))
            return Json { { "preset", chip } };
        return Json { { "path", relativeTo(folder, chip) } };
    }

} // namespace

WorkspaceParseResult workspaceFromJson(std::string_view jsonText, const std::string& filePath)
{
    WorkspaceParseResult result;
    result.workspace.filePath = filePath;
    auto& errors = result.errors;

    Json root;
    try {
        root = Json::parse(jsonText);
    } catch (const Json::parse_error& error) {
        // The field already says where; nlohmann's what() would say it again.
        const TextPosition position = parseErrorPosition(jsonText, error.byte);
        errors.push_back({ positionText(position), "invalid JSON: " + jsonSyntaxReason(error.what()) });
        return result;
    } catch (const Json::exception& error) { // a number too large for a double
        errors.push_back(
            { locateJsonLiteral(jsonText, error.what()), "invalid JSON: " + jsonSyntaxReason(error.what()) });
        return result;
    }
    if (!root.is_object()) {
        errors.push_back({ "/", "expected a JSON object, found " + typeName(root) });
        return result;
    }

    Reader reader(errors);
    Workspace& workspace = result.workspace;
    // Without a schema the rest is checked as the current version, so every other problem shows too.
    if (const auto schema = reader.string(root, "", "schema", true)) {
        if (*schema == Workspace::kSchemaV1) {
            workspace.schemaVersion = 1;
        } else if (*schema != Workspace::kSchema) {
            errors.push_back({ "/schema",
                "'" + *schema + "' is not supported; expected \"" + Workspace::kSchema + "\" or \""
                    + Workspace::kSchemaV1 + "\"" });
            return result;
        }
    }

    const std::string folder = fs::path(filePath).parent_path().string();
    if (workspace.schemaVersion == 1)
        readVersion1(root, reader, folder, workspace);
    else
        readVersion2(root, reader, folder, workspace);

    workspace.run.modelPath = workspace.modelPath;
    workspace.run.chip = workspace.chip;
    return result;
}

WorkspaceParseResult loadWorkspaceFile(const std::string& filePath)
{
    std::string ioError;
    const auto text = readFileText(filePath, ioError, 1024 * 1024);
    if (!text) {
        WorkspaceParseResult result;
        result.workspace.filePath = filePath;
        result.errors.push_back({ "/", ioError });
        return result;
    }
    WorkspaceParseResult result = workspaceFromJson(*text, filePath);
    const Workspace& workspace = result.workspace;
    if (result.ok() && !workspace.modelSha256.empty()) {
        std::string hashError; // an unreadable model is reported when the run is resolved
        const auto now = sha256HexOfFile(workspace.modelPath, hashError);
        if (now && *now != workspace.modelSha256) {
            result.warnings.push_back("model file '" + workspace.modelPath
                + "' changed since the workspace was saved (sha256 was " + workspace.modelSha256.substr(0, 12)
                + "…, now " + now->substr(0, 12) + "…); results will differ from the saved ones");
        }
    }
    return result;
}

std::string workspaceToJson(const Workspace& workspace, const std::string& filePath)
{
    const std::string folder = fs::path(filePath).parent_path().string();
    Json root = Json::object();
    root["schema"] = Workspace::kSchema;

    const std::string_view modelPath = workspace.modelPath;
    const bool bundled = modelPath.substr(0, kBundledPrefix.size()) == kBundledPrefix
        || (modelPath.find('/') == std::string_view::npos && bundledModelName(modelPath)
            && !fs::exists(workspace.modelPath));
    if (bundled) {
        root["model"] = Json { { "bundled", bundledModelName(modelPath).value_or(std::string(modelPath)) } };
    } else {
        root["model"] = Json { { "path", relativeTo(folder, workspace.modelPath) } };
        if (!workspace.modelSha256.empty())
            root["model"]["sha256"] = workspace.modelSha256;
    }

    Json chip = workspace.embeddedChip ? Json { { "spec", Json::parse(chip::chipSpecToJson(*workspace.embeddedChip)) } }
                                       : chipRefJson(workspace.chip, folder);
    if (!workspace.embeddedChip && !workspace.run.chipOverrides.empty())
        chip["overrides"] = workspace.run.chipOverrides;
    root["chip"] = std::move(chip);
    if (!workspace.compareChip.empty())
        root["compareChip"] = chipRefJson(workspace.compareChip, folder);

    const RunRequest& request = workspace.run;
    Json run = Json::object();
    run["phase"] = toString(request.phase);
    if (request.batch)
        run["batch"] = *request.batch;
    if (request.seqLen)
        run["seqLen"] = *request.seqLen;
    if (request.kvLen)
        run["kvLen"] = *request.kvLen;
    if (!request.designs.empty())
        run["designs"] = request.designs;
    if (!request.dims.empty())
        run["dims"] = request.dims;
    if (!request.inputShapes.empty())
        run["inputShapes"] = request.inputShapes;
    Json options = Json::object();
    if (request.preloadNocThreshold)
        options["preloadNocThreshold"] = *request.preloadNocThreshold;
    if (request.preloadIngressGBpsPerCore)
        options["preloadIngressGBpsPerCore"] = *request.preloadIngressGBpsPerCore;
    if (request.delayCompute)
        options["delayCompute"] = *request.delayCompute;
    if (request.seed)
        options["seed"] = *request.seed;
    if (!options.empty())
        run["options"] = std::move(options);
    root["run"] = std::move(run);

    const WorkspaceViews& views = workspace.views;
    Json viewsJson = Json::object();
    if (!views.open.empty())
        viewsJson["open"] = views.open;
    if (!views.current.empty())
        viewsJson["current"] = views.current;
    if (!views.selectedDesign.empty())
        viewsJson["selectedDesign"] = views.selectedDesign;
    if (views.selectedStep)
        viewsJson["selectedStep"] = *views.selectedStep;
    if (!viewsJson.empty())
        root["views"] = std::move(viewsJson);
    return root.dump(2) + "\n";
}

RunSpecResult resolveWorkspaceRun(const Workspace& workspace)
{
    if (!workspace.embeddedChip)
        return resolveRunSpec(workspace.run);

    // Resolve everything else against a stand-in preset, then put the embedded chip in its place and
    // check the chip-dependent fields again.
    RunRequest request = workspace.run;
    request.chip = chip::builtinPresets().front().name;
    request.chipOverrides.clear();
    RunSpecResult result = resolveRunSpec(request);
    auto chipDependent = [](const FieldError& error) {
        return error.field.rfind("/chip", 0) == 0 || error.field.rfind("/options/preloadIngress", 0) == 0;
    };
    std::erase_if(result.errors, chipDependent);
    result.spec.chip = *workspace.embeddedChip;
    if (!workspace.run.preloadIngressGBpsPerCore)
        result.spec.options.preloadIngressGBpsPerCore = result.spec.chip.interconnect.linkBandwidthGBpsPerCore;
    for (const FieldError& error : validateRunSpec(result.spec)) {
        if (chipDependent(error))
            result.errors.push_back(error);
    }
    return result;
}

} // namespace elk::run
