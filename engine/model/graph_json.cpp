// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/graph_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "engine/core/json_parse.h"
#include "engine/core/json_text.h"

namespace elk::model {

namespace {

    using nlohmann::json;

    // ---------------------------------------------------------------------------------------------
    // Reading

    std::string quotedJson(const std::string& text)
    {
        return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
    }

    std::string describe(const json& value)
    {
        if (value.is_null())
            return "null";
        if (value.is_number_float() || value.is_number_integer() || value.is_boolean())
            return std::string(value.type_name()) + " " + value.dump();
        return value.type_name();
    }

    class Reader {
    public:
        explicit Reader(std::vector<GraphParseError>& errors)
            : m_errors(errors)
        {
        }

        void fail(const std::string& pointer, const std::string& message)
        {
            m_errors.push_back({ pointer, message, 0, 0 });
        }

        // Reports unknown and missing keys; true when every required key is present.
        bool checkKeys(const json& object, const std::string& pointer, std::initializer_list<const char*> required,
            std::initializer_list<const char*> optional = {})
        {
            bool complete = true;
            for (const auto& item : object.items()) { // nlohmann::json keeps keys sorted
                const std::string& key = item.key(); // a plain reference: clang 14 cannot capture bindings
                const auto matches = [&key](const char* k) { return key == k; };
                if (std::none_of(required.begin(), required.end(), matches)
                    && std::none_of(optional.begin(), optional.end(), matches)) {
                    std::string allowed;
                    for (const char* k : required)
                        allowed += std::string(allowed.empty() ? "" : ", ") + k;
                    for (const char* k : optional)
                        allowed += std::string(allowed.empty() ? "" : ", ") + k;
                    fail(pointer + "/" + jsonPointerToken(key),
                        "unknown key " + quotedJson(key) + "; allowed keys: " + allowed);
                }
            }
            for (const char* key : required) {
                if (!object.contains(key)) {
                    fail(pointer, std::string("missing key \"") + key + "\"");
                    complete = false;
                }
            }
            return complete;
        }

        bool expectObject(const json& value, const std::string& pointer)
        {
            if (value.is_object())
                return true;
            fail(pointer, "expected an object, got " + describe(value));
            return false;
        }

        bool expectArray(const json& value, const std::string& pointer)
        {
            if (value.is_array())
                return true;
            fail(pointer, "expected an array, got " + describe(value));
            return false;
        }

        std::optional<std::string> readString(const json& value, const std::string& pointer, bool nonEmpty = true)
        {
            if (!value.is_string()) {
                fail(pointer, "expected a string, got " + describe(value));
                return std::nullopt;
            }
            auto text = value.get<std::string>();
            if (nonEmpty && text.empty()) {
                fail(pointer, "expected a non-empty string");
                return std::nullopt;
            }
            return text;
        }

        std::optional<std::int64_t> readInteger(const json& value, const std::string& pointer)
        {
            if (value.is_number_unsigned()) {
                if (value.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
                    fail(pointer, "integer " + value.dump() + " is out of range (at most 2^63 - 1)");
                    return std::nullopt;
                }
                return std::int64_t(value.get<std::uint64_t>());
            }
            if (value.is_number_integer())
                return value.get<std::int64_t>();
            fail(pointer, "expected an integer, got " + describe(value));
            return std::nullopt;
        }

        template <typename Enum, typename FromString, typename AllValues>
        std::optional<Enum> readEnum(const json& value, const std::string& pointer, const char* what,
            FromString fromString, const AllValues& all)
        {
            const auto text = readString(value, pointer, false);
            if (!text)
                return std::nullopt;
            if (const auto parsed = fromString(*text))
                return parsed;
            std::string allowed;
            for (const auto v : all)
                allowed += std::string(allowed.empty() ? "" : ", ") + toString(v);
            fail(pointer, std::string("unknown ") + what + " " + quotedJson(*text) + "; expected one of " + allowed);
            return std::nullopt;
        }

        void readTensors(const json& tensors, Graph& graph)
        {
            if (!expectArray(tensors, "/tensors"))
                return;
            for (std::size_t i = 0; i < tensors.size(); ++i) {
                const std::string at = "/tensors/" + std::to_string(i);
                const json& entry = tensors[i];
                if (!expectObject(entry, at))
                    continue;
                const bool complete = checkKeys(entry, at, { "name", "shape", "dtype", "role" });
                // Register the name even when the entry is broken, so references to it do not fail too.
                const auto name = entry.contains("name") ? readString(entry["name"], at + "/name") : std::nullopt;
                if (name) {
                    if (const auto first = m_tensorPointer.find(*name); first != m_tensorPointer.end()) {
                        fail(at + "/name",
                            "duplicate tensor name " + quotedJson(*name) + " (first declared at " + first->second
                                + ")");
                        continue;
                    }
                    m_tensorPointer.emplace(*name, at);
                }
                if (!complete)
                    continue;
                const auto dtype = readEnum<DType>(entry["dtype"], at + "/dtype", "dtype", dtypeFromString, kAllDTypes);
                const auto role
                    = readEnum<TensorRole>(entry["role"], at + "/role", "role", tensorRoleFromString, kAllTensorRoles);
                std::vector<std::int64_t> shape;
                bool shapeOk = expectArray(entry["shape"], at + "/shape");
                if (shapeOk) {
                    for (std::size_t a = 0; a < entry["shape"].size(); ++a) {
                        const auto extent = readInteger(entry["shape"][a], at + "/shape/" + std::to_string(a));
                        shapeOk = shapeOk && extent.has_value();
                        if (extent)
                            shape.push_back(*extent);
                    }
                }
                if (name && dtype && role && shapeOk)
                    graph.addTensor(*name, std::move(shape), *dtype, *role);
            }
        }

        std::optional<TensorId> readTensorRef(const json& value, const std::string& pointer, const Graph& graph)
        {
            const auto name = readString(value, pointer);
            if (!name)
                return std::nullopt;
            if (const auto id = graph.findTensor(*name))
                return id;
            if (m_tensorPointer.count(*name) == 0)
                fail(pointer, "unknown tensor " + quotedJson(*name) + " (not in \"tensors\")");
            return std::nullopt; // declared but unreadable: its own error was reported already
        }

        void readTensorList(const json& list, const std::string& pointer, Graph& graph, bool inputs)
        {
            if (!expectArray(list, pointer))
                return;
            for (std::size_t i = 0; i < list.size(); ++i) {
                if (const auto id = readTensorRef(list[i], pointer + "/" + std::to_string(i), graph))
                    inputs ? graph.addInput(*id) : graph.addOutput(*id);
            }
        }

        std::optional<Axis> readAxis(const json& value, const std::string& at, std::size_t dimCount)
        {
            if (!expectArray(value, at))
                return std::nullopt;
            if (value.size() != 1 && value.size() != 3) {
                fail(at,
                    "an axis is [dim] or [dim, windowDim, stride], got " + std::to_string(value.size())
                        + " element(s)");
                return std::nullopt;
            }
            std::vector<std::int64_t> numbers;
            for (std::size_t k = 0; k < value.size(); ++k) {
                const auto number = readInteger(value[k], at + "/" + std::to_string(k));
                if (!number)
                    return std::nullopt;
                numbers.push_back(*number);
            }
            const std::string range = dimCount ? "0.." + std::to_string(dimCount - 1) : "(the op has no dims)";
            bool ok = true;
            for (std::size_t k = 0; k < std::min<std::size_t>(2, numbers.size()); ++k) {
                if (numbers[k] < 0 || std::uint64_t(numbers[k]) >= dimCount) {
                    fail(at,
                        std::string(k == 0 ? "dim" : "window dim") + " index " + std::to_string(numbers[k])
                            + " out of range " + range);
                    ok = false;
                }
            }
            if (!ok)
                return std::nullopt;
            if (numbers.size() == 1)
                return Axis::loop(int(numbers[0]));
            return Axis::window(int(numbers[0]), int(numbers[1]), numbers[2]);
        }

        void readOps(const json& ops, Graph& graph)
        {
            if (!expectArray(ops, "/ops"))
                return;
            std::map<std::string, std::string> opPointer;
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const std::string at = "/ops/" + std::to_string(i);
                const json& entry = ops[i];
                if (!expectObject(entry, at) || !checkKeys(entry, at, { "name", "kind", "dims", "operands" }))
                    continue;
                bool ok = true;
                const auto name = readString(entry["name"], at + "/name");
                ok = ok && name;
                if (name) {
                    if (const auto first = opPointer.find(*name); first != opPointer.end()) {
                        fail(at + "/name",
                            "duplicate op name " + quotedJson(*name) + " (first declared at " + first->second + ")");
                        ok = false;
                    } else {
                        opPointer.emplace(*name, at);
                    }
                }
                const auto kind
                    = readEnum<OpKind>(entry["kind"], at + "/kind", "op kind", opKindFromString, kAllOpKinds);
                ok = ok && kind;
                std::vector<LoopDim> dims;
                bool dimsOk = expectArray(entry["dims"], at + "/dims");
                if (dimsOk) {
                    for (std::size_t d = 0; d < entry["dims"].size(); ++d) {
                        const std::string dimAt = at + "/dims/" + std::to_string(d);
                        const json& dim = entry["dims"][d];
                        if (!expectObject(dim, dimAt) || !checkKeys(dim, dimAt, { "name", "extent" })) {
                            dimsOk = false;
                            continue;
                        }
                        const auto dimName = readString(dim["name"], dimAt + "/name");
                        const auto extent = readInteger(dim["extent"], dimAt + "/extent");
                        if (dimName && extent)
                            dims.push_back({ *dimName, *extent });
                        else
                            dimsOk = false;
                    }
                }
                ok = ok && dimsOk;
                std::vector<OperandRef> operands;
                if (expectArray(entry["operands"], at + "/operands")) {
                    for (std::size_t o = 0; o < entry["operands"].size(); ++o) {
                        const std::string operandAt = at + "/operands/" + std::to_string(o);
                        const json& operand = entry["operands"][o];
                        if (!expectObject(operand, operandAt) || !checkKeys(operand, operandAt, { "tensor", "axes" })) {
                            ok = false;
                            continue;
                        }
                        const auto tensor = readTensorRef(operand["tensor"], operandAt + "/tensor", graph);
                        OperandRef ref;
                        bool operandOk = tensor.has_value() && expectArray(operand["axes"], operandAt + "/axes");
                        if (operand["axes"].is_array()) {
                            for (std::size_t a = 0; a < operand["axes"].size(); ++a) {
                                // Without valid dims the index range is unknown, so only the shape is checked.
                                const auto axis = readAxis(operand["axes"][a], operandAt + "/axes/" + std::to_string(a),
                                    dimsOk ? dims.size() : std::numeric_limits<std::size_t>::max());
                                operandOk = operandOk && axis;
                                if (axis)
                                    ref.axes.push_back(*axis);
                            }
                        }
                        if (tensor)
                            ref.tensor = *tensor;
                        ok = ok && operandOk;
                        operands.push_back(std::move(ref));
                    }
                } else {
                    ok = false;
                }
                if (ok)
                    graph.addOp(*name, *kind, dims, operands);
            }
        }

    private:
        std::vector<GraphParseError>& m_errors;
        std::map<std::string, std::string> m_tensorPointer; ///< tensor name -> pointer of its declaration
    };

    // ---------------------------------------------------------------------------------------------
    // Writing

    std::string quotedOut(const std::string& text)
    {
        return quotedJson(text);
    }

    std::string intList(const std::vector<std::int64_t>& values)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < values.size(); ++i)
            text += (i ? ", " : "") + std::to_string(values[i]);
        return text + "]";
    }

    std::string tensorRefName(const Graph& graph, TensorId id)
    {
        return quotedOut(id < graph.tensors().size() ? graph.tensor(id).name : "#" + std::to_string(id));
    }

    std::string nameList(const Graph& graph, const std::vector<TensorId>& ids)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < ids.size(); ++i)
            text += (i ? ", " : "") + tensorRefName(graph, ids[i]);
        return text + "]";
    }

    std::string axesText(const std::vector<Axis>& axes)
    {
        std::string text = "[";
        for (std::size_t a = 0; a < axes.size(); ++a) {
            const Axis& axis = axes[a];
            text += a ? ", [" : "[";
            text += std::to_string(axis.dim);
            if (axis.isWindow())
                text += ", " + std::to_string(axis.windowDim) + ", " + std::to_string(axis.stride);
            text += "]";
        }
        return text + "]";
    }

} // namespace

GraphParseResult graphFromJson(std::string_view jsonText)
{
    GraphParseResult result;
    json document;
    try {
        std::vector<DuplicateJsonKey> duplicates;
        document = parseJsonReportingDuplicates(jsonText, duplicates);
        for (const DuplicateJsonKey& duplicate : duplicates)
            result.errors.push_back({ duplicate.pointer, duplicate.message(), 0, 0 });
    } catch (const json::parse_error& error) {
        const TextPosition position = parseErrorPosition(jsonText, error.byte);
        result.errors.clear(); // duplicate keys found before the syntax error do not matter now
        result.errors.push_back(
            { positionText(position), jsonSyntaxReason(error.what()), int(position.line), int(position.column) });
        return result;
    } catch (const json::exception& error) { // a number too large for a double
        result.errors.clear();
        result.errors.push_back({ locateJsonLiteral(jsonText, error.what()), jsonSyntaxReason(error.what()), 0, 0 });
        return result;
    }
    Reader reader(result.errors);
    if (!reader.expectObject(document, ""))
        return result;
    if (!document.contains("schema")) {
        reader.fail("", std::string("missing key \"schema\" (expected \"") + kGraphSchema + "\")");
        return result;
    }
    if (!document["schema"].is_string() || document["schema"].get<std::string>() != kGraphSchema) {
        reader.fail(
            "/schema", "unsupported schema " + document["schema"].dump() + ", expected \"" + kGraphSchema + "\"");
        return result;
    }
    if (!reader.checkKeys(document, "", { "schema", "name", "tensors", "inputs", "outputs", "ops" }, { "description" }))
        return result;
    Graph& graph = result.graph;
    if (const auto name = reader.readString(document["name"], "/name", false))
        graph.setName(*name);
    if (document.contains("description")) {
        if (const auto description = reader.readString(document["description"], "/description", false))
            graph.setDescription(*description);
    }
    reader.readTensors(document["tensors"], graph);
    reader.readTensorList(document["inputs"], "/inputs", graph, true);
    reader.readTensorList(document["outputs"], "/outputs", graph, false);
    reader.readOps(document["ops"], graph);
    return result;
}

GraphParseResult loadGraphFile(const std::string& path)
{
    constexpr std::streamoff maxBytes = std::streamoff(256) << 20;
    GraphParseResult result;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) {
        result.errors.push_back({ path, "cannot open the file for reading", 0, 0 });
        return result;
    }
    const std::streamoff size = file.tellg();
    if (size > maxBytes) {
        result.errors.push_back(
            { path, "file is " + std::to_string(size) + " bytes; graph files may have at most 256 MiB", 0, 0 });
        return result;
    }
    std::string text(std::size_t(std::max<std::streamoff>(size, 0)), '\0');
    file.seekg(0);
    if (!file.read(text.data(), std::streamsize(text.size()))) {
        result.errors.push_back({ path, "could not read the file", 0, 0 });
        return result;
    }
    return graphFromJson(text);
}

std::string graphToJson(const Graph& graph)
{
    std::ostringstream out;
    out << "{\n";
    out << "  \"schema\": " << quotedOut(kGraphSchema) << ",\n";
    out << "  \"name\": " << quotedOut(graph.name()) << ",\n";
    if (!graph.description().empty())
        out << "  \"description\": " << quotedOut(graph.description()) << ",\n";
    out << "  \"tensors\": [";
    for (std::size_t t = 0; t < graph.tensors().size(); ++t) {
        const Tensor& tensor = graph.tensors()[t];
        out << (t ? ",\n" : "\n") << "    {\"name\": " << quotedOut(tensor.name)
            << ", \"shape\": " << intList(tensor.shape) << ", \"dtype\": \"" << toString(tensor.dtype)
            << "\", \"role\": \"" << toString(tensor.role) << "\"}";
    }
    out << (graph.tensors().empty() ? "],\n" : "\n  ],\n");
    out << "  \"inputs\": " << nameList(graph, graph.inputs()) << ",\n";
    out << "  \"outputs\": " << nameList(graph, graph.outputs()) << ",\n";
    out << "  \"ops\": [";
    for (OpId id = 0; id < graph.ops().size(); ++id) {
        const Op& op = graph.op(id);
        const TensorExpr& expr = graph.exprOf(id);
        out << (id ? ",\n" : "\n") << "    {\n";
        out << "      \"name\": " << quotedOut(op.name) << ",\n";
        out << "      \"kind\": \"" << toString(expr.kind) << "\",\n";
        out << "      \"dims\": [";
        for (std::size_t d = 0; d < expr.dimExtents.size(); ++d) {
            const std::string dimName = d < op.dimNames.size() ? op.dimNames[d] : "d" + std::to_string(d);
            out << (d ? ", " : "") << "{\"name\": " << quotedOut(dimName) << ", \"extent\": " << expr.dimExtents[d]
                << "}";
        }
        out << "],\n";
        out << "      \"operands\": [";
        for (std::size_t o = 0; o < expr.operands.size(); ++o) {
            const TensorId tensor = o < op.tensors.size() ? op.tensors[o] : TensorId(-1);
            out << (o ? ",\n" : "\n") << "        {\"tensor\": " << tensorRefName(graph, tensor)
                << ", \"axes\": " << axesText(expr.operands[o].axes) << "}";
        }
        out << (expr.operands.empty() ? "]\n" : "\n      ]\n");
        out << "    }";
    }
    out << (graph.ops().empty() ? "]\n" : "\n  ]\n");
    out << "}\n";
    return out.str();
}

std::string toString(const GraphParseError& error)
{
    return error.location.empty() ? error.message : error.location + ": " + error.message;
}

} // namespace elk::model
