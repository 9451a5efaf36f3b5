// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/export/named_sim_result.h"

#include <string>
#include <vector>

namespace elk::run {
struct RunResult;
}

namespace elk::exports {

/// The simulated designs of a run, in spec order, as the exporters take them, with each step's
/// preload and execute bytes per core from the design's schedule. Points into `result`, which must
/// outlive the returned list. Designs without a simulation are left out.
std::vector<NamedSimResult> namedSimResults(const run::RunResult& result);

/// The emitted preload_async/execute programs of every scheduled design except ideal (whose
/// preloads have no SRAM limit): one JSON object keyed by design ("elk.program/1" values) when
/// `asJson`, else the designs' program texts separated by blank lines. Deterministic.
std::string runPrograms(const run::RunResult& result, bool asJson);

} // namespace elk::exports
