// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The paper figure view on a hand-built chart: one axis rect per panel, reference series as hollow
// markers on the bar of their design, stacked parts chained, one legend entry per name, NaN as gaps,
// and every export format. ELK_FIGURE_DIR=/some/dir keeps the exported figures to look at.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "engine/run/paper_chart.h"
#include "tests/widgets/figure_dir.h"
#include "widgets/plots/paper_figure_view.h"

#include <QFileInfo>
#include <QImage>
#include <QTest>

#include <cmath>
#include <limits>

using namespace elk;
using namespace elk::widgets;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const QString kPaperName = QStringLiteral("elk-full · paper");

run::ChartSeries series(const std::string& name, const std::string& design, std::vector<double> y,
    bool reference = false, std::vector<double> x = {})
{
    return { name, design, std::move(x), std::move(y), reference };
}

/// Two latency-vs-bandwidth line panels, grouped bars over batch sizes, a stacked breakdown.
std::shared_ptr<run::PaperChart> sampleChart(int columns = 2)
{
    auto chart = std::make_shared<run::PaperChart>();
    chart->name = "fig19";
    chart->title = "Fig. 19 · per-token latency vs HBM bandwidth (equal terms)";
    chart->caption = "Lines: this reproduction; hollow circles: the paper's published values (digitised from Fig. 19)";
    chart->columns = columns;
    const std::vector<double> bandwidth = { 1, 2, 4, 8, 16 };
    for (const char* topology : { "all-to-all", "mesh-2d" }) {
        run::ChartPanel panel;
        panel.title = std::string("llama2-13 · ") + topology;
        panel.xLabel = "HBM bandwidth (TB/s)";
        panel.yLabel = "Latency (ms)";
        const double scale = panel.title.ends_with("mesh-2d") ? 1.3 : 1.0;
        std::vector<double> basic, full, paper;
        for (double b : bandwidth) {
            basic.push_back(scale * (4.0 + 24.0 / b));
            full.push_back(scale * (2.5 + 12.0 / b));
            paper.push_back(scale * (2.7 + 11.5 / b));
        }
        if (scale > 1.0)
            full[2] = kNaN; // a failed point: a gap in the line
        panel.series = { series("basic", "basic", basic, false, bandwidth),
            series("elk-full", "elk-full", full, false, bandwidth),
            series(kPaperName.toStdString(), "elk-full", paper, true, bandwidth) };
        chart->panels.push_back(panel);
    }
    run::ChartPanel grouped;
    grouped.title = "speedup over basic";
    grouped.kind = run::ChartKind::GroupedBars;
    grouped.categories = { "b8", "b16", "b32" };
    grouped.xLabel = "Batch";
    grouped.yLabel = "Speedup (×)";
    grouped.series = { series("basic", "basic", { 1, 1, 1 }), series("elk-full", "elk-full", { 1.6, 1.9, kNaN }),
        series(kPaperName.toStdString(), "elk-full", { 1.7, 2.0, 2.2 }, true) };
    chart->panels.push_back(grouped);
    run::ChartPanel stacked;
    stacked.title = "time breakdown of elk-full";
    stacked.kind = run::ChartKind::StackedBars;
    stacked.categories = { "b8", "b16", "b32" };
    stacked.xLabel = "Batch";
    stacked.yLabel = "Time (ms)";
    stacked.series = { series("overlapped", "", { 2.0, 3.0, 4.0 }), series("preload only", "", { 1.0, kNaN, 1.5 }),
        series("execute only", "", { 0.5, 0.8, 1.2 }), series("total · paper", "", { 3.6, 4.0, 6.5 }, true) };
    chart->panels.push_back(stacked);
    return chart;
}

template <typename T> QList<T*> plottablesNamed(QCustomPlot* plot, const QString& name)
{
    QList<T*> found;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (auto* p = qobject_cast<T*>(plot->plottable(i)); p && p->name() == name)
            found.append(p);
    }
    return found;
}

QCPLegend* legendOf(QCustomPlot* plot)
{
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* legend = qobject_cast<QCPLegend*>(element))
            return legend;
    }
    return nullptr;
}

} // namespace

class TestPaperFigureView : public QObject {
    Q_OBJECT

private slots:
    void emptyWithoutChart()
    {
        PaperFigureView view;
        QCOMPARE(view.figureKind(), QStringLiteral("paper"));
        QVERIFY(!view.hasData());
        QCOMPARE(view.panelCount(), 0);
        view.setChart(std::make_shared<run::PaperChart>()); // no panels
        QVERIFY(!view.hasData());
        QCOMPARE(view.panelCount(), 0);
    }

    void onePanelPerAxisRect_data()
    {
        QTest::addColumn<int>("columns");
        QTest::addRow("one column") << 1;
        QTest::addRow("two columns") << 2;
        QTest::addRow("four columns") << 4;
        QTest::addRow("more columns than panels") << 9;
        QTest::addRow("zero columns: one") << 0;
    }

    void onePanelPerAxisRect()
    {
        QFETCH(int, columns);
        PaperFigureView view;
        view.setChart(sampleChart(columns));
        QVERIFY(view.hasData());
        QCOMPARE(view.panelCount(), 4);
        QVERIFY(view.chart());
        QCOMPARE(view.plot()->axisRect(2)->axis(QCPAxis::atLeft)->label(), QStringLiteral("Speedup (×)"));
        // Side by side, the two latency panels name their shared unit once.
        QCOMPARE(view.plot()->axisRect(0)->axis(QCPAxis::atLeft)->label(), QStringLiteral("Latency (ms)"));
        QCOMPARE(view.plot()->axisRect(1)->axis(QCPAxis::atLeft)->label().isEmpty(), columns >= 2);
        // Rebuilding the same chart leaves no plottables of the last one behind.
        const int plottables = view.plot()->plottableCount();
        view.setChart(sampleChart(columns));
        QCOMPARE(view.plot()->plottableCount(), plottables);
        QCOMPARE(view.panelCount(), 4);
    }

    void allNaNHasNoData()
    {
        auto chart = sampleChart();
        for (run::ChartPanel& panel : chart->panels) {
            for (run::ChartSeries& s : panel.series)
                std::fill(s.y.begin(), s.y.end(), kNaN);
        }
        PaperFigureView view;
        view.setChart(chart);
        QVERIFY(!view.hasData());
        QCOMPARE(view.panelCount(), 4); // the axes are still drawn
    }

    void referenceSeriesAreHollowMarkers()
    {
        PaperFigureView view;
        view.setChart(sampleChart());
        const QList<QCPGraph*> references = plottablesNamed<QCPGraph>(view.plot(), kPaperName);
        QCOMPARE(references.size(), 3); // two line panels and the grouped bars
        for (QCPGraph* graph : references) {
            QCOMPARE(graph->lineStyle(), QCPGraph::lsNone);
            QCOMPARE(graph->scatterStyle().shape(), QCPScatterStyle::ssCircle);
            QCOMPARE(graph->scatterStyle().brush().style(), Qt::NoBrush);
            QCOMPARE(graph->scatterStyle().pen().color(), designColor(QStringLiteral("elk-full")));
            QCOMPARE(graph->dataCount(), graph == references.last() ? 3 : 5);
        }
        for (QCPGraph* line : plottablesNamed<QCPGraph>(view.plot(), QStringLiteral("elk-full"))) {
            QCOMPARE(line->lineStyle(), QCPGraph::lsLine);
            QVERIFY(line->scatterStyle().brush().style() != Qt::NoBrush); // filled: not mistaken for the paper's
        }
        QVERIFY(plottablesNamed<QCPGraph>(view.plot(), QStringLiteral("total · paper")).size() == 1);
    }

    void lineGapAtNaN()
    {
        PaperFigureView view;
        view.setChart(sampleChart());
        const QList<QCPGraph*> lines = plottablesNamed<QCPGraph>(view.plot(), QStringLiteral("elk-full"));
        QCOMPARE(lines.size(), 2);
        QCPGraph* mesh = lines[1];
        QCOMPARE(mesh->dataCount(), 5);
        QVERIFY(std::isnan((mesh->data()->begin() + 2)->value));
        QVERIFY(!std::isnan((lines[0]->data()->begin() + 2)->value));
    }

    void referenceSitsOnItsDesignsBar()
    {
        PaperFigureView view;
        view.setChart(sampleChart(2));
        QCustomPlot* plot = view.plot();
        plot->setViewport(QRect(0, 0, 1000, 800));
        plot->replot();
        QCPBars* full = plottablesNamed<QCPBars>(plot, QStringLiteral("elk-full")).value(0);
        QCPBars* basic = plottablesNamed<QCPBars>(plot, QStringLiteral("basic")).value(0);
        QVERIFY(full && basic);
        QCOMPARE(full->dataCount(), 2); // the NaN at b32 is no bar
        QCPGraph* paper = plottablesNamed<QCPGraph>(plot, kPaperName).value(2);
        QVERIFY(paper && paper->keyAxis() == full->keyAxis());
        for (int i = 0; i < 2; ++i) {
            const auto marker = paper->data()->begin() + i;
            // Half-way up the bar under the marker: inside elk-full's bar, outside basic's.
            const QPointF inside(full->keyAxis()->coordToPixel(marker->key), full->valueAxis()->coordToPixel(0.5));
            QVERIFY2(full->selectTest(inside, false) >= 0, qPrintable(QString::number(marker->key)));
            QVERIFY(basic->selectTest(inside, false) < 0);
        }
    }

    void stackedPartsChain()
    {
        PaperFigureView view;
        view.setChart(sampleChart());
        QCPBars* overlapped = plottablesNamed<QCPBars>(view.plot(), QStringLiteral("overlapped")).value(0);
        QCPBars* preload = plottablesNamed<QCPBars>(view.plot(), QStringLiteral("preload only")).value(0);
        QCPBars* execute = plottablesNamed<QCPBars>(view.plot(), QStringLiteral("execute only")).value(0);
        QVERIFY(overlapped && preload && execute);
        QCOMPARE(preload->barBelow(), overlapped);
        QCOMPARE(execute->barBelow(), preload);
        QCOMPARE(preload->dataCount(), 2);
        QCOMPARE(execute->property("elkSeries").toInt(), 2); // hatched by series index on export
        // The tallest stack (4 + 1.5 + 1.2), from zero, with 5 % headroom or the paper markers' radius.
        const QCPRange range = overlapped->valueAxis()->range();
        QCOMPARE(range.lower, 0.0);
        QVERIFY2(range.upper >= 6.7 * 1.05 && range.upper < 6.7 * 1.3, qPrintable(QString::number(range.upper)));
    }

    void legendListsEachNameOnce()
    {
        PaperFigureView view;
        view.setChart(sampleChart());
        QCPLegend* legend = legendOf(view.plot());
        QVERIFY(legend);
        QStringList names;
        for (int i = 0; i < legend->itemCount(); ++i)
            names << qobject_cast<QCPPlottableLegendItem*>(legend->item(i))->plottable()->name();
        QCOMPARE(names,
            QStringList({ QStringLiteral("basic"), QStringLiteral("elk-full"), kPaperName, QStringLiteral("overlapped"),
                QStringLiteral("preload only"), QStringLiteral("execute only"), QStringLiteral("total · paper") }));
    }

    void ranges_data()
    {
        QTest::addColumn<bool>("fromZero");
        QTest::addRow("from zero") << true;
        QTest::addRow("from the data") << false;
    }

    void ranges()
    {
        QFETCH(bool, fromZero);
        auto chart = std::make_shared<run::PaperChart>();
        run::ChartPanel panel;
        panel.kind = run::ChartKind::GroupedBars;
        panel.yFromZero = fromZero;
        for (int i = 0; i < 8; ++i)
            panel.categories.push_back("model-" + std::to_string(i));
        panel.series = { series("elk-full", "elk-full", { 10, 12, 14, 16, 18, 20, 15, 11 }) };
        chart->panels = { panel };
        PaperFigureView view;
        view.setChart(chart);
        QCPAxisRect* rect = view.plot()->axisRect(0);
        const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
        QCOMPARE(y.lower, fromZero ? 0.0 : 10.0 - 0.05 * 10);
        QCOMPARE(y.upper, fromZero ? 20.0 + 0.05 * 20 : 20.0 + 0.05 * 10);
        QVERIFY(rect->axis(QCPAxis::atBottom)->tickLabelRotation() != 0); // 8 categories
    }

    void clearsOnNull()
    {
        PaperFigureView view;
        view.setChart(sampleChart());
        view.setChart(nullptr);
        QVERIFY(!view.chart());
        QVERIFY(!view.hasData());
        QCOMPARE(view.panelCount(), 0);
        QCOMPARE(view.plot()->plottableCount(), 0);
        QVERIFY(!legendOf(view.plot()));
    }

    void exports_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("wide");
        QTest::addRow("pdf") << QStringLiteral("paper-figure.pdf") << false;
        QTest::addRow("svg") << QStringLiteral("paper-figure.svg") << false;
        QTest::addRow("png, column") << QStringLiteral("paper-figure-column.png") << false;
        QTest::addRow("png, two columns") << QStringLiteral("paper-figure-wide.png") << true;
    }

    void exports()
    {
        QFETCH(QString, file);
        QFETCH(bool, wide);
        PaperFigureView view;
        view.resize(900, 700);
        view.setChart(sampleChart(2));
        const int markerBefore
            = int(plottablesNamed<QCPGraph>(view.plot(), kPaperName).value(0)->scatterStyle().size());
        FigureStyle style = wide ? FigureStyle::wide() : FigureStyle::column();
        style.heightCm = wide ? 9.0 : 8.0; // four panels need more than a column's usual 6 cm
        const QString path = test::figurePath(file);
        const QString error = view.exportFigure(path, style);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
        if (file.endsWith(QLatin1String(".png"))) {
            const QImage image(path);
            QCOMPARE(image.width(), int(std::lround(style.widthCm / 2.54 * style.pngDpi)));
        }
        // The screen's marker size comes back after the export.
        QCOMPARE(int(plottablesNamed<QCPGraph>(view.plot(), kPaperName).value(0)->scatterStyle().size()), markerBefore);
    }
};

QTEST_MAIN(TestPaperFigureView)
#include "tst_paper_figure_view.moc"
