// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The bound-gap waterfall of a run's designs (sim::BoundGap) in milliseconds, for `elk explain`,
// figures and the Designs view.
#pragma once

#include "engine/run/run_compile.h"

#include <string>
#include <vector>

namespace elk::run {

struct WaterfallLoss {
    sim::GapCause cause = sim::GapCause::SramFullWait;
    double ms = 0; ///< what it adds to the floor
    double durationMs = 0; ///< how long its segments lasted
};

/// One design: the floor, then its losses in GapCause order; floorMs + Σ ms = latencyMs to rounding.
struct Waterfall {
    schedule::Design design = schedule::Design::Basic;
    double latencyMs = 0;
    sim::FloorKind floorKind = sim::FloorKind::Hbm;
    std::string floorResource;
    double floorMs = 0, hbmFloorMs = 0, computeFloorMs = 0, linkFloorMs = 0;
    std::vector<WaterfallLoss> losses; ///< every cause (zero ones too), GapCause order
    double sumMs() const;
};

Waterfall waterfallOf(const sim::SimResult& simulated, schedule::Design design);
/// The waterfalls of the designs that simulated (failed designs are left out).
std::vector<Waterfall> waterfallsOf(const RunResult& result);

/// `elk explain --json`: model, step, chip name, and per design its latency, floor (with the three
/// candidates) and losses.
std::string explainJson(const RunResult& result);
/// The same from designs alone (a result-cache hit needs no compiled model); "model" is the spec's
/// model reference.
std::string explainJson(const RunSpec& spec, const std::vector<DesignRun>& designs);

} // namespace elk::run
