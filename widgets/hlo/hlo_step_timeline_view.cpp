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
#include "widgets/timeline/time_axis_plot.h"
#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

namespace {

    const HloTimelineData kNoData;

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
    setFocusProxy(p);
    m_time = new TimeAxisPlot(p, 1.0); // coordinates are seconds
    m_time->setToolTipText([this](const QPoint& pixel) { return toolTipAt(pixel); });

    m_timeline = new HloTimelinePlottable(p->xAxis, p->yAxis);
    m_timeline->setName(QStringLiteral("step"));
    p->xAxis->setLabel(QStringLiteral("time (ms)"));
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
    return m_time->lower();
}

double HloStepTimelineView::upperSeconds() const
{
    return m_time->upper();
}

QString HloStepTimelineView::lastToolTip() const
{
    return m_time->lastToolTip();
}

void HloStepTimelineView::rebuild()
{
    m_data = std::make_shared<HloTimelineData>(buildHloTimeline(m_results));
    m_timeline->setData(m_data);
    // At most the whole step, at least a nanosecond or a millionth of it.
    const double end = hasData() && m_data->endSeconds > 0 ? m_data->endSeconds : 1e-3;
    m_time->setExtent(end, std::max(1e-9, end * 1e-6));
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
    m_time->resetTimeRange();
}

void HloStepTimelineView::setTimeRange(double lowerSeconds, double upperSeconds)
{
    m_time->setTimeRange(lowerSeconds, upperSeconds);
}

void HloStepTimelineView::zoomBy(double factor)
{
    m_time->zoomBy(factor);
}

void HloStepTimelineView::panBy(double fraction)
{
    m_time->panBy(fraction);
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

void HloStepTimelineView::keyPressEvent(QKeyEvent* event)
{
    if (!m_time->handleKey(event->key()))
        HloPlotView::keyPressEvent(event);
}

void HloStepTimelineView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    m_time->wrapLegendFor(style);
}

} // namespace elk::widgets
