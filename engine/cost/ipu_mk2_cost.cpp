// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/ipu_mk2_cost.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/cost/tile_shape.h"

namespace elk::cost {

using model::OpKind;

namespace {

    std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
    {
        return (a + b - 1) / b;
    }

    /// The formulas were measured in fp16; wider vector operands halve the vector width per byte
    /// doubling (fp32 runs 2-wide where fp16 runs 4-wide), narrower ones run at the fp16 rate.
    double dtypeScale(int bytesPerElement)
    {
        return std::max(1.0, bytesPerElement / 2.0);
    }

    /// Pricing that is not a single formula of the reference: Softmax and Normalization are our own
    /// kinds, priced as the passes they are made of; Conv has no samples for us and is priced as its
    /// im2col matmul; Pool uses the ELEMENT formula over the tile's iterations.
    double formulaCycles(
        const model::TensorExpr& expr, std::span<const std::int64_t> tile, const TransferCost& transfer)
    {
        const double scale = dtypeScale(widestOperandBytes(expr));
        const double iterations = double(tileIterations(tile));
        const double scaled = iterations * scale;
        const std::int64_t inputs = std::int64_t(expr.operands.size()) - 1;
        switch (expr.kind) {
        case OpKind::MatMul:
        case OpKind::Conv: {
            const MatmulDims d = expr.kind == OpKind::MatMul ? matmulDims(expr, tile) : im2colDims(expr, tile);
            return ipuMatmulCycles(d.b, d.m, d.k, d.n, model::bytesPerElement(computeDType(expr)));
        }
        case OpKind::Elementwise:
            // The formula is for one binary op; n inputs take n - 1 of them (a single input: one pass).
            return double(std::max<std::int64_t>(1, inputs - 1)) * ipuElementCycles(scaled);
        case OpKind::Pool:
            return ipuElementCycles(scaled);
        case OpKind::Unary:
            return ipuUnaryCycles(scaled);
        case OpKind::Reduce:
            return ipuReduceCycles(tileOperandElements(expr, 0, tile), scaled);
        case OpKind::Softmax: {
            // max and sum of exp over each row (2 reduce passes), x - max then exp, and the division
            // (2 elementwise passes).
            const std::int64_t rows = std::max<std::int64_t>(1, tileIterations(tile) / rowLength(expr, tile));
            return 2 * ipuReduceCycles(rows, scaled) + 2 * ipuElementCycles(scaled);
        }
        case OpKind::Normalization: {
            // mean and variance over each row (2 reduce passes), (x - mean) · rstd (2 elementwise
            // passes) and one more pass per scale / shift operand.
            const std::int64_t rows = std::max<std::int64_t>(1, tileIterations(tile) / rowLength(expr, tile));
            const double passes = 2.0 + double(std::max<std::int64_t>(0, inputs - 1));
            return 2 * ipuReduceCycles(rows, scaled) + passes * ipuElementCycles(scaled);
        }
        case OpKind::Gather: {
            const int index = gatherIndexOperand(expr);
            const std::int64_t indexElements = index > 0 ? tileOperandElements(expr, std::size_t(index), tile) : 1;
            return ipuGatherCycles(tileOperandElements(expr, 0, tile), indexElements);
        }
        case OpKind::Slice: {
            const double bytes
                = double(tileOperandElements(expr, 0, tile)) * model::bytesPerElement(expr.operands[0].dtype);
            return transfer.cyclesForBytes(bytes) + transfer.syncCycles;
        }
        }
        return 0.0;
    }

} // namespace

IpuMk2CostModel::IpuMk2CostModel(TransferCost transfer)
    : m_transfer(transfer)
{
}

std::string IpuMk2CostModel::version() const
{
    std::ostringstream text;
    text.precision(17);
    text << "ipu-mk2/1 link=" << m_transfer.linkBytesPerCycle << " sync=" << m_transfer.syncCycles;
    return text.str();
}

double IpuMk2CostModel::tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const
{
    const double cycles = formulaCycles(expr, tileExtents, m_transfer);
    const double floor = tileFlops(expr, tileExtents) / ipuPeakFlopPerCycle(computeDType(expr));
    const double result = std::max(cycles, floor);
    return std::isnan(result) || result < 0 ? 0.0 : result;
}

double IpuMk2CostModel::peakFlopPerCycle(const model::TensorExpr& expr) const
{
    return ipuPeakFlopPerCycle(computeDType(expr)); // tileCycles() never beats it
}

double IpuMk2CostModel::partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const
{
    if (partials < 2 || outputElements <= 0)
        return 0.0;
    // elk-reference.md §2.5 shuffle: two partials are one elementwise add, more are a reduction of
    // `partials` values per output element.
    const double scale = dtypeScale(model::bytesPerElement(dtype));
    const double cycles = partials == 2
        ? ipuElementCycles(double(outputElements) * scale)
        : ipuReduceCycles(outputElements, double(outputElements) * double(partials) * scale);
    const double floor = double(outputElements) * double(partials - 1) / ipuPeakFlopPerCycle(dtype);
    return std::max(cycles, floor);
}

double ipuPeakFlopPerCycle(model::DType dtype)
{
    const int bytes = model::bytesPerElement(dtype);
    return bytes <= 2 ? 128.0 : bytes <= 4 ? 32.0 : 16.0;
}

double ipuMatmulCycles(std::int64_t b, std::int64_t m, std::int64_t k, std::int64_t n, int bytesPerElement)
{
    if (n > m && n > 16) // the reference: swap when n > m, swap back when the new m is <= 16
        std::swap(m, n);
    const std::int64_t c = std::max(1, 32 / std::max(1, bytesPerElement));
    const double kc = double(ceilDiv(k, c));
    const double nc = double(ceilDiv(n, c));
    const double perProduct = 24.0 * double(ceilDiv(m, 6)) * kc * nc + 514.0 * kc * nc + 113.0 * nc + 173.0;
    return double(b) * perProduct;
}

double ipuElementCycles(double elements)
{
    return elements <= 16432 ? std::min(8517.0, 0.75 * elements + 290.0) : 0.5 * elements + 300.0;
}

double ipuUnaryCycles(double elements)
{
    return 0.5 * elements + 200.0;
}

std::int64_t ipuReduceOutputLadder(std::int64_t outputElements)
{
    for (std::int64_t step : { 1, 2, 4, 8, 12, 16, 24 }) {
        if (outputElements <= step)
            return step;
    }
    return ceilDiv(outputElements, 48) * 48;
}

double ipuReduceCycles(std::int64_t outputElements, double iterations)
{
    const std::int64_t raw = std::max<std::int64_t>(1, outputElements);
    const double perOutput = iterations / double(raw);
    const double x = double(ipuReduceOutputLadder(raw)) * perOutput;
    return x <= 480 ? std::min(295.25, 1.5 * x + 175.0) : 0.25 * x + 175.0;
}

double ipuGatherCycles(std::int64_t total, std::int64_t indexElements)
{
    const std::int64_t idx = std::max<std::int64_t>(1, indexElements);
    const double perIndex = std::ceil(double(total) / double(idx) / 2.0);
    return 300.0 + perIndex * double(idx) + double(idx);
}

} // namespace elk::cost
