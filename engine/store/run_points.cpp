// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Many cached runs at once (sweeps, paper reproduction): points sharing partition tables share one
// compiled model, so a bandwidth study searches once.
#include "engine/store/run_points.h"

#include "engine/core/parallel_for.h"
#include "engine/store/result_store.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace elk::store {

namespace {

    double latencyMsOf(const run::DesignRun& design, double clockHz)
    {
        return design.simulated ? design.simulated->latencyCycles / clockHz * 1e3
                                : std::numeric_limits<double>::quiet_NaN();
    }

    /// The compiled model shared by every point of one partition key, built by the first point that
    /// needs it while the others of the key wait (never two searches of the same tables).
    struct KeyState {
        std::mutex mutex;
        std::shared_ptr<const run::CompiledModel> compiled;
        std::string error;
        int remaining = 0; ///< points of this key not yet finished; the model is dropped at 0
    };

} // namespace

std::string joinedFieldErrors(const std::vector<run::FieldError>& errors)
{
    std::string text;
    for (const run::FieldError& error : errors)
        text += (text.empty() ? "" : "; ") + error.field + ": " + error.message;
    return text;
}

void forEachPoint(std::size_t total, int threads, RunControl& control, const std::function<void(std::size_t)>& work)
{
    parallelFor(total, threads, work, [&] { return control.stopRequested(); });
}

void runPoints(const std::vector<run::RunSpecResult>& specs, ResultStore* store, RunControl& control, int threads,
    bool latenciesOnly, const std::string& progressLabel,
    const std::function<void(std::size_t index, PointOutcome&& outcome)>& onPoint)
{
    const std::size_t total = specs.size();
    std::vector<std::string> keyOf(total);
    std::map<std::string, std::unique_ptr<KeyState>> keys;
    std::vector<std::string> keyOrder;
    for (std::size_t p = 0; p < total; ++p) {
        if (!specs[p].ok())
            continue;
        keyOf[p] = run::partitionKey(specs[p].spec);
        auto& state = keys[keyOf[p]];
        if (!state) {
            state = std::make_unique<KeyState>();
            keyOrder.push_back(keyOf[p]);
        }
        ++state->remaining;
    }

    // Round-robin over the keys: the first points of different keys start first, so their searches
    // run side by side instead of every thread waiting on one key.
    std::vector<std::size_t> order;
    {
        std::map<std::string, std::vector<std::size_t>> byKey;
        for (std::size_t p = 0; p < total; ++p)
            byKey[keyOf[p]].push_back(p); // invalid points have key "" and go first (they are instant)
        if (const auto invalid = byKey.find(""); invalid != byKey.end())
            order = invalid->second;
        std::vector<const std::vector<std::size_t>*> groups;
        for (const std::string& key : keyOrder)
            groups.push_back(&byKey[key]);
        for (std::size_t round = 0; order.size() < total; ++round) {
            for (const auto* group : groups) {
                if (round < group->size())
                    order.push_back((*group)[round]);
            }
        }
    }

    const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
    const int threadCount = std::clamp(threads > 0 ? threads : hardware, 1, std::max(1, int(total)));
    // A search runs on the threads no other key needs (one key: all of them).
    const int compileThreads = std::max(1, threadCount / std::max(1, int(keys.size())));

    std::mutex resultMutex;
    std::int64_t doneCount = 0;
    auto finish = [&](std::size_t p, PointOutcome&& outcome) {
        const std::lock_guard lock(resultMutex);
        onPoint(p, std::move(outcome));
        control.progress(++doneCount, std::int64_t(total), progressLabel);
    };
    auto release = [&](const std::string& key) {
        KeyState& state = *keys.at(key);
        const std::lock_guard lock(state.mutex);
        if (--state.remaining == 0)
            state.compiled.reset();
    };

    StopOnlyControl quiet(control);
    const auto runSlot = [&](std::size_t slot) {
        const std::size_t p = order[slot];
        const run::RunSpecResult& point = specs[p];
        if (!point.ok()) {
            PointOutcome failed;
            failed.error = joinedFieldErrors(point.errors);
            finish(p, std::move(failed));
            return;
        }
        const double clockHz = point.spec.chip.clockHz;
        if (store != nullptr) {
            PointOutcome hit;
            hit.clockHz = clockHz;
            hit.fromCache = true;
            bool found = false;
            if (latenciesOnly) {
                if (std::optional<std::vector<double>> latencies = store->loadLatencies(point.spec)) {
                    hit.latencyMs = std::move(*latencies);
                    found = true;
                }
            } else if (std::optional<std::vector<run::DesignRun>> designs = store->loadDesigns(point.spec, false)) {
                hit.designs = std::move(*designs);
                for (const run::DesignRun& design : hit.designs)
                    hit.latencyMs.push_back(latencyMsOf(design, clockHz));
                found = true;
            }
            if (found) {
                finish(p, std::move(hit));
                release(keyOf[p]);
                return;
            }
        }
        KeyState& key = *keys.at(keyOf[p]);
        std::shared_ptr<const run::CompiledModel> compiled;
        std::string keyError;
        {
            const std::lock_guard lock(key.mutex);
            if (!key.compiled && key.error.empty()) {
                run::CompileResult built = run::compileCached(point.spec, store, quiet, compileThreads);
                if (built.status == RunStatus::Stopped)
                    return;
                if (built.ok())
                    key.compiled = std::move(built.compiled);
                else
                    key.error = built.errors.empty() ? "compile failed" : built.errors.front();
            }
            compiled = key.compiled;
            keyError = key.error;
        }
        PointOutcome outcome;
        outcome.clockHz = clockHz;
        if (!keyError.empty()) {
            outcome.error = keyError;
        } else {
            run::CacheOutcome cache;
            run::RunResult run = run::runCached(point.spec, store, quiet, 1, compiled, false, &cache);
            if (run.status == RunStatus::Stopped)
                return;
            outcome.fromCache = cache.runHit;
            if (!run.ok()) {
                outcome.error = run.errors.empty() ? "failed" : run.errors.front();
            } else {
                for (const run::DesignRun& design : run.designs)
                    outcome.latencyMs.push_back(latencyMsOf(design, clockHz));
                if (!latenciesOnly)
                    outcome.designs = std::move(run.designs);
            }
        }
        compiled.reset();
        finish(p, std::move(outcome));
        release(keyOf[p]);
    };
    parallelFor(order.size(), threadCount, runSlot, [&] { return control.stopRequested(); });
}

} // namespace elk::store
