// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// An aligned diff of two simulated runs (two designs of one run, or one design before and after an
// edit): per op Δ execute, Δ preload and Δ wait, aligned on the op (its step name and occurrence),
// and per link Δ bytes when both runs have the same links.
#pragma once

#include "engine/sim/sim_result.h"

#include <string>
#include <vector>

namespace elk::run {

struct OpDelta {
    std::string name; ///< the step's name (a split operator's part included)
    int stepA = -1, stepB = -1; ///< execution step in each run; -1: the op is not in that run
    double executeMsA = 0, executeMsB = 0;
    double preloadMsA = 0, preloadMsB = 0;
    /// Time the execute pipe stood idle before the op (its execute start − the previous execute end).
    double waitMsA = 0, waitMsB = 0;
    double deltaExecuteMs() const { return executeMsB - executeMsA; }
    double deltaPreloadMs() const { return preloadMsB - preloadMsA; }
    double deltaWaitMs() const { return waitMsB - waitMsA; }
    /// What the op adds to the latency difference: Δ wait + Δ execute (Σ over ops = Δ latency).
    double deltaMs() const { return deltaWaitMs() + deltaExecuteMs(); }
};

struct LinkDelta {
    int link = 0; ///< index into both runs' links
    std::string name;
    double bytesA = 0, bytesB = 0;
};

struct RunDiff {
    double latencyMsA = 0, latencyMsB = 0;
    /// Every op of either run, sorted by |deltaMs()| descending (ties: |Δ preload|, then A's order).
    std::vector<OpDelta> ops;
    bool sameLinks = false; ///< both runs have the same link list (same chip topology)
    std::vector<LinkDelta> links; ///< sameLinks: every link that carries bytes in either, by |Δ| descending
};

/// Contract: both results are complete simulations (steps, stepNames, links as simulated).
RunDiff diffRuns(const sim::SimResult& a, const sim::SimResult& b);

/// `elk diff --json`: labels of the two sides, latencies, every op and link delta.
std::string runDiffJson(const RunDiff& diff, const std::string& labelA, const std::string& labelB);

} // namespace elk::run
