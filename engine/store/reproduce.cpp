// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce's runner: the paper's points on equal terms (the cached pipeline) or in artifact
// parity (cached in the store's parity table).
#include "engine/store/reproduce.h"

#include "engine/store/parity_cache.h"
#include "engine/store/result_store.h"
#include "engine/store/run_points.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <thread>

namespace elk::store {

namespace {

    run::PaperDesignResult fromSimulated(const run::DesignRun& design, double clockHz)
    {
        run::PaperDesignResult row;
        row.design = schedule::toString(design.design);
        if (!design.simulated) {
            row.error = design.error.empty() ? "not simulated" : design.error;
            return row;
        }
        const sim::SimResult& sim = *design.simulated;
        const double msPerCycle = 1e3 / clockHz;
        row.latencyMs = sim.latencyCycles * msPerCycle;
        row.overlapMs = sim.overlapCycles * msPerCycle;
        row.preloadOnlyMs = sim.preloadOnlyCycles * msPerCycle;
        row.executeOnlyMs = sim.executeOnlyCycles * msPerCycle;
        row.restMs = row.latencyMs - row.overlapMs - row.preloadOnlyMs - row.executeOnlyMs;
        if (std::abs(row.restMs) < 1e-9 * row.latencyMs)
            row.restMs = 0; // rounding of the three parts' sum; a real excess stays negative and shows

        row.hbmUtilization = sim.hbmUtilization;
        row.nocUtilization = sim.nocUtilization;
        row.tflops = row.latencyMs > 0 ? double(sim.flops) / (row.latencyMs * 1e-3) / 1e12 : 0;
        return row;
    }

    run::ParityOptions parityOptionsOf(const run::PaperPoint& point, const ReproduceOptions& options)
    {
        run::ParityOptions parity;
        parity.meshRatio = point.mesh ? point.meshRatio : 0;
        parity.commScale = point.nocScale;
        parity.compScale = point.computeScale;
        parity.quirks = options.quirks;
        parity.threads = 1; // points run side by side instead
        return parity;
    }

    void runParity(const std::vector<run::PaperPoint>& points, const ReproduceOptions& options, ResultStore* store,
        RunControl& control, ReproduceRun& out)
    {
        std::mutex mutex;
        std::int64_t done = 0;
        forEachPoint(points.size(), options.threads, control, [&](std::size_t p) {
            run::PaperPointResult result;
            result.point = points[p];
            const run::RunSpecResult spec = run::resolveRunSpec(run::parityRequest(points[p], options.einsteinDir));
            if (!spec.ok()) {
                result.error = joinedFieldErrors(spec.errors);
            } else {
                StopOnlyControl quiet(control);
                ParityPointOutcome outcome
                    = runParityCached(spec.spec, parityOptionsOf(points[p], options), store, quiet);
                result.designs = std::move(outcome.designs);
                result.error = std::move(outcome.error);
                result.fromCache = outcome.fromCache;
            }
            if (control.stopRequested())
                return; // a point cut short is not a result
            const std::lock_guard lock(mutex);
            out.fromCache += result.fromCache ? 1 : 0;
            out.points[p] = std::move(result);
            control.progress(++done, std::int64_t(points.size()), "reproduce");
        });
    }

} // namespace

ReproduceRun reproducePoints(const std::vector<run::PaperPoint>& points, const ReproduceOptions& options,
    ResultStore* store, RunControl& control)
{
    // Each distinct point runs once; duplicates copy its result.
    std::vector<run::PaperPoint> unique;
    std::vector<std::size_t> slotOf(points.size());
    std::map<std::string, std::size_t> seen;
    for (std::size_t p = 0; p < points.size(); ++p) {
        const auto [it, fresh] = seen.emplace(points[p].key(), unique.size());
        if (fresh)
            unique.push_back(points[p]);
        slotOf[p] = it->second;
    }
    ReproduceRun distinct;
    distinct.points.resize(unique.size());
    if (options.mode == run::ReproduceMode::ArtifactParity) {
        runParity(unique, options, store, control, distinct);
    } else {
        std::vector<run::RunSpecResult> specs;
        for (const run::PaperPoint& point : unique)
            specs.push_back(run::resolveRunSpec(run::equalTermsRequest(point)));
        runPoints(
            specs, store, control, options.threads, false, "reproduce", [&](std::size_t p, PointOutcome&& outcome) {
                run::PaperPointResult& result = distinct.points[p];
                result.point = unique[p];
                result.error = std::move(outcome.error);
                result.fromCache = outcome.fromCache;
                distinct.fromCache += outcome.fromCache ? 1 : 0;
                for (const run::DesignRun& design : outcome.designs)
                    result.designs.push_back(fromSimulated(design, outcome.clockHz));
            });
    }
    ReproduceRun out;
    out.fromCache = distinct.fromCache;
    out.status = control.stopRequested() ? RunStatus::Stopped : RunStatus::Completed;
    for (std::size_t p = 0; p < points.size(); ++p) {
        out.points.push_back(distinct.points[slotOf[p]]);
        out.points.back().point = points[p];
    }
    return out;
}

} // namespace elk::store
