// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by elk reproduce's parts; not used outside app/cli (and cli_main, which sets the chart writer).
#pragma once

#include <chrono>
#include <functional>
#include <mutex>

#include <QString>

#include "app/cli/cli_internal.h"
#include "engine/core/run_control.h"
#include "engine/run/paper_chart.h"
#include "engine/store/reproduce.h"

namespace elk::app::cli {

/// Writes a chart as BASE.pdf, BASE.svg and BASE.png; returns an error message or "" on success.
using ChartWriter = std::function<QString(const run::PaperChart& chart, const QString& basePath)>;
/// Set by builds with the figure library (cli_main); without one, reproduce writes no figures.
void setChartWriter(ChartWriter writer);
QString writeChart(const run::PaperChart& chart, const QString& basePath);

/// "120/268 points, 45.0 s, about 55 s left" on stderr, at most once a second and at the end.
class TerminalProgress final : public RunControl {
public:
    explicit TerminalProgress(QTextStream& err);
    bool stopRequested() const override { return false; }
    void progress(std::int64_t done, std::int64_t total, std::string_view stage) override;

private:
    QTextStream& m_err;
    std::chrono::steady_clock::time_point m_start;
    double m_lastPrinted = -1e9;
    std::mutex m_mutex;
};

int runReproduce(const QStringList& args, Io io);
/// elk reproduce ablation: parity, each quirk off alone, the quirks off cumulatively, equal terms.
int runAblation(const store::ReproduceOptions& base, store::ResultStore* store, const QString& outDir,
    const QString& command, Io io);

} // namespace elk::app::cli
