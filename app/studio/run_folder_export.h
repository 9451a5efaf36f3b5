// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace elk::run {
struct RunResult;
}

namespace elk::app {

struct RunFolderExport {
    QStringList files; ///< written, relative to the folder, in writing order
    QString error; ///< empty on success; else names the file and why
    bool ok() const { return error.isEmpty(); }
};

/// Writes everything about one run into `folder` (created when missing), the same bytes the CLI
/// writes (`elk run --json --trace --csv --program`):
///   runspec.json            canonical RunSpec (what reproduces the run; its SHA-256 is the cache key)
///   run.json                results of every design (run::runResultToJson)
///   trace.perfetto.json     simulated timelines, one process per design (opens in ui.perfetto.dev)
///   intervals.csv           every design's preload/execute/phase intervals
///   links-DESIGN.csv        per-link utilisation of each simulated design
///   program-DESIGN.json/.txt the emitted preload_async/execute program of each design but ideal
RunFolderExport exportRunFolder(const elk::run::RunResult& result, const QString& folder);

} // namespace elk::app
