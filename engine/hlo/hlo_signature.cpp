// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Canonical op signatures: what decides an op's cost, with no value names and no locations, so that
// repeated layers compare equal (FlatOp::signature, region content hashes, the table estimator).
#include "engine/hlo/hlo_op_costs.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace elk::hlo {

namespace {

    // Attributes that never change what an op costs (and would make repeated layers look different).
    bool isCostNeutralAttribute(std::string_view name)
    {
        return name == "channel_handle" || name == "mhlo.sharding" || name == "sdy.sharding"
            || name == "mhlo.frontend_attributes" || name == "jax.result_info" || name == "mhlo.layout_mode"
            || name == "sdy.sharding_rule" || name == "name" || name == "callee";
    }

    std::string formatDouble(double value)
    {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", value);
        return text;
    }

    void renderAttribute(const Attribute& a, std::string& out)
    {
        switch (a.kind) {
        case Attribute::Kind::Unit:
            out += "unit";
            return;
        case Attribute::Kind::Bool:
            out += a.boolValue ? "true" : "false";
            return;
        case Attribute::Kind::Integer:
            out += std::to_string(a.intValue);
            return;
        case Attribute::Kind::Float:
            out += formatDouble(a.floatValue);
            return;
        case Attribute::Kind::String:
            out += '"' + a.text + '"';
            return;
        case Attribute::Kind::Symbol:
            out += '@' + a.text;
            return;
        case Attribute::Kind::Array:
            out += '[';
            for (std::size_t i = 0; i < a.items.size(); ++i) {
                if (i)
                    out += ',';
                renderAttribute(a.items[i], out);
            }
            out += ']';
            return;
        case Attribute::Kind::Dictionary:
            out += '{';
            for (const auto& [name, value] : a.fields) {
                out += name + '=';
                renderAttribute(value, out);
                out += ';';
            }
            out += '}';
            return;
        case Attribute::Kind::Dialect:
            out += '#' + a.text + '<' + a.body + '>';
            return;
        case Attribute::Kind::Dense:
            out += "dense<";
            if (a.denseSplat)
                out += "splat:";
            for (std::int64_t v : a.denseInts)
                out += std::to_string(v) + ',';
            out += a.text + a.body + ">:" + toString(a.type);
            return;
        case Attribute::Kind::Type:
            out += toString(a.type);
            return;
        case Attribute::Kind::Enum:
            out += a.text;
            return;
        }
    }

    void appendType(const Type& type, std::string& out)
    {
        if (type.kind != TypeKind::Tensor || !type.bounds.empty() || !type.encoding.empty()) {
            out += toString(type);
            return;
        }
        out += "tensor<";
        for (const std::int64_t dim : type.dims) {
            if (dim == kDynamicDim) {
                out += '?';
            } else {
                char digits[24];
                const auto end = std::to_chars(digits, digits + sizeof digits, dim).ptr;
                out.append(digits, end);
            }
            out += 'x';
        }
        out += type.elementType;
        out += '>';
    }

} // namespace

// Canonical text of what decides an op's cost: no value names, no locations.
std::string detail::signatureOf(const Op& op)
{
    std::string s;
    s.reserve(160);
    s += op.name;
    s += '(';
    for (std::size_t i = 0; i < op.operandTypes.size(); ++i) {
        if (i)
            s += ',';
        appendType(op.operandTypes[i], s);
    }
    s += ")->(";
    for (std::size_t i = 0; i < op.resultTypes.size(); ++i) {
        if (i)
            s += ',';
        appendType(op.resultTypes[i], s);
    }
    s += ')';
    std::vector<std::pair<std::string, std::string>> attributes;
    for (const auto& [name, value] : op.attributes) {
        if (isCostNeutralAttribute(name))
            continue;
        std::string text;
        renderAttribute(value, text);
        attributes.emplace_back(name, std::move(text));
    }
    std::sort(attributes.begin(), attributes.end());
    if (!attributes.empty()) {
        s += '{';
        for (const auto& [name, text] : attributes)
            s += name + '=' + text + ';';
        s += '}';
    }
    for (const Region& region : op.regions) { // reducer and comparator bodies: their op names
        s += '[';
        for (const Block& block : region.blocks)
            for (const Op& inner : block.ops)
                s += inner.name + ';';
        s += ']';
    }
    return s;
}

} // namespace elk::hlo
