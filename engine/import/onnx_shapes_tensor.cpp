// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of ops that move, select or create data (reshape, slice, gather, pad, constants, ...).
#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace elk::import::onnx_detail {

namespace {

    std::string quoted(const Value& v)
    {
        return "'" + v.name + "' " + shapeText(v.shape);
    }

    // Axes given as an attribute before `inputSince`, as input `index` from then on.
    std::optional<std::vector<std::int64_t>> axesParam(
        const Context& ctx, const NodeRec& node, int inputSince, std::size_t index, bool& present)
    {
        if (node.opset < inputSince) {
            present = hasAttr(node, "axes");
            return attrInts(node, "axes");
        }
        present = inputValue(ctx, node, index) != nullptr;
        if (!present)
            return std::vector<std::int64_t> {};
        return constInts(ctx, node, index);
    }

} // namespace

ShapeStatus shapeReshape(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the data input is missing");
    const auto spec = node.opset < 5 ? std::optional(attrInts(node, "shape")) : constInts(ctx, node, 1);
    if (!spec)
        return ShapeStatus::NoRule; // shape computed at run time: declared shapes may know it
    const bool allowZero = attrInt(node, "allowzero", 0) != 0;
    std::vector<std::int64_t> out;
    int inferred = -1;
    for (std::size_t i = 0; i < spec->size(); ++i) {
        const std::int64_t d = (*spec)[i];
        if (d == 0 && !allowZero) {
            if (i >= x->shape.size())
                return failNode(ctx, node,
                    "shape " + shapeText(*spec) + " copies dim " + std::to_string(i) + " (0), but input " + quoted(*x)
                        + " has no such dim");
            out.push_back(x->shape[i]);
        } else if (d == -1) {
            if (inferred >= 0)
                return failNode(ctx, node, "shape " + shapeText(*spec) + " has more than one -1");
            inferred = int(i);
            out.push_back(1);
        } else if (d < 0) {
            return failNode(ctx, node, "shape " + shapeText(*spec) + " has the invalid entry " + std::to_string(d));
        } else {
            out.push_back(d);
        }
    }
    const auto total = checkedElements(x->shape);
    const auto known = checkedElements(out);
    if (!total || !known)
        return failNode(ctx, node, "shape " + shapeText(*spec) + " overflows");
    if (inferred >= 0) {
        if (*known == 0 || *total % *known != 0)
            return failNode(ctx, node,
                "mismatched shapes: cannot reshape " + quoted(*x) + " to " + shapeText(*spec)
                    + " (the -1 has no integer value)");
        out[std::size_t(inferred)] = *total / *known;
    } else if (*known != *total) {
        return failNode(ctx, node,
            "mismatched shapes: cannot reshape " + quoted(*x) + " (" + std::to_string(*total) + " elements) to "
                + shapeText(out) + " (" + std::to_string(*known) + " elements)");
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeFlatten(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    const auto rank = std::int64_t(x->shape.size());
    std::int64_t axis = attrInt(node, "axis", 1);
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis > rank)
        return failNode(
            ctx, node, "axis " + std::to_string(attrInt(node, "axis", 1)) + " is out of range for " + quoted(*x));
    const std::vector<std::int64_t> head(x->shape.begin(), x->shape.begin() + axis);
    const std::vector<std::int64_t> tail(x->shape.begin() + axis, x->shape.end());
    setOutput(ctx, node, 0, x->elemType, { *checkedElements(head), *checkedElements(tail) });
    return ShapeStatus::Done;
}

ShapeStatus shapeSqueeze(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    bool present = false;
    const auto axes = axesParam(ctx, node, 13, 1, present);
    if (!axes)
        return ShapeStatus::NoRule;
    std::vector<bool> drop(x->shape.size(), false);
    if (!present || axes->empty()) {
        for (std::size_t i = 0; i < x->shape.size(); ++i)
            drop[i] = x->shape[i] == 1;
    }
    for (std::int64_t axis : *axes) {
        const auto a = normalizeAxis(axis, x->shape.size());
        if (!a || x->shape[std::size_t(*a)] != 1)
            return failNode(ctx, node,
                "cannot squeeze axis " + std::to_string(axis) + " of " + quoted(*x)
                    + ": it is out of range or its extent is not 1");
        drop[std::size_t(*a)] = true;
    }
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < x->shape.size(); ++i) {
        if (!drop[i])
            out.push_back(x->shape[i]);
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeUnsqueeze(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    bool present = false;
    const auto axes = axesParam(ctx, node, 13, 1, present);
    if (!axes)
        return ShapeStatus::NoRule;
    const std::size_t rank = x->shape.size() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (std::int64_t axis : *axes) {
        const auto a = normalizeAxis(axis, rank);
        if (!a || inserted[std::size_t(*a)])
            return failNode(ctx, node, "axes " + shapeText(*axes) + " are out of range or repeated for " + quoted(*x));
        inserted[std::size_t(*a)] = true;
    }
    std::vector<std::int64_t> out;
    std::size_t next = 0;
    for (std::size_t i = 0; i < rank; ++i)
        out.push_back(inserted[i] ? 1 : x->shape[next++]);
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeTranspose(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    std::vector<std::int64_t> perm = attrInts(node, "perm");
    if (!hasAttr(node, "perm")) {
        for (std::size_t i = x->shape.size(); i-- > 0;)
            perm.push_back(std::int64_t(i));
    }
    std::vector<bool> seen(x->shape.size(), false);
    std::vector<std::int64_t> out;
    for (std::int64_t p : perm) {
        if (p < 0 || std::size_t(p) >= x->shape.size() || seen[std::size_t(p)])
            return failNode(
                ctx, node, "perm " + shapeText(perm) + " is not a permutation of the axes of " + quoted(*x));
        seen[std::size_t(p)] = true;
        out.push_back(x->shape[std::size_t(p)]);
    }
    if (perm.size() != x->shape.size())
        return failNode(ctx, node, "perm " + shapeText(perm) + " is not a permutation of the axes of " + quoted(*x));
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeConcat(Context& ctx, const NodeRec& node)
{
    const Value* first = inputValue(ctx, node, 0);
    if (!first)
        return failNode(ctx, node, "has no inputs");
    if (!hasAttr(node, "axis") && node.opset >= 4)
        return failNode(ctx, node, "has no 'axis' attribute");
    const auto axis = normalizeAxis(attrInt(node, "axis", 1), first->shape.size());
    if (!axis)
        return failNode(ctx, node, "axis is out of range for " + quoted(*first));
    std::vector<std::int64_t> out = first->shape;
    out[std::size_t(*axis)] = 0;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const Value* v = inputValue(ctx, node, i);
        if (!v)
            continue;
        bool fits = v->shape.size() == out.size();
        for (std::size_t d = 0; fits && d < out.size(); ++d)
            fits = d == std::size_t(*axis) || v->shape[d] == out[d];
        if (!fits)
            return failNode(ctx, node,
                "mismatched shapes: input " + quoted(*v) + " does not fit " + quoted(*first) + " along axis "
                    + std::to_string(*axis));
        const auto sum = safeAdd(out[std::size_t(*axis)], v->shape[std::size_t(*axis)]);
        if (!sum)
            return failNode(ctx, node, "the concatenated extent overflows");
        out[std::size_t(*axis)] = *sum;
    }
    setOutput(ctx, node, 0, first->elemType, out);
    return ShapeStatus::Done;
}

std::optional<std::vector<std::int64_t>> splitSizes(
    const Context& ctx, const NodeRec& node, std::int64_t extent, std::string& error)
{
    std::optional<std::vector<std::int64_t>> sizes;
    if (node.opset < 13 && hasAttr(node, "split"))
        sizes = attrInts(node, "split");
    else if (inputValue(ctx, node, 1)) {
        sizes = constInts(ctx, node, 1);
        if (!sizes)
            return std::nullopt;
    }
    const auto outputs = std::int64_t(node.outputs.size());
    if (!sizes || sizes->empty()) {
        const std::int64_t parts = hasAttr(node, "num_outputs") ? attrInt(node, "num_outputs", outputs) : outputs;
        if (parts < 1 || parts != outputs) {
            error
                = "num_outputs " + std::to_string(parts) + " differs from the " + std::to_string(outputs) + " outputs";
            return std::nullopt;
        }
        if (node.opset < 18 && extent % parts != 0) {
            error = "extent " + std::to_string(extent) + " does not split evenly into " + std::to_string(parts)
                + " parts";
            return std::nullopt;
        }
        const std::int64_t chunk = (extent + parts - 1) / parts; // opset 18: the last part takes the rest
        sizes.emplace();
        for (std::int64_t i = 0; i < parts; ++i)
            sizes->push_back(std::max<std::int64_t>(0, std::min(chunk, extent - i * chunk)));
    }
    std::int64_t sum = 0;
    for (std::int64_t s : *sizes) {
        if (s < 0 || s > extent) {
            error = "split sizes " + shapeText(*sizes) + " contain a negative size or one beyond the extent";
            return std::nullopt;
        }
        sum += s; // each <= extent <= 2^53, and there are fewer than 2^10 outputs in any sane file
    }
    if (sum != extent || std::int64_t(sizes->size()) != outputs) {
        error = "split sizes " + shapeText(*sizes) + " do not add up to the extent " + std::to_string(extent) + " in "
            + std::to_string(outputs) + " outputs";
        return std::nullopt;
    }
    return sizes;
}

ShapeStatus shapeSplit(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    const auto axis = normalizeAxis(attrInt(node, "axis", 0), x->shape.size());
    if (!axis)
        return failNode(ctx, node, "axis is out of range for " + quoted(*x));
    std::string error;
    const auto sizes = splitSizes(ctx, node, x->shape[std::size_t(*axis)], error);
    if (!sizes)
        return error.empty() ? ShapeStatus::NoRule : failNode(ctx, node, error + " (input " + quoted(*x) + ")");
    for (std::size_t i = 0; i < sizes->size(); ++i) {
        std::vector<std::int64_t> out = x->shape;
        out[std::size_t(*axis)] = (*sizes)[i];
        setOutput(ctx, node, i, x->elemType, out);
    }
    return ShapeStatus::Done;
}

std::optional<std::vector<SliceAxis>> sliceAxes(
    const Context& ctx, const NodeRec& node, const std::vector<std::int64_t>& dataShape, std::string& error)
{
    std::optional<std::vector<std::int64_t>> starts, ends, axes, steps;
    if (node.opset < 10) {
        starts = attrInts(node, "starts");
        ends = attrInts(node, "ends");
        axes = attrInts(node, "axes");
    } else {
        starts = constInts(ctx, node, 1);
        ends = constInts(ctx, node, 2);
        axes = inputValue(ctx, node, 3) ? constInts(ctx, node, 3) : std::vector<std::int64_t> {};
        steps = inputValue(ctx, node, 4) ? constInts(ctx, node, 4) : std::vector<std::int64_t> {};
        if (!starts || !ends || !axes || !steps)
            return std::nullopt;
    }
    if (axes->empty()) {
        for (std::size_t i = 0; i < starts->size(); ++i)
            axes->push_back(std::int64_t(i));
    }
    if (!steps || steps->empty())
        steps = std::vector<std::int64_t>(starts->size(), 1);
    if (ends->size() != starts->size() || axes->size() != starts->size() || steps->size() != starts->size()) {
        error = "starts, ends, axes and steps have different lengths";
        return std::nullopt;
    }
    std::vector<SliceAxis> result;
    std::set<int> seen;
    for (std::size_t i = 0; i < starts->size(); ++i) {
        const auto axis = normalizeAxis((*axes)[i], dataShape.size());
        if (!axis || !seen.insert(*axis).second) {
            error = "axis " + std::to_string((*axes)[i]) + " is out of range or repeated for input "
                + shapeText(dataShape);
            return std::nullopt;
        }
        const std::int64_t d = dataShape[std::size_t(*axis)];
        const std::int64_t step = (*steps)[i];
        if (step == 0) {
            error = "step 0 on axis " + std::to_string(*axis);
            return std::nullopt;
        }
        // Clamp before adding the extent, so INT64_MIN/MAX sentinels cannot overflow.
        auto clampIndex = [d](std::int64_t v, std::int64_t low, std::int64_t high) {
            v = std::clamp<std::int64_t>(v, -d - 1, d + 1);
            if (v < 0)
                v += d;
            return std::clamp(v, low, high);
        };
        std::int64_t start, end;
        if (step > 0) {
            start = clampIndex((*starts)[i], 0, d);
            end = clampIndex((*ends)[i], 0, d);
        } else {
            start = clampIndex((*starts)[i], 0, d - 1);
            end = clampIndex((*ends)[i], -1, d - 1);
            if ((*ends)[i] < -d) // "to the beginning" sentinel
                end = -1;
        }
        const std::int64_t span = step > 0 ? end - start : start - end;
        const std::int64_t magnitude = step > 0 ? step : -step;
        const std::int64_t out = span <= 0 ? 0 : (span + magnitude - 1) / magnitude;
        result.push_back({ *axis, start, step, out });
    }
    return result;
}

ShapeStatus shapeSlice(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the data input is missing");
    std::string error;
    const auto axes = sliceAxes(ctx, node, x->shape, error);
    if (!axes)
        return error.empty() ? ShapeStatus::NoRule : failNode(ctx, node, error);
    std::vector<std::int64_t> out = x->shape;
    for (const SliceAxis& a : *axes)
        out[std::size_t(a.axis)] = a.out;
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeGather(Context& ctx, const NodeRec& node)
{
    const Value* data = inputValue(ctx, node, 0);
    const Value* indices = inputValue(ctx, node, 1);
    if (!data || !indices)
        return failNode(ctx, node, "needs data and indices");
    const auto axis = normalizeAxis(attrInt(node, "axis", 0), data->shape.size());
    if (!axis)
        return failNode(ctx, node, "axis is out of range for data " + quoted(*data));
    std::vector<std::int64_t> out(data->shape.begin(), data->shape.begin() + *axis);
    out.insert(out.end(), indices->shape.begin(), indices->shape.end());
    out.insert(out.end(), data->shape.begin() + *axis + 1, data->shape.end());
    setOutput(ctx, node, 0, data->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeGatherElements(Context& ctx, const NodeRec& node)
{
    const Value* data = inputValue(ctx, node, 0);
    const Value* indices = inputValue(ctx, node, 1);
    if (!data || !indices || data->shape.size() != indices->shape.size())
        return failNode(ctx, node, "needs data and indices of the same rank");
    setOutput(ctx, node, 0, data->elemType, indices->shape);
    return ShapeStatus::Done;
}

ShapeStatus shapeGatherND(Context& ctx, const NodeRec& node)
{
    const Value* data = inputValue(ctx, node, 0);
    const Value* indices = inputValue(ctx, node, 1);
    if (!data || !indices || indices->shape.empty())
        return failNode(ctx, node, "needs data and indices of rank >= 1");
    const std::int64_t batch = attrInt(node, "batch_dims", 0);
    const std::int64_t last = indices->shape.back();
    if (batch < 0 || batch > std::int64_t(data->shape.size()) || last > std::int64_t(data->shape.size())
        || batch + last > std::int64_t(data->shape.size()))
        return failNode(
            ctx, node, "indices " + quoted(*indices) + " index more dims than data " + quoted(*data) + " has");
    std::vector<std::int64_t> out(indices->shape.begin(), indices->shape.end() - 1);
    out.insert(out.end(), data->shape.begin() + batch + last, data->shape.end());
    setOutput(ctx, node, 0, data->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeExpand(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    const auto target = constInts(ctx, node, 1);
    if (!target)
        return ShapeStatus::NoRule;
    const auto out = broadcastShapes({ &x->shape, &*target });
    if (!out)
        return failNode(ctx, node, "mismatched shapes: cannot expand " + quoted(*x) + " to " + shapeText(*target));
    setOutput(ctx, node, 0, x->elemType, *out);
    return ShapeStatus::Done;
}

ShapeStatus shapeTile(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    const auto repeats = constInts(ctx, node, 1);
    if (!repeats)
        return ShapeStatus::NoRule;
    if (repeats->size() != x->shape.size())
        return failNode(ctx, node, "repeats " + shapeText(*repeats) + " do not match the rank of " + quoted(*x));
    std::vector<std::int64_t> out = x->shape;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto grown = safeMul(out[i], (*repeats)[i]);
        if ((*repeats)[i] < 0 || !grown)
            return failNode(ctx, node, "repeats " + shapeText(*repeats) + " contain a negative count or overflow");
        out[i] = *grown;
    }
    if (!checkedElements(out))
        return failNode(ctx, node, "output " + shapeText(out) + " has too many elements");
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapePad(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    std::optional<std::vector<std::int64_t>> pads;
    if (node.opset < 11)
        pads = hasAttr(node, "pads") ? attrInts(node, "pads") : attrInts(node, "paddings");
    else
        pads = constInts(ctx, node, 1);
    if (!pads)
        return ShapeStatus::NoRule;
    std::vector<std::int64_t> axes;
    if (node.opset >= 18 && inputValue(ctx, node, 3)) {
        const auto given = constInts(ctx, node, 3);
        if (!given)
            return ShapeStatus::NoRule;
        for (std::int64_t a : *given) {
            const auto axis = normalizeAxis(a, x->shape.size());
            if (!axis)
                return failNode(ctx, node, "axis " + std::to_string(a) + " is out of range for " + quoted(*x));
            axes.push_back(*axis);
        }
    } else {
        for (std::size_t i = 0; i < x->shape.size(); ++i)
            axes.push_back(std::int64_t(i));
    }
    if (pads->size() != 2 * axes.size())
        return failNode(ctx, node, "pads " + shapeText(*pads) + " need two entries per padded axis of " + quoted(*x));
    std::vector<std::int64_t> out = x->shape;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        std::int64_t& d = out[std::size_t(axes[i])];
        const auto padded = safeAdd(safeAdd(d, (*pads)[i]), (*pads)[axes.size() + i]);
        if (!padded)
            return failNode(ctx, node, "pads " + shapeText(*pads) + " overflow");
        d = *padded;
        if (d < 0)
            return failNode(ctx, node, "pads " + shapeText(*pads) + " remove more than " + quoted(*x) + " has");
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeResize(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    const std::size_t rank = x->shape.size();
    std::vector<std::int64_t> axes;
    for (std::int64_t a : attrInts(node, "axes")) {
        const auto axis = normalizeAxis(a, rank);
        if (!axis)
            return failNode(ctx, node, "axis " + std::to_string(a) + " is out of range for " + quoted(*x));
        axes.push_back(*axis);
    }
    if (axes.empty()) {
        for (std::size_t i = 0; i < rank; ++i)
            axes.push_back(std::int64_t(i));
    }
    std::optional<std::vector<double>> scales;
    std::optional<std::vector<std::int64_t>> sizes;
    if (node.opType == "Upsample") {
        scales = node.opset < 9 ? std::optional<std::vector<double>>() : constReals(ctx, node, 1);
        if (node.opset < 9) {
            const auto* attribute = findAttr(node, "scales");
            if (attribute)
                scales = std::vector<double>(attribute->floats().begin(), attribute->floats().end());
        }
    } else if (node.opset < 11) {
        scales = constReals(ctx, node, 1);
    } else {
        if (inputValue(ctx, node, 3)) {
            sizes = constInts(ctx, node, 3);
            if (!sizes)
                return ShapeStatus::NoRule;
        }
        if ((!sizes || sizes->empty()) && inputValue(ctx, node, 2))
            scales = constReals(ctx, node, 2);
    }
    std::vector<std::int64_t> out = x->shape;
    if (sizes && !sizes->empty()) {
        if (sizes->size() != axes.size())
            return failNode(
                ctx, node, "sizes " + shapeText(*sizes) + " do not match the resized axes of " + quoted(*x));
        const std::string policy = attrString(node, "keep_aspect_ratio_policy", "stretch");
        if (policy == "stretch") {
            for (std::size_t i = 0; i < axes.size(); ++i)
                out[std::size_t(axes[i])] = (*sizes)[i];
        } else {
            double scale = policy == "not_larger" ? 1e300 : 0.0;
            for (std::size_t i = 0; i < axes.size(); ++i) {
                const double s = double((*sizes)[i]) / double(x->shape[std::size_t(axes[i])]);
                scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
            }
            for (std::int64_t a : axes) {
                const auto extent = sizeFromDouble(std::floor(scale * double(x->shape[std::size_t(a)]) + 0.5));
                if (!extent)
                    return failNode(ctx, node, "sizes " + shapeText(*sizes) + " give an invalid extent");
                out[std::size_t(a)] = *extent;
            }
        }
    } else if (scales && !scales->empty()) {
        if (scales->size() != axes.size())
            return failNode(ctx, node, "scales do not match the resized axes of " + quoted(*x));
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const double scaled = double(x->shape[std::size_t(axes[i])]) * (*scales)[i];
            if (!(scaled >= 0 && scaled < double(kMaxElements)))
                return failNode(ctx, node, "scale " + std::to_string((*scales)[i]) + " is invalid for " + quoted(*x));
            out[std::size_t(axes[i])] = std::int64_t(std::floor(scaled));
        }
    } else {
        return ShapeStatus::NoRule;
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeDepthToSpace(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    const std::int64_t b = attrInt(node, "blocksize", 0);
    if (!x || x->shape.size() != 4 || b < 1 || b > (std::int64_t(1) << 26))
        return failNode(ctx, node, "needs an input [N, C, H, W] and a blocksize in 1..2^26");
    std::vector<std::int64_t> out = x->shape;
    if (node.opType == "DepthToSpace") {
        if (out[1] % (b * b) != 0)
            return failNode(ctx, node, "channels of " + quoted(*x) + " are not a multiple of blocksize^2");
        out = { out[0], out[1] / (b * b), out[2] * b, out[3] * b };
    } else {
        if (out[2] % b != 0 || out[3] % b != 0)
            return failNode(ctx, node, "spatial dims of " + quoted(*x) + " are not multiples of the blocksize");
        out = { out[0], out[1] * b * b, out[2] / b, out[3] / b };
    }
    setOutput(ctx, node, 0, x->elemType, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeShape(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    if (node.opType == "Size") {
        setOutput(ctx, node, 0, onnx::TensorProto::INT64, {});
        return ShapeStatus::Done;
    }
    const auto rank = std::int64_t(x->shape.size());
    auto clampAxis = [rank](std::int64_t a) { return std::clamp<std::int64_t>(a < 0 ? a + rank : a, 0, rank); };
    const std::int64_t start = clampAxis(attrInt(node, "start", 0));
    const std::int64_t end = clampAxis(attrInt(node, "end", rank));
    setOutput(ctx, node, 0, onnx::TensorProto::INT64, { std::max<std::int64_t>(0, end - start) });
    return ShapeStatus::Done;
}

ShapeStatus shapeConstant(Context& ctx, const NodeRec& node)
{
    if (!node.proto || node.proto->attribute_size() == 0)
        return failNode(ctx, node, "has no value attribute");
    const onnx::AttributeProto& a = node.proto->attribute(0);
    const std::string& name = a.name();
    const int out = node.outputs.empty() ? -1 : node.outputs[0];
    if (name == "value") {
        setOutput(ctx, node, 0, a.t().data_type(), { a.t().dims().begin(), a.t().dims().end() });
        if (out >= 0)
            ctx.value(out).constant = decodeTensor(a.t());
    } else if (name == "sparse_value") {
        setOutput(ctx, node, 0, a.sparse_tensor().values().data_type(),
            { a.sparse_tensor().dims().begin(), a.sparse_tensor().dims().end() });
    } else if (name == "value_float" || name == "value_floats") {
        ConstTensor c;
        c.isFloat = true;
        if (name == "value_float")
            c.reals.push_back(a.f());
        else
            c.reals.assign(a.floats().begin(), a.floats().end());
        if (name == "value_floats")
            c.shape = { std::int64_t(c.reals.size()) };
        setOutput(ctx, node, 0, onnx::TensorProto::FLOAT, c.shape);
        if (out >= 0)
            ctx.value(out).constant = std::move(c);
    } else if (name == "value_int" || name == "value_ints") {
        ConstTensor c;
        if (name == "value_int")
            c.ints.push_back(a.i());
        else
            c.ints.assign(a.ints().begin(), a.ints().end());
        if (name == "value_ints")
            c.shape = { std::int64_t(c.ints.size()) };
        setOutput(ctx, node, 0, onnx::TensorProto::INT64, c.shape);
        if (out >= 0)
            ctx.value(out).constant = std::move(c);
    } else if (name == "value_string" || name == "value_strings") {
        return failNode(ctx, node, "produces a STRING tensor, which cannot be modelled");
    } else {
        return failNode(ctx, node, "has the unknown value attribute '" + name + "'");
    }
    for (std::int64_t d : ctx.value(out).shape) {
        if (d < 0)
            return failNode(ctx, node, "value has the negative dim " + std::to_string(d));
    }
    return ShapeStatus::Done;
}

ShapeStatus shapeConstantOfShape(Context& ctx, const NodeRec& node)
{
    const auto shape = constInts(ctx, node, 0);
    if (!shape)
        return ShapeStatus::NoRule;
    for (std::int64_t d : *shape) {
        if (d < 0)
            return failNode(ctx, node, "shape " + shapeText(*shape) + " has a negative dim");
    }
    if (!checkedElements(*shape))
        return failNode(ctx, node, "shape " + shapeText(*shape) + " has too many elements");
    const auto* value = findAttr(node, "value");
    setOutput(ctx, node, 0, value ? value->t().data_type() : int(onnx::TensorProto::FLOAT), *shape);
    return ShapeStatus::Done;
}

ShapeStatus shapeRange(Context& ctx, const NodeRec& node)
{
    const Value* start = inputValue(ctx, node, 0);
    if (!start)
        return failNode(ctx, node, "the start input is missing");
    const auto s = constReals(ctx, node, 0);
    const auto l = constReals(ctx, node, 1);
    const auto d = constReals(ctx, node, 2);
    if (!s || !l || !d || s->size() != 1 || l->size() != 1 || d->size() != 1)
        return ShapeStatus::NoRule;
    if ((*d)[0] == 0)
        return failNode(ctx, node, "delta is 0");
    const auto count = sizeFromDouble(std::ceil(((*l)[0] - (*s)[0]) / (*d)[0]));
    if (!count)
        return failNode(ctx, node, "the range has too many elements (or is not finite)");
    setOutput(ctx, node, 0, start->elemType, { std::max<std::int64_t>(0, *count) });
    return ShapeStatus::Done;
}

ShapeStatus shapeTopK(Context& ctx, const NodeRec& node)
{
    const Value* x = inputValue(ctx, node, 0);
    if (!x)
        return failNode(ctx, node, "the input is missing");
    std::optional<std::int64_t> k;
    if (node.opset < 10) {
        k = attrInt(node, "k", -1);
    } else if (const auto values = constInts(ctx, node, 1); values && values->size() == 1) {
        k = (*values)[0];
    }
    if (!k)
        return ShapeStatus::NoRule;
    const auto axis = normalizeAxis(attrInt(node, "axis", -1), x->shape.size());
    if (!axis || *k < 0 || *k > x->shape[std::size_t(*axis)])
        return failNode(ctx, node, "k = " + std::to_string(*k) + " or the axis does not fit " + quoted(*x));
    std::vector<std::int64_t> out = x->shape;
    out[std::size_t(*axis)] = *k;
    setOutput(ctx, node, 0, x->elemType, out);
    setOutput(ctx, node, 1, onnx::TensorProto::INT64, out);
    return ShapeStatus::Done;
}

ShapeStatus shapeOneHot(Context& ctx, const NodeRec& node)
{
    const Value* indices = inputValue(ctx, node, 0);
    const Value* values = inputValue(ctx, node, 2);
    const auto depth = constReals(ctx, node, 1);
    if (!indices || !values)
        return failNode(ctx, node, "needs indices, depth and values");
    if (!depth || depth->size() != 1)
        return ShapeStatus::NoRule;
    const auto axis = normalizeAxis(attrInt(node, "axis", -1), indices->shape.size() + 1);
    const auto depthSize = sizeFromDouble((*depth)[0]);
    if (!axis || !depthSize || *depthSize < 1)
        return failNode(ctx, node, "axis or depth does not fit indices " + quoted(*indices));
    std::vector<std::int64_t> out = indices->shape;
    out.insert(out.begin() + *axis, *depthSize);
    setOutput(ctx, node, 0, values->elemType, out);
    return ShapeStatus::Done;
}

} // namespace elk::import::onnx_detail
