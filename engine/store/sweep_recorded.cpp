// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A sweep's record in the result cache, and the sweep rebuilt from it alone (merged shards, another
// machine's cache): the grid from the definition, each point's latencies from its row.
#include "engine/store/sweep_recorded.h"

#include "engine/core/sha256.h"
#include "engine/store/parity_cache.h"

#include <limits>

#include <nlohmann/json.hpp>

namespace elk::store {

namespace {

    using Json = nlohmann::ordered_json;

    std::string modelLabel(const std::string& path)
    {
        constexpr std::string_view bundled = "bundled:";
        if (path.starts_with(bundled))
            return path.substr(bundled.size());
        const std::size_t slash = path.find_last_of('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    }

    std::string titleOf(const run::RunSpec& base, const run::SweepResult& result, bool parity)
    {
        std::string title = modelLabel(base.model.path) + " " + std::string(run::toString(base.phase)) + " b"
            + std::to_string(base.batch) + " on " + base.chip.name + ": ";
        for (std::size_t a = 0; a < result.axes.size(); ++a)
            title += (a > 0 ? " × " : "") + result.axes[a].label;
        return parity ? title + " (artifact parity)" : title;
    }

    /// Latencies of `designs` from a row's designs and latencies (NaN where the row has no such design).
    std::vector<double> byDesign(const std::vector<std::string>& designs, const std::vector<std::string>& rowDesigns,
        const std::vector<double>& rowLatencies)
    {
        std::vector<double> latencies(designs.size(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t d = 0; d < designs.size(); ++d) {
            for (std::size_t r = 0; r < rowDesigns.size() && r < rowLatencies.size(); ++r) {
                if (rowDesigns[r] == designs[d])
                    latencies[d] = rowLatencies[r];
            }
        }
        return latencies;
    }

} // namespace

void recordSweep(ResultStore& store, const run::RunSpec& base, const run::SweepResult& result,
    const std::vector<std::string>& pointKeys, const std::string& parityBaseKey)
{
    Json definition;
    definition["schema"] = "elk.sweep/1";
    try {
        definition["base"] = Json::parse(run::runSpecToCanonicalJson(base));
    } catch (const std::exception&) {
        return; // no canonical base, no key to record it under
    }
    Json& axes = definition["axes"];
    axes = Json::array();
    for (const run::SweepAxis& axis : result.axes)
        axes.push_back({ { "field", axis.field }, { "label", axis.label }, { "values", axis.values } });
    definition["designs"] = result.designs;
    definition["parity"] = parityBaseKey.empty() ? Json() : Json(sha256Hex(parityBaseKey));
    std::vector<SweepRecordPoint> points;
    for (std::size_t p = 0; p < result.points.size(); ++p) {
        const run::SweepPoint& point = result.points[p];
        if (!point.done)
            continue;
        // A point that failed without a result has no stored row: its error is the record.
        const bool failed = !point.error.empty() && point.latencyMs.empty();
        const std::string key = failed || p >= pointKeys.size() ? std::string() : pointKeys[p];
        points.push_back({ std::int64_t(p), !parityBaseKey.empty(), key, point.error });
    }
    store.saveSweep(
        definition.dump(), titleOf(base, result, !parityBaseKey.empty()), std::int64_t(result.points.size()), points);
}

std::optional<RecordedSweep> openRecordedSweep(ResultStore& store, const std::string& hashOrPrefix, std::string& error)
{
    using namespace run;
    std::optional<ResultStore::StoredSweep> stored = store.storedSweep(hashOrPrefix, &error);
    if (!stored)
        return std::nullopt;
    const auto bad = [&](const std::string& why) -> std::optional<RecordedSweep> {
        error = "sweep " + stored->info.sweepHash + " in " + store.path() + ": " + why;
        return std::nullopt;
    };
    const Json definition = Json::parse(stored->definitionJson, nullptr, false);
    if (!definition.is_object() || definition.value("schema", "") != "elk.sweep/1")
        return bad("the record is not an elk.sweep/1 definition");
    RecordedSweep recorded;
    recorded.info = stored->info;
    SweepResult& result = recorded.result;
    try {
        for (const Json& axis : definition.at("axes")) {
            SweepAxis one;
            one.field = axis.at("field").get<std::string>();
            one.label = axis.at("label").get<std::string>();
            one.values = axis.at("values").get<std::vector<std::string>>();
            if (one.values.empty())
                return bad("axis " + one.field + " has no values");
            result.axes.push_back(std::move(one));
        }
        result.designs = definition.at("designs").get<std::vector<std::string>>();
        recorded.parity = !definition.at("parity").is_null();
    } catch (const Json::exception& e) {
        return bad(std::string("the definition lacks a field: ") + e.what());
    }
    std::size_t total = 1;
    for (const SweepAxis& axis : result.axes)
        total *= axis.values.size();
    if (std::int64_t(total) != stored->info.gridPoints)
        return bad("its axes give " + std::to_string(total) + " points, the record says "
            + std::to_string(stored->info.gridPoints));
    result.points.resize(total);
    for (std::size_t p = 0; p < total; ++p) {
        SweepPoint& point = result.points[p];
        point.index.assign(result.axes.size(), 0);
        std::size_t rest = p;
        for (std::size_t a = result.axes.size(); a-- > 0;) {
            point.index[a] = int(rest % result.axes[a].values.size());
            rest /= result.axes[a].values.size();
        }
    }
    for (const SweepRecordPoint& record : stored->points) {
        if (record.index < 0 || std::size_t(record.index) >= total)
            continue;
        SweepPoint& point = result.points[std::size_t(record.index)];
        if (record.key.empty()) { // failed before a run (an invalid chip variant, …)
            point.error = record.error;
            point.done = true;
            continue;
        }
        if (record.parity) {
            const std::optional<std::string> payload = store.parityPayload(record.key);
            const auto outcome = payload ? parityOutcomeFromPayload(*payload) : std::nullopt;
            if (!outcome)
                continue; // trimmed, or another engine version's: not done
            std::vector<std::string> names;
            std::vector<double> latencies;
            for (const PaperDesignResult& design : outcome->designs) {
                names.push_back(design.design);
                latencies.push_back(design.error.empty() ? design.latencyMs : std::numeric_limits<double>::quiet_NaN());
            }
            point.latencyMs = byDesign(result.designs, names, latencies);
            point.error = outcome->error;
        } else {
            const auto row = store.runLatencies(record.key);
            if (!row)
                continue;
            point.latencyMs = byDesign(result.designs, row->first, row->second);
            point.error = record.error;
        }
        point.done = true;
        point.fromCache = true;
        ++recorded.pointsWithResult;
    }
    return recorded;
}

} // namespace elk::store
