// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/tensor_expr.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace elk::model {

/// Index of a distinct expression in an ExpressionPool.
using ExprId = std::uint32_t;

/// Structural hash of an expression (kind, extents, axes with strides, dtypes, roles).
struct TensorExprHash {
    std::size_t operator()(const TensorExpr& expr) const;
};

/// Hash-consing of tensor expressions: structurally identical expressions get one ExprId, so later
/// stages search each distinct expression once (layers repeat).
/// Contract: ids are dense and assigned in first-seen order, so the same sequence of intern() calls
/// gives the same ids on every run; the hash table is only ever looked up, never iterated.
class ExpressionPool {
public:
    /// The id of `expr`, adding it if no identical expression is present.
    ExprId intern(const TensorExpr& expr);
    /// The id of an identical expression, if present.
    std::optional<ExprId> find(const TensorExpr& expr) const;

    /// Contract: id < size().
    const TensorExpr& at(ExprId id) const { return m_exprs.at(id); }
    std::size_t size() const { return m_exprs.size(); }
    /// All distinct expressions, indexed by ExprId.
    const std::vector<TensorExpr>& expressions() const { return m_exprs; }

    bool operator==(const ExpressionPool& other) const { return m_exprs == other.m_exprs; }

private:
    std::vector<TensorExpr> m_exprs;
    std::unordered_map<TensorExpr, ExprId, TensorExprHash> m_index;
};

} // namespace elk::model
