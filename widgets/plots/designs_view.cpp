// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/designs_view.h"

#include "engine/run/run_compile.h"

#include <algorithm>
#include <cmath>

#include <QFontInfo>
#include <QResizeEvent>

using namespace Qt::Literals::StringLiterals;

namespace elk::widgets {

namespace {

    constexpr double kRowHeight = 1.0;

    QColor tinted(const QColor& color, bool second)
    {
        if (!second)
            return color;
        // The compare run: the same hue mixed 55 % towards white (lighter in grayscale too).
        return QColor::fromRgbF(color.redF() * 0.45 + 0.55, color.greenF() * 0.45 + 0.55, color.blueF() * 0.45 + 0.55);
    }

    double niceUpper(double value)
    {
        if (!(value > 0))
            return 1;
        const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
        for (const double step : { 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0 }) {
            if (step * magnitude >= value)
                return step * magnitude;
        }
        return 10 * magnitude;
    }

    QCPAxisRect* makePanel(QCustomPlot* plot, const QString& xLabel)
    {
        auto* rect = new QCPAxisRect(plot, true);
        rect->setupFullAxesBox(false);
        rect->axis(QCPAxis::atTop)->setVisible(false);
        rect->axis(QCPAxis::atRight)->setVisible(false);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        x->setLabel(xLabel);
        x->ticker()->setTickCount(4);
        x->grid()->setVisible(true);
        y->grid()->setVisible(false);
        y->setRangeReversed(true); // first design on top
        y->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        y->setSubTicks(false);
        y->setTickLength(0, 0);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        return rect;
    }

    QCPBars* addBars(QCPAxisRect* rect, const QString& name, const QColor& color, double width)
    {
        auto* bars = new QCPBars(rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom));
        bars->setName(name);
        bars->setWidth(width);
        bars->setBrush(color);
        bars->setPen(QPen(outlineColor(color), 0.75));
        bars->setAntialiased(false);
        bars->setAntialiasedFill(false);
        return bars;
    }

    /// Where the bars of run `slot` (0: the run, 1: the compare run) sit within row `row`.
    struct Slot {
        double center = 0;
        double width = 0;
    };

    Slot slotOf(int row, int slot, bool compare)
    {
        if (!compare)
            return { row * kRowHeight, 0.72 };
        return { row * kRowHeight + (slot == 0 ? -0.2 : 0.2), 0.38 };
    }

} // namespace

std::vector<DesignFigures> designFigures(const run::RunResult& run)
{
    std::vector<DesignFigures> figures;
    const double analyticClockHz = run.problem.clockHz > 0 ? run.problem.clockHz : run.spec.chip.clockHz;
    double basicMs = 0;
    for (const run::DesignRun& design : run.designs) {
        DesignFigures f;
        f.name = QString::fromLatin1(schedule::toString(design.design));
        if (!design.schedule || !design.simulated || !(design.simulated->latencyCycles > 0)
            || !(design.simulated->clockHz > 0)) {
            f.error = design.error.empty() ? QStringLiteral("not simulated") : QString::fromStdString(design.error);
            figures.push_back(f);
            continue;
        }
        const sim::SimResult& sim = *design.simulated;
        f.ok = true;
        f.latencyMs = sim.latencyCycles / sim.clockHz * 1e3;
        f.analyticLatencyMs = analyticClockHz > 0 ? design.metrics.latencyCycles / analyticClockHz * 1e3 : 0;
        f.overlapPercent = 100.0 * sim.overlapCycles / sim.latencyCycles;
        f.preloadOnlyPercent = 100.0 * sim.preloadOnlyCycles / sim.latencyCycles;
        f.executeOnlyPercent = 100.0 * sim.executeOnlyCycles / sim.latencyCycles;
        f.stallPercent = 100.0 * sim.interconnectStallCycles / sim.latencyCycles;
        f.hbmUtilizationPercent = 100.0 * sim.hbmUtilization;
        f.nocUtilizationPercent = 100.0 * sim.nocUtilization;
        if (design.design == schedule::Design::Basic)
            basicMs = f.latencyMs;
        figures.push_back(f);
    }
    for (DesignFigures& f : figures) {
        if (f.ok && basicMs > 0)
            f.speedup = basicMs / f.latencyMs;
    }
    return figures;
}

QString speedupText(double speedup)
{
    return QString::number(speedup, 'f', 2) + QChar(0x00D7);
}

DesignsView::DesignsView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("designs"));
    p->plotLayout()->clear(); // drops the default axis rect and legend
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setAutoAddPlottableToLegend(false); // the legend lists one entry per series, not per bar
    p->installEventFilter(this);

    auto* panels = new QCPLayoutGrid;
    p->plotLayout()->addElement(0, 0, panels);
    m_latencyRect = makePanel(p, tr("Latency (ms)"));
    m_breakdownRect = makePanel(p, tr("Time share (%)"));
    m_utilizationRect = makePanel(p, tr("Utilisation (%)"));
    panels->addElement(0, 0, m_latencyRect);
    panels->addElement(0, 1, m_breakdownRect);
    panels->addElement(0, 2, m_utilizationRect);
    panels->setColumnSpacing(6);
    panels->setColumnStretchFactors({ 1.6, 1.0, 1.0 });
    for (QCPAxisRect* rect : { m_breakdownRect, m_utilizationRect }) {
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        y->setTickLabels(false);
        y->setPadding(0);
        y->setTickLabelPadding(0);
    }
    QCPAxis* speedups = m_latencyRect->axis(QCPAxis::atRight);
    speedups->setVisible(true);
    speedups->setTickLabels(true);
    speedups->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    speedups->setRangeReversed(true);
    speedups->setTickLength(0, 0);
    speedups->setSubTicks(false);
    speedups->setBasePen(Qt::NoPen);
    speedups->setTickPen(Qt::NoPen); // a zero-length tick still draws a dot
    speedups->setTickLabelPadding(2);
    connect(m_latencyRect->axis(QCPAxis::atLeft), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), speedups,
        qOverload<const QCPRange&>(&QCPAxis::setRange));
    auto* group = new QCPMarginGroup(p);
    for (QCPAxisRect* rect : { m_latencyRect, m_breakdownRect, m_utilizationRect })
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_breakdownRect->axis(QCPAxis::atBottom)->setRange(0, 100);

    m_legend = new QCPLegend;
    p->plotLayout()->addElement(1, 0, m_legend);
    p->plotLayout()->setRowStretchFactor(1, 0.001);
    m_legend->setLayer(QStringLiteral("legend"));
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_legend->setWrap(4);
    m_legend->setMargins(QMargins(0, 0, 0, 0));
    m_legend->setColumnSpacing(10);
    m_legend->setVisible(false);
}

DesignsView::~DesignsView() = default;

bool DesignsView::hasData() const
{
    if (!m_run)
        return false;
    const auto figures = designFigures(*m_run);
    return std::any_of(figures.begin(), figures.end(), [](const DesignFigures& f) { return f.ok; });
}

void DesignsView::setCompareRun(RunSnapshotPtr other, const QString& label)
{
    m_compare = std::move(other);
    m_compareLabel = label;
    rebuild();
}

void DesignsView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearPlottables();
    p->clearItems();
    m_legend->clearItems();
    m_speedupLabels.clear();
    m_rowNames.clear();
    qSharedPointerDynamicCast<QCPAxisTickerText>(m_latencyRect->axis(QCPAxis::atRight)->ticker())->clear();

    std::vector<std::vector<DesignFigures>> runs;
    if (m_run)
        runs.push_back(designFigures(*m_run));
    if (m_run && m_compare)
        runs.push_back(designFigures(*m_compare));
    const bool compare = runs.size() == 2;

    // Rows: the run's designs in its order, then any only the compare run has.
    for (const auto& figures : runs) {
        for (const DesignFigures& f : figures) {
            if (!m_rowNames.contains(f.name))
                m_rowNames.append(f.name);
        }
    }
    auto tickers = [&](QCPAxisRect* rect) {
        auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(rect->axis(QCPAxis::atLeft)->ticker());
        ticker->clear();
        for (int row = 0; row < m_rowNames.size(); ++row)
            ticker->addTick(row * kRowHeight, m_rowNames[row]);
        rect->axis(QCPAxis::atLeft)->setRange(-0.55, std::max<qsizetype>(1, m_rowNames.size()) - 0.45);
    };
    for (QCPAxisRect* rect : { m_latencyRect, m_breakdownRect, m_utilizationRect })
        tickers(rect);
    m_legend->setVisible(!runs.empty());
    if (runs.empty()) {
        p->replot();
        return;
    }

    QFont noteFont = p->font();
    noteFont.setPointSizeF(p->font().pointSizeF() * 0.9);

    // Panel 1: latency bars coloured by design, analytic marker, speedup label.
    double latencyMax = 0;
    for (const auto& figures : runs) {
        for (const DesignFigures& f : figures)
            latencyMax = std::max({ latencyMax, f.latencyMs, f.analyticLatencyMs });
    }
    m_latencyMaxMs = latencyMax;
    // Speedups as the tick labels of the latency panel's right axis: beside each bar, laid out
    // (never clipped, never over a bar) at any figure size.
    auto speedupTicker = qSharedPointerDynamicCast<QCPAxisTickerText>(m_latencyRect->axis(QCPAxis::atRight)->ticker());
    QCPGraph* analyticLegend = nullptr;
    for (int slot = 0; slot < int(runs.size()); ++slot) {
        auto* analytic = new QCPGraph(m_latencyRect->axis(QCPAxis::atLeft), m_latencyRect->axis(QCPAxis::atBottom));
        analytic->setName(tr("analytic"));
        analytic->setLineStyle(QCPGraph::lsNone);
        analytic->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.0), QBrush(Qt::white), 6));
        analytic->removeFromLegend();
        if (!analyticLegend)
            analyticLegend = analytic;
        for (const DesignFigures& f : runs[std::size_t(slot)]) {
            const int row = int(m_rowNames.indexOf(f.name));
            const Slot s = slotOf(row, slot, compare);
            if (!f.ok) {
                auto* text = new QCPItemText(p);
                text->setClipAxisRect(m_latencyRect);
                text->position->setAxes(m_latencyRect->axis(QCPAxis::atBottom), m_latencyRect->axis(QCPAxis::atLeft));
                text->position->setCoords(0, s.center);
                text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
                text->setFont(noteFont);
                text->setText(tr("no result: %1").arg(f.error));
                continue;
            }
            const QColor color = tinted(designColor(f.name), slot == 1);
            QCPBars* bars = addBars(m_latencyRect, f.name, color, s.width * 0.82);
            bars->data()->add(QCPBarsData(s.center, f.latencyMs));
            if (f.analyticLatencyMs > 0)
                analytic->addData(s.center, f.analyticLatencyMs);
            if (f.speedup > 0) {
                speedupTicker->addTick(s.center, speedupText(f.speedup));
                m_speedupLabels.append(speedupText(f.speedup));
            }
        }
    }
    if (analyticLegend)
        analyticLegend->addToLegend(m_legend);
    // Analytic markers in front of the bars.
    for (int i = 0; i < p->graphCount(); ++i)
        p->graph(i)->setLayer(QStringLiteral("main"));
    p->moveLayer(p->layer(QStringLiteral("main")), p->layer(QStringLiteral("axes")), QCustomPlot::limAbove);

    // Panel 2: breakdown (share of latency), stall as a thin bar under the stack.
    struct Share {
        QString name;
        QColor color;
        double DesignFigures::*value;
    };
    const Share shares[] = {
        { tr("overlap"), breakdownColor(u"overlap"_s), &DesignFigures::overlapPercent },
        { tr("preload only"), breakdownColor(u"preload only"_s), &DesignFigures::preloadOnlyPercent },
        { tr("execute only"), breakdownColor(u"execute only"_s), &DesignFigures::executeOnlyPercent },
    };
    for (int slot = 0; slot < int(runs.size()); ++slot) {
        QCPBars* below = nullptr;
        int series = 0;
        for (const Share& share : shares) {
            const QColor color = tinted(share.color, slot == 1);
            QCPBars* bars = addBars(m_breakdownRect, share.name, color, 0);
            bars->setProperty("elkSeries", series++);
            for (const DesignFigures& f : runs[std::size_t(slot)]) {
                if (!f.ok)
                    continue;
                const Slot s = slotOf(int(m_rowNames.indexOf(f.name)), slot, compare);
                bars->setWidth(s.width * 0.62);
                bars->data()->add(QCPBarsData(s.center - s.width * 0.17, f.*share.value));
            }
            if (below)
                bars->moveAbove(below);
            below = bars;
            if (slot == 0)
                bars->addToLegend(m_legend);
        }
        const QColor stallColor = tinted(paletteColor(6), slot == 1);
        QCPBars* stall = addBars(m_breakdownRect, tr("stall"), stallColor, 0);
        for (const DesignFigures& f : runs[std::size_t(slot)]) {
            if (!f.ok)
                continue;
            const Slot s = slotOf(int(m_rowNames.indexOf(f.name)), slot, compare);
            stall->setWidth(s.width * 0.2);
            stall->data()->add(QCPBarsData(s.center + s.width * 0.3, f.stallPercent));
        }
        if (slot == 0)
            stall->addToLegend(m_legend);
    }

    // Panel 3: HBM and NoC utilisation side by side within each slot.
    double utilizationMax = 0;
    for (int slot = 0; slot < int(runs.size()); ++slot) {
        QCPBars* hbm = addBars(m_utilizationRect, tr("HBM"), tinted(paletteColor(5), slot == 1), 0);
        QCPBars* noc = addBars(m_utilizationRect, tr("NoC"), tinted(paletteColor(7), slot == 1), 0);
        hbm->setProperty("elkSeries", 1);
        noc->setProperty("elkSeries", 3);
        for (const DesignFigures& f : runs[std::size_t(slot)]) {
            if (!f.ok)
                continue;
            const Slot s = slotOf(int(m_rowNames.indexOf(f.name)), slot, compare);
            hbm->setWidth(s.width * 0.42);
            noc->setWidth(s.width * 0.42);
            hbm->data()->add(QCPBarsData(s.center - s.width * 0.22, f.hbmUtilizationPercent));
            noc->data()->add(QCPBarsData(s.center + s.width * 0.22, f.nocUtilizationPercent));
            utilizationMax = std::max({ utilizationMax, f.hbmUtilizationPercent, f.nocUtilizationPercent });
        }
        if (slot == 0) {
            hbm->addToLegend(m_legend);
            noc->addToLegend(m_legend);
        }
    }
    m_utilizationRect->axis(QCPAxis::atBottom)
        ->setRange(0, std::min(100.0, niceUpper(std::max(5.0, utilizationMax * 1.05))));

    if (compare) {
        // Which tint is which run: two swatches.
        const QString first = QString::fromStdString(m_run->spec.chip.name);
        auto* a = addBars(m_latencyRect, first.isEmpty() ? tr("this chip") : first, QColor(0x606060), 0);
        auto* b = addBars(m_latencyRect, m_compareLabel.isEmpty() ? tr("compared") : m_compareLabel,
            tinted(QColor(0x606060), true), 0);
        a->addToLegend(m_legend);
        b->addToLegend(m_legend);
    }
    fitToWidth(screenWidthEm(p->width()));
    p->replot();
}

double DesignsView::screenWidthEm(int widthPx) const
{
    const int fontPx = QFontInfo(plot()->font()).pixelSize();
    return fontPx > 0 ? double(widthPx) / fontPx : 60.0;
}

void DesignsView::fitToWidth(double widthEm)
{
    // A legend entry is about 10 font sizes wide (swatch, gap, "preload only"); panels get 3 ticks
    // when a column figure leaves each of them about 7 font sizes.
    const int perRow = std::clamp(int(widthEm / 9.0), 2, 9);
    setLegendWrap(m_legend, perRow);
    // QCPAxisTicker rounds range ÷ count to 1, 2, 2.5 or 5: 2 ticks on 0–100 % give a step of 50.
    const bool narrow = widthEm < 45;
    m_latencyRect->axis(QCPAxis::atBottom)->ticker()->setTickCount(narrow ? 3 : 5);
    for (QCPAxisRect* rect : { m_breakdownRect, m_utilizationRect })
        rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(narrow ? 2 : 4);
    if (m_latencyMaxMs > 0)
        m_latencyRect->axis(QCPAxis::atBottom)->setRange(0, m_latencyMaxMs * 1.06);
}

void DesignsView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    fitToWidth(style.widthCm / 2.54 * 72.0 / style.fontPt);
}

bool DesignsView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot() && event->type() == QEvent::Resize)
        fitToWidth(screenWidthEm(static_cast<QResizeEvent*>(event)->size().width()));
    return PlotView::eventFilter(watched, event);
}

} // namespace elk::widgets
