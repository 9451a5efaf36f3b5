// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/chip/chip_spec_json.h"

#include "engine/chip/chip_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/json_parse.h"
#include "engine/core/json_text.h"

namespace elk::chip {

namespace {

    using Json = nlohmann::json;

    constexpr std::string_view kSchema = "elk.chip/1";
    constexpr const char* kArtifactBandwidthKey = "bandwidthMiBPerMsPerStack";
    // Field name used for problems with the document as a whole (the empty JSON pointer is unreadable in messages).
    constexpr std::string_view kRootField = "/";

    std::string childPointer(const std::string& pointer, std::string_view key)
    {
        return pointer + "/" + jsonPointerToken(key);
    }

    /// Reads typed members out of JSON objects, collecting every problem instead of stopping at the first.
    class Reader {
    public:
        std::vector<FieldError> errors;

        void fail(std::string field, std::string message)
        {
            errors.push_back({ std::move(field), std::move(message) });
        }

        void rejectUnknownKeys(
            const Json& object, const std::string& pointer, const std::vector<std::string_view>& allowed)
        {
            for (const auto& item : object.items()) {
                bool known = false;
                for (std::string_view key : allowed)
                    known = known || item.key() == key;
                if (known)
                    continue;
                std::string list;
                for (std::string_view key : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(key);
                fail(childPointer(pointer, item.key()),
                    "unknown key " + jsonQuoted(item.key()) + "; allowed keys here: " + list);
            }
        }

        /// The member, or nullptr; a missing member is an error only when required.
        const Json* find(const Json& object, const std::string& pointer, std::string_view key, bool required)
        {
            const auto it = object.find(std::string(key));
            if (it != object.end())
                return &*it;
            if (required)
                fail(childPointer(pointer, key), "missing; this key is required");
            return nullptr;
        }

        const Json* readObject(const Json& object, const std::string& pointer, std::string_view key, bool required)
        {
            const Json* value = find(object, pointer, key, required);
            if (value && !value->is_object()) {
                fail(childPointer(pointer, key), "expected an object, found " + describeJsonValue(*value));
                return nullptr;
            }
            return value;
        }

        bool readString(const Json& object, const std::string& pointer, std::string_view key, std::string& out,
            bool required = true)
        {
            const Json* value = find(object, pointer, key, required);
            if (!value)
                return false;
            if (!value->is_string()) {
                fail(childPointer(pointer, key), "expected a string, found " + describeJsonValue(*value));
                return false;
            }
            out = value->get<std::string>();
            return true;
        }

        bool readDouble(
            const Json& object, const std::string& pointer, std::string_view key, double& out, bool required = true)
        {
            const Json* value = find(object, pointer, key, required);
            if (!value)
                return false;
            if (!value->is_number()) {
                fail(childPointer(pointer, key), "expected a number, found " + describeJsonValue(*value));
                return false;
            }
            const double number = value->get<double>();
            if (!std::isfinite(number)) {
                fail(childPointer(pointer, key), "expected a finite number, found " + value->dump());
                return false;
            }
            out = number;
            return true;
        }

        template <typename Int>
        bool readInteger(
            const Json& object, const std::string& pointer, std::string_view key, Int& out, bool required = true)
        {
            const Json* value = find(object, pointer, key, required);
            return value && toInteger(*value, childPointer(pointer, key), out);
        }

        template <typename Int> bool toInteger(const Json& value, const std::string& field, Int& out)
        {
            using Limits = std::numeric_limits<Int>;
            if (value.is_number_unsigned()) { // check before is_number_integer(), which is true for both
                const auto number = value.get<std::uint64_t>();
                if (number <= std::uint64_t(Limits::max())) {
                    out = Int(number);
                    return true;
                }
            } else if (value.is_number_integer()) {
                const auto number = value.get<std::int64_t>();
                if (number >= std::int64_t(Limits::min()) && number <= std::int64_t(Limits::max())) {
                    out = Int(number);
                    return true;
                }
            } else if (value.is_number_float()) {
                const double number = value.get<double>();
                if (!std::isfinite(number) || std::floor(number) != number) {
                    fail(field, "expected an integer, found " + describeJsonValue(value));
                    return false;
                }
                // -min() is 2^(bits-1), exactly representable, so the comparison is exact.
                if (number >= double(Limits::min()) && number < -double(Limits::min())) {
                    out = Int(number);
                    return true;
                }
            } else {
                fail(field, "expected an integer, found " + describeJsonValue(value));
                return false;
            }
            fail(field,
                "number " + value.dump() + " does not fit in a " + std::to_string(Limits::digits + 1) + "-bit integer ("
                    + std::to_string(Limits::min()) + " to " + std::to_string(Limits::max()) + ")");
            return false;
        }

        template <typename Enum, std::size_t N>
        bool readEnum(
            const Json& object, const std::string& pointer, std::string_view key, const Enum (&all)[N], Enum& out)
        {
            std::string text;
            if (!readString(object, pointer, key, text))
                return false;
            std::string allowed;
            for (Enum value : all) {
                if (text == toString(value)) {
                    out = value;
                    return true;
                }
                allowed += (allowed.empty() ? "" : ", ") + jsonQuoted(toString(value));
            }
            fail(childPointer(pointer, key), "unknown value " + jsonQuoted(text) + "; allowed values: " + allowed);
            return false;
        }
    };

    /// The keys allowed in the object at `parent`: `before`, the table's numeric fields there (in table
    /// order), then `after`.
    std::vector<std::string_view> keysOf(std::string_view parent, std::initializer_list<std::string_view> before,
        std::initializer_list<std::string_view> after = {})
    {
        std::vector<std::string_view> keys(before);
        for (const ChipField& field : chipFields()) {
            if (field.parent() == parent)
                keys.push_back(field.key());
        }
        keys.insert(keys.end(), after);
        return keys;
    }

    /// Reads the table's numeric fields of the object at `pointer`, in table order, except `skip` (read by
    /// hand). Mesh-only fields are required only on a mesh.
    void readFields(Reader& reader, const Json& object, const std::string& pointer, ChipSpec& spec, bool mesh,
        std::string_view skip = {})
    {
        for (const ChipField& field : chipFields()) {
            if (field.parent() != pointer || field.key() == skip)
                continue;
            const bool required = !field.optional && (field.scope != FieldScope::Mesh || mesh);
            std::visit(
                [&](auto* member) {
                    if constexpr (std::is_same_v<decltype(member), double*>)
                        reader.readDouble(object, pointer, field.key(), *member, required);
                    else
                        reader.readInteger(object, pointer, field.key(), *member, required);
                },
                field.ref(spec));
        }
    }

    void readTileCost(Reader& reader, const Json& object, ChipSpec& spec)
    {
        TileCostSpec& out = spec.tileCost;
        const std::string pointer = "/tileCost";
        reader.rejectUnknownKeys(object, pointer, { "model", "roofline", "fitted" });
        const bool modelKnown = reader.readEnum(object, pointer, "model", kAllTileCostModelKinds, out.model);

        // Inactive blocks are optional but, when present, read in full so a written spec reads back identical.
        const bool needRoofline = modelKnown && out.model == TileCostModelKind::Roofline;
        if (const Json* roofline = reader.readObject(object, pointer, "roofline", needRoofline)) {
            const std::string p = pointer + "/roofline";
            reader.rejectUnknownKeys(*roofline, p, keysOf(p, {}));
            readFields(reader, *roofline, p, spec, false);
        }
        const bool needFitted = modelKnown && out.model == TileCostModelKind::Fitted;
        if (const Json* fitted = reader.readObject(object, pointer, "fitted", needFitted)) {
            const std::string p = pointer + "/fitted";
            reader.rejectUnknownKeys(*fitted, p, { "modelPath" });
            reader.readString(*fitted, p, "modelPath", out.fitted.modelPath);
        }
    }

    void readInterconnect(Reader& reader, const Json& object, ChipSpec& spec)
    {
        const std::string pointer = "/interconnect";
        reader.rejectUnknownKeys(object, pointer, keysOf(pointer, { "topology" }));
        const bool topologyKnown
            = reader.readEnum(object, pointer, "topology", kAllTopologies, spec.interconnect.topology);
        readFields(reader, object, pointer, spec, topologyKnown && spec.interconnect.topology == Topology::Mesh2d);
    }

    void readInterChip(Reader& reader, const Json& object, ChipSpec& spec)
    {
        const std::string pointer = "/interChip";
        reader.rejectUnknownKeys(object, pointer, keysOf(pointer, {}));
        readFields(reader, object, pointer, spec, false);
    }

    void readHbm(Reader& reader, const Json& object, ChipSpec& spec)
    {
        HbmSpec& out = spec.hbm;
        const std::string pointer = "/hbm";
        std::vector<std::string_view> keys = keysOf(pointer, {}, { "controllerPlacement", "controllerCoreIds" });
        keys.insert(std::find(keys.begin(), keys.end(), "bandwidthGBpsPerStack") + 1, kArtifactBandwidthKey);
        reader.rejectUnknownKeys(object, pointer, keys);
        readFields(reader, object, pointer, spec, false, "bandwidthGBpsPerStack");
        // The product keeps SI (GB/s = 10^9 B/s); the Elk artifact's "GB/s" is MiB per ms (2^20 B / 10^-3 s =
        // 1.048576 GB/s), accepted so that an artifact setting can be entered exactly. Exactly one of the two.
        const bool si = object.contains("bandwidthGBpsPerStack");
        const bool artifact = object.contains(kArtifactBandwidthKey);
        if (si && artifact) {
            reader.fail(pointer + "/" + kArtifactBandwidthKey,
                "give the HBM bandwidth once: bandwidthGBpsPerStack (GB/s) or " + std::string(kArtifactBandwidthKey)
                    + " (the Elk artifact's MiB/ms), not both");
        } else if (artifact) {
            double mibPerMs = 0;
            if (reader.readDouble(object, pointer, kArtifactBandwidthKey, mibPerMs))
                out.bandwidthGBpsPerStack = mibPerMs * kGBpsPerMiBPerMs;
        } else {
            reader.readDouble(object, pointer, "bandwidthGBpsPerStack", out.bandwidthGBpsPerStack);
        }
        const bool placementKnown = reader.readEnum(
            object, pointer, "controllerPlacement", kAllControllerPlacements, out.controllerPlacement);
        const bool needIds = placementKnown && out.controllerPlacement == ControllerPlacement::Explicit;
        if (const Json* ids = reader.find(object, pointer, "controllerCoreIds", needIds)) {
            const std::string p = pointer + "/controllerCoreIds";
            if (!ids->is_array()) {
                reader.fail(p, "expected an array of core ids, found " + describeJsonValue(*ids));
                return;
            }
            out.controllerCoreIds.clear();
            for (std::size_t i = 0; i < ids->size(); ++i) {
                int id = 0;
                if (reader.toInteger((*ids)[i], p + "/" + std::to_string(i), id))
                    out.controllerCoreIds.push_back(id);
            }
        }
    }

    void readChip(Reader& reader, const Json& root, ChipSpec& spec)
    {
        const std::string pointer; // the root
        reader.rejectUnknownKeys(root, pointer,
            keysOf(pointer, { "schema", "name", "description", "source" },
                { "tileCost", "interconnect", "interChip", "hbm" }));
        reader.readString(root, pointer, "name", spec.name);
        reader.readString(root, pointer, "description", spec.description);
        reader.readString(root, pointer, "source", spec.source);
        readFields(reader, root, pointer, spec, false); // the SRAM port bandwidth is optional: absent = 0
        if (const Json* tileCost = reader.readObject(root, pointer, "tileCost", true))
            readTileCost(reader, *tileCost, spec);
        if (const Json* interconnect = reader.readObject(root, pointer, "interconnect", true))
            readInterconnect(reader, *interconnect, spec);
        if (const Json* interChip = reader.readObject(root, pointer, "interChip", true))
            readInterChip(reader, *interChip, spec);
        if (const Json* hbm = reader.readObject(root, pointer, "hbm", true))
            readHbm(reader, *hbm, spec);
    }

    /// Where an out_of_range number literal (which nlohmann reports without a position) sits in the text.

} // namespace

ChipParseResult chipSpecFromJson(std::string_view jsonText)
{
    ChipParseResult result;
    std::vector<DuplicateJsonKey> duplicates;
    Json root;
    try {
        root = parseJsonReportingDuplicates(jsonText, duplicates);
    } catch (const Json::parse_error& error) {
        result.errors.push_back(
            { positionText(parseErrorPosition(jsonText, error.byte)), jsonSyntaxReason(error.what()) });
        return result;
    } catch (const Json::exception& error) {
        result.errors.push_back(
            { locateJsonLiteral(jsonText, error.what(), kRootField), jsonSyntaxReason(error.what()) });
        return result;
    }
    if (!root.is_object()) {
        result.errors.push_back(
            { std::string(kRootField), "expected a chip object, found " + describeJsonValue(root) });
        return result;
    }

    Reader reader;
    for (const DuplicateJsonKey& duplicate : duplicates)
        reader.errors.push_back({ duplicate.pointer, duplicate.message() });
    if (const Json* schema = reader.find(root, "", "schema", false)) {
        if (!schema->is_string() || schema->get<std::string>() != kSchema) {
            // Another schema means other rules: reading on would only produce noise.
            reader.fail("/schema", "expected " + jsonQuoted(kSchema) + ", found " + describeJsonValue(*schema));
            result.errors = std::move(reader.errors);
            return result;
        }
    } else {
        reader.fail("/schema", "missing; expected " + jsonQuoted(kSchema));
    }
    readChip(reader, root, result.spec);
    result.errors = std::move(reader.errors);
    return result;
}

std::string chipSpecToJson(const ChipSpec& spec)
{
    // Every field is written (the optional SRAM port bandwidth only when set), inactive blocks included, so
    // reading the text back gives the same spec.
    Json root = {
        { "schema", std::string(kSchema) },
        { "name", spec.name },
        { "description", spec.description },
        { "source", spec.source },
        { "tileCost",
            { { "model", toString(spec.tileCost.model) },
                { "fitted", { { "modelPath", spec.tileCost.fitted.modelPath } } } } },
        { "interconnect", { { "topology", toString(spec.interconnect.topology) } } },
        { "hbm",
            { { "controllerPlacement", toString(spec.hbm.controllerPlacement) },
                { "controllerCoreIds", Json(spec.hbm.controllerCoreIds) } } },
    };
    // The numeric fields from the table, each as its own C++ type (an integer prints without ".0"). An
    // optional key (the SRAM port bandwidth) is written only when set (valid specs: > 0), so chips without
    // it keep their canonical text and cache keys; a negative value is still written so an invalid spec
    // round-trips to its errors.
    for (const ChipField& field : chipFields()) {
        Json value = std::visit([](auto* member) { return Json(*member); }, field.ref(const_cast<ChipSpec&>(spec)));
        if (field.optional && value == Json(0.0))
            continue;
        root[Json::json_pointer(std::string(field.pointer))] = std::move(value);
    }
    // nlohmann's objects keep keys sorted and its doubles print in shortest round-trip form; invalid UTF-8
    // (never produced by the parser) is replaced rather than thrown on.
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace elk::chip
