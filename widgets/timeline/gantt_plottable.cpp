// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/gantt_plottable.h" // first: includes qcp.h

#include <algorithm>
#include <cmath>

#include "widgets/plots/figure_style.h"
#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

GanttPlottable::GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
    setAntialiasedFill(false);
    setPen(Qt::NoPen);
    m_waitBrush = waitBrush();
}

QBrush GanttPlottable::waitBrush()
{
    return hatchedBrush(QColor::fromRgb(0xE6E6E6), QColor::fromRgb(0x8C8C8C));
}

void GanttPlottable::setData(std::shared_ptr<const GanttData> data)
{
    m_data = std::move(data);
    m_colors.clear();
    if (!m_data)
        return;
    m_colors.reserve(m_data->ops.size());
    for (const GanttOp& op : m_data->ops)
        m_colors.push_back(opKindColor(op.kind));
}

double GanttPlottable::laneY(GanttLane lane)
{
    switch (lane) {
    case GanttLane::Preload:
        return 2;
    case GanttLane::Execute:
        return 1;
    case GanttLane::Stall:
        break;
    }
    return 0.05;
}

double GanttPlottable::laneHalfHeight(GanttLane lane)
{
    return lane == GanttLane::Stall ? 0.22 : 0.36;
}

std::pair<int, int> GanttPlottable::laneRows(GanttLane lane) const
{
    const double a = valueAxis()->coordToPixel(laneY(lane) + laneHalfHeight(lane));
    const double b = valueAxis()->coordToPixel(laneY(lane) - laneHalfHeight(lane));
    return { int(std::lround(std::min(a, b))), int(std::lround(std::max(a, b))) };
}

std::optional<GanttLane> GanttPlottable::laneAtPixel(double y) const
{
    for (const GanttLane lane : { GanttLane::Preload, GanttLane::Execute, GanttLane::Stall }) {
        const auto [top, bottom] = laneRows(lane);
        if (y >= top - 2 && y <= bottom + 2)
            return lane;
    }
    return std::nullopt;
}

int GanttPlottable::stepAtPixel(const QPointF& pixel, GanttLane* laneOut) const
{
    if (!m_data || !keyAxis() || !valueAxis())
        return -1;
    const std::optional<GanttLane> lane = laneAtPixel(pixel.y());
    if (!lane)
        return -1;
    const QCPRange range = keyAxis()->range();
    const double pixelsPerCycle = keyAxis()->axisRect()->width() / range.size();
    const double key = keyAxis()->pixelToCoord(pixel.x());
    const auto& bars = m_data->lane(*lane);
    const int index = barAt(bars, key, 3.0 / pixelsPerCycle);
    if (index < 0)
        return -1;
    if (laneOut)
        *laneOut = *lane;
    return bars[std::size_t(index)].item;
}

QRectF GanttPlottable::barRect(int step, GanttLane lane) const
{
    if (!m_data || step < 0 || std::size_t(step) >= m_data->ops.size())
        return {};
    const GanttOp& op = m_data->ops[std::size_t(step)];
    double start = lane == GanttLane::Preload ? op.preloadStart : op.executeStart;
    double end = lane == GanttLane::Preload ? op.preloadEnd : op.executeEnd;
    if (lane == GanttLane::Stall) {
        const auto& bars = m_data->stallLane;
        const auto it = std::find_if(bars.begin(), bars.end(), [step](const LaneBar& bar) { return bar.item == step; });
        if (it == bars.end())
            return {};
        start = it->start;
        end = it->end;
    }
    if (!(end > start))
        return {};
    const auto [top, bottom] = laneRows(lane);
    const double x0 = keyAxis()->coordToPixel(start);
    const double x1 = keyAxis()->coordToPixel(end);
    return QRectF(QPointF(std::min(x0, x1), top), QPointF(std::max(x0, x1), bottom));
}

double GanttPlottable::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1; // clicks are hit-tested by GanttView (stepAtPixel); the axis rect keeps dragging
}

QCPRange GanttPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_data && m_data->latencyCycles > 0;
    return foundRange ? QCPRange(0, m_data->latencyCycles) : QCPRange();
}

QCPRange GanttPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = true;
    return QCPRange(kValueLower, kValueUpper);
}

void GanttPlottable::draw(QCPPainter* painter)
{
    if (!m_data || m_data->empty() || !keyAxis() || !valueAxis())
        return;
    const QCPRange range = keyAxis()->range();
    if (!(range.size() > 0))
        return;
    const double pixelLeft = keyAxis()->coordToPixel(range.lower);
    const double pixelsPerCycle = (keyAxis()->coordToPixel(range.upper) - pixelLeft) / range.size();
    painter->setAntialiasing(false);
    painter->setPen(Qt::NoPen);
    for (const GanttLane lane : { GanttLane::Preload, GanttLane::Execute, GanttLane::Stall })
        drawLane(painter, lane, pixelLeft, pixelsPerCycle);
    drawSelection(painter);
}

void GanttPlottable::drawLane(QCPPainter* painter, GanttLane lane, double pixelLeft, double pixelsPerCycle)
{
    const std::vector<LaneBar>& bars = m_data->lane(lane);
    const QCPRange range = keyAxis()->range();
    pixelRuns(bars, range.lower, range.upper, pixelLeft, pixelsPerCycle, m_runs);
    const auto [top, bottom] = laneRows(lane);
    const int height = std::max(1, bottom - top);
    const auto toPixel = [&](double t) { return int(std::lround(pixelLeft + (t - range.lower) * pixelsPerCycle)); };
    for (const PixelRun& run : m_runs) {
        const LaneBar& bar = bars[std::size_t(run.bar)];
        const int width = run.x1 - run.x0;
        // A one-pixel gap between wide neighbours keeps ops apart without outlines.
        const int x0 = run.x0 + (!run.merged && width >= 4 ? 1 : 0);
        if (lane == GanttLane::Stall && bar.tag == 1) {
            painter->fillRect(QRect(x0, top, run.x1 - x0, height), m_waitBrush);
            continue;
        }
        const QColor color = lane == GanttLane::Stall ? stallColor() : m_colors[std::size_t(bar.item)];
        if (lane == GanttLane::Execute && !run.merged && width >= 6) {
            const GanttOp& op = m_data->ops[std::size_t(bar.item)];
            const int warmupEnd = std::clamp(toPixel(op.warmupEnd), x0, run.x1);
            const int computeEnd = std::clamp(toPixel(op.computeEnd), warmupEnd, run.x1);
            painter->fillRect(QRect(x0, top, warmupEnd - x0, height), warmupShade(color));
            painter->fillRect(QRect(warmupEnd, top, computeEnd - warmupEnd, height), color);
            painter->fillRect(QRect(computeEnd, top, run.x1 - computeEnd, height), commShade(color));
        } else {
            painter->fillRect(QRect(x0, top, run.x1 - x0, height), color);
        }
    }
}

void GanttPlottable::drawSelection(QCPPainter* painter)
{
    if (m_selectedStep < 0)
        return;
    QPen pen(Qt::black, 2);
    pen.setJoinStyle(Qt::MiterJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    for (const GanttLane lane : { GanttLane::Preload, GanttLane::Execute }) {
        QRectF rect = barRect(m_selectedStep, lane);
        if (rect.isNull())
            continue;
        if (rect.width() < 4) // stays visible however far out the view is zoomed
            rect = QRectF(rect.center().x() - 2, rect.top(), 4, rect.height());
        painter->drawRect(rect.adjusted(-1, -1, 1, 1));
    }
}

} // namespace elk::widgets
