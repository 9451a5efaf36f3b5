// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_graph_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace elk::import::detail {

namespace {

    std::string dimText(const Dim& d)
    {
        return d.symbolic() ? d.param : std::to_string(d.value);
    }

    std::uint16_t toHalf(float f)
    {
        std::uint32_t x = 0;
        std::memcpy(&x, &f, sizeof x);
        const std::uint32_t sign = (x >> 16) & 0x8000u;
        const std::uint32_t rawExp = (x >> 23) & 0xffu;
        std::uint32_t mant = x & 0x7fffffu;
        if (rawExp == 0xffu)
            return std::uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0u));
        const int exp = int(rawExp) - 127 + 15;
        if (exp >= 31)
            return std::uint16_t(sign | 0x7c00u);
        if (exp <= 0) { // subnormal half (or zero)
            if (exp < -10)
                return std::uint16_t(sign);
            mant |= 0x800000u;
            const int shift = 14 - exp;
            std::uint32_t half = mant >> shift;
            const std::uint32_t rem = mant & ((1u << shift) - 1u);
            const std::uint32_t mid = 1u << (shift - 1);
            if (rem > mid || (rem == mid && (half & 1u)))
                ++half;
            return std::uint16_t(sign | half);
        }
        std::uint32_t half = (std::uint32_t(exp) << 10) | (mant >> 13);
        const std::uint32_t rem = mant & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
            ++half; // a carry into the exponent is the correct rounding
        return std::uint16_t(sign | half);
    }

    int elemSize(int elemType)
    {
        switch (elemType) {
        case kF16:
            return 2;
        case kF32:
            return 4;
        case kI64:
            return 8;
        case kBool:
            return 1;
        default:
            throw std::logic_error("onnx writer: unsupported element type " + std::to_string(elemType));
        }
    }

    std::int64_t normAxis(std::int64_t axis, std::size_t rank)
    {
        return axis < 0 ? axis + std::int64_t(rank) : axis;
    }

    Shape broadcastShapes(const Shape& a, const Shape& b)
    {
        const std::size_t rank = std::max(a.size(), b.size());
        Shape out(rank, Dim(1));
        for (std::size_t i = 0; i < rank; ++i) {
            const Dim da = i < rank - a.size() ? Dim(1) : a[i - (rank - a.size())];
            const Dim db = i < rank - b.size() ? Dim(1) : b[i - (rank - b.size())];
            if (da == db || db == Dim(1))
                out[i] = da;
            else if (da == Dim(1))
                out[i] = db;
            else
                throw std::logic_error("onnx writer: cannot broadcast " + toString(a) + " with " + toString(b));
        }
        return out;
    }

    void setShape(onnx::ValueInfoProto& info, int elemType, const Shape& shape)
    {
        auto* tensor = info.mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(elemType);
        auto* s = tensor->mutable_shape();
        for (const Dim& d : shape) {
            auto* dim = s->add_dim();
            if (d.symbolic())
                dim->set_dim_param(d.param);
            else
                dim->set_dim_value(d.value);
        }
    }

} // namespace

Dim operator+(const Dim& a, const Dim& b)
{
    if (!a.symbolic() && !b.symbolic())
        return Dim(a.value + b.value);
    return Dim(dimText(a) + " + " + dimText(b));
}

Dim operator*(const Dim& a, const Dim& b)
{
    if (!a.symbolic() && !b.symbolic())
        return Dim(a.value * b.value);
    return Dim(dimText(a) + " * " + dimText(b));
}

std::string toString(const Shape& shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? "," : "") + dimText(shape[i]);
    return text + "]";
}

OnnxGraphWriter::OnnxGraphWriter(onnx::GraphProto& graph)
    : m_graph(graph)
{
}

std::string OnnxGraphWriter::newName(const std::string& name)
{
    if (!name.empty()) {
        if (m_values.count(name))
            throw std::logic_error("onnx writer: value '" + name + "' defined twice");
        return name;
    }
    for (;;) {
        std::string generated = m_scope + std::to_string(m_counters[m_scope]++);
        if (!m_values.count(generated))
            return generated;
    }
}

void OnnxGraphWriter::define(const std::string& name, Shape shape, int elemType, bool requiresGrad)
{
    if (!m_values.emplace(name, ValueInfo { std::move(shape), elemType, requiresGrad }).second)
        throw std::logic_error("onnx writer: value '" + name + "' defined twice");
}

const ValueInfo& OnnxGraphWriter::value(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        throw std::logic_error("onnx writer: unknown value '" + name + "'");
    return it->second;
}

bool OnnxGraphWriter::anyRequiresGrad(const std::vector<std::string>& inputs) const
{
    return std::any_of(inputs.begin(), inputs.end(), [this](const std::string& n) { return value(n).requiresGrad; });
}

void OnnxGraphWriter::emit(const std::string& opType, const std::vector<std::string>& inputs,
    const std::vector<std::string>& outputs, const std::vector<Attr>& attrs)
{
    auto* node = m_graph.add_node();
    for (const auto& in : inputs)
        node->add_input(in);
    for (const auto& out : outputs)
        node->add_output(out);
    node->set_op_type(opType);
    for (const Attr& a : attrs) {
        auto* attr = node->add_attribute();
        attr->set_name(a.name);
        if (a.i) {
            attr->set_type(onnx::AttributeProto_AttributeType_INT);
            attr->set_i(*a.i);
        } else if (a.f) {
            attr->set_type(onnx::AttributeProto_AttributeType_FLOAT);
            attr->set_f(*a.f);
        } else if (a.s) {
            attr->set_type(onnx::AttributeProto_AttributeType_STRING);
            attr->set_s(*a.s);
        } else if (a.t) {
            attr->set_type(onnx::AttributeProto_AttributeType_TENSOR);
            *attr->mutable_t() = *a.t;
        } else {
            attr->set_type(onnx::AttributeProto_AttributeType_INTS);
            for (auto v : a.ints)
                attr->add_ints(v);
        }
    }
}

void OnnxGraphWriter::record(TapeEntry entry)
{
    if (!m_recording || !anyRequiresGrad(entry.inputs))
        return;
    entry.scope = m_scope;
    m_tape.push_back(std::move(entry));
}

// ---------------------------------------------------------------------------------------------
// Declarations

std::string OnnxGraphWriter::input(const std::string& name, int elemType, Shape shape)
{
    define(name, shape, elemType, false);
    auto* info = m_graph.add_input();
    info->set_name(name);
    setShape(*info, elemType, shape);
    return name;
}

void OnnxGraphWriter::output(const std::string& name)
{
    const ValueInfo& v = value(name);
    auto* info = m_graph.add_output();
    info->set_name(name);
    setShape(*info, v.elemType, v.shape);
}

std::string OnnxGraphWriter::weight(const std::string& name, Shape shape, bool trainable, int elemType)
{
    std::int64_t elements = 1;
    for (const Dim& d : shape) {
        if (d.symbolic())
            throw std::logic_error("onnx writer: weight '" + name + "' has a symbolic dim");
        elements *= d.value;
    }
    define(name, shape, elemType, trainable);
    auto* t = m_graph.add_initializer();
    t->set_name(name);
    for (const Dim& d : shape)
        t->add_dims(d.value);
    t->set_data_type(elemType);
    t->set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
    const std::int64_t length = elements * elemSize(elemType);
    const std::pair<const char*, std::string> entries[] = {
        { "location", kShapeOnlyDataFile },
        { "offset", std::to_string(m_externalOffset) },
        { "length", std::to_string(length) },
    };
    for (const auto& [key, text] : entries) {
        auto* e = t->add_external_data();
        e->set_key(key);
        e->set_value(text);
    }
    m_externalOffset += length;
    m_weights.push_back({ name, std::move(shape), elemType, trainable });
    return name;
}

std::string OnnxGraphWriter::ints(const std::vector<std::int64_t>& values)
{
    std::string key = "i";
    for (auto v : values)
        key += "," + std::to_string(v);
    if (auto it = m_constants.find(key); it != m_constants.end())
        return it->second;
    const std::string name = "c" + std::to_string(m_constantCount++);
    auto* t = m_graph.add_initializer();
    t->set_name(name);
    t->add_dims(std::int64_t(values.size()));
    t->set_data_type(kI64);
    for (auto v : values)
        t->add_int64_data(v);
    define(name, { std::int64_t(values.size()) }, kI64, false);
    m_constants.emplace(key, name);
    return name;
}

std::string OnnxGraphWriter::scalar(double value, int elemType)
{
    return floats({ value }, elemType);
}

std::string OnnxGraphWriter::floats(const std::vector<double>& values, int elemType)
{
    // A single value becomes a 0-d tensor (broadcasts anywhere), a list a 1-d one.
    std::string raw;
    for (double v : values) {
        if (elemType == kF16) {
            const std::uint16_t h = toHalf(float(v));
            raw.push_back(char(h & 0xff));
            raw.push_back(char(h >> 8));
        } else if (elemType == kF32) {
            const float f = float(v);
            char bytes[4];
            std::memcpy(bytes, &f, 4);
            raw.append(bytes, 4); // little-endian hosts only (x86-64, aarch64), as ONNX raw_data requires
        } else {
            throw std::logic_error("onnx writer: float constant of element type " + std::to_string(elemType));
        }
    }
    const std::string key = "f" + std::to_string(elemType) + ":" + std::to_string(values.size()) + ":" + raw;
    if (auto it = m_constants.find(key); it != m_constants.end())
        return it->second;
    const std::string name = "c" + std::to_string(m_constantCount++);
    auto* t = m_graph.add_initializer();
    t->set_name(name);
    Shape shape;
    if (values.size() != 1) {
        t->add_dims(std::int64_t(values.size()));
        shape.push_back(std::int64_t(values.size()));
    }
    t->set_data_type(elemType);
    t->set_raw_data(raw);
    define(name, shape, elemType, false);
    m_constants.emplace(key, name);
    return name;
}

// ---------------------------------------------------------------------------------------------
// Forward ops

std::string OnnxGraphWriter::binary(
    const char* opType, const std::string& a, const std::string& b, const std::string& name)
{
    const ValueInfo& va = value(a);
    const ValueInfo& vb = value(b);
    if (va.elemType != vb.elemType)
        throw std::logic_error(
            std::string("onnx writer: ") + opType + " of '" + a + "' and '" + b + "' mixes element types");
    Shape shape = broadcastShapes(va.shape, vb.shape);
    const int type = va.elemType;
    const std::string out = newName(name);
    define(out, std::move(shape), type, anyRequiresGrad({ a, b }));
    emit(opType, { a, b }, { out });
    record(TapeEntry { opType, { a, b }, { out } });
    return out;
}

std::string OnnxGraphWriter::add(const std::string& a, const std::string& b, const std::string& name)
{
    return binary("Add", a, b, name);
}
std::string OnnxGraphWriter::sub(const std::string& a, const std::string& b, const std::string& name)
{
    return binary("Sub", a, b, name);
}
std::string OnnxGraphWriter::mul(const std::string& a, const std::string& b, const std::string& name)
{
    return binary("Mul", a, b, name);
}
std::string OnnxGraphWriter::div(const std::string& a, const std::string& b, const std::string& name)
{
    return binary("Div", a, b, name);
}

std::string OnnxGraphWriter::matMul(const std::string& a, const std::string& b, const std::string& name)
{
    const ValueInfo& va = value(a);
    const ValueInfo& vb = value(b);
    if (va.shape.size() < 2 || vb.shape.size() < 2 || !(va.shape.back() == vb.shape[vb.shape.size() - 2]))
        throw std::logic_error("onnx writer: MatMul of " + toString(va.shape) + " and " + toString(vb.shape));
    const Shape batchA(va.shape.begin(), va.shape.end() - 2);
    const Shape batchB(vb.shape.begin(), vb.shape.end() - 2);
    Shape shape = broadcastShapes(batchA, batchB);
    shape.push_back(va.shape[va.shape.size() - 2]);
    shape.push_back(vb.shape.back());
    const std::string out = newName(name);
    define(out, std::move(shape), va.elemType, anyRequiresGrad({ a, b }));
    emit("MatMul", { a, b }, { out });
    record(TapeEntry { "MatMul", { a, b }, { out } });
    return out;
}

std::string OnnxGraphWriter::gemm(
    const std::string& a, const std::string& b, bool transA, bool transB, const std::string& name)
{
    const ValueInfo& va = value(a);
    const ValueInfo& vb = value(b);
    if (va.shape.size() != 2 || vb.shape.size() != 2)
        throw std::logic_error("onnx writer: Gemm needs 2-d operands");
    const Dim m = transA ? va.shape[1] : va.shape[0];
    const Dim ka = transA ? va.shape[0] : va.shape[1];
    const Dim kb = transB ? vb.shape[1] : vb.shape[0];
    const Dim n = transB ? vb.shape[0] : vb.shape[1];
    if (!(ka == kb))
        throw std::logic_error("onnx writer: Gemm of " + toString(va.shape) + " and " + toString(vb.shape));
    const std::string out = newName(name);
    define(out, { m, n }, va.elemType, false);
    std::vector<Attr> attrs;
    if (transA)
        attrs.emplace_back("transA", std::int64_t(1));
    if (transB)
        attrs.emplace_back("transB", std::int64_t(1));
    emit("Gemm", { a, b }, { out }, attrs);
    return out;
}

std::string OnnxGraphWriter::unary(const char* opType, const std::string& x, const std::string& name)
{
    const ValueInfo& v = value(x);
    Shape shape = v.shape;
    const int type = v.elemType;
    const std::string out = newName(name);
    define(out, std::move(shape), type, v.requiresGrad);
    emit(opType, { x }, { out });
    record(TapeEntry { opType, { x }, { out } });
    return out;
}

std::string OnnxGraphWriter::softmax(const std::string& x, const std::string& name)
{
    const ValueInfo& v = value(x);
    Shape shape = v.shape;
    const int type = v.elemType;
    const std::string out = newName(name);
    define(out, std::move(shape), type, v.requiresGrad);
    emit("Softmax", { x }, { out }, { Attr("axis", std::int64_t(-1)) });
    record(TapeEntry { "Softmax", { x }, { out } });
    return out;
}

std::string OnnxGraphWriter::reduceMean(const std::string& x, const std::string& name)
{
    const ValueInfo& v = value(x);
    Shape shape = v.shape;
    shape.back() = Dim(1);
    const int type = v.elemType;
    const std::string out = newName(name);
    define(out, std::move(shape), type, v.requiresGrad);
    emit("ReduceMean", { x }, { out },
        { Attr("axes", std::vector<std::int64_t> { -1 }) }); // opset 17: axes is an attribute (an input from 18 on)
    record(TapeEntry { "ReduceMean", { x }, { out } });
    return out;
}

std::string OnnxGraphWriter::reduceSum(
    const std::string& x, const std::vector<std::int64_t>& axes, bool keepDims, const std::string& name)
{
    const ValueInfo& v = value(x);
    Shape shape;
    for (std::size_t i = 0; i < v.shape.size(); ++i) {
        const bool reduced = axes.empty() || std::any_of(axes.begin(), axes.end(), [&](auto a) {
            return normAxis(a, v.shape.size()) == std::int64_t(i);
        });
        if (!reduced)
            shape.push_back(v.shape[i]);
        else if (keepDims)
            shape.push_back(Dim(1));
    }
    const int type = v.elemType;
    const std::string out = newName(name);
    define(out, std::move(shape), type, false);
    std::vector<std::string> inputs { x };
    if (!axes.empty())
        inputs.push_back(ints(axes)); // opset 13: axes is an input
    emit("ReduceSum", inputs, { out }, { Attr("keepdims", std::int64_t(keepDims ? 1 : 0)) });
    return out;
}

std::vector<std::int64_t> OnnxGraphWriter::reshapeSpec(const Shape& from, const Shape& to) const
{
    std::vector<std::int64_t> spec;
    int inferred = 0;
    for (std::size_t i = 0; i < to.size(); ++i) {
        if (!to[i].symbolic())
            spec.push_back(to[i].value);
        else if (i < from.size() && from[i] == to[i])
            spec.push_back(0); // copy the input's dim
        else {
            spec.push_back(-1);
            ++inferred;
        }
    }
    if (inferred > 1)
        throw std::logic_error("onnx writer: reshape " + toString(from) + " -> " + toString(to) + " is ambiguous");
    return spec;
}

std::string OnnxGraphWriter::reshape(const std::string& x, const Shape& target, const std::string& name)
{
    const ValueInfo& v = value(x);
    if (v.shape == target)
        return x;
    const auto spec = reshapeSpec(v.shape, target);
    std::string key = "Reshape|" + x;
    for (auto s : spec)
        key += "," + std::to_string(s);
    if (auto it = m_memo.find(key); it != m_memo.end())
        return it->second;
    const std::string shapeConst = ints(spec);
    const int type = v.elemType;
    const bool grad = v.requiresGrad;
    const std::string out = newName(name);
    define(out, target, type, grad);
    emit("Reshape", { x, shapeConst }, { out });
    record(TapeEntry { "Reshape", { x }, { out } });
    m_memo.emplace(key, out);
    return out;
}

std::string OnnxGraphWriter::transpose(
    const std::string& x, const std::vector<std::int64_t>& perm, const std::string& name)
{
    // Transposing a transpose back is the original value: no node.
    if (auto it = m_transposeSource.find(x); it != m_transposeSource.end()) {
        const auto& [source, firstPerm] = it->second;
        bool inverse = firstPerm.size() == perm.size();
        for (std::size_t i = 0; inverse && i < perm.size(); ++i)
            inverse = firstPerm[std::size_t(perm[i])] == std::int64_t(i);
        if (inverse)
            return source;
    }
    std::string key = "Transpose|" + x;
    for (auto p : perm)
        key += "," + std::to_string(p);
    if (auto it = m_memo.find(key); it != m_memo.end())
        return it->second;
    const ValueInfo& v = value(x);
    if (perm.size() != v.shape.size())
        throw std::logic_error("onnx writer: transpose of " + toString(v.shape) + " with a wrong permutation");
    Shape shape;
    for (auto p : perm)
        shape.push_back(v.shape.at(std::size_t(p)));
    const int type = v.elemType;
    const bool grad = v.requiresGrad;
    const std::string out = newName(name);
    define(out, std::move(shape), type, grad);
    emit("Transpose", { x }, { out }, { Attr("perm", perm) });
    TapeEntry entry { "Transpose", { x }, { out } };
    entry.ints = perm;
    record(std::move(entry));
    m_memo.emplace(key, out);
    m_transposeSource.emplace(out, std::make_pair(x, perm));
    return out;
}

std::string OnnxGraphWriter::transposeLast2(const std::string& x)
{
    const auto rank = std::int64_t(value(x).shape.size());
    std::vector<std::int64_t> perm;
    for (std::int64_t i = 0; i < rank; ++i)
        perm.push_back(i);
    std::swap(perm[std::size_t(rank - 1)], perm[std::size_t(rank - 2)]);
    return transpose(x, perm);
}

std::vector<std::string> OnnxGraphWriter::split(
    const std::string& x, std::int64_t axis, const std::vector<std::int64_t>& sizes)
{
    const ValueInfo& v = value(x);
    const std::size_t ax = std::size_t(normAxis(axis, v.shape.size()));
    std::int64_t total = 0;
    for (auto s : sizes)
        total += s;
    if (v.shape[ax].symbolic() || v.shape[ax].value != total)
        throw std::logic_error("onnx writer: split of " + toString(v.shape) + " into parts that do not add up");
    std::vector<std::string> inputs { x };
    if (std::adjacent_find(sizes.begin(), sizes.end(), std::not_equal_to<>()) != sizes.end())
        inputs.push_back(ints(sizes)); // equal parts need no sizes
    const ValueInfo copy = v;
    std::vector<std::string> outs;
    for (auto s : sizes) {
        Shape shape = copy.shape;
        shape[ax] = Dim(s);
        outs.push_back(newName({}));
        define(outs.back(), std::move(shape), copy.elemType, copy.requiresGrad);
    }
    emit("Split", inputs, outs, { Attr("axis", std::int64_t(ax)) });
    TapeEntry entry { "Split", { x }, outs };
    entry.axis = std::int64_t(ax);
    record(std::move(entry));
    return outs;
}

std::string OnnxGraphWriter::concat(const std::vector<std::string>& xs, std::int64_t axis, const std::string& name)
{
    const ValueInfo first = value(xs.front());
    const std::size_t ax = std::size_t(normAxis(axis, first.shape.size()));
    Shape shape = first.shape;
    for (std::size_t i = 1; i < xs.size(); ++i) {
        const ValueInfo& v = value(xs[i]);
        for (std::size_t d = 0; d < shape.size(); ++d)
            if (d != ax && !(v.shape.at(d) == shape[d]))
                throw std::logic_error("onnx writer: concat of " + toString(first.shape) + " and " + toString(v.shape));
        shape[ax] = shape[ax] + v.shape[ax];
    }
    const std::string out = newName(name);
    define(out, std::move(shape), first.elemType, anyRequiresGrad(xs));
    emit("Concat", xs, { out }, { Attr("axis", std::int64_t(ax)) });
    TapeEntry entry { "Concat", xs, { out } };
    entry.axis = std::int64_t(ax);
    record(std::move(entry));
    return out;
}

std::string OnnxGraphWriter::unsqueeze(const std::string& x, std::int64_t axis)
{
    const ValueInfo& v = value(x);
    Shape shape = v.shape;
    const auto ax = normAxis(axis, shape.size() + 1);
    shape.insert(shape.begin() + ax, Dim(1));
    const int type = v.elemType;
    const bool grad = v.requiresGrad;
    const std::string axes = ints({ ax });
    const std::string out = newName({});
    define(out, std::move(shape), type, grad);
    emit("Unsqueeze", { x, axes }, { out });
    record(TapeEntry { "Unsqueeze", { x }, { out } });
    return out;
}

std::string OnnxGraphWriter::gather(const std::string& table, const std::string& ids, const std::string& name)
{
    const ValueInfo& t = value(table);
    Shape shape = value(ids).shape;
    shape.insert(shape.end(), t.shape.begin() + 1, t.shape.end());
    const std::string out = newName(name);
    define(out, std::move(shape), t.elemType, t.requiresGrad);
    emit("Gather", { table, ids }, { out });
    record(TapeEntry { "Gather", { table, ids }, { out } });
    return out;
}

std::string OnnxGraphWriter::cast(const std::string& x, int elemType, const std::string& name)
{
    Shape shape = value(x).shape;
    const std::string out = newName(name);
    define(out, std::move(shape), elemType, false);
    emit("Cast", { x }, { out }, { Attr("to", std::int64_t(elemType)) });
    return out;
}

std::string OnnxGraphWriter::expand(const std::string& x, const Shape& target)
{
    // Symbolic target dims are taken from x by broadcasting (x must have them already).
    const ValueInfo& v = value(x);
    std::vector<std::int64_t> spec;
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (!target[i].symbolic()) {
            spec.push_back(target[i].value);
            continue;
        }
        const std::size_t offset = target.size() - v.shape.size();
        if (i < offset || !(v.shape[i - offset] == target[i]))
            throw std::logic_error("onnx writer: expand " + toString(v.shape) + " -> " + toString(target));
        spec.push_back(1);
    }
    const std::string shapeConst = ints(spec);
    const int type = v.elemType;
    const std::string out = newName({});
    define(out, target, type, false);
    emit("Expand", { x, shapeConst }, { out });
    return out;
}

std::string OnnxGraphWriter::layerNorm(const std::string& x, const std::string& scale, const std::string& bias,
    double epsilon, bool withStats, const std::string& name)
{
    const ValueInfo& v = value(x);
    Shape shape = v.shape;
    Shape statShape = v.shape;
    statShape.back() = Dim(1);
    const int type = v.elemType;
    const bool grad = anyRequiresGrad({ x, scale, bias });
    const std::string out = newName(name);
    define(out, std::move(shape), type, grad);
    std::vector<std::string> outs { out };
    if (withStats) {
        for (int i = 0; i < 2; ++i) {
            outs.push_back(newName({}));
            define(outs.back(), statShape, kF32, false); // stash_type float (the default)
        }
    }
    emit("LayerNormalization", { x, scale, bias }, outs,
        { Attr("axis", std::int64_t(-1)), Attr("epsilon", float(epsilon)) });
    if (withStats)
        record({ "LayerNormalization", { x, scale, bias }, outs });
    return out;
}

std::string OnnxGraphWriter::patchConv(
    const std::string& x, const std::string& w, const std::string& b, std::int64_t patch, const std::string& name)
{
    const ValueInfo& vx = value(x);
    const ValueInfo& vw = value(w);
    if (vx.shape.size() != 4 || vw.shape.size() != 4 || vx.shape[2].symbolic() || vx.shape[3].symbolic())
        throw std::logic_error("onnx writer: patch conv needs NCHW input with fixed H, W");
    Shape shape { vx.shape[0], vw.shape[0], vx.shape[2].value / patch, vx.shape[3].value / patch };
    const std::string out = newName(name);
    define(out, std::move(shape), vx.elemType, anyRequiresGrad({ x, w, b }));
    const std::vector<std::int64_t> window { patch, patch };
    emit("Conv", { x, w, b }, { out }, { Attr("kernel_shape", window), Attr("strides", window) });
    TapeEntry entry { "Conv", { x, w, b }, { out } };
    entry.axis = patch;
    record(std::move(entry));
    return out;
}

std::string OnnxGraphWriter::oneHot(const std::string& ids, std::int64_t depth)
{
    Shape shape = value(ids).shape;
    shape.push_back(depth);
    const std::string depthConst = ints({ depth });
    const std::string values = floats({ 0.0, 1.0 });
    const std::string out = newName({});
    define(out, std::move(shape), kF16, false);
    emit("OneHot", { ids, depthConst, values }, { out }, { Attr("axis", std::int64_t(-1)) });
    return out;
}

std::pair<std::string, std::string> OnnxGraphWriter::crossEntropy(const std::string& scores, const std::string& labels)
{
    const ValueInfo v = value(scores);
    const std::string logProb = newName({});
    define(logProb, v.shape, v.elemType, false);
    emit("LogSoftmax", { scores }, { logProb }, { Attr("axis", std::int64_t(-1)) });
    const std::string index = unsqueeze(labels, -1);
    Shape picked = v.shape;
    picked.back() = Dim(1);
    const std::string target = newName({});
    define(target, picked, v.elemType, false);
    emit("GatherElements", { logProb, index }, { target }, { Attr("axis", std::int64_t(-1)) });
    const std::string loss = unary("Neg", reduceSum(target, {}, false), "loss");
    return { loss, logProb };
}

} // namespace elk::import::detail
