// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/cost/tile_cost.h"

#include <cstdint>

namespace elk::cost {

/// The closed-form per-iteration cycle formulas measured on an IPU MK2 tile (elk-reference.md §3.2),
/// mapped onto our op kinds (see ipu_mk2_cost.cpp for Softmax, Normalization, Conv and Pool).
/// Every result is at least the tile's FLOPs over ipuPeakFlopPerCycle(), so no latency can beat the
/// chip's peak (the formulas with 32 / bytes per element would otherwise run fp8 at twice fp16).
class IpuMk2CostModel final : public TileCostModel {
public:
    /// `transfer` prices SLICE (a slice is a copy over the exchange).
    explicit IpuMk2CostModel(TransferCost transfer);

    std::string name() const override { return "ipu-mk2"; }
    std::string version() const override;
    double tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const override;
    double partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const override;
    double peakFlopPerCycle(const model::TensorExpr& expr) const override;

private:
    TransferCost m_transfer;
};

/// Peak FLOP per cycle of one IPU MK2 tile: 128 for 1- and 2-byte types (fp16 AMP; the MK2 has no
/// faster fp8 path), 32 for 4-byte types (fp32 AMP, a quarter of fp16), 16 for 8-byte types (no f64
/// units on the IPU; half the fp32 rate is our assumption, not a measurement).
double ipuPeakFlopPerCycle(model::DType dtype);

// The reference's formulas on their own (fp16 unless said), for tests and for other models to reuse.

/// MATMUL: b · (24·⌈m/6⌉⌈k/c⌉⌈n/c⌉ + 514·⌈k/c⌉⌈n/c⌉ + 113·⌈n/c⌉ + 173), c = 32 / bytesPerElement,
/// after the reference's swap rule (n > m and n > 16 → swap m and n).
double ipuMatmulCycles(std::int64_t b, std::int64_t m, std::int64_t k, std::int64_t n, int bytesPerElement);
/// ELEMENT: Pe ≤ 16432 ? min(8517, 0.75·Pe + 290) : 0.5·Pe + 300.
double ipuElementCycles(double elements);
/// UNARY: 0.5·Pe + 200.
double ipuUnaryCycles(double elements);
/// Output product rounded up on the ladder 1, 2, 4, 8, 12, 16, 24, then multiples of 48.
std::int64_t ipuReduceOutputLadder(std::int64_t outputElements);
/// REDUCE: x = ladder(O)·(Pe / O); x ≤ 480 ? min(295.25, 1.5x + 175) : 0.25x + 175.
double ipuReduceCycles(std::int64_t outputElements, double iterations);
/// GATHER: 300 + ⌈total / idx / 2⌉·idx + idx.
double ipuGatherCycles(std::int64_t total, std::int64_t indexElements);

} // namespace elk::cost
