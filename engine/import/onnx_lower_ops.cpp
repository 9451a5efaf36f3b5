// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Planners of views, elementwise, reducing, normalising and matrix ops, and the generic fallback.
#include "engine/import/onnx_lower_ops.h"

#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace elk::import::onnx_detail {

namespace {

    using model::OpKind;

    const std::vector<std::int64_t>& shapeOf(const Lowering& L, int valueId)
    {
        return L.ctx.value(valueId).shape;
    }

    // A PlannedOp writing a fresh root for output `index`, with one logical axis per output axis.
    struct OpStart {
        PlannedOp op;
        std::vector<int> outAxes; ///< logical axis of each output axis
        std::vector<std::int64_t> outShape;
        bool ok = false;
    };

    OpStart startOp(Lowering& L, const NodeRec& node, std::size_t index, OpKind kind, const std::string& suffix = {})
    {
        OpStart s;
        const View out = L.newOutput(node, index);
        if (!out.valid())
            return s;
        s.op.name = L.opName(node, suffix);
        s.op.kind = kind;
        s.op.nodeLabel = &node.label;
        s.op.operands = { out };
        s.outShape = shapeOf(L, node.outputs[index]);
        for (std::size_t i = 0; i < s.outShape.size(); ++i) {
            s.outAxes.push_back(s.op.addAxis("d" + std::to_string(i), s.outShape[i]));
            if (s.outShape[i] > 1)
                s.op.bind(s.outAxes.back(), 0, int(i));
        }
        s.ok = true;
        return s;
    }

    // Binds the operand's axes right-aligned (starting at output axis `offset`) to the op's
    // logical axes; extent-1 axes broadcast. False when an extent does not match.
    bool bindAligned(OpStart& s, int operand, const std::vector<std::int64_t>& inShape, std::ptrdiff_t offset)
    {
        for (std::size_t j = 0; j < inShape.size(); ++j) {
            const std::ptrdiff_t i = offset + std::ptrdiff_t(j);
            if (inShape[j] == 1)
                continue;
            if (i < 0 || std::size_t(i) >= s.outShape.size() || s.outShape[std::size_t(i)] != inShape[j])
                return false;
            s.op.bind(s.outAxes[std::size_t(i)], operand, int(j));
        }
        return true;
    }

    // Adds the data inputs (all but parameters) as operands broadcast against the output.
    bool addBroadcastInputs(Lowering& L, const NodeRec& node, OpStart& s, bool allowImmediate)
    {
        const bool legacy = node.opset < 7 && attrInt(node, "broadcast", 0) != 0 && node.inputs.size() == 2;
        for (std::size_t k = 0; k < node.inputs.size(); ++k) {
            if (isParamInput(node, k))
                continue;
            const auto view = L.operand(node, k, allowImmediate);
            if (!view) {
                if (L.ctx.failed())
                    return false;
                continue;
            }
            const auto& inShape = shapeOf(L, node.inputs[k]);
            std::ptrdiff_t offset = std::ptrdiff_t(s.outShape.size()) - std::ptrdiff_t(inShape.size());
            if (legacy && k == 1)
                offset = attrInt(node, "axis", offset);
            else if (node.opType == "PRelu" && k == 1 && inShape.size() == 1 && s.outShape.size() >= 2
                && inShape[0] == s.outShape[1] && inShape[0] != s.outShape.back())
                offset = 1; // a per-channel slope (PRelu-6 and older)
            const int operand = int(s.op.operands.size());
            s.op.operands.push_back(*view);
            if (!bindAligned(s, operand, inShape, offset))
                return L.fail(node,
                    "internal: input " + std::to_string(k) + " " + shapeText(inShape)
                        + " does not broadcast to the output " + shapeText(s.outShape));
        }
        return true;
    }

    // An op left without data inputs (every input an immediate): its output is generated data.
    bool finishOrGenerate(Lowering& L, OpStart& s)
    {
        if (s.op.operands.size() == 1) {
            L.roots[s.op.operands[0].root].origin = RootOrigin::Constant;
            return true;
        }
        if (s.op.kind == OpKind::Unary && s.op.operands.size() > 2)
            s.op.kind = OpKind::Elementwise;
        return L.addOp(std::move(s.op));
    }

    bool planElementwise(Lowering& L, const NodeRec& node, OpKind kind)
    {
        OpStart s = startOp(L, node, 0, kind);
        if (!s.ok || !addBroadcastInputs(L, node, s, true))
            return false;
        return finishOrGenerate(L, s);
    }

    bool planUnary(Lowering& L, const NodeRec& node)
    {
        return planElementwise(L, node, OpKind::Unary);
    }

    bool planBinary(Lowering& L, const NodeRec& node)
    {
        return planElementwise(L, node, OpKind::Elementwise);
    }

    bool planAlias(Lowering& L, const NodeRec& node)
    {
        const auto view = L.operand(node, 0, false);
        if (!view)
            return false;
        if (L.isLiveOutput(node, 0))
            L.setView(node.outputs[0], *view);
        if (node.opType == "Dropout" && L.isLiveOutput(node, 1)) {
            OpStart s = startOp(L, node, 1, OpKind::Unary, "/mask");
            if (!s.ok)
                return false;
            s.op.operands.push_back(*view);
            if (!bindAligned(s, 1, shapeOf(L, node.inputs[0]), 0))
                return L.fail(node, "internal: mask shape differs from the input");
            return L.addOp(std::move(s.op));
        }
        return true;
    }

    bool planCast(Lowering& L, const NodeRec& node)
    {
        const Value* in = inputValue(L.ctx, node, 0);
        if (in && dtypeOf(in->elemType) == dtypeOf(L.ctx.value(node.outputs[0]).elemType))
            return planAlias(L, node); // same storage type: nothing to convert
        return planUnary(L, node);
    }

    bool planReshape(Lowering& L, const NodeRec& node)
    {
        const auto view = L.operand(node, 0, false);
        if (!view)
            return false;
        const auto& outShape = shapeOf(L, node.outputs[0]);
        if (auto reshaped = L.reshapeView(*view, outShape)) {
            L.setView(node.outputs[0], std::move(*reshaped));
            return true;
        }
        // The input's atoms are split for other readers, or pinned by a window. A copy that keeps
        // those axes whole may regroup where the input cannot.
        const Value& in = L.ctx.value(node.inputs[0]);
        std::vector<int> unsplit = L.rigidAxes(*view);
        for (std::size_t i = 0; i < view->axes.size(); ++i) {
            if (L.layout.leaves(view->axes[i]).size() > 1
                && std::find(unsplit.begin(), unsplit.end(), int(i)) == unsplit.end())
                unsplit.push_back(int(i));
        }
        const Layout::Mark mark = L.layout.mark();
        const bool copyRegroups = L.reshapeView(L.layout.newRoot(L.layout.shapeOf(*view)), outShape).has_value();
        L.layout.rollback(mark);
        View source = *view;
        if (copyRegroups && !unsplit.empty()) {
            const auto copy = L.materialize(*view, in.name + "/contiguous", node.label, unsplit);
            if (!copy)
                return false;
            if (auto reshaped = L.reshapeView(*copy, outShape)) {
                L.setView(node.outputs[0], std::move(*reshaped));
                return true;
            }
            source = *copy;
        }
        L.ctx.warning(node.label,
            "reshape of '" + in.name + "' " + shapeText(in.shape) + " to " + shapeText(outShape)
                + " regroups dims so that no tensor expression can index both; modelled as a copy over both index "
                  "spaces");
        return L.opaqueCopy(node, source, 0, OpKind::Slice);
    }

    bool planTranspose(Lowering& L, const NodeRec& node)
    {
        const auto view = L.operand(node, 0, false);
        if (!view)
            return false;
        std::vector<std::int64_t> perm = attrInts(node, "perm");
        if (perm.empty()) {
            for (std::size_t i = view->axes.size(); i-- > 0;)
                perm.push_back(std::int64_t(i));
        }
        View out { view->root, {} };
        for (std::int64_t p : perm)
            out.axes.push_back(view->axes.at(std::size_t(p)));
        L.setView(node.outputs[0], std::move(out));
        return true;
    }

    bool planExpand(Lowering& L, const NodeRec& node)
    {
        const auto view = L.operand(node, 0, false);
        if (!view)
            return false;
        const auto& inShape = shapeOf(L, node.inputs[0]);
        const auto& outShape = shapeOf(L, node.outputs[0]);
        const std::ptrdiff_t offset = std::ptrdiff_t(outShape.size()) - std::ptrdiff_t(inShape.size());
        View out { view->root, {} };
        for (std::size_t i = 0; i < outShape.size(); ++i) {
            const std::ptrdiff_t j = std::ptrdiff_t(i) - offset;
            if (j >= 0 && inShape[std::size_t(j)] == outShape[i])
                out.axes.push_back(view->axes[std::size_t(j)]);
            else if (outShape[i] > 1)
                out.axes.push_back({ L.layout.newVirtual(outShape[i]) }); // broadcast: no storage
            else
                out.axes.push_back({});
        }
        L.setView(node.outputs[0], std::move(out));
        return true;
    }

    // DepthToSpace / SpaceToDepth are a reshape, a transpose and a reshape of the same storage.
    bool planDepthToSpace(Lowering& L, const NodeRec& node)
    {
        const auto view = L.operand(node, 0, false);
        if (!view)
            return false;
        const auto& in = shapeOf(L, node.inputs[0]);
        const std::int64_t b = attrInt(node, "blocksize", 1);
        const std::int64_t n = in[0], c = in[1], h = in[2], w = in[3];
        std::vector<std::int64_t> split;
        std::vector<std::size_t> perm;
        if (node.opType == "DepthToSpace") {
            const std::int64_t c2 = c / (b * b);
            if (attrString(node, "mode", "DCR") == "CRD") {
                split = { n, c2, b, b, h, w };
                perm = { 0, 1, 4, 2, 5, 3 };
            } else {
                split = { n, b, b, c2, h, w };
                perm = { 0, 3, 4, 1, 5, 2 };
            }
        } else {
            split = { n, c, h / b, b, w / b, b };
            perm = { 0, 3, 5, 1, 2, 4 };
        }
        auto staged = L.reshapeView(*view, split);
        if (staged) {
            View permuted { staged->root, {} };
            for (std::size_t p : perm)
                permuted.axes.push_back(staged->axes[p]);
            if (auto out = L.reshapeView(permuted, shapeOf(L, node.outputs[0]))) {
                L.setView(node.outputs[0], std::move(*out));
                return true;
            }
        }
        return planGeneric(L, node, true);
    }

    bool planSoftmax(Lowering& L, const NodeRec& node)
    {
        const auto x = L.operand(node, 0, false);
        const View out = L.newOutput(node, 0);
        if (!x || !out.valid())
            return false;
        const auto& shape = shapeOf(L, node.inputs[0]);
        std::vector<bool> reduced(shape.size(), false);
        if (node.opset < 13) { // coerced to 2-D: normalised over every axis from `axis` on
            const auto axis = normalizeAxis(attrInt(node, "axis", 1), shape.size());
            for (std::size_t i = axis.value_or(0); i < shape.size(); ++i)
                reduced[i] = true;
        } else if (const auto axis = normalizeAxis(attrInt(node, "axis", -1), shape.size())) {
            reduced[std::size_t(*axis)] = true;
        }
        PlannedOp op;
        op.name = L.opName(node);
        op.kind = OpKind::Softmax;
        op.nodeLabel = &node.label;
        op.operands = { out, *x };
        // The normalised axes come last: they are the rows a softmax reduces over.
        for (bool pass : { false, true }) {
            for (std::size_t i = 0; i < shape.size(); ++i) {
                if (reduced[i] != pass || shape[i] <= 1)
                    continue;
                const int axis = op.addAxis((pass ? "r" : "d") + std::to_string(i), shape[i]);
                op.bind(axis, 0, int(i));
                op.bind(axis, 1, int(i));
            }
        }
        return L.addOp(std::move(op));
    }

    bool planReduce(Lowering& L, const NodeRec& node)
    {
        const auto x = L.operand(node, 0, false);
        if (!x)
            return false;
        const auto& shape = shapeOf(L, node.inputs[0]);
        std::vector<bool> reduced(shape.size(), false);
        if (node.opType == "ArgMax" || node.opType == "ArgMin") {
            if (const auto axis = normalizeAxis(attrInt(node, "axis", 0), shape.size()))
                reduced[std::size_t(*axis)] = true;
        } else {
            std::string error;
            const auto axes = reducedAxes(L.ctx, node, shape.size(), error);
            if (axes) {
                reduced = *axes;
            } else {
                // Axes computed at run time (the shapes came from declarations): the kept axes
                // are the output's, matched in order.
                const auto& outShape = shapeOf(L, node.outputs[0]);
                const bool keep = attrInt(node, "keepdims", 1) != 0;
                if (keep && outShape.size() != shape.size())
                    return planGeneric(L, node, false); // declared shapes disagree with keepdims
                std::size_t o = 0;
                for (std::size_t i = 0; i < shape.size(); ++i) {
                    const bool matches = o < outShape.size() && outShape[o] == shape[i];
                    reduced[i] = keep ? (shape[i] != 1 && outShape[i] == 1) : !matches;
                    if (keep || matches)
                        ++o;
                }
            }
        }
        if (std::none_of(reduced.begin(), reduced.end(), [](bool r) { return r; }))
            return planAlias(L, node);
        const View out = L.newOutput(node, 0);
        if (!out.valid())
            return false;
        const bool keepDims = attrInt(node, "keepdims", 1) != 0;
        PlannedOp op;
        op.name = L.opName(node);
        op.kind = OpKind::Reduce;
        op.nodeLabel = &node.label;
        op.operands = { out, *x };
        int outAxis = 0;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            const int axis = op.addAxis((reduced[i] ? "r" : "d") + std::to_string(i), shape[i]);
            if (shape[i] > 1)
                op.bind(axis, 1, int(i));
            if (!reduced[i] && shape[i] > 1)
                op.bind(axis, 0, outAxis);
            if (!reduced[i] || keepDims)
                ++outAxis;
        }
        return L.addOp(std::move(op));
    }

    // Reduce op from x over every axis not kept (stats outputs of normalisations).
    bool planStats(
        Lowering& L, const NodeRec& node, std::size_t outputIndex, const View& x, const std::vector<bool>& kept)
    {
        const View out = L.newOutput(node, outputIndex);
        if (!out.valid())
            return false;
        const auto& shape = shapeOf(L, node.inputs[0]);
        const auto& outShape = shapeOf(L, node.outputs[outputIndex]);
        PlannedOp op;
        op.name = L.opName(node, "/" + L.ctx.value(node.outputs[outputIndex]).name);
        op.kind = OpKind::Reduce;
        op.nodeLabel = &node.label;
        op.operands = { out, x };
        std::size_t outAxis = 0;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            const int axis = op.addAxis("d" + std::to_string(i), shape[i]);
            if (shape[i] > 1)
                op.bind(axis, 1, int(i));
            if (kept[i]) {
                while (outAxis < outShape.size() && outShape[outAxis] != shape[i])
                    ++outAxis;
                if (shape[i] > 1 && outAxis < outShape.size())
                    op.bind(axis, 0, int(outAxis));
                ++outAxis;
            }
        }
        return L.addOp(std::move(op));
    }

    bool planNormalization(Lowering& L, const NodeRec& node)
    {
        const auto x = L.operand(node, 0, false);
        if (!x)
            return false;
        const auto& shape = shapeOf(L, node.inputs[0]);
        const std::string& opType = node.opType;
        const bool perChannel
            = opType == "BatchNormalization" || opType == "InstanceNormalization" || opType == "GroupNormalization";
        if (L.isLiveOutput(node, 0)) {
            OpStart s = startOp(L, node, 0, OpKind::Normalization);
            if (!s.ok)
                return false;
            s.op.operands.push_back(*x);
            bindAligned(s, 1, shape, 0);
            const bool hasAffine = opType == "LayerNormalization" || opType == "RMSNormalization" || perChannel;
            for (std::size_t k = 1; hasAffine && k <= 2 && k < node.inputs.size(); ++k) {
                const auto param = L.operand(node, k, true);
                if (!param) {
                    if (L.ctx.failed())
                        return false;
                    continue;
                }
                const auto& pShape = shapeOf(L, node.inputs[k]);
                const int operand = int(s.op.operands.size());
                s.op.operands.push_back(*param);
                if (perChannel && pShape.size() == 1 && shape.size() >= 2 && pShape[0] == shape[1]) {
                    if (pShape[0] > 1)
                        s.op.bind(s.outAxes[1], operand, 0);
                } else if (!bindAligned(
                               s, operand, pShape, std::ptrdiff_t(shape.size()) - std::ptrdiff_t(pShape.size()))) {
                    // e.g. GroupNormalization's per-group scale: its own axis
                    for (std::size_t j = 0; j < pShape.size(); ++j) {
                        if (pShape[j] > 1)
                            s.op.bind(s.op.addAxis("p" + std::to_string(j), pShape[j]), operand, int(j));
                    }
                }
            }
            if (!L.addOp(std::move(s.op)))
                return false;
        }
        std::vector<bool> kept(shape.size(), false);
        if (opType == "LayerNormalization") {
            const auto axis = normalizeAxis(attrInt(node, "axis", -1), shape.size()).value_or(0);
            for (std::size_t i = 0; i < std::size_t(axis); ++i)
                kept[i] = true;
        } else if (shape.size() >= 2) {
            kept[1] = true; // BatchNormalization's running statistics are per channel
        }
        for (std::size_t o = 1; o < node.outputs.size(); ++o) {
            if (L.isLiveOutput(node, o) && !planStats(L, node, o, *x, kept))
                return false;
        }
        return true;
    }

    bool planMatMul(Lowering& L, const NodeRec& node)
    {
        const std::size_t bIndex = node.opType == "QLinearMatMul" ? 3 : 1;
        const auto a = L.operand(node, 0, false);
        const auto b = L.operand(node, bIndex, false);
        if (!a || !b)
            return false;
        const auto& aShape = shapeOf(L, node.inputs[0]);
        const auto& bShape = shapeOf(L, node.inputs[bIndex]);
        OpStart s = startOp(L, node, 0, OpKind::MatMul);
        if (!s.ok)
            return false;
        const std::size_t ra = aShape.size(), rb = bShape.size();
        const std::size_t batch = s.outShape.size() - (ra >= 2 ? 1 : 0) - (rb >= 2 ? 1 : 0);
        s.op.operands.push_back(*a);
        s.op.operands.push_back(*b);
        auto bindBatch = [&](int operand, const std::vector<std::int64_t>& shape) {
            const std::size_t own = shape.size() >= 2 ? shape.size() - 2 : 0;
            for (std::size_t j = 0; j < own; ++j) {
                if (shape[j] > 1)
                    s.op.bind(s.outAxes[batch - own + j], operand, int(j));
            }
        };
        bindBatch(1, aShape);
        bindBatch(2, bShape);
        if (ra >= 2 && aShape[ra - 2] > 1)
            s.op.bind(s.outAxes[batch], 1, int(ra - 2));
        if (rb >= 2 && bShape[rb - 1] > 1)
            s.op.bind(s.outAxes.back(), 2, int(rb - 1));
        const int k = s.op.addAxis("k", aShape.back());
        if (aShape.back() > 1) {
            s.op.bind(k, 1, int(ra - 1));
            s.op.bind(k, 2, int(rb >= 2 ? rb - 2 : 0));
        }
        return L.addOp(std::move(s.op));
    }

    bool planGemm(Lowering& L, const NodeRec& node)
    {
        const auto a = L.operand(node, 0, false);
        const auto b = L.operand(node, 1, false);
        if (!a || !b)
            return false;
        const bool transA = attrInt(node, "transA", 0) != 0;
        const bool transB = attrInt(node, "transB", 0) != 0;
        const auto& aShape = shapeOf(L, node.inputs[0]);
        const auto& outShape = shapeOf(L, node.outputs[0]);
        const bool hasBias = inputValue(L.ctx, node, 2) && attrFloat(node, "beta", 1.0f) != 0.0f;
        const Value& outValue = L.ctx.value(node.outputs[0]);
        const View product
            = hasBias ? L.newTemp(outShape, outValue.name + "/matmul", outValue.elemType) : L.newOutput(node, 0);
        if (!product.valid())
            return false;
        PlannedOp mm;
        mm.name = L.opName(node, hasBias ? "/matmul" : "");
        mm.kind = OpKind::MatMul;
        mm.nodeLabel = &node.label;
        mm.operands = { product, *a, *b };
        const std::int64_t kExtent = aShape[transA ? 0 : 1];
        const int m = mm.addAxis("m", outShape[0]);
        const int n = mm.addAxis("n", outShape[1]);
        const int k = mm.addAxis("k", kExtent);
        if (outShape[0] > 1) {
            mm.bind(m, 0, 0);
            mm.bind(m, 1, transA ? 1 : 0);
        }
        if (outShape[1] > 1) {
            mm.bind(n, 0, 1);
            mm.bind(n, 2, transB ? 0 : 1);
        }
        if (kExtent > 1) {
            mm.bind(k, 1, transA ? 0 : 1);
            mm.bind(k, 2, transB ? 1 : 0);
        }
        if (!L.addOp(std::move(mm)))
            return false;
        if (!hasBias)
            return true;
        OpStart s = startOp(L, node, 0, OpKind::Elementwise, "/bias");
        if (!s.ok)
            return false;
        s.op.operands.push_back(product);
        bindAligned(s, 1, outShape, 0);
        if (const auto c = L.operand(node, 2, true)) {
            const auto& cShape = shapeOf(L, node.inputs[2]);
            s.op.operands.push_back(*c);
            if (!bindAligned(s, 2, cShape, std::ptrdiff_t(outShape.size()) - std::ptrdiff_t(cShape.size())))
                return L.fail(node, "internal: C does not broadcast to the output");
        } else if (L.ctx.failed()) {
            return false;
        }
        return L.addOp(std::move(s.op));
    }

    bool planEinsum(Lowering& L, const NodeRec& node)
    {
        std::vector<std::vector<std::int64_t>> shapes;
        for (int id : node.inputs)
            shapes.push_back(L.ctx.value(id).shape);
        std::string error;
        const auto spec = parseEinsum(attrString(node, "equation", ""), shapes, error);
        if (!spec)
            return L.fail(node, error);
        const View out = L.newOutput(node, 0);
        if (!out.valid())
            return false;
        PlannedOp op;
        op.name = L.opName(node);
        op.nodeLabel = &node.label;
        op.operands = { out };
        std::unordered_map<int, int> axisOf;
        auto logical = [&](int letter) {
            const auto it = axisOf.find(letter);
            if (it != axisOf.end())
                return it->second;
            const int axis = op.addAxis("e" + std::to_string(letter), spec->extents[std::size_t(letter)]);
            axisOf[letter] = axis;
            return axis;
        };
        for (std::size_t a = 0; a < spec->output.size(); ++a) {
            const int axis = logical(spec->output[a]);
            if (spec->extents[std::size_t(spec->output[a])] > 1)
                op.bind(axis, 0, int(a));
        }
        std::set<int> contracted;
        for (std::size_t k = 0; k < shapes.size(); ++k) {
            const auto view = L.operand(node, k, false);
            if (!view)
                return false;
            const int operand = int(op.operands.size());
            op.operands.push_back(*view);
            for (std::size_t a = 0; a < shapes[k].size(); ++a) {
                const int letter = spec->inputs[k][a];
                const int axis = logical(letter);
                if (std::find(spec->output.begin(), spec->output.end(), letter) == spec->output.end()
                    && spec->extents[std::size_t(letter)] > 1)
                    contracted.insert(letter);
                if (shapes[k][a] > 1)
                    op.bind(axis, operand, int(a));
            }
        }
        const std::size_t inputs = shapes.size();
        op.kind = inputs == 2 && !contracted.empty() ? OpKind::MatMul
            : inputs >= 2                            ? OpKind::Elementwise
            : !contracted.empty()                    ? OpKind::Reduce
                                                     : OpKind::Slice;
        return L.addOp(std::move(op));
    }

    bool planOptimizer(Lowering& L, const NodeRec& node)
    {
        if (node.opType == "Gradient")
            return planGeneric(L, node, false);
        // Output j updates tensor i of group j / n from the i-th tensor of every input group.
        const auto groupsIn = std::int64_t(node.inputs.size()) - 2;
        const auto n = groupsIn - std::int64_t(node.outputs.size());
        for (std::size_t j = 0; j < node.outputs.size(); ++j) {
            if (!L.isLiveOutput(node, j))
                continue;
            OpStart s = startOp(L, node, j, OpKind::Elementwise, "/" + L.ctx.value(node.outputs[j]).name);
            if (!s.ok)
                return false;
            for (std::int64_t source = 2 + std::int64_t(j) % n; source < 2 + groupsIn; source += n) {
                const auto view = L.operand(node, std::size_t(source), true);
                if (!view) {
                    if (L.ctx.failed())
                        return false;
                    continue;
                }
                const auto& shape = shapeOf(L, node.inputs[std::size_t(source)]);
                const int operand = int(s.op.operands.size());
                s.op.operands.push_back(*view);
                if (!bindAligned(s, operand, shape, std::ptrdiff_t(s.outShape.size()) - std::ptrdiff_t(shape.size())))
                    return L.fail(node, "internal: optimizer state does not match its tensor");
            }
            if (!finishOrGenerate(L, s))
                return false;
        }
        return true;
    }

    bool planDynamicQuantize(Lowering& L, const NodeRec& node)
    {
        if (L.isLiveOutput(node, 0)) {
            OpStart s = startOp(L, node, 0, OpKind::Unary);
            const auto x = L.operand(node, 0, false);
            if (!s.ok || !x)
                return false;
            s.op.operands.push_back(*x);
            bindAligned(s, 1, shapeOf(L, node.inputs[0]), 0);
            if (!L.addOp(std::move(s.op)))
                return false;
        }
        for (std::size_t o = 1; o < node.outputs.size(); ++o) {
            const auto x = L.operand(node, 0, false);
            if (L.isLiveOutput(node, o)
                && (!x || !planStats(L, node, o, *x, std::vector<bool>(shapeOf(L, node.inputs[0]).size(), false))))
                return false;
        }
        return true;
    }

    using Planner = bool (*)(Lowering&, const NodeRec&);

    bool planMovement(Lowering& L, const NodeRec& node)
    {
        return planGeneric(L, node, true);
    }

    bool planCompute(Lowering& L, const NodeRec& node)
    {
        return planGeneric(L, node, false);
    }

    const std::unordered_map<std::string, Planner>& planners()
    {
        static const std::unordered_map<std::string, Planner> table = [] {
            std::unordered_map<std::string, Planner> t;
            for (const char* op : { "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh",
                     "Erf", "Exp", "Floor", "Log", "Neg", "Reciprocal", "Relu", "Round", "Sigmoid", "Sign", "Sin",
                     "Sinh", "Softplus", "Softsign", "Sqrt", "Tan", "Tanh", "Elu", "Selu", "Celu", "LeakyRelu",
                     "HardSigmoid", "HardSwish", "ThresholdedRelu", "Shrink", "Mish", "Gelu", "BitwiseNot", "IsInf",
                     "IsNaN", "Not", "Clip", "CumSum", "Bernoulli", "QuantizeLinear", "DequantizeLinear", "CastLike" })
                t[op] = planUnary;
            for (const char* op : { "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Equal",
                     "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Where", "BitShift",
                     "BitwiseAnd", "BitwiseOr", "BitwiseXor", "PRelu" })
                t[op] = planBinary;
            for (const char* op : { "Identity", "Dropout" })
                t[op] = planAlias;
            t["Cast"] = planCast;
            for (const char* op : { "Reshape", "Flatten", "Squeeze", "Unsqueeze" })
                t[op] = planReshape;
            t["Transpose"] = planTranspose;
            t["Expand"] = planExpand;
            t["DepthToSpace"] = planDepthToSpace;
            t["SpaceToDepth"] = planDepthToSpace;
            for (const char* op : { "Softmax", "LogSoftmax", "Hardmax" })
                t[op] = planSoftmax;
            for (const char* op : { "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                     "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax", "ArgMin" })
                t[op] = planReduce;
            for (const char* op :
                { "LayerNormalization", "RMSNormalization", "BatchNormalization", "InstanceNormalization",
                    "GroupNormalization", "LpNormalization", "MeanVarianceNormalization", "LRN" })
                t[op] = planNormalization;
            for (const char* op : { "MatMul", "MatMulInteger", "QLinearMatMul" })
                t[op] = planMatMul;
            t["Gemm"] = planGemm;
            t["Einsum"] = planEinsum;
            for (const char* op : { "Conv", "ConvInteger", "QLinearConv" })
                t[op] = planConv;
            t["ConvTranspose"] = planConvTranspose;
            for (const char* op :
                { "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool" })
                t[op] = planPool;
            for (const char* op : { "Pad", "Resize", "Upsample", "Tile", "CenterCropPad" })
                t[op] = planResample;
            t["Slice"] = planSlice;
            t["Split"] = planSplit;
            t["Concat"] = planConcat;
            t["Gather"] = planGather;
            for (const char* op : { "RNN", "GRU", "LSTM" })
                t[op] = planRecurrent;
            t["DynamicQuantizeLinear"] = planDynamicQuantize;
            t["SequenceAt"] = planSequenceAt;
            t["ConcatFromSequence"] = planConcatFromSequence;
            for (const char* op : { "GatherElements", "GatherND", "ScatterElements", "ScatterND", "Scatter", "OneHot",
                     "Compress", "NonZero", "Unique", "TopK", "ReverseSequence", "Trilu", "MaxUnpool", "Col2Im",
                     "EyeLike", "NonMaxSuppression", "Range", "MaxRoiPool", "RoiAlign", "GridSample" })
                t[op] = planMovement;
            return t;
        }();
        return table;
    }

} // namespace

bool planGeneric(Lowering& L, const NodeRec& node, bool dataMovement)
{
    std::vector<int> inputs;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        if (node.inputs[k] >= 0 && !isParamInput(node, k))
            inputs.push_back(node.inputs[k]);
    }
    return planGenericFrom(L, node, inputs, dataMovement);
}

bool planGenericFrom(Lowering& L, const NodeRec& node, const std::vector<int>& inputIds, bool dataMovement)
{
    std::vector<std::pair<int, View>> inputs;
    for (int id : inputIds) {
        const auto view = L.operandOf(node, id, true);
        if (view)
            inputs.emplace_back(id, *view);
        else if (L.ctx.failed())
            return false;
    }
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {
        if (!L.isLiveOutput(node, o))
            continue;
        const std::size_t n = inputs.size();
        // Data movement computes nothing: data + indices is a gather, anything else a (multi-source) copy.
        const OpKind kind
            = dataMovement ? (n == 2 ? OpKind::Gather : OpKind::Slice) : (n == 1 ? OpKind::Unary : OpKind::Elementwise);
        OpStart s = startOp(L, node, o, kind, o ? "/" + L.ctx.value(node.outputs[o]).name : std::string());
        if (!s.ok)
            return false;
        for (const auto& [id, view] : inputs) {
            const auto& shape = shapeOf(L, id);
            const int operand = int(s.op.operands.size());
            s.op.operands.push_back(view);
            // Right-aligned axes of equal extent share a loop dim; every other axis gets its own.
            std::vector<bool> taken(s.outShape.size(), false);
            const std::ptrdiff_t offset = std::ptrdiff_t(s.outShape.size()) - std::ptrdiff_t(shape.size());
            for (std::size_t j = 0; j < shape.size(); ++j) {
                if (shape[j] <= 1)
                    continue;
                const std::ptrdiff_t i = offset + std::ptrdiff_t(j);
                if (i >= 0 && s.outShape[std::size_t(i)] == shape[j] && !taken[std::size_t(i)]) {
                    taken[std::size_t(i)] = true;
                    s.op.bind(s.outAxes[std::size_t(i)], operand, int(j));
                } else {
                    s.op.bind(s.op.addAxis("x" + std::to_string(operand) + "." + std::to_string(j), shape[j]), operand,
                        int(j));
                }
            }
        }
        if (!finishOrGenerate(L, s))
            return false;
    }
    return true;
}

bool planOp(Lowering& L, const NodeRec& node)
{
    if (node.domain == "ai.onnx.preview.training")
        return planOptimizer(L, node);
    const auto& table = planners();
    const auto it = table.find(node.opType);
    if (it != table.end())
        return it->second(L, node);
    return planCompute(L, node);
}

} // namespace elk::import::onnx_detail
