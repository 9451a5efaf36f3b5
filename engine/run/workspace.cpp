// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/workspace.h"

#include "engine/chip/presets.h"
#include "engine/core/json_text.h"
#include "engine/core/read_file.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace elk::run {

namespace {

using Json = nlohmann::json;

std::string resolveAgainst(const std::string& folder, const std::string& path)
{
    const std::filesystem::path asGiven(path);
    if (asGiven.is_absolute() || folder.empty())
        return asGiven.lexically_normal().string();
    return (std::filesystem::path(folder) / asGiven).lexically_normal().string();
}

std::string typeName(const Json& value)
{
    return value.type_name();
}

class Reader
{
public:
    explicit Reader(std::vector<FieldError>& errors) : m_errors(errors) { }

    const Json* field(const Json& object, const std::string& pointer, const char* key, bool required)
    {
        const auto found = object.find(key);
        if (found == object.end()) {
            if (required)
                m_errors.push_back({ pointer + "/" + key, "missing; this field is required" });
            return nullptr;
        }
        return &*found;
    }

    std::optional<std::string> string(const Json& object, const std::string& pointer, const char* key, bool required)
    {
        const Json* value = field(object, pointer, key, required);
        if (!value)
            return std::nullopt;
        if (!value->is_string() || value->get_ref<const std::string&>().empty()) {
            m_errors.push_back({ pointer + "/" + key, "expected a non-empty string, found " + typeName(*value) });
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
            m_errors.push_back({ pointer + "/" + key, "expected an integer, found " + typeName(*value) });
            return std::nullopt;
        }
        return value->get<std::int64_t>();
    }

    void rejectUnknownKeys(const Json& object, const std::string& pointer, std::initializer_list<const char*> allowed)
    {
        for (const auto& [key, value] : object.items()) {
            bool known = false;
            std::string allowedText;
            for (const char* name : allowed) {
                known = known || key == name;
                allowedText += (allowedText.empty() ? "" : ", ") + std::string(name);
            }
            if (!known)
                m_errors.push_back({ pointer + "/" + key, "unknown key; expected one of " + allowedText });
        }
    }

private:
    std::vector<FieldError>& m_errors;
};

void readRunSection(const Json& run, Reader& reader, std::vector<FieldError>& errors, RunRequest& request)
{
    if (!run.is_object()) {
        errors.push_back({ "/run", "expected an object, found " + typeName(run) });
        return;
    }
    reader.rejectUnknownKeys(run, "/run", { "phase", "batch", "seqLen", "kvLen", "designs" });
    if (const auto phase = reader.string(run, "/run", "phase", false)) {
        if (const auto parsed = phaseFromString(*phase))
            request.phase = *parsed;
        else
            errors.push_back({ "/run/phase", "'" + *phase + "' is not a phase; expected decode, prefill or train" });
    }
    request.batch = reader.integer(run, "/run", "batch");
    request.seqLen = reader.integer(run, "/run", "seqLen");
    request.kvLen = reader.integer(run, "/run", "kvLen");
    if (const auto found = run.find("designs"); found != run.end()) {
        if (!found->is_array()) {
            errors.push_back({ "/run/designs", "expected an array of design names, found " + typeName(*found) });
            return;
        }
        for (std::size_t i = 0; i < found->size(); ++i) {
            const Json& design = (*found)[i];
            if (design.is_string())
                request.designs.push_back(design.get<std::string>());
            else
                errors.push_back({ "/run/designs/" + std::to_string(i), "expected a design name, found " + typeName(design) });
        }
    }
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
    }
    if (!root.is_object()) {
        errors.push_back({ "/", "expected a JSON object, found " + typeName(root) });
        return result;
    }

    Reader reader(errors);
    reader.rejectUnknownKeys(root, "", { "schema", "model", "chip", "run" });
    const auto schema = reader.string(root, "", "schema", true);
    if (schema && *schema != Workspace::kSchema) {
        errors.push_back({ "/schema", "'" + *schema + "' is not supported; expected \"" + Workspace::kSchema + "\"" });
        return result;
    }

    const std::string folder = std::filesystem::path(filePath).parent_path().string();
    Workspace& workspace = result.workspace;
    if (const auto model = reader.string(root, "", "model", true))
        workspace.modelPath = resolveAgainst(folder, *model);
    if (const auto chip = reader.string(root, "", "chip", true))
        workspace.chip = chip::findBuiltinPreset(*chip) ? *chip : resolveAgainst(folder, *chip);
    if (const auto found = root.find("run"); found != root.end())
        readRunSection(*found, reader, errors, workspace.run);

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
    return workspaceFromJson(*text, filePath);
}

} // namespace elk::run
