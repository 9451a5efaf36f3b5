// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace elk::store {

class ResultStore;

/// Forwards stop requests and swallows progress: the stages of one point of a study (which counts points).
class StopOnlyControl final : public RunControl {
public:
    explicit StopOnlyControl(RunControl& outer)
        : m_outer(outer)
    {
    }
    bool stopRequested() const override { return m_outer.stopRequested(); }
    void progress(std::int64_t, std::int64_t, std::string_view) override { }

private:
    RunControl& m_outer;
};

/// What one point of a study gave.
struct PointOutcome {
    /// The designs (summaries: simulated results without per-link detail), in the spec's design order.
    /// Empty when `latenciesOnly` was asked and the point came from the cache (only latencyMs then).
    std::vector<run::DesignRun> designs;
    std::vector<double> latencyMs; ///< by design (simulated); NaN where a design failed
    double clockHz = 0;
    std::string error; ///< why the point has no result (invalid spec, compile failed)
    bool fromCache = false;
};

/// Runs many resolved specs on up to `threads` threads (0: all hardware threads), each through
/// runCached (store may be null) with summaries only. Specs with equal partition keys share one
/// compiled model (one search, built by the first point that needs it); the first points of different
/// keys start first. `latenciesOnly`: a cache hit reads the summary columns only (sweeps).
/// `onPoint` is called serialised, from worker threads, once per finished point; points are
/// independent of the thread count and order (deterministic). Stops early when control says so
/// (unfinished points get no call). Progress: control.progress(done, specs.size(), progressLabel).
void runPoints(const std::vector<run::RunSpecResult>& specs, ResultStore* store, RunControl& control, int threads,
    bool latenciesOnly, const std::string& progressLabel,
    const std::function<void(std::size_t index, PointOutcome&& outcome)>& onPoint);

/// Calls work(i) for every i in [0, total) on up to `threads` threads (0: all hardware threads), each
/// index once, until control asks to stop (then the remaining indices are skipped).
void forEachPoint(std::size_t total, int threads, RunControl& control, const std::function<void(std::size_t)>& work);

/// "field: message; field: message".
std::string joinedFieldErrors(const std::vector<run::FieldError>& errors);

} // namespace elk::store
