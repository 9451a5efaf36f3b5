// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The designs view on a real run: one row per design, latency bars matching the simulation,
// speedup labels over basic, breakdown shares summing to 100 %, and the compare mode.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "tests/support/compare_near.h"

#include "tests/widgets/figure_dir.h"
#include "tests/widgets/run_fixture.h"
#include "widgets/plots/designs_view.h"

#include <QTest>

using namespace elk;
using namespace elk::widgets;

namespace {

/// Latency bars of the left panel by design name (one bar of one value each).
QMap<QString, double> latencyBars(QCustomPlot* plot, QCPAxisRect* latencyRect)
{
    QMap<QString, double> bars;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* b = qobject_cast<QCPBars*>(plot->plottable(i));
        if (b && b->keyAxis()->axisRect() == latencyRect && b->data()->size() == 1)
            bars.insert(b->name(), b->data()->begin()->value);
    }
    return bars;
}

QCPAxisRect* latencyRectOf(QCustomPlot* plot)
{
    const auto rects = plot->axisRects();
    return rects.isEmpty() ? nullptr : rects.front();
}

} // namespace

class TestDesignsView : public QObject {
    Q_OBJECT

private slots:
    void figuresFollowTheSimulation()
    {
        const auto run = test::smallRun();
        const auto figures = designFigures(*run);
        QCOMPARE(figures.size(), run->designs.size());
        for (std::size_t i = 0; i < figures.size(); ++i) {
            const DesignFigures& f = figures[i];
            QVERIFY2(f.ok, qPrintable(f.name + QStringLiteral(": ") + f.error));
            const sim::SimResult& sim = *run->designs[i].simulated;
            QCOMPARE(f.latencyMs, sim.latencyCycles / sim.clockHz * 1e3);
            const double shares = f.overlapPercent + f.preloadOnlyPercent + f.executeOnlyPercent;
            ELK_COMPARE_NEAR(shares, 100.0, 0.5);
            QVERIFY(f.hbmUtilizationPercent > 0 && f.hbmUtilizationPercent <= 100 + 1e-6);
        }
        QCOMPARE(figures.front().name, QStringLiteral("basic"));
        QCOMPARE(figures.front().speedup, 1.0);
        // Every other design beats basic on this run (elk-dyn by several per cent).
        for (std::size_t i = 1; i < figures.size(); ++i)
            QVERIFY2(figures[i].speedup > 1.0, qPrintable(figures[i].name));
    }

    void speedupTextRounds_data()
    {
        QTest::addColumn<double>("speedup");
        QTest::addColumn<QString>("text");
        QTest::addRow("one") << 1.0 << QStringLiteral("1.00×");
        QTest::addRow("rounds to two decimals") << 1.2449 << QStringLiteral("1.24×");
        QTest::addRow("above ten") << 12.5 << QStringLiteral("12.50×");
    }

    void speedupTextRounds()
    {
        QFETCH(double, speedup);
        QFETCH(QString, text);
        QCOMPARE(widgets::speedupText(speedup), text);
    }

    void viewShowsEveryDesign()
    {
        DesignsView view;
        QVERIFY(!view.hasData());
        QCOMPARE(view.figureKind(), QStringLiteral("designs"));
        view.setRun(test::smallRun());
        QVERIFY(view.hasData());
        QCOMPARE(view.rowNames(),
            QStringList({ QStringLiteral("basic"), QStringLiteral("static"), QStringLiteral("elk-dyn"),
                QStringLiteral("elk-full"), QStringLiteral("ideal") }));

        const auto figures = designFigures(*view.run());
        QStringList expectedLabels;
        for (const DesignFigures& f : figures)
            expectedLabels << widgets::speedupText(f.speedup);
        QCOMPARE(view.speedupLabels(), expectedLabels);
        QCOMPARE(view.speedupLabels().front(), QStringLiteral("1.00×"));

        QCustomPlot* plot = view.plot();
        QCOMPARE(plot->axisRects().size(), 3);
        const auto bars = latencyBars(plot, latencyRectOf(plot));
        QCOMPARE(bars.size(), 5);
        for (const DesignFigures& f : figures)
            QCOMPARE(bars.value(f.name), f.latencyMs);
        // The x axis holds the longest bar and its analytic marker.
        QVERIFY(latencyRectOf(plot)->axis(QCPAxis::atBottom)->range().upper >= figures.front().latencyMs);

        view.setRun(nullptr);
        QVERIFY(!view.hasData());
        QCOMPARE(plot->plottableCount(), 0);
    }

    void compareRunShowsBothChips()
    {
        DesignsView view;
        view.setRun(test::smallRun());
        view.setCompareRun(test::smallRunHalfHbm(), QStringLiteral("half HBM"));
        QCOMPARE(view.speedupLabels().size(), 10);
        QCPLegend* legend = nullptr;
        for (QCPLayoutElement* element : view.plot()->plotLayout()->elements(true)) {
            if (auto* l = qobject_cast<QCPLegend*>(element))
                legend = l;
        }
        QVERIFY(legend);
        bool named = false;
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
            named = named || (item && item->plottable()->name() == QStringLiteral("half HBM"));
        }
        QVERIFY(named);
        // Half the HBM bandwidth makes basic (preload-bound) slower.
        const auto a = designFigures(*test::smallRun());
        const auto b = designFigures(*test::smallRunHalfHbm());
        QVERIFY(b.front().latencyMs > a.front().latencyMs);

        view.setCompareRun(nullptr, QString());
        QCOMPARE(view.speedupLabels().size(), 5);
    }

    void exportsLookable_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("compare");
        QTest::addColumn<bool>("wide");
        QTest::addRow("one run, column") << QStringLiteral("designs-column.png") << false << false;
        QTest::addRow("one run, two columns") << QStringLiteral("designs-wide.png") << false << true;
        QTest::addRow("compare, two columns") << QStringLiteral("designs-compare-wide.png") << true << true;
        QTest::addRow("compare, column pdf") << QStringLiteral("designs-compare-column.pdf") << true << false;
    }

    void exportsLookable()
    {
        QFETCH(QString, file);
        QFETCH(bool, compare);
        QFETCH(bool, wide);
        DesignsView view;
        view.resize(900, 500);
        view.setRun(test::smallRun());
        if (compare)
            view.setCompareRun(test::smallRunHalfHbm(), QStringLiteral("half HBM"));
        const QString path = test::figurePath(file);
        const QString error = view.exportFigure(path, wide ? FigureStyle::wide() : FigureStyle::column());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
};

QTEST_MAIN(TestDesignsView)
#include "tst_designs_view.moc"
