// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/cost/tile_cost.h"

namespace elk::cost {

/// cycles = max(FLOPs / peak(dtype), bytes the tile touches / sramBytesPerCycle) + opOverheadCycles,
/// from ChipSpec.tileCost.roofline; for chips that are not IPUs.
class RooflineCostModel final : public TileCostModel {
public:
    explicit RooflineCostModel(chip::RooflineTileCost spec);

    std::string name() const override { return "roofline"; }
    std::string version() const override;
    double tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const override;
    /// Reads `partials` × outputElements values, writes outputElements, adds (partials − 1) × outputElements.
    double partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const override;

    /// Peak FLOP/cycle for `dtype`: bf16 and 16-bit ints = fp16; fp8 and 8-bit types = fp8 when > 0,
    /// else fp16; fp32 and i32 = fp32; f64 and i64 = fp32 / 2 (the chip files do not give an f64 peak;
    /// half the fp32 rate is our assumption). A zero peak falls back to fp16.
    double peakFlopPerCycle(model::DType dtype) const;
    double peakFlopPerCycle(const model::TensorExpr& expr) const override;

private:
    double cycles(double flops, double bytes, model::DType dtype) const;

    chip::RooflineTileCost m_spec;
};

} // namespace elk::cost
