// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/bandwidth_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/run/run_compile.h"
#include "widgets/timeline/time_axis_ticker.h"

namespace elk::widgets {

namespace {

    constexpr double kRangePadding = 0.01; // as GanttView, so the two line up

    QColor curveColour(BandwidthCurve curve)
    {
        switch (curve) {
        case BandwidthCurve::Hbm:
            return QColor::fromRgb(0x0072B2);
        case BandwidthCurve::Noc:
            return QColor::fromRgb(0x009E73);
        case BandwidthCurve::Sram:
            break;
        }
        return QColor::fromRgb(0xD55E00);
    }

    /// Bytes per cycle → GB/s, or TB/s when the axis would reach 2,000 GB/s (shorter tick labels).
    struct RateUnit {
        QString name;
        double perGBps = 1;
    };
    RateUnit rateUnitFor(double maxGBps)
    {
        return maxGBps >= 2000 ? RateUnit { QStringLiteral("TB/s"), 1e-3 } : RateUnit { QStringLiteral("GB/s"), 1 };
    }

    void dashedLevel(QCustomPlot* plot, QCPAxisRect* rect, double level, const QString& label)
    {
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        auto* line = new QCPItemStraightLine(plot);
        line->setClipAxisRect(rect);
        for (QCPItemPosition* position : { line->point1, line->point2 }) {
            position->setAxisRect(rect);
            position->setAxes(x, y);
        }
        line->point1->setCoords(0, level);
        line->point2->setCoords(1, level);
        line->setPen(QPen(QColor(0x40, 0x40, 0x40), 1, Qt::DashLine));
        auto* text = new QCPItemText(plot);
        text->setClipAxisRect(rect);
        text->position->setAxisRect(rect);
        text->position->setAxes(x, y);
        text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        text->position->setTypeY(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(0.995, level);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop); // below the line: never clipped at the top
        text->setText(label);
        text->setColor(QColor(0x40, 0x40, 0x40));
        text->setPadding(QMargins(2, 1, 2, 0));
        text->setBrush(QColor(255, 255, 255, 210)); // readable where the curve reaches the line
    }

} // namespace

BandwidthView::BandwidthView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("bandwidth"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setNoAntialiasingOnDrag(true);
    if (p->legend)
        p->legend->setVisible(false);
    p->plotLayout()->setRowSpacing(4);
    auto* group = new QCPMarginGroup(p);
    auto ticker = QSharedPointer<TimeAxisTicker>::create(1e9);
    for (int i = 0; i < 3; ++i) {
        QCPAxisRect* rect = i == 0 ? p->axisRect() : new QCPAxisRect(p);
        if (i > 0)
            p->plotLayout()->addElement(i, 0, rect);
        m_rects[i] = rect;
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        x->setTicker(ticker);
        x->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
        y->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
        y->ticker()->setTickCount(3); // short rects: few, readable value ticks
        // Stacked tightly: only the bottom rect has time labels, and nothing sits above any rect.
        rect->setAutoMargins(i < 2 ? QCP::msLeft | QCP::msRight : QCP::msLeft | QCP::msRight | QCP::msBottom);
        rect->setMargins(QMargins(0, 4, 0, i < 2 ? 4 : 0));
        if (i < 2) {
            x->setTickLabels(false);
            x->setTickLength(0, 3);
        }
        for (QCPAxis::AxisType side : { QCPAxis::atTop, QCPAxis::atRight }) {
            QCPAxis* frame = rect->axis(side);
            frame->setVisible(true);
            frame->setTicks(false);
            frame->setTickLabels(false);
        }
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->setRangeDragAxes(x, nullptr);
        rect->setRangeZoomAxes(x, nullptr);
        QCPGraph* graph = p->addGraph(x, y);
        const QColor colour = curveColour(BandwidthCurve(i));
        graph->setPen(QPen(colour, 1.2));
        QColor fill = colour;
        fill.setAlpha(50);
        graph->setBrush(fill);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setSelectable(QCP::stNone);
        m_graphs[i] = graph;
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, rect] { onRangeChanged(rect); });
    }
    m_graphs[0]->setName(QStringLiteral("HBM"));
    m_graphs[1]->setName(QStringLiteral("NoC"));
    m_graphs[2]->setName(QStringLiteral("SRAM"));
    rebuild();
}

BandwidthView::~BandwidthView() = default;

QCPGraph* BandwidthView::graph(BandwidthCurve curve) const
{
    return m_graphs[int(curve)];
}

bool BandwidthView::hasData() const
{
    return m_latencyCycles > 0 && !graph(BandwidthCurve::Hbm)->data()->isEmpty();
}

double BandwidthView::lowerCycles() const
{
    return m_rects[2]->axis(QCPAxis::atBottom)->range().lower;
}

double BandwidthView::upperCycles() const
{
    return m_rects[2]->axis(QCPAxis::atBottom)->range().upper;
}

int BandwidthView::pointCount(BandwidthCurve curve) const
{
    return graph(curve)->dataCount();
}

double BandwidthView::valueAt(BandwidthCurve curve, double cycles) const
{
    const auto data = graph(curve)->data();
    if (data->isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    auto it = data->findEnd(cycles, false); // first point after `cycles`
    if (it == data->constBegin())
        return it->value;
    return (it - 1)->value;
}

QString BandwidthView::unit(BandwidthCurve curve) const
{
    return m_units[int(curve)];
}

int BandwidthView::plotLeftMargin() const
{
    return m_rects[0]->margins().left();
}

void BandwidthView::setMinimumLeftMargin(int pixels)
{
    for (QCPAxisRect* rect : m_rects) {
        QMargins margins = rect->minimumMargins();
        margins.setLeft(std::max(0, pixels));
        rect->setMinimumMargins(margins);
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void BandwidthView::rebuild()
{
    if (m_run.get() != m_shownRun || m_designIndex != m_shownDesign) {
        m_shownRun = m_run.get();
        m_shownDesign = m_designIndex;
        rebuildCurves();
    }
    showSelection();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void BandwidthView::showSelection()
{
    for (QCPAbstractItem* item : std::as_const(m_selectionBands))
        plot()->removeItem(item);
    m_selectionBands.clear();
    if (!hasData() || m_selectedStep < 0)
        return;
    const auto& design = m_run->designs[std::size_t(std::clamp(m_designIndex, 0, int(m_run->designs.size()) - 1))];
    const int designStep = designStepOf(m_selectedStep);
    if (!design.simulated || designStep < 0 || std::size_t(designStep) >= design.simulated->steps.size())
        return;
    const schedule::Interval execute = design.simulated->steps[std::size_t(designStep)].execute;
    for (QCPAxisRect* rect : m_rects) {
        auto* band = new QCPItemRect(plot());
        band->setClipAxisRect(rect);
        for (QCPItemPosition* corner : { band->topLeft, band->bottomRight }) {
            corner->setAxisRect(rect);
            corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        band->topLeft->setCoords(execute.startCycles, 0);
        band->bottomRight->setCoords(execute.endCycles, 1);
        band->setPen(QPen(QColor(0x30, 0x30, 0x30), 0));
        band->setBrush(QColor(0, 0, 0, 28));
        band->setSelectable(false);
        m_selectionBands << band;
    }
}

void BandwidthView::rebuildCurves()
{
    QCustomPlot* p = plot();
    for (QCPGraph* g : m_graphs)
        g->data()->clear();
    m_selectionBands.clear();
    p->clearItems();
    m_latencyCycles = 0;
    m_peakHbmGBps = 0;
    const sim::SimResult* sim = nullptr;
    if (m_run && !m_run->designs.empty()) {
        const auto& design = m_run->designs[std::size_t(std::clamp(m_designIndex, 0, int(m_run->designs.size()) - 1))];
        if (design.simulated)
            sim = &*design.simulated;
    }
    if (!sim || sim->latencyCycles <= 0) {
        for (int i = 0; i < 3; ++i)
            m_units[i].clear();
        return;
    }
    const chip::ChipSpec& chip = m_run->spec.chip;
    const double clockHz = sim->clockHz > 0 ? sim->clockHz : chip.clockHz;
    m_latencyCycles = sim->latencyCycles;
    m_peakHbmGBps = chip.totalHbmBandwidthGBps();
    if (auto ticker = m_rects[0]->axis(QCPAxis::atBottom)->ticker().dynamicCast<TimeAxisTicker>())
        ticker->setClockHz(clockHz);

    const auto fill = [&](QCPGraph* graph, const std::vector<sim::CounterSample>& samples, double scale) {
        QVector<double> keys, values;
        keys.reserve(qsizetype(samples.size()) + 1);
        values.reserve(qsizetype(samples.size()) + 1);
        double peak = 0;
        for (const sim::CounterSample& sample : samples) {
            keys << sample.atCycles;
            values << sample.value * scale;
            peak = std::max(peak, sample.value * scale);
        }
        if (!samples.empty() && samples.back().atCycles < m_latencyCycles) {
            keys << m_latencyCycles; // close the last step
            values << values.back();
        }
        graph->setData(keys, values, true);
        return peak;
    };
    const double gbpsPerBytePerCycle = clockHz / 1e9;
    double hbmMax = 0, nocMax = 0;
    for (const auto& s : sim->hbmBytesPerCycle)
        hbmMax = std::max(hbmMax, s.value * gbpsPerBytePerCycle);
    for (const auto& s : sim->nocBytesPerCycle)
        nocMax = std::max(nocMax, s.value * gbpsPerBytePerCycle);
    const RateUnit hbmUnit = rateUnitFor(std::max(hbmMax, m_peakHbmGBps));
    const RateUnit nocUnit = rateUnitFor(nocMax);
    fill(m_graphs[0], sim->hbmBytesPerCycle, gbpsPerBytePerCycle * hbmUnit.perGBps);
    fill(m_graphs[1], sim->nocBytesPerCycle, gbpsPerBytePerCycle * nocUnit.perGBps);
    const double sramScale = chip.sramBytesPerCore > 0 ? 100.0 / double(chip.sramBytesPerCore) : 0;
    const double sramMax = fill(m_graphs[2], sim->sramBytesPerCore, sramScale);
    m_units[0] = hbmUnit.name;
    m_units[1] = nocUnit.name;
    m_units[2] = QStringLiteral("%");

    const double peak = m_peakHbmGBps * hbmUnit.perGBps;
    m_rects[0]->axis(QCPAxis::atLeft)->setLabel(QStringLiteral("HBM (%1)").arg(hbmUnit.name));
    m_rects[0]->axis(QCPAxis::atLeft)->setRange(0, std::max(peak, hbmMax * hbmUnit.perGBps) * 1.18);
    m_rects[1]->axis(QCPAxis::atLeft)->setLabel(QStringLiteral("NoC (%1)").arg(nocUnit.name));
    m_rects[1]->axis(QCPAxis::atLeft)->setRange(0, nocMax > 0 ? nocMax * nocUnit.perGBps * 1.1 : 1);
    m_rects[2]->axis(QCPAxis::atLeft)->setLabel(QStringLiteral("SRAM (%)"));
    m_rects[2]->axis(QCPAxis::atLeft)->setRange(0, std::max(100.0, sramMax) * 1.18);
    const int decimals = peak < 10 ? 2 : peak < 100 ? 1 : 0;
    dashedLevel(
        p, m_rects[0], peak, QStringLiteral("peak %1 %2").arg(QString::number(peak, 'f', decimals), hbmUnit.name));
    dashedLevel(p, m_rects[2], 100, QStringLiteral("SRAM capacity"));
    resetTimeRange();
}

void BandwidthView::resetTimeRange()
{
    const double latency = m_latencyCycles > 0 ? m_latencyCycles : 1.0;
    setTimeRange(-kRangePadding * latency, (1 + kRangePadding) * latency);
}

void BandwidthView::setTimeRange(double lowerCycles, double upperCycles)
{
    if (!(upperCycles > lowerCycles))
        return;
    m_rects[2]->axis(QCPAxis::atBottom)->setRange(lowerCycles, upperCycles); // onRangeChanged syncs
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void BandwidthView::onRangeChanged(QCPAxisRect* source)
{
    if (m_syncing)
        return;
    m_syncing = true;
    QCPAxis* axis = source->axis(QCPAxis::atBottom);
    const double latency = m_latencyCycles > 0 ? m_latencyCycles : 1.0;
    const TimeRange clamped = clampTimeRange({ axis->range().lower, axis->range().upper }, -kRangePadding * latency,
        (1 + kRangePadding) * latency, std::max(20.0, latency * 1e-7));
    for (QCPAxisRect* rect : m_rects)
        rect->axis(QCPAxis::atBottom)->setRange(clamped.lower, clamped.upper);
    QCPAxis* bottom = m_rects[2]->axis(QCPAxis::atBottom);
    if (auto ticker = bottom->ticker().dynamicCast<TimeAxisTicker>())
        bottom->setLabel(ticker->axisLabel(bottom->range()));
    m_syncing = false;
    emit timeRangeChanged(clamped.lower, clamped.upper);
}

} // namespace elk::widgets
