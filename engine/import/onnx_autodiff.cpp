// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Reverse-mode differentiation of the forward ops OnnxGraphWriter recorded, spelled out as plain
// ONNX ops (MatMul/Gemm for the matmul gradients, elementwise ops for the rest), so an importer
// charges the backward pass the work it really does.
#include "engine/import/onnx_graph_writer.h"

#include <algorithm>
#include <stdexcept>

namespace elk::import::detail {

namespace {

    Dim product(const Shape& shape, std::size_t begin, std::size_t end)
    {
        Dim p(1);
        for (std::size_t i = begin; i < end; ++i)
            p = (p == Dim(1)) ? shape[i] : p * shape[i];
        return p;
    }

} // namespace

std::optional<std::string> OnnxGraphWriter::gradient(const std::string& name) const
{
    const auto it = m_grads.find(name);
    if (it == m_grads.end())
        return std::nullopt;
    return it->second;
}

void OnnxGraphWriter::accumulate(const std::string& name, std::string grad)
{
    if (!value(name).requiresGrad)
        return;
    if (!(value(grad).shape == value(name).shape))
        throw std::logic_error("onnx autodiff: gradient " + toString(value(grad).shape) + " for '" + name
            + "' of shape " + toString(value(name).shape));
    auto it = m_grads.find(name);
    if (it == m_grads.end())
        m_grads.emplace(name, std::move(grad));
    else
        it->second = add(it->second, grad);
}

std::string OnnxGraphWriter::unbroadcast(const std::string& grad, const Shape& target)
{
    const Shape g = value(grad).shape;
    if (g == target)
        return grad;
    const std::size_t lead = g.size() - target.size();
    std::vector<std::int64_t> axes;
    bool inner = false;
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (i < lead) {
            axes.push_back(std::int64_t(i));
        } else if (target[i - lead] == Dim(1) && !(g[i] == Dim(1))) {
            axes.push_back(std::int64_t(i));
            inner = true;
        }
    }
    std::string out = reduceSum(grad, axes, inner);
    if (inner && lead > 0)
        out = reshape(out, target);
    if (!(value(out).shape == target))
        throw std::logic_error("onnx autodiff: cannot reduce " + toString(g) + " to " + toString(target));
    return out;
}

void OnnxGraphWriter::backward(const std::string& name, const std::string& grad)
{
    m_recording = false;
    m_grads[name] = grad;
    const std::string savedScope = m_scope;
    for (auto it = m_tape.rbegin(); it != m_tape.rend(); ++it) {
        const bool any = std::any_of(
            it->outputs.begin(), it->outputs.end(), [this](const std::string& o) { return m_grads.count(o) > 0; });
        if (!any)
            continue;
        m_scope = it->scope + "g";
        backwardOf(*it);
    }
    m_scope = savedScope;
    m_recording = true;
}

void OnnxGraphWriter::gatherBackward(const TapeEntry& e, const std::string& gy)
{
    const std::string& a = e.inputs.front();
    const std::string& b = e.inputs.at(1);
    // Embedding rows: scatter-add the output gradient into a zero table.
    const ValueInfo table = value(a);
    std::vector<std::int64_t> dims;
    for (const Dim& d : table.shape)
        dims.push_back(d.value);
    onnx::TensorProto zero;
    zero.add_dims(1);
    zero.set_data_type(table.elemType);
    zero.set_raw_data(std::string(table.elemType == kF32 ? 4 : 2, '\0'));
    const std::string zeros = newName({});
    define(zeros, table.shape, table.elemType, false);
    emit("ConstantOfShape", { ints(dims) }, { zeros }, { Attr("value", &zero) });
    const std::string idx = unsqueeze(b, -1);
    const std::string out = newName({});
    define(out, table.shape, table.elemType, false);
    emit("ScatterND", { zeros, idx, gy }, { out }, { Attr("reduction", std::string("add")) });
    accumulate(a, out);
}

void OnnxGraphWriter::layerNormBackward(const TapeEntry& e, const std::string& gy)
{
    const auto needs = [this](const std::string& n) { return value(n).requiresGrad; };
    const std::string& a = e.inputs.front();
    const std::string& w = e.inputs[1];
    const std::string& bias = e.inputs[2];
    const ValueInfo vx = value(a);
    std::vector<std::int64_t> rows;
    for (std::size_t i = 0; i + 1 < vx.shape.size(); ++i)
        rows.push_back(std::int64_t(i));
    const std::string mean = cast(e.outputs[1], vx.elemType);
    const std::string invStd = cast(e.outputs[2], vx.elemType);
    const std::string xHat = mul(sub(a, mean), invStd);
    if (needs(bias))
        accumulate(bias, reduceSum(gy, rows, false));
    if (needs(w))
        accumulate(w, reduceSum(mul(gy, xHat), rows, false));
    if (needs(a)) { // dx = invStd · (g − mean(g) − x̂ · mean(g · x̂)), g = dy · w
        const std::string g = mul(gy, w);
        const std::string meanG = reduceMean(g);
        const std::string meanGx = reduceMean(mul(g, xHat));
        const std::string projected = mul(xHat, meanGx); // sequenced: see Mul
        accumulate(a, mul(sub(sub(g, meanG), projected), invStd));
    }
}

void OnnxGraphWriter::patchConvBackward(const TapeEntry& e, const std::string& gy)
{
    const auto needs = [this](const std::string& n) { return value(n).requiresGrad; };
    const std::string& a = e.inputs.front();
    // Patch embedding (kernel = stride = p): dW = dYᵀ · patches, dB = sum of dY.
    const std::string& w = e.inputs[1];
    const std::string& bias = e.inputs[2];
    if (needs(a))
        throw std::logic_error("onnx autodiff: patch conv input gradient is not implemented");
    const ValueInfo vx = value(a);
    const ValueInfo vw = value(w);
    const std::int64_t p = e.axis;
    const Dim n = vx.shape[0];
    const Dim c = vx.shape[1];
    const std::int64_t gh = vx.shape[2].value / p;
    const std::int64_t gw = vx.shape[3].value / p;
    if (needs(bias))
        accumulate(bias, reduceSum(gy, { 0, 2, 3 }, false));
    if (needs(w)) {
        const Dim rows = n * Dim(gh * gw);
        const std::string xr = reshape(a, { n, c, gh, p, gw, p });
        const std::string patches = reshape(transpose(xr, { 0, 2, 4, 1, 3, 5 }), { rows, c * Dim(p * p) });
        const std::string g2 = reshape(transpose(gy, { 0, 2, 3, 1 }), { rows, vw.shape[0] });
        accumulate(w, reshape(gemm(g2, patches, true, false), vw.shape));
    }
}

void OnnxGraphWriter::backwardOf(const TapeEntry& e)
{
    const std::string& y = e.outputs.front();
    const auto gyIt = m_grads.find(y);
    const std::string gy = gyIt == m_grads.end() ? std::string() : gyIt->second;
    const auto needs = [this](const std::string& n) { return value(n).requiresGrad; };
    const std::string& a = e.inputs.front();
    const std::string b = e.inputs.size() > 1 ? e.inputs[1] : std::string();

    if (e.opType == "Add" || e.opType == "Sub") {
        if (needs(a))
            accumulate(a, unbroadcast(gy, value(a).shape));
        if (needs(b)) {
            std::string gb = unbroadcast(gy, value(b).shape);
            accumulate(b, e.opType == "Sub" ? unary("Neg", gb) : gb);
        }
    } else if (e.opType == "Mul") {
        if (a == b) { // x * x
            // Every emitting call adds a node and C++ leaves argument order unspecified: sibling calls
            // are sequenced (right operand first, the order the sample models were written in).
            const std::string two = scalar(2.0);
            accumulate(a, mul(mul(gy, a), two));
        } else {
            if (needs(a))
                accumulate(a, unbroadcast(mul(gy, b), value(a).shape));
            if (needs(b))
                accumulate(b, unbroadcast(mul(gy, a), value(b).shape));
        }
    } else if (e.opType == "Div") {
        const std::string ga = div(gy, b);
        if (needs(a))
            accumulate(a, unbroadcast(ga, value(a).shape));
        if (needs(b)) // d(a/b)/db = -(a/b)/b
            accumulate(b, unary("Neg", unbroadcast(mul(ga, y), value(b).shape)));
    } else if (e.opType == "MatMul") {
        const ValueInfo va = value(a);
        const ValueInfo vb = value(b);
        if (vb.shape.size() == 2) {
            // Y[..., N] = X[..., K] · W[K, N]: dX = dY · Wᵀ, dW = Xᵀ · dY over all rows.
            if (needs(a))
                accumulate(a, matMul(gy, transpose(b, { 1, 0 })));
            if (needs(b)) {
                const Dim rows = product(va.shape, 0, va.shape.size() - 1);
                const std::string x2 = reshape(a, { rows, va.shape.back() });
                const std::string g2 = reshape(gy, { rows, vb.shape.back() });
                accumulate(b, gemm(x2, g2, true, false));
            }
        } else {
            // Batched: dA = dY · Bᵀ, dB = Aᵀ · dY, summed over broadcast batch dims (GQA groups).
            if (needs(a))
                accumulate(a, unbroadcast(matMul(gy, transposeLast2(b)), va.shape));
            if (needs(b))
                accumulate(b, unbroadcast(matMul(transposeLast2(a), gy), vb.shape));
        }
    } else if (e.opType == "Sqrt") {
        accumulate(a, div(gy, add(y, y)));
    } else if (e.opType == "Neg") {
        accumulate(a, unary("Neg", gy));
    } else if (e.opType == "Tanh") {
        const std::string ySquared = mul(y, y); // sequenced: see Mul
        accumulate(a, mul(gy, sub(scalar(1.0), ySquared)));
    } else if (e.opType == "Sigmoid") {
        accumulate(a, mul(gy, mul(y, sub(scalar(1.0), y))));
    } else if (e.opType == "Relu") {
        const std::string positive = newName({});
        define(positive, value(a).shape, kBool, false);
        emit("Greater", { a, scalar(0.0) }, { positive });
        const std::string out = newName({});
        define(out, value(a).shape, value(a).elemType, false);
        emit("Where", { positive, gy, scalar(0.0) }, { out });
        accumulate(a, out);
    } else if (e.opType == "Softmax") {
        const std::string s = reduceSum(mul(gy, y), { -1 }, true);
        accumulate(a, mul(y, sub(gy, s)));
    } else if (e.opType == "ReduceMean") {
        // Divide by n (exact in fp16 for the widths used) rather than multiply by a rounded 1/n.
        const Dim n = value(a).shape.back();
        accumulate(a, expand(div(gy, scalar(double(n.value))), value(a).shape));
    } else if (e.opType == "Reshape" || e.opType == "Unsqueeze") {
        accumulate(a, reshape(gy, value(a).shape));
    } else if (e.opType == "Transpose") {
        std::vector<std::int64_t> inverse(e.ints.size());
        for (std::size_t i = 0; i < e.ints.size(); ++i)
            inverse[std::size_t(e.ints[i])] = std::int64_t(i);
        accumulate(a, transpose(gy, inverse));
    } else if (e.opType == "Split") {
        std::vector<std::string> parts;
        for (const auto& o : e.outputs) {
            const auto it = m_grads.find(o);
            if (it == m_grads.end())
                throw std::logic_error("onnx autodiff: split output '" + o + "' has no gradient");
            parts.push_back(it->second);
        }
        accumulate(a, concat(parts, e.axis));
    } else if (e.opType == "Concat") {
        std::vector<std::int64_t> sizes;
        for (const auto& in : e.inputs) {
            const Dim d = value(in).shape.at(std::size_t(e.axis));
            if (d.symbolic())
                throw std::logic_error("onnx autodiff: concat along a symbolic dim");
            sizes.push_back(d.value);
        }
        const auto parts = split(gy, e.axis, sizes);
        for (std::size_t i = 0; i < parts.size(); ++i)
            accumulate(e.inputs[i], parts[i]);
    } else if (e.opType == "Gather") {
        gatherBackward(e, gy);
    } else if (e.opType == "LayerNormalization") {
        layerNormBackward(e, gy);
    } else if (e.opType == "Conv") {
        patchConvBackward(e, gy);
    } else {
        throw std::logic_error("onnx autodiff: no gradient rule for " + e.opType);
    }
}

} // namespace elk::import::detail
