// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/waterfall_view.h"

#include "engine/run/explain.h"

#include <algorithm>
#include <cmath>

#include <QFontInfo>
#include <QResizeEvent>

using namespace Qt::Literals::StringLiterals;

namespace elk::widgets {

namespace {

    constexpr double kBarWidth = 0.66;

    QString floorKindText(sim::FloorKind kind)
    {
        switch (kind) {
        case sim::FloorKind::Hbm:
            return QStringLiteral("HBM");
        case sim::FloorKind::Compute:
            return QStringLiteral("compute");
        case sim::FloorKind::Link:
            return QStringLiteral("link");
        }
        return {};
    }

    /// Loss colours: Okabe–Ito for the eight that matter most, two greys for the rest; hatching by
    /// series index tells them apart in grayscale.
    QColor causeColor(int cause)
    {
        switch (sim::GapCause(cause)) {
        case sim::GapCause::SramFullWait:
            return paletteColor(1);
        case sim::GapCause::DependencyWait:
            return paletteColor(2);
        case sim::GapCause::InterconnectContention:
            return paletteColor(3);
        case sim::GapCause::SramPortContention:
            return paletteColor(4);
        case sim::GapCause::Warmup:
            return paletteColor(5);
        case sim::GapCause::Shift:
            return paletteColor(6);
        case sim::GapCause::Reduction:
            return paletteColor(7);
        case sim::GapCause::PreloadPath:
            return QColor(0xB8, 0xB8, 0xB8);
        case sim::GapCause::ComputeBound:
            return QColor(0xE8, 0xE8, 0xE8);
        case sim::GapCause::ComputeEfficiency:
            return paletteColor(0);
        }
        return Qt::gray;
    }

} // namespace

WaterfallView::WaterfallView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("waterfall"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setAutoAddPlottableToLegend(false);
    QCPAxisRect* rect = p->axisRect();
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    p->xAxis->setLabel(tr("Latency (ms): floor + losses"));
    p->xAxis->grid()->setVisible(true);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setRangeReversed(true); // first design on top
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    p->yAxis->setSubTicks(false);
    p->yAxis->setTickLength(0, 0);
    QCPAxis* totals = p->yAxis2;
    totals->setVisible(true);
    totals->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    totals->setRangeReversed(true);
    totals->setSubTicks(false);
    totals->setTickLength(0, 0);
    totals->setBasePen(Qt::NoPen);
    totals->setTickPen(Qt::NoPen);
    connect(p->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), totals,
        qOverload<const QCPRange&>(&QCPAxis::setRange));

    p->legend->setVisible(false);
    p->legend->setBorderPen(Qt::NoPen);
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    placeLegendInRow(p, 1); // below the plot
    p->plotLayout()->setRowStretchFactor(1, 0.001);
    p->legend->setMargins(QMargins(0, 0, 0, 0));
    p->legend->setColumnSpacing(10);
    setLegendWrap(p->legend, 4);
    connect(p, &QCustomPlot::plottableClick, this, &WaterfallView::onPlottableClick);
    p->installEventFilter(this);
    rebuild();
}

void WaterfallView::fitLegend(double widthEm)
{
    // An entry is about 13 font sizes wide ("preload held: SRAM full" and its swatch).
    setLegendWrap(plot()->legend, std::clamp(int(widthEm / 13.0), 1, 6));
    plot()->xAxis->ticker()->setTickCount(widthEm < 45 ? 3 : 6);
}

void WaterfallView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    fitLegend(style.widthCm / 2.54 * 72.0 / style.fontPt);
}

bool WaterfallView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot() && event->type() == QEvent::Resize) {
        const int fontPx = QFontInfo(plot()->font()).pixelSize();
        fitLegend(fontPx > 0 ? double(static_cast<QResizeEvent*>(event)->size().width()) / fontPx : 60.0);
    }
    return PlotView::eventFilter(watched, event);
}

WaterfallView::~WaterfallView() = default;

bool WaterfallView::hasData() const
{
    return m_run && !run::waterfallsOf(*m_run).empty();
}

void WaterfallView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearPlottables();
    p->clearItems();
    p->legend->clearItems();
    m_rowNames.clear();
    m_rowDesigns.clear();
    auto names = qSharedPointerDynamicCast<QCPAxisTickerText>(p->yAxis->ticker());
    auto totals = qSharedPointerDynamicCast<QCPAxisTickerText>(p->yAxis2->ticker());
    names->clear();
    totals->clear();
    if (!m_run) {
        p->legend->setVisible(false);
        p->replot();
        return;
    }
    std::vector<run::Waterfall> rows;
    for (std::size_t d = 0; d < m_run->designs.size(); ++d) {
        const run::DesignRun& design = m_run->designs[d];
        if (!design.simulated || !(design.simulated->latencyCycles > 0))
            continue;
        rows.push_back(run::waterfallOf(*design.simulated, design.design));
        m_rowNames.append(QString::fromLatin1(schedule::toString(design.design)));
        m_rowDesigns.append(int(d));
    }
    p->legend->setVisible(!rows.empty());
    const auto addBars = [&](const QString& name, const QColor& color, int cause, QCPBars* below) {
        auto* bars = new QCPBars(p->yAxis, p->xAxis);
        bars->setName(name);
        bars->setWidth(kBarWidth);
        bars->setBrush(color);
        bars->setPen(QPen(outlineColor(color), 0.75));
        bars->setAntialiased(false);
        bars->setProperty("elkCause", cause);
        bars->setProperty("elkSeries", cause + 1);
        if (below)
            bars->moveAbove(below);
        return bars;
    };
    // One floor kind for every row (the usual case) goes into the legend; mixed kinds into each label.
    bool oneKind = true;
    for (const run::Waterfall& w : rows)
        oneKind = oneKind && w.floorKind == rows.front().floorKind;
    QCPBars* floor
        = addBars(oneKind && !rows.empty() ? tr("floor: %1").arg(floorKindText(rows.front().floorKind)) : tr("floor"),
            QColor(0x55, 0x55, 0x55), -1, nullptr);
    floor->addToLegend(p->legend);
    QCPBars* below = floor;
    double latencyMax = 0;
    for (std::size_t row = 0; row < rows.size(); ++row) {
        const run::Waterfall& w = rows[row];
        floor->addData(double(row), w.floorMs);
        names->addTick(double(row), m_rowNames[int(row)]);
        const QString share = QString::number(w.floorMs / w.latencyMs * 100, 'f', 0) + u" %"_s;
        totals->addTick(double(row),
            tr("%1 ms (%2)")
                .arg(w.latencyMs, 0, 'f', 3)
                .arg(oneKind ? share : floorKindText(w.floorKind) + u" "_s + share));
        latencyMax = std::max(latencyMax, w.latencyMs);
    }
    for (int cause = 0; cause < sim::kGapCauseCount; ++cause) {
        QCPBars* bars = nullptr;
        for (std::size_t row = 0; row < rows.size(); ++row) {
            const double ms = rows[row].losses[std::size_t(cause)].ms;
            if (!(ms > 1e-4 * rows[row].latencyMs)) // below a pixel on any screen
                continue;
            if (!bars)
                bars = addBars(
                    QString::fromLatin1(sim::describe(sim::GapCause(cause))), causeColor(cause), cause, below);
            bars->addData(double(row), ms);
        }
        if (bars) {
            bars->addToLegend(p->legend);
            below = bars;
        }
    }
    p->yAxis->setRange(-0.6, std::max<double>(1, double(rows.size())) - 0.4);
    p->xAxis->setRange(0, std::max(1e-6, latencyMax * 1.04));
    p->replot();
}

QPointF WaterfallView::partCenter(int designIndex, int cause) const
{
    const int row = int(m_rowDesigns.indexOf(designIndex));
    if (row < 0)
        return {};
    QCustomPlot* p = plot();
    for (int i = 0; i < p->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(p->plottable(i));
        if (!bars || bars->property("elkCause").toInt() != cause)
            continue;
        const auto it = bars->data()->findBegin(double(row) - 0.01, false);
        if (it == bars->data()->constEnd() || std::abs(it->key - double(row)) > 0.01)
            return {};
        // Stacked: the part starts where the parts below it at this row end.
        double start = 0;
        for (QCPBars* lower = bars->barBelow(); lower; lower = lower->barBelow()) {
            const auto at = lower->data()->findBegin(double(row) - 0.01, false);
            if (at != lower->data()->constEnd() && std::abs(at->key - double(row)) <= 0.01)
                start += at->value;
        }
        const double x = p->xAxis->coordToPixel(start + it->value / 2);
        return { x, p->yAxis->coordToPixel(double(row)) };
    }
    return {};
}

void WaterfallView::onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*)
{
    auto* bars = qobject_cast<QCPBars*>(plottable);
    if (!bars || dataIndex < 0 || dataIndex >= bars->dataCount())
        return;
    const int row = int(std::lround(bars->data()->at(dataIndex)->key));
    if (row < 0 || row >= m_rowDesigns.size())
        return;
    emit partSelected(m_rowDesigns[row], bars->property("elkCause").toInt());
}

} // namespace elk::widgets
