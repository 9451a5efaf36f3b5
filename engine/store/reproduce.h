// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/run/artifact_parity.h"
#include "engine/run/paper_figures.h"

#include <string>
#include <vector>

namespace elk::store {

class ResultStore;

struct ReproduceOptions {
    run::ReproduceMode mode = run::ReproduceMode::EqualTerms;
    /// Parity: the folder of the artifact's model files (llama2-13.json, …).
    std::string einsteinDir;
    run::ParityQuirks quirks; ///< parity
    int threads = 0; ///< points at once; 0: all hardware threads
};

struct ReproduceRun {
    std::vector<run::PaperPointResult> points; ///< in the order given
    int fromCache = 0; ///< points served by the result cache
    RunStatus status = RunStatus::Completed;
};

/// Runs the points (duplicates once) through the result cache (store may be null) in parallel.
/// Equal terms: store::runPoints (points with equal partition tables share one search). Parity:
/// run::runArtifactParity per point, its results cached by the canonical JSON of the spec, the
/// parity options and the quirks. Deterministic; progress: control.progress(done, total, "reproduce").
ReproduceRun reproducePoints(const std::vector<run::PaperPoint>& points, const ReproduceOptions& options,
    ResultStore* store, RunControl& control);

} // namespace elk::store
