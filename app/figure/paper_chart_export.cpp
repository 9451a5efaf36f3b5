// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/figure/paper_chart_export.h"

#include <algorithm>
#include <memory>

#include "widgets/plots/paper_figure_view.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app {

QString writePaperChart(const run::PaperChart& chart, const QString& basePath)
{
    widgets::PaperFigureView view;
    view.resize(1600, 1000);
    view.setChart(std::make_shared<const run::PaperChart>(chart));
    widgets::FigureStyle style = widgets::FigureStyle::wide();
    const int columns = std::max(1, chart.columns);
    const int rows = (int(chart.panels.size()) + columns - 1) / columns;
    // Title, legend and caption take about 3 cm; each row of panels 4.5 cm.
    style.heightCm = 3.0 + 4.5 * std::max(1, rows);
    for (const QString& suffix : { u".pdf"_s, u".svg"_s, u".png"_s }) {
        const QString error = view.exportFigure(basePath + suffix, style);
        if (!error.isEmpty())
            return error;
    }
    return {};
}

} // namespace elk::app
