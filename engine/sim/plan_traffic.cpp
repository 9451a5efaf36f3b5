// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/plan_traffic.h"

#include <algorithm>

namespace elk::sim::detail {

namespace {

    std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
    {
        return (a + b - 1) / b;
    }

    bool copiedSource(const model::TensorExpr& expr, std::size_t v)
    {
        return v > 0 && (expr.kind == model::OpKind::Slice || (expr.kind == model::OpKind::Gather && v == 1));
    }

    /// Elements of operand v per core: its axes over the tile (ceil(extent ÷ spatial)), each divided
    /// by the operand's rotation along that dim (`divide`), windows spanning (e0 − 1)·stride + e1.
    std::int64_t subTensorElements(
        const model::TensorExpr& expr, const partition::Plan& plan, std::size_t v, bool divide)
    {
        const auto extentOf = [&](int d) {
            const std::int64_t tile = ceilDiv(expr.dimExtents[std::size_t(d)], plan.spatial[std::size_t(d)]);
            return divide ? ceilDiv(tile, plan.temporal[std::size_t(d)][v]) : tile;
        };
        std::int64_t elements = 1;
        for (const model::Axis& axis : expr.operands[v].axes) {
            std::int64_t extent = extentOf(axis.dim);
            if (axis.isWindow())
                extent = (extent - 1) * axis.stride + extentOf(axis.windowDim);
            elements *= extent;
        }
        return elements;
    }

    std::vector<std::int64_t> operandBytesOf(const model::TensorExpr& expr, const partition::Plan& plan)
    {
        std::vector<std::int64_t> bytes(expr.operands.size(), 0);
        std::int64_t outputElements = 0;
        for (std::size_t v = 0; v < expr.operands.size(); ++v) {
            std::int64_t elements = subTensorElements(expr, plan, v, true);
            if (copiedSource(expr, v))
                elements = std::min(elements, outputElements); // a copy reads what it writes
            if (v == 0)
                outputElements = elements;
            bytes[v] = elements * model::bytesPerElement(expr.operands[v].dtype);
        }
        return bytes;
    }

    bool uses(const model::Operand& operand, int d)
    {
        for (const model::Axis& axis : operand.axes) {
            if (axis.dim == d || axis.windowDim == d)
                return true;
        }
        return false;
    }

} // namespace

PlanTraffic planTraffic(const partition::PartitionInput& input, const partition::Plan& plan)
{
    const model::TensorExpr& expr = input.expr;
    const std::size_t V = expr.operands.size();
    const std::size_t D = expr.dimExtents.size();
    PlanTraffic out;
    out.operandBytes = operandBytesOf(expr, plan);

    // Rotation rounds: along each dim, the factors > 1 form a divisibility chain; each round rotates
    // the operands still divided, g − 1 shifts around a ring of g. Heaviest rounds outermost.
    struct Round {
        double bytes = 0;
        double shifts = 0;
        double tensors = 0;
    };
    std::vector<Round> rounds;
    int largestRing = 1;
    for (std::size_t d = 0; d < D; ++d) {
        std::vector<std::int32_t> row = plan.temporal[d];
        for (;;) {
            std::int32_t g = 0;
            for (std::int32_t f : row) {
                if (f > 1 && (g == 0 || f < g))
                    g = f;
            }
            if (g == 0)
                break;
            Round round;
            round.shifts = g - 1;
            for (std::size_t v = 0; v < V; ++v) {
                if (row[v] > 1) {
                    round.bytes += double(out.operandBytes[v]);
                    round.tensors += 1;
                    row[v] = row[v] % g == 0 ? row[v] / g : 1;
                }
            }
            largestRing = std::max(largestRing, int(g));
            auto pos = rounds.end();
            while (pos != rounds.begin() && (pos - 1)->bytes < round.bytes)
                --pos;
            rounds.insert(pos, round);
        }
    }
    double outer = 1;
    for (const Round& round : rounds) {
        out.shift.bytesPerCore += outer * round.shifts * round.bytes;
        out.shift.syncs += 2 * outer * round.shifts * round.tensors;
        outer *= round.shifts + 1;
    }
    out.shift.ringSize = largestRing;

    const bool stays = expr.kind == model::OpKind::Elementwise || expr.kind == model::OpKind::Unary
        || expr.kind == model::OpKind::Pool;
    if (stays) {
        out.reduce.syncs = 1;
        return out;
    }
    // Cores holding the same output part: the split dims the output does not use, over the
    // output's own rotation (a rotated output visits those cores in turn instead).
    std::int64_t replicas = 1, outputRotation = 1;
    for (std::size_t d = 0; d < D; ++d) {
        if (!uses(expr.operands[0], int(d)))
            replicas *= plan.spatial[d];
        outputRotation *= plan.temporal[d][0];
    }
    out.partials = std::max<std::int64_t>(1, replicas / outputRotation);
    const double outputTileBytes
        = double(subTensorElements(expr, plan, 0, false)) * double(model::bytesPerElement(expr.operands[0].dtype));
    out.reduce.bytesPerCore = double(out.operandBytes[0]);
    out.reduce.syncs = 6; // the exchange's two plus four barriers of the reduction (the IPU count, reference §2.5)
    out.reduce.ringSize = 2;
    if (out.partials >= 2) {
        const double p = double(out.partials);
        out.reduce.bytesPerCore += outputTileBytes * (p - 1) / p;
        out.reduce.syncs += 2;
        out.reduce.ringSize = int(std::min<std::int64_t>(out.partials, 1 << 20));
    }
    return out;
}

PhaseTraffic distributeTraffic(
    const partition::PartitionInput& input, const partition::Plan& cold, const partition::Plan& hot)
{
    const model::TensorExpr& expr = input.expr;
    const std::vector<std::int64_t> coldBytes = operandBytesOf(expr, cold);
    PhaseTraffic out;
    for (std::size_t v = 0; v < expr.operands.size(); ++v) {
        std::int64_t ratio = 1;
        for (std::size_t d = 0; d < expr.dimExtents.size(); ++d)
            ratio *= std::max(1, cold.temporal[d][v] / std::max(1, hot.temporal[d][v]));
        if (ratio == 1)
            continue; // same layout: nothing moves
        if (v > 0)
            out.bytesPerCore += double(ratio) * double(coldBytes[v]);
        out.syncs += double(ratio);
        out.ringSize = std::max(out.ringSize, int(std::min<std::int64_t>(ratio, 1 << 20)));
    }
    if (out.ringSize < 2 && out.bytesPerCore > 0)
        out.ringSize = 2;
    return out;
}

} // namespace elk::sim::detail
