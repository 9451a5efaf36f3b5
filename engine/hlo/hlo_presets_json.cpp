// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// JSON side of the StableHLO device and system presets ("elk.hlo-device/1", "elk.hlo-system/1").
#include "engine/hlo/hlo_presets.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/json_parse.h"
#include "engine/core/json_text.h"

namespace elk::hlo {

namespace {

    using Json = nlohmann::json;

    constexpr std::string_view kDeviceSchema = "elk.hlo-device/1";
    constexpr std::string_view kSystemSchema = "elk.hlo-system/1";
    // Problems with the document as a whole (the empty JSON pointer reads badly in messages).
    constexpr std::string_view kRootField = "/";

    // Element-type keys of peakTflopsByType: the MLIR spellings that peakFlopsPerSecond maps every
    // element type onto. A key outside this list is a typo ("bfl6"), never silently ignored.
    constexpr std::string_view kPeakKeys[]
        = { "f64", "f32", "tf32", "bf16", "f16", "f8", "f6", "f4", "i64", "i32", "i16", "i8", "i4" };

    std::string childPointer(const std::string& pointer, std::string_view key)
    {
        return pointer + "/" + jsonPointerToken(key);
    }

    enum class Bound { Positive, NonNegative };

    /// Reads typed members of the root object, collecting every problem instead of stopping at the first.
    class Reader {
    public:
        explicit Reader(const Json& root)
            : m_root(root)
        {
        }

        std::vector<PresetError> errors;

        void fail(std::string field, std::string message)
        {
            errors.push_back({ std::move(field), std::move(message) });
        }

        void rejectUnknownKeys(std::initializer_list<std::string_view> allowed)
        {
            for (const auto& item : m_root.items()) {
                if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end())
                    continue;
                std::string list;
                for (std::string_view key : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(key);
                fail(childPointer("", item.key()), "unknown key " + jsonQuoted(item.key()) + "; allowed keys: " + list);
            }
        }

        const Json* find(std::string_view key, bool required)
        {
            const auto it = m_root.find(std::string(key));
            if (it != m_root.end())
                return &*it;
            if (required)
                fail(childPointer("", key), "missing; this key is required");
            return nullptr;
        }

        void readString(std::string_view key, std::string& out, bool required, bool nonEmpty)
        {
            const Json* value = find(key, required);
            if (!value)
                return;
            if (!value->is_string()) {
                fail(childPointer("", key), "expected a string, found " + describeJsonValue(*value));
                return;
            }
            out = value->get<std::string>();
            if (nonEmpty && out.empty())
                fail(childPointer("", key), "expected a non-empty string");
        }

        void readBool(std::string_view key, bool& out)
        {
            const Json* value = find(key, false);
            if (!value)
                return;
            if (!value->is_boolean()) {
                fail(childPointer("", key), "expected true or false, found " + describeJsonValue(*value));
                return;
            }
            out = value->get<bool>();
        }

        static bool numberIn(const Json& value, Bound bound, double& out, std::string& problem)
        {
            if (!value.is_number()) {
                problem = "expected a number, found " + describeJsonValue(value);
                return false;
            }
            const double number = value.get<double>();
            if (!std::isfinite(number)) {
                problem = "expected a finite number, found " + value.dump();
                return false;
            }
            if (bound == Bound::Positive && !(number > 0)) {
                problem = "expected a number > 0, found " + value.dump();
                return false;
            }
            if (bound == Bound::NonNegative && number < 0) {
                problem = "expected a number >= 0, found " + value.dump();
                return false;
            }
            out = number;
            return true;
        }

        void readDouble(std::string_view key, double& out, Bound bound, bool required)
        {
            const Json* value = find(key, required);
            if (!value)
                return;
            std::string problem;
            if (!numberIn(*value, bound, out, problem))
                fail(childPointer("", key), problem);
        }

        /// A whole number >= 1.
        void readCount(std::string_view key, int& out, bool required)
        {
            const Json* value = find(key, required);
            if (!value)
                return;
            const bool integral = value->is_number_integer()
                || (value->is_number_float() && std::isfinite(value->get<double>())
                    && std::floor(value->get<double>()) == value->get<double>());
            if (!integral) {
                fail(childPointer("", key), "expected a whole number >= 1, found " + describeJsonValue(*value));
                return;
            }
            const double number = value->get<double>();
            if (number < 1 || number > 1e9) {
                fail(childPointer("", key), "expected a whole number from 1 to 1000000000, found " + value->dump());
                return;
            }
            out = static_cast<int>(number);
        }

    private:
        const Json& m_root;
    };

    /// Parses the text into an object and checks its schema; on failure `errors` says why.
    bool parseRoot(std::string_view text, std::string_view schema, std::string_view what, Json& root,
        std::vector<PresetError>& errors)
    {
        std::vector<DuplicateJsonKey> duplicates;
        try {
            root = parseJsonReportingDuplicates(text, duplicates);
        } catch (const Json::parse_error& error) {
            errors.push_back({ positionText(parseErrorPosition(text, error.byte)), jsonSyntaxReason(error.what()) });
            return false;
        } catch (const Json::exception& error) {
            errors.push_back({ locateJsonLiteral(text, error.what(), kRootField), jsonSyntaxReason(error.what()) });
            return false;
        }
        for (const DuplicateJsonKey& duplicate : duplicates)
            errors.push_back({ duplicate.pointer, duplicate.message() });
        if (!root.is_object()) {
            errors.push_back({ std::string(kRootField),
                "expected " + std::string(what) + " object, found " + describeJsonValue(root) });
            return false;
        }
        const auto it = root.find("schema");
        if (it == root.end()) {
            errors.push_back({ "/schema", "missing; expected " + jsonQuoted(schema) });
            return false;
        }
        if (!it->is_string() || it->get<std::string>() != schema) {
            // Another schema means other rules: reading on would only produce noise.
            errors.push_back({ "/schema", "expected " + jsonQuoted(schema) + ", found " + describeJsonValue(*it) });
            return false;
        }
        return true;
    }

    void readPeaks(Reader& reader, const Json& root, DevicePreset& preset)
    {
        const auto it = root.find("peakTflopsByType");
        if (it == root.end()) {
            reader.fail("/peakTflopsByType", "missing; this key is required (dense TFLOP/s per element type)");
            return;
        }
        if (!it->is_object()) {
            reader.fail(
                "/peakTflopsByType", "expected an object of element type -> TFLOP/s, found " + describeJsonValue(*it));
            return;
        }
        std::string allowed;
        for (std::string_view key : kPeakKeys)
            allowed += (allowed.empty() ? "" : ", ") + std::string(key);
        for (const auto& item : it->items()) { // nlohmann keeps object keys sorted
            const std::string field = childPointer("/peakTflopsByType", item.key());
            if (std::find(std::begin(kPeakKeys), std::end(kPeakKeys), item.key()) == std::end(kPeakKeys)) {
                reader.fail(field, "unknown element type " + jsonQuoted(item.key()) + "; allowed: " + allowed);
                continue;
            }
            double tflops = 0;
            std::string problem;
            if (Reader::numberIn(item.value(), Bound::Positive, tflops, problem))
                preset.peakTflopsByType.emplace_back(item.key(), tflops);
            else
                reader.fail(field, problem);
        }
    }

} // namespace

DevicePresetResult devicePresetFromJson(std::string_view jsonText)
{
    DevicePresetResult result;
    Json root;
    if (!parseRoot(jsonText, kDeviceSchema, "a device", root, result.errors))
        return result;
    Reader reader(root);
    reader.errors = std::move(result.errors);
    reader.rejectUnknownKeys({ "schema", "name", "displayName", "vendor", "generation", "peakTflopsByType",
        "fallbackTflops", "f32MatmulUsesTf32", "transcendentalTeraPerSecond", "memoryBandwidthGBps", "memoryGB",
        "computeEfficiency", "memoryEfficiency", "efficiencyProvenance", "kernelLaunchMicros", "source" });
    DevicePreset& preset = result.preset;
    reader.readString("name", preset.name, true, true);
    preset.displayName = preset.name;
    reader.readString("displayName", preset.displayName, false, true);
    reader.readString("vendor", preset.vendor, false, true);
    reader.readCount("generation", preset.generation, false);
    readPeaks(reader, root, preset);
    reader.readDouble("fallbackTflops", preset.fallbackTflops, Bound::Positive, true);
    reader.readBool("f32MatmulUsesTf32", preset.f32MatmulUsesTf32);
    reader.readDouble("transcendentalTeraPerSecond", preset.transcendentalTeraPerSecond, Bound::NonNegative, false);
    reader.readDouble("memoryBandwidthGBps", preset.memoryBandwidthGBps, Bound::Positive, true);
    reader.readDouble("memoryGB", preset.memoryGB, Bound::Positive, true);
    reader.readDouble("computeEfficiency", preset.computeEfficiency, Bound::Positive, false);
    reader.readDouble("memoryEfficiency", preset.memoryEfficiency, Bound::Positive, false);
    reader.readString("efficiencyProvenance", preset.efficiencyProvenance, false, false);
    reader.readDouble("kernelLaunchMicros", preset.kernelLaunchMicros, Bound::NonNegative, false);
    reader.readString("source", preset.source, true, true);
    if (preset.f32MatmulUsesTf32 && root.contains("peakTflopsByType") && root["peakTflopsByType"].is_object()
        && !root["peakTflopsByType"].contains("tf32"))
        reader.fail("/peakTflopsByType/tf32", "missing; f32MatmulUsesTf32 is true, so the tf32 peak is required");
    result.errors = std::move(reader.errors);
    return result;
}

SystemPresetResult systemPresetFromJson(std::string_view jsonText)
{
    SystemPresetResult result;
    Json root;
    if (!parseRoot(jsonText, kSystemSchema, "a system", root, result.errors))
        return result;
    Reader reader(root);
    reader.errors = std::move(result.errors);
    reader.rejectUnknownKeys({ "schema", "name", "displayName", "device", "devicesPerNode", "nodes", "nodeTopology",
        "linkGBpsPerDevice", "linkLatencyMicros", "torusX", "torusY", "nicGBpsPerNode", "hopLatencyMicros",
        "nodesPerRouter", "routersPerGroup", "globalLinkGBps", "source" });
    SystemPreset& preset = result.preset;
    reader.readString("name", preset.name, true, true);
    preset.displayName = preset.name;
    reader.readString("displayName", preset.displayName, false, true);

    reader.readString("device", preset.device, true, true);
    const bool devicePath = preset.device.size() > 5 && preset.device.substr(preset.device.size() - 5) == ".json";
    if (!preset.device.empty() && !devicePath && !findDevicePreset(preset.device)) {
        std::string names;
        for (const std::string& name : builtinDeviceNames())
            names += (names.empty() ? "" : ", ") + name;
        reader.fail("/device",
            "unknown device " + jsonQuoted(preset.device) + "; built-in devices: " + names
                + " (or the path of a device .json file)");
    }

    reader.readCount("devicesPerNode", preset.devicesPerNode, true);
    reader.readCount("nodes", preset.nodes, false);

    if (const Json* topology = reader.find("nodeTopology", false)) {
        const std::string allowed
            = jsonQuoted(toString(TopologyKind::AllToAll)) + ", " + jsonQuoted(toString(TopologyKind::Torus2D));
        if (topology->is_string() && topology->get<std::string>() == toString(TopologyKind::AllToAll))
            preset.nodeTopology = TopologyKind::AllToAll;
        else if (topology->is_string() && topology->get<std::string>() == toString(TopologyKind::Torus2D))
            preset.nodeTopology = TopologyKind::Torus2D;
        else
            reader.fail("/nodeTopology", "expected one of " + allowed + ", found " + describeJsonValue(*topology));
    }
    const bool torus = preset.nodeTopology == TopologyKind::Torus2D;
    reader.readDouble("linkGBpsPerDevice", preset.linkGBpsPerDevice, Bound::Positive, true);
    reader.readDouble("linkLatencyMicros", preset.linkLatencyMicros, Bound::NonNegative, false);
    const std::size_t errorsBeforeTorus = reader.errors.size();
    reader.readCount("torusX", preset.torusX, torus);
    reader.readCount("torusY", preset.torusY, torus);
    if (reader.errors.size() == errorsBeforeTorus) {
        if (torus && static_cast<long long>(preset.torusX) * preset.torusY != preset.devicesPerNode)
            reader.fail("/torusY",
                "torusX x torusY = " + std::to_string(preset.torusX) + " x " + std::to_string(preset.torusY)
                    + " must equal devicesPerNode = " + std::to_string(preset.devicesPerNode));
        if (!torus && (preset.torusX != 1 || preset.torusY != 1))
            reader.fail(preset.torusX != 1 ? "/torusX" : "/torusY",
                "torusX and torusY apply to nodeTopology \"torus-2d\" only; leave them out or set them to 1");
    }

    const bool multiNode = preset.nodes > 1;
    reader.readDouble(
        "nicGBpsPerNode", preset.nicGBpsPerNode, multiNode ? Bound::Positive : Bound::NonNegative, multiNode);
    reader.readDouble("hopLatencyMicros", preset.hopLatencyMicros, Bound::NonNegative, multiNode);
    reader.readCount("nodesPerRouter", preset.nodesPerRouter, false);
    reader.readCount("routersPerGroup", preset.routersPerGroup, false);
    reader.readDouble("globalLinkGBps", preset.globalLinkGBps, Bound::NonNegative, false);
    reader.readString("source", preset.source, true, true);
    result.errors = std::move(reader.errors);
    return result;
}

std::string devicePresetToJson(const DevicePreset& preset)
{
    Json peaks = Json::object();
    for (const auto& [type, tflops] : preset.peakTflopsByType)
        peaks[type] = tflops;
    Json root {
        { "schema", kDeviceSchema },
        { "name", preset.name },
        { "displayName", preset.displayName },
        { "peakTflopsByType", peaks },
        { "fallbackTflops", preset.fallbackTflops },
        { "f32MatmulUsesTf32", preset.f32MatmulUsesTf32 },
        { "transcendentalTeraPerSecond", preset.transcendentalTeraPerSecond },
        { "memoryBandwidthGBps", preset.memoryBandwidthGBps },
        { "memoryGB", preset.memoryGB },
        { "computeEfficiency", preset.computeEfficiency },
        { "memoryEfficiency", preset.memoryEfficiency },
        { "efficiencyProvenance", preset.efficiencyProvenance },
        { "kernelLaunchMicros", preset.kernelLaunchMicros },
        { "source", preset.source },
    };
    if (!preset.vendor.empty())
        root["vendor"] = preset.vendor;
    if (preset.generation > 0)
        root["generation"] = preset.generation;
    // Keys sorted (nlohmann's object is a std::map), doubles in shortest round-trip form: canonical.
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string systemPresetToJson(const SystemPreset& preset)
{
    Json root {
        { "schema", kSystemSchema },
        { "name", preset.name },
        { "displayName", preset.displayName },
        { "device", preset.device },
        { "devicesPerNode", preset.devicesPerNode },
        { "nodes", preset.nodes },
        { "nodeTopology", toString(preset.nodeTopology) },
        { "linkGBpsPerDevice", preset.linkGBpsPerDevice },
        { "linkLatencyMicros", preset.linkLatencyMicros },
        { "nicGBpsPerNode", preset.nicGBpsPerNode },
        { "hopLatencyMicros", preset.hopLatencyMicros },
        { "nodesPerRouter", preset.nodesPerRouter },
        { "routersPerGroup", preset.routersPerGroup },
        { "globalLinkGBps", preset.globalLinkGBps },
        { "source", preset.source },
    };
    if (preset.nodeTopology == TopologyKind::Torus2D) {
        root["torusX"] = preset.torusX;
        root["torusY"] = preset.torusY;
    }
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace elk::hlo
