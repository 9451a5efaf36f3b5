// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"

#include <string>
#include <string_view>
#include <vector>

namespace elk::chip {

/// Result of parsing chip JSON: a spec, or the errors (each naming its JSON pointer).
struct ChipParseResult {
    ChipSpec spec;
    std::vector<FieldError> errors; ///< empty on success
    bool ok() const { return errors.empty(); }
};

/// Parses "elk.chip/1" JSON text. Syntax errors report line and column in `field` as "line L, column C".
/// Unknown keys, missing keys and wrong types are errors. Does not run validateChipSpec().
ChipParseResult chipSpecFromJson(std::string_view jsonText);

/// Canonical JSON text of a spec (sorted keys, 2-space indent); chipSpecFromJson(chipSpecToJson(s)) == s.
std::string chipSpecToJson(const ChipSpec& spec);

} // namespace elk::chip
