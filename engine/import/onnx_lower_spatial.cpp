// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Planners of ops with sliding windows (convolution, pooling, resampling) or sub-ranges (slice,
// split, concat, gather), and of recurrent layers.
#include "engine/import/onnx_lower_ops.h"

#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <numeric>

namespace elk::import::onnx_detail {

namespace {

    using model::OpKind;

    const std::vector<std::int64_t>& shapeOf(const Lowering& L, int valueId)
    {
        return L.ctx.value(valueId).shape;
    }

    // Splits axis `axis` of `view` into groups of the given extents; copies the view into a
    // fresh root first when its atoms cannot be split that way.
    std::optional<std::vector<ViewAxis>> regroupAxis(Lowering& L, View& view, int axis,
        const std::vector<std::int64_t>& factors, const std::string& name, const std::string& label)
    {
        const Layout::Mark mark = L.layout.mark();
        if (auto groups = L.layout.regroup(view.axes[std::size_t(axis)], factors)) {
            L.layout.commit(mark);
            return groups;
        }
        L.layout.rollback(mark);
        const auto copy = L.materialize(view, name, label);
        if (!copy)
            return std::nullopt;
        view = *copy;
        return L.layout.regroup(view.axes[std::size_t(axis)], factors);
    }

    // A copy of `view` resized axis by axis to `target` (padding or cropping), as a Slice op.
    std::optional<View> resizeView(Lowering& L, const NodeRec& node, const View& view,
        const std::vector<std::int64_t>& target, const std::string& name, int elemType)
    {
        const std::vector<std::int64_t> shape = L.layout.shapeOf(view);
        if (shape == target)
            return view;
        const View fresh = L.newTemp(target, name, elemType);
        PlannedOp op;
        op.name = L.ctx.uniqueName(name);
        op.kind = OpKind::Slice;
        op.nodeLabel = &node.label;
        op.operands = { fresh, view };
        for (std::size_t i = 0; i < shape.size(); ++i)
            addResampleAxis(op, int(i), shape[i], target[i], ResampleMode::PadCrop);
        if (!L.addOp(std::move(op)))
            return std::nullopt;
        return fresh;
    }

    // How one spatial axis of a convolution reads its input: index = first * stride + second.
    struct WindowRep {
        bool kernelFirst = false; ///< index = k * dilation + o (stride 1 with dilation)
        std::int64_t stride = 1;
        std::int64_t span = 1; ///< input extent the windows cover
    };

    WindowRep windowRep(const WindowAxis& w, bool& approximated)
    {
        if (w.dilation == 1)
            return { false, w.stride, (w.out - 1) * w.stride + w.kernel };
        if (w.stride == 1)
            return { true, w.dilation, (w.kernel - 1) * w.dilation + w.out };
        approximated = true; // both: index = o * s + k * d is not one window; dilation is dropped
        return { false, w.stride, (w.out - 1) * w.stride + w.kernel };
    }

    // Adds the window of input operand axis `axis` over logical axes o (output) and k (kernel).
    void addWindow(PlannedOp& op, int operand, int axis, int o, int k, const WindowRep& rep)
    {
        const int first = rep.kernelFirst ? k : o;
        const int second = rep.kernelFirst ? o : k;
        if (op.axes[std::size_t(second)].extent == 1 && op.axes[std::size_t(first)].extent > 1 && rep.stride > 1)
            op.axes[std::size_t(second)].forceDim = true;
        op.windows.push_back({ operand, axis, first, second, rep.stride });
    }

    bool bindIf(PlannedOp& op, int logical, int operand, int axis, const Layout& layout)
    {
        if (layout.extent(op.operands[std::size_t(operand)].axes[std::size_t(axis)]) > 1)
            op.bind(logical, operand, axis);
        return true;
    }

    // A sliced copy: output index i of axis a reads input index start + i * step.
    // `allowBlocks`: an aligned sub-range may be read as one block of [blocks, block] (splitting the
    // input's storage that way); callers pass false when the other parts differ in size, whose
    // blocks would split the same storage at other boundaries.
    bool planSliced(Lowering& L, const NodeRec& node, const View& input, std::size_t outputIndex,
        const std::vector<SliceAxis>& sliced, bool allowBlocks)
    {
        const View out = L.newOutput(node, outputIndex);
        if (!out.valid())
            return false;
        const auto& inShape = L.layout.shapeOf(input);
        PlannedOp op;
        op.name = L.opName(node, outputIndex ? "/" + L.ctx.value(node.outputs[outputIndex]).name : "");
        op.kind = OpKind::Slice;
        op.nodeLabel = &node.label;
        op.operands = { out, input };
        View& in = op.operands[1];
        for (std::size_t i = 0; i < inShape.size(); ++i) {
            const auto it
                = std::find_if(sliced.begin(), sliced.end(), [i](const SliceAxis& s) { return s.axis == int(i); });
            const std::int64_t extent = inShape[i];
            if (it == sliced.end() || (it->out == extent && it->step == 1)) {
                if (extent > 1) {
                    const int axis = op.addAxis("d" + std::to_string(i), extent);
                    op.bind(axis, 0, int(i));
                    op.bind(axis, 1, int(i));
                }
                continue;
            }
            const SliceAxis& s = *it;
            if (s.out == 1) { // one index: the whole input axis is read, the output has no axis
                if (extent > 1)
                    op.bind(op.addAxis("s" + std::to_string(i), extent), 1, int(i));
                continue;
            }
            const std::int64_t step = s.step > 0 ? s.step : -s.step;
            if (allowBlocks && step == 1 && extent % s.out == 0 && s.start % s.out == 0) {
                // An aligned block: the input axis splits into [blocks, block] and one block is read,
                // unless that would split storage already split at other boundaries (each split
                // spreads to every tensor the axis meets).
                const std::size_t before = L.layout.leaves(in.axes[i]).size();
                const Layout::Mark mark = L.layout.mark();
                auto groups = L.layout.regroup(in.axes[i], { extent / s.out, s.out });
                if (groups
                    && L.layout.leaves((*groups)[0]).size() + L.layout.leaves((*groups)[1]).size()
                        > std::max<std::size_t>(before, 2))
                    groups.reset();
                if (groups) {
                    L.layout.commit(mark);
                    in.axes[i] = (*groups)[0];
                    in.axes.push_back((*groups)[1]);
                    op.bind(op.addAxis("b" + std::to_string(i), extent / s.out), 1, int(i));
                    const int axis = op.addAxis("d" + std::to_string(i), s.out);
                    op.bind(axis, 0, int(i));
                    op.bind(axis, 1, int(in.axes.size() - 1));
                    continue;
                }
                L.layout.rollback(mark);
            }
            // Any other sub-range: the input axis is read through a loop dim of its own. (A window
            // would express the offset, but would pin both axes as unsplittable, and the parts of
            // a split are usually reshaped next.)
            op.bind(op.addAxis("d" + std::to_string(i), s.out), 0, int(i));
            op.bind(op.addAxis("s" + std::to_string(i), extent), 1, int(i));
        }
        return L.addOp(std::move(op));
    }

} // namespace

void addResampleAxis(PlannedOp& op, int axis, std::int64_t in, std::int64_t out, ResampleMode mode)
{
    const std::string tag = std::to_string(axis);
    if (in == out) {
        if (in > 1) {
            const int l = op.addAxis("d" + tag, in);
            op.bind(l, 0, axis);
            op.bind(l, 1, axis);
        }
    } else if (in == 1) {
        op.bind(op.addAxis("d" + tag, out), 0, axis); // broadcast growth
    } else if (out == 1) {
        op.bind(op.addAxis("s" + tag, in), 1, axis); // one index of the input axis
    } else if (out > in) {
        if (mode == ResampleMode::Tile && out % in == 0) { // out index = t * in + i
            const int t = op.addAxis("t" + tag, out / in);
            const int i = op.addAxis("d" + tag, in);
            op.bind(i, 1, axis);
            op.windows.push_back({ 0, axis, t, i, in });
        } else if (mode == ResampleMode::Scale && out % in == 0) { // out index = i * r + j
            const int i = op.addAxis("d" + tag, in);
            const int r = op.addAxis("r" + tag, out / in);
            op.bind(i, 1, axis);
            op.windows.push_back({ 0, axis, i, r, out / in });
        } else { // padding: out index = i + offset
            const int i = op.addAxis("d" + tag, in);
            const int p = op.addAxis("p" + tag, out - in + 1);
            op.bind(i, 1, axis);
            op.windows.push_back({ 0, axis, i, p, 1 });
        }
    } else {
        const bool exact = mode == ResampleMode::Scale && in % out == 0;
        const int o = op.addAxis("d" + tag, out);
        const int w = op.addAxis("w" + tag, exact ? in / out : in - out + 1);
        op.bind(o, 0, axis);
        op.windows.push_back({ 1, axis, o, w, exact ? in / out : 1 });
    }
}

bool planConv(Lowering& L, const NodeRec& node)
{
    const bool qlinear = node.opType == "QLinearConv";
    const std::size_t wi = qlinear ? 3 : 1;
    const std::size_t bi = qlinear ? 8 : node.opType == "Conv" ? 2 : node.inputs.size(); // ConvInteger: no bias
    auto x = L.operand(node, 0, false);
    auto w = L.operand(node, wi, false);
    if (!x || !w)
        return false;
    const auto& xShape = shapeOf(L, node.inputs[0]);
    const auto& wShape = shapeOf(L, node.inputs[wi]);
    const std::vector<std::int64_t> kernel(wShape.begin() + 2, wShape.end());
    std::string error;
    const auto geometry = windowGeometry(node, xShape, kernel, error);
    if (!geometry)
        return L.fail(node, error);
    const std::int64_t groups = attrInt(node, "group", 1);
    const std::int64_t m = wShape[0];
    const std::int64_t c = xShape[1];
    const Value& outValue = L.ctx.value(node.outputs[0]);
    bool approximated = false;
    std::vector<WindowRep> reps;
    std::vector<std::int64_t> span = xShape;
    for (std::size_t i = 0; i < geometry->size(); ++i) {
        reps.push_back(windowRep((*geometry)[i], approximated));
        span[2 + i] = reps.back().span;
    }
    if (approximated)
        L.ctx.warning(node.label, "strides and dilations both > 1: the dilation is not modelled (FLOPs are exact)");
    // Padding (or unused trailing input) becomes a copy to the extent the windows span.
    x = resizeView(
        L, node, *x, span, L.ctx.value(node.inputs[0]).name + "/padded", L.ctx.value(node.inputs[0]).elemType);
    if (!x)
        return false;
    const auto xGroups = regroupAxis(L, *x, 1, { groups, c / groups }, outValue.name + "/input", node.label);
    const auto wGroups = regroupAxis(L, *w, 0, { groups, m / groups }, outValue.name + "/weight", node.label);
    View out = L.newOutput(node, 0);
    if (!xGroups || !wGroups || !out.valid())
        return false;
    const auto outGroups = L.layout.regroup(out.axes[1], { groups, m / groups });
    if (!outGroups)
        return L.fail(node, "internal: the output channels cannot be grouped");
    PlannedOp op;
    op.name = L.opName(node);
    op.kind = OpKind::Conv;
    op.nodeLabel = &node.label;
    const std::size_t n = geometry->size();
    View outOp { out.root, { out.axes[0], (*outGroups)[0], (*outGroups)[1] } };
    View xOp { x->root, { x->axes[0], (*xGroups)[0], (*xGroups)[1] } };
    View wOp { w->root, { (*wGroups)[0], (*wGroups)[1], w->axes[1] } };
    for (std::size_t i = 0; i < n; ++i) {
        outOp.axes.push_back(out.axes[2 + i]);
        xOp.axes.push_back(x->axes[2 + i]);
        wOp.axes.push_back(w->axes[2 + i]);
    }
    op.operands = { outOp, xOp, wOp };
    const int ln = op.addAxis("n", xShape[0]);
    const int lg = op.addAxis("g", groups);
    const int lm = op.addAxis("m", m / groups);
    const int lc = op.addAxis("c", c / groups);
    for (int operand : { 0, 1 })
        bindIf(op, ln, operand, 0, L.layout);
    bindIf(op, lg, 0, 1, L.layout);
    bindIf(op, lg, 1, 1, L.layout);
    bindIf(op, lg, 2, 0, L.layout);
    bindIf(op, lm, 0, 2, L.layout);
    bindIf(op, lm, 2, 1, L.layout);
    bindIf(op, lc, 1, 2, L.layout);
    bindIf(op, lc, 2, 2, L.layout);
    for (std::size_t i = 0; i < n; ++i) {
        const WindowAxis& g = (*geometry)[i];
        const int lo = op.addAxis("o" + std::to_string(i), g.out);
        const int lk = op.addAxis("k" + std::to_string(i), g.kernel);
        bindIf(op, lo, 0, int(3 + i), L.layout);
        bindIf(op, lk, 2, int(3 + i), L.layout);
        addWindow(op, 1, int(3 + i), lo, lk, reps[i]);
    }
    if (inputValue(L.ctx, node, bi)) {
        auto b = L.operand(node, bi, false);
        if (!b)
            return false;
        const auto bGroups = regroupAxis(L, *b, 0, { groups, m / groups }, outValue.name + "/bias", node.label);
        if (!bGroups)
            return false;
        op.operands.push_back(View { b->root, { (*bGroups)[0], (*bGroups)[1] } });
        bindIf(op, lg, 3, 0, L.layout);
        bindIf(op, lm, 3, 1, L.layout);
    }
    return L.addOp(std::move(op));
}

bool planConvTranspose(Lowering& L, const NodeRec& node)
{
    auto x = L.operand(node, 0, false);
    auto w = L.operand(node, 1, false);
    if (!x || !w)
        return false;
    const auto& xShape = shapeOf(L, node.inputs[0]);
    const auto& wShape = shapeOf(L, node.inputs[1]);
    const auto& outShape = shapeOf(L, node.outputs[0]);
    const Value& outValue = L.ctx.value(node.outputs[0]);
    const std::int64_t groups = attrInt(node, "group", 1);
    const std::int64_t c = xShape[1];
    const std::int64_t mg = wShape[1];
    const std::size_t n = xShape.size() - 2;
    auto strides = attrInts(node, "strides");
    auto dilations = attrInts(node, "dilations");
    strides.resize(n, 1);
    dilations.resize(n, 1);
    // out index = i * stride + k: the output axis is the window; it spans (I - 1) * s + K.
    std::vector<WindowRep> reps;
    std::vector<std::int64_t> full = outShape;
    bool approximated = false;
    for (std::size_t i = 0; i < n; ++i) {
        WindowAxis g;
        g.kernel = wShape[2 + i];
        g.stride = strides[i];
        g.dilation = dilations[i];
        g.out = xShape[2 + i]; // the input plays the output's part in the transposed window
        reps.push_back(windowRep(g, approximated));
        full[2 + i] = reps.back().span;
    }
    if (approximated)
        L.ctx.warning(node.label, "strides and dilations both > 1: the dilation is not modelled (FLOPs are exact)");
    if (!checkedElements(full))
        return L.fail(node, "the transposed convolution spans " + shapeText(full) + ", more than 2^53 elements");
    View target = full == outShape ? L.newOutput(node, 0) : L.newTemp(full, outValue.name + "/full", outValue.elemType);
    const auto xGroups = regroupAxis(L, *x, 1, { groups, c / groups }, outValue.name + "/input", node.label);
    const auto wGroups = regroupAxis(L, *w, 0, { groups, c / groups }, outValue.name + "/weight", node.label);
    if (!target.valid() || !xGroups || !wGroups)
        return false;
    const auto outGroups = L.layout.regroup(target.axes[1], { groups, mg });
    if (!outGroups)
        return L.fail(node, "internal: the output channels cannot be grouped");
    PlannedOp op;
    op.name = L.opName(node, full == outShape ? "" : "/full");
    op.kind = OpKind::Conv;
    op.nodeLabel = &node.label;
    View outOp { target.root, { target.axes[0], (*outGroups)[0], (*outGroups)[1] } };
    View xOp { x->root, { x->axes[0], (*xGroups)[0], (*xGroups)[1] } };
    View wOp { w->root, { (*wGroups)[0], (*wGroups)[1], w->axes[1] } };
    for (std::size_t i = 0; i < n; ++i) {
        outOp.axes.push_back(target.axes[2 + i]);
        xOp.axes.push_back(x->axes[2 + i]);
        wOp.axes.push_back(w->axes[2 + i]);
    }
    op.operands = { outOp, xOp, wOp };
    const int ln = op.addAxis("n", xShape[0]);
    const int lg = op.addAxis("g", groups);
    const int lm = op.addAxis("m", mg);
    const int lc = op.addAxis("c", c / groups);
    bindIf(op, ln, 0, 0, L.layout);
    bindIf(op, ln, 1, 0, L.layout);
    bindIf(op, lg, 0, 1, L.layout);
    bindIf(op, lg, 1, 1, L.layout);
    bindIf(op, lg, 2, 0, L.layout);
    bindIf(op, lm, 0, 2, L.layout);
    bindIf(op, lm, 2, 2, L.layout);
    bindIf(op, lc, 1, 2, L.layout);
    bindIf(op, lc, 2, 1, L.layout);
    for (std::size_t i = 0; i < n; ++i) {
        const int li = op.addAxis("i" + std::to_string(i), xShape[2 + i]);
        const int lk = op.addAxis("k" + std::to_string(i), wShape[2 + i]);
        bindIf(op, li, 1, int(3 + i), L.layout);
        bindIf(op, lk, 2, int(3 + i), L.layout);
        addWindow(op, 0, int(3 + i), li, lk, reps[i]);
    }
    if (!L.addOp(std::move(op)))
        return false;
    if (full == outShape)
        return true;
    const View out = L.newOutput(node, 0);
    if (!out.valid())
        return false;
    PlannedOp crop;
    crop.name = L.opName(node);
    crop.kind = OpKind::Slice;
    crop.nodeLabel = &node.label;
    crop.operands = { out, target };
    for (std::size_t i = 0; i < outShape.size(); ++i)
        addResampleAxis(crop, int(i), full[i], outShape[i], ResampleMode::PadCrop);
    return L.addOp(std::move(crop));
}

bool planPool(Lowering& L, const NodeRec& node)
{
    auto x = L.operand(node, 0, false);
    if (!x)
        return false;
    const auto& xShape = shapeOf(L, node.inputs[0]);
    const std::size_t n = xShape.size() - 2;
    const bool global = node.opType.rfind("Global", 0) == 0;
    std::optional<std::vector<WindowAxis>> geometry;
    std::vector<WindowRep> reps;
    if (!global) {
        std::string error;
        geometry = windowGeometry(node, xShape, attrInts(node, "kernel_shape"), error);
        if (!geometry)
            return L.fail(node, error);
        bool approximated = false;
        std::vector<std::int64_t> span = xShape;
        for (std::size_t i = 0; i < n; ++i) {
            reps.push_back(windowRep((*geometry)[i], approximated));
            span[2 + i] = reps.back().span;
        }
        if (approximated)
            L.ctx.warning(node.label, "strides and dilations both > 1: the dilation is not modelled");
        x = resizeView(
            L, node, *x, span, L.ctx.value(node.inputs[0]).name + "/padded", L.ctx.value(node.inputs[0]).elemType);
        if (!x)
            return false;
    }
    for (std::size_t o = 0; o < node.outputs.size() && o < 2; ++o) {
        if (!L.isLiveOutput(node, o))
            continue;
        const View out = L.newOutput(node, o);
        if (!out.valid())
            return false;
        PlannedOp op;
        op.name = L.opName(node, o ? "/indices" : "");
        op.kind = OpKind::Pool;
        op.nodeLabel = &node.label;
        op.operands = { out, *x };
        for (int d : { 0, 1 }) {
            const int axis = op.addAxis(d ? "c" : "n", xShape[std::size_t(d)]);
            bindIf(op, axis, 0, d, L.layout);
            bindIf(op, axis, 1, d, L.layout);
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (global) {
                bindIf(op, op.addAxis("k" + std::to_string(i), xShape[2 + i]), 1, int(2 + i), L.layout);
                continue;
            }
            const WindowAxis& g = (*geometry)[i];
            const int lo = op.addAxis("o" + std::to_string(i), g.out);
            const int lk = op.addAxis("k" + std::to_string(i), g.kernel);
            bindIf(op, lo, 0, int(2 + i), L.layout);
            addWindow(op, 1, int(2 + i), lo, lk, reps[i]);
        }
        if (!L.addOp(std::move(op)))
            return false;
    }
    return true;
}

bool planResample(Lowering& L, const NodeRec& node)
{
    const auto x = L.operand(node, 0, false);
    if (!x)
        return false;
    const auto& inShape = shapeOf(L, node.inputs[0]);
    const auto& outShape = shapeOf(L, node.outputs[0]);
    if (inShape.size() != outShape.size())
        return planGeneric(L, node, true);
    const std::string& op = node.opType;
    const ResampleMode mode = op == "Tile"   ? ResampleMode::Tile
        : op == "Resize" || op == "Upsample" ? ResampleMode::Scale
                                             : ResampleMode::PadCrop;
    const View out = L.newOutput(node, 0);
    if (!out.valid())
        return false;
    PlannedOp planned;
    planned.name = L.opName(node);
    // Interpolating resizes compute; nearest-neighbour resizes, pads and tiles only copy.
    planned.kind = (op == "Resize" || op == "Upsample") && attrString(node, "mode", "nearest") != "nearest"
        ? OpKind::Unary
        : OpKind::Slice;
    planned.nodeLabel = &node.label;
    planned.operands = { out, *x };
    for (std::size_t i = 0; i < inShape.size(); ++i)
        addResampleAxis(planned, int(i), inShape[i], outShape[i], mode);
    return L.addOp(std::move(planned));
}

bool planSlice(Lowering& L, const NodeRec& node)
{
    const auto x = L.operand(node, 0, false);
    if (!x)
        return false;
    std::string error;
    const auto axes = sliceAxes(L.ctx, node, shapeOf(L, node.inputs[0]), error);
    if (!axes)
        return planGeneric(L, node, true); // bounds known only at run time: shapes came from declarations
    return planSliced(L, node, *x, 0, *axes, true);
}

bool planSplit(Lowering& L, const NodeRec& node)
{
    const auto x = L.operand(node, 0, false);
    if (!x)
        return false;
    const auto& shape = shapeOf(L, node.inputs[0]);
    const auto axis = normalizeAxis(attrInt(node, "axis", 0), shape.size());
    if (!axis)
        return L.fail(node, "internal: split axis out of range");
    std::vector<std::int64_t> sizes;
    for (int out : node.outputs)
        sizes.push_back(out < 0 ? 0 : shapeOf(L, out)[std::size_t(*axis)]);
    const bool equal = std::all_of(sizes.begin(), sizes.end(), [&](std::int64_t s) { return s == sizes.front(); });
    std::int64_t offset = 0;
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {
        if (node.outputs[o] < 0)
            continue;
        if (L.isLiveOutput(node, o) && !planSliced(L, node, *x, o, { SliceAxis { *axis, offset, 1, sizes[o] } }, equal))
            return false;
        offset += sizes[o];
    }
    return true;
}

bool planConcat(Lowering& L, const NodeRec& node)
{
    const auto& outShape = shapeOf(L, node.outputs[0]);
    const auto axis = normalizeAxis(attrInt(node, "axis", 1), outShape.size());
    if (!axis)
        return L.fail(node, "internal: concat axis out of range");
    std::vector<std::pair<std::size_t, View>> parts;
    bool kvAppend = false;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        const auto view = L.operand(node, k, false);
        if (!view) {
            if (L.ctx.failed())
                return false;
            continue;
        }
        const RootInfo& info = L.roots[view->root];
        kvAppend = kvAppend || (info.kvCache && info.origin == RootOrigin::GraphInput);
        parts.emplace_back(k, *view);
    }
    if (kvAppend) {
        // Appending to a KV cache: the new entries are written into the cache in place, and the
        // grown cache is read from HBM like the past one; the past cache is not copied.
        const View out = L.newOutput(node, 0);
        if (!out.valid())
            return false;
        L.roots[out.root].kvCache = true;
        for (const auto& [k, view] : parts) {
            const RootInfo& info = L.roots[view.root];
            if (info.kvCache && info.origin == RootOrigin::GraphInput)
                continue;
            View stored = view;
            if (L.layout.hasVirtual(view)) {
                const auto copy = L.materialize(view, L.ctx.value(node.inputs[k]).name + "/kv", node.label);
                if (!copy)
                    return false;
                stored = *copy;
            }
            L.markKvWrite(stored.root);
        }
        return true;
    }
    std::vector<View> views;
    for (const auto& part : parts)
        views.push_back(part.second);
    return planConcatParts(L, node, views, *axis);
}

bool planConcatParts(Lowering& L, const NodeRec& node, const std::vector<View>& parts, int axis)
{
    if (parts.empty())
        return L.fail(node, "internal: a concatenation without parts");
    if (parts.size() == 1) {
        L.setView(node.outputs[0], parts[0]);
        return true;
    }
    const auto& outShape = shapeOf(L, node.outputs[0]);
    const auto a = std::size_t(axis);
    std::vector<View> views = parts;
    std::int64_t block = 0; // the parts' common block: gcd of their extents along the axis
    for (const View& p : views)
        block = std::gcd(block, L.layout.shapeOf(p)[a]);
    PlannedOp op;
    op.name = L.opName(node);
    op.kind = OpKind::Slice; // a copy from several sources: zero FLOPs, each part read once
    op.nodeLabel = &node.label;
    View out = L.newOutput(node, 0);
    if (!out.valid())
        return false;
    View outOp = out;
    // Every part is a whole number of blocks: the output axis is [blocks, block] and part p fills
    // its blocks (equal parts: one block each). The block axis is shared by all operands.
    const Layout::Mark mark = L.layout.mark();
    bool blocked = block > 1;
    std::vector<ViewAxis> partBlocks(views.size());
    if (blocked) {
        auto groups = L.layout.regroup(out.axes[a], { outShape[a] / block, block });
        blocked = groups.has_value();
        if (blocked) {
            outOp.axes[a] = (*groups)[1];
            outOp.axes.push_back((*groups)[0]);
        }
        for (std::size_t k = 0; blocked && k < views.size(); ++k) {
            auto split = L.layout.regroup(views[k].axes[a], { L.layout.shapeOf(views[k])[a] / block, block });
            blocked = split.has_value();
            if (blocked) {
                partBlocks[k] = (*split)[0];
                views[k].axes[a] = (*split)[1];
            }
        }
    }
    if (blocked) {
        L.layout.commit(mark);
    } else {
        L.layout.rollback(mark);
        outOp = out;
        views = parts;
    }
    op.operands = { outOp };
    std::vector<int> shared(outShape.size(), -1);
    for (std::size_t i = 0; i < outShape.size(); ++i) {
        if (i == a && !blocked)
            continue;
        const std::int64_t extent = i == a ? block : outShape[i];
        shared[i] = op.addAxis("d" + std::to_string(i), extent);
        if (extent > 1)
            op.bind(shared[i], 0, int(i));
    }
    if (blocked) {
        if (outShape[a] / block > 1)
            op.bind(op.addAxis("blocks", outShape[a] / block), 0, int(outOp.axes.size() - 1));
    } else if (outShape[a] > 1) {
        op.bind(op.addAxis("cat", outShape[a]), 0, int(a));
    }
    for (std::size_t k = 0; k < views.size(); ++k) {
        const int operand = int(op.operands.size());
        if (blocked && L.layout.extent(partBlocks[k]) > 1) {
            views[k].axes.push_back(partBlocks[k]); // the part's own blocks: a loop dim of their own
            op.bind(op.addAxis("part" + std::to_string(k), L.layout.extent(partBlocks[k])), operand,
                int(views[k].axes.size() - 1));
        }
        op.operands.push_back(views[k]);
        const auto shape = L.layout.shapeOf(views[k]);
        for (std::size_t i = 0; i < outShape.size(); ++i) {
            if (shape[i] <= 1)
                continue;
            if (shared[i] >= 0)
                op.bind(shared[i], operand, int(i));
            else
                op.bind(op.addAxis("part" + std::to_string(k), shape[i]), operand, int(i));
        }
    }
    return L.addOp(std::move(op));
}

bool planGather(Lowering& L, const NodeRec& node)
{
    const auto data = L.operand(node, 0, false);
    if (!data)
        return false;
    const auto indices = L.operand(node, 1, true);
    if (!indices && L.ctx.failed())
        return false;
    const auto& dataShape = shapeOf(L, node.inputs[0]);
    const auto& indexShape = shapeOf(L, node.inputs[1]);
    const auto axis = std::size_t(normalizeAxis(attrInt(node, "axis", 0), dataShape.size()).value_or(0));
    const View out = L.newOutput(node, 0);
    if (!out.valid())
        return false;
    PlannedOp op;
    op.name = L.opName(node);
    // A constant single index selects a slice; run-time indices gather.
    op.kind = indices ? OpKind::Gather : OpKind::Slice;
    op.nodeLabel = &node.label;
    op.operands = { out, *data };
    if (indices)
        op.operands.push_back(*indices);
    const std::size_t q = indexShape.size();
    std::size_t outAxis = 0;
    for (std::size_t j = 0; j < dataShape.size(); ++j) {
        if (j == axis) {
            if (dataShape[j] > 1)
                op.bind(op.addAxis("sel", dataShape[j]), 1, int(j));
            for (std::size_t t = 0; t < q; ++t, ++outAxis) {
                const int l = op.addAxis("i" + std::to_string(t), indexShape[t]);
                if (indexShape[t] > 1) {
                    op.bind(l, 0, int(outAxis));
                    if (indices)
                        op.bind(l, 2, int(t));
                }
            }
            continue;
        }
        const int l = op.addAxis("d" + std::to_string(j), dataShape[j]);
        if (dataShape[j] > 1) {
            op.bind(l, 0, int(outAxis));
            op.bind(l, 1, int(j));
        }
        ++outAxis;
    }
    return L.addOp(std::move(op));
}

bool planRecurrent(Lowering& L, const NodeRec& node)
{
    const auto x = L.operand(node, 0, false);
    auto w = L.operand(node, 1, false);
    if (!x || !w)
        return false;
    const auto& xShape = shapeOf(L, node.inputs[0]);
    const auto& wShape = shapeOf(L, node.inputs[1]);
    const std::int64_t gates = node.opType == "LSTM" ? 4 : node.opType == "GRU" ? 3 : 1;
    const std::int64_t hidden = wShape[1] / gates;
    const bool batchFirst = attrInt(node, "layout", 0) != 0;
    const std::int64_t seq = xShape[batchFirst ? 1 : 0];
    const std::int64_t batch = xShape[batchFirst ? 0 : 1];
    const std::int64_t dirs = wShape[0];
    const std::vector<std::int64_t> yShape = batchFirst ? std::vector<std::int64_t> { batch, seq, dirs, hidden }
                                                        : std::vector<std::int64_t> { seq, dirs, batch, hidden };
    const Value& y = L.ctx.value(node.outputs.empty() || node.outputs[0] < 0 ? node.inputs[0] : node.outputs[0]);
    const View out = L.isLiveOutput(node, 0) ? L.newOutput(node, 0)
                                             : L.newTemp(yShape, y.name + "/Y", L.ctx.value(node.inputs[0]).elemType);
    const auto wGates
        = regroupAxis(L, *w, 1, { gates, hidden }, L.ctx.value(node.inputs[1]).name + "/gates", node.label);
    if (!out.valid() || !wGates)
        return false;
    L.ctx.warning(node.label, "the recurrent weights R are not modelled: FLOPs cover the input projection X x W only");
    PlannedOp op;
    op.name = L.opName(node);
    op.kind = OpKind::MatMul;
    op.nodeLabel = &node.label;
    op.operands = { out, *x, View { w->root, { w->axes[0], (*wGates)[0], (*wGates)[1], w->axes[2] } } };
    const int ls = op.addAxis("s", seq);
    const int ld = op.addAxis("dir", dirs);
    const int lb = op.addAxis("b", batch);
    const int lh = op.addAxis("h", hidden);
    const int lg = op.addAxis("gate", gates);
    const int li = op.addAxis("i", xShape[2]);
    const int ys = batchFirst ? 1 : 0, yd = batchFirst ? 2 : 1, yb = batchFirst ? 0 : 2;
    bindIf(op, ls, 0, ys, L.layout);
    bindIf(op, ld, 0, yd, L.layout);
    bindIf(op, lb, 0, yb, L.layout);
    bindIf(op, lh, 0, 3, L.layout);
    bindIf(op, ls, 1, batchFirst ? 1 : 0, L.layout);
    bindIf(op, lb, 1, batchFirst ? 0 : 1, L.layout);
    bindIf(op, li, 1, 2, L.layout);
    bindIf(op, ld, 2, 0, L.layout);
    bindIf(op, lg, 2, 1, L.layout);
    bindIf(op, lh, 2, 2, L.layout);
    bindIf(op, li, 2, 3, L.layout);
    if (!L.addOp(std::move(op)))
        return false;
    // Y_h and Y_c: the last step of Y.
    for (std::size_t o = 1; o < node.outputs.size() && o < 3; ++o) {
        if (!L.isLiveOutput(node, o))
            continue;
        SliceAxis last { ys, seq - 1, 1, 1 };
        std::vector<SliceAxis> sliced { last };
        const View stateView = L.newOutput(node, o);
        if (!stateView.valid())
            return false;
        PlannedOp state;
        state.name = L.opName(node, "/" + L.ctx.value(node.outputs[o]).name);
        state.kind = OpKind::Slice;
        state.nodeLabel = &node.label;
        state.operands = { stateView, out };
        const std::vector<int> outOfY
            = batchFirst ? std::vector<int> { 0, -1, 1, 2 } : std::vector<int> { -1, 0, 1, 2 };
        for (std::size_t a = 0; a < 4; ++a) {
            const int l = state.addAxis("d" + std::to_string(a), yShape[a]);
            bindIf(state, l, 1, int(a), L.layout);
            if (outOfY[a] >= 0)
                bindIf(state, l, 0, outOfY[a], L.layout);
        }
        if (!L.addOp(std::move(state)))
            return false;
    }
    return true;
}

} // namespace elk::import::onnx_detail
