// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/diff_view.h"

#include "engine/run/run_compile.h"

#include <algorithm>

namespace elk::widgets {

DiffView::DiffView(QWidget* parent)
    : DiffPlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("diff"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeDrag(Qt::Horizontal);
    p->axisRect()->setRangeZoom(Qt::Horizontal);
    p->xAxis->setLabel(tr("Op (A's execution order)"));
    p->yAxis->setLabel(tr("Δ wait + Δ execute (ms)"));
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(tr("running Δ latency (ms)"));
    p->legend->setVisible(false);
    p->legend->setBorderPen(Qt::NoPen);
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, QString(), p->font()));
    placeLegendInRow(p, 2); // below the plot, off the bars
    p->plotLayout()->setRowStretchFactor(2, 0.001);
    p->legend->setFillOrder(QCPLegend::foColumnsFirst);
    p->legend->setWrap(3);
    p->legend->setMargins(QMargins(0, 0, 0, 0));
    rebuild();
}

DiffView::~DiffView() = default;

void DiffView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearPlottables();
    p->legend->clearItems();
    auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
    if (!updateDiff()) {
        m_title = m_run ? tr("Choose a second run or design to compare against.") : QString();
        title->setText(m_title);
        p->legend->setVisible(false);
        p->replot();
        return;
    }
    // Along A's execution order; ops only B has follow.
    std::vector<const run::OpDelta*> ordered;
    for (const run::OpDelta& op : m_diff.ops)
        ordered.push_back(&op);
    std::stable_sort(ordered.begin(), ordered.end(), [](const run::OpDelta* x, const run::OpDelta* y) {
        const auto key = [](const run::OpDelta* op) { return op->stepA >= 0 ? op->stepA : 1'000'000'000 + op->stepB; };
        return key(x) < key(y);
    });
    auto* slower = new QCPBars(p->xAxis, p->yAxis);
    auto* faster = new QCPBars(p->xAxis, p->yAxis);
    slower->setName(tr("B slower"));
    faster->setName(tr("B faster"));
    slower->setBrush(slowerColour());
    faster->setBrush(fasterColour());
    for (QCPBars* bars : { slower, faster }) {
        bars->setPen(Qt::NoPen);
        bars->setWidth(1.0);
        bars->setAntialiased(false);
        bars->addToLegend(p->legend);
    }
    auto* running = new QCPGraph(p->xAxis, p->yAxis2);
    running->setName(tr("running Δ (right)"));
    running->setPen(QPen(Qt::black, 1.2));
    running->addToLegend(p->legend);
    double sum = 0, lo = 0, hi = 0, runLo = 0, runHi = 0;
    for (std::size_t k = 0; k < ordered.size(); ++k) {
        const double delta = ordered[k]->deltaMs();
        (delta >= 0 ? slower : faster)->addData(double(k), delta);
        sum += delta;
        running->addData(double(k), sum);
        lo = std::min(lo, delta);
        hi = std::max(hi, delta);
        runLo = std::min(runLo, sum);
        runHi = std::max(runHi, sum);
    }
    const auto padded = [](double low, double high) {
        const double span = std::max(high - low, 1e-9);
        return QCPRange(low - 0.06 * span, high + 0.06 * span);
    };
    p->xAxis->setRange(-1, double(ordered.size()));
    p->yAxis->setRange(padded(lo, hi));
    p->yAxis2->setRange(padded(runLo, runHi));
    m_title = diffTitle();
    title->setText(m_title);
    p->legend->setVisible(true);
    p->replot();
}

} // namespace elk::widgets
