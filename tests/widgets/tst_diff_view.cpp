// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The diff view on a real run: one bar per op, the running sum ending at the latency difference;
// without a second side it says what to do; the figure exports.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/widgets/figure_dir.h"
#include "tests/widgets/run_fixture.h"
#include "widgets/plots/diff_view.h"

#include <QTest>

#include <cmath>

using namespace elk;
using namespace elk::widgets;

class TestDiffView : public QObject
{
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
        QCOMPARE(view.diff().ops.size(), run->designs[0].simulated->steps.size());
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
        for (const char* name : { "diff.pdf", "diff.svg", "diff.png" }) {
            const QString path = test::figurePath(QString::fromLatin1(name));
            QVERIFY(view.exportFigure(path, FigureStyle::column()).isEmpty());
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diff_view.moc"
