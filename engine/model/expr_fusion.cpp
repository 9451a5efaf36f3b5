// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/expr_fusion.h"

#include <optional>

namespace elk::model {

namespace {

    /// Removes loop dim `dim` (no axis may still use it) and renumbers the ones above it.
    void eraseDim(TensorExpr& expr, int dim)
    {
        expr.dimExtents.erase(expr.dimExtents.begin() + dim);
        for (Operand& operand : expr.operands) {
            for (Axis& axis : operand.axes) {
                if (axis.dim > dim)
                    --axis.dim;
                if (axis.windowDim > dim)
                    --axis.windowDim;
            }
        }
    }

    bool usedByWindow(const TensorExpr& expr, int dim)
    {
        for (const Operand& operand : expr.operands) {
            for (const Axis& axis : operand.axes) {
                if (axis.isWindow() && (axis.dim == dim || axis.windowDim == dim))
                    return true;
            }
        }
        return false;
    }

    /// Drops one extent-1 dim that only plain axes use; false when there is none (or only one dim).
    bool dropUnitDim(TensorExpr& expr)
    {
        if (expr.dimExtents.size() <= 1)
            return false;
        for (int dim = 0; dim < int(expr.dimExtents.size()); ++dim) {
            if (expr.dimExtents[std::size_t(dim)] != 1 || usedByWindow(expr, dim))
                continue;
            for (Operand& operand : expr.operands)
                std::erase_if(operand.axes, [dim](const Axis& axis) { return axis.dim == dim; });
            eraseDim(expr, dim);
            return true;
        }
        return false;
    }

    /// Whether dims (a, b) may fuse: every operand uses both as adjacent plain axes a, b, or neither.
    bool fusable(const TensorExpr& expr, int a, int b)
    {
        for (const Operand& operand : expr.operands) {
            std::optional<std::size_t> atA;
            std::optional<std::size_t> atB;
            for (std::size_t i = 0; i < operand.axes.size(); ++i) {
                const Axis& axis = operand.axes[i];
                const bool usesA = axis.dim == a || axis.windowDim == a;
                const bool usesB = axis.dim == b || axis.windowDim == b;
                if ((usesA || usesB) && axis.isWindow())
                    return false;
                if ((usesA && atA) || (usesB && atB))
                    return false; // a dim on two axes of one operand (a diagonal) stays as it is
                if (usesA)
                    atA = i;
                if (usesB)
                    atB = i;
            }
            if (atA.has_value() != atB.has_value())
                return false;
            if (atA && *atB != *atA + 1)
                return false;
        }
        return true;
    }

    /// Fuses the first fusable adjacent pair found in operand order; false when there is none.
    bool fuseOnePair(TensorExpr& expr)
    {
        for (const Operand& operand : expr.operands) {
            for (std::size_t i = 0; i + 1 < operand.axes.size(); ++i) {
                const int a = operand.axes[i].dim;
                const int b = operand.axes[i + 1].dim;
                if (a == b || !fusable(expr, a, b))
                    continue;
                const std::int64_t fused = expr.dimExtents[std::size_t(a)] * expr.dimExtents[std::size_t(b)];
                expr.dimExtents[std::size_t(a)] = fused;
                for (Operand& each : expr.operands)
                    std::erase_if(each.axes, [b](const Axis& axis) { return axis.dim == b; });
                eraseDim(expr, b);
                return true;
            }
        }
        return false;
    }

} // namespace

TensorExpr fuseLoopDims(const TensorExpr& expr)
{
    TensorExpr fused = expr;
    while (dropUnitDim(fused)) { }
    while (fuseOnePair(fused)) { }
    return fused;
}

} // namespace elk::model
