// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Constant evaluation of small tensors: the shape arithmetic of exported graphs (Shape -> Gather ->
// Concat -> Reshape, masks sizes, ...) has to be folded to know the shapes at all.
#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <cmath>

namespace elk::import::onnx_detail {

namespace {

    const ConstTensor* known(const Context& ctx, const NodeRec& node, std::size_t index)
    {
        const Value* v = inputValue(ctx, node, index);
        return v && v->constant ? &*v->constant : nullptr;
    }

    Value* output(Context& ctx, const NodeRec& node, std::size_t index)
    {
        if (index >= node.outputs.size() || node.outputs[index] < 0)
            return nullptr;
        Value& v = ctx.value(node.outputs[index]);
        const auto count = checkedElements(v.shape);
        return v.hasShape && count && *count <= kMaxConstElements ? &v : nullptr;
    }

    ConstTensor emptyLike(const Value& out)
    {
        ConstTensor c;
        c.shape = out.shape;
        c.isFloat = isFloatType(out.elemType);
        return c;
    }

    // False for an integer result that is not a finite value within +-2^53 (the fold then stops).
    bool push(ConstTensor& c, double value)
    {
        if (c.isFloat) {
            c.reals.push_back(value);
            return true;
        }
        const auto v = sizeFromDouble(value);
        if (!v)
            return false;
        c.ints.push_back(*v);
        return true;
    }

    // Copies element `from` of `src` to the end of `dst`, converting between int and float.
    void pushFrom(ConstTensor& dst, const ConstTensor& src, std::size_t from)
    {
        if (dst.isFloat)
            dst.reals.push_back(src.real(from));
        else
            dst.ints.push_back(src.integer(from));
    }

    std::vector<std::int64_t> stridesOf(const std::vector<std::int64_t>& shape)
    {
        std::vector<std::int64_t> strides(shape.size(), 1);
        for (std::size_t i = shape.size(); i-- > 1;)
            strides[i - 1] = strides[i] * shape[i];
        return strides;
    }

    // Index into `in` (right-aligned, broadcast) of output element `linear`.
    std::size_t broadcastIndex(
        const std::vector<std::int64_t>& outShape, const std::vector<std::int64_t>& inShape, std::int64_t linear)
    {
        std::int64_t index = 0;
        std::int64_t stride = 1;
        for (std::size_t i = 0; i < inShape.size(); ++i) {
            const std::size_t inAxis = inShape.size() - 1 - i;
            const std::size_t outAxis = outShape.size() - 1 - i;
            std::int64_t outer = 1;
            for (std::size_t j = outAxis + 1; j < outShape.size(); ++j)
                outer *= outShape[j];
            const std::int64_t coordinate = (linear / outer) % outShape[outAxis];
            if (inShape[inAxis] != 1)
                index += coordinate * stride;
            stride *= inShape[inAxis];
        }
        return std::size_t(index);
    }

    std::optional<double> applyBinary(const std::string& op, double a, double b, bool isFloat, bool fmodMode)
    {
        if (op == "Add" || op == "Sum")
            return a + b;
        if (op == "Sub")
            return a - b;
        if (op == "Mul")
            return a * b;
        if (op == "Div") {
            if (b == 0 && !isFloat)
                return std::nullopt;
            return isFloat ? a / b : std::trunc(a / b);
        }
        if (op == "Mod") {
            if (b == 0)
                return std::nullopt;
            const double r = std::fmod(a, b);
            return fmodMode || r == 0 || (r < 0) == (b < 0) ? r : r + b;
        }
        if (op == "Pow")
            return std::pow(a, b);
        if (op == "Max")
            return std::max(a, b);
        if (op == "Min")
            return std::min(a, b);
        if (op == "Equal")
            return a == b;
        if (op == "Less")
            return a < b;
        if (op == "Greater")
            return a > b;
        if (op == "LessOrEqual")
            return a <= b;
        if (op == "GreaterOrEqual")
            return a >= b;
        if (op == "And")
            return a != 0 && b != 0;
        if (op == "Or")
            return a != 0 || b != 0;
        if (op == "Xor")
            return (a != 0) != (b != 0);
        return std::nullopt;
    }

} // namespace

bool evalElementwise(Context& ctx, const NodeRec& node)
{
    Value* out = output(ctx, node, 0);
    if (!out)
        return false;
    std::vector<const ConstTensor*> inputs;
    std::vector<std::vector<std::int64_t>> shapes;
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const ConstTensor* c = known(ctx, node, i);
        if (!c)
            return false;
        inputs.push_back(c);
        shapes.push_back(inputValue(ctx, node, i)->shape);
    }
    if (inputs.empty())
        return false;
    ConstTensor result = emptyLike(*out);
    const auto count = *checkedElements(out->shape);
    const bool fmodMode = attrInt(node, "fmod", 0) != 0;
    const bool floatMath = std::any_of(inputs.begin(), inputs.end(), [](const ConstTensor* c) { return c->isFloat; });
    for (std::int64_t e = 0; e < count; ++e) {
        double acc;
        if (node.opType == "Where") {
            if (inputs.size() != 3)
                return false;
            const bool cond = inputs[0]->real(broadcastIndex(out->shape, shapes[0], e)) != 0;
            const std::size_t pick = cond ? 1 : 2;
            acc = inputs[pick]->real(broadcastIndex(out->shape, shapes[pick], e));
        } else {
            acc = inputs[0]->real(broadcastIndex(out->shape, shapes[0], e));
            for (std::size_t i = 1; i < inputs.size(); ++i) {
                const double b = inputs[i]->real(broadcastIndex(out->shape, shapes[i], e));
                const auto r = applyBinary(node.opType == "Mean" ? "Add" : node.opType, acc, b, floatMath, fmodMode);
                if (!r)
                    return false;
                acc = *r;
            }
            if (node.opType == "Mean")
                acc /= double(inputs.size());
        }
        if (!push(result, acc))
            return false;
    }
    out->constant = std::move(result);
    return true;
}

bool evalUnaryMath(Context& ctx, const NodeRec& node)
{
    Value* out = output(ctx, node, 0);
    const ConstTensor* x = known(ctx, node, 0);
    if (!out || !x)
        return false;
    ConstTensor result = emptyLike(*out);
    const std::string& op = node.opType;
    for (std::size_t i = 0; i < x->size(); ++i) {
        const double v = x->real(i);
        double r;
        if (op == "Neg")
            r = -v;
        else if (op == "Abs")
            r = std::fabs(v);
        else if (op == "Sqrt")
            r = std::sqrt(v);
        else if (op == "Floor")
            r = std::floor(v);
        else if (op == "Ceil")
            r = std::ceil(v);
        else if (op == "Round")
            r = std::nearbyint(v);
        else if (op == "Relu")
            r = std::max(0.0, v);
        else if (op == "Reciprocal")
            r = 1.0 / v;
        else if (op == "Sign")
            r = v > 0 ? 1 : v < 0 ? -1 : 0;
        else if (op == "Not")
            r = v == 0;
        else if (op == "Exp")
            r = std::exp(v);
        else if (op == "Log")
            r = std::log(v);
        else if (op == "Cast" || op == "CastLike" || op == "Identity")
            r = out->elemType == onnx::TensorProto::BOOL ? double(v != 0) : v;
        else
            return false;
        if (!push(result, r))
            return false;
    }
    out->constant = std::move(result);
    return true;
}

bool evalReduce(Context& ctx, const NodeRec& node)
{
    // Shape arithmetic reduces whole vectors (ReduceProd of a shape); nothing else is folded.
    Value* out = output(ctx, node, 0);
    const ConstTensor* x = known(ctx, node, 0);
    if (!out || !x || checkedElements(out->shape) != 1 || x->size() == 0)
        return false;
    const std::string& op = node.opType;
    double acc = x->real(0);
    for (std::size_t i = 1; i < x->size(); ++i) {
        const double v = x->real(i);
        if (op == "ReduceSum" || op == "ReduceMean")
            acc += v;
        else if (op == "ReduceProd")
            acc *= v;
        else if (op == "ReduceMax")
            acc = std::max(acc, v);
        else if (op == "ReduceMin")
            acc = std::min(acc, v);
        else
            return false;
    }
    if (op == "ReduceMean")
        acc /= double(x->size());
    else if (op != "ReduceSum" && op != "ReduceProd" && op != "ReduceMax" && op != "ReduceMin")
        return false;
    ConstTensor result = emptyLike(*out);
    if (!push(result, acc))
        return false;
    out->constant = std::move(result);
    return true;
}

bool evalMovement(Context& ctx, const NodeRec& node)
{
    const std::string& op = node.opType;
    const ConstTensor* x = known(ctx, node, 0);
    const Value* in = inputValue(ctx, node, 0);
    if (!x || !in)
        return false;
    if (op == "Split") {
        const auto axis = normalizeAxis(attrInt(node, "axis", 0), in->shape.size());
        if (!axis)
            return false;
        const auto strides = stridesOf(in->shape);
        const std::int64_t inner = strides[std::size_t(*axis)];
        const std::int64_t outer
            = *checkedElements(in->shape) / std::max<std::int64_t>(1, in->shape[std::size_t(*axis)] * inner);
        std::int64_t offset = 0;
        for (std::size_t k = 0; k < node.outputs.size(); ++k) {
            Value* out = output(ctx, node, k);
            if (!out)
                return false;
            const std::int64_t part = out->shape[std::size_t(*axis)];
            ConstTensor result = emptyLike(*out);
            for (std::int64_t o = 0; o < outer; ++o) {
                for (std::int64_t i = 0; i < part * inner; ++i)
                    pushFrom(result, *x, std::size_t((o * in->shape[std::size_t(*axis)] + offset) * inner + i));
            }
            offset += part;
            out->constant = std::move(result);
        }
        return true;
    }
    Value* out = output(ctx, node, 0);
    if (!out)
        return false;
    ConstTensor result = emptyLike(*out);
    const auto count = *checkedElements(out->shape);
    if (op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze" || op == "Identity"
        || op == "Dropout") {
        for (std::size_t i = 0; i < x->size(); ++i)
            pushFrom(result, *x, i);
    } else if (op == "Expand") {
        for (std::int64_t e = 0; e < count; ++e)
            pushFrom(result, *x, broadcastIndex(out->shape, in->shape, e));
    } else if (op == "Transpose") {
        std::vector<std::int64_t> perm = attrInts(node, "perm");
        if (perm.empty()) {
            for (std::size_t i = in->shape.size(); i-- > 0;)
                perm.push_back(std::int64_t(i));
        }
        const auto inStrides = stridesOf(in->shape);
        const auto outStrides = stridesOf(out->shape);
        for (std::int64_t e = 0; e < count; ++e) {
            std::int64_t src = 0;
            for (std::size_t a = 0; a < perm.size(); ++a)
                src += (e / outStrides[a]) % out->shape[a] * inStrides[std::size_t(perm[a])];
            pushFrom(result, *x, std::size_t(src));
        }
    } else if (op == "Concat") {
        const auto axis = normalizeAxis(attrInt(node, "axis", 1), in->shape.size());
        if (!axis)
            return false;
        const auto outStrides = stridesOf(out->shape);
        const std::int64_t outer
            = count / std::max<std::int64_t>(1, out->shape[std::size_t(*axis)] * outStrides[std::size_t(*axis)]);
        for (std::int64_t o = 0; o < outer; ++o) {
            for (std::size_t k = 0; k < node.inputs.size(); ++k) {
                const ConstTensor* part = known(ctx, node, k);
                const Value* v = inputValue(ctx, node, k);
                if (!part || !v)
                    return false;
                const std::int64_t block = v->shape[std::size_t(*axis)] * outStrides[std::size_t(*axis)];
                for (std::int64_t i = 0; i < block; ++i)
                    pushFrom(result, *part, std::size_t(o * block + i));
            }
        }
    } else if (op == "Gather") {
        const ConstTensor* indices = known(ctx, node, 1);
        const auto axis = normalizeAxis(attrInt(node, "axis", 0), in->shape.size());
        if (!indices || !axis)
            return false;
        const std::int64_t extent = in->shape[std::size_t(*axis)];
        const std::int64_t inner = stridesOf(in->shape)[std::size_t(*axis)];
        const std::int64_t outer = *checkedElements(in->shape) / std::max<std::int64_t>(1, extent * inner);
        for (std::int64_t o = 0; o < outer; ++o) {
            for (std::size_t k = 0; k < indices->size(); ++k) {
                std::int64_t index = indices->integer(k);
                index = index < 0 ? index + extent : index;
                if (index < 0 || index >= extent)
                    return false;
                for (std::int64_t i = 0; i < inner; ++i)
                    pushFrom(result, *x, std::size_t((o * extent + index) * inner + i));
            }
        }
    } else if (op == "Slice") {
        std::string error;
        const auto axes = sliceAxes(ctx, node, in->shape, error);
        if (!axes)
            return false;
        std::vector<std::int64_t> start(in->shape.size(), 0), step(in->shape.size(), 1);
        for (const SliceAxis& a : *axes) {
            start[std::size_t(a.axis)] = a.start;
            step[std::size_t(a.axis)] = a.step;
        }
        const auto inStrides = stridesOf(in->shape);
        const auto outStrides = stridesOf(out->shape);
        for (std::int64_t e = 0; e < count; ++e) {
            std::int64_t src = 0;
            for (std::size_t a = 0; a < out->shape.size(); ++a)
                src += (start[a] + (e / outStrides[a]) % out->shape[a] * step[a]) * inStrides[a];
            pushFrom(result, *x, std::size_t(src));
        }
    } else {
        return false;
    }
    if (std::int64_t(result.size()) != count)
        return false;
    out->constant = std::move(result);
    return true;
}

bool evalShapeOps(Context& ctx, const NodeRec& node)
{
    Value* out = output(ctx, node, 0);
    const Value* in = inputValue(ctx, node, 0);
    if (!out)
        return false;
    ConstTensor result = emptyLike(*out);
    const std::string& op = node.opType;
    if (op == "Shape") {
        if (!in)
            return false;
        const auto rank = std::int64_t(in->shape.size());
        auto clampAxis = [rank](std::int64_t a) { return std::clamp<std::int64_t>(a < 0 ? a + rank : a, 0, rank); };
        const std::int64_t start = clampAxis(attrInt(node, "start", 0));
        const std::int64_t end = clampAxis(attrInt(node, "end", rank));
        for (std::int64_t i = start; i < end; ++i)
            result.ints.push_back(in->shape[std::size_t(i)]);
    } else if (op == "Size") {
        if (!in)
            return false;
        result.ints.push_back(*checkedElements(in->shape));
    } else if (op == "ConstantOfShape") {
        double fill = 0;
        if (const auto* value = findAttr(node, "value")) {
            const auto decoded = decodeTensor(value->t());
            if (!decoded || decoded->size() != 1)
                return false;
            fill = decoded->real(0);
        }
        const auto count = *checkedElements(out->shape);
        for (std::int64_t i = 0; i < count; ++i) {
            if (!push(result, fill))
                return false;
        }
    } else if (op == "Range") {
        const auto s = constReals(ctx, node, 0);
        const auto d = constReals(ctx, node, 2);
        if (!s || !d || s->empty() || d->empty())
            return false;
        const auto count = *checkedElements(out->shape);
        for (std::int64_t i = 0; i < count; ++i) {
            if (!push(result, (*s)[0] + double(i) * (*d)[0]))
                return false;
        }
    } else {
        return false;
    }
    out->constant = std::move(result);
    return true;
}

} // namespace elk::import::onnx_detail
