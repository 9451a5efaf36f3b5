// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "engine/run/models.h"
#include "engine/run/run_spec.h"

namespace elk::widgets {

/// The run parameters a workspace asks for, defaults already filled in.
struct RunParameters {
    elk::run::Phase phase = elk::run::Phase::Decode;
    std::int64_t batch = 1;
    std::int64_t seqLen = 1;
    std::int64_t kvLen = 2048;
    /// Free dims of the model file, bound by name, and whole input shapes (also for unnamed dims):
    /// what elk's --dim and --input-shape give.
    std::map<std::string, std::int64_t> dims;
    std::map<std::string, std::vector<std::int64_t>> inputShapes;
    bool operator==(const RunParameters&) const = default;
};

/// What the model panel shows: one loaded model, or why it could not be loaded.
/// Built once (on a worker thread) and shared read-only.
struct ModelSnapshot {
    /// The model as asked for: a file path, or "bundled:NAME" for a bundled model.
    QString filePath;
    /// Empty when the model loaded and validated; else the reason, one problem per line.
    QString error;
    /// Graph::validate() problems; when non-zero, `error` lists the first few.
    int validationProblemCount = 0;
    elk::model::GraphSummary summary; ///< meaningful only when ok()
    RunParameters run; ///< what the model's symbolic dims were bound to (an elk.graph file has fixed shapes)
    /// The loaded graph and its analysis (execution order, layers); null unless ok().
    std::shared_ptr<const elk::model::Graph> graph;
    std::shared_ptr<const elk::model::GraphAnalysis> analysis;
    /// "bundled Llama-2-13B, decode, batch 32, ..." or the path and step.
    QString description;
    /// Importer warnings ("FILE: location: message"); the model loaded anyway.
    QStringList warnings;
    /// Input dims the file leaves free and no binding gave (the load failed for them): the pane asks
    /// for their sizes.
    std::vector<elk::import::FreeDim> freeDims;

    bool isBundled() const { return filePath.startsWith(QLatin1String("bundled:")); }

    bool ok() const { return error.isEmpty(); }
};

} // namespace elk::widgets
