// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The diff views on real runs: the per-op bars (one per op, the running sum ending at the latency
// difference), the two timelines aligned on the op (every op joined, hit testing, hover, click), and
// the Δ link heatmap (all-to-all and mesh; another topology says so); without a second side each says
// what to do; every figure exports.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/figure_dir.h"
#include "tests/widgets/run_fixture.h"
#include "widgets/plots/diff_view.h"
#include "widgets/timeline/diff_links_view.h"
#include "widgets/timeline/diff_timeline_view.h"

#include <QSignalSpy>

#include <QTest>

#include <cmath>

using namespace elk;
using namespace elk::widgets;

namespace {

int designNamed(const run::RunResult& run, const char* name)
{
    for (std::size_t d = 0; d < run.designs.size(); ++d)
        if (std::string(schedule::toString(run.designs[d].design)) == name)
            return int(d);
    return -1;
}

void exportsEveryFormat(PlotView& view, const QString& stem)
{
    for (const char* suffix : { ".pdf", ".svg", ".png" }) {
        const QString path = test::figurePath(stem + QLatin1String(suffix));
        QVERIFY2(view.exportFigure(path, FigureStyle::column()).isEmpty(), qPrintable(path));
        QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
    }
}

} // namespace

class TestDiffView : public QObject {
    Q_OBJECT

private slots:
    void barsAndRunningSum()
    {
        const auto run = test::smallRun();
        DiffView view;
        view.setRun(run);
        QVERIFY(!view.hasData());
        QVERIFY(view.title().contains(QStringLiteral("compare against")));
        view.setDesignIndex(0); // basic
        view.setAgainst(run, int(run->designs.size()) - 1); // ideal
        QVERIFY(view.hasData());
        // Every step of each side once; basic and ideal may run an operator as other parts (their own
        // pipelined splits), and such parts are ops of one side only.
        std::size_t onA = 0, onB = 0;
        for (const run::OpDelta& op : view.diff().ops) {
            QVERIFY(op.stepA >= 0 || op.stepB >= 0);
            onA += op.stepA >= 0;
            onB += op.stepB >= 0;
        }
        QCOMPARE(onA, run->designs[0].simulated->steps.size());
        QCOMPARE(onB, run->designs.back().simulated->steps.size());
        QCustomPlot* p = view.plot();
        int bars = 0;
        for (int i = 0; i < p->plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPBars*>(p->plottable(i)))
                bars += b->dataCount();
        QCOMPARE(bars, int(view.diff().ops.size()));
        QCPGraph* running = p->graph(0);
        QVERIFY(running);
        const double last = (running->data()->constEnd() - 1)->value;
        const double expected = view.diff().latencyMsB - view.diff().latencyMsA;
        QVERIFY2(std::abs(last - expected) <= 1e-9 + 1e-9 * std::abs(expected), qPrintable(QString::number(last)));
        QVERIFY(expected < 0); // ideal beats basic
        exportsEveryFormat(view, QStringLiteral("diff"));
    }

    void timelinesAlignedOnTheOp()
    {
        const auto run = test::smallRun();
        DiffTimelineView view;
        view.resize(1200, 520);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(run);
        QVERIFY(!view.hasData());
        QVERIFY(view.title().contains(QStringLiteral("compare against")));
        const int full = designNamed(*run, "elk-full");
        const int basic = designNamed(*run, "basic");
        view.setDesignIndex(full);
        view.setAgainst(run, basic);
        QVERIFY(view.hasData());
        const sim::SimResult& a = *run->designs[std::size_t(full)].simulated;
        const sim::SimResult& b = *run->designs[std::size_t(basic)].simulated;
        double sum = 0, largest = 0;
        int widest = -1;
        double widestMs = 0;
        std::size_t stepsOfB = 0;
        for (std::size_t k = 0; k < view.ops().size(); ++k) {
            const DiffTimelineOp& op = view.ops()[k];
            // A's ops first, in its execution order; then those only B runs (an operator basic splits
            // into other parts by its own pipelined splits).
            QVERIFY(op.inA() == (k < a.steps.size()));
            stepsOfB += op.inB();
            if (op.inA()) {
                QCOMPARE(op.stepA, int(k));
                QCOMPARE(op.executeStartMsA, a.steps[k].execute.startCycles * 1e3 / a.clockHz);
            }
            if (op.inB()) {
                QCOMPARE(op.executeEndMsB, b.steps[std::size_t(op.stepB)].execute.endCycles * 1e3 / b.clockHz);
                QCOMPARE(op.name.toStdString(), b.stepNames[std::size_t(op.stepB)]);
            }
            sum += op.deltaMs;
            largest = std::max(largest, std::abs(op.deltaMs));
            if (op.inA() && op.inB() && op.executeEndMsA - op.executeStartMsA > widestMs) {
                widestMs = op.executeEndMsA - op.executeStartMsA;
                widest = int(k);
            }
        }
        QCOMPARE(stepsOfB, b.steps.size());
        QCOMPARE(view.maxAbsDeltaMs(), largest);
        const double expected = view.diff().latencyMsB - view.diff().latencyMsA;
        QVERIFY2(std::abs(sum - expected) <= 1e-9 + 1e-9 * std::abs(expected),
            qPrintable(QStringLiteral("Σ Δ %1 vs B − A %2").arg(sum).arg(expected)));

        // Hit testing on the widest execution: its bar on both sides and the band between them.
        view.plot()->replot();
        const QPointF onA = view.barCenter(widest, DiffLane::ExecuteA);
        const QPointF onB = view.barCenter(widest, DiffLane::ExecuteB);
        QVERIFY(!onA.isNull() && !onB.isNull());
        QCOMPARE(view.opAt(onA.toPoint()), widest);
        QCOMPARE(view.opAt(onB.toPoint()), widest);
        QCOMPARE(view.opAt(((onA + onB) / 2).toPoint()), widest);
        QCOMPARE(view.opAt(QPoint(2, 2)), -1);
        const QString tip = view.toolTipAt(onA.toPoint());
        QVERIFY2(tip.startsWith(view.ops()[std::size_t(widest)].name) && tip.contains(QStringLiteral("Δ wait")),
            qPrintable(tip));
        QSignalSpy picked(&view, &PlotView::stepSelected);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, onB.toPoint());
        QCOMPARE(picked.size(), 1);
        QCOMPARE(picked.front().front().toInt(), view.ops()[std::size_t(widest)].stepA);
        exportsEveryFormat(view, QStringLiteral("diff-timeline"));
    }

    void linkDeltasOnTheSameChip_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::newRow("all-to-all: core ports") << QStringLiteral("ipu-mk2-hbm");
        QTest::newRow("mesh: links") << QStringLiteral("ipu-pod4-hbm-mesh");
    }

    void linkDeltasOnTheSameChip()
    {
        QFETCH(QString, chip);
        const auto run = chip == QLatin1String("ipu-mk2-hbm") ? test::smallRun()
                                                              : test::runOf(test::smallRunSpec(chip.toStdString()));
        DiffLinksView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(run);
        QVERIFY(!view.hasData());
        const int full = designNamed(*run, "elk-full");
        const int stat = designNamed(*run, "static");
        view.setDesignIndex(full);
        view.setAgainst(run, stat);
        QVERIFY(view.hasData());
        const sim::SimResult& a = *run->designs[std::size_t(full)].simulated;
        const sim::SimResult& b = *run->designs[std::size_t(stat)].simulated;
        double largest = 0;
        int changed = -1;
        for (std::size_t l = 0; l < a.links.size(); ++l) {
            QCOMPARE(view.deltaBytes(int(l)), b.linkBytes[l] - a.linkBytes[l]);
            if (std::abs(b.linkBytes[l] - a.linkBytes[l]) > largest && view.mapLayout().shapeOfLink[l] >= 0) {
                largest = std::abs(b.linkBytes[l] - a.linkBytes[l]);
                changed = int(l);
            }
        }
        QVERIFY2(largest > 0, "static and elk-full move different bytes on some link");
        QVERIFY(view.maxAbsDeltaBytes() >= largest);
        QCOMPARE(view.mapLayout().mesh, chip != QLatin1String("ipu-mk2-hbm"));
        view.plot()->replot();
        const QPointF centre = view.linkCenter(changed);
        QVERIFY(!centre.isNull());
        QCOMPARE(view.linkAt(centre.toPoint()), changed);
        const QString tip = view.toolTipAt(centre.toPoint());
        QVERIFY2(tip.startsWith(QString::fromStdString(a.links[std::size_t(changed)].name))
                && tip.contains(QStringLiteral("B − A")),
            qPrintable(tip));
        exportsEveryFormat(view, QStringLiteral("diff-links-") + chip);
    }

    void linkDeltasNeedTheSameLinks()
    {
        const auto one = test::smallRun();
        const auto mesh = test::runOf(test::smallRunSpec("ipu-pod4-hbm-mesh"));
        DiffLinksView links;
        links.setRun(one);
        links.setAgainst(mesh, 0);
        QVERIFY(!links.hasData());
        QVERIFY(links.title().contains(QStringLiteral("different links")));
        DiffTimelineView timeline; // the timelines still align
        timeline.setRun(one);
        timeline.setAgainst(mesh, 0);
        QVERIFY(timeline.hasData());
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diff_view.moc"
