// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/tensor_expr.h"

#include <algorithm>
#include <sstream>

namespace elk::model {

const char* toString(OpKind kind)
{
    switch (kind) {
    case OpKind::Reduce:
        return "reduce";
    case OpKind::Unary:
        return "unary";
    case OpKind::Elementwise:
        return "elementwise";
    case OpKind::Pool:
        return "pool";
    case OpKind::Conv:
        return "conv";
    case OpKind::MatMul:
        return "matmul";
    case OpKind::Gather:
        return "gather";
    case OpKind::Slice:
        return "slice";
    case OpKind::Softmax:
        return "softmax";
    case OpKind::Normalization:
        return "normalization";
    }
    return "?";
}

std::optional<OpKind> opKindFromString(std::string_view text)
{
    for (OpKind kind : kAllOpKinds) {
        if (text == toString(kind))
            return kind;
    }
    return std::nullopt;
}

const char* toString(TensorRole role)
{
    switch (role) {
    case TensorRole::Weight:
        return "weight";
    case TensorRole::KvCache:
        return "kv_cache";
    case TensorRole::Activation:
        return "activation";
    case TensorRole::Output:
        return "output";
    case TensorRole::OptimizerState:
        return "optimizer_state";
    }
    return "?";
}

std::optional<TensorRole> tensorRoleFromString(std::string_view text)
{
    for (TensorRole role : kAllTensorRoles) {
        if (text == toString(role))
            return role;
    }
    return std::nullopt;
}

namespace {

    // Products saturate at kMaxIterations + 1 instead of overflowing, so validation can report a
    // too-large expression and costs of a bad expression never hit undefined behaviour.
    std::int64_t saturatingMul(std::int64_t a, std::int64_t b)
    {
        if (a <= 0 || b <= 0)
            return 0; // only counts are multiplied; a non-positive factor is an invalid extent (reported by validation)
        if (a > kMaxIterations / b)
            return kMaxIterations + 1;
        return a * b;
    }

    std::int64_t extentOf(const TensorExpr& expr, int dim)
    {
        if (dim < 0 || std::size_t(dim) >= expr.dimExtents.size())
            return 0;
        return expr.dimExtents[std::size_t(dim)];
    }

    std::size_t inputCount(const TensorExpr& expr)
    {
        return expr.operands.empty() ? 0 : expr.operands.size() - 1;
    }

} // namespace

std::int64_t axisExtent(const TensorExpr& expr, const Axis& axis)
{
    const std::int64_t e0 = extentOf(expr, axis.dim);
    if (!axis.isWindow())
        return e0;
    // Output position d0 in [0, e0) reads window offsets d1 in [0, e1): the last index touched is
    // (e0 - 1) * stride + (e1 - 1), so the input axis spans (e0 - 1) * stride + e1 elements.
    return saturatingMul(e0 - 1, axis.stride) + extentOf(expr, axis.windowDim);
}

std::vector<std::int64_t> operandShape(const TensorExpr& expr, std::size_t operand)
{
    std::vector<std::int64_t> shape;
    if (operand >= expr.operands.size())
        return shape;
    for (const Axis& axis : expr.operands[operand].axes)
        shape.push_back(axisExtent(expr, axis));
    return shape;
}

std::int64_t elementCount(const std::vector<std::int64_t>& shape)
{
    std::int64_t count = 1;
    for (std::int64_t extent : shape)
        count = extent <= 0 ? 0 : saturatingMul(count, extent);
    return count;
}

std::int64_t operandElements(const TensorExpr& expr, std::size_t operand)
{
    if (operand >= expr.operands.size())
        return 0;
    return elementCount(operandShape(expr, operand));
}

std::int64_t operandBytes(const TensorExpr& expr, std::size_t operand)
{
    if (operand >= expr.operands.size())
        return 0;
    return operandElements(expr, operand) * bytesPerElement(expr.operands[operand].dtype);
}

std::vector<int> reductionDims(const TensorExpr& expr)
{
    std::vector<bool> used(expr.dimExtents.size(), false);
    if (!expr.operands.empty()) {
        for (const Axis& axis : expr.operands.front().axes) {
            for (int dim : { axis.dim, axis.windowDim }) {
                if (dim >= 0 && std::size_t(dim) < used.size())
                    used[std::size_t(dim)] = true;
            }
        }
    }
    std::vector<int> dims;
    for (std::size_t d = 0; d < used.size(); ++d) {
        if (!used[d])
            dims.push_back(int(d));
    }
    return dims;
}

std::int64_t iterationCount(const TensorExpr& expr)
{
    return elementCount(expr.dimExtents);
}

// FLOPs per kind. The constants are per element of the tensor named, and say what is counted:
// - MatMul, Conv: one multiply and one add per loop iteration (multiply-accumulate) -> 2 x iterations.
// - Elementwise: one operation per output element per extra input (a + b + c is two adds);
//   a single-input elementwise op (copy-like) still counts one.
// - Unary: one operation per output element (transcendentals count as one; tile cost models
//   price them separately).
// - Reduce, Pool: one add/compare per loop iteration (each input element joins one accumulator
//   per output element it contributes to; pooling windows overlap, hence iterations, not inputs).
// - Softmax: 5 per input element: max, subtract, exp, sum, divide.
// - Normalization: 4 per input element: square, sum, multiply by the reciprocal norm, multiply by
//   the scale (RMSNorm; the one rsqrt per row is negligible, LayerNorm's mean pass is not counted).
// - Gather, Slice: pure data movement, 0 (a Slice with several inputs is a concatenation: a copy
//   too, not k - 1 additions).
std::int64_t flopCount(const TensorExpr& expr)
{
    switch (expr.kind) {
    case OpKind::MatMul:
    case OpKind::Conv:
        return 2 * iterationCount(expr);
    case OpKind::Elementwise:
        return operandElements(expr, 0) * std::max<std::int64_t>(1, std::int64_t(inputCount(expr)) - 1);
    case OpKind::Unary:
        return operandElements(expr, 0);
    case OpKind::Reduce:
    case OpKind::Pool:
        return iterationCount(expr);
    case OpKind::Softmax:
        return 5 * operandElements(expr, 1);
    case OpKind::Normalization:
        return 4 * operandElements(expr, 1);
    case OpKind::Gather:
    case OpKind::Slice:
        return 0;
    }
    return 0;
}

// A copy reads no more elements of a source than it writes: a slice or a row gather touches only
// the part it copies (a padding or broadcast copy reads its whole, smaller source once), so its
// sources count min(source elements, output elements). Gather indices are read whole.
std::int64_t byteCount(const TensorExpr& expr)
{
    std::int64_t bytes = operandBytes(expr, 0);
    const std::int64_t written = operandElements(expr, 0);
    for (std::size_t i = 1; i < expr.operands.size(); ++i) {
        const bool copied = expr.kind == OpKind::Slice || (expr.kind == OpKind::Gather && i == 1);
        if (copied)
            bytes += std::min(operandElements(expr, i), written) * bytesPerElement(expr.operands[i].dtype);
        else
            bytes += operandBytes(expr, i);
    }
    return bytes;
}

namespace {

    // Allowed input counts per kind (operands minus the output).
    struct Arity {
        std::size_t minInputs;
        std::size_t maxInputs;
    };

    Arity arityOf(OpKind kind)
    {
        switch (kind) {
        case OpKind::Unary:
        case OpKind::Reduce:
        case OpKind::Pool:
        case OpKind::Softmax:
            return { 1, 1 };
        case OpKind::Slice:
            return { 1, 64 }; // several inputs: a concatenation, each output element copied from one of them
        case OpKind::MatMul:
        case OpKind::Gather:
            return { 2, 2 };
        case OpKind::Conv:
            return { 2, 3 }; // input, kernel, optional bias
        case OpKind::Normalization:
            return { 1, 3 }; // input, optional scale and shift
        case OpKind::Elementwise:
            return { 1, 64 };
        }
        return { 1, 64 };
    }

} // namespace

std::vector<ExprProblem> validateExpr(const TensorExpr& expr)
{
    std::vector<ExprProblem> problems;
    const int dimCount = int(expr.dimExtents.size());
    if (dimCount == 0)
        problems.push_back({ -1, -1, -1, "has no loop dimensions" });
    for (int d = 0; d < dimCount; ++d) {
        if (expr.dimExtents[std::size_t(d)] <= 0) {
            problems.push_back(
                { d, -1, -1, "extent " + std::to_string(expr.dimExtents[std::size_t(d)]) + " must be >= 1" });
        }
    }
    if (iterationCount(expr) > kMaxIterations) {
        std::string extents;
        for (int d = 0; d < dimCount; ++d)
            extents += (d ? "x" : "") + std::to_string(expr.dimExtents[std::size_t(d)]);
        problems.push_back({ -1, -1, -1, "loop iteration count " + extents + " exceeds 2^53" });
    }
    const Arity arity = arityOf(expr.kind);
    const std::size_t inputs = inputCount(expr);
    if (expr.operands.empty()) {
        problems.push_back({ -1, -1, -1, "has no operands (operand 0 is the output)" });
    } else if (inputs < arity.minInputs || inputs > arity.maxInputs) {
        std::string allowed = std::to_string(arity.minInputs);
        if (arity.maxInputs != arity.minInputs)
            allowed += arity.maxInputs >= 64 ? " or more" : " to " + std::to_string(arity.maxInputs);
        problems.push_back({ -1, -1, -1,
            std::string("a ") + toString(expr.kind) + " op takes " + allowed + " input(s), this one has "
                + std::to_string(inputs) });
    }
    const std::string range = dimCount > 0 ? "0.." + std::to_string(dimCount - 1) : "(no loop dims)";
    for (std::size_t t = 0; t < expr.operands.size(); ++t) {
        const auto& axes = expr.operands[t].axes;
        for (std::size_t a = 0; a < axes.size(); ++a) {
            const Axis& axis = axes[a];
            auto report = [&](std::string message) { problems.push_back({ -1, int(t), int(a), std::move(message) }); };
            if (axis.dim < 0 || axis.dim >= dimCount)
                report("dim index " + std::to_string(axis.dim) + " out of range " + range);
            if (axis.isWindow()) {
                if (axis.windowDim >= dimCount)
                    report("window dim index " + std::to_string(axis.windowDim) + " out of range " + range);
                if (axis.windowDim == axis.dim)
                    report("window uses dim " + std::to_string(axis.dim) + " twice");
                if (axis.stride <= 0)
                    report("stride " + std::to_string(axis.stride) + " must be >= 1");
            } else {
                if (axis.windowDim != -1)
                    report("window dim index " + std::to_string(axis.windowDim) + " out of range " + range);
                if (axis.stride != 1)
                    report("a plain axis has stride 1, not " + std::to_string(axis.stride));
            }
        }
    }
    return problems;
}

std::string toString(const ExprProblem& problem)
{
    std::string text;
    if (problem.dim >= 0)
        text += "loop dim " + std::to_string(problem.dim);
    if (problem.operand >= 0)
        text += "operand " + std::to_string(problem.operand);
    if (problem.axis >= 0)
        text += ", axis " + std::to_string(problem.axis);
    return text.empty() ? problem.message : text + ": " + problem.message;
}

std::string toString(const TensorExpr& expr)
{
    std::ostringstream out;
    out << toString(expr.kind) << " [";
    for (std::size_t d = 0; d < expr.dimExtents.size(); ++d)
        out << (d ? "," : "") << expr.dimExtents[d];
    out << "]";
    for (std::size_t t = 0; t < expr.operands.size(); ++t) {
        const Operand& operand = expr.operands[t];
        out << (t == 0 ? " out " : " in ") << toString(operand.dtype) << ' ' << toString(operand.role) << " (";
        for (std::size_t a = 0; a < operand.axes.size(); ++a) {
            const Axis& axis = operand.axes[a];
            out << (a ? "," : "") << axis.dim;
            if (axis.isWindow())
                out << '*' << axis.stride << '+' << axis.windowDim;
        }
        out << ")";
    }
    return out.str();
}

} // namespace elk::model
