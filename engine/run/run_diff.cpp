// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/run_diff.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace elk::run {

namespace {

    struct StepTimes {
        double executeMs = 0, preloadMs = 0, waitMs = 0;
    };

    std::vector<StepTimes> stepTimes(const sim::SimResult& s)
    {
        const double msPerCycle = 1e3 / s.clockHz;
        std::vector<StepTimes> out(s.steps.size());
        double previousEnd = 0;
        for (std::size_t i = 0; i < s.steps.size(); ++i) {
            const sim::StepTrace& t = s.steps[i];
            out[i].executeMs = t.execute.length() * msPerCycle;
            out[i].preloadMs = t.preload.length() * msPerCycle;
            out[i].waitMs = std::max(0.0, t.execute.startCycles - previousEnd) * msPerCycle;
            previousEnd = t.execute.endCycles;
        }
        return out;
    }

} // namespace

RunDiff diffRuns(const sim::SimResult& a, const sim::SimResult& b)
{
    RunDiff diff;
    diff.latencyMsA = a.latencyCycles / a.clockHz * 1e3;
    diff.latencyMsB = b.latencyCycles / b.clockHz * 1e3;
    const std::vector<StepTimes> timesA = stepTimes(a), timesB = stepTimes(b);
    // Align on (name, occurrence): layers repeat names only when the model does, and a split
    // operator's parts carry their part number.
    std::map<std::pair<std::string, int>, int> stepOfB;
    std::map<std::string, int> seen;
    for (std::size_t i = 0; i < b.stepNames.size(); ++i)
        stepOfB[{ b.stepNames[i], seen[b.stepNames[i]]++ }] = int(i);
    seen.clear();
    std::vector<char> matchedB(b.stepNames.size(), 0);
    for (std::size_t i = 0; i < a.stepNames.size(); ++i) {
        OpDelta op;
        op.name = a.stepNames[i];
        op.stepA = int(i);
        op.executeMsA = timesA[i].executeMs;
        op.preloadMsA = timesA[i].preloadMs;
        op.waitMsA = timesA[i].waitMs;
        if (const auto it = stepOfB.find({ op.name, seen[op.name]++ }); it != stepOfB.end()) {
            const auto j = std::size_t(it->second);
            op.stepB = it->second;
            op.executeMsB = timesB[j].executeMs;
            op.preloadMsB = timesB[j].preloadMs;
            op.waitMsB = timesB[j].waitMs;
            matchedB[j] = 1;
        }
        diff.ops.push_back(op);
    }
    for (std::size_t j = 0; j < b.stepNames.size(); ++j) {
        if (matchedB[j])
            continue;
        OpDelta op;
        op.name = b.stepNames[j];
        op.stepB = int(j);
        op.executeMsB = timesB[j].executeMs;
        op.preloadMsB = timesB[j].preloadMs;
        op.waitMsB = timesB[j].waitMs;
        diff.ops.push_back(op);
    }
    std::stable_sort(diff.ops.begin(), diff.ops.end(), [](const OpDelta& x, const OpDelta& y) {
        const double dx = std::abs(x.deltaMs()), dy = std::abs(y.deltaMs());
        if (dx != dy)
            return dx > dy;
        return std::abs(x.deltaPreloadMs()) > std::abs(y.deltaPreloadMs());
    });

    diff.sameLinks = !a.links.empty() && a.links.size() == b.links.size() && a.linkBytes.size() == a.links.size()
        && b.linkBytes.size() == b.links.size();
    for (std::size_t l = 0; diff.sameLinks && l < a.links.size(); ++l)
        diff.sameLinks = a.links[l].name == b.links[l].name;
    if (diff.sameLinks) {
        for (std::size_t l = 0; l < a.links.size(); ++l)
            if (a.linkBytes[l] > 0 || b.linkBytes[l] > 0)
                diff.links.push_back({ int(l), a.links[l].name, a.linkBytes[l], b.linkBytes[l] });
        std::stable_sort(diff.links.begin(), diff.links.end(), [](const LinkDelta& x, const LinkDelta& y) {
            return std::abs(x.bytesB - x.bytesA) > std::abs(y.bytesB - y.bytesA);
        });
    }
    return diff;
}

std::string runDiffJson(const RunDiff& diff, const std::string& labelA, const std::string& labelB)
{
    using nlohmann::ordered_json;
    ordered_json ops = ordered_json::array();
    for (const OpDelta& op : diff.ops)
        ops.push_back(ordered_json { { "op", op.name }, { "step_a", op.stepA }, { "step_b", op.stepB },
            { "delta_ms", op.deltaMs() }, { "delta_execute_ms", op.deltaExecuteMs() },
            { "delta_preload_ms", op.deltaPreloadMs() }, { "delta_wait_ms", op.deltaWaitMs() },
            { "a",
                ordered_json {
                    { "execute_ms", op.executeMsA }, { "preload_ms", op.preloadMsA }, { "wait_ms", op.waitMsA } } },
            { "b",
                ordered_json {
                    { "execute_ms", op.executeMsB }, { "preload_ms", op.preloadMsB }, { "wait_ms", op.waitMsB } } } });
    ordered_json links = ordered_json::array();
    for (const LinkDelta& link : diff.links)
        links.push_back(ordered_json { { "link", link.name }, { "bytes_a", link.bytesA }, { "bytes_b", link.bytesB },
            { "delta_bytes", link.bytesB - link.bytesA } });
    ordered_json out { { "a", labelA }, { "b", labelB },
        { "latency_ms", ordered_json { { "a", diff.latencyMsA }, { "b", diff.latencyMsB } } },
        { "delta_latency_ms", diff.latencyMsB - diff.latencyMsA }, { "ops", std::move(ops) } };
    if (diff.sameLinks)
        out["links"] = std::move(links);
    else
        out["links_note"] = "the two runs have different links (another chip topology): no per-link delta";
    return out.dump(2) + "\n";
}

} // namespace elk::run
