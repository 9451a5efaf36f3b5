// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"
#include "engine/core/run_control.h"
#include "engine/schedule/program.h"
#include "engine/sim/sim_result.h"

#include <optional>
#include <string>

namespace elk::sim {

struct SimRunResult {
    std::optional<SimResult> result;
    std::string error; ///< "stopped", or what is wrong with the inputs
    bool ok() const { return result.has_value(); }
};

/// Forward, discrete-event, deterministic execution of `program` (elk-design.md §5 blocking rules)
/// on `chip` (elk-design.md §6). Contract: `program` was lowered from a schedule of `problem`, whose
/// plan sets it refers to; `chip` is valid and is the chip `problem` was built for.
SimRunResult simulate(const chip::ChipSpec& chip, const schedule::ScheduleProblem& problem,
    const schedule::Program& program, const SimOptions& options, RunControl& control);

} // namespace elk::sim
