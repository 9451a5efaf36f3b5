// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace elk::hlo {
struct HloRunResult;
}

namespace elk::app {

/// What the StableHLO page exports of one run, the same bytes as `elk hlo --json/--csv/--trace/--chakra`.
enum class HloDataFormat {
    Json, ///< hloRunToJson
    Csv, ///< hloRegionsToCsv: one row per region
    Perfetto, ///< stepTimelineToPerfetto: compute and communication tracks
    Chakra, ///< a folder: elk.<rank>.et per device and comm_group.json
};

/// Suggested file (or folder) name: "MODULE-SYSTEM.json", "…-regions.csv", "….perfetto.json", "…-chakra".
QString hloExportName(const elk::hlo::HloRunResult& result, HloDataFormat format);
/// Writes `result` to `path` (a folder for Chakra, created when missing). Returns why not, or empty.
QString exportHloData(const elk::hlo::HloRunResult& result, HloDataFormat format, const QString& path);

} // namespace elk::app
