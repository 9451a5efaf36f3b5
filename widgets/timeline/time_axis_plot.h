// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QObject>
#include <QPoint>
#include <QString>

class QCustomPlot;

namespace elk::widgets {

struct FigureStyle;

/// What the time-axis views (the Gantt timeline, the StableHLO step timeline) share, written once:
/// the plot's setup (horizontal drag and zoom only, the time ticker, a dotted grid, the frame axes,
/// the legend above), the visible range clamped to the data, zoom and pan from the keyboard
/// (+/−, ←/→, Home), the hover tooltip, and the legend wrapped to an exported figure's width.
/// The time axis is the plot's x axis, in the views' own units (cycles or seconds).
class TimeAxisPlot : public QObject {
    Q_OBJECT
public:
    /// Sets `plot` up; `unitsPerSecond` tells the ticker how to label the axis (the clock in Hz for
    /// cycles, 1 for seconds). Owned by `plot`.
    TimeAxisPlot(QCustomPlot* plot, double unitsPerSecond);

    /// The data runs over [0, end]; the range may show `padding` × end more each side and never less
    /// than `minSpan`. Call resetTimeRange() afterwards to show it all.
    void setExtent(double end, double minSpan);
    double end() const { return m_end; }
    /// Axis units per second (the ticker's labels).
    void setUnitsPerSecond(double unitsPerSecond);

    double lower() const;
    double upper() const;
    /// Shows [lower, upper], clamped; rangeChanged follows.
    void setTimeRange(double lower, double upper);
    /// The whole extent, padded.
    void resetTimeRange();
    /// factor > 1 zooms in around the centre of the visible range.
    void zoomBy(double factor);
    /// Moves the visible range by a fraction of its span (negative: earlier).
    void panBy(double fraction);
    /// The shared zoom and pan keys; false for any other key.
    bool handleKey(int key);

    /// The hover text at a plot pixel (empty over nothing), shown as a tooltip while the mouse moves.
    void setToolTipText(std::function<QString(const QPoint&)> text) { m_toolTipText = std::move(text); }
    /// What hovering showed last (tests; QToolTip is not inspectable offscreen).
    QString lastToolTip() const { return m_lastToolTip; }

    /// Wraps the legend to the width of an exported figure in `style` (from PlotView::applyStyle).
    void wrapLegendFor(const FigureStyle& style);

    static constexpr double kRangePadding = 0.01; ///< room left and right of the data

signals:
    /// The visible range after clamping (axis units).
    void rangeChanged(double lower, double upper);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void clampRange();
    void onMouseMove(const QPoint& pos, bool dragging);

    QCustomPlot* m_plot = nullptr;
    double m_end = 1;
    double m_minSpan = 1e-9;
    bool m_adjusting = false;
    std::function<QString(const QPoint&)> m_toolTipText;
    QString m_lastToolTip;
};

} // namespace elk::widgets
