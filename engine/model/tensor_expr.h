// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/dtype.h"

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::model {

/// Operator kind: selects the tile cost formula of later stages (and the FLOP count below).
/// Slice is a copy of (part of) its input; a Slice with several inputs is a concatenation, each
/// output element copied from one input (loop dims an input needs beyond the output's select
/// which part it fills). Gather reads rows of its data input chosen by its index input.
enum class OpKind { Reduce, Unary, Elementwise, Pool, Conv, MatMul, Gather, Slice, Softmax, Normalization };

inline constexpr std::array<OpKind, 10> kAllOpKinds = { OpKind::Reduce, OpKind::Unary, OpKind::Elementwise,
    OpKind::Pool, OpKind::Conv, OpKind::MatMul, OpKind::Gather, OpKind::Slice, OpKind::Softmax, OpKind::Normalization };

/// Where a tensor lives and why: weights, KV cache and optimizer state (Adam moments, momentum
/// buffers of a training step) sit in HBM and are preloaded; activations stay on chip between
/// producer and consumers when they fit; outputs are written back. Optimizer state is not a
/// parameter: it is counted apart from the weights.
enum class TensorRole { Weight, KvCache, Activation, Output, OptimizerState };

inline constexpr std::array<TensorRole, 5> kAllTensorRoles = { TensorRole::Weight, TensorRole::KvCache,
    TensorRole::Activation, TensorRole::Output, TensorRole::OptimizerState };

/// Roles whose tensors persist in HBM across steps (weights, KV cache, optimizer state): when no op
/// produces them they are graph inputs without being declared, and the compiler preloads them from HBM.
constexpr bool residesInHbm(TensorRole role)
{
    return role == TensorRole::Weight || role == TensorRole::KvCache || role == TensorRole::OptimizerState;
}

/// "reduce" "unary" "elementwise" "pool" "conv" "matmul" "gather" "slice" "softmax" "normalization"
const char* toString(OpKind kind);
std::optional<OpKind> opKindFromString(std::string_view text);
/// "weight" "kv_cache" "activation" "output" "optimizer_state"
const char* toString(TensorRole role);
std::optional<TensorRole> tensorRoleFromString(std::string_view text);

/// One axis of an operand. A plain axis is indexed by one loop dimension; a sliding-window axis
/// (convolution, pooling) by two: index = dim * stride + windowDim.
struct Axis {
    int dim = 0;
    int windowDim = -1; ///< -1: plain axis
    std::int64_t stride = 1; ///< 1 on a plain axis, so that equal axes compare equal

    static Axis loop(int dim) { return Axis { dim, -1, 1 }; }
    static Axis window(int dim, int windowDim, std::int64_t stride) { return Axis { dim, windowDim, stride }; }
    bool isWindow() const { return windowDim >= 0; }
    auto operator<=>(const Axis&) const = default;
};

/// One tensor of an expression as the operator sees it.
struct Operand {
    std::vector<Axis> axes;
    DType dtype = DType::F16;
    TensorRole role = TensorRole::Activation;
    auto operator<=>(const Operand&) const = default;
};

/// An operator as a tensor expression: loop dimensions with extents; operand 0 is the output,
/// operands 1.. are the inputs. Loop dimensions absent from the output are reduction dimensions.
/// Dimension names are not part of an expression (they live on the graph's Op), so that two
/// operators that differ only in naming share one expression and one partition search.
struct TensorExpr {
    OpKind kind = OpKind::Elementwise;
    std::vector<std::int64_t> dimExtents;
    std::vector<Operand> operands;
    auto operator<=>(const TensorExpr&) const = default;
};

/// Largest loop-iteration count (product of all extents) an expression may have: 2^53, so that
/// FLOP and byte counts stay exact in int64 and in the doubles later stages compute with.
inline constexpr std::int64_t kMaxIterations = std::int64_t(1) << 53;

/// Extent an operand axis must have: the loop extent, or (e0 - 1) * stride + e1 for a window.
/// Contract: the axis' dim indices are in range (validateExpr() reports them otherwise).
std::int64_t axisExtent(const TensorExpr& expr, const Axis& axis);

/// The shape operand `operand` must have.
std::vector<std::int64_t> operandShape(const TensorExpr& expr, std::size_t operand);

/// Number of elements of a shape (1 for a scalar).
std::int64_t elementCount(const std::vector<std::int64_t>& shape);

std::int64_t operandElements(const TensorExpr& expr, std::size_t operand);
std::int64_t operandBytes(const TensorExpr& expr, std::size_t operand);

/// Loop dimensions that no output axis uses, ascending.
std::vector<int> reductionDims(const TensorExpr& expr);

/// Product of all loop extents.
std::int64_t iterationCount(const TensorExpr& expr);

/// Floating-point (or integer) operations of one execution, by kind; see tensor_expr.cpp.
std::int64_t flopCount(const TensorExpr& expr);

/// Bytes the operator touches: every input read once plus the output written once. A Slice (each
/// input) and a Gather (its data input) read only what they copy: min(input, output) elements.
std::int64_t byteCount(const TensorExpr& expr);

/// One problem of an expression on its own; `dim`, `operand` and `axis` are -1 when not concerned.
struct ExprProblem {
    int dim = -1; ///< a loop dimension
    int operand = -1;
    int axis = -1;
    std::string message; ///< without the location, e.g. "dim index 7 out of range 0..4"
    bool operator==(const ExprProblem&) const = default;
};

/// Problems that make an expression meaningless on its own: no loop dims, extents <= 0, an
/// operand count its kind does not take, dim indices out of range, strides <= 0 or != 1 on a
/// plain axis, more than kMaxIterations loop iterations.
std::vector<ExprProblem> validateExpr(const TensorExpr& expr);

/// "operand 1, axis 0: dim index 7 out of range 0..4", "loop dim 2: extent 0 must be >= 1".
std::string toString(const ExprProblem& problem);

/// Compact one-line text of an expression, e.g. "matmul [16,5120,5120] out f16 activation (0,1) ...";
/// for logs and test failure messages.
std::string toString(const TensorExpr& expr);

} // namespace elk::model
