// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A real, small run for the classroom tests: the one-layer Llama-2-13B sample on the teaching mesh
// with 8 MiB SRAM per core (so every op fits), basic vs elk-full (they differ there). ~0.3 s.
#include <memory>
#include <string>

#include <QtGlobal>

#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"

namespace elk::classroomtest {

inline std::shared_ptr<const run::RunResult> smallRun()
{
    run::RunRequest request;
    request.modelPath = std::string(ELK_SOURCE_DIR) + "/sample_models/llama2-13b-layer-decode.elk.json";
    request.chip = "teaching-mesh-4x4";
    request.chipOverrides = { "sramBytesPerCore=8388608" };
    request.designs = { "basic", "elk-full" };
    const run::RunSpecResult spec = run::resolveRunSpec(request);
    if (!spec.ok())
        qFatal("cannot resolve the classroom run: %s: %s", spec.errors.front().field.c_str(),
            spec.errors.front().message.c_str());
    NullRunControl control;
    auto result = std::make_shared<run::RunResult>(run::executeRun(spec.spec, control, 1));
    if (!result->ok())
        qFatal("the classroom run failed: %s", result->errors.empty() ? "stopped" : result->errors.front().c_str());
    for (const run::DesignRun& design : result->designs) {
        if (!design.simulated)
            qFatal("design %s has no simulation: %s", schedule::toString(design.design), design.error.c_str());
    }
    return result;
}

} // namespace elk::classroomtest
