// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/run/explain.h"

#include <nlohmann/json.hpp>

namespace elk::run::detail {

/// {"floor": {"kind", "resource", "ms", "candidates_ms": {...}}, "losses_ms": [...], "sum_ms"}
nlohmann::ordered_json waterfallJson(const Waterfall& waterfall);

} // namespace elk::run::detail
