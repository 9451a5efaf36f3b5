// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of elementwise, reducing, casting and optimizer ops, and the helpers all rules share.
#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <set>

namespace elk::import::onnx_detail {

const Value* inputValue(const Context& ctx, const NodeRec& node, std::size_t index)
{
    if (index >= node.inputs.size() || node.inputs[index] < 0)
        return nullptr;
    return &ctx.value(node.inputs[index]);
}

void setOutput(Context& ctx, const NodeRec& node, std::size_t index, int elemType, std::vector<std::int64_t> shape)
{
    if (index >= node.outputs.size() || node.outputs[index] < 0)
        return;
    Value& out = ctx.value(node.outputs[index]);
    out.elemType = elemType;
    out.shape = std::move(shape);
    out.hasShape = true;
}

ShapeStatus failNode(Context& ctx, const NodeRec& node, std::string message)
{
    ctx.error(node.label, std::move(message));
    return ShapeStatus::Failed;
}

std::optional<std::vector<std::int64_t>> constInts(const Context& ctx, const NodeRec& node, std::size_t index)
{
    const Value* v = inputValue(ctx, node, index);
    if (!v)
        return std::nullopt;
    if (v->constant)
        return v->constant->asInts();
    if (v->hasShape && checkedElements(v->shape) == 0)
        return std::vector<std::int64_t> {}; // an empty tensor's values are known: there are none
    return std::nullopt;
}

std::optional<std::vector<double>> constReals(const Context& ctx, const NodeRec& node, std::size_t index)
{
    const Value* v = inputValue(ctx, node, index);
    if (!v)
        return std::nullopt;
    if (v->hasShape && checkedElements(v->shape) == 0)
        return std::vector<double> {};
    if (!v->constant)
        return std::nullopt;
    std::vector<double> out;
    for (std::size_t i = 0; i < v->constant->size(); ++i)
        out.push_back(v->constant->real(i));
    return out;
}

std::optional<std::vector<std::int64_t>> broadcastShapes(const std::vector<const std::vector<std::int64_t>*>& shapes)
{
    std::size_t rank = 0;
    for (const auto* s : shapes)
        rank = std::max(rank, s->size());
    std::vector<std::int64_t> out(rank, 1);
    for (const auto* s : shapes) {
        const std::size_t offset = rank - s->size();
        for (std::size_t i = 0; i < s->size(); ++i) {
            const std::int64_t d = (*s)[i];
            std::int64_t& o = out[offset + i];
            if (d == o || d == 1)
                continue;
            if (o == 1)
                o = d;
            else
                return std::nullopt;
        }
    }
    return out;
}

namespace {

    std::string inputsText(const Context& ctx, const NodeRec& node)
    {
        std::string text;
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
            const Value* v = inputValue(ctx, node, i);
            if (!v)
                continue;
            text += (text.empty() ? "" : ", ") + ("'" + v->name + "' " + shapeText(v->shape));
        }
        return text;
    }

    bool isComparison(const std::string& op)
    {
        static const std::set<std::string> ops
            = { "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor" };
        return ops.count(op) > 0;
    }

    // Opset < 7: `broadcast=1` aligns B with A starting at `axis` (default: B's dims are A's suffix).
    ShapeStatus legacyBroadcast(Context& ctx, const NodeRec& node, const Value& a, const Value& b, int outType)
    {
        if (attrInt(node, "broadcast", 0) == 0) {
            if (a.shape != b.shape)
                return failNode(ctx, node,
                    "inputs have different shapes " + inputsText(ctx, node) + " and broadcast is not enabled");
            setOutput(ctx, node, 0, outType, a.shape);
            return ShapeStatus::Done;
        }
        const auto rankA = std::int64_t(a.shape.size());
        const auto rankB = std::int64_t(b.shape.size());
        const std::int64_t axis = attrInt(node, "axis", rankA - rankB);
        if (axis < 0 || axis > rankA || axis + rankB > rankA)
            return failNode(
                ctx, node, "cannot broadcast " + inputsText(ctx, node) + " at axis " + std::to_string(axis));
        for (std::int64_t i = 0; i < rankB; ++i) {
            const std::int64_t db = b.shape[std::size_t(i)];
            if (db != 1 && db != a.shape[std::size_t(axis + i)])
                return failNode(
                    ctx, node, "cannot broadcast " + inputsText(ctx, node) + " at axis " + std::to_string(axis));
        }
        setOutput(ctx, node, 0, outType, a.shape);
        return ShapeStatus::Done;
    }

} // namespace

ShapeStatus shapeUnary(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the first input is missing");
    int type = x->elemType;
    const std::string& op = node.opType;
    if (op == "IsInf" || op == "IsNaN" || op == "Not")
        type = onnx::TensorProto::BOOL;
    else if (op == "Bernoulli" || op == "RandomUniformLike" || op == "RandomNormalLike" || op == "EyeLike")
        type = int(attrInt(node, "dtype", x->elemType));
    setOutput(ctx, node, 0, type, x->shape);
    if (op == "Dropout")
        setOutput(ctx, node, 1, onnx::TensorProto::BOOL, x->shape);
    return ShapeStatus::Done;
}

ShapeStatus shapeBroadcast(Context& ctx, const NodeRec& node)
{
    std::vector<const std::vector<std::int64_t>*> shapes;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        if (const Value* v = inputValue(ctx, node, i))
            shapes.push_back(&v->shape);
    }
    if (shapes.empty())
        return failNode(ctx, node, "has no inputs");
    const Value* first = inputValue(ctx, node, 0);
    if (!first)
        return failNode(ctx, node, "the first input is missing");
    int type = first->elemType;
    if (isComparison(node.opType))
        type = onnx::TensorProto::BOOL;
    else if (node.opType == "Where")
        type = inputValue(ctx, node, 1) ? inputValue(ctx, node, 1)->elemType : type;
    if (node.opset < 7 && node.domain.empty() && shapes.size() == 2 && hasAttr(node, "broadcast"))
        return legacyBroadcast(ctx, node, *first, *inputValue(ctx, node, 1), type);
    if (node.opType == "PRelu" && shapes.size() == 2 && shapes[1]->size() == 1 && first->shape.size() >= 2
        && (*shapes[1])[0] == first->shape[1] && !broadcastShapes(shapes)) {
        setOutput(ctx, node, 0, type, first->shape); // PRelu-6 and older: one slope per channel (axis 1)
        return ShapeStatus::Done;
    }
    const auto out = broadcastShapes(shapes);
    if (!out)
        return failNode(ctx, node, "mismatched shapes: cannot broadcast " + inputsText(ctx, node));
    if (node.opType == "PRelu" && *out != first->shape)
        return failNode(ctx, node, "mismatched shapes: slope does not broadcast to the input " + inputsText(ctx, node));
    setOutput(ctx, node, 0, type, *out);
    return ShapeStatus::Done;
}

std::optional<std::vector<bool>> reducedAxes(
    const Context& ctx, const NodeRec& node, std::size_t rank, std::string& error)
{
    const bool axesAsInput = node.opType == "ReduceSum" ? node.opset >= 13 : node.opset >= 18;
    std::vector<std::int64_t> axes;
    if (axesAsInput) {
        if (inputValue(ctx, node, 1)) {
            const auto values = constInts(ctx, node, 1);
            if (!values)
                return std::nullopt; // axes computed at run time
            axes = *values;
        }
    } else {
        axes = attrInts(node, "axes");
    }
    if (axes.empty())
        return std::vector<bool>(rank, attrInt(node, "noop_with_empty_axes", 0) == 0);
    std::vector<bool> reduced(rank, false);
    for (std::int64_t axis : axes) {
        const auto a = normalizeAxis(axis, rank);
        if (!a) {
            error = "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank);
            return std::nullopt;
        }
        reduced[std::size_t(*a)] = true;
    }
    return reduced;
}

ShapeStatus shapeReduce(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the data input is missing");
    std::string error;
    const auto reduced = reducedAxes(ctx, node, x->shape.size(), error);
    if (!reduced)
        return error.empty()
            ? ShapeStatus::NoRule
            : failNode(ctx, node, error + " (input " + "'" + x->name + "' " + shapeText(x->shape) + ")");
    const bool keepDims = attrInt(node, "keepdims", 1) != 0;
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < x->shape.size(); ++i) {
        if (!(*reduced)[i])
            out.push_back(x->shape[i]);
        else if (keepDims)
            out.push_back(1);
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeArgReduce(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the data input is missing");
    const auto axis = normalizeAxis(attrInt(node, "axis", 0), x->shape.size());
    if (!axis)
        return failNode(ctx, node, "axis is out of range for input '" + x->name + "' " + shapeText(x->shape));
    std::vector<std::int64_t> out = x->shape;
    if (attrInt(node, "keepdims", 1) != 0)
        out[std::size_t(*axis)] = 1;
    else
        out.erase(out.begin() + *axis);
    setOutput(ctx, node, 0, onnx::TensorProto::INT64, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeCast(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    const int to = int(attrInt(node, "to", 0));
    if (!dtypeOf(to)) {
        const std::string out = node.outputs.empty() || node.outputs[0] < 0 ? "" : ctx.value(node.outputs[0]).name;
        return failNode(ctx, node,
            "output tensor '" + out + "' has element type " + elemTypeName(to) + ", which cannot be modelled");
    }
    setOutput(ctx, node, 0, to, x->shape);
    return ShapeStatus::Done;
}

ShapeStatus shapeLike(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    const Value* like = inputValue(ctx, node, 1);
    if (!x || !like)
        return failNode(ctx, node, "needs two inputs");
    setOutput(ctx, node, 0, like->elemType, x->shape);
    return ShapeStatus::Done;
}

ShapeStatus shapeQuantize(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    if (node.opType == "DynamicQuantizeLinear") {
        setOutput(ctx, node, 0, onnx::TensorProto::UINT8, x->shape);
        setOutput(ctx, node, 1, onnx::TensorProto::FLOAT, {});
        setOutput(ctx, node, 2, onnx::TensorProto::UINT8, {});
        return ShapeStatus::Done;
    }
    int type;
    if (node.opType == "QuantizeLinear") {
        const Value* zeroPoint = inputValue(ctx, node, 2);
        type = zeroPoint ? zeroPoint->elemType : int(attrInt(node, "output_dtype", onnx::TensorProto::UINT8));
        if (type == 0)
            type = onnx::TensorProto::UINT8;
    } else { // DequantizeLinear
        const Value* scale = inputValue(ctx, node, 1);
        type = scale ? scale->elemType : onnx::TensorProto::FLOAT;
    }
    setOutput(ctx, node, 0, type, x->shape);
    return ShapeStatus::Done;
}

ShapeStatus shapeOptimizer(Context& ctx, const NodeRec& node)
{
    if (node.opType == "Gradient") {
        // Output i is d y / d xs[i]: the shape of that value.
        const auto* xs = findAttr(node, "xs");
        if (!xs)
            return failNode(ctx, node, "has no 'xs' attribute");
        for (int i = 0; i < xs->strings_size(); ++i) {
            const auto it = ctx.valueByName.find(xs->strings(i));
            if (it == ctx.valueByName.end() || !ctx.value(it->second).hasShape)
                return failNode(ctx, node, "'xs' names '" + xs->strings(i) + "', which is not a value of the graph");
            const Value& x = ctx.value(it->second);
            setOutput(ctx, node, std::size_t(i), x.elemType, x.shape);
        }
        return ShapeStatus::Done;
    }
    // Adagrad, Momentum, Adam: inputs R, T, then groups X.., G.., state...; outputs X_new.., state_new...
    const auto inputs = std::int64_t(node.inputs.size()) - 2;
    const auto outputs = std::int64_t(node.outputs.size());
    const std::int64_t n = inputs - outputs;
    if (n <= 0 || inputs % n != 0 || outputs % n != 0)
        return failNode(ctx, node,
            "has " + std::to_string(node.inputs.size()) + " inputs and " + std::to_string(outputs)
                + " outputs, which do not form tensor groups");
    for (std::int64_t i = 0; i < n; ++i) {
        // X, G and every state of tensor i have X's shape.
        const Value* x = inputValue(ctx, node, std::size_t(2 + i));
        for (std::int64_t k = 2 + i; x && k < 2 + inputs; k += n) {
            const Value* v = inputValue(ctx, node, std::size_t(k));
            if (!v || v->shape != x->shape)
                return failNode(ctx, node,
                    "mismatched shapes: input " + std::to_string(k) + " does not have the shape of '" + x->name + "' "
                        + shapeText(x->shape));
        }
    }
    for (std::int64_t j = 0; j < outputs; ++j) {
        const std::int64_t group = j / n;
        const std::int64_t source = 2 + (group == 0 ? j : (group + 1) * n + j % n); // skips the gradients
        const Value* v = inputValue(ctx, node, std::size_t(source));
        if (!v)
            return failNode(ctx, node, "input " + std::to_string(source) + " is missing");
        setOutput(ctx, node, std::size_t(j), v->elemType, v->shape);
    }
    return ShapeStatus::Done;
}

} // namespace elk::import::onnx_detail
