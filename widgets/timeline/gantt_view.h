// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <vector>

#include <QPoint>
#include <QPointF>

#include "engine/run/results.h"
#include "widgets/plots/plot_view.h"
#include "widgets/timeline/gantt_data.h"

class QCPBars;
class QCPAbstractItem;

namespace elk::widgets {

class GanttPlottable;
class TimeAxisPlot;

/// The simulated timeline of one design: a preload lane, an execute lane (each execution shaded
/// warm-up / compute / shift + reduce) and a stall lane (interconnect stalls, waits for a preload),
/// coloured by op kind. Horizontal zoom and pan with the wheel, a drag, +/−, arrows and Home; hover
/// shows an op's intervals, bytes and plan; a click selects the op. The time axis (cycles inside,
/// labelled in µs or ms) can be shared with BandwidthView through timeRangeChanged/setTimeRange.
class GanttView : public PlotView {
    Q_OBJECT
public:
    explicit GanttView(QWidget* parent = nullptr);
    ~GanttView() override;

    QString figureKind() const override { return QStringLiteral("gantt"); }
    bool hasData() const override;

    /// The timeline shown (empty without a simulated design).
    const GanttData& data() const;
    double lowerCycles() const;
    double upperCycles() const;

    /// Hit testing in plot() pixels: the step drawn there, or -1; `lane` receives its lane.
    int stepAt(const QPoint& plotPixel, GanttLane* lane = nullptr) const;
    /// Hover text at a plot() pixel (empty over nothing).
    QString toolTipAt(const QPoint& plotPixel) const;
    /// The text of the last tooltip shown by hovering (tests; QToolTip is not inspectable offscreen).
    QString lastToolTip() const;
    /// Centre of a step's bar in plot() pixels at the current range (null point when it has none).
    QPointF barCenter(int step, GanttLane lane) const;

    /// Left margin of the plot area (pixels) as last laid out, and a lower bound for it: lets the app
    /// line the time axis up with a BandwidthView (see shareTimeAxis).
    int plotLeftMargin() const;
    void setMinimumLeftMargin(int pixels);

    /// Shades `intervals` (cycles) across every lane, with `label` above them: e.g. the stretches that
    /// make one part of the bound-gap waterfall. Empty clears; a new run or design clears it too.
    void setHighlight(const std::vector<elk::schedule::Interval>& intervals, const QString& label);
    /// Shaded spans drawn (after merging those closer than a pixel of the whole run).
    int highlightCount() const { return m_highlightSpans; }
    QString highlightLabel() const { return m_highlightLabel; }

public slots:
    /// Shows [lower, upper] cycles, clamped to the run; emits timeRangeChanged when it changed.
    void setTimeRange(double lowerCycles, double upperCycles);
    /// The whole run.
    void resetTimeRange();
    /// factor > 1 zooms in around the centre of the visible range.
    void zoomBy(double factor);
    /// Moves the visible range by a fraction of its span (negative: earlier).
    void panBy(double fraction);

signals:
    void timeRangeChanged(double lowerCycles, double upperCycles);

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void onMouseRelease(QMouseEvent* event);
    void rebuildLegend();

    void clearHighlight();

    TimeAxisPlot* m_time = nullptr;
    GanttPlottable* m_gantt = nullptr;
    std::vector<QCPAbstractItem*> m_highlightItems;
    int m_highlightSpans = 0;
    QString m_highlightLabel;
    std::shared_ptr<GanttData> m_data;
    QPoint m_pressPos;
    const void* m_shownRun = nullptr; ///< run and design of m_data: a selection change keeps the range
    int m_shownDesign = -1;
    int m_shownStep = -1; ///< selection last scrolled into view
};

} // namespace elk::widgets
