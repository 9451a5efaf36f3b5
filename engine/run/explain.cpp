// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/explain.h"

#include "engine/core/version.h"
#include "engine/run/bound_gap_json.h"

namespace elk::run {

double Waterfall::sumMs() const
{
    double sum = floorMs;
    for (const WaterfallLoss& loss : losses)
        sum += loss.ms;
    return sum;
}

Waterfall waterfallOf(const sim::SimResult& simulated, schedule::Design design)
{
    const double msPerCycle = 1e3 / simulated.clockHz;
    const sim::BoundGap& gap = simulated.boundGap;
    Waterfall w;
    w.design = design;
    w.latencyMs = simulated.latencyCycles * msPerCycle;
    w.floorKind = gap.floorKind;
    w.floorResource = gap.floorResource;
    w.floorMs = gap.floorCycles * msPerCycle;
    w.hbmFloorMs = gap.hbmFloorCycles * msPerCycle;
    w.computeFloorMs = gap.computeFloorCycles * msPerCycle;
    w.linkFloorMs = gap.linkFloorCycles * msPerCycle;
    for (int c = 0; c < sim::kGapCauseCount; ++c) {
        const sim::GapPart& part = gap.parts[std::size_t(c)];
        w.losses.push_back({ sim::GapCause(c), part.lossCycles * msPerCycle, part.durationCycles * msPerCycle });
    }
    return w;
}

std::vector<Waterfall> waterfallsOf(const RunResult& result)
{
    std::vector<Waterfall> out;
    for (const DesignRun& run : result.designs)
        if (run.simulated)
            out.push_back(waterfallOf(*run.simulated, run.design));
    return out;
}

namespace detail {

    nlohmann::ordered_json waterfallJson(const Waterfall& w)
    {
        using nlohmann::ordered_json;
        ordered_json losses = ordered_json::array();
        for (const WaterfallLoss& loss : w.losses)
            losses.push_back(ordered_json { { "cause", sim::toString(loss.cause) },
                { "label", sim::describe(loss.cause) }, { "ms", loss.ms }, { "duration_ms", loss.durationMs } });
        return ordered_json { { "floor",
                                  ordered_json { { "kind", sim::toString(w.floorKind) },
                                      { "resource", w.floorResource }, { "ms", w.floorMs },
                                      { "candidates_ms",
                                          ordered_json { { "hbm", w.hbmFloorMs }, { "compute", w.computeFloorMs },
                                              { "link", w.linkFloorMs } } } } },
            { "losses", std::move(losses) }, { "sum_ms", w.sumMs() } };
    }

} // namespace detail

std::string explainJson(const RunResult& result)
{
    return explainJson(result.spec, result.designs);
}

std::string explainJson(const RunSpec& spec, const std::vector<DesignRun>& runs)
{
    using nlohmann::ordered_json;
    ordered_json out;
    out["engine_version"] = kEngineVersion;
    out["run_spec_sha256"] = runSpecHash(spec);
    out["model"] = spec.model.path;
    out["chip"] = spec.chip.name;
    out["step"] = ordered_json { { "phase", toString(spec.phase) }, { "batch", spec.batch }, { "seq_len", spec.seqLen },
        { "kv_len", spec.kvLen } };
    ordered_json designs = ordered_json::array();
    for (const DesignRun& run : runs) {
        ordered_json design { { "design", schedule::toString(run.design) } };
        if (!run.simulated) {
            design["error"] = run.error;
        } else {
            const Waterfall w = waterfallOf(*run.simulated, run.design);
            design["latency_ms"] = w.latencyMs;
            design.update(detail::waterfallJson(w));
        }
        designs.push_back(std::move(design));
    }
    out["designs"] = std::move(designs);
    return out.dump(2) + "\n";
}

} // namespace elk::run
