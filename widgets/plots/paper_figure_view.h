// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <vector>

#include <QString>

#include "widgets/plots/plot_view.h"

class QCPLayoutGrid;
class QCPLegend;

namespace elk::run {
struct PaperChart;
}

namespace elk::widgets {

/// The data extent of one panel axis, which fitToLayout pads for the panel's size (in the .cpp).
struct PaperAxisFit;

/// A reproduced paper figure (run::PaperChart): panels of lines, grouped or stacked bars in a grid of
/// the chart's columns, the title above, one shared legend and the caption below. Reference series
/// (the paper's published values) are hollow markers in their design's colour over the reproduced
/// lines and bars. Fed with a chart, not with a run.
class PaperFigureView : public PlotView {
    Q_OBJECT
public:
    explicit PaperFigureView(QWidget* parent = nullptr);
    ~PaperFigureView() override;

    QString figureKind() const override { return QStringLiteral("paper"); }
    /// True when any series of any panel has a finite value.
    bool hasData() const override;

    /// Shows a chart (null clears) and rebuilds the plot. The view keeps the pointer, never modifies it.
    void setChart(std::shared_ptr<const elk::run::PaperChart> chart);
    std::shared_ptr<const elk::run::PaperChart> chart() const { return m_chart; }
    /// Axis rects drawn: one per panel.
    int panelCount() const;

protected:
    void rebuild() override;
    /// Base style, then marker sizes for the figure's font size.
    void applyStyle(const FigureStyle& style) override;

private:
    /// After each layout (on screen and in every export): legend entries per row, tick counts and
    /// range headroom for the panels' sizes in pixels, then the layout once more.
    void fitToLayout();

    std::shared_ptr<const elk::run::PaperChart> m_chart;
    QCPLegend* m_legend = nullptr; ///< owned by the plot's layout; rebuilt with it
    QCPLayoutGrid* m_panels = nullptr; ///< rows: panel titles, axis rects, titles, …
    std::vector<PaperAxisFit> m_fits; ///< one per value axis (and x of line panels)
    bool m_userRanged = false; ///< dragged or zoomed since the last rebuild: ranges left alone
};

} // namespace elk::widgets
