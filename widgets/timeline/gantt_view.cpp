// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/gantt_view.h"

#include <algorithm>
#include <cmath>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>

#include "engine/run/run_compile.h"
#include "widgets/timeline/gantt_plottable.h"
#include "widgets/timeline/time_axis_plot.h"
#include "widgets/timeline/timeline_geometry.h"
#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

namespace {

    const GanttData kNoData;

    QColor shadeLegendBase()
    {
        return QColor::fromRgb(0x707070);
    }

} // namespace

GanttView::GanttView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("gantt"));
    setFocusProxy(p);
    m_time = new TimeAxisPlot(p, 1e9); // cycles; the clock follows the run
    m_time->setToolTipText([this](const QPoint& pixel) { return toolTipAt(pixel); });
    connect(m_time, &TimeAxisPlot::rangeChanged, this, &GanttView::timeRangeChanged);

    m_gantt = new GanttPlottable(p->xAxis, p->yAxis);
    m_gantt->setName(QStringLiteral("timeline"));

    p->xAxis->setLabel(QStringLiteral("time (µs)"));
    auto lanes = QSharedPointer<QCPAxisTickerText>::create();
    lanes->addTick(GanttPlottable::laneY(GanttLane::Preload), QStringLiteral("preload"));
    lanes->addTick(GanttPlottable::laneY(GanttLane::Execute), QStringLiteral("execute"));
    lanes->addTick(GanttPlottable::laneY(GanttLane::Stall), QStringLiteral("stalls"));
    p->yAxis->setTicker(lanes);
    p->yAxis->setRange(GanttPlottable::kValueLower, GanttPlottable::kValueUpper);

    connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { m_pressPos = event->pos(); });
    connect(p, &QCustomPlot::mouseRelease, this, &GanttView::onMouseRelease);
    rebuild();
}

GanttView::~GanttView() = default;

bool GanttView::hasData() const
{
    return m_data && !m_data->empty();
}

const GanttData& GanttView::data() const
{
    return m_data ? *m_data : kNoData;
}

double GanttView::lowerCycles() const
{
    return m_time->lower();
}

double GanttView::upperCycles() const
{
    return m_time->upper();
}

QString GanttView::lastToolTip() const
{
    return m_time->lastToolTip();
}

void GanttView::rebuild()
{
    const void* runKey = m_run.get();
    if (runKey != m_shownRun || m_designIndex != m_shownDesign) {
        m_shownRun = runKey;
        m_shownDesign = m_designIndex;
        clearHighlight();
        m_data = std::make_shared<GanttData>();
        if (m_run && !m_run->designs.empty()) {
            const int design = std::clamp(m_designIndex, 0, int(m_run->designs.size()) - 1);
            *m_data = buildGanttData(*m_run, design);
        }
        m_gantt->setData(m_data);
        m_time->setUnitsPerSecond(m_data->clockHz);
        // At most the whole run, at least ~20 cycles (below that no bar has anything left to show).
        const double latency = hasData() ? m_data->latencyCycles : 1.0;
        m_time->setExtent(latency, std::max(20.0, latency * 1e-7));
        rebuildLegend();
        resetTimeRange();
    }
    const int designStep = designStepOf(m_selectedStep);
    m_gantt->setSelectedStep(designStep);
    if (m_selectedStep != m_shownStep) {
        m_shownStep = m_selectedStep;
        // An op selected in another view: bring its execution into view, keeping the zoom.
        if (hasData() && designStep >= 0 && std::size_t(designStep) < m_data->ops.size()) {
            const GanttOp& op = m_data->ops[std::size_t(designStep)];
            const QCPRange range = plot()->xAxis->range();
            if (op.executeEnd < range.lower || op.executeStart > range.upper) {
                const double centre = (op.executeStart + op.executeEnd) / 2;
                setTimeRange(centre - range.size() / 2, centre + range.size() / 2);
            }
        }
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void GanttView::clearHighlight()
{
    for (QCPAbstractItem* item : m_highlightItems)
        plot()->removeItem(item);
    m_highlightItems.clear();
    m_highlightSpans = 0;
    m_highlightLabel.clear();
}

void GanttView::setHighlight(const std::vector<schedule::Interval>& intervals, const QString& label)
{
    clearHighlight();
    QCustomPlot* p = plot();
    if (!hasData() || intervals.empty()) {
        p->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // Thousands of short stretches (one per layer) merge where a screen could not tell them apart.
    const double span = std::max(1.0, m_data->latencyCycles);
    const double joinCycles = span / 4000.0;
    std::vector<schedule::Interval> merged;
    for (const schedule::Interval& i : intervals) {
        if (!merged.empty() && i.startCycles - merged.back().endCycles <= joinCycles)
            merged.back().endCycles = std::max(merged.back().endCycles, i.endCycles);
        else
            merged.push_back(i);
    }
    const QColor fill(0xF0, 0xB0, 0x00, 70);
    for (const schedule::Interval& i : merged) {
        auto* rect = new QCPItemRect(p);
        rect->setLayer(QStringLiteral("grid")); // under the bars
        rect->setClipToAxisRect(true);
        rect->topLeft->setCoords(i.startCycles, GanttPlottable::kValueUpper);
        rect->bottomRight->setCoords(
            std::max(i.endCycles, i.startCycles + joinCycles * 0.25), GanttPlottable::kValueLower);
        rect->setPen(QPen(QColor(0xC0, 0x80, 0x00, 160), 0));
        rect->setBrush(fill);
        m_highlightItems.push_back(rect);
    }
    m_highlightSpans = int(merged.size());
    m_highlightLabel = label;
    auto* text = new QCPItemText(p);
    text->setClipToAxisRect(true);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.005, 0.01);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    text->setBrush(QColor(255, 255, 255, 220));
    text->setPadding(QMargins(3, 1, 3, 1));
    text->setText(label);
    m_highlightItems.push_back(text);
    p->replot(QCustomPlot::rpQueuedReplot);
}

void GanttView::rebuildLegend()
{
    QCustomPlot* p = plot();
    for (int i = p->plottableCount() - 1; i >= 0; --i) {
        if (p->plottable(i) != m_gantt)
            p->removePlottable(i);
    }
    m_gantt->removeFromLegend();
    p->legend->clearItems();
    if (!hasData())
        return;
    // One swatch per colour (opKindColor groups kinds: matmul and conv share one), contractions first.
    const auto rank = [](const QColor& colour) {
        const QString order[] = { QStringLiteral("matmul"), QStringLiteral("elementwise"), QStringLiteral("reduce"),
            QStringLiteral("gather") };
        for (int i = 0; i < 4; ++i) {
            if (opKindColor(order[i]) == colour)
                return i;
        }
        return 4;
    };
    QList<QColor> colours;
    QStringList names;
    for (const QString& kind : m_data->kinds) {
        const QColor colour = opKindColor(kind);
        const auto at = colours.indexOf(colour);
        if (at < 0) {
            colours << colour;
            names << kind;
        } else {
            names[at] += QStringLiteral(", ") + kind;
        }
    }
    QList<int> order;
    for (int i = 0; i < int(colours.size()); ++i)
        order << i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rank(colours[a]) < rank(colours[b]); });
    for (const int i : order)
        addLegendSwatch(p, names[i], { QBrush(colours[i]) });
    const QColor base = colours.isEmpty() ? shadeLegendBase() : colours[order.front()];
    addLegendSwatch(p, QStringLiteral("warm-up | compute | shift + reduce"),
        { QBrush(GanttPlottable::warmupShade(base)), QBrush(base), QBrush(GanttPlottable::commShade(base)) });
    addLegendSwatch(p, QStringLiteral("interconnect stall"), { QBrush(GanttPlottable::stallColor()) });
    addLegendSwatch(p, QStringLiteral("waiting for preload"), { GanttPlottable::waitBrush() });
}

void GanttView::resetTimeRange()
{
    m_time->resetTimeRange();
}

void GanttView::setTimeRange(double lowerCycles, double upperCycles)
{
    m_time->setTimeRange(lowerCycles, upperCycles);
}

void GanttView::zoomBy(double factor)
{
    m_time->zoomBy(factor);
}

void GanttView::panBy(double fraction)
{
    m_time->panBy(fraction);
}

int GanttView::stepAt(const QPoint& plotPixel, GanttLane* lane) const
{
    if (!hasData() || !plot()->axisRect()->rect().contains(plotPixel))
        return -1;
    return m_gantt->stepAtPixel(plotPixel, lane);
}

QString GanttView::toolTipAt(const QPoint& plotPixel) const
{
    GanttLane lane = GanttLane::Execute;
    const int step = stepAt(plotPixel, &lane);
    if (step < 0)
        return {};
    return ganttToolTip(*m_data, step, lane);
}

QPointF GanttView::barCenter(int step, GanttLane lane) const
{
    const QRectF rect = m_gantt->barRect(step, lane);
    return rect.isNull() ? QPointF() : rect.center();
}

int GanttView::plotLeftMargin() const
{
    return plot()->axisRect()->margins().left();
}

void GanttView::setMinimumLeftMargin(int pixels)
{
    QMargins margins = plot()->axisRect()->minimumMargins();
    margins.setLeft(std::max(0, pixels));
    plot()->axisRect()->setMinimumMargins(margins);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void GanttView::onMouseRelease(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || (event->pos() - m_pressPos).manhattanLength() > 3)
        return; // a drag, not a click
    const int step = stepAt(event->pos());
    if (step < 0)
        return;
    m_selectedStep = referenceStepOf(step); // what every view selects in
    m_shownStep = m_selectedStep;
    m_gantt->setSelectedStep(step);
    plot()->replot(QCustomPlot::rpQueuedReplot);
    emit stepSelected(m_selectedStep);
}

void GanttView::keyPressEvent(QKeyEvent* event)
{
    if (!m_time->handleKey(event->key()))
        PlotView::keyPressEvent(event);
}

void GanttView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    m_time->wrapLegendFor(style);
}

} // namespace elk::widgets
