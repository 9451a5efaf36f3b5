// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce's runner: the paper's points on equal terms (the cached pipeline) or in artifact
// parity (cached in the store's parity table).
#include "engine/store/reproduce.h"

#include "engine/store/result_store.h"
#include "engine/store/run_points.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

namespace elk::store {

namespace {

    using Json = nlohmann::ordered_json;

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
        if (row.restMs < 1e-9 * row.latencyMs)
            row.restMs = 0; // rounding of the three parts' sum

        row.hbmUtilization = sim.hbmUtilization;
        row.nocUtilization = sim.nocUtilization;
        row.tflops = row.latencyMs > 0 ? double(sim.flops) / (row.latencyMs * 1e-3) / 1e12 : 0;
        return row;
    }

    run::PaperDesignResult fromParity(const run::ParityDesign& design)
    {
        run::PaperDesignResult row;
        row.design = schedule::toString(design.design);
        if (!design.schedule) {
            row.error = design.error.empty() ? "no schedule" : design.error;
            return row;
        }
        const auto& m = design.metrics;
        row.latencyMs = design.latencyMs;
        row.overlapMs = m.overlapMs;
        row.preloadOnlyMs = m.preloadOnlyMs;
        row.executeOnlyMs = m.executeOnlyMs;
        row.restMs = m.interconnectMs;
        row.hbmUtilization = m.hbmUtilization;
        row.nocUtilization = m.nocLoadUtilization + m.nocShiftUtilization;
        row.tflops = m.tflops;
        return row;
    }

    Json toJson(const run::PaperPointResult& result)
    {
        Json root;
        root["error"] = result.error;
        Json& designs = root["designs"];
        designs = Json::array();
        for (const run::PaperDesignResult& d : result.designs) {
            designs.push_back({ { "design", d.design }, { "latency_ms", d.latencyMs }, { "overlap_ms", d.overlapMs },
                { "preload_only_ms", d.preloadOnlyMs }, { "execute_only_ms", d.executeOnlyMs }, { "rest_ms", d.restMs },
                { "hbm_utilization", d.hbmUtilization }, { "noc_utilization", d.nocUtilization },
                { "tflops", d.tflops }, { "error", d.error } });
        }
        return root;
    }

    /// Reads what toJson wrote; false when the text is not such a payload (treated as a miss).
    bool fromJson(const std::string& text, run::PaperPointResult& result)
    {
        const Json root = Json::parse(text, nullptr, false);
        if (!root.is_object() || !root.contains("designs") || !root["designs"].is_array())
            return false;
        try {
            result.error = root.value("error", "");
            for (const Json& d : root["designs"]) {
                run::PaperDesignResult row;
                row.design = d.at("design").get<std::string>();
                row.latencyMs = d.at("latency_ms").get<double>();
                row.overlapMs = d.at("overlap_ms").get<double>();
                row.preloadOnlyMs = d.at("preload_only_ms").get<double>();
                row.executeOnlyMs = d.at("execute_only_ms").get<double>();
                row.restMs = d.at("rest_ms").get<double>();
                row.hbmUtilization = d.at("hbm_utilization").get<double>();
                row.nocUtilization = d.at("noc_utilization").get<double>();
                row.tflops = d.at("tflops").get<double>();
                row.error = d.at("error").get<std::string>();
                result.designs.push_back(std::move(row));
            }
        } catch (const Json::exception&) {
            return false;
        }
        return true;
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

    std::string parityKey(const run::RunSpec& spec, const run::ParityOptions& parity)
    {
        Json key;
        key["schema"] = "elk.parity-key/1";
        key["spec"] = Json::parse(run::runSpecToCanonicalJson(spec));
        key["mesh_ratio"] = parity.meshRatio;
        key["comm_scale"] = parity.commScale;
        key["comp_scale"] = parity.compScale;
        Json& quirks = key["quirks"];
        quirks = Json::object();
        for (const std::string& name : run::parityQuirkNames())
            quirks[name] = *run::parityQuirk(parity.quirks, name);
        key["shared_theta"] = parity.quirks.scheduler.sharedTheta;
        return key.dump();
    }

    void runParity(const std::vector<run::PaperPoint>& points, const ReproduceOptions& options, ResultStore* store,
        RunControl& control, ReproduceRun& out)
    {
        const std::size_t total = points.size();
        const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
        const int threadCount = std::clamp(options.threads > 0 ? options.threads : hardware, 1, std::max(1, int(total)));
        std::mutex mutex;
        std::int64_t done = 0;
        std::atomic<std::size_t> next { 0 };
        auto worker = [&] {
            for (std::size_t p = next++; p < total && !control.stopRequested(); p = next++) {
                run::PaperPointResult result;
                result.point = points[p];
                const run::RunSpecResult spec = run::resolveRunSpec(run::parityRequest(points[p], options.einsteinDir));
                if (!spec.ok()) {
                    result.error = joinedFieldErrors(spec.errors);
                } else {
                    const run::ParityOptions parity = parityOptionsOf(points[p], options);
                    const std::string key = parityKey(spec.spec, parity);
                    std::optional<std::string> cached = store ? store->loadParityRun(key) : std::nullopt;
                    if (cached && fromJson(*cached, result)) {
                        result.fromCache = true;
                    } else {
                        result.designs.clear();
                        NullRunControl quiet;
                        const run::ParityRun parityRun = run::runArtifactParity(spec.spec, parity, quiet);
                        if (!parityRun.errors.empty())
                            result.error = parityRun.errors.front();
                        for (const run::ParityDesign& design : parityRun.designs)
                            result.designs.push_back(fromParity(design));
                        if (store != nullptr && parityRun.status == RunStatus::Completed)
                            store->saveParityRun(key, toJson(result).dump());
                    }
                }
                const std::lock_guard lock(mutex);
                out.fromCache += result.fromCache ? 1 : 0;
                out.points[p] = std::move(result);
                control.progress(++done, std::int64_t(total), "reproduce");
            }
        };
        std::vector<std::thread> pool;
        for (int t = 1; t < threadCount; ++t)
            pool.emplace_back(worker);
        worker();
        for (std::thread& thread : pool)
            thread.join();
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
        runPoints(specs, store, control, options.threads, false, "reproduce",
            [&](std::size_t p, PointOutcome&& outcome) {
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
