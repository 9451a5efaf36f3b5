// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <utility>

#include <QString>

namespace elk::run {
struct RunResult;
}

// The one-line summaries of a finished run the status bar shows.

namespace elk::app {

/// "elk-full 0.129 ms (1.24× over basic)": `headlineDesign`'s simulated latency (else the first
/// simulated design's) and its speedup over basic.
QString runHeadline(const elk::run::RunResult& result, const std::string& headlineDesign);

/// The operators the run executes in parts (pipelined splitting, or too large whole): a short count
/// for the status line ("3 ops in pipelined parts") and one line per graph op for its tooltip;
/// both empty when no op is split.
std::pair<QString, QString> pipelinedSplitSummary(const elk::run::RunResult& result);

} // namespace elk::app
