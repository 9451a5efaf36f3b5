// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/time_axis_plot.h"

#include <algorithm>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>

#include "widgets/plots/figure_style.h"
#include "widgets/timeline/time_axis_keys.h"
#include "widgets/timeline/time_axis_ticker.h"
#include "widgets/timeline/timeline_geometry.h"
#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

TimeAxisPlot::TimeAxisPlot(QCustomPlot* plot, double unitsPerSecond)
    : QObject(plot)
    , m_plot(plot)
{
    plot->setMouseTracking(true);
    plot->setFocusPolicy(Qt::StrongFocus);
    plot->installEventFilter(this);
    plot->setNoAntialiasingOnDrag(true);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    QCPAxisRect* rect = plot->axisRect();
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setRangeDragAxes(plot->xAxis, nullptr);
    rect->setRangeZoomAxes(plot->xAxis, nullptr);
    plot->xAxis->setTicker(QSharedPointer<TimeAxisTicker>::create(unitsPerSecond));
    plot->xAxis->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
    plot->yAxis->setSubTicks(false);
    plot->yAxis->setTickLength(0, 0);
    plot->yAxis->grid()->setVisible(false);
    for (QCPAxis* frame : { plot->xAxis2, plot->yAxis2 }) {
        frame->setVisible(true);
        frame->setTicks(false);
        frame->setTickLabels(false);
    }
    placeLegendAbove(plot);
    connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { clampRange(); });
    connect(plot, &QCustomPlot::mouseMove, this,
        [this](QMouseEvent* event) { onMouseMove(event->pos(), event->buttons() != Qt::NoButton); });
    connect(plot, &QCustomPlot::beforeReplot, this, [this] { wrapLegend(m_plot->legend, m_plot->viewport().width()); });
}

void TimeAxisPlot::setExtent(double end, double minSpan)
{
    m_end = end > 0 ? end : 1;
    m_minSpan = minSpan;
}

void TimeAxisPlot::setUnitsPerSecond(double unitsPerSecond)
{
    if (auto ticker = m_plot->xAxis->ticker().dynamicCast<TimeAxisTicker>())
        ticker->setClockHz(unitsPerSecond);
}

double TimeAxisPlot::lower() const
{
    return m_plot->xAxis->range().lower;
}

double TimeAxisPlot::upper() const
{
    return m_plot->xAxis->range().upper;
}

void TimeAxisPlot::setTimeRange(double lower, double upper)
{
    if (!(upper > lower))
        return;
    m_plot->xAxis->setRange(lower, upper); // clampRange clamps and emits
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimeAxisPlot::resetTimeRange()
{
    setTimeRange(-kRangePadding * m_end, (1 + kRangePadding) * m_end);
}

void TimeAxisPlot::zoomBy(double factor)
{
    const QCPRange range = m_plot->xAxis->range();
    const TimeRange zoomed = zoomedRange({ range.lower, range.upper }, factor);
    setTimeRange(zoomed.lower, zoomed.upper);
}

void TimeAxisPlot::panBy(double fraction)
{
    const QCPRange range = m_plot->xAxis->range();
    const TimeRange panned = pannedRange({ range.lower, range.upper }, fraction);
    setTimeRange(panned.lower, panned.upper);
}

bool TimeAxisPlot::handleKey(int key)
{
    return handleTimeAxisKey(*this, key);
}

void TimeAxisPlot::clampRange()
{
    if (m_adjusting)
        return;
    QCPAxis* axis = m_plot->xAxis;
    const QCPRange range = axis->range();
    const TimeRange clamped
        = clampTimeRange({ range.lower, range.upper }, -kRangePadding * m_end, (1 + kRangePadding) * m_end, m_minSpan);
    if (clamped.lower != range.lower || clamped.upper != range.upper) {
        m_adjusting = true;
        axis->setRange(clamped.lower, clamped.upper);
        m_adjusting = false;
    }
    if (auto ticker = axis->ticker().dynamicCast<TimeAxisTicker>())
        axis->setLabel(ticker->axisLabel(axis->range()));
    emit rangeChanged(axis->range().lower, axis->range().upper);
}

void TimeAxisPlot::onMouseMove(const QPoint& pos, bool dragging)
{
    if (dragging || !m_toolTipText)
        return;
    const QString text = m_toolTipText(pos);
    if (text == m_lastToolTip)
        return;
    m_lastToolTip = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(m_plot->mapToGlobal(pos), text, m_plot);
}

bool TimeAxisPlot::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::KeyPress && handleKey(static_cast<QKeyEvent*>(event)->key()))
        return true;
    if (watched == m_plot && event->type() == QEvent::Leave && !m_lastToolTip.isEmpty()) {
        m_lastToolTip.clear();
        QToolTip::hideText();
    }
    return QObject::eventFilter(watched, event);
}

void TimeAxisPlot::wrapLegendFor(const FigureStyle& style)
{
    const double dpi = m_plot->logicalDpiX() > 0 ? m_plot->logicalDpiX() : 96.0;
    wrapLegend(m_plot->legend, int(style.widthCm / 2.54 * dpi));
}

} // namespace elk::widgets
