// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/sim/sim_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace elk::exports {

/// One simulated design as the exporters see it. Does not own the result: `result` must outlive
/// the export call (typically `&*DesignRun::simulated`).
struct NamedSimResult {
    std::string name; ///< design name ("basic", "elk", ...): Perfetto process name, CSV `design`
    const sim::SimResult* result = nullptr; ///< never null
    /// Optional, by execution step (empty: no bytes in the slice args): the per-core bytes of the
    /// op's preload and of its execute state, e.g. StepSchedule::preloadBytes / executeBytes. The
    /// SimResult itself carries no byte counts per step.
    std::vector<std::int64_t> preloadBytesPerCore;
    std::vector<std::int64_t> executeBytesPerCore;
};

} // namespace elk::exports
