// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/expression_pool.h"

namespace elk::model {

namespace {

    // 64-bit mix (splitmix64 finaliser): hash quality matters little here, it only spreads buckets.
    void mix(std::uint64_t& seed, std::uint64_t value)
    {
        std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL + value;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        seed = z ^ (z >> 31);
    }

} // namespace

std::size_t TensorExprHash::operator()(const TensorExpr& expr) const
{
    std::uint64_t seed = std::uint64_t(expr.kind);
    mix(seed, expr.dimExtents.size());
    for (std::int64_t extent : expr.dimExtents)
        mix(seed, std::uint64_t(extent));
    mix(seed, expr.operands.size());
    for (const Operand& operand : expr.operands) {
        mix(seed, std::uint64_t(operand.dtype));
        mix(seed, std::uint64_t(operand.role));
        mix(seed, operand.axes.size());
        for (const Axis& axis : operand.axes) {
            mix(seed, std::uint64_t(std::int64_t(axis.dim)));
            mix(seed, std::uint64_t(std::int64_t(axis.windowDim)));
            mix(seed, std::uint64_t(axis.stride));
        }
    }
    return std::size_t(seed);
}

ExprId ExpressionPool::intern(const TensorExpr& expr)
{
    if (const auto it = m_index.find(expr); it != m_index.end())
        return it->second;
    const auto id = ExprId(m_exprs.size());
    m_exprs.push_back(expr);
    m_index.emplace(expr, id);
    return id;
}

std::optional<ExprId> ExpressionPool::find(const TensorExpr& expr) const
{
    if (const auto it = m_index.find(expr); it != m_index.end())
        return it->second;
    return std::nullopt;
}

} // namespace elk::model
