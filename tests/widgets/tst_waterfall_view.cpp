// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The waterfall view on a real run: one row per simulated design whose floor and loss parts add up to
// the simulated latency; a click on a part names that design and cause; the Gantt chart shades the
// part's intervals (and a new design clears them); the figure exports.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/figure_dir.h"
#include "tests/widgets/run_fixture.h"
#include "widgets/plots/waterfall_view.h"
#include "widgets/timeline/gantt_view.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace elk;
using namespace elk::widgets;

class TestWaterfallView : public QObject {
    Q_OBJECT

private slots:
    void rowsAddUpToTheLatency()
    {
        const auto run = test::smallRun();
        WaterfallView view;
        view.resize(900, 500);
        view.setRun(run);
        QVERIFY(view.hasData());
        QCOMPARE(view.rowNames().size(), qsizetype(run->designs.size()));
        // Σ of every bar in a row = that design's simulated latency.
        QMap<double, double> rowSums;
        QCustomPlot* p = view.plot();
        for (int i = 0; i < p->plottableCount(); ++i)
            if (auto* bars = qobject_cast<QCPBars*>(p->plottable(i)))
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    rowSums[it->key] += it->value;
        for (int row = 0; row < view.rowNames().size(); ++row) {
            const sim::SimResult& s = *run->designs[std::size_t(view.rowDesigns()[row])].simulated;
            const double latencyMs = s.latencyCycles / s.clockHz * 1e3;
            // Parts under 1e-4 of the latency are not drawn.
            QVERIFY2(std::abs(rowSums.value(double(row)) - latencyMs) <= 1e-3 * latencyMs,
                qPrintable(view.rowNames()[row]
                    + QStringLiteral(": %1 vs %2 ms").arg(rowSums.value(double(row))).arg(latencyMs)));
        }
        view.setRun(nullptr);
        QVERIFY(!view.hasData());
        QCOMPARE(view.rowNames().size(), 0);
    }

    void clickingAPartShadesItsIntervals()
    {
        const auto run = test::smallRun();
        WaterfallView waterfall;
        waterfall.resize(900, 500);
        waterfall.setRun(run);
        waterfall.show();
        QVERIFY(QTest::qWaitForWindowExposed(&waterfall));
        // The largest loss of basic (row 0).
        const sim::BoundGap& gap = run->designs[0].simulated->boundGap;
        int cause = 0;
        for (int c = 1; c < sim::kGapCauseCount; ++c)
            if (gap.parts[std::size_t(c)].lossCycles > gap.parts[std::size_t(cause)].lossCycles)
                cause = c;
        QVERIFY(gap.parts[std::size_t(cause)].lossCycles > 0);
        const QPointF centre = waterfall.partCenter(0, cause);
        QVERIFY(!centre.isNull());
        QSignalSpy picked(&waterfall, &WaterfallView::partSelected);
        QTest::mouseClick(waterfall.plot(), Qt::LeftButton, {}, centre.toPoint());
        QCOMPARE(picked.size(), 1);
        QCOMPARE(picked.front().at(0).toInt(), 0);
        QCOMPARE(picked.front().at(1).toInt(), cause);
        // The floor is clickable too (cause -1).
        QTest::mouseClick(waterfall.plot(), Qt::LeftButton, {}, waterfall.partCenter(0, -1).toPoint());
        QCOMPARE(picked.size(), 2);
        QCOMPARE(picked.back().at(1).toInt(), -1);

        GanttView gantt;
        gantt.resize(900, 400);
        gantt.setRun(run);
        const auto& intervals = gap.parts[std::size_t(cause)].intervals;
        gantt.setHighlight(intervals, QStringLiteral("basic — largest loss"));
        QVERIFY(gantt.highlightCount() > 0);
        QVERIFY(gantt.highlightCount() <= int(intervals.size()));
        QCOMPARE(gantt.highlightLabel(), QStringLiteral("basic — largest loss"));
        // The shading exports with the chart (and is what a reader of the figure sees).
        const QString shaded = test::figurePath(QStringLiteral("gantt-highlight.png"));
        QVERIFY(gantt.exportFigure(shaded, FigureStyle::wide()).isEmpty());
        QCOMPARE(gantt.highlightCount() > 0, true);
        gantt.setDesignIndex(1);
        QCOMPARE(gantt.highlightCount(), 0);
    }

    void exports()
    {
        WaterfallView view;
        view.setRun(test::smallRun());
        for (const char* name : { "waterfall.pdf", "waterfall.svg", "waterfall.png" }) {
            const QString path = test::figurePath(QString::fromLatin1(name));
            const QString error = view.exportFigure(path, FigureStyle::column());
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }
};

QTEST_MAIN(TestWaterfallView)
#include "tst_waterfall_view.moc"
