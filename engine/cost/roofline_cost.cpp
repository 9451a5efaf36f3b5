// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/roofline_cost.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/cost/tile_shape.h"

namespace elk::cost {

RooflineCostModel::RooflineCostModel(chip::RooflineTileCost spec)
    : m_spec(spec)
{
}

std::string RooflineCostModel::version() const
{
    std::ostringstream text;
    text.precision(17);
    text << "roofline/1 fp32=" << m_spec.peakFlopPerCycleFp32 << " fp16=" << m_spec.peakFlopPerCycleFp16
         << " fp8=" << m_spec.peakFlopPerCycleFp8 << " sram=" << m_spec.sramBytesPerCycle
         << " overhead=" << m_spec.opOverheadCycles;
    return text.str();
}

double RooflineCostModel::peakFlopPerCycle(model::DType dtype) const
{
    using model::DType;
    double peak = 0;
    switch (dtype) {
    case DType::F64:
    case DType::I64:
        peak = m_spec.peakFlopPerCycleFp32 / 2.0;
        break;
    case DType::F32:
    case DType::I32:
        peak = m_spec.peakFlopPerCycleFp32;
        break;
    case DType::F16:
    case DType::BF16:
    case DType::I16:
        peak = m_spec.peakFlopPerCycleFp16;
        break;
    case DType::F8E4M3:
    case DType::F8E5M2:
    case DType::I8:
    case DType::U8:
    case DType::Bool:
        peak = m_spec.peakFlopPerCycleFp8 > 0 ? m_spec.peakFlopPerCycleFp8 : m_spec.peakFlopPerCycleFp16;
        break;
    }
    return peak > 0 ? peak : m_spec.peakFlopPerCycleFp16;
}

double RooflineCostModel::peakFlopPerCycle(const model::TensorExpr& expr) const
{
    return peakFlopPerCycle(computeDType(expr)); // the dtype tileCycles() prices
}

double RooflineCostModel::cycles(double flops, double bytes, model::DType dtype) const
{
    const double compute = flops > 0 ? flops / peakFlopPerCycle(dtype) : 0.0;
    const double memory = m_spec.sramBytesPerCycle > 0 ? bytes / m_spec.sramBytesPerCycle : 0.0;
    const double result = std::max(compute, memory) + double(m_spec.opOverheadCycles);
    return std::isnan(result) || result < 0 ? 0.0 : result;
}

double RooflineCostModel::tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const
{
    return cycles(tileFlops(expr, tileExtents), tileBytes(expr, tileExtents), computeDType(expr));
}

double RooflineCostModel::partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const
{
    if (partials < 2 || outputElements <= 0)
        return 0.0;
    const double elements = double(outputElements);
    const double bytes = elements * double(partials + 1) * model::bytesPerElement(dtype);
    return cycles(elements * double(partials - 1), bytes, dtype);
}

} // namespace elk::cost
