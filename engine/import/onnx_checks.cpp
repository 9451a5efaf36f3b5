// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Checks before the importer trusts a file (style rule 21; import.md section 1.3): size, leading
// bytes, protobuf parsing, header fields, value types and the op set.
#include "engine/import/onnx_passes.h"
#include "engine/import/onnx_shapes.h"

#include <onnx/defs/schema.h>
#include <onnx/proto_utils.h>

#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace elk::import::onnx_detail {

namespace {

    // Reads a protobuf varint at `pos`; false when the data ends first or it is too long.
    bool readVarint(std::string_view bytes, std::size_t& pos, std::uint64_t& value)
    {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= bytes.size())
                return false;
            const auto byte = std::uint8_t(bytes[pos++]);
            value |= std::uint64_t(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0)
                return true;
        }
        return false;
    }

    bool looksLikeText(std::string_view bytes)
    {
        const std::size_t n = std::min<std::size_t>(bytes.size(), 64);
        for (std::size_t i = 0; i < n; ++i) {
            const auto c = static_cast<unsigned char>(bytes[i]);
            if (!std::isprint(c) && !std::isspace(c))
                return false;
        }
        return true;
    }

    std::string leadingBytes(std::string_view bytes)
    {
        static const char* hex = "0123456789abcdef";
        std::string text;
        for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 8); ++i) {
            const auto c = static_cast<unsigned char>(bytes[i]);
            text += (i ? " " : "") + std::string { hex[c >> 4], hex[c & 15] };
        }
        return text;
    }

    // A ModelProto's top-level fields with their wire types (1: ir_version ... 25: functions).
    bool isModelField(std::uint64_t field, std::uint64_t wireType)
    {
        switch (field) {
        case 1:
        case 5:
            return wireType == 0;
        case 2:
        case 3:
        case 4:
        case 6:
        case 7:
        case 8:
        case 14:
        case 20:
        case 25:
            return wireType == 2;
        default:
            return false;
        }
    }

    // The "magic": a serialized ModelProto starts with one of its own fields, and its top-level
    // fields run exactly to the end of the data. Garbage, text and truncated files fail here with
    // a precise message, before protobuf's lenient parser sees them.
    bool checkFraming(std::string_view bytes, Context& ctx)
    {
        std::size_t pos = 0;
        bool first = true;
        while (pos < bytes.size()) {
            const std::size_t start = pos;
            std::uint64_t key = 0;
            if (!readVarint(bytes, pos, key)) {
                ctx.error("", "truncated: the data ends inside a field key at byte " + std::to_string(start));
                return false;
            }
            const std::uint64_t field = key >> 3;
            const std::uint64_t wire = key & 7;
            if (first && !isModelField(field, wire)) {
                ctx.error("",
                    std::string("not an ONNX model: the data does not start like a ModelProto (first bytes ")
                        + leadingBytes(bytes) + ")"
                        + (looksLikeText(bytes) ? "; it looks like a text file, and ONNX models are binary protobuf"
                                                : ""));
                return false;
            }
            first = false;
            std::uint64_t length = 0;
            switch (wire) {
            case 0:
                if (!readVarint(bytes, pos, length)) {
                    ctx.error("",
                        "truncated: field " + std::to_string(field) + " at byte " + std::to_string(start)
                            + " ends inside its value");
                    return false;
                }
                break;
            case 1:
            case 5:
                length = wire == 1 ? 8 : 4; // fixed64, fixed32
                if (bytes.size() - pos < length) {
                    ctx.error("",
                        "truncated: field " + std::to_string(field) + " at byte " + std::to_string(start) + " needs "
                            + std::to_string(length) + " bytes, " + std::to_string(bytes.size() - pos) + " remain");
                    return false;
                }
                pos += std::size_t(length);
                break;
            case 2:
                if (!readVarint(bytes, pos, length) || bytes.size() - pos < length) {
                    ctx.error("",
                        "truncated: field " + std::to_string(field) + " at byte " + std::to_string(start) + " declares "
                            + std::to_string(length) + " bytes, but only " + std::to_string(bytes.size() - pos)
                            + " remain");
                    return false;
                }
                pos += std::size_t(length);
                break;
            default:
                ctx.error("",
                    "not an ONNX model: invalid protobuf wire type " + std::to_string(wire) + " at byte "
                        + std::to_string(start));
                return false;
            }
        }
        return true;
    }

    const char* typeKind(const onnx::TypeProto& type)
    {
        if (type.has_sequence_type())
            return "a sequence";
        if (type.has_map_type())
            return "a map";
        if (type.has_optional_type())
            return "an optional";
        if (type.has_sparse_tensor_type())
            return "a sparse tensor";
        return "not a tensor";
    }

    void checkValueInfo(const onnx::ValueInfoProto& info, const char* what, Context& ctx)
    {
        const std::string location = std::string(what) + " '" + info.name() + "'";
        if (!info.has_type() || !info.type().has_tensor_type()) {
            // Sequences made inside the graph are tracked; at its inputs and outputs they are not.
            if (info.has_type() && std::string_view(what) != "value")
                ctx.error(location,
                    std::string("is ") + typeKind(info.type())
                        + "; only tensors can be modelled (sequence, map and optional values are not supported)");
            return;
        }
        const auto& tensor = info.type().tensor_type();
        if (tensor.elem_type() != 0 && !dtypeOf(tensor.elem_type()))
            ctx.error(location, "has element type " + elemTypeName(tensor.elem_type()) + ", which cannot be modelled");
        if (!tensor.has_shape())
            return;
        if (tensor.shape().dim_size() > ctx.options.maxRank)
            ctx.error(location,
                "has rank " + std::to_string(tensor.shape().dim_size()) + ", more than the limit "
                    + std::to_string(ctx.options.maxRank));
        for (int i = 0; i < tensor.shape().dim_size(); ++i) {
            const auto& dim = tensor.shape().dim(i);
            if (dim.has_dim_value() && dim.dim_value() < 0)
                ctx.error(
                    location, "dim " + std::to_string(i) + " is negative (" + std::to_string(dim.dim_value()) + ")");
        }
    }

    struct Unsupported {
        std::string label;
        std::string reason;
    };

    // Walks the nodes of a graph and of its If/Loop/Scan bodies.
    void collectUnsupported(const onnx::GraphProto& graph, const std::string& scope, Context& ctx,
        std::vector<Unsupported>& out, std::vector<Unsupported>& malformed, std::int64_t& nodeCount)
    {
        static const std::set<std::string> stringOps
            = { "StringNormalizer", "RegexFullMatch", "StringConcat", "StringSplit", "ImageDecoder" };
        for (int i = 0; i < graph.node_size(); ++i) {
            const onnx::NodeProto& node = graph.node(i);
            ++nodeCount;
            const std::string label = scope + nodeLabel(node, i);
            const std::string domain = node.domain() == "ai.onnx" ? std::string() : node.domain();
            const std::string& op = node.op_type();
            const bool controlFlow = domain.empty() && (op == "If" || op == "Loop" || op == "Scan");
            for (const auto& attribute : node.attribute()) {
                if (attribute.type() != onnx::AttributeProto::GRAPH && attribute.type() != onnx::AttributeProto::GRAPHS)
                    continue;
                if (!controlFlow) {
                    out.push_back({ label,
                        "has a subgraph attribute '" + attribute.name()
                            + "'; only If, Loop and Scan bodies are inlined" });
                    continue;
                }
                if (attribute.has_g())
                    collectUnsupported(attribute.g(), label + " / ", ctx, out, malformed, nodeCount);
            }
            if (!ctx.opsets.count(domain)) {
                out.push_back({ label,
                    "its domain '" + (domain.empty() ? std::string("ai.onnx") : domain)
                        + "' is not in the model's opset_import" });
                continue;
            }
            if (!domain.empty() && domain != "ai.onnx.preview.training") {
                out.push_back(
                    { label, "custom domain '" + domain + "' (only the standard ONNX operators are supported)" });
                continue;
            }
            if (op == "SequenceMap" || op.rfind("Optional", 0) == 0) {
                out.push_back({ label, "optional values and SequenceMap cannot be modelled" });
                continue;
            }
            if (stringOps.count(op)) {
                out.push_back({ label, "string tensors cannot be modelled" });
                continue;
            }
            const int opset = ctx.opsetOf(domain);
            const ShapeRule* rule = findShapeRule(domain, op);
            // Schema lookups are map searches by string; a model repeats a few op types many times.
            static thread_local std::map<std::tuple<std::string, std::string, int>, std::pair<bool, bool>> known;
            if (known.size() > 4096)
                known.clear(); // op names come from files: keep the cache bounded
            auto [it, added] = known.try_emplace({ domain, op, opset });
            if (added) {
                const bool inLibrary = onnx::OpSchemaRegistry::Schema(op, domain) != nullptr;
                it->second = { inLibrary, inLibrary && onnx::OpSchemaRegistry::Schema(op, opset, domain) != nullptr };
            }
            const auto [libraryKnows, libraryHas] = it->second;
            const bool exists = libraryKnows ? libraryHas : rule && rule->sinceOpset <= opset;
            if (!exists) {
                out.push_back({ label,
                    libraryKnows ? "does not exist in opset " + std::to_string(opset)
                                 : "unknown op type (no schema in ONNX 1.12 and no own rule)" });
                continue;
            }
            // Up to opset 17 the library's schema is the op's own: check inputs, outputs and
            // attributes against it (ONNX's shape inference crashes on some malformed nodes, so
            // nothing reaches it unchecked; from opset 18 on the own rules check what they read).
            if (libraryHas && (!domain.empty() || opset <= kLibraryOpset)) {
                try {
                    onnx::OpSchemaRegistry::Schema(op, opset, domain)->Verify(node);
                } catch (const std::exception& e) {
                    malformed.push_back({ label, e.what() });
                    continue;
                }
            }
            if (controlFlow || (domain.empty() && isSequenceOp(op)))
                continue;
            if (domain.empty() && opset > kLibraryOpset && (!rule || !rule->shape)) {
                bool declared = true;
                for (const auto& output : node.output())
                    declared = declared && (output.empty() || ctx.declared.count(output));
                if (!declared)
                    out.push_back({ label,
                        "has no own shape rule, and ONNX 1.12's shape inference stops at opset "
                            + std::to_string(kLibraryOpset) + " (declare its output shapes in value_info)" });
            }
        }
    }

} // namespace

bool parseModel(std::string_view bytes, onnx::ModelProto& model, Context& ctx)
{
    if (bytes.size() > kMaxModelBytes) {
        ctx.error("",
            "the file has " + std::to_string(bytes.size())
                + " bytes, more than protobuf's 2 GiB limit; large models must keep their weights as external data");
        return false;
    }
    if (bytes.empty()) {
        ctx.error("", "the file is empty; an ONNX model is a binary ModelProto");
        return false;
    }
    if (!checkFraming(bytes, ctx))
        return false;
    if (!onnx::ParseProtoFromBytes(&model, bytes.data(), bytes.size())) {
        ctx.error("", "not a valid ONNX protobuf (truncated or corrupt ModelProto)");
        return false;
    }
    if (model.ir_version() <= 0) {
        ctx.error("", "ir_version is " + std::to_string(model.ir_version()) + "; an ONNX model sets it to 3 or more");
        return false;
    }
    if (model.ir_version() > kMaxIrVersion) {
        ctx.error("",
            "IR version " + std::to_string(model.ir_version()) + " is newer than " + std::to_string(kMaxIrVersion)
                + ", the newest this importer reads");
        return false;
    }
    if (model.opset_import_size() == 0) {
        ctx.error("", "the model has no opset_import; every ONNX model names the operator sets it uses");
        return false;
    }
    if (!model.has_graph() || model.graph().node_size() == 0) {
        ctx.error("", model.has_graph() ? "the graph has no nodes" : "the model has no graph");
        return false;
    }
    return true;
}

bool checkModel(Context& ctx)
{
    const onnx::ModelProto& model = *ctx.model;
    for (const auto& entry : model.opset_import()) {
        const std::string domain = entry.domain() == "ai.onnx" ? std::string() : entry.domain();
        if (entry.version() <= 0) {
            ctx.error("",
                "opset_import gives domain '" + entry.domain() + "' the invalid version "
                    + std::to_string(entry.version()));
            continue;
        }
        ctx.opsets[domain] = int(std::min<std::int64_t>(entry.version(), 1'000'000));
    }
    const int opset = ctx.opsetOf("");
    if (opset > kMaxOpset)
        ctx.error("",
            "opset " + std::to_string(opset) + " of the default domain is newer than " + std::to_string(kMaxOpset)
                + ", the newest this importer supports");
    if (ctx.failed())
        return false;

    const onnx::GraphProto& graph = model.graph();
    for (const auto& info : graph.value_info())
        ctx.declared[info.name()] = &info.type();
    for (const auto& info : graph.output())
        ctx.declared[info.name()] = &info.type();
    for (const auto& info : graph.input())
        checkValueInfo(info, "input", ctx);
    for (const auto& info : graph.output())
        checkValueInfo(info, "output", ctx);
    for (const auto& info : graph.value_info())
        checkValueInfo(info, "value", ctx);
    for (const auto& init : graph.initializer()) {
        const std::string location = "initializer '" + init.name() + "'";
        if (!dtypeOf(init.data_type()))
            ctx.error(location, "has element type " + elemTypeName(init.data_type()) + ", which cannot be modelled");
        if (init.dims_size() > ctx.options.maxRank)
            ctx.error(location,
                "has rank " + std::to_string(init.dims_size()) + ", more than the limit "
                    + std::to_string(ctx.options.maxRank));
        for (int i = 0; i < init.dims_size(); ++i) {
            if (init.dims(i) < 0)
                ctx.error(location, "dim " + std::to_string(i) + " is negative (" + std::to_string(init.dims(i)) + ")");
        }
    }
    if (graph.sparse_initializer_size() > 0)
        ctx.error("initializer '" + graph.sparse_initializer(0).values().name() + "'",
            "is a sparse initializer; sparse tensors are not supported");

    std::vector<Unsupported> unsupported;
    std::vector<Unsupported> malformed;
    std::int64_t nodeCount = 0;
    collectUnsupported(graph, "", ctx, unsupported, malformed, nodeCount);
    for (const Unsupported& m : malformed)
        ctx.error(m.label, "does not match its operator schema: " + m.reason);
    if (nodeCount > ctx.options.maxNodes)
        ctx.error("",
            "the model has " + std::to_string(nodeCount) + " nodes (subgraphs included), more than the limit "
                + std::to_string(ctx.options.maxNodes));
    if (!unsupported.empty()) {
        std::string message = std::to_string(unsupported.size()) + " unsupported operator(s): ";
        for (std::size_t i = 0; i < unsupported.size(); ++i)
            message += (i ? "; " : "") + unsupported[i].label + ": " + unsupported[i].reason;
        ctx.error(unsupported.front().label, message);
    }
    return !ctx.failed();
}

} // namespace elk::import::onnx_detail
