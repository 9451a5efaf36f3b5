// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small real run for widget tests: the sample Llama-2-13B decoder layer (decode, batch 16, KV 2048)
// on one IPU with HBM, every design, simulated. Computed once per test executable (about a second).
#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"

#include <memory>
#include <string>
#include <vector>

#include <QtGlobal>

namespace elk::test {

inline run::RunSpec smallRunSpec(const std::string& chip = "ipu-mk2-hbm", std::vector<std::string> chipOverrides = {})
{
    run::RunRequest request;
    request.modelPath = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
    request.chip = chip;
    request.chipOverrides = std::move(chipOverrides);
    request.batch = 16;
    request.kvLen = 2048;
    const run::RunSpecResult resolved = run::resolveRunSpec(request);
    if (!resolved.ok())
        qFatal("run_fixture: cannot resolve the small run: %s: %s", resolved.errors.front().field.c_str(),
            resolved.errors.front().message.c_str());
    return resolved.spec;
}

inline std::shared_ptr<const run::RunResult> runOf(const run::RunSpec& spec)
{
    NullRunControl control;
    auto result = std::make_shared<run::RunResult>(run::executeRun(spec, control));
    if (!result->ok())
        qFatal("run_fixture: the small run failed: %s",
            result->errors.empty() ? "stopped" : result->errors.front().c_str());
    return result;
}

/// The shared small run (every design, simulated), computed on first use.
inline std::shared_ptr<const run::RunResult> smallRun()
{
    static const std::shared_ptr<const run::RunResult> run = runOf(smallRunSpec());
    return run;
}

/// The same workload on a second chip (the IPU with half the HBM bandwidth), for "compare against" views.
inline std::shared_ptr<const run::RunResult> smallRunHalfHbm()
{
    static const std::shared_ptr<const run::RunResult> run
        = runOf(smallRunSpec("ipu-mk2-hbm", { "hbm.bandwidthGBpsPerStack=500" }));
    return run;
}

} // namespace elk::test
