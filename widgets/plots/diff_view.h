// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/plots/diff_plot_view.h"

namespace elk::widgets {

/// The aligned diff of two simulated runs along the ops (run::diffRuns): per op, in the first run's (A's)
/// execution order, B's Δ wait + Δ execute as bars (slower: vermillion, faster: blue), and the running sum
/// on the right axis, which ends at the latency difference. The first side is the view's run and
/// design; the second is setAgainst()'s (another design of the same run, or another chip's run).
class DiffView : public DiffPlotView {
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);
    ~DiffView() override;

    QString figureKind() const override { return QStringLiteral("diff"); }

protected:
    void rebuild() override;
};

} // namespace elk::widgets
