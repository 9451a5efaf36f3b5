// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#include <QString>

#include "engine/model/graph_summary.h"
#include "engine/run/run_spec.h"

namespace elk::widgets {

/// The run parameters a workspace asks for, defaults already filled in.
struct RunParameters {
    elk::run::Phase phase = elk::run::Phase::Decode;
    std::int64_t batch = 1;
    std::int64_t seqLen = 1;
    std::int64_t kvLen = 2048;
};

/// What the model panel shows: one loaded model, or why it could not be loaded.
/// Built once (on a worker thread) and shared read-only.
struct ModelSnapshot {
    QString filePath;
    /// Empty when the model loaded and validated; else the reason, one problem per line.
    QString error;
    /// Graph::validate() problems; when non-zero, `error` lists the first few.
    int validationProblemCount = 0;
    elk::model::GraphSummary summary; ///< meaningful only when ok()
    RunParameters run;

    bool ok() const { return error.isEmpty(); }
};

} // namespace elk::widgets
