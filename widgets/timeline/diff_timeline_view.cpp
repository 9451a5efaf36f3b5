// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/diff_timeline_view.h"

#include "widgets/timeline/time_axis_plot.h"

#include <algorithm>
#include <cmath>

#include <QKeyEvent>
#include <QMouseEvent>

namespace elk::widgets {

namespace {

    constexpr double kHalfHeight = 0.32;

    double laneY(DiffLane lane)
    {
        switch (lane) {
        case DiffLane::PreloadA:
            return 4;
        case DiffLane::ExecuteA:
            return 3;
        case DiffLane::ExecuteB:
            return 1;
        case DiffLane::PreloadB:
            break;
        }
        return 0;
    }

    // The band runs from the bottom of A's execute lane to the top of B's.
    constexpr double kBandTop = 3 - kHalfHeight;
    constexpr double kBandBottom = 1 + kHalfHeight;

    struct Interval {
        double start = 0, end = 0;
        bool empty() const { return end <= start; }
    };

    Interval intervalOf(const DiffTimelineOp& op, DiffLane lane)
    {
        switch (lane) {
        case DiffLane::PreloadA:
            return op.inA() ? Interval { op.preloadStartMsA, op.preloadEndMsA } : Interval {};
        case DiffLane::ExecuteA:
            return op.inA() ? Interval { op.executeStartMsA, op.executeEndMsA } : Interval {};
        case DiffLane::ExecuteB:
            return op.inB() ? Interval { op.executeStartMsB, op.executeEndMsB } : Interval {};
        case DiffLane::PreloadB:
            break;
        }
        return op.inB() ? Interval { op.preloadStartMsB, op.preloadEndMsB } : Interval {};
    }

    QColor blend(const QColor& from, const QColor& to, double t)
    {
        t = std::clamp(t, 0.0, 1.0);
        return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * t),
            float(from.greenF() + (to.greenF() - from.greenF()) * t),
            float(from.blueF() + (to.blueF() - from.blueF()) * t));
    }

    QString signedMs(double ms)
    {
        return (ms >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + QString::number(std::abs(ms), 'f', 4)
            + QStringLiteral(" ms");
    }

    const QColor kNeutral = QColor::fromRgb(0xBDBDBD);
    const QColor kPreload = QColor::fromRgb(0x9DB4CC);

    constexpr DiffLane kLanes[] = { DiffLane::PreloadA, DiffLane::ExecuteA, DiffLane::ExecuteB, DiffLane::PreloadB };

} // namespace

/// Paints the four lanes and the bands between the execute lanes in one pass (thousands of ops).
class DiffTimelinePlottable : public QCPAbstractPlottable {
public:
    DiffTimelinePlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
        : QCPAbstractPlottable(keyAxis, valueAxis)
    {
        setSelectable(QCP::stNone);
        setPen(Qt::NoPen);
    }

    void setOps(const std::vector<DiffTimelineOp>* ops, double maxAbsDeltaMs)
    {
        m_ops = ops;
        m_maxAbsDeltaMs = maxAbsDeltaMs;
    }

    /// The shade of an op's difference: grey below 1 % of the largest |Δ|, else towards vermillion
    /// (B slower) or blue (B faster) in proportion to |Δ|.
    QColor shade(double deltaMs) const
    {
        const double t = m_maxAbsDeltaMs > 0 ? std::abs(deltaMs) / m_maxAbsDeltaMs : 0;
        if (t < 0.01)
            return kNeutral;
        return blend(kNeutral, deltaMs > 0 ? slowerColour() : fasterColour(), 0.3 + 0.7 * t);
    }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain) const override
    {
        foundRange = m_ops && !m_ops->empty();
        return QCPRange(0, 1);
    }
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const override
    {
        foundRange = true;
        return QCPRange(-0.5, 4.5);
    }

protected:
    void draw(QCPPainter* painter) override
    {
        if (!m_ops)
            return;
        const QCPRange keys = keyAxis()->range();
        const QRectF clip = clipRect();
        painter->setPen(Qt::NoPen);
        // Bands first (under the bars), translucent so that overlapping ones stay readable.
        painter->setAntialiasing(true);
        const double bandTop = valueAxis()->coordToPixel(kBandTop);
        const double bandBottom = valueAxis()->coordToPixel(kBandBottom);
        for (const DiffTimelineOp& op : *m_ops) {
            if (!op.inA() || !op.inB())
                continue;
            if (std::max(op.executeEndMsA, op.executeEndMsB) < keys.lower
                || std::min(op.executeStartMsA, op.executeStartMsB) > keys.upper)
                continue;
            QColor colour = shade(op.deltaMs);
            colour.setAlpha(colour == kNeutral ? 70 : 150);
            painter->setBrush(colour);
            const QPointF band[] = { { keyAxis()->coordToPixel(op.executeStartMsA), bandTop },
                { keyAxis()->coordToPixel(op.executeEndMsA), bandTop },
                { keyAxis()->coordToPixel(op.executeEndMsB), bandBottom },
                { keyAxis()->coordToPixel(op.executeStartMsB), bandBottom } };
            painter->drawPolygon(band, 4);
        }
        painter->setAntialiasing(false);
        for (DiffLane lane : kLanes) {
            const double top = valueAxis()->coordToPixel(laneY(lane) + kHalfHeight);
            const double bottom = valueAxis()->coordToPixel(laneY(lane) - kHalfHeight);
            const bool execute = lane == DiffLane::ExecuteA || lane == DiffLane::ExecuteB;
            for (const DiffTimelineOp& op : *m_ops) {
                const Interval interval = intervalOf(op, lane);
                if (interval.empty() || interval.end < keys.lower || interval.start > keys.upper)
                    continue;
                const double x0 = keyAxis()->coordToPixel(interval.start);
                const double x1 = std::max(keyAxis()->coordToPixel(interval.end), x0 + 1); // at least a pixel
                const QRectF rect(QPointF(x0, std::min(top, bottom)), QPointF(x1, std::max(top, bottom)));
                if (!rect.intersects(clip))
                    continue;
                const QColor colour = execute ? shade(op.deltaMs) : kPreload;
                if (op.inA() && op.inB())
                    painter->fillRect(rect, colour);
                else
                    painter->fillRect(rect, QBrush(colour.darker(130), Qt::BDiagPattern)); // only this side has it
            }
        }
    }
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    const std::vector<DiffTimelineOp>* m_ops = nullptr;
    double m_maxAbsDeltaMs = 0;
};

std::vector<DiffTimelineOp> diffTimelineOps(const run::RunDiff& diff, const sim::SimResult& a, const sim::SimResult& b)
{
    std::vector<DiffTimelineOp> ops;
    ops.reserve(diff.ops.size());
    const double msPerCycleA = a.clockHz > 0 ? 1e3 / a.clockHz : 0;
    const double msPerCycleB = b.clockHz > 0 ? 1e3 / b.clockHz : 0;
    for (const run::OpDelta& delta : diff.ops) {
        DiffTimelineOp op;
        op.name = QString::fromStdString(delta.name);
        op.stepA = delta.stepA >= 0 && std::size_t(delta.stepA) < a.steps.size() ? delta.stepA : -1;
        op.stepB = delta.stepB >= 0 && std::size_t(delta.stepB) < b.steps.size() ? delta.stepB : -1;
        if (op.inA()) {
            const sim::StepTrace& step = a.steps[std::size_t(op.stepA)];
            op.preloadStartMsA = step.preload.startCycles * msPerCycleA;
            op.preloadEndMsA = step.preload.endCycles * msPerCycleA;
            op.executeStartMsA = step.execute.startCycles * msPerCycleA;
            op.executeEndMsA = step.execute.endCycles * msPerCycleA;
        }
        if (op.inB()) {
            const sim::StepTrace& step = b.steps[std::size_t(op.stepB)];
            op.preloadStartMsB = step.preload.startCycles * msPerCycleB;
            op.preloadEndMsB = step.preload.endCycles * msPerCycleB;
            op.executeStartMsB = step.execute.startCycles * msPerCycleB;
            op.executeEndMsB = step.execute.endCycles * msPerCycleB;
        }
        op.deltaMs = delta.deltaMs();
        op.deltaWaitMs = delta.deltaWaitMs();
        op.deltaExecuteMs = delta.deltaExecuteMs();
        op.deltaPreloadMs = delta.deltaPreloadMs();
        ops.push_back(std::move(op));
    }
    std::stable_sort(ops.begin(), ops.end(), [](const DiffTimelineOp& x, const DiffTimelineOp& y) {
        const auto key = [](const DiffTimelineOp& op) { return op.inA() ? op.stepA : 1'000'000'000 + op.stepB; };
        return key(x) < key(y);
    });
    return ops;
}

DiffTimelineView::DiffTimelineView(QWidget* parent)
    : DiffPlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("diffTimeline"));
    setFocusProxy(p);
    m_time = new TimeAxisPlot(p, 1e3); // coordinates are ms, each run from its first call
    m_time->setToolTipText([this](const QPoint& pixel) { return toolTipAt(pixel); });
    p->xAxis->setLabel(tr("time (ms)"));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(laneY(DiffLane::PreloadA), tr("A preload"));
    ticker->addTick(laneY(DiffLane::ExecuteA), tr("A execute"));
    ticker->addTick(2, tr("same op"));
    ticker->addTick(laneY(DiffLane::ExecuteB), tr("B execute"));
    ticker->addTick(laneY(DiffLane::PreloadB), tr("B preload"));
    p->yAxis->setTicker(ticker);
    p->yAxis->setRange(-0.6, 4.6);
    p->yAxis->setRangeReversed(false);
    m_plottable = new DiffTimelinePlottable(p->xAxis, p->yAxis);
    m_plottable->setName(QStringLiteral("timelines"));
    m_plottable->removeFromLegend();

    p->plotLayout()->insertRow(0); // the title, above the legend TimeAxisPlot placed
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, QString(), p->font()));
    const auto legendEntry = [p](const QString& name, const QBrush& brush) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis); // no data: a legend swatch
        bars->setName(name);
        bars->setPen(Qt::NoPen);
        bars->setBrush(brush);
    };
    legendEntry(tr("B slower"), slowerColour());
    legendEntry(tr("B faster"), fasterColour());
    legendEntry(tr("≈ same"), kNeutral);
    legendEntry(tr("preload"), kPreload);

    connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { m_pressPos = event->pos(); });
    connect(p, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || (event->pos() - m_pressPos).manhattanLength() > 3)
            return;
        const int op = opAt(event->pos());
        if (op >= 0 && m_ops[std::size_t(op)].inA())
            emit stepSelected(referenceStepOf(m_ops[std::size_t(op)].stepA)); // the views select reference steps
    });
    rebuild();
}

DiffTimelineView::~DiffTimelineView() = default;

void DiffTimelineView::rebuild()
{
    QCustomPlot* p = plot();
    auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
    m_ops.clear();
    m_maxAbsDeltaMs = 0;
    m_endMs = 0;
    if (updateDiff()) {
        m_ops = diffTimelineOps(m_diff, *sideA(), *sideB());
        for (const DiffTimelineOp& op : m_ops) {
            m_maxAbsDeltaMs = std::max(m_maxAbsDeltaMs, std::abs(op.deltaMs));
            m_endMs = std::max({ m_endMs, op.executeEndMsA, op.executeEndMsB, op.preloadEndMsA, op.preloadEndMsB });
        }
        m_endMs = std::max({ m_endMs, m_diff.latencyMsA, m_diff.latencyMsB });
        m_title = diffTitle();
    } else {
        m_title = m_run ? tr("Choose a second run or design to compare against.") : QString();
    }
    m_plottable->setOps(&m_ops, m_maxAbsDeltaMs);
    title->setText(m_title);
    p->legend->setVisible(!m_ops.empty());
    m_time->setExtent(m_endMs > 0 ? m_endMs : 1, std::max(m_endMs, 1e-9) * 1e-6);
    m_time->resetTimeRange();
    p->replot();
}

QString DiffTimelineView::lastToolTip() const
{
    return m_time->lastToolTip();
}

int DiffTimelineView::opAt(const QPoint& plotPixel) const
{
    QCustomPlot* p = plot();
    if (m_ops.empty() || !p->axisRect()->rect().contains(plotPixel))
        return -1;
    const double ms = p->xAxis->pixelToCoord(plotPixel.x());
    const double y = p->yAxis->pixelToCoord(plotPixel.y());
    const double tolerance = 2 * std::abs(p->xAxis->pixelToCoord(1) - p->xAxis->pixelToCoord(0));
    for (DiffLane lane : kLanes) {
        if (std::abs(y - laneY(lane)) > kHalfHeight)
            continue;
        int nearest = -1;
        double nearestDistance = tolerance;
        for (std::size_t k = 0; k < m_ops.size(); ++k) {
            const Interval interval = intervalOf(m_ops[k], lane);
            if (interval.empty())
                continue;
            const double distance = ms < interval.start ? interval.start - ms
                : ms > interval.end                     ? ms - interval.end
                                                        : 0;
            if (distance < nearestDistance || (distance == 0 && nearestDistance == 0 && nearest < 0)) {
                nearest = int(k);
                nearestDistance = distance;
            }
        }
        return nearest;
    }
    if (y > kBandBottom && y < kBandTop) {
        const double f = (kBandTop - y) / (kBandTop - kBandBottom); // 0 at A, 1 at B
        for (std::size_t k = 0; k < m_ops.size(); ++k) {
            const DiffTimelineOp& op = m_ops[k];
            if (!op.inA() || !op.inB())
                continue;
            const double start = op.executeStartMsA + f * (op.executeStartMsB - op.executeStartMsA);
            const double end = op.executeEndMsA + f * (op.executeEndMsB - op.executeEndMsA);
            if (ms >= start - tolerance / 2 && ms <= end + tolerance / 2)
                return int(k);
        }
    }
    return -1;
}

QPointF DiffTimelineView::barCenter(int op, DiffLane lane) const
{
    if (op < 0 || std::size_t(op) >= m_ops.size())
        return {};
    const Interval interval = intervalOf(m_ops[std::size_t(op)], lane);
    if (interval.empty())
        return {};
    return { plot()->xAxis->coordToPixel((interval.start + interval.end) / 2),
        plot()->yAxis->coordToPixel(laneY(lane)) };
}

QString DiffTimelineView::toolTipAt(const QPoint& plotPixel) const
{
    const int index = opAt(plotPixel);
    if (index < 0)
        return {};
    const DiffTimelineOp& op = m_ops[std::size_t(index)];
    const auto side = [](const char* label, bool present, double start, double end) {
        return present ? tr("%1: executes %2–%3 ms (%4 ms)")
                             .arg(QLatin1String(label))
                             .arg(start, 0, 'f', 4)
                             .arg(end, 0, 'f', 4)
                             .arg(end - start, 0, 'f', 4)
                       : tr("%1: not in this run").arg(QLatin1String(label));
    };
    return op.name + QLatin1Char('\n') + side("A", op.inA(), op.executeStartMsA, op.executeEndMsA) + QLatin1Char('\n')
        + side("B", op.inB(), op.executeStartMsB, op.executeEndMsB) + QLatin1Char('\n')
        + tr("Δ wait %1, Δ execute %2 (adds %3), Δ preload %4")
              .arg(signedMs(op.deltaWaitMs), signedMs(op.deltaExecuteMs), signedMs(op.deltaMs),
                  signedMs(op.deltaPreloadMs));
}

void DiffTimelineView::keyPressEvent(QKeyEvent* event)
{
    if (!m_time->handleKey(event->key()))
        DiffPlotView::keyPressEvent(event);
}

void DiffTimelineView::applyStyle(const FigureStyle& style)
{
    DiffPlotView::applyStyle(style);
    m_time->wrapLegendFor(style);
}

} // namespace elk::widgets
