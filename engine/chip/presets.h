// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::chip {

/// The chip presets compiled into the engine from resources/presets/*.json (sorted by name).
/// Contract: every built-in preset parses and validates (a test checks it).
std::vector<ChipSpec> builtinPresets();

/// The built-in preset with this name, or nothing.
std::optional<ChipSpec> findBuiltinPreset(std::string_view name);

/// Raw JSON text of a built-in preset (as committed), or nothing.
std::optional<std::string> builtinPresetJson(std::string_view name);

} // namespace elk::chip
