// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to widgets/hlo (includes QCustomPlot): include only from .cpp files, after qcp.h.
#include "widgets/plots/qcp.h"

#include <memory>
#include <vector>

#include <QBrush>
#include <QColor>

#include "widgets/hlo/hlo_timeline_data.h"

namespace elk::widgets {

/// Colour of a collective in the communication lanes: hues apart from the first result colours.
QColor hloCollectiveColor(int index);
/// Exposed communication: vermillion with a dark hatch (grayscale-safe).
QBrush hloExposedBrush();

/// Draws every lane of an HloTimelineData in one pass. Key = seconds, value = lane position. Sub-pixel
/// bars merge into one-pixel columns (pixelRuns), so a frame costs O(visible pixels) whatever the
/// region count.
class HloTimelinePlottable : public QCPAbstractPlottable {
public:
    HloTimelinePlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setData(std::shared_ptr<const HloTimelineData> data);

    /// The lane whose band contains pixel row `y`, or -1.
    int laneAtPixel(double y) const;
    /// The bar at `pixel` (within 3 px horizontally) as {lane, bar index}, or {-1, -1}.
    std::pair<int, int> barAtPixel(const QPointF& pixel) const;
    /// Pixel rectangle of a bar (null when out of range).
    QRectF barRect(int lane, int bar) const;

    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
        const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    std::pair<int, int> laneRows(const HloLane& lane) const;

    std::shared_ptr<const HloTimelineData> m_data;
    std::vector<PixelRun> m_runs;
    QBrush m_exposedBrush;
};

} // namespace elk::widgets
