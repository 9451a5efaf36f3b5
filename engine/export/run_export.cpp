// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/run_export.h"

#include "engine/run/run_compile.h"
#include "engine/schedule/program.h"

namespace elk::exports {

std::vector<NamedSimResult> namedSimResults(const run::RunResult& result)
{
    std::vector<NamedSimResult> named;
    for (const run::DesignRun& run : result.designs) {
        if (!run.simulated)
            continue;
        NamedSimResult one;
        one.name = schedule::toString(run.design);
        one.result = &*run.simulated;
        if (run.schedule) {
            for (const schedule::StepSchedule& step : run.schedule->steps) {
                one.preloadBytesPerCore.push_back(step.preloadBytes);
                one.executeBytesPerCore.push_back(step.executeBytes);
            }
        }
        named.push_back(std::move(one));
    }
    return named;
}

std::string runPrograms(const run::RunResult& result, bool asJson)
{
    std::string text = asJson ? "{\n" : std::string();
    bool first = true;
    for (const run::DesignRun& run : result.designs) {
        if (!run.schedule || run.design == schedule::Design::Ideal)
            continue;
        const schedule::Program lowered = schedule::lowerProgram(result.problemOf(run), *run.schedule);
        if (asJson) {
            text += std::string(first ? "" : ",\n") + "\"" + schedule::toString(run.design)
                + "\": " + schedule::programJson(lowered);
        } else {
            text += std::string(first ? "" : "\n") + schedule::programText(lowered);
        }
        first = false;
    }
    if (asJson)
        text += "\n}\n";
    return text;
}

} // namespace elk::exports
