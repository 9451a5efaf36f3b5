// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/hlo/hlo_step_timeline_view.h"

#include <algorithm>
#include <cmath>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>

#include "engine/hlo/hlo_run.h"
#include "widgets/hlo/hlo_timeline_plottable.h"
#include "widgets/timeline/time_axis_keys.h"
#include "widgets/timeline/time_axis_ticker.h"
#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

namespace {

    const HloTimelineData kNoData;

    /// Room left and right of the step so its first and last bars do not touch the axes.
    constexpr double kRangePadding = 0.01;

    QString laneName(HloLaneKind kind)
    {
        switch (kind) {
        case HloLaneKind::Compute:
            return QStringLiteral("compute");
        case HloLaneKind::Communication:
            return QStringLiteral("comm.");
        case HloLaneKind::Exposed:
            return QStringLiteral("exposed");
        }
        return {};
    }

} // namespace

HloStepTimelineView::HloStepTimelineView(QWidget* parent)
    : HloPlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("hlo-timeline"));
    p->setMouseTracking(true);
    p->setFocusPolicy(Qt::StrongFocus);
    p->installEventFilter(this);
    setFocusProxy(p);
    p->setNoAntialiasingOnDrag(true);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    QCPAxisRect* rect = p->axisRect();
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setRangeDragAxes(p->xAxis, nullptr);
    rect->setRangeZoomAxes(p->xAxis, nullptr);

    m_timeline = new HloTimelinePlottable(p->xAxis, p->yAxis);
    m_timeline->setName(QStringLiteral("step"));

    p->xAxis->setTicker(QSharedPointer<TimeAxisTicker>::create(1.0)); // coordinates are seconds
    p->xAxis->setLabel(QStringLiteral("time (ms)"));
    p->xAxis->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
    p->yAxis->setSubTicks(false);
    p->yAxis->setTickLength(0, 0);
    p->yAxis->grid()->setVisible(false);
    p->xAxis2->setVisible(true);
    p->xAxis2->setTicks(false);
    p->xAxis2->setTickLabels(false);
    p->yAxis2->setVisible(true);
    p->yAxis2->setTicks(false);
    p->yAxis2->setTickLabels(false);
    placeLegendAbove(p);

    connect(p->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { onRangeChanged(); });
    connect(p, &QCustomPlot::mouseMove, this, &HloStepTimelineView::onMouseMove);
    connect(p, &QCustomPlot::beforeReplot, this, [this] { wrapLegend(plot()->legend, plot()->viewport().width()); });
    rebuild();
}

HloStepTimelineView::~HloStepTimelineView() = default;

bool HloStepTimelineView::hasData() const
{
    return m_data && !m_data->empty();
}

const HloTimelineData& HloStepTimelineView::data() const
{
    return m_data ? *m_data : kNoData;
}

double HloStepTimelineView::lowerSeconds() const
{
    return plot()->xAxis->range().lower;
}

double HloStepTimelineView::upperSeconds() const
{
    return plot()->xAxis->range().upper;
}

void HloStepTimelineView::rebuild()
{
    m_data = std::make_shared<HloTimelineData>(buildHloTimeline(m_results));
    m_timeline->setData(m_data);
    rebuildDecorations();
    resetTimeRange();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void HloStepTimelineView::rebuildDecorations()
{
    QCustomPlot* p = plot();
    for (int i = p->plottableCount() - 1; i >= 0; --i) {
        if (p->plottable(i) != m_timeline)
            p->removePlottable(i);
    }
    p->clearItems();
    m_timeline->removeFromLegend();
    p->legend->clearItems();

    auto lanes = QSharedPointer<QCPAxisTickerText>::create();
    for (const HloLane& lane : m_data->lanes)
        lanes->addTick(lane.y, laneName(lane.kind));
    p->yAxis->setTicker(lanes);
    p->yAxis->setRange(m_data->valueLower, m_data->valueUpper);
    showEmptyHint(hasData() ? QString()
                            : tr("Open a StableHLO module (Module: Open…)\nand press Run: its step timeline,\n"
                                 "compute and communication, appears here."));
    if (!hasData())
        return;

    for (std::size_t g = 0; g < m_data->groups.size(); ++g) {
        const HloTimelineGroup& group = m_data->groups[g];
        const elk::hlo::HloRunResult& result = *group.result;
        auto* label = new QCPItemText(p);
        label->position->setAxes(p->xAxis, p->yAxis);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.005, group.labelY);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setClipToAxisRect(true);
        label->setPadding(QMargins(2, 0, 2, 0));
        label->setFont(p->font());
        label->setText(tr("%1: step %2").arg(group.label, hloSecondsText(result.stepSeconds)));
    }

    QList<QBrush> computeStripes;
    for (std::size_t g = 0; g < m_data->groups.size(); ++g)
        computeStripes << QBrush(hloResultColor(int(g)));
    addLegendSwatch(p, tr("compute"), computeStripes);
    for (qsizetype c = 0; c < m_data->collectives.size(); ++c)
        addLegendSwatch(p, m_data->collectives[c], { QBrush(hloCollectiveColor(int(c))) });
    if (m_data->barCount(HloLaneKind::Exposed) > 0)
        addLegendSwatch(p, tr("exposed communication"), { hloExposedBrush() });
}

void HloStepTimelineView::resetTimeRange()
{
    const double end = hasData() && m_data->endSeconds > 0 ? m_data->endSeconds : 1e-3;
    setTimeRange(-kRangePadding * end, (1 + kRangePadding) * end);
}

void HloStepTimelineView::setTimeRange(double lowerSeconds, double upperSeconds)
{
    if (!(upperSeconds > lowerSeconds))
        return;
    plot()->xAxis->setRange(lowerSeconds, upperSeconds); // onRangeChanged clamps
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void HloStepTimelineView::zoomBy(double factor)
{
    const QCPRange range = plot()->xAxis->range();
    const TimeRange zoomed = zoomedRange({ range.lower, range.upper }, factor);
    setTimeRange(zoomed.lower, zoomed.upper);
}

void HloStepTimelineView::panBy(double fraction)
{
    const QCPRange range = plot()->xAxis->range();
    const TimeRange panned = pannedRange({ range.lower, range.upper }, fraction);
    setTimeRange(panned.lower, panned.upper);
}

void HloStepTimelineView::onRangeChanged()
{
    if (m_adjustingRange)
        return;
    QCPAxis* axis = plot()->xAxis;
    const double end = hasData() && m_data->endSeconds > 0 ? m_data->endSeconds : 1e-3;
    const QCPRange range = axis->range();
    // At most the whole step, at least a nanosecond or a millionth of it.
    const TimeRange clamped = clampTimeRange(
        { range.lower, range.upper }, -kRangePadding * end, (1 + kRangePadding) * end, std::max(1e-9, end * 1e-6));
    if (clamped.lower != range.lower || clamped.upper != range.upper) {
        m_adjustingRange = true;
        axis->setRange(clamped.lower, clamped.upper);
        m_adjustingRange = false;
    }
    if (auto ticker = axis->ticker().dynamicCast<TimeAxisTicker>())
        axis->setLabel(ticker->axisLabel(axis->range()));
}

std::pair<int, int> HloStepTimelineView::barAt(const QPoint& plotPixel) const
{
    if (!hasData() || !plot()->axisRect()->rect().contains(plotPixel))
        return { -1, -1 };
    return m_timeline->barAtPixel(plotPixel);
}

QString HloStepTimelineView::toolTipAt(const QPoint& plotPixel) const
{
    const auto [lane, bar] = barAt(plotPixel);
    return lane < 0 ? QString() : hloRegionToolTip(*m_data, lane, bar);
}

QPointF HloStepTimelineView::barCenter(int lane, int bar) const
{
    const QRectF rect = m_timeline->barRect(lane, bar);
    return rect.isNull() ? QPointF() : rect.center();
}

void HloStepTimelineView::onMouseMove(QMouseEvent* event)
{
    if (event->buttons() != Qt::NoButton)
        return; // dragging
    const QString text = toolTipAt(event->pos());
    if (text == m_lastToolTip)
        return;
    m_lastToolTip = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot()->mapToGlobal(event->pos()), text, plot());
}

bool HloStepTimelineView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot() && event->type() == QEvent::KeyPress
        && handleTimeAxisKey(*this, static_cast<QKeyEvent*>(event)->key()))
        return true;
    if (watched == plot() && event->type() == QEvent::Leave && !m_lastToolTip.isEmpty()) {
        m_lastToolTip.clear();
        QToolTip::hideText();
    }
    return HloPlotView::eventFilter(watched, event);
}

void HloStepTimelineView::keyPressEvent(QKeyEvent* event)
{
    if (!handleTimeAxisKey(*this, event->key()))
        HloPlotView::keyPressEvent(event);
}

void HloStepTimelineView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    const double dpi = plot()->logicalDpiX() > 0 ? plot()->logicalDpiX() : 96.0;
    wrapLegend(plot()->legend, int(style.widthCm / 2.54 * dpi));
}

} // namespace elk::widgets
