// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/program.h"

#include <nlohmann/json.hpp>

namespace elk::schedule {

std::string programJson(const Program& program)
{
    using Json = nlohmann::ordered_json; // fixed key order: schema first, as written below
    Json calls = Json::array();
    for (const ProgramCall& call : program.calls) {
        Json c;
        c["call"] = call.kind == CallKind::PreloadAsync ? "preload_async" : "execute";
        c["op"] = call.step;
        c["name"] = call.opName;
        if (call.kind == CallKind::PreloadAsync) {
            c["plan"] = call.preload.preloadPlan;
            c["bytes_per_core"] = call.preload.bytesPerCore;
            c["hbm_bytes"] = call.preload.hbmBytes;
            c["spatial"] = call.preload.spatial;
        } else {
            const ExecuteCall& e = call.execute;
            c["wait"] = "done_preload(" + std::to_string(call.step) + ")";
            c["distribute_data"] = { { "bytes_per_core", e.distributeBytesPerCore }, { "cycles", e.distributeCycles } };
            c["local_execute"]
                = { { "plan", e.executePlan }, { "bytes_per_core", e.executeBytesPerCore }, { "spatial", e.spatial },
                      { "rotation", e.rotation }, { "iterations", e.iterations }, { "compute_cycles", e.computeCycles },
                      { "shift_cycles", e.shiftCycles }, { "reduce_cycles", e.reduceCycles } };
        }
        c["start_cycles"] = call.startCycles;
        c["end_cycles"] = call.endCycles;
        calls.push_back(std::move(c));
    }
    Json root;
    root["schema"] = "elk.program/1";
    root["design"] = toString(program.design);
    root["cores"] = program.cores;
    root["clock_hz"] = program.clockHz;
    root["latency_cycles"] = program.latencyCycles;
    root["calls"] = std::move(calls);
    return root.dump(1) + "\n";
}

} // namespace elk::schedule
