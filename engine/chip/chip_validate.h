// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"

#include <cstdint>
#include <vector>

namespace elk::chip {

/// Smallest SRAM a core may have under a tile cost model: one minimal compute tile
/// (operands and result, double-buffered). Below it no operator can run at all.
std::int64_t minimumSramBytesPerCore(const TileCostSpec& tileCost);

/// Checks every field; each error names the field (JSON pointer), the value and the allowed range.
/// Returns all errors, in field order, not just the first.
std::vector<FieldError> validateChipSpec(const ChipSpec& spec);

} // namespace elk::chip
