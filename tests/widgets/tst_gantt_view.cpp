// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// GanttView on a real run (the one-layer Llama-2-13B sample on the teaching mesh): one bar per step
// in each lane, zoom and pan by API, wheel, drag and keys, clamping at the run's ends, click
// selection, hover text, and PNG export.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/gantt_view.h"

#include <set>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include "tests/support/compare_near.h"
#include "timeline_fixture.h"

using namespace elk;
using namespace elk::widgets;

namespace {

/// The step with the longest execution (widest bar: easiest to hit).
int longestExecution(const GanttData& data)
{
    int best = -1;
    double longest = 0;
    for (const GanttOp& op : data.ops) {
        if (op.executeEnd - op.executeStart > longest) {
            longest = op.executeEnd - op.executeStart;
            best = op.step;
        }
    }
    return best;
}

} // namespace

class TestGanttView : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const run::RunResult> m_run;

    /// A shown view at a fixed size, laid out (bar pixels are valid).
    std::unique_ptr<GanttView> shownView(int design = 1)
    {
        auto view = std::make_unique<GanttView>();
        view->resize(1200, 420);
        view->setRun(m_run);
        view->setDesignIndex(design);
        view->show();
        if (!QTest::qWaitForWindowExposed(view.get()))
            qWarning("window not exposed");
        view->plot()->replot();
        return view;
    }

private slots:
    void initTestCase() { m_run = timelinetest::smallRun(); }

    void noRunNoData()
    {
        GanttView view;
        QVERIFY(!view.hasData());
        QCOMPARE(view.figureKind(), QStringLiteral("gantt"));
        view.setRun(m_run);
        QVERIFY(view.hasData());
        view.setRun(nullptr);
        QVERIFY(!view.hasData());
    }

    void lanesHoldOneBarPerStep_data()
    {
        QTest::addColumn<int>("design");
        QTest::addRow("basic") << 0;
        QTest::addRow("elk-full") << 1;
    }

    void lanesHoldOneBarPerStep()
    {
        QFETCH(int, design);
        GanttView view;
        view.setRun(m_run);
        view.setDesignIndex(design);
        const sim::SimResult& sim = *m_run->designs[std::size_t(design)].simulated;
        std::size_t preloads = 0, executes = 0;
        for (const sim::StepTrace& step : sim.steps) {
            preloads += step.preload.endCycles > step.preload.startCycles ? 1 : 0;
            executes += step.execute.endCycles > step.execute.startCycles ? 1 : 0;
        }
        const GanttData& data = view.data();
        QCOMPARE(data.ops.size(), sim.steps.size());
        QVERIFY(preloads > 0);
        QCOMPARE(data.preloadLane.size(), preloads);
        QCOMPARE(data.executeLane.size(), executes);
        std::set<int> seen;
        for (const LaneBar& bar : data.executeLane)
            QVERIFY2(seen.insert(bar.item).second, "a step has two execute bars");
        for (std::size_t i = 1; i < data.preloadLane.size(); ++i)
            QVERIFY(data.preloadLane[i].start >= data.preloadLane[i - 1].end - 1e-6);
        for (std::size_t i = 1; i < data.executeLane.size(); ++i)
            QVERIFY(data.executeLane[i].start >= data.executeLane[i - 1].end - 1e-6);
        // Op kinds come from the graph; the sample has matmuls.
        QVERIFY(data.kinds.contains(QStringLiteral("matmul")));
        for (const GanttOp& op : data.ops) {
            QVERIFY2(!op.kind.isEmpty(), qPrintable(op.name));
            QVERIFY(op.warmupEnd >= op.executeStart && op.computeEnd >= op.warmupEnd && op.executeEnd >= op.computeEnd);
        }
        QCOMPARE(data.latencyCycles, sim.latencyCycles);
    }

    void zoomAndPanByApi()
    {
        auto view = shownView();
        const double latency = view->data().latencyCycles;
        QVERIFY(view->lowerCycles() <= 0);
        QVERIFY(view->upperCycles() >= latency);
        QSignalSpy spy(view.get(), &GanttView::timeRangeChanged);
        const double span = view->upperCycles() - view->lowerCycles();
        view->zoomBy(4);
        QCOMPARE(spy.count(), 1);
        QVERIFY(qFuzzyCompare(view->upperCycles() - view->lowerCycles(), span / 4));
        const double lower = view->lowerCycles();
        view->panBy(0.5);
        QVERIFY(qFuzzyCompare(view->lowerCycles(), lower + span / 8));
        QCOMPARE(spy.last().at(0).toDouble(), view->lowerCycles());
        QCOMPARE(spy.last().at(1).toDouble(), view->upperCycles());
        // Panning stops at the end of the run, zooming out at the whole run.
        view->panBy(100);
        QVERIFY(view->upperCycles() <= latency * 1.011);
        QVERIFY(qFuzzyCompare(view->upperCycles() - view->lowerCycles(), span / 4));
        view->zoomBy(0.001);
        QVERIFY(qFuzzyCompare(view->upperCycles() - view->lowerCycles(), span));
        // setTimeRange from a shared axis.
        view->setTimeRange(latency * 0.25, latency * 0.5);
        QCOMPARE(view->lowerCycles(), latency * 0.25);
        QCOMPARE(view->upperCycles(), latency * 0.5);
    }

    void wheelZoomsAroundCursorAndDragPans()
    {
        auto view = shownView();
        QCustomPlot* plot = view->plot();
        const double span = view->upperCycles() - view->lowerCycles();
        const QRect rect = plot->axisRect()->rect();
        const QPoint at(rect.left() + rect.width() / 4, rect.center().y());
        const double keyAtCursor = plot->xAxis->pixelToCoord(at.x());
        QWheelEvent wheel(QPointF(at), QPointF(plot->mapToGlobal(at)), QPoint(), QPoint(0, 120), Qt::NoButton,
            Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        const double zoomedSpan = view->upperCycles() - view->lowerCycles();
        QVERIFY2(zoomedSpan < span * 0.95, "the wheel did not zoom in");
        ELK_COMPARE_NEAR(plot->xAxis->pixelToCoord(at.x()), keyAtCursor, span * 1e-3); // around the cursor
        // Drag right by 100 px: earlier times come into view, the span stays.
        const double lower = view->lowerCycles();
        QTest::mousePress(plot, Qt::LeftButton, {}, at);
        QTest::mouseMove(plot, at + QPoint(50, 0));
        QTest::mouseMove(plot, at + QPoint(100, 0));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, at + QPoint(100, 0));
        QVERIFY2(view->lowerCycles() < lower, "dragging did not pan");
        QVERIFY(qFuzzyCompare(view->upperCycles() - view->lowerCycles(), zoomedSpan));
    }

    void keys_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<double>("spanFactor"); // new span ÷ old span
        QTest::addColumn<int>("direction"); // sign of the change of the range's centre
        QTest::addRow("+ zooms in") << int(Qt::Key_Plus) << 1 / 1.5 << 0;
        QTest::addRow("= zooms in") << int(Qt::Key_Equal) << 1 / 1.5 << 0;
        QTest::addRow("- zooms out") << int(Qt::Key_Minus) << 1.5 << 0;
        QTest::addRow("right pans later") << int(Qt::Key_Right) << 1.0 << 1;
        QTest::addRow("left pans earlier") << int(Qt::Key_Left) << 1.0 << -1;
        QTest::addRow("home shows the run") << int(Qt::Key_Home) << -1.0 << 0;
    }

    void keys()
    {
        QFETCH(int, key);
        QFETCH(double, spanFactor);
        QFETCH(int, direction);
        auto view = shownView();
        const double latency = view->data().latencyCycles;
        view->setTimeRange(latency * 0.3, latency * 0.5);
        const double span = view->upperCycles() - view->lowerCycles();
        const double centre = (view->upperCycles() + view->lowerCycles()) / 2;
        QTest::keyClick(view->plot(), Qt::Key(key));
        const double newSpan = view->upperCycles() - view->lowerCycles();
        const double newCentre = (view->upperCycles() + view->lowerCycles()) / 2;
        if (spanFactor < 0) {
            QVERIFY(view->lowerCycles() <= 0 && view->upperCycles() >= latency);
            return;
        }
        QVERIFY2(std::abs(newSpan / span - spanFactor) < 1e-6, qPrintable(QString::number(newSpan / span)));
        if (direction == 0)
            ELK_COMPARE_NEAR(newCentre, centre, span * 1e-6);
        else
            QVERIFY(direction * (newCentre - centre) > span * 0.1);
    }

    void clickSelectsTheStep()
    {
        auto view = shownView();
        const int step = longestExecution(view->data());
        QVERIFY(step >= 0);
        const QPointF centre = view->barCenter(step, GanttLane::Execute);
        QVERIFY(!centre.isNull());
        QCOMPARE(view->stepAt(centre.toPoint()), step);
        QSignalSpy spy(view.get(), &GanttView::stepSelected);
        QTest::mouseClick(view->plot(), Qt::LeftButton, {}, centre.toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.first().at(0).toInt(), step);
        QCOMPARE(view->selectedStep(), step);
        // The preload bar of the same op selects it too; empty space selects nothing.
        const GanttOp& op = view->data().ops[std::size_t(step)];
        const double preloadPixels = (op.preloadEnd - op.preloadStart) / (view->upperCycles() - view->lowerCycles())
            * view->plot()->axisRect()->width();
        if (preloadPixels >= 3)
            QCOMPARE(view->stepAt(view->barCenter(step, GanttLane::Preload).toPoint()), step);
        const QRect rect = view->plot()->axisRect()->rect();
        QCOMPARE(view->stepAt(QPoint(rect.center().x(), rect.top() + 2)), -1);
        // setSelectedStep from another view does not emit and keeps the range.
        const double lower = view->lowerCycles();
        view->setSelectedStep(0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(view->lowerCycles(), lower);
    }

    void selectionElsewhereScrollsIntoView()
    {
        auto view = shownView();
        const GanttData& data = view->data();
        view->setTimeRange(0, data.latencyCycles * 0.1);
        const int last = int(data.ops.size()) - 1;
        view->setSelectedStep(last);
        const GanttOp& op = data.ops[std::size_t(last)];
        QVERIFY(view->lowerCycles() <= op.executeEnd && view->upperCycles() >= op.executeStart);
        ELK_COMPARE_NEAR(
            view->upperCycles() - view->lowerCycles(), data.latencyCycles * 0.1, data.latencyCycles * 1e-9);
        // Already in view: nothing moves.
        const double lower = view->lowerCycles();
        view->setSelectedStep(last - 1 >= 0 && data.ops[std::size_t(last - 1)].executeStart >= lower ? last - 1 : last);
        QCOMPARE(view->lowerCycles(), lower);
    }

    void hoverShowsTheOp()
    {
        auto view = shownView();
        const int step = longestExecution(view->data());
        const QPoint centre = view->barCenter(step, GanttLane::Execute).toPoint();
        QTest::mouseMove(view->plot(), centre);
        const QString text = view->lastToolTip();
        QVERIFY2(text.contains(view->data().ops[std::size_t(step)].name.toHtmlEscaped()), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("µs")));
        QVERIFY(text.contains(QStringLiteral("execute plan")));
        QVERIFY(text.contains(QStringLiteral("/core")));
        QCOMPARE(view->toolTipAt(centre), text);
        QVERIFY(view->toolTipAt(QPoint(1, 1)).isEmpty());
    }

    void exportsPng()
    {
        auto view = shownView(0);
        view->setSelectedStep(longestExecution(view->data()));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gantt.png"));
        QCOMPARE(view->exportFigure(path, FigureStyle::wide()), QString());
        QImage image(path);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 1000);
        // The view keeps its range after exporting.
        QVERIFY(view->lowerCycles() <= 0);
    }
};

QTEST_MAIN(TestGanttView)
#include "tst_gantt_view.moc"
