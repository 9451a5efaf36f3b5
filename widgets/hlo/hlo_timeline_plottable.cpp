// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/hlo/hlo_timeline_plottable.h" // first: includes qcp.h

#include <algorithm>
#include <array>
#include <cmath>

#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

QColor hloCollectiveColor(int index)
{
    // Reddish purple, sky blue, yellow, black, grey: apart from the result colours (blue, orange, green).
    static constexpr std::array<QRgb, 5> kColors { 0xCC79A7, 0x56B4E9, 0xF0E442, 0x303030, 0x999999 };
    const int n = int(kColors.size());
    return QColor::fromRgb(kColors[std::size_t(((index % n) + n) % n)]);
}

QBrush hloExposedBrush()
{
    return hatchedBrush(QColor::fromRgb(0xD55E00), QColor::fromRgb(0x5A2800));
}

HloTimelinePlottable::HloTimelinePlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
    , m_exposedBrush(hloExposedBrush())
{
    setSelectable(QCP::stNone);
    setAntialiasedFill(false);
    setPen(Qt::NoPen);
}

void HloTimelinePlottable::setData(std::shared_ptr<const HloTimelineData> data)
{
    m_data = std::move(data);
}

std::pair<int, int> HloTimelinePlottable::laneRows(const HloLane& lane) const
{
    const double a = valueAxis()->coordToPixel(lane.y + lane.halfHeight);
    const double b = valueAxis()->coordToPixel(lane.y - lane.halfHeight);
    return { int(std::lround(std::min(a, b))), int(std::lround(std::max(a, b))) };
}

int HloTimelinePlottable::laneAtPixel(double y) const
{
    if (!m_data || !valueAxis())
        return -1;
    for (std::size_t i = 0; i < m_data->lanes.size(); ++i) {
        const auto [top, bottom] = laneRows(m_data->lanes[i]);
        if (y >= top - 2 && y <= bottom + 2)
            return int(i);
    }
    return -1;
}

std::pair<int, int> HloTimelinePlottable::barAtPixel(const QPointF& pixel) const
{
    const int lane = laneAtPixel(pixel.y());
    if (lane < 0 || !keyAxis())
        return { -1, -1 };
    const QCPRange range = keyAxis()->range();
    const double pixelsPerSecond = keyAxis()->axisRect()->width() / range.size();
    const double key = keyAxis()->pixelToCoord(pixel.x());
    const int bar = barAt(m_data->lanes[std::size_t(lane)].bars, key, 3.0 / pixelsPerSecond);
    return bar < 0 ? std::pair { -1, -1 } : std::pair { lane, bar };
}

QRectF HloTimelinePlottable::barRect(int laneIndex, int barIndex) const
{
    if (!m_data || laneIndex < 0 || std::size_t(laneIndex) >= m_data->lanes.size())
        return {};
    const HloLane& lane = m_data->lanes[std::size_t(laneIndex)];
    if (barIndex < 0 || std::size_t(barIndex) >= lane.bars.size())
        return {};
    const LaneBar& bar = lane.bars[std::size_t(barIndex)];
    const auto [top, bottom] = laneRows(lane);
    const double x0 = keyAxis()->coordToPixel(bar.start);
    const double x1 = keyAxis()->coordToPixel(bar.end);
    return QRectF(QPointF(std::min(x0, x1), top), QPointF(std::max(x0, x1), bottom));
}

QCPRange HloTimelinePlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_data && m_data->endSeconds > 0;
    return foundRange ? QCPRange(0, m_data->endSeconds) : QCPRange();
}

QCPRange HloTimelinePlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = m_data != nullptr;
    return foundRange ? QCPRange(m_data->valueLower, m_data->valueUpper) : QCPRange();
}

void HloTimelinePlottable::draw(QCPPainter* painter)
{
    if (!m_data || m_data->empty() || !keyAxis() || !valueAxis())
        return;
    const QCPRange range = keyAxis()->range();
    if (!(range.size() > 0))
        return;
    const double pixelLeft = keyAxis()->coordToPixel(range.lower);
    const double pixelsPerSecond = (keyAxis()->coordToPixel(range.upper) - pixelLeft) / range.size();
    painter->setAntialiasing(false);
    painter->setPen(Qt::NoPen);
    for (const HloLane& lane : m_data->lanes) {
        const auto [top, bottom] = laneRows(lane);
        const int height = std::max(1, bottom - top);
        const QColor groupColor = hloResultColor(lane.group);
        // A faint band marks the lane even where it has no bar (a step without communication).
        painter->fillRect(QRect(int(std::lround(keyAxis()->coordToPixel(range.lower))), top,
                              int(std::lround(range.size() * pixelsPerSecond)), height),
            QColor(0xF2, 0xF2, 0xF2));
        pixelRuns(lane.bars, range.lower, range.upper, pixelLeft, pixelsPerSecond, m_runs);
        for (const PixelRun& run : m_runs) {
            const LaneBar& bar = lane.bars[std::size_t(run.bar)];
            const int width = run.x1 - run.x0;
            // A one-pixel gap between wide neighbours keeps regions apart without outlines.
            const int x0 = run.x0 + (!run.merged && width >= 4 ? 1 : 0);
            const QRect rect(x0, top, std::max(1, run.x1 - x0), height);
            switch (lane.kind) {
            case HloLaneKind::Compute:
                painter->fillRect(rect, groupColor);
                break;
            case HloLaneKind::Communication:
                painter->fillRect(rect, hloCollectiveColor(bar.tag));
                break;
            case HloLaneKind::Exposed:
                painter->fillRect(rect, m_exposedBrush);
                break;
            }
        }
    }
}

} // namespace elk::widgets
