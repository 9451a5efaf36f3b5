// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The value table (initializers, inputs with bound symbolic dims), node records and the main
// graph's topological order.
#include "engine/import/onnx_passes.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <queue>
#include <set>
#include <string_view>

namespace elk::import::onnx_detail {

namespace {

    const std::vector<std::string> kBatchNames = { "batch", "batch_size", "N", "B" };
    const std::vector<std::string> kSeqNames = { "seq", "sequence", "seq_len", "sequence_length", "T" };
    const std::vector<std::string> kKvNames = { "past", "past_len", "kv_len", "past_sequence_length", "P" };

    bool contains(const std::vector<std::string>& names, const std::string& name)
    {
        return std::find(names.begin(), names.end(), name) != names.end();
    }

    std::string joined(const std::vector<std::string>& names)
    {
        std::string text;
        for (const auto& n : names)
            text += (text.empty() ? "" : ", ") + n;
        return text;
    }

} // namespace

namespace {

    std::optional<std::int64_t> lookupName(const DimBindings& dims, const std::string& param, bool& isKv)
    {
        isKv = contains(kKvNames, param);
        if (const auto it = dims.named.find(param); it != dims.named.end())
            return it->second;
        if (contains(kBatchNames, param))
            return dims.batch;
        if (contains(kSeqNames, param))
            return dims.seqLen;
        if (isKv)
            return dims.kvLen;
        return std::nullopt;
    }

    // Exporters write derived dims as expressions ("past + seq", "batch * seq", "s0 + 1"):
    // integers and names with + - * / and parentheses, evaluated by recursive descent.
    struct DimExpr {
        const DimBindings& dims;
        const std::string& text;
        std::size_t pos = 0;
        bool ok = true;

        void skip()
        {
            while (pos < text.size() && text[pos] == ' ')
                ++pos;
        }
        std::int64_t primary()
        {
            skip();
            if (pos < text.size() && text[pos] == '(') {
                ++pos;
                const std::int64_t v = sum();
                skip();
                ok = ok && pos < text.size() && text[pos] == ')';
                ++pos;
                return v;
            }
            const std::size_t begin = pos;
            while (pos < text.size()
                && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_' || text[pos] == '.'))
                ++pos;
            const std::string token = text.substr(begin, pos - begin);
            if (token.empty()) {
                ok = false;
                return 0;
            }
            if (std::isdigit(static_cast<unsigned char>(token[0]))) {
                std::int64_t v = 0;
                for (char c : token) {
                    if (!std::isdigit(static_cast<unsigned char>(c)) || v > (std::int64_t(1) << 53) / 10) {
                        ok = false;
                        return 0;
                    }
                    v = v * 10 + (c - '0');
                }
                return v;
            }
            bool isKv = false;
            const auto bound = lookupName(dims, token, isKv);
            ok = ok && bound.has_value();
            return bound.value_or(0);
        }
        std::int64_t product()
        {
            std::int64_t v = primary();
            for (skip(); ok && pos < text.size() && (text[pos] == '*' || text[pos] == '/'); skip()) {
                const char op = text[pos++];
                const std::int64_t r = primary();
                if (op == '*')
                    v = (v > 0 && r > 0 && v > (std::int64_t(1) << 53) / r) ? (ok = false, 0) : v * r;
                else
                    v = r == 0 ? (ok = false, 0) : v / r;
            }
            return v;
        }
        std::int64_t sum()
        {
            std::int64_t v = product();
            for (skip(); ok && pos < text.size() && (text[pos] == '+' || text[pos] == '-'); skip()) {
                const char op = text[pos++];
                const std::int64_t r = product();
                v = op == '+' ? v + r : v - r;
            }
            return v;
        }
    };

} // namespace

std::optional<std::int64_t> lookupDim(const DimBindings& dims, const std::string& param, bool& isKv)
{
    if (const auto bound = lookupName(dims, param, isKv))
        return bound;
    if (param.find_first_of("+-*/()") == std::string::npos)
        return std::nullopt;
    DimExpr expr { dims, param };
    const std::int64_t value = expr.sum();
    expr.skip();
    if (!expr.ok || expr.pos != param.size())
        return std::nullopt;
    return value;
}

namespace {

    // KV cache tensors by name: past_key*, past_value*, present*, *kv_cache*, key_cache, ...
    bool looksLikeKvCache(const std::string& name)
    {
        std::string lower;
        for (char c : name)
            lower += char(std::tolower(static_cast<unsigned char>(c)));
        for (const char* pattern :
            { "past_key", "past_value", "kv_cache", "key_cache", "value_cache", "cache_k", "cache_v" }) {
            if (lower.find(pattern) != std::string::npos)
                return true;
        }
        std::vector<std::string> tokens;
        std::string token;
        for (char c : lower + ".") {
            if (std::isalnum(static_cast<unsigned char>(c))) {
                token += c;
            } else if (!token.empty()) {
                tokens.push_back(token);
                token.clear();
            }
        }
        auto has = [&](const char* t) { return std::find(tokens.begin(), tokens.end(), t) != tokens.end(); };
        return has("present") || (has("past") && (has("key") || has("value") || has("k") || has("v") || has("kv")));
    }

    std::string bindableNames()
    {
        return "bindable names: batch (" + joined(kBatchNames) + "), new tokens (" + joined(kSeqNames)
            + "), KV length (" + joined(kKvNames) + "), or any dim name bound explicitly";
    }

    bool isIntegerType(int elemType)
    {
        switch (elemType) {
        case onnx::TensorProto::INT8:
        case onnx::TensorProto::INT16:
        case onnx::TensorProto::INT32:
        case onnx::TensorProto::INT64:
        case onnx::TensorProto::UINT8:
        case onnx::TensorProto::UINT16:
        case onnx::TensorProto::UINT32:
        case onnx::TensorProto::UINT64:
            return true;
        default:
            return false;
        }
    }

    bool addInput(Context& ctx, const onnx::ValueInfoProto& info)
    {
        const std::string location = "input '" + info.name() + "'";
        if (!info.type().has_tensor_type())
            return false; // reported by checkModel
        const auto& tensor = info.type().tensor_type();
        if (!tensor.has_shape()) {
            ctx.error(location, "has no shape; only inputs of known rank can be imported");
            return false;
        }
        const int id = ctx.addValue(info.name());
        Value& v = ctx.value(id);
        v.isGraphInput = true;
        v.elemType = tensor.elem_type();
        v.hasShape = true;
        bool kvDim = false;
        const int rank = tensor.shape().dim_size();
        const auto& shapes = ctx.options.dims.inputShapes;
        const auto givenShape = shapes.find(info.name());
        // The option that would bind this input's dims, for messages: its rank with '?' where the
        // file does not say.
        const auto shapeOption = [&] {
            std::string text = "--input-shape " + info.name() + "=";
            for (int i = 0; i < rank; ++i) {
                const auto& dim = tensor.shape().dim(i);
                text += (i ? "," : "")
                    + (dim.has_dim_value() && dim.dim_value() > 0 ? std::to_string(dim.dim_value()) : std::string("?"));
            }
            return text;
        };
        if (givenShape != shapes.end() && int(givenShape->second.size()) != rank) {
            ctx.error(location,
                "has rank " + std::to_string(rank) + " but --input-shape gives "
                    + std::to_string(givenShape->second.size()) + " dims; expected " + shapeOption());
            return false;
        }
        // A size-0 dim without a name is how some exporters write "unknown" for a data tensor (which,
        // empty, could not be modelled anyway), so it must be given. A 1-D integer input of length 0
        // is an empty list instead (axes, pads, sizes): ONNX's backend tests pass ReduceSum its "no
        // axes" so, and an empty list read as a parameter is modelled.
        const bool emptyList = rank == 1 && isIntegerType(tensor.elem_type());
        std::vector<std::int64_t> fileShape;
        for (int i = 0; i < rank; ++i) {
            const auto& dim = tensor.shape().dim(i);
            fileShape.push_back(dim.has_dim_value() && dim.dim_value() > 0 ? dim.dim_value() : 0);
        }
        // Every free dim of the input is reported (and listed for a form that asks for it), not only the first.
        bool free = false;
        const auto noteFree = [&](int axis, const std::string& name) {
            free = true;
            ctx.freeDims.push_back({ info.name(), axis, name, fileShape,
                suggestedSize(
                    name, axis, fileShape, ctx.options.dims.batch.value_or(1), ctx.options.dims.seqLen.value_or(1)) });
        };
        for (int i = 0; i < rank; ++i) {
            const auto& dim = tensor.shape().dim(i);
            if (givenShape != shapes.end()) {
                const std::int64_t given = givenShape->second[std::size_t(i)];
                if (given <= 0) {
                    ctx.error(location,
                        "--input-shape gives dim " + std::to_string(i) + " as " + std::to_string(given)
                            + "; sizes must be >= 1");
                    return false;
                }
                if (dim.has_dim_value() && dim.dim_value() > 0 && dim.dim_value() != given) {
                    ctx.error(location,
                        "dim " + std::to_string(i) + " is " + std::to_string(dim.dim_value())
                            + " in the file; --input-shape gives " + std::to_string(given));
                    return false;
                }
                v.shape.push_back(given);
                continue;
            }
            if (dim.has_dim_value() && (dim.dim_value() > 0 || (dim.dim_value() == 0 && emptyList))) {
                v.shape.push_back(dim.dim_value());
                continue;
            }
            if (!dim.has_dim_param() || dim.dim_param().empty()) {
                ctx.error(location,
                    "dim " + std::to_string(i) + " has neither a size nor a name; give the input's shape with "
                        + shapeOption());
                noteFree(i, {});
                continue;
            }
            bool isKv = false;
            const auto bound = lookupDim(ctx.options.dims, dim.dim_param(), isKv);
            if (!bound) {
                ctx.error(location,
                    "dim " + std::to_string(i) + " is symbolic ('" + dim.dim_param()
                        + "') and not bound; bind it with --dim " + dim.dim_param() + "=N or " + shapeOption() + " ("
                        + bindableNames() + ")");
                noteFree(i, dim.dim_param());
                continue;
            }
            if (*bound <= 0) {
                ctx.error(location,
                    "dim " + std::to_string(i) + " ('" + dim.dim_param() + "') is bound to " + std::to_string(*bound)
                        + "; sizes must be >= 1");
                return false;
            }
            // A KV length on an axis that is not the last one: a cache [B, heads, P, head_dim]
            // (a mask [B, 1, 1, P] has it last).
            kvDim = kvDim || (isKv && rank >= 3 && i != rank - 1);
            v.shape.push_back(*bound);
        }
        if (free)
            return false;
        v.kvHint = kvDim || looksLikeKvCache(info.name());
        const auto elements = checkedElements(v.shape);
        if (!elements) {
            ctx.error(location, "shape " + shapeText(v.shape) + " has more than 2^53 elements");
            return false;
        }
        if (const auto given = ctx.options.inputValues.find(info.name()); given != ctx.options.inputValues.end()) {
            if (std::int64_t(given->second.size()) != *elements || isFloatType(v.elemType)) {
                ctx.error(location,
                    "is given " + std::to_string(given->second.size()) + " value(s), but it is "
                        + elemTypeName(v.elemType) + " " + shapeText(v.shape)
                        + " (fixed values are for integer inputs)");
                return false;
            }
            ConstTensor c;
            c.shape = v.shape;
            c.ints = given->second;
            v.constant = std::move(c);
            v.isConst = true; // fixed at import time: computations on it fold
        }
        ctx.valueByName[info.name()] = id;
        ctx.graphInputs.push_back(id);
        return true;
    }

    // Names a subgraph reads from enclosing scopes (its body's inputs defined outside it).
    void outerNames(const onnx::GraphProto& graph, std::set<std::string>& out)
    {
        std::set<std::string> local;
        for (const auto& i : graph.input())
            local.insert(i.name());
        for (const auto& i : graph.initializer())
            local.insert(i.name());
        for (const auto& node : graph.node()) {
            for (const auto& o : node.output())
                local.insert(o);
        }
        for (const auto& node : graph.node()) {
            for (const auto& i : node.input()) {
                if (!i.empty() && !local.count(i))
                    out.insert(i);
            }
            for (const auto& attribute : node.attribute()) {
                if (attribute.has_g()) {
                    std::set<std::string> inner;
                    outerNames(attribute.g(), inner);
                    for (const auto& name : inner) {
                        if (!local.count(name))
                            out.insert(name);
                    }
                }
            }
        }
    }

    /// Stored optimizer state: the state inputs of the training-domain optimizer ops (Adagrad,
    /// Momentum, Adam: inputs R, T, then n weights, n gradients and the state tensors, n outputs per
    /// state kind plus the n new weights), or a stored tensor named after a weight of the same shape
    /// with a state suffix ("w.m", "w.v": the transformer builder; "w.exp_avg", "w.exp_avg_sq",
    /// "w.momentum_buffer": PyTorch's names).
    void markOptimizerState(Context& ctx)
    {
        auto mark = [&ctx](int id) {
            Value& v = ctx.value(id);
            if (v.producer >= 0 || !(v.isInitializer || v.isGraphInput))
                return;
            v.optimizerState = true;
            v.isConst = v.isGraphInput && v.isConst; // run-time state: computations on it do not fold
        };
        for (const NodeRec& node : ctx.nodes) {
            if (node.domain != "ai.onnx.preview.training"
                || (node.opType != "Adam" && node.opType != "Adagrad" && node.opType != "Momentum"))
                continue;
            const auto groupsIn = std::int64_t(node.inputs.size()) - 2;
            const auto n = groupsIn - std::int64_t(node.outputs.size());
            if (n <= 0)
                continue; // malformed; the shape rule reports it
            for (std::size_t k = std::size_t(2 + 2 * n); k < node.inputs.size(); ++k) {
                if (node.inputs[k] >= 0)
                    mark(node.inputs[k]);
            }
        }
        static const char* const suffixes[] = { ".m", ".v", ".exp_avg", ".exp_avg_sq", ".momentum_buffer" };
        for (int id = 0; id < int(ctx.values.size()); ++id) {
            const Value& v = ctx.value(id);
            if (v.producer >= 0 || !(v.isInitializer || v.isGraphInput) || !v.hasShape)
                continue;
            for (const std::string_view suffix : suffixes) {
                const std::size_t baseLength = v.name.size() - std::min(v.name.size(), suffix.size());
                if (baseLength == 0 || v.name.compare(baseLength, suffix.size(), suffix) != 0)
                    continue;
                const auto base = ctx.valueByName.find(v.name.substr(0, baseLength));
                if (base == ctx.valueByName.end())
                    continue;
                const Value& weight = ctx.value(base->second);
                if (weight.isInitializer && weight.hasShape && weight.shape == v.shape) {
                    mark(id);
                    break;
                }
            }
        }
    }

    /// Kahn's algorithm over the node dependencies; among ready nodes the earliest in the file goes
    /// first, so a file that is already in order keeps it. A cycle is an error naming its nodes.
    bool orderNodes(Context& ctx, std::vector<std::vector<int>>& deps)
    {
        const int count = int(deps.size());
        std::vector<int> pending(std::size_t(count), 0);
        auto users = std::vector<std::vector<int>>(std::size_t(count));
        for (int i = 0; i < count; ++i) {
            std::sort(deps[std::size_t(i)].begin(), deps[std::size_t(i)].end());
            deps[std::size_t(i)].erase(
                std::unique(deps[std::size_t(i)].begin(), deps[std::size_t(i)].end()), deps[std::size_t(i)].end());
            pending[std::size_t(i)] = int(deps[std::size_t(i)].size());
            for (int d : deps[std::size_t(i)])
                users[std::size_t(d)].push_back(i);
        }
        std::priority_queue<int, std::vector<int>, std::greater<>> ready;
        for (int i = 0; i < count; ++i) {
            if (pending[std::size_t(i)] == 0)
                ready.push(i);
        }
        while (!ready.empty()) {
            const int i = ready.top();
            ready.pop();
            ctx.topoOrder.push_back(i);
            for (int u : users[std::size_t(i)]) {
                if (--pending[std::size_t(u)] == 0)
                    ready.push(u);
            }
        }
        if (int(ctx.topoOrder.size()) != count) {
            // Follow unfinished dependencies from an unfinished node until one repeats: a cycle.
            int start = 0;
            while (pending[std::size_t(start)] == 0)
                ++start;
            std::vector<int> path;
            std::vector<int> seenAt(std::size_t(count), -1);
            int current = start;
            while (seenAt[std::size_t(current)] < 0) {
                seenAt[std::size_t(current)] = int(path.size());
                path.push_back(current);
                for (int d : deps[std::size_t(current)]) {
                    if (pending[std::size_t(d)] > 0) {
                        current = d;
                        break;
                    }
                }
            }
            std::string cycle;
            for (std::size_t k = std::size_t(seenAt[std::size_t(current)]); k < path.size(); ++k)
                cycle += ctx.nodes[std::size_t(path[k])].label + " <- ";
            cycle += ctx.nodes[std::size_t(current)].label;
            ctx.error(ctx.nodes[std::size_t(current)].label,
                "the graph has a cycle: " + cycle + " (each reads the next one's output)");
            return false;
        }
        return true;
    }

} // namespace

bool buildGraph(Context& ctx)
{
    const onnx::GraphProto& graph = ctx.model->graph();
    for (const auto& init : graph.initializer()) {
        if (ctx.valueByName.count(init.name())) {
            ctx.error("initializer '" + init.name() + "'", "is declared twice");
            continue;
        }
        const int id = ctx.addValue(init.name());
        Value& v = ctx.value(id);
        v.isInitializer = true;
        v.isConst = true;
        v.elemType = init.data_type();
        v.shape.assign(init.dims().begin(), init.dims().end());
        v.hasShape = true;
        if (!checkedElements(v.shape)) {
            ctx.error(
                "initializer '" + init.name() + "'", "shape " + shapeText(v.shape) + " has more than 2^53 elements");
            continue;
        }
        v.constant = decodeTensor(init);
        ctx.valueByName[init.name()] = id;
    }
    for (const auto& info : graph.input()) {
        if (ctx.valueByName.count(info.name())) {
            const Value& existing = ctx.value(ctx.valueByName[info.name()]);
            if (existing.isInitializer)
                continue; // IR < 4 lists every initializer as an input too
            ctx.error("input '" + info.name() + "'", "is declared twice");
            continue;
        }
        addInput(ctx, info);
    }
    if (ctx.failed())
        return false;

    // Node records: outputs first, so inputs can refer to any node's output.
    const int count = graph.node_size();
    for (int i = 0; i < count; ++i) {
        const onnx::NodeProto& proto = graph.node(i);
        NodeRec rec;
        rec.proto = &proto;
        rec.opType = proto.op_type();
        rec.domain = proto.domain() == "ai.onnx" ? std::string() : proto.domain();
        rec.opset = ctx.opsetOf(rec.domain);
        rec.label = nodeLabel(proto, i);
        rec.irName = proto.name().empty() ? proto.op_type() + "_" + std::to_string(i) : proto.name();
        for (const auto& name : proto.output()) {
            if (name.empty()) {
                rec.outputs.push_back(-1);
                continue;
            }
            if (const auto it = ctx.valueByName.find(name); it != ctx.valueByName.end()) {
                const Value& other = ctx.value(it->second);
                const std::string by = other.producer >= 0 ? "by " + ctx.nodes[std::size_t(other.producer)].label
                    : other.isInitializer                  ? "as an initializer"
                                                           : "as a graph input";
                ctx.error(rec.label,
                    "writes '" + name + "', which is already defined " + by + "; every value has one producer");
                return false;
            }
            const int id = ctx.addValue(name);
            ctx.value(id).producer = i;
            ctx.valueByName[name] = id;
            rec.outputs.push_back(id);
        }
        ctx.nodes.push_back(std::move(rec));
    }
    auto deps = std::vector<std::vector<int>>(std::size_t(count));
    for (int i = 0; i < count; ++i) {
        NodeRec& rec = ctx.nodes[std::size_t(i)];
        for (const auto& name : rec.proto->input()) {
            if (name.empty()) {
                rec.inputs.push_back(-1);
                continue;
            }
            const auto it = ctx.valueByName.find(name);
            if (it == ctx.valueByName.end()) {
                ctx.error(rec.label,
                    "reads '" + name + "', which is not a graph input, an initializer or the output of any node");
                return false;
            }
            rec.inputs.push_back(it->second);
            if (const int producer = ctx.value(it->second).producer; producer >= 0)
                deps[std::size_t(i)].push_back(producer);
        }
        std::set<std::string> outer;
        for (const auto& attribute : rec.proto->attribute()) {
            if (attribute.has_g())
                outerNames(attribute.g(), outer);
        }
        for (const auto& name : outer) {
            const auto it = ctx.valueByName.find(name);
            if (it != ctx.valueByName.end() && ctx.value(it->second).producer >= 0)
                deps[std::size_t(i)].push_back(ctx.value(it->second).producer);
        }
    }

    markOptimizerState(ctx);

    if (!orderNodes(ctx, deps))
        return false;

    for (const auto& info : graph.output()) {
        const auto it = ctx.valueByName.find(info.name());
        if (it == ctx.valueByName.end()) {
            ctx.error("output '" + info.name() + "'", "is not produced by any node and is not an input or initializer");
            return false;
        }
        Value& v = ctx.value(it->second);
        v.isGraphOutput = true;
        v.kvHint = v.kvHint || looksLikeKvCache(info.name());
        ctx.graphOutputs.push_back(it->second);
    }
    return !ctx.failed();
}

} // namespace elk::import::onnx_detail
