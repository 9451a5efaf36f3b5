// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Artifact-parity results in the result cache (elk reproduce and elk sweep --parity artifact).
#include "engine/store/parity_cache.h"

#include "engine/core/build_fingerprint.h"
#include "engine/store/result_store.h"

#include <nlohmann/json.hpp>

namespace elk::store {

namespace {

    using Json = nlohmann::ordered_json;

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

    Json toJson(const ParityPointOutcome& result)
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
    bool fromJson(const std::string& text, ParityPointOutcome& result)
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

} // namespace

std::optional<ParityPointOutcome> parityOutcomeFromPayload(const std::string& payloadJson)
{
    ParityPointOutcome outcome;
    if (!fromJson(payloadJson, outcome))
        return std::nullopt;
    outcome.fromCache = true;
    return outcome;
}

std::string parityKey(const run::RunSpec& spec, const run::ParityOptions& parity)
{
    Json key;
    key["schema"] = "elk.parity-key/1";
    run::RunSpec keyed = spec; // this build's identity, whatever the spec says
    keyed.engineVersion = engineBuildId();
    key["spec"] = Json::parse(run::runSpecToCanonicalJson(keyed));
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

ParityPointOutcome runParityCached(
    const run::RunSpec& spec, const run::ParityOptions& options, ResultStore* store, RunControl& control)
{
    ParityPointOutcome outcome;
    const std::string key = parityKey(spec, options);
    if (store != nullptr) {
        if (const std::optional<std::string> cached = store->loadParityRun(key); cached && fromJson(*cached, outcome)) {
            outcome.fromCache = true;
            return outcome;
        }
        outcome = {};
    }
    const run::ParityRun run = run::runArtifactParity(spec, options, control);
    outcome.status = run.status;
    if (!run.errors.empty())
        outcome.error = run.errors.front();
    for (const run::ParityDesign& design : run.designs)
        outcome.designs.push_back(fromParity(design));
    if (store != nullptr && run.status == RunStatus::Completed)
        store->saveParityRun(key, toJson(outcome).dump());
    return outcome;
}

} // namespace elk::store
