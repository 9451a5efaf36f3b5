// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The sweep view on hand-built sweeps: one numeric or categorical field gives a line per design
// with only the points done so far; two fields give a heatmap of the chosen design.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "engine/run/sweep.h"
#include "tests/widgets/figure_dir.h"
#include "widgets/plots/sweep_view.h"

#include <QComboBox>
#include <QTest>

#include <cmath>
#include <limits>

using namespace elk;
using namespace elk::widgets;

namespace {

const std::vector<std::string> kDesigns = { "basic", "static", "elk-dyn", "elk-full", "ideal" };

/// Latency model for the fake sweeps: falls with bandwidth, each design a bit faster than the last.
double fakeLatency(double bandwidth, std::size_t design)
{
    return (2.0 + 16.0 / bandwidth) * (1.0 - 0.08 * double(design));
}

/// HBM bandwidth 2–18 TB/s in steps of 2 (9 points); `done` says which points are filled in.
std::shared_ptr<run::SweepResult> bandwidthSweep(const std::vector<bool>& done)
{
    auto sweep = std::make_shared<run::SweepResult>();
    run::SweepAxis axis;
    axis.field = "hbm.bandwidthGBpsPerStack";
    axis.label = "HBM bandwidth per stack (TB/s)";
    for (int v = 2; v <= 18; v += 2)
        axis.values.push_back(std::to_string(v));
    sweep->axes.push_back(axis);
    sweep->designs = kDesigns;
    for (std::size_t i = 0; i < axis.values.size(); ++i) {
        run::SweepPoint point;
        point.index = { int(i) };
        point.done = i < done.size() ? done[i] : true;
        if (point.done) {
            for (std::size_t d = 0; d < kDesigns.size(); ++d)
                point.latencyMs.push_back(fakeLatency(2.0 + 2.0 * double(i), d));
        }
        sweep->points.push_back(point);
    }
    return sweep;
}

/// NoC link bandwidth × core count, 3 × 4; the given point (row-major) not done yet.
std::shared_ptr<run::SweepResult> gridSweep(int missing)
{
    auto sweep = std::make_shared<run::SweepResult>();
    run::SweepAxis noc { "interconnect.linkBandwidthGBpsPerCore", { "2.75", "5.5", "11" },
        "NoC link bandwidth per core (GB/s)" };
    run::SweepAxis cores { "coresPerChip", { "368", "736", "1104", "1472" }, "Cores per chip" };
    sweep->axes = { noc, cores };
    sweep->designs = kDesigns;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j) {
            run::SweepPoint point;
            point.index = { i, j };
            point.done = i * 4 + j != missing;
            if (point.done) {
                for (std::size_t d = 0; d < kDesigns.size(); ++d)
                    point.latencyMs.push_back(10.0 * (d + 1) + i + 0.1 * j);
            }
            sweep->points.push_back(point);
        }
    }
    return sweep;
}

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    }
    return nullptr;
}

QCPColorMap* colorMapOf(QCustomPlot* plot)
{
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i)))
            return map;
    }
    return nullptr;
}

} // namespace

class TestSweepView : public QObject {
    Q_OBJECT

private slots:
    void emptyWithoutPoints()
    {
        SweepView view;
        QVERIFY(!view.hasData());
        QCOMPARE(view.figureKind(), QStringLiteral("sweep"));
        view.setSweep(bandwidthSweep(std::vector<bool>(9, false)));
        QVERIFY(!view.hasData());
        view.setSweep(nullptr);
        QVERIFY(!view.hasData());
    }

    void linesHoldOnlyPointsDone_data()
    {
        QTest::addColumn<QList<bool>>("done");
        QTest::addColumn<int>("expected");
        QTest::addRow("all done") << QList<bool>(9, true) << 9;
        QTest::addRow("first three") << QList<bool>({ true, true, true, false, false, false, false, false, false })
                                     << 3;
        QTest::addRow("scattered") << QList<bool>({ true, false, true, false, false, true, false, false, true }) << 4;
        QTest::addRow("only the last") << QList<bool>({ false, false, false, false, false, false, false, false, true })
                                       << 1;
    }

    void linesHoldOnlyPointsDone()
    {
        QFETCH(QList<bool>, done);
        QFETCH(int, expected);
        SweepView view;
        view.setSweep(bandwidthSweep(std::vector<bool>(done.begin(), done.end())));
        QVERIFY(view.hasData());
        QVERIFY(!view.showsHeatmap());
        QCustomPlot* plot = view.plot();
        QCOMPARE(plot->graphCount(), 5);
        QCOMPARE(plot->xAxis->label(), QStringLiteral("HBM bandwidth per stack (TB/s)"));
        QCOMPARE(plot->yAxis->label(), QStringLiteral("Latency (ms)"));
        for (std::size_t d = 0; d < kDesigns.size(); ++d) {
            QCPGraph* graph = graphNamed(plot, QString::fromStdString(kDesigns[d]));
            QVERIFY(graph);
            QCOMPARE(graph->dataCount(), expected);
            // Numeric axis: x is the field's value, y the design's latency there.
            for (auto it = graph->data()->begin(); it != graph->data()->end(); ++it)
                QCOMPARE(it->value, fakeLatency(it->key, d));
        }
        // The whole range is in view before the sweep finishes.
        QVERIFY(plot->xAxis->range().lower <= 2 && plot->xAxis->range().upper >= 18);
    }

    void failedDesignLeavesAGap()
    {
        auto sweep = bandwidthSweep(std::vector<bool>(9, true));
        sweep->points[4].latencyMs[2] = std::numeric_limits<double>::quiet_NaN();
        SweepView view;
        view.setSweep(sweep);
        QCPGraph* dyn = graphNamed(view.plot(), QStringLiteral("elk-dyn"));
        QCOMPARE(dyn->dataCount(), 9);
        QVERIFY(std::isnan((dyn->data()->begin() + 4)->value));
        QVERIFY(!std::isnan((graphNamed(view.plot(), QStringLiteral("basic"))->data()->begin() + 4)->value));
    }

    void categoricalAxisHasLabelledTicks()
    {
        auto sweep = std::make_shared<run::SweepResult>();
        sweep->axes.push_back({ "interconnect.topology", { "\"all-to-all\"", "\"mesh2d\"" }, "Interconnect" });
        sweep->designs = { "basic", "elk-full" };
        for (int i = 0; i < 2; ++i)
            sweep->points.push_back({ { i }, { 3.0 + i, 2.0 + i }, {}, true, false });
        SweepView view;
        view.setSweep(sweep);
        auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(view.plot()->xAxis->ticker());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QStringLiteral("all-to-all"));
        QCOMPARE(ticker->ticks().value(1), QStringLiteral("mesh2d"));
        QCPGraph* full = graphNamed(view.plot(), QStringLiteral("elk-full"));
        QCOMPARE(full->dataCount(), 2);
        QCOMPARE((full->data()->begin() + 1)->value, 3.0);
    }

    void twoFieldsGiveAHeatmap()
    {
        SweepView view;
        view.setSweep(gridSweep(5)); // (1, 1) not done yet
        QVERIFY(view.showsHeatmap());
        QVERIFY(view.hasData());
        QCPColorMap* map = colorMapOf(view.plot());
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), 3);
        QCOMPARE(map->data()->valueSize(), 4);
        // Default design: elk-full (index 3).
        QCOMPARE(view.heatmapDesign(), 3);
        QCOMPARE(map->data()->cell(2, 3), 40.0 + 2 + 0.3);
        QVERIFY(std::isnan(map->data()->cell(1, 1)));
        QVERIFY(map->colorScale());
        QVERIFY2(map->colorScale()->label().contains(QStringLiteral("ms")), qPrintable(map->colorScale()->label()));
        auto xTicks = qSharedPointerDynamicCast<QCPAxisTickerText>(view.plot()->xAxis->ticker());
        QVERIFY(xTicks);
        QCOMPARE(xTicks->ticks().value(1), QStringLiteral("5.5"));

        // The design box switches the design shown.
        auto* box = view.findChild<QComboBox*>();
        QVERIFY(box);
        QCOMPARE(box->count(), 5);
        box->setCurrentIndex(0);
        QCOMPARE(view.heatmapDesign(), 0);
        map = colorMapOf(view.plot());
        QCOMPARE(map->data()->cell(2, 3), 10.0 + 2 + 0.3);
        QCOMPARE(map->dataRange().lower, 10.0);

        // Filling in the missing point keeps the chosen design.
        view.setSweep(gridSweep(-1));
        QCOMPARE(view.heatmapDesign(), 0);
        QCOMPARE(colorMapOf(view.plot())->data()->cell(1, 1), 10.0 + 1 + 0.1);

        // Back to one field: lines again, no colour scale left behind.
        view.setSweep(bandwidthSweep({}));
        QVERIFY(!view.showsHeatmap());
        QVERIFY(!colorMapOf(view.plot()));
        for (QCPLayoutElement* element : view.plot()->plotLayout()->elements(true))
            QVERIFY(!qobject_cast<QCPColorScale*>(element));
    }

    void exportsLookable_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("grid");
        QTest::addColumn<bool>("wide");
        QTest::addRow("lines, column") << QStringLiteral("sweep-lines-column.png") << false << false;
        QTest::addRow("lines half done, two columns")
            << QStringLiteral("sweep-lines-partial-wide.png") << false << true;
        QTest::addRow("heatmap, column") << QStringLiteral("sweep-heatmap-column.png") << true << false;
        QTest::addRow("heatmap, pdf") << QStringLiteral("sweep-heatmap.pdf") << true << false;
    }

    void exportsLookable()
    {
        QFETCH(QString, file);
        QFETCH(bool, grid);
        QFETCH(bool, wide);
        SweepView view;
        view.resize(800, 500);
        if (grid)
            view.setSweep(gridSweep(5));
        else
            view.setSweep(
                bandwidthSweep(wide ? std::vector<bool> { true, true, false, true, true } : std::vector<bool> {}));
        const QString path = test::figurePath(file);
        const QString error = view.exportFigure(path, wide ? FigureStyle::wide() : FigureStyle::column());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
};

QTEST_MAIN(TestSweepView)
#include "tst_sweep_view.moc"
