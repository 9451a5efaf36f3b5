// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/order_spread_view.h"

#include "engine/run/run_compile.h"

#include <algorithm>
#include <cmath>

namespace elk::widgets {

namespace {

    const schedule::Schedule* elkFullSchedule(const run::RunResult& run)
    {
        for (const run::DesignRun& d : run.designs)
            if (d.design == schedule::Design::ElkFull && d.schedule && !d.schedule->orders.orderLatencyCycles.empty())
                return &*d.schedule;
        return nullptr;
    }

    /// Deterministic vertical spread of point i within the strip (golden-ratio sequence).
    double jitter(std::size_t i)
    {
        const double f = std::fmod(double(i) * 0.6180339887498949, 1.0);
        return (f - 0.5) * 0.7;
    }

} // namespace

OrderSpreadView::OrderSpreadView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("orders"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeDrag(Qt::Horizontal);
    p->axisRect()->setRangeZoom(Qt::Horizontal);
    p->xAxis->setLabel(tr("Analytic latency of the model (ms)"));
    p->yAxis->setTicks(false);
    p->yAxis->setTickLabels(false);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setRange(-0.6, 0.6);
    p->legend->setVisible(false);
    p->legend->setBorderPen(Qt::NoPen);
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, QString(), p->font()));
    // Below the strip, not over it: the orders fill the whole width.
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    placeLegendInRow(p, 2);
    p->plotLayout()->setRowStretchFactor(2, 0.001);
    p->legend->setMargins(QMargins(0, 0, 0, 0));
    p->legend->setColumnSpacing(10);
    setLegendWrap(p->legend, 2);
    rebuild();
}

OrderSpreadView::~OrderSpreadView() = default;

bool OrderSpreadView::hasData() const
{
    return m_run && elkFullSchedule(*m_run);
}

void OrderSpreadView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearPlottables();
    p->legend->clearItems();
    m_orders = 0;
    auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
    const schedule::Schedule* full = m_run ? elkFullSchedule(*m_run) : nullptr;
    if (!full) {
        m_summary = m_run ? tr("No Elk-Full order search in this run.") : QString();
        title->setText(m_summary);
        p->legend->setVisible(false);
        p->replot();
        return;
    }
    const schedule::OrderSearch& search = full->orders;
    const double msPerCycle = 1e3 / m_run->problem.clockHz;
    auto* orders = new QCPGraph(p->xAxis, p->yAxis);
    orders->setName(tr("valid orders"));
    orders->setLineStyle(QCPGraph::lsNone);
    orders->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x00, 0x72, 0xB2), 1.0), QBrush(Qt::NoBrush), 5));
    double lo = search.orderLatencyCycles.front(), hi = lo;
    for (std::size_t i = 0; i < search.orderLatencyCycles.size(); ++i) {
        const double cycles = search.orderLatencyCycles[i];
        orders->addData(cycles * msPerCycle, jitter(i));
        lo = std::min(lo, cycles);
        hi = std::max(hi, cycles);
    }
    m_orders = int(search.orderLatencyCycles.size());
    const auto marker = [&](const QString& name, QCPScatterStyle::ScatterShape shape, const QColor& color,
                            std::size_t i, double size) {
        auto* graph = new QCPGraph(p->xAxis, p->yAxis);
        graph->setName(name);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(shape, QPen(Qt::black, 1.0), QBrush(color), size));
        graph->addData(search.orderLatencyCycles[i] * msPerCycle, jitter(i));
        graph->addToLegend(p->legend);
    };
    orders->addToLegend(p->legend);
    marker(tr("identity order (Elk-Dyn's)"), QCPScatterStyle::ssDiamond, designColor(QStringLiteral("elk-dyn")), 0, 10);
    const std::size_t chosen = std::size_t(std::clamp(search.chosenOrder, 0, m_orders - 1));
    marker(tr("chosen"), QCPScatterStyle::ssStar, designColor(QStringLiteral("elk-full")), chosen, 12);
    const double identityMs = search.orderLatencyCycles.front() * msPerCycle;
    const double chosenMs = search.orderLatencyCycles[chosen] * msPerCycle;
    // Three short lines: the figure export is a column wide.
    m_summary = tr("Elk-Full: %1 valid preload orders%2\n(%3 movable ops per layer), spread %7–%8 ms\n"
                   "chosen #%4 at %5 ms, %6 % vs the identity order")
                    .arg(m_orders)
                    .arg(search.truncated ? tr(", search budget reached") : QString())
                    .arg(search.movableOps)
                    .arg(chosen)
                    .arg(chosenMs, 0, 'f', 4)
                    .arg((chosenMs / identityMs - 1) * 100, 0, 'f', 2)
                    .arg(lo * msPerCycle, 0, 'f', 4)
                    .arg(hi * msPerCycle, 0, 'f', 4);
    title->setText(m_summary);
    p->legend->setVisible(true);
    const double pad = std::max((hi - lo) * msPerCycle * 0.08, hi * msPerCycle * 0.002);
    p->xAxis->setRange(lo * msPerCycle - pad, hi * msPerCycle + pad);
    p->replot();
}

} // namespace elk::widgets
