// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// If, Loop and Scan are inlined: an If becomes the branch its constant condition picks (else the
// larger branch, the cost upper bound), a Loop or Scan is unrolled when its trip count is known at
// import time. Scan outputs become a Concat of the per-iteration values.
#include "engine/import/onnx_passes.h"
#include "engine/import/onnx_shapes.h"

#include <functional>

namespace elk::import::onnx_detail {

namespace {

    bool failAt(Context& ctx, const std::string& location, std::string message)
    {
        ctx.error(location, std::move(message));
        return false;
    }

    const onnx::GraphProto* graphAttr(const NodeRec& node, std::string_view name)
    {
        const auto* attribute = findAttr(node, name);
        return attribute && attribute->has_g() ? &attribute->g() : nullptr;
    }

    std::int64_t countNodes(const onnx::GraphProto& graph)
    {
        std::int64_t count = graph.node_size();
        for (const auto& node : graph.node()) {
            for (const auto& attribute : node.attribute()) {
                if (attribute.has_g())
                    count += countNodes(attribute.g());
            }
        }
        return count;
    }

    int newValue(Context& ctx, const std::string& name)
    {
        return ctx.addValue(name);
    }

    // One copy of `body`: its inputs bound to `bindings`, values renamed with `prefix`. Returns
    // the value ids of the body's outputs.
    std::optional<std::vector<int>> instantiate(Context& ctx, const NodeRec& parent, const onnx::GraphProto& body,
        const std::vector<int>& bindings, const std::string& prefix)
    {
        if (bindings.size() != std::size_t(body.input_size())) {
            ctx.error(parent.label,
                "its body takes " + std::to_string(body.input_size()) + " inputs, but "
                    + std::to_string(bindings.size()) + " are passed");
            return std::nullopt;
        }
        std::unordered_map<std::string, int> local;
        for (int i = 0; i < body.input_size(); ++i)
            local[body.input(i).name()] = bindings[std::size_t(i)];
        for (const auto& init : body.initializer()) {
            const int id = ctx.addValue(prefix + init.name());
            Value& v = ctx.value(id);
            v.isConst = true;
            v.isInitializer = true;
            v.elemType = init.data_type();
            v.shape.assign(init.dims().begin(), init.dims().end());
            v.hasShape = true;
            v.constant = decodeTensor(init);
            local[init.name()] = id;
        }
        ctx.scopes.push_back(&local);
        struct PopScope {
            Context& ctx;
            ~PopScope() { ctx.scopes.pop_back(); }
        } pop { ctx };
        for (int j = 0; j < body.node_size(); ++j) {
            const onnx::NodeProto& proto = body.node(j);
            NodeRec rec;
            rec.proto = &proto;
            rec.opType = proto.op_type();
            rec.domain = proto.domain() == "ai.onnx" ? std::string() : proto.domain();
            rec.opset = ctx.opsetOf(rec.domain);
            rec.label = parent.label + " / " + prefix + nodeLabel(proto, j);
            rec.irName = parent.irName + "/" + prefix
                + (proto.name().empty() ? proto.op_type() + "_" + std::to_string(j) : proto.name());
            for (const auto& name : proto.input()) {
                if (name.empty()) {
                    rec.inputs.push_back(-1);
                    continue;
                }
                const int id = ctx.resolve(name);
                if (id < 0) {
                    ctx.error(rec.label,
                        "reads '" + name + "', which is not defined before it in the body or an enclosing graph");
                    return std::nullopt;
                }
                rec.inputs.push_back(id);
            }
            const int index = int(ctx.nodes.size());
            for (const auto& name : proto.output()) {
                if (name.empty()) {
                    rec.outputs.push_back(-1);
                    continue;
                }
                const int id = newValue(ctx, parent.irName + "/" + prefix + name);
                ctx.value(id).producer = index;
                local[name] = id;
                rec.outputs.push_back(id);
            }
            ctx.nodes.push_back(std::move(rec));
            if (!processNode(ctx, index))
                return std::nullopt;
        }
        std::vector<int> outputs;
        for (const auto& info : body.output()) {
            const int id = ctx.resolve(info.name());
            if (id < 0) {
                ctx.error(parent.label, "its body output '" + info.name() + "' is not defined");
                return std::nullopt;
            }
            outputs.push_back(id);
        }
        return outputs;
    }

    bool linkOutput(Context& ctx, const NodeRec& parent, int from, int to, const std::string& suffix)
    {
        if (to < 0)
            return true;
        return synthesizeNode(ctx, parent, "Identity", { from }, { to }, std::nullopt, suffix);
    }

    // Stacks per-iteration values along `axis` into `out` (Unsqueeze each, then Concat).
    bool stack(Context& ctx, const NodeRec& parent, const std::vector<int>& parts, std::int64_t axis, int out,
        const std::string& tag)
    {
        if (out < 0)
            return true;
        std::vector<int> expanded;
        for (std::size_t t = 0; t < parts.size(); ++t) {
            const std::string suffix = "/" + tag + "/unsqueeze" + std::to_string(t);
            const auto rank = std::int64_t(ctx.value(parts[t]).shape.size());
            const std::int64_t a = axis < 0 ? axis + rank + 1 : axis;
            const int axes = addConstValue(ctx, parent.irName + suffix + "/axes", { a }, { 1 });
            const int value = newValue(ctx, parent.irName + suffix);
            if (!synthesizeNode(ctx, parent, "Unsqueeze", { parts[t], axes }, { value }, std::nullopt, suffix))
                return false;
            expanded.push_back(value);
        }
        if (expanded.size() == 1)
            return linkOutput(ctx, parent, expanded[0], out, "/" + tag);
        const auto rank = std::int64_t(ctx.value(expanded[0]).shape.size());
        return synthesizeNode(
            ctx, parent, "Concat", expanded, { out }, axis < 0 ? axis + rank : axis, "/" + tag + "/concat");
    }

    bool inlineIf(Context& ctx, const NodeRec& node)
    {
        const onnx::GraphProto* thenBranch = graphAttr(node, "then_branch");
        const onnx::GraphProto* elseBranch = graphAttr(node, "else_branch");
        if (!thenBranch || !elseBranch || node.inputs.empty() || node.inputs[0] < 0)
            return failAt(ctx, node.label, "needs a condition and then_branch and else_branch graphs");
        const Value& cond = ctx.value(node.inputs[0]);
        bool takeThen;
        if (cond.constant && cond.constant->size() == 1) {
            takeThen = cond.constant->real(0) != 0;
        } else {
            takeThen = countNodes(*thenBranch) >= countNodes(*elseBranch);
            ctx.warning(node.label,
                std::string("the condition is not known at import time; the larger branch (")
                    + (takeThen ? "then_branch" : "else_branch") + ") is modelled, an upper bound of the cost");
        }
        const auto outputs
            = instantiate(ctx, node, takeThen ? *thenBranch : *elseBranch, {}, takeThen ? "then/" : "else/");
        if (!outputs)
            return false;
        if (outputs->size() != node.outputs.size())
            return failAt(ctx, node.label,
                "the branch has " + std::to_string(outputs->size()) + " outputs, the node "
                    + std::to_string(node.outputs.size()));
        for (std::size_t k = 0; k < outputs->size(); ++k) {
            if (!linkOutput(ctx, node, (*outputs)[k], node.outputs[k], "/out" + std::to_string(k)))
                return false;
        }
        return true;
    }

    bool checkUnrollSize(Context& ctx, const NodeRec& node, std::int64_t trips, const onnx::GraphProto& body)
    {
        const std::int64_t perTrip = countNodes(body) + 4;
        const std::int64_t limit
            = std::min(ctx.options.maxNodes, std::int64_t(ctx.model->graph().node_size()) + kMaxInlinedNodes);
        const std::int64_t room = limit - std::int64_t(ctx.nodes.size());
        if (room < 0 || trips > room / std::max<std::int64_t>(1, perTrip)) {
            ctx.error(node.label,
                "unrolling " + std::to_string(trips) + " iterations of a " + std::to_string(perTrip)
                    + "-node body would exceed the node limit (" + std::to_string(ctx.options.maxNodes)
                    + ", and at most " + std::to_string(kMaxInlinedNodes) + " nodes added by inlining)");
            return false;
        }
        return true;
    }

    bool inlineLoop(Context& ctx, const NodeRec& node)
    {
        const onnx::GraphProto* body = graphAttr(node, "body");
        if (!body)
            return failAt(ctx, node.label, "has no body graph");
        const std::size_t carried = node.inputs.size() >= 2 ? node.inputs.size() - 2 : 0;
        const std::int64_t scans = std::int64_t(body->output_size()) - 1 - std::int64_t(carried);
        if (scans < 0 || node.outputs.size() != carried + std::size_t(scans))
            return failAt(ctx, node.label, "its body outputs do not match its loop-carried values");
        std::optional<std::int64_t> trips;
        const int tripInput = node.inputs.empty() ? -1 : node.inputs[0];
        const int condInput = node.inputs.size() > 1 ? node.inputs[1] : -1;
        if (tripInput >= 0 && ctx.value(tripInput).constant && ctx.value(tripInput).constant->size() == 1)
            trips = std::max<std::int64_t>(0, ctx.value(tripInput).constant->integer(0));
        if (!trips && scans > 0 && node.outputs[carried] >= 0) {
            // The declared length of a scan output is the trip count.
            const auto it = ctx.declared.find(ctx.value(node.outputs[carried]).name);
            if (it != ctx.declared.end() && it->second->has_tensor_type() && it->second->tensor_type().has_shape()
                && it->second->tensor_type().shape().dim_size() > 0
                && it->second->tensor_type().shape().dim(0).has_dim_value())
                trips = it->second->tensor_type().shape().dim(0).dim_value();
        }
        if (!trips)
            return failAt(ctx, node.label,
                "the trip count is not known at import time (no constant M, and no scan output "
                "declares its length); unrolling needs it");
        if (*trips < 1)
            return failAt(
                ctx, node.label, "runs " + std::to_string(*trips) + " times; empty results cannot be modelled");
        if (condInput >= 0 && !ctx.value(condInput).constant)
            ctx.warning(node.label,
                "the loop condition is computed at run time; all " + std::to_string(*trips)
                    + " iterations are modelled, an upper bound of the cost");
        if (!checkUnrollSize(ctx, node, *trips, *body))
            return false;
        std::vector<int> state(node.inputs.begin() + 2, node.inputs.end());
        int cond = condInput >= 0 ? condInput
                                  : addConstValue(ctx, node.irName + "/cond", { 1 }, {}, onnx::TensorProto::BOOL);
        auto parts = std::vector<std::vector<int>>(std::size_t(scans));
        for (std::int64_t t = 0; t < *trips; ++t) {
            const std::string prefix = "it" + std::to_string(t) + "/";
            const int iter = addConstValue(ctx, node.irName + "/" + prefix + "iteration", { t }, {});
            std::vector<int> bindings { iter, cond };
            bindings.insert(bindings.end(), state.begin(), state.end());
            const auto outputs = instantiate(ctx, node, *body, bindings, prefix);
            if (!outputs)
                return false;
            cond = (*outputs)[0];
            state.assign(outputs->begin() + 1, outputs->begin() + 1 + std::ptrdiff_t(carried));
            for (std::int64_t k = 0; k < scans; ++k)
                parts[std::size_t(k)].push_back((*outputs)[std::size_t(1 + std::int64_t(carried) + k)]);
        }
        for (std::size_t i = 0; i < carried; ++i) {
            if (!linkOutput(ctx, node, state[i], node.outputs[i], "/final" + std::to_string(i)))
                return false;
        }
        for (std::int64_t k = 0; k < scans; ++k) {
            if (!stack(ctx, node, parts[std::size_t(k)], 0, node.outputs[carried + std::size_t(k)],
                    "scan" + std::to_string(k)))
                return false;
        }
        return true;
    }

    bool inlineScan(Context& ctx, const NodeRec& node)
    {
        const onnx::GraphProto* body = graphAttr(node, "body");
        if (!body)
            return failAt(ctx, node.label, "has no body graph");
        const bool batched = node.opset < 9; // Scan-8: a batch axis 0 and sequence_lens first
        const std::size_t first = batched ? 1 : 0;
        const std::int64_t declaredScans = attrInt(node, "num_scan_inputs", 0);
        if (declaredScans < 1 || std::uint64_t(declaredScans) + first > node.inputs.size())
            return failAt(ctx, node.label, "num_scan_inputs does not fit its inputs");
        const auto scanInputs = std::size_t(declaredScans);
        if (node.inputs.size() < first + scanInputs || scanInputs == 0)
            return failAt(ctx, node.label, "num_scan_inputs does not fit its inputs");
        const std::size_t states = node.inputs.size() - first - scanInputs;
        if (std::size_t(body->output_size()) < states || std::size_t(body->input_size()) != states + scanInputs)
            return failAt(ctx, node.label, "its body's inputs and outputs do not match its states and scan inputs");
        const std::size_t scanOutputs = std::size_t(body->output_size()) - states;
        auto axesOf = [&](const char* name, std::size_t count) {
            std::vector<std::int64_t> axes = attrInts(node, name);
            axes.resize(count, 0);
            return axes;
        };
        const auto inputAxes = axesOf("scan_input_axes", scanInputs);
        const auto inputDirections = attrInts(node, batched ? "directions" : "scan_input_directions");
        const auto outputAxes = axesOf("scan_output_axes", scanOutputs);
        const Value& firstScan = ctx.value(node.inputs[first + states]);
        if (batched && (firstScan.shape.size() < 2 || firstScan.shape[0] != 1))
            return failAt(ctx, node.label, "Scan-8 with a batch other than 1 is not supported");
        const auto scanAxis = batched ? std::optional<int>(1) : normalizeAxis(inputAxes[0], firstScan.shape.size());
        if (!scanAxis)
            return failAt(ctx, node.label, "scan axis out of range");
        const std::int64_t trips = firstScan.shape[std::size_t(*scanAxis)];
        if (trips < 1)
            return failAt(ctx, node.label, "scans an empty axis; empty results cannot be modelled");
        if (!checkUnrollSize(ctx, node, trips, *body))
            return false;
        std::vector<int> state(
            node.inputs.begin() + std::ptrdiff_t(first), node.inputs.begin() + std::ptrdiff_t(first + states));
        auto squeezeBatch = [&](int value, const std::string& suffix) -> std::optional<int> {
            const int axes = addConstValue(ctx, node.irName + suffix + "/axes", { 0 }, { 1 });
            const int out = newValue(ctx, node.irName + suffix);
            if (!synthesizeNode(ctx, node, "Squeeze", { value, axes }, { out }, std::nullopt, suffix))
                return std::nullopt;
            return out;
        };
        if (batched) {
            for (std::size_t i = 0; i < states; ++i) {
                const auto s = squeezeBatch(state[i], "/state" + std::to_string(i));
                if (!s)
                    return false;
                state[i] = *s;
            }
        }
        std::vector<std::vector<int>> parts(scanOutputs);
        for (std::int64_t t = 0; t < trips; ++t) {
            std::vector<int> bindings = state;
            for (std::size_t j = 0; j < scanInputs; ++j) {
                const int input = node.inputs[first + states + j];
                const bool reverse = j < inputDirections.size() && inputDirections[j] != 0;
                const std::string suffix = "/it" + std::to_string(t) + "/slice" + std::to_string(j);
                const int index
                    = addConstValue(ctx, node.irName + suffix + "/index", { reverse ? trips - 1 - t : t }, {});
                const std::int64_t axis = batched ? 1 : inputAxes[j];
                int slice = newValue(ctx, node.irName + suffix);
                if (!synthesizeNode(ctx, node, "Gather", { input, index }, { slice }, axis, suffix))
                    return false;
                if (batched) {
                    const auto squeezed = squeezeBatch(slice, suffix + "/batch");
                    if (!squeezed)
                        return false;
                    slice = *squeezed;
                }
                bindings.push_back(slice);
            }
            const auto outputs = instantiate(ctx, node, *body, bindings, "it" + std::to_string(t) + "/");
            if (!outputs)
                return false;
            state.assign(outputs->begin(), outputs->begin() + std::ptrdiff_t(states));
            for (std::size_t k = 0; k < scanOutputs; ++k)
                parts[k].push_back((*outputs)[states + k]);
        }
        const auto outputDirections = attrInts(node, "scan_output_directions");
        for (std::size_t k = 0; k < scanOutputs; ++k) {
            if (k < outputDirections.size() && outputDirections[k] != 0)
                std::reverse(parts[k].begin(), parts[k].end());
        }
        for (std::size_t i = 0; i < states; ++i) {
            const int out = i < node.outputs.size() ? node.outputs[i] : -1;
            if (!batched) {
                if (!linkOutput(ctx, node, state[i], out, "/final" + std::to_string(i)))
                    return false;
            } else if (out >= 0 && !stack(ctx, node, { state[i] }, 0, out, "final" + std::to_string(i))) {
                return false;
            }
        }
        for (std::size_t k = 0; k < scanOutputs; ++k) {
            const int out = states + k < node.outputs.size() ? node.outputs[states + k] : -1;
            if (!batched) {
                if (!stack(ctx, node, parts[k], outputAxes[k], out, "scan" + std::to_string(k)))
                    return false;
                continue;
            }
            const int inner = newValue(ctx, node.irName + "/scan" + std::to_string(k) + "/stacked");
            if (!stack(ctx, node, parts[k], 0, inner, "scan" + std::to_string(k))
                || !stack(ctx, node, { inner }, 0, out, "scan" + std::to_string(k) + "/batch"))
                return false;
        }
        return true;
    }

} // namespace

int addConstValue(Context& ctx, const std::string& name, std::vector<std::int64_t> values,
    std::vector<std::int64_t> shape, int elemType)
{
    const int id = ctx.addValue(name);
    Value& v = ctx.value(id);
    v.elemType = elemType;
    v.shape = shape;
    v.hasShape = true;
    v.isConst = true;
    ConstTensor c;
    c.shape = std::move(shape);
    c.ints = std::move(values);
    v.constant = std::move(c);
    return id;
}

bool synthesizeNode(Context& ctx, const NodeRec& parent, const std::string& opType, const std::vector<int>& inputs,
    const std::vector<int>& outputs, std::optional<std::int64_t> axis, const std::string& suffix)
{
    onnx::NodeProto& proto = ctx.synthesized.emplace_back();
    proto.set_op_type(opType);
    proto.set_name(parent.irName + suffix);
    for (int id : inputs)
        proto.add_input(ctx.value(id).name);
    for (int id : outputs)
        proto.add_output(ctx.value(id).name);
    if (axis) {
        auto* attribute = proto.add_attribute();
        attribute->set_name("axis");
        attribute->set_type(onnx::AttributeProto::INT);
        attribute->set_i(*axis);
    }
    NodeRec rec;
    rec.proto = &proto;
    rec.opType = opType;
    rec.opset = 13;
    rec.label = parent.label + " (" + opType + " " + suffix + ")";
    rec.irName = parent.irName + suffix;
    rec.inputs = inputs;
    rec.outputs = outputs;
    for (int id : outputs)
        ctx.value(id).producer = int(ctx.nodes.size());
    ctx.nodes.push_back(std::move(rec));
    return processNode(ctx, int(ctx.nodes.size()) - 1);
}

bool inlineControlFlow(Context& ctx, int nodeIndex)
{
    const NodeRec& node = ctx.nodes[std::size_t(nodeIndex)];
    if (ctx.scopes.size() > 16) {
        ctx.error(node.label, "control flow is nested more than 16 deep");
        return false;
    }
    if (node.opType == "If")
        return inlineIf(ctx, node);
    if (node.opType == "Loop")
        return inlineLoop(ctx, node);
    return inlineScan(ctx, node);
}

} // namespace elk::import::onnx_detail
