// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/run/run_diff.h"
#include "widgets/plots/plot_view.h"

namespace elk::widgets {

/// The aligned diff of two simulated runs along the ops (run::diffRuns): per op, in the first run's (A's)
/// execution order, B's Δ wait + Δ execute as bars (slower: vermillion, faster: blue), and the running sum
/// on the right axis, which ends at the latency difference. The first side is the view's run and
/// design; the second is setAgainst()'s (another design of the same run, or another chip's run).
class DiffView : public PlotView
{
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);
    ~DiffView() override;

    QString figureKind() const override { return QStringLiteral("diff"); }
    bool hasData() const override;

    /// The second side: `run`'s design `designIndex` (null: none).
    void setAgainst(RunSnapshotPtr run, int designIndex);
    /// The diff drawn (empty without two simulated sides).
    const run::RunDiff& diff() const { return m_diff; }
    QString title() const { return m_title; }

protected:
    void rebuild() override;

private:
    RunSnapshotPtr m_against;
    int m_againstDesign = 0;
    run::RunDiff m_diff;
    QString m_title;
};

} // namespace elk::widgets
