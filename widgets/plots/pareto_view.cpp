// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/pareto_view.h"

#include "engine/run/run_compile.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include <QFontMetricsF>

namespace elk::widgets {

namespace {

    constexpr double kKiB = 1024.0;

    /// Log scale when the data spans more than this ratio (plans often span two decades of time).
    constexpr double kLogRatio = 30.0;

    void fitAxis(QCPAxis* axis, double low, double high)
    {
        if (!(high > 0))
            high = 1;
        if (!(low > 0) || low > high)
            low = high;
        const bool log = high / low > kLogRatio;
        if (log) {
            axis->setScaleType(QCPAxis::stLogarithmic);
            auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
            ticker->setLogBase(10);
            ticker->setSubTickCount(8);
            axis->setTicker(ticker);
            axis->setNumberFormat(QStringLiteral("gb"));
            axis->setNumberPrecision(6);
            axis->setRange(low / 1.6, high * 1.6);
        } else {
            axis->setScaleType(QCPAxis::stLinear);
            if (qSharedPointerDynamicCast<QCPAxisTickerLog>(axis->ticker()))
                axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
            axis->setNumberFormat(QStringLiteral("g"));
            axis->setNumberPrecision(6);
            const double pad = (high - low) * 0.08 + high * 0.02;
            axis->setRange(std::max(0.0, low - pad), high + pad);
        }
    }

} // namespace

ParetoView::ParetoView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("pareto"));
    p->setAutoAddPlottableToLegend(false);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Labels are placed in pixels once the layout (screen or export) is known.
    connect(p, &QCustomPlot::afterLayout, this, &ParetoView::placeLabels);
    p->plotLayout()->insertRow(0);
    QFont titleFont = p->font();
    titleFont.setPointSizeF(p->font().pointSizeF() * 1.1);
    m_title = new QCPTextElement(p, QString(), titleFont);
    p->plotLayout()->addElement(0, 0, m_title);
    p->xAxis->setLabel(tr("Execute space per core (KiB)"));
    p->yAxis->setLabel(tr("Time (µs)"));
    // The legend goes below the plot: a front fills the corners a legend would take.
    QCPLegend* legend = p->legend;
    placeLegendInRow(p, 2);
    p->plotLayout()->setRowStretchFactor(2, 0.001);
    p->plotLayout()->simplify();
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(3);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(0, 0, 0, 0));
    legend->setColumnSpacing(12);
    legend->setVisible(false);
}

ParetoView::~ParetoView() = default;

bool ParetoView::hasData() const
{
    return m_shownStep >= 0;
}

QString ParetoView::title() const
{
    return m_title->text();
}

int ParetoView::defaultStep() const
{
    if (!m_run || m_run->problem.steps.empty())
        return -1;
    const auto& steps = m_run->problem.steps;
    // The shown design's own schedule says which execution is longest; without one, the fastest plan.
    const run::DesignRun* design = nullptr;
    if (!m_run->designs.empty())
        design = &m_run->designs[std::size_t(std::clamp(m_designIndex, 0, int(m_run->designs.size()) - 1))];
    int best = 0;
    double bestCycles = -1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        double cycles = 0;
        const int own = design ? run::correspondingStep(m_run->problem, int(i), m_run->problemOf(*design)) : -1;
        if (design && design->schedule && own >= 0 && std::size_t(own) < design->schedule->steps.size()) {
            cycles = design->schedule->steps[std::size_t(own)].execute.length();
        } else {
            const partition::OpPlans* plans = m_run->problem.planSets[steps[i].planSet];
            for (std::uint32_t index : plans->pareto)
                cycles = cycles == 0 ? plans->costs[index].executeCycles()
                                     : std::min(cycles, plans->costs[index].executeCycles());
        }
        if (cycles > bestCycles) {
            bestCycles = cycles;
            best = int(i);
        }
    }
    return best;
}

void ParetoView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearPlottables();
    p->clearItems();
    p->legend->clearItems();
    m_choiceLabels.clear();
    m_choices.clear();
    m_shownStep = -1;
    m_title->setText(QString());

    const int stepCount = m_run ? int(m_run->problem.steps.size()) : 0;
    const int step = m_selectedStep >= 0 && m_selectedStep < stepCount ? m_selectedStep : defaultStep();
    if (step < 0 || m_run->problem.clockHz <= 0) {
        p->legend->setVisible(false);
        p->replot();
        return;
    }
    m_shownStep = step;
    const schedule::Step& opStep = m_run->problem.steps[std::size_t(step)];
    const partition::OpPlans& plans = *m_run->problem.planSets[opStep.planSet];
    const double usPerCycle = 1e6 / m_run->problem.clockHz;

    QString kind;
    if (const run::CompiledModel* compiled = m_run->compiled.get()) {
        if (opStep.planSet < compiled->planInputs.size())
            kind = QString::fromLatin1(model::toString(compiled->planInputs[opStep.planSet].expr.kind));
    }
    const QString name = QString::fromStdString(opStep.name);
    const QString count = plans.plans.size() == 1 ? tr("1 plan") : tr("%1 plans").arg(plans.plans.size());
    m_title->setText(kind.isEmpty() ? tr("%1: %2").arg(name, count) : tr("%1 (%2): %3").arg(name, kind, count));

    double xLow = 1e300, xHigh = 0, yLow = 1e300, yHigh = 0;
    auto extend = [&](double x, double y) {
        if (x > 0)
            xLow = std::min(xLow, x);
        if (y > 0)
            yLow = std::min(yLow, y);
        xHigh = std::max(xHigh, x);
        yHigh = std::max(yHigh, y);
    };

    // Every kept plan's execute state.
    auto* all = p->addGraph();
    all->setName(tr("execute plans"));
    all->setLineStyle(QCPGraph::lsNone);
    all->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x808080), 1.0), QBrush(Qt::white), 5));
    for (std::size_t i = 0; i < plans.plans.size(); ++i) {
        const double x = double(plans.costs[i].executeBytes) / kKiB;
        const double y = plans.costs[i].executeCycles() * usPerCycle;
        all->addData(x, y);
        extend(x, y);
    }
    all->addToLegend();

    // Execute Pareto front: the fastest time reachable within each space (steps down to the right).
    auto* front = p->addGraph();
    front->setName(tr("Pareto front"));
    front->setLineStyle(QCPGraph::lsStepLeft);
    front->setPen(QPen(paletteColor(0), 1.5));
    front->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, paletteColor(0), 4));
    for (std::uint32_t index : plans.pareto)
        front->addData(double(plans.costs[index].executeBytes) / kKiB, plans.costs[index].executeCycles() * usPerCycle);
    front->addToLegend();

    // Preload table: what holding a preload of P bytes costs in total time (warm-up included).
    auto* table = p->addGraph();
    table->setName(tr("preload table"));
    table->setLineStyle(QCPGraph::lsNone); // several entries share a preload size: no line through them
    table->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(paletteColor(4), 1.0), QBrush(Qt::white), 5));
    for (const partition::PreloadEntry& entry : plans.table) {
        const double x = double(entry.preloadBytes) / kKiB;
        const double y = entry.totalCycles * usPerCycle;
        table->addData(x, y);
        extend(x, y);
    }
    table->addToLegend();

    // SRAM per core, the hard limit on execute space.
    const double sramKiB = double(m_run->problem.sramBytesPerCore) / kKiB;
    const double freeKiB = double(m_run->problem.sramBytesPerCore - opStep.reservedBytesPerCore) / kKiB;

    // Each design's choice; designs that chose the same plan share one marker and one label.
    std::map<std::uint32_t, QStringList> byPlan;
    QStringList otherParts;
    for (const run::DesignRun& design : m_run->designs) {
        // A design with pipelined splits of its own may run this operator as other parts (other plans).
        const schedule::ScheduleProblem& own = m_run->problemOf(design);
        const int ownStep = run::correspondingStep(m_run->problem, step, own);
        if (!design.schedule || ownStep < 0 || std::size_t(ownStep) >= design.schedule->steps.size())
            continue;
        if (own.steps[std::size_t(ownStep)].planSet != opStep.planSet) {
            otherParts << QString::fromLatin1(schedule::toString(design.design));
            continue;
        }
        const std::uint32_t entry = design.schedule->steps[std::size_t(ownStep)].tableEntry;
        if (entry >= plans.table.size())
            continue;
        byPlan[plans.table[entry].executePlan].append(QString::fromLatin1(schedule::toString(design.design)));
    }
    if (!otherParts.isEmpty())
        m_title->setText(tr("%1\n(%2: own splits)") // they run it as other parts
                             .arg(m_title->text(), otherParts.join(QStringLiteral(", "))));
    fitAxis(p->xAxis, xLow, std::max(xHigh, 0.0));
    fitAxis(p->yAxis, yLow, yHigh);

    // Labels: one per chosen plan; placeLabels() puts each beside its point after every layout.
    QFont labelFont = p->font();
    labelFont.setPointSizeF(p->font().pointSizeF() * 0.9);
    for (const auto& [plan, names] : byPlan) {
        const double x = double(plans.costs[plan].executeBytes) / kKiB;
        const double y = plans.costs[plan].executeCycles() * usPerCycle;
        auto* chosen = p->addGraph();
        chosen->setName(names.join(QStringLiteral(", ")));
        chosen->setLineStyle(QCPGraph::lsNone);
        // Filled in the first design's colour, with a dark ring that shows in grayscale.
        const QColor color = designColor(names.front());
        chosen->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(outlineColor(color), 2.0), QBrush(color), 9));
        chosen->addData(x, y);

        Choice choice;
        choice.anchor = new QCPItemTracer(p);
        choice.anchor->setStyle(QCPItemTracer::tsNone);
        choice.anchor->position->setCoords(x, y);
        choice.label = new QCPItemText(p);
        choice.label->position->setParentAnchor(choice.anchor->position);
        choice.label->setPositionAlignment(Qt::AlignCenter);
        choice.label->setFont(labelFont);
        QStringList lines; // two names a line keeps a label compact
        for (int i = 0; i < names.size(); i += 2)
            lines << names.mid(i, 2).join(QStringLiteral(", "));
        choice.label->setText(lines.join(QLatin1Char('\n')));
        choice.label->setPadding(QMargins(1, 0, 1, 0));
        choice.label->setBrush(QColor(255, 255, 255, 200)); // a line it cannot avoid stays behind it
        choice.leader = new QCPItemLine(p);
        choice.leader->start->setParentAnchor(choice.anchor->position);
        choice.leader->setPen(QPen(QColor(0x404040), 0.75));
        m_choices.push_back(choice);
        m_choiceLabels.append(names.join(QStringLiteral(", ")));
    }

    if (freeKiB > 0 && freeKiB <= p->xAxis->range().upper) {
        auto* limit = new QCPItemStraightLine(p);
        limit->point1->setCoords(freeKiB, 1);
        limit->point2->setCoords(freeKiB, 2);
        limit->setPen(QPen(QColor(0x606060), 1.0, Qt::DotLine));
        auto* text = new QCPItemText(p);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(freeKiB, 0.02);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        text->setRotation(-90);
        text->setFont(labelFont);
        text->setColor(QColor(0x404040));
        text->setText(freeKiB < sramKiB ? tr("SRAM free") : tr("SRAM"));
    }
    p->legend->setVisible(true);
    p->replot();
}

void ParetoView::placeLabels()
{
    QCustomPlot* p = plot();
    if (m_choices.empty())
        return;
    const QRectF area = QRectF(p->axisRect()->rect()).adjusted(2, 2, -2, -2);
    // Obstacles: every data point drawn, and the front's line sampled every few pixels.
    std::vector<QPointF> obstacles;
    auto sample = [&obstacles](QPointF from, QPointF to) {
        const int n = std::max(1, int(QLineF(from, to).length() / 4));
        for (int i = 1; i < n; ++i)
            obstacles.push_back(from + (to - from) * (double(i) / n));
    };
    for (int g = 0; g < p->graphCount(); ++g) {
        QCPGraph* graph = p->graph(g);
        std::optional<QPointF> last;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            if (!std::isfinite(it->key) || !std::isfinite(it->value))
                continue;
            const QPointF point(p->xAxis->coordToPixel(it->key), p->yAxis->coordToPixel(it->value));
            obstacles.push_back(point);
            if (last && graph->lineStyle() == QCPGraph::lsStepLeft) {
                sample(*last, QPointF(point.x(), last->y()));
                sample(QPointF(point.x(), last->y()), point);
            } else if (last && graph->lineStyle() == QCPGraph::lsLine) {
                sample(*last, point);
            }
            last = point;
        }
    }
    // Candidates around the point, nearest first; up and right first (a front's dominated side).
    static const QPoint directions[]
        = { { 1, -1 }, { 0, -1 }, { 1, 0 }, { -1, -1 }, { 1, 1 }, { -1, 0 }, { 0, 1 }, { -1, 1 } };
    std::vector<QRectF> placed;
    for (const Choice& choice : m_choices) {
        const QPointF at = choice.anchor->position->pixelPosition();
        const QFontMetricsF metrics(choice.label->font());
        const QSizeF size = metrics.boundingRect(QRectF(), Qt::AlignLeft, choice.label->text()).size() + QSizeF(4, 2);
        const double gap = metrics.height() * 0.5;
        double bestCost = std::numeric_limits<double>::max();
        QRectF best;
        QPoint bestDirection(1, -1);
        int bestRing = 1;
        for (int ring = 1; ring <= 24; ++ring) {
            for (int d = 0; d < int(std::size(directions)); ++d) {
                const QPoint dir = directions[d];
                const QPointF center(at.x() + dir.x() * (size.width() / 2 + gap * ring),
                    at.y() + dir.y() * (size.height() / 2 + gap * ring));
                const QRectF box(
                    center.x() - size.width() / 2, center.y() - size.height() / 2, size.width(), size.height());
                if (!area.contains(box))
                    continue;
                double cost = ring * (ring < 4 ? 10.0 : 25.0) + d; // far labels need long leaders
                for (const QRectF& other : placed) {
                    if (other.adjusted(-2, -2, 2, 2).intersects(box))
                        cost += 10000;
                }
                const QRectF keepOut = box.adjusted(-4, -4, 4, 4);
                for (const QPointF& point : obstacles)
                    cost += keepOut.contains(point) ? 200 : 0;
                if (cost < bestCost) {
                    bestCost = cost;
                    best = box;
                    bestDirection = dir;
                    bestRing = ring;
                }
            }
        }
        if (best.isNull()) // nothing fits inside the plot: up and right, clipped
            best = QRectF(at + QPointF(gap, -gap - size.height()), size);
        placed.push_back(best);
        choice.label->position->setCoords(best.center() - at);
        // A leader line only where the label sits away from its point.
        choice.leader->setVisible(bestRing > 1);
        QCPItemAnchor* end = choice.label->position;
        if (bestDirection.x() > 0)
            end = bestDirection.y() < 0 ? choice.label->bottomLeft
                : bestDirection.y() > 0 ? choice.label->topLeft
                                        : choice.label->left;
        else if (bestDirection.x() < 0)
            end = bestDirection.y() < 0 ? choice.label->bottomRight
                : bestDirection.y() > 0 ? choice.label->topRight
                                        : choice.label->right;
        else
            end = bestDirection.y() < 0 ? choice.label->bottom : choice.label->top;
        choice.leader->end->setParentAnchor(end);
    }
}

} // namespace elk::widgets
