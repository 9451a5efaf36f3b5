// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Real, small runs for the timeline view tests: the one-layer Llama-2-13B sample (8 MiB SRAM per
// core so every op fits) on the teaching chip as a 4 × 4 mesh or as all-to-all, on one or two chips;
// basic and elk-full. Each takes well under a second.
#include <memory>
#include <string>
#include <vector>

#include <QtGlobal>

#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"

namespace elk::timelinetest {

enum class Fabric { Mesh, AllToAll };

inline std::shared_ptr<const run::RunResult> smallRun(Fabric fabric = Fabric::Mesh, int chips = 1)
{
    run::RunRequest request;
    request.modelPath = std::string(ELK_SOURCE_DIR) + "/sample_models/llama2-13b-layer-decode.elk.json";
    request.chip = "teaching-mesh-4x4";
    request.chipOverrides = { "sramBytesPerCore=8388608" };
    if (fabric == Fabric::AllToAll) {
        request.chipOverrides.push_back("interconnect.topology=all-to-all");
        request.chipOverrides.push_back("hbm.controllerPlacement=spread");
    }
    if (chips > 1) {
        request.chipOverrides.push_back("chips=" + std::to_string(chips));
        request.chipOverrides.push_back("interChip.linkBandwidthGBps=50");
    }
    request.designs = { "basic", "elk-full" };
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok())
        qFatal("cannot resolve the timeline run: %s: %s", spec.errors.front().field.c_str(),
            spec.errors.front().message.c_str());
    NullRunControl control;
    auto result = std::make_shared<run::RunResult>(run::executeRun(spec.spec, control, 1));
    if (!result->ok())
        qFatal("the timeline run failed: %s", result->errors.empty() ? "stopped" : result->errors.front().c_str());
    for (const run::DesignRun& design : result->designs) {
        if (!design.simulated)
            qFatal("design %s has no simulation: %s", schedule::toString(design.design), design.error.c_str());
    }
    return result;
}

} // namespace elk::timelinetest
