// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// LinkHeatmapView on real mesh and all-to-all runs (one and two chips): every link is drawn, the
// colours follow the slider's bin (position 0: the run's average), play advances the bins, clicking a
// link selects it and fills the utilisation-over-time plot, selecting an op moves to its bin.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/link_heatmap_view.h"

#include <cmath>

#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/compare_near.h"
#include "timeline_fixture.h"

using namespace elk;
using namespace elk::widgets;
using timelinetest::Fabric;

namespace {

/// A link and a bin where the link's load differs from its run average (so the bin shows).
std::pair<int, int> busyLinkAndBin(const sim::SimResult& sim)
{
    const std::vector<float> average = linkUtilization(sim, -1);
    for (int bin = 0; bin < binCount(sim); ++bin) {
        const std::vector<float> now = linkUtilization(sim, bin);
        for (std::size_t link = 0; link < now.size(); ++link) {
            if (now[link] > 0.05f && std::abs(now[link] - average[link]) > 0.02f)
                return { int(link), bin };
        }
    }
    return { -1, -1 };
}

} // namespace

class TestLinkHeatmapView : public QObject {
    Q_OBJECT

private slots:
    void runs_data()
    {
        QTest::addColumn<int>("fabric");
        QTest::addColumn<int>("chips");
        QTest::addRow("mesh, one chip") << int(Fabric::Mesh) << 1;
        QTest::addRow("mesh, two chips") << int(Fabric::Mesh) << 2;
        QTest::addRow("all-to-all, one chip") << int(Fabric::AllToAll) << 1;
        QTest::addRow("all-to-all, two chips") << int(Fabric::AllToAll) << 2;
    }

    void runs()
    {
        QFETCH(int, fabric);
        QFETCH(int, chips);
        const auto run = timelinetest::smallRun(Fabric(fabric), chips);
        LinkHeatmapView view;
        QCOMPARE(view.figureKind(), QStringLiteral("heatmap"));
        QVERIFY(!view.hasData());
        view.resize(900, 700);
        view.setRun(run);
        view.setDesignIndex(1);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        QVERIFY(view.hasData());
        const sim::SimResult& sim = *run->designs[1].simulated;
        QVERIFY(view.binCount() > 10);
        QCOMPARE(view.binCount(), binCount(sim));
        QCOMPARE(view.timeSlider()->maximum(), view.binCount());

        // Every link is drawn: mesh links as bands, ports and stacks as cells, inter-chip links as arrows.
        const LinkMapLayout& layout = view.mapLayout();
        QCOMPARE(layout.mesh, Fabric(fabric) == Fabric::Mesh);
        int bands = 0, cells = 0, arrows = 0;
        for (std::size_t link = 0; link < sim.links.size(); ++link) {
            const int shape = layout.shapeOfLink[link];
            QVERIFY2(shape >= 0, sim.links[link].name.c_str());
            const LinkShape::Form form = layout.shapes[std::size_t(shape)].form;
            switch (sim.links[link].kind) {
            case sim::LinkKind::MeshLink:
                QVERIFY(form == LinkShape::Form::Band);
                ++bands;
                break;
            case sim::LinkKind::InterChip:
                QVERIFY(form == LinkShape::Form::Arrow);
                ++arrows;
                break;
            default:
                QVERIFY(form == LinkShape::Form::Cell);
                ++cells;
            }
        }
        QCOMPARE(arrows, chips > 1 ? 2 : 0);
        if (Fabric(fabric) == Fabric::Mesh) {
            QCOMPARE(bands, chips * 2 * (3 * 4 + 4 * 3)); // 4 × 4 routers: 48 directed links per chip
            QCOMPARE(int(layout.routers.size()), chips * 16);
            QCOMPARE(cells, chips); // one HBM stack each
        } else {
            QCOMPARE(cells, chips * (2 * 16 + 1)); // ingress + egress per core, one HBM stack
        }
        // Shapes do not overlap: every link's centre hits that link.
        for (std::size_t link = 0; link < sim.links.size(); ++link) {
            const QPointF centre = view.linkCenter(int(link));
            QVERIFY(!centre.isNull());
            QCOMPARE(view.linkAt(centre.toPoint()), int(link));
        }
        // Something carried traffic.
        double most = 0;
        for (std::size_t link = 0; link < sim.links.size(); ++link)
            most = std::max(most, view.shownUtilization(int(link)));
        QVERIFY(most > 0.01);

        QTemporaryDir dir;
        QCOMPARE(view.exportFigure(dir.filePath(QStringLiteral("heatmap.png"))), QString());
    }

    void sliderChangesTheBin()
    {
        const auto run = timelinetest::smallRun(Fabric::Mesh, 1);
        LinkHeatmapView view;
        view.setRun(run);
        const sim::SimResult& sim = *run->designs[0].simulated;
        const auto [link, bin] = busyLinkAndBin(sim);
        QVERIFY(link >= 0);
        QCOMPARE(view.binPosition(), 0);
        QCOMPARE(view.binLabel(), QStringLiteral("average over the run"));
        const double average = view.shownUtilization(link);
        ELK_COMPARE_NEAR(average, linkUtilization(sim, -1)[std::size_t(link)], 1e-6);
        view.timeSlider()->setValue(bin + 1);
        QCOMPARE(view.binPosition(), bin + 1);
        ELK_COMPARE_NEAR(view.shownUtilization(link), linkUtilization(sim, bin)[std::size_t(link)], 1e-6);
        QVERIFY2(std::abs(view.shownUtilization(link) - average) > 0.01,
            qPrintable(QStringLiteral("bin %1 shows %2, the average %3")
                           .arg(bin + 1)
                           .arg(view.shownUtilization(link))
                           .arg(average)));
        QVERIFY2(view.binLabel().startsWith(QStringLiteral("t = ")), qPrintable(view.binLabel()));
        QVERIFY(view.binLabel().endsWith(QStringLiteral(" µs")) || view.binLabel().endsWith(QStringLiteral(" ms")));
        view.setBinPosition(0);
        QCOMPARE(view.timeSlider()->value(), 0);
        ELK_COMPARE_NEAR(view.shownUtilization(link), average, 1e-6);
    }

    void playAdvancesTheBins()
    {
        const auto run = timelinetest::smallRun(Fabric::Mesh, 1);
        LinkHeatmapView view;
        view.setRun(run);
        view.play();
        QVERIFY(view.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(view.binPosition() >= 3, 3000);
        view.pause();
        QVERIFY(!view.isPlaying());
        const int stopped = view.binPosition();
        QTest::qWait(250);
        QCOMPARE(view.binPosition(), stopped);
        // At the last bin, playing starts over and stops at the end.
        view.setBinPosition(view.binCount());
        view.play();
        QCOMPARE(view.binPosition(), 1);
        view.setBinPosition(view.binCount());
        QTRY_VERIFY_WITH_TIMEOUT(!view.isPlaying(), 3000);
    }

    void clickingALinkPlotsItOverTime_data()
    {
        QTest::addColumn<int>("fabric");
        QTest::addRow("mesh") << int(Fabric::Mesh);
        QTest::addRow("all-to-all") << int(Fabric::AllToAll);
    }

    void clickingALinkPlotsItOverTime()
    {
        QFETCH(int, fabric);
        const auto run = timelinetest::smallRun(Fabric(fabric), 1);
        LinkHeatmapView view;
        view.resize(900, 700);
        view.setRun(run);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        const sim::SimResult& sim = *run->designs[0].simulated;
        const int link = busyLinkAndBin(sim).first;
        QVERIFY(link >= 0);
        QCOMPARE(view.timePlot()->graph(0)->dataCount(), 0);
        // Nothing picked on an all-to-all chip: every core's ingress port × time (what varies there).
        auto coreMap = [&view]() -> QCPColorMap* {
            for (int i = 0; i < view.timePlot()->plottableCount(); ++i) {
                if (auto* map = qobject_cast<QCPColorMap*>(view.timePlot()->plottable(i)))
                    return map;
            }
            return nullptr;
        };
        if (Fabric(fabric) == Fabric::AllToAll) {
            QVERIFY(coreMap() != nullptr);
            QCOMPARE(coreMap()->data()->keySize(), int(sim.linkUtilizationBins.size()));
            QCOMPARE(std::int64_t(coreMap()->data()->valueSize()), run->spec.chip.totalCores());
            QCOMPARE(view.timePlot()->yAxis->label(), QStringLiteral("core"));
        } else {
            QVERIFY(coreMap() == nullptr); // a mesh's map already shows what varies
        }
        QSignalSpy spy(&view, &LinkHeatmapView::linkSelected);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, view.linkCenter(link).toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.first().at(0).toInt(), link);
        QCOMPARE(view.selectedLink(), link);
        QCOMPARE(view.timePlot()->graph(0)->dataCount(), view.binCount() + 1);
        QVERIFY(coreMap() == nullptr); // one link's line instead
        const std::vector<float> series = linkUtilizationOverTime(sim, link);
        double most = 0;
        for (const float value : series)
            most = std::max(most, double(value));
        QVERIFY(most > 0.05);
        // Hovering names the link.
        QTest::mouseMove(view.plot(), view.linkCenter(link).toPoint());
        QVERIFY2(view.lastToolTip().contains(QString::fromStdString(sim.links[std::size_t(link)].name).toHtmlEscaped()),
            qPrintable(view.lastToolTip()));
        view.selectLink(-1);
        QCOMPARE(view.selectedLink(), -1);
        QCOMPARE(view.timePlot()->graph(0)->dataCount(), 0);
    }

    void selectingAnOpShowsItsBin()
    {
        const auto run = timelinetest::smallRun(Fabric::Mesh, 1);
        LinkHeatmapView view;
        view.setRun(run);
        const sim::SimResult& sim = *run->designs[0].simulated;
        // The last step (the output, never split): selected as a step of the run's reference list.
        const int step = int(sim.steps.size()) - 1;
        view.setSelectedStep(view.referenceStepOf(step));
        QCOMPARE(view.designStepOf(view.selectedStep()), step);
        const auto& execute = sim.steps[std::size_t(step)].execute;
        const int expected = int((execute.startCycles + execute.endCycles) / 2 / sim.binCycles) + 1;
        QCOMPARE(view.binPosition(), std::min(expected, view.binCount()));
    }
};

QTEST_MAIN(TestLinkHeatmapView)
#include "tst_link_heatmap_view.moc"
