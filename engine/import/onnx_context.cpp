// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_context.h"

#include <cmath>
#include <cstring>

namespace elk::import::onnx_detail {

std::vector<std::int64_t> ConstTensor::asInts() const
{
    std::vector<std::int64_t> out;
    out.reserve(size());
    for (std::size_t i = 0; i < size(); ++i)
        out.push_back(integer(i));
    return out;
}

int Context::addValue(std::string name)
{
    const int id = int(values.size());
    values.push_back(Value {});
    values.back().name = std::move(name);
    return id;
}

std::string Context::uniqueName(const std::string& base)
{
    const std::string stem = base.empty() ? std::string("unnamed") : base;
    if (irNames.insert(stem).second)
        return stem;
    for (int n = 2;; ++n) {
        std::string candidate = stem + "_" + std::to_string(n);
        if (irNames.insert(candidate).second)
            return candidate;
    }
}

int Context::opsetOf(const std::string& domain) const
{
    const auto it = opsets.find(domain);
    return it == opsets.end() ? 0 : it->second;
}

int Context::resolve(const std::string& name) const
{
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
        if (const auto found = (*it)->find(name); found != (*it)->end())
            return found->second;
    }
    const auto found = valueByName.find(name);
    return found == valueByName.end() ? -1 : found->second;
}

const onnx::AttributeProto* findAttr(const NodeRec& node, std::string_view name)
{
    if (!node.proto)
        return nullptr;
    for (const auto& attribute : node.proto->attribute()) {
        if (attribute.name() == name)
            return &attribute;
    }
    return nullptr;
}

bool hasAttr(const NodeRec& node, std::string_view name)
{
    return findAttr(node, name) != nullptr;
}

std::int64_t attrInt(const NodeRec& node, std::string_view name, std::int64_t fallback)
{
    const auto* attribute = findAttr(node, name);
    return attribute && attribute->type() == onnx::AttributeProto::INT ? attribute->i() : fallback;
}

float attrFloat(const NodeRec& node, std::string_view name, float fallback)
{
    const auto* attribute = findAttr(node, name);
    return attribute && attribute->type() == onnx::AttributeProto::FLOAT ? attribute->f() : fallback;
}

std::string attrString(const NodeRec& node, std::string_view name, const std::string& fallback)
{
    const auto* attribute = findAttr(node, name);
    return attribute && attribute->type() == onnx::AttributeProto::STRING ? attribute->s() : fallback;
}

std::vector<std::int64_t> attrInts(const NodeRec& node, std::string_view name)
{
    const auto* attribute = findAttr(node, name);
    if (!attribute || attribute->type() != onnx::AttributeProto::INTS)
        return {};
    return { attribute->ints().begin(), attribute->ints().end() };
}

std::optional<model::DType> dtypeOf(int elemType)
{
    using model::DType;
    switch (elemType) {
    case onnx::TensorProto::FLOAT:
        return DType::F32;
    case onnx::TensorProto::UINT8:
        return DType::U8;
    case onnx::TensorProto::INT8:
        return DType::I8;
    case onnx::TensorProto::UINT16:
    case onnx::TensorProto::INT16:
        return DType::I16;
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::INT32:
        return DType::I32;
    case onnx::TensorProto::UINT64:
    case onnx::TensorProto::INT64:
        return DType::I64;
    case onnx::TensorProto::BOOL:
        return DType::Bool;
    case onnx::TensorProto::FLOAT16:
        return DType::F16;
    case onnx::TensorProto::DOUBLE:
        return DType::F64;
    case onnx::TensorProto::BFLOAT16:
        return DType::BF16;
    case 17: // FLOAT8E4M3FN (ONNX 1.14; the 1.12 enum stops at BFLOAT16)
    case 18: // FLOAT8E4M3FNUZ
        return DType::F8E4M3;
    case 19: // FLOAT8E5M2
    case 20: // FLOAT8E5M2FNUZ
        return DType::F8E5M2;
    default:
        return std::nullopt;
    }
}

std::string elemTypeName(int elemType)
{
    static const char* const names[] = { "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64",
        "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
        "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1" };
    if (elemType >= 0 && std::size_t(elemType) < std::size(names))
        return names[elemType];
    return "type " + std::to_string(elemType);
}

bool isFloatType(int elemType)
{
    switch (elemType) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::BFLOAT16:
    case 17:
    case 18:
    case 19:
    case 20:
        return true;
    default:
        return false;
    }
}

namespace {

    double halfToDouble(std::uint16_t bits)
    {
        const int sign = bits >> 15;
        const int exponent = (bits >> 10) & 0x1f;
        const int mantissa = bits & 0x3ff;
        double value;
        if (exponent == 0)
            value = std::ldexp(double(mantissa), -24);
        else if (exponent == 31)
            value = mantissa ? NAN : INFINITY;
        else
            value = std::ldexp(double(mantissa + 1024), exponent - 25);
        return sign ? -value : value;
    }

    double bfloatToDouble(std::uint16_t bits)
    {
        const std::uint32_t word = std::uint32_t(bits) << 16;
        float value;
        std::memcpy(&value, &word, sizeof value);
        return value;
    }

    int byteWidth(int elemType)
    {
        switch (elemType) {
        case onnx::TensorProto::DOUBLE:
        case onnx::TensorProto::INT64:
        case onnx::TensorProto::UINT64:
            return 8;
        case onnx::TensorProto::FLOAT:
        case onnx::TensorProto::INT32:
        case onnx::TensorProto::UINT32:
            return 4;
        case onnx::TensorProto::FLOAT16:
        case onnx::TensorProto::BFLOAT16:
        case onnx::TensorProto::INT16:
        case onnx::TensorProto::UINT16:
            return 2;
        case onnx::TensorProto::INT8:
        case onnx::TensorProto::UINT8:
        case onnx::TensorProto::BOOL:
            return 1;
        default:
            return 0;
        }
    }

    // One element of little-endian raw data (the ONNX wire format for raw_data).
    void decodeRaw(int elemType, const unsigned char* p, ConstTensor& out)
    {
        std::uint64_t bits = 0;
        const int width = byteWidth(elemType);
        for (int b = width - 1; b >= 0; --b)
            bits = (bits << 8) | p[b];
        switch (elemType) {
        case onnx::TensorProto::FLOAT: {
            const auto word = std::uint32_t(bits);
            float value;
            std::memcpy(&value, &word, sizeof value);
            out.reals.push_back(value);
            return;
        }
        case onnx::TensorProto::DOUBLE: {
            double value;
            std::memcpy(&value, &bits, sizeof value);
            out.reals.push_back(value);
            return;
        }
        case onnx::TensorProto::FLOAT16:
            out.reals.push_back(halfToDouble(std::uint16_t(bits)));
            return;
        case onnx::TensorProto::BFLOAT16:
            out.reals.push_back(bfloatToDouble(std::uint16_t(bits)));
            return;
        case onnx::TensorProto::INT8:
            out.ints.push_back(std::int8_t(bits));
            return;
        case onnx::TensorProto::INT16:
            out.ints.push_back(std::int16_t(bits));
            return;
        case onnx::TensorProto::INT32:
            out.ints.push_back(std::int32_t(bits));
            return;
        case onnx::TensorProto::INT64:
        case onnx::TensorProto::UINT64: // values past 2^63 wrap; they never size anything
            out.ints.push_back(std::int64_t(bits));
            return;
        default: // UINT8/16/32, BOOL
            out.ints.push_back(std::int64_t(bits));
            return;
        }
    }

} // namespace

std::optional<ConstTensor> decodeTensor(const onnx::TensorProto& tensor)
{
    ConstTensor out;
    out.shape.assign(tensor.dims().begin(), tensor.dims().end());
    const auto count = checkedElements(out.shape);
    const int type = tensor.data_type();
    const int width = byteWidth(type);
    if (!count || *count > kMaxConstElements || width == 0)
        return std::nullopt;
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
        return std::nullopt; // shapes only: external bytes are never read
    out.isFloat = isFloatType(type);
    const auto n = std::size_t(*count);
    if (tensor.has_raw_data()) {
        const std::string& raw = tensor.raw_data();
        if (raw.size() != n * std::size_t(width))
            return std::nullopt;
        const auto* bytes = reinterpret_cast<const unsigned char*>(raw.data());
        for (std::size_t i = 0; i < n; ++i)
            decodeRaw(type, bytes + i * std::size_t(width), out);
        return out;
    }
    switch (type) {
    case onnx::TensorProto::FLOAT:
        if (std::size_t(tensor.float_data_size()) != n)
            return std::nullopt;
        out.reals.assign(tensor.float_data().begin(), tensor.float_data().end());
        return out;
    case onnx::TensorProto::DOUBLE:
        if (std::size_t(tensor.double_data_size()) != n)
            return std::nullopt;
        out.reals.assign(tensor.double_data().begin(), tensor.double_data().end());
        return out;
    case onnx::TensorProto::INT64:
        if (std::size_t(tensor.int64_data_size()) != n)
            return std::nullopt;
        out.ints.assign(tensor.int64_data().begin(), tensor.int64_data().end());
        return out;
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
        if (std::size_t(tensor.uint64_data_size()) != n)
            return std::nullopt;
        for (auto v : tensor.uint64_data())
            out.ints.push_back(std::int64_t(v));
        return out;
    default: // types stored in int32_data
        if (std::size_t(tensor.int32_data_size()) != n)
            return std::nullopt;
        for (auto v : tensor.int32_data()) {
            if (type == onnx::TensorProto::FLOAT16)
                out.reals.push_back(halfToDouble(std::uint16_t(v)));
            else if (type == onnx::TensorProto::BFLOAT16)
                out.reals.push_back(bfloatToDouble(std::uint16_t(v)));
            else
                out.ints.push_back(v);
        }
        return out;
    }
}

std::optional<std::int64_t> checkedElements(const std::vector<std::int64_t>& shape)
{
    std::int64_t count = 1;
    bool zero = false;
    for (std::int64_t dim : shape) {
        if (dim < 0)
            return std::nullopt;
        if (dim == 0) {
            zero = true;
            continue;
        }
        if (count > kMaxElements / dim)
            return std::nullopt;
        count *= dim;
    }
    return zero ? 0 : count;
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? "," : "") + std::to_string(shape[i]);
    return text + "]";
}

std::optional<int> normalizeAxis(std::int64_t axis, std::size_t rank)
{
    const auto r = std::int64_t(rank);
    if (axis < -r || axis >= r)
        return std::nullopt;
    return int(axis < 0 ? axis + r : axis);
}

std::string nodeLabel(const onnx::NodeProto& node, int index)
{
    const std::string domain = node.domain().empty() ? std::string("ai.onnx") : node.domain();
    const std::string what = "(" + node.op_type() + ", " + domain + ")";
    if (!node.name().empty())
        return "node '" + node.name() + "' " + what;
    return "node #" + std::to_string(index) + " " + what;
}

} // namespace elk::import::onnx_detail
