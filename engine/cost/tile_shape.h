// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/tensor_expr.h"

#include <cstdint>
#include <span>

// Quantities of one tile of an expression (the sub-operator whose loop extents are `tile`), shared
// by the tile cost models. None allocates: partition searches call them once per plan.

namespace elk::cost {

/// Extent of one operand axis inside the tile: the loop extent, or (e0 - 1) * stride + e1 for a window.
std::int64_t tileAxisExtent(const model::Axis& axis, std::span<const std::int64_t> tile);

/// Elements of operand `operand` inside the tile.
std::int64_t tileOperandElements(
    const model::TensorExpr& expr, std::size_t operand, std::span<const std::int64_t> tile);

/// Product of the tile extents.
std::int64_t tileIterations(std::span<const std::int64_t> tile);

/// FLOPs of the tile, by the same per-kind rule as model::flopCount.
double tileFlops(const model::TensorExpr& expr, std::span<const std::int64_t> tile);

/// Bytes the tile touches: every input read once, the output written once (real dtype sizes).
double tileBytes(const model::TensorExpr& expr, std::span<const std::int64_t> tile);

/// The widest dtype among the inputs (the output's when there are none): the format the compute
/// units run at when operands are mixed (fp8 weights times fp16 activations run at fp16).
model::DType computeDType(const model::TensorExpr& expr);

/// Widest element size among all operands, output included.
int widestOperandBytes(const model::TensorExpr& expr);

/// Matrix-product view of a tile: `b` independent (m × k) · (k × n) products.
struct MatmulDims {
    std::int64_t b = 1;
    std::int64_t m = 1;
    std::int64_t k = 1;
    std::int64_t n = 1;
};

/// elk-reference.md §3.2: k = the dim shared by both inputs' last two axes and absent from the
/// output's last two (the product, if several), m = the other dim of input 1's last two, n = the
/// other of input 2's last two, b = product of every other dim's tile extent. When no such k exists
/// (unusual layouts), falls back to im2colDims(). No swap rule is applied here.
MatmulDims matmulDims(const model::TensorExpr& expr, std::span<const std::int64_t> tile);

/// Roles of loop dims by use, for any contraction (conv as its im2col matmul): k = reduction dims,
/// m = output dims that input 1 uses and input 2 does not, n = output dims that input 2 uses and
/// input 1 does not, b = the rest.
MatmulDims im2colDims(const model::TensorExpr& expr, std::span<const std::int64_t> tile);

/// Softmax / normalization row length: tile extent of the dim of the output's last axis (the
/// importers put the normalised axis last); 1 for a scalar output.
std::int64_t rowLength(const model::TensorExpr& expr, std::span<const std::int64_t> tile);

/// Index of a gather's index operand: the first integer-typed input, else operand 2, else -1.
int gatherIndexOperand(const model::TensorExpr& expr);

} // namespace elk::cost
