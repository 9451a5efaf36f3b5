// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sequences made inside the graph (SequenceConstruct, SplitToSequence, ...) are tracked as the list
// of tensors they hold; they never become Graph IR tensors themselves. Ops that read an element or
// concatenate them lower to ops on those tensors. Sequence-typed graph inputs and outputs, whose
// contents the file does not fix, stay unsupported (checkModel reports them).
#include "engine/import/onnx_lower_ops.h"
#include "engine/import/onnx_passes.h"
#include "engine/import/onnx_shapes.h"

#include <set>

namespace elk::import::onnx_detail {

bool isSequenceOp(const std::string& opType)
{
    static const std::set<std::string> ops = { "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase",
        "SequenceAt", "SequenceLength", "ConcatFromSequence", "SplitToSequence" };
    return ops.count(opType) > 0;
}

namespace {

    bool fail(Context& ctx, const NodeRec& node, std::string message)
    {
        ctx.error(node.label, std::move(message));
        return false;
    }

} // namespace

std::optional<int> knownElement(const Context& ctx, const NodeRec& node)
{
    const Value* seq = inputValue(ctx, node, 0);
    const auto pos = constInts(ctx, node, 1);
    if (!seq || !seq->exactSequence || !pos || pos->size() != 1)
        return std::nullopt;
    const auto n = std::int64_t(seq->elements.size());
    const std::int64_t p = (*pos)[0] < 0 ? (*pos)[0] + n : (*pos)[0];
    if (p < 0 || p >= n)
        return std::nullopt;
    return seq->elements[std::size_t(p)];
}

namespace {

    bool splitToSequence(Context& ctx, int nodeIndex)
    {
        const NodeRec& node = ctx.nodes[std::size_t(nodeIndex)];
        const Value* x = inputValue(ctx, node, 0);
        if (!x || !x->hasShape)
            return fail(ctx, node, "the input is missing");
        const auto axis = normalizeAxis(attrInt(node, "axis", 0), x->shape.size());
        if (!axis)
            return fail(ctx, node, "axis is out of range for '" + x->name + "' " + shapeText(x->shape));
        const std::int64_t extent = x->shape[std::size_t(*axis)];
        std::vector<std::int64_t> sizes;
        bool squeeze = false;
        // Every part becomes a value and a Slice op: a file must not make millions of them.
        constexpr std::int64_t kMaxParts = 1 << 16;
        if (!inputValue(ctx, node, 1)) {
            if (extent > kMaxParts)
                return fail(ctx, node,
                    "splits '" + x->name + "' into " + std::to_string(extent) + " parts; at most "
                        + std::to_string(kMaxParts) + " can be modelled");
            sizes.assign(std::size_t(extent), 1);
            squeeze = attrInt(node, "keepdims", 1) == 0;
        } else {
            const auto split = constInts(ctx, node, 1);
            if (!split)
                return fail(ctx, node, "the split sizes are computed at run time; the sequence's length is not known");
            if (inputValue(ctx, node, 1)->shape.empty()) { // a scalar: chunks of that size, the last one shorter
                const std::int64_t chunk = split->empty() ? 0 : (*split)[0];
                if (chunk <= 0)
                    return fail(ctx, node, "split size must be >= 1");
                if (extent / chunk > kMaxParts)
                    return fail(
                        ctx, node, "splits '" + x->name + "' into more than " + std::to_string(kMaxParts) + " parts");
                for (std::int64_t done = 0; done < extent; done += chunk)
                    sizes.push_back(std::min(chunk, extent - done));
            } else {
                sizes = *split;
            }
        }
        if (sizes.empty())
            return fail(ctx, node, "splits '" + x->name + "' into no parts");
        const std::string base = node.irName;
        const int sizesValue = addConstValue(ctx, base + "/sizes", sizes, { std::int64_t(sizes.size()) });
        std::vector<int> pieces;
        for (std::size_t i = 0; i < sizes.size(); ++i)
            pieces.push_back(ctx.addValue(base + "/part" + std::to_string(i)));
        const NodeRec parent = node; // synthesizing appends to ctx.nodes
        if (!synthesizeNode(ctx, parent, "Split", { parent.inputs[0], sizesValue }, pieces, *axis, "/split"))
            return false;
        if (squeeze) {
            for (std::size_t i = 0; i < pieces.size(); ++i) {
                const std::string suffix = "/squeeze" + std::to_string(i);
                const int axes = addConstValue(ctx, base + suffix + "/axes", { std::int64_t(*axis) }, { 1 });
                const int squeezed = ctx.addValue(base + suffix);
                if (!synthesizeNode(ctx, parent, "Squeeze", { pieces[i], axes }, { squeezed }, std::nullopt, suffix))
                    return false;
                pieces[i] = squeezed;
            }
        }
        if (!parent.outputs.empty() && parent.outputs[0] >= 0) {
            Value& out = ctx.value(parent.outputs[0]);
            out.isSequence = true;
            out.elements = pieces;
        }
        return true;
    }

    // Output shape of a SequenceAt whose element is not known: the elements' common shape, else
    // the declared one.
    bool shapeUnknownElement(Context& ctx, const NodeRec& node, const Value& seq, Value& out)
    {
        bool same = !seq.elements.empty();
        for (int e : seq.elements)
            same = same && ctx.value(e).shape == ctx.value(seq.elements[0]).shape;
        if (same) {
            const Value& first = ctx.value(seq.elements[0]);
            out.elemType = first.elemType;
            out.shape = first.shape;
            out.hasShape = true;
            return true;
        }
        const auto declared = ctx.declared.find(out.name);
        if (declared != ctx.declared.end() && declared->second->has_tensor_type()
            && declared->second->tensor_type().has_shape()) {
            std::vector<std::int64_t> dims;
            for (const auto& d : declared->second->tensor_type().shape().dim()) {
                if (!d.has_dim_value())
                    return fail(
                        ctx, node, "the element read is not known at import time and the elements differ in shape");
                dims.push_back(d.dim_value());
            }
            out.elemType = declared->second->tensor_type().elem_type();
            out.shape = dims;
            out.hasShape = true;
            return true;
        }
        return fail(ctx, node, "the element read is not known at import time and the elements differ in shape");
    }

} // namespace

bool processSequenceOp(Context& ctx, int nodeIndex)
{
    if (ctx.nodes[std::size_t(nodeIndex)].opType == "SplitToSequence") {
        if (!splitToSequence(ctx, nodeIndex))
            return false;
        ctx.order.push_back(nodeIndex);
        return true;
    }
    const NodeRec& node = ctx.nodes[std::size_t(nodeIndex)];
    const std::string& op = node.opType;
    if (node.outputs.empty() || node.outputs[0] < 0)
        return fail(ctx, node, "has no output");
    Value& out = ctx.value(node.outputs[0]);
    const Value* seq = op == "SequenceEmpty" || op == "SequenceConstruct" ? nullptr : inputValue(ctx, node, 0);
    if (op != "SequenceEmpty" && op != "SequenceConstruct" && (!seq || !seq->isSequence))
        return fail(ctx, node, "its first input is not a sequence made in this graph");
    if (op == "SequenceEmpty") {
        out.isSequence = true;
    } else if (op == "SequenceConstruct") {
        out.isSequence = true;
        out.elements = node.inputs;
    } else if (op == "SequenceInsert" || op == "SequenceErase") {
        std::vector<int> elements = seq->elements;
        bool exact = seq->exactSequence;
        const auto n = std::int64_t(elements.size());
        const std::size_t posInput = op == "SequenceInsert" ? 2 : 1;
        const bool hasPos = inputValue(ctx, node, posInput) != nullptr;
        const auto pos = constInts(ctx, node, posInput);
        std::optional<std::int64_t> at;
        if (!hasPos)
            at = op == "SequenceInsert" ? n : n - 1;
        else if (pos && pos->size() == 1)
            at = (*pos)[0] < 0 ? (*pos)[0] + n : (*pos)[0];
        if (op == "SequenceInsert") {
            const int tensor = node.inputs.size() > 1 ? node.inputs[1] : -1;
            if (tensor < 0)
                return fail(ctx, node, "has no tensor to insert");
            if (at && exact && *at >= 0 && *at <= n)
                elements.insert(elements.begin() + *at, tensor);
            else {
                elements.push_back(tensor); // position known only at run time: order unknown
                exact = false;
            }
        } else if (at && exact && *at >= 0 && *at < n) {
            elements.erase(elements.begin() + *at);
        } else {
            exact = false; // which element goes is known only at run time: keep all (an upper bound)
        }
        out.isSequence = true;
        out.elements = std::move(elements);
        out.exactSequence = exact;
    } else if (op == "SequenceAt") {
        if (const auto element = knownElement(ctx, node)) {
            const Value& e = ctx.value(*element);
            out.elemType = e.elemType;
            out.shape = e.shape;
            out.hasShape = true;
            out.isConst = e.isConst;
            out.constant = e.constant;
        } else {
            if (!shapeUnknownElement(ctx, node, *seq, out))
                return false;
            bool allConst = true;
            for (int e : seq->elements)
                allConst = allConst && ctx.value(e).isConst;
            out.isConst = allConst;
        }
    } else if (op == "SequenceLength") {
        out.elemType = onnx::TensorProto::INT64;
        out.hasShape = true;
        out.isConst = true;
        if (seq->exactSequence) {
            ConstTensor c;
            c.ints = { std::int64_t(seq->elements.size()) };
            out.constant = std::move(c);
        }
    } else if (op == "ConcatFromSequence") {
        if (!seq->exactSequence || seq->elements.empty())
            return fail(ctx, node, "the sequence's contents are not known at import time");
        const bool newAxis = attrInt(node, "new_axis", 0) != 0;
        std::vector<std::int64_t> shape = ctx.value(seq->elements[0]).shape;
        const auto axis = normalizeAxis(attrInt(node, "axis", 0), shape.size() + (newAxis ? 1 : 0));
        if (!axis)
            return fail(ctx, node, "axis is out of range");
        if (newAxis)
            shape.insert(shape.begin() + *axis, 0);
        else
            shape[std::size_t(*axis)] = 0;
        bool allConst = true;
        for (int e : seq->elements) {
            std::vector<std::int64_t> part = ctx.value(e).shape;
            if (newAxis)
                part.insert(part.begin() + *axis, 1);
            bool fits = part.size() == shape.size();
            for (std::size_t i = 0; fits && i < part.size(); ++i)
                fits = i == std::size_t(*axis) || part[i] == shape[i];
            if (!fits)
                return fail(ctx, node,
                    "mismatched shapes: element '" + ctx.value(e).name + "' " + shapeText(ctx.value(e).shape)
                        + " does not fit the others");
            shape[std::size_t(*axis)] += part[std::size_t(*axis)];
            allConst = allConst && ctx.value(e).isConst;
        }
        out.elemType = ctx.value(seq->elements[0]).elemType;
        out.shape = shape;
        out.hasShape = true;
        out.isConst = allConst;
    }
    ctx.order.push_back(nodeIndex);
    return true;
}

bool planSequenceAt(Lowering& L, const NodeRec& node)
{
    if (const auto element = knownElement(L.ctx, node)) {
        const auto view = L.operandOf(node, *element, false);
        if (!view)
            return false;
        L.setView(node.outputs[0], *view);
        return true;
    }
    // The position is known only at run time: the op may read any element.
    return planGenericFrom(L, node, L.ctx.value(node.inputs[0]).elements, true);
}

bool planConcatFromSequence(Lowering& L, const NodeRec& node)
{
    const Value& seq = L.ctx.value(node.inputs[0]);
    const bool newAxis = attrInt(node, "new_axis", 0) != 0;
    const auto& outShape = L.ctx.value(node.outputs[0]).shape;
    const int axis = normalizeAxis(attrInt(node, "axis", 0), outShape.size()).value_or(0);
    std::vector<View> parts;
    for (int e : seq.elements) {
        auto view = L.operandOf(node, e, false);
        if (!view) {
            if (L.ctx.failed())
                return false;
            continue;
        }
        if (newAxis)
            view->axes.insert(view->axes.begin() + axis, ViewAxis {}); // stacked: a new axis of extent 1
        parts.push_back(*view);
    }
    return planConcatParts(L, node, parts, axis);
}

} // namespace elk::import::onnx_detail
