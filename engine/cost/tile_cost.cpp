// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/tile_cost.h"

#include <filesystem>

#include "engine/cost/fitted_cost.h"
#include "engine/cost/ipu_mk2_cost.h"
#include "engine/cost/roofline_cost.h"

namespace elk::cost {

TileCostModelResult makeTileCostModel(const chip::ChipSpec& chip, const std::string& baseDir)
{
    TileCostModelResult result;
    switch (chip.tileCost.model) {
    case chip::TileCostModelKind::IpuMk2:
        result.model = std::make_unique<IpuMk2CostModel>(TransferCost::fromChip(chip));
        return result;
    case chip::TileCostModelKind::Roofline:
        result.model = std::make_unique<RooflineCostModel>(chip.tileCost.roofline);
        return result;
    case chip::TileCostModelKind::Fitted: {
        std::filesystem::path path(chip.tileCost.fitted.modelPath);
        if (path.is_relative() && !baseDir.empty())
            path = std::filesystem::path(baseDir) / path;
        result = loadFittedCostModel(path.string());
        if (!result.ok())
            result.error = "/tileCost/fitted/modelPath: " + result.error;
        return result;
    }
    }
    result.error = "/tileCost/model: unknown tile cost model";
    return result;
}

} // namespace elk::cost
