// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QPoint>
#include <QPointF>

#include "widgets/hlo/hlo_plot_view.h"
#include "widgets/hlo/hlo_timeline_data.h"

class QCPItemText;

namespace elk::widgets {

class HloTimelinePlottable;
class TimeAxisPlot;

/// The simulated step of one or more StableHLO runs: per run a compute lane (bars in the run's
/// colour), a communication lane (bars coloured by collective) and a thin lane of exposed communication
/// (hatched: time the step waits for a collective), labelled "4x-a100-sxm-40gb · roofline". Several
/// runs stack their lane pairs on one time axis (µs/ms). Horizontal zoom and pan with the wheel, a drag,
/// +/−, arrows and Home; hover shows a region's details.
class HloStepTimelineView : public HloPlotView {
    Q_OBJECT
public:
    explicit HloStepTimelineView(QWidget* parent = nullptr);
    ~HloStepTimelineView() override;

    QString figureKind() const override { return QStringLiteral("hlo-timeline"); }
    bool hasData() const override;

    const HloTimelineData& data() const;
    /// Visible time range, seconds.
    double lowerSeconds() const;
    double upperSeconds() const;

    /// Hit testing in plot() pixels: {lane, bar} or {-1, -1}.
    std::pair<int, int> barAt(const QPoint& plotPixel) const;
    /// Hover text at a plot() pixel (empty over nothing).
    QString toolTipAt(const QPoint& plotPixel) const;
    /// The text of the last tooltip shown by hovering (tests; QToolTip is not inspectable offscreen).
    QString lastToolTip() const;
    /// Centre of a bar in plot() pixels at the current range (null point when it has none).
    QPointF barCenter(int lane, int bar) const;

public slots:
    void setTimeRange(double lowerSeconds, double upperSeconds);
    void resetTimeRange();
    /// factor > 1 zooms in around the centre of the visible range.
    void zoomBy(double factor);
    /// Moves the visible range by a fraction of its span (negative: earlier).
    void panBy(double fraction);

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void rebuildDecorations();

    TimeAxisPlot* m_time = nullptr;
    HloTimelinePlottable* m_timeline = nullptr;
    std::shared_ptr<HloTimelineData> m_data;
};

} // namespace elk::widgets
