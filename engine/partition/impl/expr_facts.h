// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/partition/partition.h"

#include <cstdint>
#include <vector>

namespace elk::partition::detail {

/// One operand axis as the hot loops read it (no std::optional, no names).
struct AxisRef {
    int dim = 0;
    int windowDim = -1; ///< -1: plain axis
    std::int64_t stride = 1;
};

/// Everything the enumeration and evaluation loops need about one expression, precomputed once
/// into flat arrays so that evaluating a plan touches no heap.
struct ExprFacts {
    const model::TensorExpr* expr = nullptr;
    int dims = 0; ///< D
    int operands = 0; ///< V
    std::int64_t cores = 0; ///< C
    std::vector<std::int64_t> extent; ///< [d]
    std::vector<std::uint8_t> uses; ///< [d * V + v]: operand v has an axis indexed by loop dim d
    std::vector<std::vector<int>> users; ///< [d]: operands that use loop dim d, ascending
    std::vector<AxisRef> axes; ///< all operands' axes, operand after operand
    std::vector<int> axisBegin; ///< [V + 1]: operand v's axes are axes[axisBegin[v] .. axisBegin[v + 1])
    std::vector<std::int64_t> elementBytes; ///< [v]: real dtype size
    std::vector<std::uint8_t> fromHbm; ///< [v]
    /// [v]: a slice or gather source: the op reads only the part it copies, at most as many elements
    /// as it writes (an embedding lookup reads its rows, not the table)
    std::vector<std::uint8_t> copied;
    bool anyHbm = false;
    bool syncOnlyShuffle = false; ///< elementwise, unary, pool: the result stays where it was computed
    double utilization = 0; ///< U of elk-reference.md §2.2: minimum used / available cores
    double padding = 0; ///< Pad of elk-reference.md §2.2: minimum useful / padded iterations
};

/// A slice's sources and a gather's data input: read only where copied (model::byteCount's rule).
bool isCopiedSource(const model::TensorExpr& expr, std::size_t operand);

/// Contract: validateExpr(input.expr) is empty and settings.cores >= 1; `input` outlives the result.
ExprFacts makeExprFacts(const PartitionInput& input, const PartitionSettings& settings);

/// Core-utilisation and padding thresholds of elk-reference.md §2.2 (exposed for tests).
struct Thresholds {
    double utilization = 0;
    double padding = 0;
};
Thresholds thresholdsFor(const model::TensorExpr& expr, std::int64_t cores, bool training);

inline std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

} // namespace elk::partition::detail
