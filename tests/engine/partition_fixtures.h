// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Test fixtures shared by the partition tests: a hand-computable tile cost and expression builders.

#include "engine/cost/tile_cost.h"
#include "engine/partition/partition.h"

#include <initializer_list>
#include <vector>

namespace elk::test {

/// tileCycles = 2 × product of the tile extents; partialSumCycles = outputElements × partials.
/// Simple enough that every cycle count in the tests can be worked out by hand.
class CountingTileCost final : public cost::TileCostModel {
public:
    std::string name() const override { return "counting"; }
    std::string version() const override { return "1"; }
    double tileCycles(const model::TensorExpr&, std::span<const std::int64_t> tile) const override
    {
        double product = 1;
        for (std::int64_t e : tile)
            product *= double(e);
        return 2 * product;
    }
    double partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType) const override
    {
        return double(outputElements) * double(partials);
    }
};

/// 2 bytes per cycle, 10 cycles per sync, ×1.5 beyond one chip: round numbers for hand checks.
inline cost::TransferCost simpleTransfer()
{
    cost::TransferCost transfer;
    transfer.linkBytesPerCycle = 2;
    transfer.syncCycles = 10;
    transfer.multiChipFactor = 1.5;
    return transfer;
}

inline partition::PartitionSettings settingsFor(std::int64_t cores, std::int64_t sramBytesPerCore)
{
    partition::PartitionSettings settings;
    settings.cores = cores;
    settings.coresPerChip = cores;
    settings.sramBytesPerCore = sramBytesPerCore;
    return settings;
}

inline model::Operand plainOperand(std::initializer_list<int> dims, model::DType dtype = model::DType::F16)
{
    model::Operand operand;
    for (int d : dims)
        operand.axes.push_back(model::Axis::loop(d));
    operand.dtype = dtype;
    return operand;
}

/// out[m,n] = A[m,k] · W[k,n] with dims (m, n, k); `hbm` says which of A, W come from HBM.
inline partition::PartitionInput matmul(std::int64_t m, std::int64_t n, std::int64_t k, bool aFromHbm, bool wFromHbm)
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::MatMul;
    input.expr.dimExtents = { m, n, k };
    input.expr.operands = { plainOperand({ 0, 1 }), plainOperand({ 0, 2 }), plainOperand({ 2, 1 }) };
    input.expr.operands[0].role = model::TensorRole::Output;
    input.expr.operands[2].role = model::TensorRole::Weight;
    input.fromHbm = { false, aFromHbm, wFromHbm };
    return input;
}

/// Decode attention scores: out[b,h,q,s] = Q[b,h,q,d] · K[b,h,s,d], K from HBM; dims (b, h, q, s, d).
inline partition::PartitionInput attentionScores(std::int64_t b, std::int64_t h, std::int64_t s, std::int64_t d)
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::MatMul;
    input.expr.dimExtents = { b, h, 1, s, d };
    input.expr.operands = { plainOperand({ 0, 1, 2, 3 }), plainOperand({ 0, 1, 2, 4 }), plainOperand({ 0, 1, 3, 4 }) };
    input.expr.operands[0].role = model::TensorRole::Output;
    input.expr.operands[2].role = model::TensorRole::KvCache;
    input.fromHbm = { false, false, true };
    return input;
}

/// out[o] = Σ_k in[o·stride + k] · w[k] with dims (o, k): a 1-D convolution.
inline partition::PartitionInput conv1d(std::int64_t outputs, std::int64_t kernel, std::int64_t stride)
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::Conv;
    input.expr.dimExtents = { outputs, kernel };
    model::Operand in;
    in.axes = { model::Axis::window(0, 1, stride) };
    input.expr.operands = { plainOperand({ 0 }), in, plainOperand({ 1 }) };
    input.expr.operands[0].role = model::TensorRole::Output;
    input.expr.operands[2].role = model::TensorRole::Weight;
    input.fromHbm = { false, false, true };
    return input;
}

inline partition::PartitionInput elementwise(std::int64_t n, model::DType dtype = model::DType::F16)
{
    partition::PartitionInput input;
    input.expr.kind = model::OpKind::Elementwise;
    input.expr.dimExtents = { n };
    input.expr.operands = { plainOperand({ 0 }, dtype), plainOperand({ 0 }, dtype), plainOperand({ 0 }, dtype) };
    input.expr.operands[0].role = model::TensorRole::Output;
    input.fromHbm = { false, false, false };
    return input;
}

} // namespace elk::test
