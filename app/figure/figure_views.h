// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QString>
#include <QStringList>

#include "widgets/plots/plot_view.h"

namespace elk::app {

/// The figure kinds `elk figure` renders, in the order the help lists them.
QStringList figureKinds();

/// Kinds that show StableHLO runs (HloPlotView: fed with --hlo MODULE, not with an ICCA run).
inline bool isHloFigure(const QString& kind)
{
    return kind.startsWith(QLatin1String("hlo-"));
}

/// Kinds that draw a diff of two runs (DiffPlotView: need a second side, --compare-design or --against-chip).
inline bool isDiffFigure(const QString& kind)
{
    return kind == QLatin1String("diff") || kind.startsWith(QLatin1String("diff-"));
}

/// A new view of `kind` (one of figureKinds()), or null for an unknown kind.
std::unique_ptr<elk::widgets::PlotView> createPlotView(const QString& kind);

/// Classroom figures show a second design next to the view's own, diff figures diff against it; false for other kinds.
bool setSecondDesign(elk::widgets::PlotView& view, int designIndex);

/// Puts a view in the state its exported figure shows (classroom: the cursor mid-run).
void prepareForExport(elk::widgets::PlotView& view);

} // namespace elk::app
