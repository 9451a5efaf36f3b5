// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/tile_cost.h"

#include <cmath>

namespace elk::cost {

TransferCost TransferCost::fromChip(const chip::ChipSpec& chip)
{
    TransferCost cost;
    cost.linkBytesPerCycle = chip.linkBytesPerCycle();
    cost.syncCycles = double(chip.interconnect.syncCostCycles);
    // An operator spread over several dies pays the inter-chip overhead on all its exchanges.
    cost.multiChipFactor = chip.chips > 1 ? chip.interChip.overheadFactor : 1.0;
    cost.mesh = chip.interconnect.topology == chip::Topology::Mesh2d;
    return cost;
}

double TransferCost::gatherCycles(double outputBytes, double partials) const
{
    if (!(partials >= 2))
        return 0;
    if (!mesh)
        return 2 * syncCycles + cyclesForBytes(outputBytes * (partials - 1) / partials);
    const double steps = std::ceil(std::log2(partials));
    // Each tree level halves the partial tile a core still holds.
    return 2 * syncCycles * steps + cyclesForBytes(outputBytes * (1 - std::pow(0.5, steps)));
}

} // namespace elk::cost
