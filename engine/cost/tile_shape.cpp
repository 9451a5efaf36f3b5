// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/tile_shape.h"

#include <algorithm>

namespace elk::cost {

using model::OpKind;
using model::TensorExpr;

namespace {

    bool usesDim(const model::Operand& operand, int dim)
    {
        for (const model::Axis& axis : operand.axes) {
            if (axis.dim == dim || axis.windowDim == dim)
                return true;
        }
        return false;
    }

    bool usesDim(const TensorExpr& expr, std::size_t operand, int dim)
    {
        return operand < expr.operands.size() && usesDim(expr.operands[operand], dim);
    }

} // namespace

std::int64_t tileAxisExtent(const model::Axis& axis, std::span<const std::int64_t> tile)
{
    const std::int64_t e0 = tile[std::size_t(axis.dim)];
    if (!axis.isWindow())
        return e0;
    return (e0 - 1) * axis.stride + tile[std::size_t(axis.windowDim)];
}

std::int64_t tileOperandElements(const TensorExpr& expr, std::size_t operand, std::span<const std::int64_t> tile)
{
    std::int64_t elements = 1;
    for (const model::Axis& axis : expr.operands[operand].axes)
        elements *= tileAxisExtent(axis, tile);
    return elements;
}

std::int64_t tileIterations(std::span<const std::int64_t> tile)
{
    std::int64_t product = 1;
    for (std::int64_t extent : tile)
        product *= extent;
    return product;
}

double tileFlops(const TensorExpr& expr, std::span<const std::int64_t> tile)
{
    const double inputs = double(expr.operands.size()) - 1.0;
    switch (expr.kind) {
    case OpKind::MatMul:
    case OpKind::Conv:
        return 2.0 * double(tileIterations(tile));
    case OpKind::Elementwise:
        return double(tileOperandElements(expr, 0, tile)) * std::max(1.0, inputs - 1.0);
    case OpKind::Unary:
        return double(tileOperandElements(expr, 0, tile));
    case OpKind::Reduce:
    case OpKind::Pool:
        return double(tileIterations(tile));
    case OpKind::Softmax:
        return expr.operands.size() > 1 ? 5.0 * double(tileOperandElements(expr, 1, tile)) : 0.0;
    case OpKind::Normalization:
        return expr.operands.size() > 1 ? 4.0 * double(tileOperandElements(expr, 1, tile)) : 0.0;
    case OpKind::Gather:
    case OpKind::Slice:
        return 0.0;
    }
    return 0.0;
}

double tileBytes(const TensorExpr& expr, std::span<const std::int64_t> tile)
{
    double bytes = 0;
    for (std::size_t v = 0; v < expr.operands.size(); ++v)
        bytes += double(tileOperandElements(expr, v, tile)) * model::bytesPerElement(expr.operands[v].dtype);
    return bytes;
}

model::DType computeDType(const TensorExpr& expr)
{
    if (expr.operands.size() < 2)
        return expr.operands.empty() ? model::DType::F16 : expr.operands[0].dtype;
    model::DType widest = expr.operands[1].dtype;
    for (std::size_t v = 2; v < expr.operands.size(); ++v) {
        if (model::bytesPerElement(expr.operands[v].dtype) > model::bytesPerElement(widest))
            widest = expr.operands[v].dtype;
    }
    return widest;
}

int widestOperandBytes(const TensorExpr& expr)
{
    int bytes = 1;
    for (const model::Operand& operand : expr.operands)
        bytes = std::max(bytes, model::bytesPerElement(operand.dtype));
    return bytes;
}

MatmulDims im2colDims(const TensorExpr& expr, std::span<const std::int64_t> tile)
{
    MatmulDims dims;
    for (std::size_t d = 0; d < tile.size(); ++d) {
        const int dim = int(d);
        const bool out = usesDim(expr, 0, dim);
        const bool a = usesDim(expr, 1, dim);
        const bool b = usesDim(expr, 2, dim);
        if (!out)
            dims.k *= tile[d];
        else if (a && !b)
            dims.m *= tile[d];
        else if (b && !a)
            dims.n *= tile[d];
        else
            dims.b *= tile[d];
    }
    return dims;
}

MatmulDims matmulDims(const TensorExpr& expr, std::span<const std::int64_t> tile)
{
    if (expr.operands.size() < 3)
        return im2colDims(expr, tile);
    const model::Operand& out = expr.operands[0];
    const model::Operand& a = expr.operands[1];
    const model::Operand& b = expr.operands[2];
    // Classify every loop dim by which operands index it, so rows of A that B does not have (a
    // decode step's [batch, 1, k] · [k, n]) count as m, not as a batch of 1-row products.
    MatmulDims dims;
    bool anyK = false;
    for (std::size_t d = 0; d < tile.size(); ++d) {
        const int dim = int(d);
        const bool inA = usesDim(a, dim);
        const bool inB = usesDim(b, dim);
        const bool inOut = usesDim(out, dim);
        if (inA && inB && !inOut) {
            dims.k *= tile[d];
            anyK = true;
        } else if (inA && inOut && !inB) {
            dims.m *= tile[d];
        } else if (inB && inOut && !inA) {
            dims.n *= tile[d];
        } else {
            dims.b *= tile[d];
        }
    }
    if (!anyK)
        return im2colDims(expr, tile);
    return dims;
}

std::int64_t rowLength(const TensorExpr& expr, std::span<const std::int64_t> tile)
{
    if (expr.operands.empty() || expr.operands[0].axes.empty())
        return 1;
    return tile[std::size_t(expr.operands[0].axes.back().dim)];
}

int gatherIndexOperand(const TensorExpr& expr)
{
    for (std::size_t v = 1; v < expr.operands.size(); ++v) {
        switch (expr.operands[v].dtype) {
        case model::DType::I64:
        case model::DType::I32:
        case model::DType::I16:
        case model::DType::I8:
        case model::DType::U8:
            return int(v);
        default:
            break;
        }
    }
    return expr.operands.size() > 2 ? 2 : -1;
}

} // namespace elk::cost
