// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// RunSpec <-> JSON. The canonical text is the cache key's preimage, so its format is fixed here
// and nowhere else: nlohmann objects keep keys sorted (std::map), dump() is compact, and
// integral doubles are stored as integers so "2" and "2.0" cannot give two keys for one spec.
#include "engine/run/run_spec.h"

#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/chip/chip_spec_json.h"
#include "engine/core/json_text.h"

namespace elk::run {

namespace {

    using nlohmann::json;

    constexpr const char* kSchema = "elk.runspec/1";

    std::string child(const std::string& pointer, const std::string& key)
    {
        return pointer + "/" + jsonPointerToken(key);
    }

    /// Integral doubles become integers; non-finite numbers cannot be written as JSON at all.
    /// A spec has no null fields, so a null can only be a non-finite double that a nested dump()
    /// (the chip's) has already turned into null.
    void normalizeNumbers(json& value, const std::string& pointer)
    {
        if (value.is_null())
            throw std::invalid_argument("run spec field " + pointer + " is not a finite number");
        if (value.is_object()) {
            for (auto& [key, member] : value.items())
                normalizeNumbers(member, child(pointer, key));
        } else if (value.is_array()) {
            for (std::size_t i = 0; i < value.size(); ++i)
                normalizeNumbers(value[i], pointer + "/" + std::to_string(i));
        } else if (value.is_number_float()) {
            const double number = value.get<double>();
            if (!std::isfinite(number))
                throw std::invalid_argument("run spec field " + pointer + " is not a finite number");
            constexpr double kExactIntegerLimit = 9007199254740992.0; // 2^53
            if (number == std::trunc(number) && std::fabs(number) <= kExactIntegerLimit)
                value = static_cast<std::int64_t>(number); // also turns -0.0 into 0
        }
    }

    std::string shortDump(const json& value)
    {
        std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
        if (text.size() > 40)
            text = text.substr(0, 37) + "...";
        return text;
    }

    /// Reads typed members and records every problem with its JSON pointer; never stops at the first.
    class Reader {
    public:
        explicit Reader(std::vector<FieldError>& errors)
            : m_errors(errors)
        {
        }

        void error(const std::string& field, const std::string& message) { m_errors.push_back({ field, message }); }

        /// True when `value` is an object; reports keys outside `allowed`.
        bool object(const json& value, const std::string& pointer, std::initializer_list<const char*> allowed)
        {
            if (!value.is_object()) {
                error(pointer.empty() ? "/" : pointer, "expected an object, got " + std::string(value.type_name()));
                return false;
            }
            std::string allowedText;
            for (const char* key : allowed)
                allowedText += (allowedText.empty() ? "" : ", ") + std::string(key);
            for (const auto& [key, member] : value.items()) {
                bool known = false;
                for (const char* name : allowed)
                    known = known || key == name;
                if (!known)
                    error(child(pointer, key), "unknown key '" + key + "'; expected one of " + allowedText);
            }
            return true;
        }

        const json* member(const json& object, const std::string& pointer, const char* key)
        {
            const auto it = object.find(key);
            if (it == object.end()) {
                error(child(pointer, key), "missing required key '" + std::string(key) + "'");
                return nullptr;
            }
            return &*it;
        }

        void readInt(const json& object, const std::string& pointer, const char* key, std::int64_t& out)
        {
            const json* value = member(object, pointer, key);
            if (value == nullptr)
                return;
            if (value->is_number_integer()
                && !(value->is_number_unsigned() && value->get<std::uint64_t>() > INT64_MAX)) {
                out = value->get<std::int64_t>();
            } else if (value->is_number_float() && isIntegral(value->get<double>(), 9.2e18)) {
                out = static_cast<std::int64_t>(value->get<double>());
            } else {
                error(child(pointer, key), "expected an integer, got " + shortDump(*value));
            }
        }

        void readUnsigned(const json& object, const std::string& pointer, const char* key, std::uint64_t& out)
        {
            const json* value = member(object, pointer, key);
            if (value == nullptr)
                return;
            if (value->is_number_unsigned())
                out = value->get<std::uint64_t>();
            else if (value->is_number_float() && value->get<double>() >= 0 && isIntegral(value->get<double>(), 1.8e19))
                out = static_cast<std::uint64_t>(value->get<double>());
            else
                error(child(pointer, key), "expected an integer ≥ 0, got " + shortDump(*value));
        }

        void readDouble(const json& object, const std::string& pointer, const char* key, double& out)
        {
            const json* value = member(object, pointer, key);
            if (value == nullptr)
                return;
            if (value->is_number())
                out = value->get<double>();
            else
                error(child(pointer, key), "expected a number, got " + shortDump(*value));
        }

        void readBool(const json& object, const std::string& pointer, const char* key, bool& out)
        {
            const json* value = member(object, pointer, key);
            if (value == nullptr)
                return;
            if (value->is_boolean())
                out = value->get<bool>();
            else
                error(child(pointer, key), "expected true or false, got " + shortDump(*value));
        }

        void readString(const json& object, const std::string& pointer, const char* key, std::string& out)
        {
            const json* value = member(object, pointer, key);
            if (value == nullptr)
                return;
            if (value->is_string())
                out = value->get<std::string>();
            else
                error(child(pointer, key), "expected a string, got " + shortDump(*value));
        }

    private:
        static bool isIntegral(double number, double limit)
        {
            return std::isfinite(number) && number == std::trunc(number) && std::fabs(number) < limit;
        }

        std::vector<FieldError>& m_errors;
    };

    void readModel(Reader& reader, const json& root, ModelRef& model)
    {
        const json* value = reader.member(root, "", "model");
        if (value == nullptr || !reader.object(*value, "/model", { "format", "path", "sha256" }))
            return;
        reader.readString(*value, "/model", "format", model.format);
        reader.readString(*value, "/model", "path", model.path);
        reader.readString(*value, "/model", "sha256", model.sha256);
    }

    void readOptions(Reader& reader, const json& root, RunOptions& options)
    {
        const json* value = reader.member(root, "", "options");
        if (value == nullptr
            || !reader.object(
                *value, "/options", { "delayCompute", "preloadIngressGBpsPerCore", "preloadNocThreshold", "seed" }))
            return;
        reader.readBool(*value, "/options", "delayCompute", options.delayCompute);
        reader.readDouble(*value, "/options", "preloadIngressGBpsPerCore", options.preloadIngressGBpsPerCore);
        reader.readDouble(*value, "/options", "preloadNocThreshold", options.preloadNocThreshold);
        reader.readUnsigned(*value, "/options", "seed", options.seed);
    }

    void readChip(Reader& reader, const json& root, chip::ChipSpec& spec)
    {
        const json* value = reader.member(root, "", "chip");
        if (value == nullptr)
            return;
        if (!value->is_object()) {
            reader.error("/chip", "expected an object, got " + std::string(value->type_name()));
            return;
        }
        chip::ChipParseResult parsed = chip::chipSpecFromJson(value->dump());
        for (const FieldError& error : parsed.errors)
            reader.error("/chip" + error.field, error.message);
        if (parsed.ok())
            spec = std::move(parsed.spec);
    }

    void readDesigns(Reader& reader, const json& root, std::vector<std::string>& designs)
    {
        const json* value = reader.member(root, "", "designs");
        if (value == nullptr)
            return;
        if (!value->is_array()) {
            reader.error("/designs", "expected an array of design names, got " + shortDump(*value));
            return;
        }
        designs.clear();
        for (std::size_t i = 0; i < value->size(); ++i) {
            const json& item = (*value)[i];
            if (item.is_string())
                designs.push_back(item.get<std::string>());
            else
                reader.error("/designs/" + std::to_string(i), "expected a design name, got " + shortDump(item));
        }
    }

} // namespace

std::string runSpecToCanonicalJson(const RunSpec& spec)
{
    json root = json::object();
    root["batch"] = spec.batch;
    root["chip"] = json::parse(chip::chipSpecToJson(spec.chip));
    root["designs"] = spec.designs;
    if (!spec.dims.empty()) // absent when empty, so that specs without bindings keep their hashes
        root["dims"] = spec.dims;
    root["engineVersion"] = spec.engineVersion;
    if (!spec.inputShapes.empty())
        root["inputShapes"] = spec.inputShapes;
    root["kvLen"] = spec.kvLen;
    root["model"] = { { "format", spec.model.format }, { "path", spec.model.path }, { "sha256", spec.model.sha256 } };
    root["options"] = { { "delayCompute", spec.options.delayCompute },
        { "preloadIngressGBpsPerCore", spec.options.preloadIngressGBpsPerCore },
        { "preloadNocThreshold", spec.options.preloadNocThreshold }, { "seed", spec.options.seed } };
    root["phase"] = toString(spec.phase);
    root["schema"] = kSchema;
    root["seqLen"] = spec.seqLen;
    normalizeNumbers(root, "");
    return root.dump();
}

RunSpecParseResult runSpecFromJson(std::string_view jsonText)
{
    RunSpecParseResult result;
    json root;
    try {
        root = json::parse(jsonText.begin(), jsonText.end());
    } catch (const json::parse_error& e) {
        // nlohmann reports a byte offset; users need line and column.
        result.errors.push_back({ positionText(parseErrorPosition(jsonText, e.byte)), jsonSyntaxReason(e.what()) });
        return result;
    } catch (const json::exception& e) { // a number too large for a double
        result.errors.push_back({ locateJsonLiteral(jsonText, e.what()), jsonSyntaxReason(e.what()) });
        return result;
    }

    Reader reader(result.errors);
    if (!reader.object(root, "",
            { "batch", "chip", "designs", "dims", "engineVersion", "inputShapes", "kvLen", "model", "options", "phase",
                "schema", "seqLen" }))
        return result;

    RunSpec& spec = result.spec;
    std::string schema;
    reader.readString(root, "", "schema", schema);
    if (root.contains("schema") && root["schema"].is_string() && schema != kSchema)
        reader.error("/schema", "'" + schema + "' is not supported; expected \"" + kSchema + "\"");

    reader.readInt(root, "", "batch", spec.batch);
    readChip(reader, root, spec.chip);
    readDesigns(reader, root, spec.designs);
    reader.readString(root, "", "engineVersion", spec.engineVersion);
    reader.readInt(root, "", "kvLen", spec.kvLen);
    readModel(reader, root, spec.model);
    readOptions(reader, root, spec.options);
    std::string phase;
    reader.readString(root, "", "phase", phase);
    if (root.contains("phase") && root["phase"].is_string()) {
        if (const auto parsed = phaseFromString(phase))
            spec.phase = *parsed;
        else
            reader.error("/phase", "unknown phase '" + phase + "'; expected one of decode, prefill, train");
    }
    reader.readInt(root, "", "seqLen", spec.seqLen);
    if (const auto dims = root.find("dims"); dims != root.end()) {
        if (!dims->is_object())
            reader.error("/dims", "expected an object of dim name → size, got " + shortDump(*dims));
        else
            for (const auto& [name, value] : dims->items()) {
                if (value.is_number_integer())
                    spec.dims[name] = value.get<std::int64_t>();
                else
                    reader.error("/dims/" + name, "expected an integer size, got " + shortDump(value));
            }
    }
    if (const auto shapes = root.find("inputShapes"); shapes != root.end()) {
        if (!shapes->is_object())
            reader.error("/inputShapes", "expected an object of input name → [d0, d1, ...], got " + shortDump(*shapes));
        else
            for (const auto& [name, value] : shapes->items()) {
                std::vector<std::int64_t> shape;
                bool ok = value.is_array();
                for (const auto& d : value)
                    ok = ok && d.is_number_integer() && (shape.push_back(d.get<std::int64_t>()), true);
                if (ok)
                    spec.inputShapes[name] = std::move(shape);
                else
                    reader.error("/inputShapes/" + name, "expected an array of integer sizes, got " + shortDump(value));
            }
    }
    return result;
}

} // namespace elk::run
