// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/tile_cost.h"

namespace elk::cost {

TransferCost TransferCost::fromChip(const chip::ChipSpec& chip)
{
    TransferCost cost;
    cost.linkBytesPerCycle = chip.linkBytesPerCycle();
    cost.syncCycles = double(chip.interconnect.syncCostCycles);
    // An operator spread over several dies pays the inter-chip overhead on all its exchanges.
    cost.multiChipFactor = chip.chips > 1 ? chip.interChip.overheadFactor : 1.0;
    return cost;
}

} // namespace elk::cost
