// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QString>
#include <QWidget>

#include "widgets/plots/figure_style.h"

class QCustomPlot;

namespace elk::run {
struct RunResult;
}

namespace elk::widgets {

/// The immutable result every run view shows. Built on a worker thread, shared read-only.
using RunSnapshotPtr = std::shared_ptr<const elk::run::RunResult>;

/// Base of every plot view: one QCustomPlot (what gets exported), the run it shows, the selected
/// design and op shared by all views, and export to PDF/SVG/PNG in a FigureStyle.
class PlotView : public QWidget {
    Q_OBJECT
public:
    explicit PlotView(QWidget* parent = nullptr);
    ~PlotView() override;

    /// "designs", "pareto", "gantt", "heatmap", "bandwidth", "sweep", "classroom"; the `elk figure` KIND.
    virtual QString figureKind() const = 0;
    /// True when the view has something to draw (tests: "each view has data").
    virtual bool hasData() const = 0;

    /// Shows a run (null clears). Views keep the pointer; they never modify it.
    virtual void setRun(RunSnapshotPtr run);
    RunSnapshotPtr run() const { return m_run; }
    /// Index into RunResult::designs shown by single-design views; views clamp it.
    virtual void setDesignIndex(int index);
    int designIndex() const { return m_designIndex; }
    /// Execution step selected everywhere (-1: none). Does not emit stepSelected.
    virtual void setSelectedStep(int step);
    int selectedStep() const { return m_selectedStep; }
    /// Selected steps are steps of the run's reference step list (RunResult::problem); a design with
    /// pipelined splits of its own numbers its steps differently. These map a step between the two for
    /// the shown design (-1: none, or not run by it).
    int designStepOf(int referenceStep) const;
    int referenceStepOf(int designStep) const;

    /// Renders the plot at style's size and fonts to `path`; the format follows the suffix
    /// (.pdf, .svg, .png). Returns an error message, or empty on success. Does not change what the
    /// view shows on screen.
    QString exportFigure(const QString& path, const FigureStyle& style = FigureStyle::column());

    /// The plot that gets exported (owned by the view).
    QCustomPlot* plot() const { return m_plot; }

signals:
    /// The user picked an op in this view (click); the app forwards it to every view.
    void stepSelected(int step);

protected:
    /// Called after setRun/setDesignIndex/setSelectedStep: rebuild the plot from the snapshot.
    virtual void rebuild() = 0;
    /// Apply a style's fonts and pens for export (default: fonts of axes, legend and labels; print
    /// pen widths; a plottable with the dynamic property "elkSeries" (int) gets seriesBrush() of its
    /// brush colour). exportFigure restores afterwards the fonts, pens, brushes and margins of every
    /// axis, legend, text element, plottable and item, and each axis' ticker, tick count and range and
    /// each legend's wrap; an override that changes anything else restores it itself.
    virtual void applyStyle(const FigureStyle& style);
    void setPlot(QCustomPlot* plot) { m_plot = plot; }
    /// Puts the legend in the plot layout at (row, 0), below or above the plot. An empty legend's size
    /// hint is 0 wide, which would cap the layout column, and the plot in it, at its smallest width (an
    /// empty view drawn as a narrow strip); an explicit maximum width lifts the cap, and the legend's
    /// height still follows its entries.
    static void placeLegendInRow(QCustomPlot* plot, int row);

    RunSnapshotPtr m_run;
    int m_designIndex = 0;
    int m_selectedStep = -1;

private:
    QCustomPlot* m_plot = nullptr;
};

} // namespace elk::widgets
