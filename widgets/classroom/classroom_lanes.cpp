// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/classroom/classroom_lanes.h" // first: includes qcp.h

#include <algorithm>
#include <cmath>

#include "widgets/classroom/classroom_colors.h"

namespace elk::widgets {

ClassroomLanes::ClassroomLanes(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
    setPen(Qt::NoPen);
}

void ClassroomLanes::setBars(std::vector<ClassroomBar> bars)
{
    m_bars = std::move(bars);
}

void ClassroomLanes::setCurrentSteps(std::vector<int> executing, std::vector<int> preloading)
{
    m_executing = std::move(executing);
    m_preloading = std::move(preloading);
}

double ClassroomLanes::lineWidth() const
{
    // The axis pen is 1 px on screen and 0.5 pt on export: bar outlines follow it.
    const double width = keyAxis() ? keyAxis()->basePen().widthF() : 1.0;
    return std::max(1.0, width);
}

QRectF ClassroomLanes::pixelRect(const ClassroomBar& bar, double start, double end) const
{
    const double laneY = bar.lane == ClassroomBar::Preload ? 1.0 : 0.0;
    const double half = bar.stall ? kHalfHeight * 0.6 : kHalfHeight;
    const double x0 = keyAxis()->coordToPixel(start);
    const double x1 = keyAxis()->coordToPixel(end);
    const double y0 = valueAxis()->coordToPixel(laneY + half);
    const double y1 = valueAxis()->coordToPixel(laneY - half);
    return QRectF(QPointF(std::min(x0, x1), std::min(y0, y1)), QPointF(std::max(x0, x1), std::max(y0, y1)));
}

void ClassroomLanes::drawBar(QCPPainter* painter, const ClassroomBar& bar)
{
    const QColor base = bar.stall           ? classroomStallColor()
        : bar.lane == ClassroomBar::Preload ? classroomPreloadColor()
                                            : classroomExecuteColor();
    const double width = lineWidth();
    // Before the cursor: what already happened (solid); after: what is still to come (faded).
    const double split = std::clamp(m_cursor, bar.start, bar.end);
    for (int part = 0; part < 2; ++part) {
        const double a = part == 0 ? bar.start : split;
        const double b = part == 0 ? split : bar.end;
        if (b <= a)
            continue;
        QRectF rect = pixelRect(bar, a, b);
        if (rect.width() < 1) // keep the shortest ops visible
            rect.setWidth(1);
        const QColor fill = part == 0 ? base : classroomFaded(base);
        if (bar.stall) {
            painter->fillRect(rect, part == 0 ? classroomFaded(base) : QColor(Qt::white));
            painter->fillRect(rect, QBrush(fill, Qt::BDiagPattern));
            painter->setPen(QPen(fill, width));
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(rect);
        } else {
            painter->fillRect(rect, fill);
            if (rect.width() >= 4 * width) { // a white seam between neighbours
                painter->setPen(QPen(Qt::white, width));
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(rect);
            }
        }
    }
    if (bar.stall)
        return;
    const QRectF whole = pixelRect(bar, bar.start, bar.end);
    // The op's number where it fits (in the visible part of the bar when zoomed): the class reads
    // "op 12" in the caption and finds it here.
    const QString label = QString::number(bar.step);
    const QFont font = keyAxis()->tickLabelFont();
    const QFontMetricsF metrics(font);
    const QRectF visible = whole.intersected(QRectF(keyAxis()->axisRect()->rect()).adjusted(0, -1e6, 0, 1e6));
    if (metrics.horizontalAdvance(label) + 6 * width < visible.width() && metrics.height() < visible.height()) {
        painter->setFont(font);
        const double labelKey = keyAxis()->pixelToCoord(visible.center().x());
        const bool dark = bar.lane == ClassroomBar::Preload && m_cursor >= labelKey; // white on solid blue
        painter->setPen(dark ? QColor(Qt::white) : QColor(Qt::black));
        painter->drawText(visible, Qt::AlignCenter, label);
    }
    const std::vector<int>& now = bar.lane == ClassroomBar::Preload ? m_preloading : m_executing;
    if (std::find(now.begin(), now.end(), bar.step) != now.end()) {
        painter->setPen(QPen(Qt::black, 2 * width));
        painter->setBrush(Qt::NoBrush);
        // Even a sliver of an op gets a frame the class can find.
        QRectF outline = whole;
        const double minWidth = 8 * width;
        if (outline.width() < minWidth)
            outline = QRectF(outline.center().x() - minWidth / 2, outline.top(), minWidth, outline.height());
        painter->drawRect(outline);
    }
}

void ClassroomLanes::draw(QCPPainter* painter)
{
    if (!keyAxis() || !valueAxis())
        return;
    painter->save();
    painter->setAntialiasing(false);
    const QCPRange range = keyAxis()->range();
    for (const ClassroomBar& bar : m_bars) {
        if (bar.end < range.lower || bar.start > range.upper)
            continue;
        drawBar(painter, bar);
    }
    painter->restore();
}

int ClassroomLanes::stepAtPixel(const QPointF& pixel) const
{
    if (!keyAxis() || !valueAxis())
        return -1;
    // Prefer real bars over stall marks, and the narrowest bar on a tie (short ops stay clickable).
    int best = -1;
    double bestWidth = 0;
    for (const ClassroomBar& bar : m_bars) {
        if (bar.stall)
            continue;
        QRectF rect = pixelRect(bar, bar.start, bar.end).adjusted(-2, 0, 2, 0);
        if (!rect.contains(pixel))
            continue;
        if (best < 0 || rect.width() < bestWidth) {
            best = bar.step;
            bestWidth = rect.width();
        }
    }
    return best;
}

double ClassroomLanes::selectTest(const QPointF& pos, bool onlySelectable, QVariant*) const
{
    if (onlySelectable)
        return -1;
    return stepAtPixel(pos) >= 0 ? 0 : -1;
}

QCPRange ClassroomLanes::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = !m_bars.empty();
    if (!foundRange)
        return {};
    QCPRange range(m_bars.front().start, m_bars.front().end);
    for (const ClassroomBar& bar : m_bars)
        range.expand(QCPRange(bar.start, bar.end));
    return range;
}

QCPRange ClassroomLanes::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = true;
    return QCPRange(-kHalfHeight, 1 + kHalfHeight);
}

} // namespace elk::widgets
