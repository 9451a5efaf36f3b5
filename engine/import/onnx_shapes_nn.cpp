// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of matrix products, convolutions, pooling, normalisation and recurrent ops.
#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace elk::import::onnx_detail {

namespace {

    std::string quoted(const Value& v)
    {
        return "'" + v.name + "' " + shapeText(v.shape);
    }

    // Rounding divisions for b > 0 that cannot overflow (a and b come from attributes).
    std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
    {
        return a / b + (a % b != 0 && a > 0 ? 1 : 0);
    }

    std::int64_t floorDiv(std::int64_t a, std::int64_t b)
    {
        return a / b - (a % b != 0 && a < 0 ? 1 : 0);
    }

    // Output type of the quantized variants, which name their zero point input.
    int productType(const Context& ctx, const NodeRec& node, const Value& a)
    {
        if (node.opType == "MatMulInteger" || node.opType == "ConvInteger")
            return onnx::TensorProto::INT32;
        if (node.opType == "QLinearMatMul" || node.opType == "QLinearConv") {
            const Value* zeroPoint = inputValue(ctx, node, 7);
            return zeroPoint ? zeroPoint->elemType : onnx::TensorProto::UINT8;
        }
        return a.elemType;
    }

} // namespace

ShapeStatus shapeMatMul(Context& ctx, const NodeRec& node)
{
    const bool qlinear = node.opType == "QLinearMatMul";
    const Value* a = inputValue(ctx, node, 0);
    const Value* b = inputValue(ctx, node, qlinear ? 3 : 1);
    if (!a || !b)
        return failNode(ctx, node, "needs two matrix inputs");
    if (a->shape.empty() || b->shape.empty())
        return failNode(ctx, node, "matrix inputs must have rank >= 1, got " + quoted(*a) + " and " + quoted(*b));
    const std::int64_t k1 = a->shape.back();
    const std::int64_t k2 = b->shape.size() == 1 ? b->shape[0] : b->shape[b->shape.size() - 2];
    if (k1 != k2)
        return failNode(ctx, node,
            "mismatched shapes: inner dimensions differ (" + std::to_string(k1) + " vs " + std::to_string(k2) + ") for "
                + quoted(*a) + " x " + quoted(*b));
    const std::vector<std::int64_t> batchA(
        a->shape.begin(), a->shape.end() - std::min<std::ptrdiff_t>(2, a->shape.size()));
    const std::vector<std::int64_t> batchB(
        b->shape.begin(), b->shape.end() - std::min<std::ptrdiff_t>(2, b->shape.size()));
    const auto batch = broadcastShapes({ &batchA, &batchB });
    if (!batch)
        return failNode(
            ctx, node, "mismatched shapes: batch dimensions do not broadcast: " + quoted(*a) + " x " + quoted(*b));
    std::vector<std::int64_t> out = *batch;
    if (a->shape.size() >= 2)
        out.push_back(a->shape[a->shape.size() - 2]);
    if (b->shape.size() >= 2)
        out.push_back(b->shape.back());
    setOutput(ctx, node, 0, productType(ctx, node, *a), out);
    return ShapeStatus::Done;
}

ShapeStatus shapeGemm(Context& ctx, const NodeRec& node)
{
    const Value* a = inputValue(ctx, node, 0);
    const Value* b = inputValue(ctx, node, 1);
    if (!a || !b)
        return failNode(ctx, node, "needs inputs A and B");
    if (a->shape.size() != 2 || b->shape.size() != 2)
        return failNode(ctx, node, "A and B must be matrices, got " + quoted(*a) + " and " + quoted(*b));
    const bool transA = attrInt(node, "transA", 0) != 0;
    const bool transB = attrInt(node, "transB", 0) != 0;
    const std::int64_t m = a->shape[transA ? 1 : 0];
    const std::int64_t k1 = a->shape[transA ? 0 : 1];
    const std::int64_t k2 = b->shape[transB ? 1 : 0];
    const std::int64_t n = b->shape[transB ? 0 : 1];
    if (k1 != k2)
        return failNode(ctx, node,
            "mismatched shapes: inner dimensions differ (" + std::to_string(k1) + " vs " + std::to_string(k2) + ") for "
                + quoted(*a) + " x " + quoted(*b));
    const std::vector<std::int64_t> out { m, n };
    if (const Value* c = inputValue(ctx, node, 2)) {
        const auto merged = broadcastShapes({ &out, &c->shape });
        if (!merged || *merged != out)
            return failNode(
                ctx, node, "mismatched shapes: C " + quoted(*c) + " does not broadcast to " + shapeText(out));
    }
    setOutput(ctx, node, 0, a->elemType, out);
    return ShapeStatus::Done;
}

std::optional<std::vector<WindowAxis>> windowGeometry(const NodeRec& node, const std::vector<std::int64_t>& xShape,
    const std::vector<std::int64_t>& kernel, std::string& error)
{
    if (xShape.size() < 3 || kernel.size() != xShape.size() - 2) {
        error = "input " + shapeText(xShape) + " and kernel " + shapeText(kernel)
            + " do not fit: expected [N, C, spatial...] and one kernel extent per spatial axis";
        return std::nullopt;
    }
    const std::size_t n = kernel.size();
    auto perAxis = [&](std::string_view name, std::int64_t fallback) {
        std::vector<std::int64_t> values = attrInts(node, name);
        if (values.empty())
            values.assign(n, fallback);
        return values;
    };
    const auto strides = perAxis("strides", 1);
    const auto dilations = perAxis("dilations", 1);
    std::vector<std::int64_t> pads = attrInts(node, "pads");
    if (pads.empty())
        pads.assign(2 * n, 0);
    if (strides.size() != n || dilations.size() != n || pads.size() != 2 * n) {
        error = "strides, dilations or pads do not have one entry per spatial axis (" + std::to_string(n) + ")";
        return std::nullopt;
    }
    const std::string autoPad = attrString(node, "auto_pad", "NOTSET");
    const bool ceilMode = attrInt(node, "ceil_mode", 0) != 0;
    std::vector<WindowAxis> axes(n);
    for (std::size_t i = 0; i < n; ++i) {
        WindowAxis& w = axes[i];
        w.in = xShape[2 + i];
        w.kernel = kernel[i];
        w.stride = strides[i];
        w.dilation = dilations[i];
        if (w.kernel < 1 || w.stride < 1 || w.dilation < 1 || pads[i] < 0 || pads[n + i] < 0) {
            error = "spatial axis " + std::to_string(i) + ": kernel " + std::to_string(w.kernel) + ", stride "
                + std::to_string(w.stride) + ", dilation " + std::to_string(w.dilation) + " must be >= 1 and pads >= 0";
            return std::nullopt;
        }
        // Attributes are arbitrary int64s: every step is overflow-checked.
        const auto effective = safeAdd(safeMul(w.kernel - 1, w.dilation), 1);
        std::optional<std::int64_t> out;
        if (effective && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
            out = ceilDiv(w.in, w.stride);
            const auto reach = safeAdd(safeMul(*out - 1, w.stride), *effective);
            if (reach) {
                const std::int64_t total = std::max<std::int64_t>(0, *reach - w.in);
                const std::int64_t small = total / 2;
                w.padBegin = autoPad == "SAME_UPPER" ? small : total - small;
                w.padEnd = total - w.padBegin;
            } else {
                out.reset();
            }
        } else if (effective && autoPad == "VALID") {
            out = floorDiv(w.in - *effective, w.stride) + 1;
        } else if (effective) {
            w.padBegin = pads[i];
            w.padEnd = pads[n + i];
            const auto room = safeAdd(safeAdd(w.in, w.padBegin), w.padEnd);
            if (room)
                out = (ceilMode ? ceilDiv(*room - *effective, w.stride) : floorDiv(*room - *effective, w.stride)) + 1;
        }
        if (!out || std::max(w.padBegin, w.padEnd) > kMaxElements) {
            error = "spatial axis " + std::to_string(i) + ": kernel, stride, dilation and pads overflow";
            return std::nullopt;
        }
        w.out = *out;
        if (w.out < 1) {
            error = "spatial axis " + std::to_string(i) + " of input " + shapeText(xShape) + " is too small for kernel "
                + std::to_string(w.kernel) + " (dilation " + std::to_string(w.dilation) + ", padding "
                + std::to_string(w.padBegin + w.padEnd) + ")";
            return std::nullopt;
        }
    }
    return axes;
}

ShapeStatus shapeConv(Context& ctx, const NodeRec& node)
{
    const bool qlinear = node.opType == "QLinearConv";
    const Value* x = inputValue(ctx, node, 0);
    const Value* w = inputValue(ctx, node, qlinear ? 3 : 1);
    if (!x || !w)
        return failNode(ctx, node, "needs an input and a weight");
    if (w->shape.size() != x->shape.size() || x->shape.size() < 3)
        return failNode(ctx, node,
            "mismatched shapes: input " + quoted(*x) + " and weight " + quoted(*w)
                + " must both be [N|M, C, spatial...] of the same rank");
    const std::int64_t group = attrInt(node, "group", 1);
    if (group < 1 || group > x->shape[1] || x->shape[1] != w->shape[1] * group || w->shape[0] % group != 0)
        return failNode(ctx, node,
            "mismatched shapes: input channels " + std::to_string(x->shape[1]) + " != weight channels "
                + std::to_string(w->shape[1]) + " x group " + std::to_string(group) + " (input " + quoted(*x)
                + ", weight " + quoted(*w) + ")");
    std::vector<std::int64_t> kernel(w->shape.begin() + 2, w->shape.end());
    const auto declared = attrInts(node, "kernel_shape");
    if (!declared.empty() && declared != kernel)
        return failNode(ctx, node, "kernel_shape " + shapeText(declared) + " differs from the weight " + quoted(*w));
    std::string error;
    const auto geometry = windowGeometry(node, x->shape, kernel, error);
    if (!geometry)
        return failNode(ctx, node, error);
    std::vector<std::int64_t> out { x->shape[0], w->shape[0] };
    for (const WindowAxis& axis : *geometry)
        out.push_back(axis.out);
    setOutput(ctx, node, 0, productType(ctx, node, *x), out);
    return ShapeStatus::Done;
}

ShapeStatus shapeConvTranspose(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    const Value* w = inputValue(ctx, node, 1);
    if (!x || !w || x->shape.size() < 3 || w->shape.size() != x->shape.size())
        return failNode(
            ctx, node, "needs an input [N, C, spatial...] and a weight [C, M/group, kernel...] of the same rank");
    const std::int64_t group = attrInt(node, "group", 1);
    if (group < 1 || group > x->shape[1] || w->shape[0] != x->shape[1] || !safeMul(w->shape[1], group))
        return failNode(ctx, node,
            "mismatched shapes: input channels " + std::to_string(x->shape[1]) + " != weight's first dim in "
                + quoted(*w));
    const std::size_t n = x->shape.size() - 2;
    std::vector<std::int64_t> out { x->shape[0], w->shape[1] * group };
    auto perAxisEarly = [&](std::string_view name) {
        std::vector<std::int64_t> values = attrInts(node, name);
        values.resize(n, 1);
        return values;
    };
    for (std::int64_t s : perAxisEarly("strides")) {
        if (s < 1 || s > kMaxElements)
            return failNode(ctx, node, "strides must be >= 1");
    }
    for (std::int64_t d : perAxisEarly("dilations")) {
        if (d < 1 || d > kMaxElements)
            return failNode(ctx, node, "dilations must be >= 1");
    }
    const auto outputShape = attrInts(node, "output_shape");
    if (!outputShape.empty()) {
        if (outputShape.size() != n && outputShape.size() != n + 2)
            return failNode(ctx, node, "output_shape " + shapeText(outputShape) + " does not fit the input rank");
        out.insert(out.end(), outputShape.end() - std::ptrdiff_t(n), outputShape.end());
        setOutput(ctx, node, 0, x->elemType, out);
        return ShapeStatus::Done;
    }
    auto perAxis = [&](std::string_view name, std::int64_t fallback, std::size_t count) {
        std::vector<std::int64_t> values = attrInts(node, name);
        if (values.empty())
            values.assign(count, fallback);
        return values;
    };
    const auto strides = perAxis("strides", 1, n);
    const auto dilations = perAxis("dilations", 1, n);
    const auto outputPadding = perAxis("output_padding", 0, n);
    const auto pads = perAxis("pads", 0, 2 * n);
    if (strides.size() != n || dilations.size() != n || outputPadding.size() != n || pads.size() != 2 * n)
        return failNode(ctx, node, "strides, dilations, pads or output_padding do not fit the input rank");
    for (std::size_t i = 0; i < n; ++i) {
        const bool valid = strides[i] >= 1 && dilations[i] >= 1 && strides[i] <= kMaxElements
            && dilations[i] <= kMaxElements && safeMul(strides[i], x->shape[2 + i])
            && safeMul(dilations[i], w->shape[2 + i]);
        if (!valid)
            return failNode(ctx, node,
                "spatial axis " + std::to_string(i) + ": strides and dilations must be >= 1 and small enough");
    }
    const std::string autoPad = attrString(node, "auto_pad", "NOTSET");
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t in = x->shape[2 + i];
        const std::int64_t k = w->shape[2 + i];
        std::optional<std::int64_t> o;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            o = safeMul(in, strides[i]);
        } else {
            const auto a = safeMul(strides[i], in - 1);
            const auto b = safeMul(k - 1, dilations[i]);
            if (a && b && std::abs(outputPadding[i]) < kMaxElements && std::abs(pads[i]) < kMaxElements
                && std::abs(pads[n + i]) < kMaxElements)
                o = safeAdd(safeAdd(*a, *b), outputPadding[i] + 1 - pads[i] - pads[n + i]);
        }
        if (!o || *o < 1)
            return failNode(ctx, node,
                "spatial axis " + std::to_string(i) + " would have extent "
                    + (o ? std::to_string(*o) : std::string("beyond int64")));
        out.push_back(*o);
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapePool(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x || x->shape.size() < 3)
        return failNode(ctx, node, "needs an input [N, C, spatial...]");
    const std::string& op = node.opType;
    if (op.rfind("Global", 0) == 0) {
        std::vector<std::int64_t> out { x->shape[0], x->shape[1] };
        out.resize(x->shape.size(), 1);
        setOutput(ctx, node, 0, x->elemType, out);
        return ShapeStatus::Done;
    }
    if (op == "MaxRoiPool") {
        const Value* rois = inputValue(ctx, node, 1);
        const auto pooled = attrInts(node, "pooled_shape");
        if (!rois || rois->shape.size() != 2 || pooled.size() != 2)
            return failNode(ctx, node, "needs rois [num_rois, 5] and pooled_shape [h, w]");
        setOutput(ctx, node, 0, x->elemType, { rois->shape[0], x->shape[1], pooled[0], pooled[1] });
        return ShapeStatus::Done;
    }
    const auto kernel = attrInts(node, "kernel_shape");
    if (op == "MaxUnpool") {
        if (inputValue(ctx, node, 2)) {
            const auto shape = constInts(ctx, node, 2);
            if (!shape)
                return ShapeStatus::NoRule; // output_shape computed at run time
            setOutput(ctx, node, 0, x->elemType, *shape);
            return ShapeStatus::Done;
        }
        const std::size_t n = x->shape.size() - 2;
        auto strides = attrInts(node, "strides");
        auto pads = attrInts(node, "pads");
        strides.resize(n, 1);
        pads.resize(2 * n, 0);
        if (kernel.size() != n)
            return failNode(ctx, node, "kernel_shape must have one entry per spatial axis");
        std::vector<std::int64_t> out { x->shape[0], x->shape[1] };
        for (std::size_t i = 0; i < n; ++i) {
            const auto grown = safeMul(x->shape[2 + i] - 1, strides[i]);
            const auto extent = grown && std::abs(kernel[i]) < kMaxElements && std::abs(pads[i]) < kMaxElements
                    && std::abs(pads[n + i]) < kMaxElements
                ? safeAdd(*grown, kernel[i] - pads[i] - pads[n + i])
                : std::nullopt;
            if (!extent)
                return failNode(ctx, node, "strides, kernel_shape and pads overflow");
            out.push_back(*extent);
        }
        setOutput(ctx, node, 0, x->elemType, out);
        return ShapeStatus::Done;
    }
    std::string error;
    const auto geometry = windowGeometry(node, x->shape, kernel, error);
    if (!geometry)
        return failNode(ctx, node, error);
    std::vector<std::int64_t> out { x->shape[0], x->shape[1] };
    for (const WindowAxis& axis : *geometry)
        out.push_back(axis.out);
    setOutput(ctx, node, 0, x->elemType, out);
    setOutput(ctx, node, 1, onnx::TensorProto::INT64, out); // MaxPool's Indices
    return ShapeStatus::Done;
}

ShapeStatus shapeNormalization(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    setOutput(ctx, node, 0, x->elemType, x->shape);
    if (node.opType == "LayerNormalization") {
        const auto axis = normalizeAxis(attrInt(node, "axis", -1), x->shape.size());
        if (!axis)
            return failNode(ctx, node, "axis is out of range for input " + quoted(*x));
        std::vector<std::int64_t> stats(x->shape.begin(), x->shape.begin() + *axis);
        stats.resize(x->shape.size(), 1);
        const int statsType = int(attrInt(node, "stash_type", onnx::TensorProto::FLOAT));
        setOutput(ctx, node, 1, statsType, stats);
        setOutput(ctx, node, 2, statsType, stats);
    } else if (node.opType == "BatchNormalization") {
        if (x->shape.size() < 2)
            return failNode(ctx, node, "input " + quoted(*x) + " has no channel axis");
        for (std::size_t i = 1; i < node.outputs.size(); ++i)
            setOutput(ctx, node, i, x->elemType, { x->shape[1] });
    }
    return ShapeStatus::Done;
}

std::optional<EinsumSpec> parseEinsum(
    const std::string& equation, const std::vector<std::vector<std::int64_t>>& shapes, std::string& error)
{
    std::string text;
    for (char c : equation) {
        if (c != ' ')
            text += c;
    }
    const std::size_t arrow = text.find("->");
    const std::string lhs = text.substr(0, arrow);
    std::vector<std::string> terms;
    for (std::size_t begin = 0;;) {
        const std::size_t comma = lhs.find(',', begin);
        terms.push_back(lhs.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
        if (comma == std::string::npos)
            break;
        begin = comma + 1;
    }
    if (terms.size() != shapes.size()) {
        error = "equation '" + equation + "' has " + std::to_string(terms.size()) + " input terms for "
            + std::to_string(shapes.size()) + " inputs";
        return std::nullopt;
    }
    auto letterId = [](char c) { return c >= 'a' && c <= 'z' ? c - 'a' : c >= 'A' && c <= 'Z' ? 26 + (c - 'A') : -1; };
    auto lettersOf = [&](const std::string& term, bool& ellipsis) -> std::optional<std::vector<int>> {
        std::vector<int> ids;
        ellipsis = false;
        for (std::size_t i = 0; i < term.size(); ++i) {
            if (term.compare(i, 3, "...") == 0 && !ellipsis) {
                ellipsis = true;
                ids.push_back(-1);
                i += 2;
                continue;
            }
            const int id = letterId(term[i]);
            if (id < 0)
                return std::nullopt;
            ids.push_back(id);
        }
        return ids;
    };
    // Ellipsis dims are right-aligned across inputs, like broadcasting.
    std::size_t ellipsisRank = 0;
    std::vector<std::vector<int>> parsed;
    for (std::size_t k = 0; k < terms.size(); ++k) {
        bool ellipsis = false;
        const auto ids = lettersOf(terms[k], ellipsis);
        if (!ids) {
            error = "equation '" + equation + "' has an invalid term '" + terms[k] + "'";
            return std::nullopt;
        }
        const std::size_t letters = ids->size() - (ellipsis ? 1 : 0);
        if (shapes[k].size() < letters || (!ellipsis && shapes[k].size() != letters)) {
            error = "term '" + terms[k] + "' does not fit input " + std::to_string(k) + " " + shapeText(shapes[k]);
            return std::nullopt;
        }
        if (ellipsis)
            ellipsisRank = std::max(ellipsisRank, shapes[k].size() - letters);
        parsed.push_back(*ids);
    }
    EinsumSpec spec;
    spec.extents.assign(52 + ellipsisRank, 1);
    std::vector<bool> known(spec.extents.size(), false);
    std::map<int, int> count;
    for (std::size_t k = 0; k < parsed.size(); ++k) {
        const std::size_t letters = parsed[k].size() - (std::count(parsed[k].begin(), parsed[k].end(), -1) ? 1 : 0);
        const std::size_t dots = shapes[k].size() - letters;
        std::vector<int> axes;
        for (int id : parsed[k]) {
            if (id >= 0) {
                axes.push_back(id);
                ++count[id];
                continue;
            }
            for (std::size_t j = 0; j < dots; ++j)
                axes.push_back(int(52 + ellipsisRank - dots + j));
        }
        for (std::size_t a = 0; a < axes.size(); ++a) {
            const auto id = std::size_t(axes[a]);
            const std::int64_t extent = shapes[k][a];
            const bool broadcastable = id >= 52; // only ellipsis dims broadcast, as in numpy
            if (!known[id]) {
                spec.extents[id] = extent;
                known[id] = true;
            } else if (extent == spec.extents[id] || (broadcastable && extent == 1)) {
                continue;
            } else if (broadcastable && spec.extents[id] == 1) {
                spec.extents[id] = extent;
            } else {
                error = "mismatched shapes: label of axis " + std::to_string(a) + " of input " + std::to_string(k)
                    + " has extent " + std::to_string(extent) + " but " + std::to_string(spec.extents[id])
                    + " elsewhere";
                return std::nullopt;
            }
        }
        spec.inputs.push_back(std::move(axes));
    }
    if (arrow != std::string::npos) {
        bool ellipsis = false;
        const auto ids = lettersOf(text.substr(arrow + 2), ellipsis);
        if (!ids) {
            error = "equation '" + equation + "' has an invalid output term";
            return std::nullopt;
        }
        for (int id : *ids) {
            if (id < 0) {
                for (std::size_t j = 0; j < ellipsisRank; ++j)
                    spec.output.push_back(int(52 + j));
            } else if (!count.count(id)) {
                error = "equation '" + equation + "' has an output label that no input has";
                return std::nullopt;
            } else {
                spec.output.push_back(id);
            }
        }
    } else {
        for (std::size_t j = 0; j < ellipsisRank; ++j)
            spec.output.push_back(int(52 + j));
        for (const auto& [id, n] : count) {
            if (n == 1)
                spec.output.push_back(id);
        }
    }
    return spec;
}

ShapeStatus shapeEinsum(Context& ctx, const NodeRec& node)
{
    std::vector<std::vector<std::int64_t>> shapes;
    int type = 0;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const Value* v = inputValue(ctx, node, i);
        if (!v)
            return failNode(ctx, node, "input " + std::to_string(i) + " is missing");
        shapes.push_back(v->shape);
        type = type ? type : v->elemType;
    }
    std::string error;
    const auto spec = parseEinsum(attrString(node, "equation", ""), shapes, error);
    if (!spec)
        return failNode(ctx, node, error);
    std::vector<std::int64_t> out;
    for (int id : spec->output)
        out.push_back(spec->extents[std::size_t(id)]);
    setOutput(ctx, node, 0, type, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeRecurrent(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    const Value* w = inputValue(ctx, node, 1);
    if (!x || !w || x->shape.size() != 3 || w->shape.size() != 3)
        return failNode(ctx, node, "needs X [seq, batch, input] and W [directions, gates x hidden, input]");
    const std::int64_t gates = node.opType == "LSTM" ? 4 : node.opType == "GRU" ? 3 : 1;
    const std::int64_t hidden = attrInt(node, "hidden_size", w->shape[1] / gates);
    if (hidden < 1 || hidden > kMaxElements / gates)
        return failNode(ctx, node, "hidden_size " + std::to_string(hidden) + " is out of range");
    const std::int64_t directions = attrString(node, "direction", "forward") == "bidirectional" ? 2 : 1;
    const bool batchFirst = attrInt(node, "layout", 0) != 0;
    const std::int64_t seq = x->shape[batchFirst ? 1 : 0];
    const std::int64_t batch = x->shape[batchFirst ? 0 : 1];
    if (w->shape[0] != directions || w->shape[1] != gates * hidden || w->shape[2] != x->shape[2])
        return failNode(ctx, node,
            "mismatched shapes: W '" + w->name + "' " + shapeText(w->shape) + " does not fit X '" + x->name + "' "
                + shapeText(x->shape) + " with " + std::to_string(gates) + " gates of hidden size "
                + std::to_string(hidden));
    if (batchFirst) {
        setOutput(ctx, node, 0, x->elemType, { batch, seq, directions, hidden });
        setOutput(ctx, node, 1, x->elemType, { batch, directions, hidden });
        setOutput(ctx, node, 2, x->elemType, { batch, directions, hidden });
    } else {
        setOutput(ctx, node, 0, x->elemType, { seq, directions, batch, hidden });
        setOutput(ctx, node, 1, x->elemType, { directions, batch, hidden });
        setOutput(ctx, node, 2, x->elemType, { directions, batch, hidden });
    }
    return ShapeStatus::Done;
}

} // namespace elk::import::onnx_detail
