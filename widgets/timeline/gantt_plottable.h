// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to widgets/timeline (includes QCustomPlot): include only from .cpp files, after qcp.h.
#include "widgets/plots/qcp.h"

#include <memory>
#include <optional>
#include <vector>

#include <QBrush>
#include <QColor>

#include "widgets/timeline/gantt_data.h"

namespace elk::widgets {

/// Draws all Gantt lanes in one pass: per lane, a binary search finds the first visible bar and
/// sub-pixel bars merge into one-pixel columns (pixelRuns), so a frame costs O(visible pixels + wide
/// bars) fillRects whatever the op count. Key = cycles, value = lane position (laneY).
class GanttPlottable : public QCPAbstractPlottable {
public:
    GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setData(std::shared_ptr<const GanttData> data);
    const GanttData* data() const { return m_data.get(); }
    void setSelectedStep(int step) { m_selectedStep = step; }

    static double laneY(GanttLane lane);
    static double laneHalfHeight(GanttLane lane);
    static constexpr double kValueLower = -0.45;
    static constexpr double kValueUpper = 2.5;

    /// The lane whose band contains pixel row `y`, if any.
    std::optional<GanttLane> laneAtPixel(double y) const;
    /// The step drawn at `pixel` (within 3 px horizontally), or -1; `lane` receives its lane.
    int stepAtPixel(const QPointF& pixel, GanttLane* lane = nullptr) const;
    /// Pixel rectangle of a step's bar in a lane (null when it has none there).
    QRectF barRect(int step, GanttLane lane) const;

    /// Light grey with a grey hatch: idle time, unlike the solid bars of work.
    static QBrush waitBrush();
    static QColor stallColor() { return QColor::fromRgb(0xD55E00); }
    /// Shades of an execution's phases: warm-up lighter, shift + reduce darker than compute.
    static QColor warmupShade(const QColor& base) { return base.lighter(160); }
    static QColor commShade(const QColor& base) { return base.darker(160); }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
        const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    void drawLane(QCPPainter* painter, GanttLane lane, double pixelLeft, double pixelsPerCycle);
    void drawSelection(QCPPainter* painter);
    /// Pixel rows [top, bottom) of a lane's bars.
    std::pair<int, int> laneRows(GanttLane lane) const;

    std::shared_ptr<const GanttData> m_data;
    std::vector<QColor> m_colors; ///< by step: op kind colour
    std::vector<PixelRun> m_runs; ///< reused between frames
    QBrush m_waitBrush;
    int m_selectedStep = -1;
};

} // namespace elk::widgets
