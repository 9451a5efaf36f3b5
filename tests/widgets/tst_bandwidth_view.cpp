// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// BandwidthView on a real run: the three curves follow the simulator's counters (units converted),
// the peak HBM line, one time range shared by the three axis rects and with a GanttView (both ways,
// left edges aligned), selection bands that leave the range alone, and PNG export.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/bandwidth_view.h"

#include <cmath>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/compare_near.h"
#include "timeline_fixture.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/timeline/timeline_sync.h"

using namespace elk;
using namespace elk::widgets;

class TestBandwidthView : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const run::RunResult> m_run;

private slots:
    void initTestCase() { m_run = timelinetest::smallRun(); }

    void noRunNoData()
    {
        BandwidthView view;
        QVERIFY(!view.hasData());
        QCOMPARE(view.figureKind(), QStringLiteral("bandwidth"));
        QCOMPARE(view.pointCount(BandwidthCurve::Hbm), 0);
        QVERIFY(std::isnan(view.valueAt(BandwidthCurve::Hbm, 0)));
    }

    void curvesFollowTheCounters_data()
    {
        QTest::addColumn<int>("design");
        QTest::addRow("basic") << 0;
        QTest::addRow("elk-full") << 1;
    }

    void curvesFollowTheCounters()
    {
        QFETCH(int, design);
        BandwidthView view;
        view.setRun(m_run);
        view.setDesignIndex(design);
        QVERIFY(view.hasData());
        const sim::SimResult& sim = *m_run->designs[std::size_t(design)].simulated;
        const chip::ChipSpec& chip = m_run->spec.chip;
        QCOMPARE(view.peakHbmGBps(), chip.totalHbmBandwidthGBps());
        QCOMPARE(view.unit(BandwidthCurve::Hbm), QStringLiteral("GB/s")); // 64 GB/s peak
        QCOMPARE(view.unit(BandwidthCurve::Sram), QStringLiteral("%"));
        const auto closing = [&](const std::vector<sim::CounterSample>& samples) {
            return samples.back().atCycles < sim.latencyCycles ? 1 : 0;
        };
        QCOMPARE(
            view.pointCount(BandwidthCurve::Hbm), int(sim.hbmBytesPerCycle.size()) + closing(sim.hbmBytesPerCycle));
        QCOMPARE(
            view.pointCount(BandwidthCurve::Noc), int(sim.nocBytesPerCycle.size()) + closing(sim.nocBytesPerCycle));
        QCOMPARE(
            view.pointCount(BandwidthCurve::Sram), int(sim.sramBytesPerCore.size()) + closing(sim.sramBytesPerCore));
        // Step functions: the value between two samples is the earlier one, in display units.
        bool sawTraffic = false;
        for (std::size_t i = 0; i + 1 < sim.hbmBytesPerCycle.size(); ++i) {
            const auto& s = sim.hbmBytesPerCycle[i];
            const double mid = (s.atCycles + sim.hbmBytesPerCycle[i + 1].atCycles) / 2;
            if (sim.hbmBytesPerCycle[i + 1].atCycles <= s.atCycles)
                continue;
            ELK_COMPARE_NEAR(view.valueAt(BandwidthCurve::Hbm, mid), s.value * sim.clockHz / 1e9, 1e-9);
            sawTraffic = sawTraffic || s.value > 0;
        }
        QVERIFY(sawTraffic);
        const auto& sram = sim.sramBytesPerCore[sim.sramBytesPerCore.size() / 2];
        ELK_COMPARE_NEAR(
            view.valueAt(BandwidthCurve::Sram, sram.atCycles), sram.value / double(chip.sramBytesPerCore) * 100, 1e-9);
    }

    void oneTimeRangeForTheThreeRects()
    {
        BandwidthView view;
        view.setRun(m_run);
        const double latency = m_run->designs[0].simulated->latencyCycles;
        QVERIFY(view.lowerCycles() <= 0 && view.upperCycles() >= latency);
        QSignalSpy spy(&view, &BandwidthView::timeRangeChanged);
        view.setTimeRange(latency * 0.2, latency * 0.3);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(view.lowerCycles(), latency * 0.2);
        for (QCPAxisRect* rect : view.plot()->axisRects())
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().upper, latency * 0.3);
        // Dragging one rect's axis moves the others.
        view.plot()->axisRects().first()->axis(QCPAxis::atBottom)->setRange(latency * 0.4, latency * 0.6);
        QCOMPARE(view.lowerCycles(), latency * 0.4);
        QCOMPARE(spy.count(), 2);
        // Clamped to the run.
        view.setTimeRange(-latency, latency * 3);
        QVERIFY(view.lowerCycles() > -latency * 0.02 && view.upperCycles() < latency * 1.02);
    }

    void sharesTheAxisWithTheGantt()
    {
        QWidget window;
        auto* gantt = new GanttView(&window);
        auto* bandwidth = new BandwidthView(&window);
        gantt->setGeometry(0, 0, 1000, 300);
        bandwidth->setGeometry(0, 300, 1000, 400);
        gantt->setRun(m_run);
        bandwidth->setRun(m_run);
        shareTimeAxis(gantt, bandwidth);
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const double latency = gantt->data().latencyCycles;
        gantt->setTimeRange(latency * 0.1, latency * 0.2);
        QCOMPARE(bandwidth->lowerCycles(), latency * 0.1);
        QCOMPARE(bandwidth->upperCycles(), latency * 0.2);
        bandwidth->setTimeRange(latency * 0.5, latency * 0.7);
        QCOMPARE(gantt->lowerCycles(), latency * 0.5);
        QCOMPARE(gantt->upperCycles(), latency * 0.7);
        QTest::keyClick(gantt->plot(), Qt::Key_Home);
        QCOMPARE(bandwidth->upperCycles(), gantt->upperCycles());
        // Left edges line up after the views lay out.
        for (int i = 0; i < 3; ++i) {
            gantt->plot()->replot();
            bandwidth->plot()->replot();
        }
        QCOMPARE(gantt->plotLeftMargin(), bandwidth->plotLeftMargin());
        QVERIFY(gantt->plotLeftMargin() > 0);
    }

    void selectionShowsABandAndKeepsTheRange()
    {
        BandwidthView view;
        view.setRun(m_run);
        const double latency = m_run->designs[0].simulated->latencyCycles;
        view.setTimeRange(latency * 0.2, latency * 0.4);
        QCOMPARE(view.selectionBandCount(), 0);
        view.setSelectedStep(3);
        QCOMPARE(view.selectionBandCount(), 3);
        QCOMPARE(view.lowerCycles(), latency * 0.2);
        view.setSelectedStep(-1);
        QCOMPARE(view.selectionBandCount(), 0);
    }

    void exportsPng()
    {
        BandwidthView view;
        view.resize(900, 500);
        view.setRun(m_run);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bandwidth.png"));
        QCOMPARE(view.exportFigure(path), QString());
        QVERIFY(!QImage(path).isNull());
    }
};

QTEST_MAIN(TestBandwidthView)
#include "tst_bandwidth_view.moc"
