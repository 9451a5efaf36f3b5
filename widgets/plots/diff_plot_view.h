// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/run/run_diff.h"
#include "widgets/plots/plot_view.h"

namespace elk::widgets {

/// Base of the views of an aligned diff of two simulated runs (run::diffRuns). Side A is the view's
/// run and design (setRun, setDesignIndex); side B is setAgainst()'s: another design of the same run,
/// the same design on a compare chip, or a run reopened from the history.
class DiffPlotView : public PlotView {
    Q_OBJECT
public:
    explicit DiffPlotView(QWidget* parent = nullptr);
    ~DiffPlotView() override;

    bool hasData() const override { return !m_diff.ops.empty(); }

    /// The second side: `run`'s design `designIndex` (null: none). Rebuilds.
    void setAgainst(RunSnapshotPtr run, int designIndex);
    RunSnapshotPtr against() const { return m_against; }
    int againstDesign() const { return m_againstDesign; }
    /// The diff drawn (empty without two simulated sides).
    const run::RunDiff& diff() const { return m_diff; }
    QString title() const { return m_title; }

protected:
    /// The simulation of one side, or null when that side has none.
    const sim::SimResult* sideA() const;
    const sim::SimResult* sideB() const;
    /// "elk-full on ipu-pod4-hbm" of side A (first) or B.
    QString sideLabel(bool first) const;
    /// Recomputes diff() from the two sides (empty when either is missing); true when both are there.
    bool updateDiff();
    /// "A: …\nB: …\nB − A: +1.2345 ms (10.1 → 11.3 ms), 812 ops"
    QString diffTitle() const;

    run::RunDiff m_diff;
    QString m_title;

private:
    RunSnapshotPtr m_against;
    int m_againstDesign = 0;
};

/// Colours of a difference, the same in every diff view: B slower (vermillion), B faster (blue).
QColor slowerColour();
QColor fasterColour();

} // namespace elk::widgets
