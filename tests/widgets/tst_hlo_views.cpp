// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The StableHLO views on real runs of hespas' jax_example.mlir (4 × A100 and 4 × H100): one bar per
// region, exposed communication adding up to the run's, one lane pair per run, hover text, zoom and
// pan, one roofline point per kernel with FLOPs, a roof per element type, export to PDF/SVG/PNG; the
// region table passes QAbstractItemModelTester and sorts numerically.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include <algorithm>
#include <memory>
#include <set>

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QTest>

#include "engine/hlo/hlo_run.h"
#include "figure_dir.h"
#include "widgets/hlo/hlo_region_table_model.h"
#include "widgets/hlo/hlo_roofline_view.h"
#include "widgets/hlo/hlo_step_timeline_view.h"

Q_DECLARE_METATYPE(elk::widgets::HloResultPtr)

using namespace elk;
using namespace elk::widgets;

namespace {

const QString kCorpus = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas");

HloResultPtr runModule(const QString& file, const std::string& system, hlo::SplitMode split = hlo::SplitMode::Linear)
{
    hlo::HloRunOptions options;
    options.system = system;
    options.slice.mode = split;
    NullRunControl control;
    return std::make_shared<const hlo::HloRunResult>(
        hlo::runHloFile(QString(kCorpus + QLatin1Char('/') + file).toStdString(), options, nullptr, control));
}

/// A result with only the regions given (kind, start, end): for the exposed-communication arithmetic.
HloResultPtr handMade(const std::vector<std::tuple<hlo::RegionKind, double, double>>& regions)
{
    auto result = std::make_shared<hlo::HloRunResult>();
    result->systemName = "hand-made";
    for (const auto& [kind, start, end] : regions) {
        hlo::RegionReport region;
        region.kind = kind;
        region.startSeconds = start;
        region.endSeconds = end;
        region.seconds = end - start;
        region.collective = kind == hlo::RegionKind::Communication ? "all_reduce" : "";
        result->regions.push_back(region);
        result->stepSeconds = std::max(result->stepSeconds, end);
    }
    return result;
}

int regionsOf(const hlo::HloRunResult& result, hlo::RegionKind kind)
{
    return int(std::count_if(result.regions.begin(), result.regions.end(),
        [kind](const hlo::RegionReport& region) { return region.kind == kind; }));
}

int kernelsWithFlops(const hlo::HloRunResult& result)
{
    return int(std::count_if(
        result.kernels.begin(), result.kernels.end(), [](const hlo::KernelPoint& kernel) { return kernel.flops > 0; }));
}

template <typename View> std::unique_ptr<View> shownView(const HloResults& results)
{
    auto view = std::make_unique<View>();
    view->resize(1200, 520);
    view->setHloResults(results);
    view->show();
    if (!QTest::qWaitForWindowExposed(view.get()))
        qWarning("window not exposed");
    view->plot()->replot();
    return view;
}

} // namespace

class TestHloViews : public QObject {
    Q_OBJECT

private:
    HloResultPtr m_a100;
    HloResultPtr m_h100;

private slots:
    void initTestCase()
    {
        m_a100 = runModule(QStringLiteral("jax_example.mlir"), "4x-a100-sxm-40gb");
        m_h100 = runModule(QStringLiteral("jax_example.mlir"), "4x-h100-sxm");
        for (const HloResultPtr& result : { m_a100, m_h100 }) {
            QVERIFY2(result->ok(), result->errors.empty() ? "stopped" : result->errors.front().c_str());
            QVERIFY(regionsOf(*result, hlo::RegionKind::Compute) > 0);
            // jax_example's six all_reduce have single-device groups: regions of zero time, drawn as ticks.
            QCOMPARE(regionsOf(*result, hlo::RegionKind::Communication), 6);
        }
    }

    void emptyWithoutResults()
    {
        HloStepTimelineView timeline;
        HloRooflineView roofline;
        QVERIFY(!timeline.hasData());
        QVERIFY(!roofline.hasData());
        QCOMPARE(timeline.figureKind(), QStringLiteral("hlo-timeline"));
        QCOMPARE(roofline.figureKind(), QStringLiteral("hlo-roofline"));
        timeline.setHloResults({ m_a100 });
        roofline.setHloResults({ m_a100 });
        QVERIFY(timeline.hasData());
        QVERIFY(roofline.hasData());
        // A failed run draws nothing (and the views do not crash on it).
        auto failed = std::make_shared<hlo::HloRunResult>();
        failed->errors.push_back("x.mlir:1:1: expected an op, found '}'");
        failed->status = RunStatus::Failed;
        timeline.setHloResults({ failed });
        roofline.setHloResults({ failed });
        QVERIFY(!timeline.hasData());
        QVERIFY(!roofline.hasData());
    }

    void timelineHasOneBarPerRegion()
    {
        HloStepTimelineView view;
        view.setHloResults({ m_a100 });
        const HloTimelineData& data = view.data();
        QCOMPARE(data.groups.size(), std::size_t(1));
        QCOMPARE(data.barCount(HloLaneKind::Compute), regionsOf(*m_a100, hlo::RegionKind::Compute));
        QCOMPARE(data.barCount(HloLaneKind::Communication), regionsOf(*m_a100, hlo::RegionKind::Communication));
        QCOMPARE(data.barCount(HloLaneKind::Compute) + data.barCount(HloLaneKind::Communication),
            int(m_a100->regions.size()));
        QCOMPARE(data.endSeconds, m_a100->stepSeconds);
        QVERIFY(data.collectives.contains(QStringLiteral("all_reduce")));
        for (const HloLane& lane : data.lanes) {
            for (std::size_t i = 1; i < lane.bars.size(); ++i)
                QVERIFY(lane.bars[i].start >= lane.bars[i - 1].end);
        }
    }

    void exposedCommunicationAddsUp_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("split");
        QTest::addColumn<bool>("partlyHidden");
        QTest::addRow("split replica groups, linear: every collective exposed")
            << QStringLiteral("test_split_replica_groups.mlir") << int(hlo::SplitMode::Linear) << false;
        QTest::addRow("ResNet-50 train step, dependency split: some hidden behind compute")
            << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir") << int(hlo::SplitMode::Dependency)
            << true;
    }

    void exposedCommunicationAddsUp()
    {
        QFETCH(QString, file);
        QFETCH(int, split);
        QFETCH(bool, partlyHidden);
        const HloResultPtr result = runModule(file, "4x-a100-sxm-40gb", hlo::SplitMode(split));
        QVERIFY(result->ok());
        QVERIFY(result->commSeconds > 0);
        double exposed = 0;
        for (const LaneBar& bar : exposedCommunication(*result))
            exposed += bar.end - bar.start;
        QVERIFY2(std::abs(exposed - result->exposedCommSeconds) <= 1e-12 + 1e-6 * result->stepSeconds,
            qPrintable(QStringLiteral("lane %1 s, run %2 s").arg(exposed).arg(result->exposedCommSeconds)));
        if (partlyHidden)
            QVERIFY(exposed > 0 && exposed < result->commSeconds * 0.9);
        else
            QVERIFY(qFuzzyCompare(exposed, result->commSeconds));
        // The view's exposed lane holds the same bars.
        HloStepTimelineView view;
        view.setHloResults({ result });
        double drawn = 0;
        for (const LaneBar& bar : view.data().lanes[std::size_t(view.data().groups[0].exposedLane)].bars)
            drawn += bar.end - bar.start;
        QCOMPARE(drawn, exposed);
    }

    void exposedIntervals_data()
    {
        using K = hlo::RegionKind;
        QTest::addColumn<HloResultPtr>("result");
        QTest::addColumn<QList<QPointF>>("expected");
        QTest::addRow("communication between two computes is all exposed")
            << handMade({ { K::Compute, 0, 1 }, { K::Communication, 1, 2 }, { K::Compute, 2, 3 } })
            << QList<QPointF> { { 1, 2 } };
        QTest::addRow("communication under compute is hidden")
            << handMade({ { K::Compute, 0, 4 }, { K::Communication, 1, 2 } }) << QList<QPointF> {};
        QTest::addRow("partly hidden at both ends") << handMade(
            { { K::Compute, 0, 1 }, { K::Communication, 0.5, 3.5 }, { K::Compute, 2, 3 }, { K::Compute, 3.2, 4 } })
                                                    << QList<QPointF> { { 1, 2 }, { 3, 3.2 } };
        QTest::addRow("two collectives, one after compute")
            << handMade({ { K::Compute, 0, 1 }, { K::Communication, 0, 0.5 }, { K::Communication, 1, 1.5 } })
            << QList<QPointF> { { 1, 1.5 } };
    }

    void exposedIntervals()
    {
        QFETCH(HloResultPtr, result);
        QFETCH(QList<QPointF>, expected);
        const std::vector<LaneBar> bars = exposedCommunication(*result);
        QCOMPARE(qsizetype(bars.size()), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QCOMPARE(bars[std::size_t(i)].start, expected[i].x());
            QCOMPARE(bars[std::size_t(i)].end, expected[i].y());
            QCOMPARE(result->regions[std::size_t(bars[std::size_t(i)].item)].kind, hlo::RegionKind::Communication);
        }
    }

    void twoResultsGiveTwoLanePairs()
    {
        HloStepTimelineView view;
        view.setHloResults({ m_a100, m_h100 });
        const HloTimelineData& data = view.data();
        QCOMPARE(data.groups.size(), std::size_t(2));
        QCOMPARE(data.lanes.size(), std::size_t(6));
        QCOMPARE(data.groups[0].label, QStringLiteral("4x-a100-sxm-40gb · roofline"));
        QCOMPARE(data.groups[1].label, QStringLiteral("4x-h100-sxm · roofline"));
        // The first run on top, lanes apart.
        QVERIFY(data.lanes[std::size_t(data.groups[0].computeLane)].y
            > data.lanes[std::size_t(data.groups[1].computeLane)].y);
        std::set<double> ys;
        for (const HloLane& lane : data.lanes) {
            QVERIFY(lane.y - lane.halfHeight >= data.valueLower && lane.y + lane.halfHeight <= data.valueUpper);
            QVERIFY(ys.insert(lane.y).second);
        }
        QCOMPARE(data.endSeconds, std::max(m_a100->stepSeconds, m_h100->stepSeconds));
        // H100 is faster than A100 on the same module.
        QVERIFY(m_h100->stepSeconds < m_a100->stepSeconds);
    }

    void hoverShowsRegionDetails()
    {
        auto view = shownView<HloStepTimelineView>({ m_a100 });
        const HloTimelineData& data = view->data();
        const int lane = data.groups[0].computeLane;
        const auto& bars = data.lanes[std::size_t(lane)].bars;
        const auto widest = std::max_element(bars.begin(), bars.end(),
            [](const LaneBar& a, const LaneBar& b) { return a.end - a.start < b.end - b.start; });
        const QPointF centre = view->barCenter(lane, int(widest - bars.begin()));
        QVERIFY(!centre.isNull());
        const auto [hitLane, hitBar] = view->barAt(centre.toPoint());
        QCOMPARE(hitLane, lane);
        QCOMPARE(hitBar, int(widest - bars.begin()));
        QTest::mouseMove(view->plot(), centre.toPoint());
        const QString text = view->lastToolTip();
        QVERIFY2(text.contains(QStringLiteral("Region %1 · compute").arg(widest->item)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("roofline")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("4x-a100-sxm-40gb")), qPrintable(text));
        // A communication bar names its collective and group.
        const int comm = data.groups[0].commLane;
        const QPointF commCentre = view->barCenter(comm, 0);
        const QString commText = view->toolTipAt(commCentre.toPoint());
        QVERIFY2(commText.contains(QStringLiteral("all_reduce")) && commText.contains(QStringLiteral("group of")),
            qPrintable(commText));
        // Nothing under the label row.
        QVERIFY(view->toolTipAt(QPoint(2, 2)).isEmpty());
    }

    void zoomAndPan()
    {
        auto view = shownView<HloStepTimelineView>({ m_a100 });
        const double end = view->data().endSeconds;
        QVERIFY(view->lowerSeconds() <= 0 && view->upperSeconds() >= end);
        const double span = view->upperSeconds() - view->lowerSeconds();
        view->zoomBy(4);
        QVERIFY(qFuzzyCompare(view->upperSeconds() - view->lowerSeconds(), span / 4));
        const double lower = view->lowerSeconds();
        view->panBy(0.5);
        QVERIFY(qFuzzyCompare(view->lowerSeconds(), lower + span / 8));
        view->panBy(100); // stops at the end of the step
        QVERIFY(view->upperSeconds() <= end * 1.011);
        QTest::keyClick(view->plot(), Qt::Key_Home);
        QVERIFY(qFuzzyCompare(view->upperSeconds() - view->lowerSeconds(), span));
        QTest::keyClick(view->plot(), Qt::Key_Plus);
        QVERIFY(view->upperSeconds() - view->lowerSeconds() < span);
        // The axis names its unit for the visible span.
        QVERIFY(view->plot()->xAxis->label().startsWith(QStringLiteral("time (")));
    }

    void rooflineHasOnePointPerKernelWithFlops()
    {
        HloRooflineView view;
        view.setHloResults({ m_a100 });
        QVERIFY(kernelsWithFlops(*m_a100) > 0);
        QCOMPARE(view.pointCount(), kernelsWithFlops(*m_a100));
        view.setHloResults({ m_a100, m_h100 });
        QCOMPARE(view.pointCount(), kernelsWithFlops(*m_a100) + kernelsWithFlops(*m_h100));
        QCOMPARE(view.data().pointCount(0), kernelsWithFlops(*m_a100));
        QCOMPARE(view.data().pointCount(1), kernelsWithFlops(*m_h100));
        // Two devices, each with its own roofs; every element type among the kernels has a flat roof.
        QVERIFY(!view.data().sharedDevice);
        for (const HloResultPtr& result : { m_a100, m_h100 }) {
            for (const hlo::KernelPoint& kernel : result->kernels) {
                if (!hasRooflinePoint(kernel))
                    continue;
                const QString type = QString::fromStdString(kernel.peakType);
                const QString device = QString::fromStdString(result->device.name);
                const bool found = std::any_of(view.data().roofs.begin(), view.data().roofs.end(),
                    [&](const HloRoof& roof) { return roof.deviceId == device && roof.types.contains(type); });
                QVERIFY2(found, qPrintable(device + QLatin1Char(' ') + type));
            }
        }
        QCOMPARE(view.roofCount(), int(view.data().roofs.size()));
        // Points stay inside the axis ranges; on a bare roofline none is above its roof.
        for (const HloRooflinePoint& point : view.data().points) {
            QVERIFY(point.intensity >= view.data().xLower && point.intensity <= view.data().xUpper);
            QVERIFY(point.flopsPerSecond >= view.data().yLower && point.flopsPerSecond <= view.data().yUpper);
            const hlo::HloRunResult& result = *view.data().groups[std::size_t(point.group)];
            const double bandwidth = result.device.memoryBandwidthGBps * 1e9 * result.device.memoryEfficiency;
            QVERIFY(point.flopsPerSecond <= point.intensity * bandwidth * (1 + 1e-6));
        }
    }

    void rooflineHoverNamesTheKernel()
    {
        auto view = shownView<HloRooflineView>({ m_a100 });
        const auto& points = view->data().points;
        const auto largest = std::max_element(points.begin(), points.end(),
            [](const HloRooflinePoint& a, const HloRooflinePoint& b) { return a.timeShare < b.timeShare; });
        const int index = int(largest - points.begin());
        const QPointF centre = view->pointCenter(index);
        QVERIFY(view->plot()->axisRect()->rect().contains(centre.toPoint()));
        QTest::mouseMove(view->plot(), centre.toPoint());
        const QString text = view->lastToolTip();
        const hlo::KernelPoint& kernel = m_a100->kernels[std::size_t(largest->kernel)];
        QVERIFY2(text.contains(QString::fromStdString(kernel.label)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("estimator: roofline")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("FLOP/byte")), qPrintable(text));
    }

    void exportsEveryFormat_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("suffix");
        for (const char* kind : { "hlo-timeline", "hlo-roofline" }) {
            for (const char* suffix : { "pdf", "svg", "png" })
                QTest::addRow("%s %s", kind, suffix) << QString::fromLatin1(kind) << QString::fromLatin1(suffix);
        }
    }

    void exportsEveryFormat()
    {
        QFETCH(QString, kind);
        QFETCH(QString, suffix);
        std::unique_ptr<HloPlotView> view;
        if (kind == QLatin1String("hlo-timeline"))
            view = std::make_unique<HloStepTimelineView>();
        else
            view = std::make_unique<HloRooflineView>();
        view->resize(900, 500);
        view->setHloResults({ m_a100, m_h100 });
        const QString path = test::figurePath(QStringLiteral("%1.%2").arg(kind, suffix));
        const QString error = view->exportFigure(path, FigureStyle::column());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(bytes.size() > 1000, qPrintable(path));
        if (suffix == QLatin1String("pdf")) {
            QVERIFY(bytes.startsWith("%PDF-"));
        } else if (suffix == QLatin1String("svg")) {
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("</svg>"));
        } else {
            const QImage image = QImage::fromData(bytes, "PNG");
            QCOMPARE(image.width(), qRound(8.5 / 2.54 * 300));
            QCOMPARE(image.height(), qRound(6.0 / 2.54 * 300));
        }
        // The wide style too, for a look at the figures (ELK_FIGURE_DIR).
        if (suffix == QLatin1String("png"))
            QVERIFY(view->exportFigure(test::figurePath(kind + QStringLiteral("-wide.png")), FigureStyle::wide())
                        .isEmpty());
    }

    void regionModelPassesTester()
    {
        HloRegionTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setResult(m_a100);
        QCOMPARE(model.rowCount(), int(m_a100->regions.size()));
        QCOMPARE(model.columnCount(), int(HloRegionTableModel::ColumnCount));
        for (int row = 0; row < model.rowCount(); ++row) {
            const hlo::RegionReport& region = m_a100->regions[std::size_t(row)];
            QCOMPARE(
                model.index(row, HloRegionTableModel::DurationColumn).data(HloRegionTableModel::SortRole).toDouble(),
                region.seconds);
            QCOMPARE(model.index(row, HloRegionTableModel::KindColumn).data().toString(),
                region.kind == hlo::RegionKind::Compute ? QStringLiteral("compute") : QStringLiteral("communication"));
            if (region.kind == hlo::RegionKind::Communication) {
                QCOMPARE(model.index(row, HloRegionTableModel::CollectiveColumn).data().toString(),
                    QString::fromStdString(region.collective));
                QCOMPARE(model.index(row, HloRegionTableModel::GroupSizeColumn).data().toLongLong(), region.groupSize);
            }
        }
        // Sorted by duration through a proxy: numeric, not by text ("9 µs" after "10 ms").
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(HloRegionTableModel::SortRole);
        proxy.sort(HloRegionTableModel::DurationColumn, Qt::DescendingOrder);
        double previous = 1e300;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const double seconds
                = proxy.index(row, HloRegionTableModel::DurationColumn).data(HloRegionTableModel::SortRole).toDouble();
            QVERIFY(seconds <= previous);
            previous = seconds;
        }
        const int top = proxy.index(0, 0).data(HloRegionTableModel::RegionRole).toInt();
        const double longest
            = std::max_element(m_a100->regions.begin(), m_a100->regions.end(), [](const auto& a, const auto& b) {
                  return a.seconds < b.seconds;
              })->seconds;
        QCOMPARE(m_a100->regions[std::size_t(top)].seconds, longest);
        model.setResult(m_h100);
        QCOMPARE(model.rowCount(), int(m_h100->regions.size()));
        model.setResult(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestHloViews)
#include "tst_hlo_views.moc"
