// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The math behind the timeline views, without painting: time units and ticks, binary search over a
// lane, hit testing, merging sub-pixel bars (what keeps 4,000 ops fast), range clamping, and the
// link map's folded grids.
#include "widgets/timeline/link_map.h"
#include "widgets/timeline/timeline_geometry.h"

#include "tests/support/compare_near.h"
#include <QTest>

using namespace elk::widgets;

namespace {

std::vector<LaneBar> evenBars(int count, double length, double gap)
{
    std::vector<LaneBar> bars;
    for (int i = 0; i < count; ++i) {
        const double start = i * (length + gap);
        bars.push_back({ start, start + length, i, 0 });
    }
    return bars;
}

} // namespace

class TestTimelineGeometry : public QObject {
    Q_OBJECT

private slots:
    void timeScale_data()
    {
        QTest::addColumn<double>("spanCycles");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<double>("cyclesPerUnit");
        // 1 GHz clock: one cycle is 1 ns.
        QTest::addRow("1.5 µs span: ns") << 1500.0 << QStringLiteral("ns") << 1.0;
        QTest::addRow("100 µs span: µs") << 1e5 << QStringLiteral("µs") << 1e3;
        QTest::addRow("58 ms span: ms") << 5.8e7 << QStringLiteral("ms") << 1e6;
        QTest::addRow("3 s span: s") << 3e9 << QStringLiteral("s") << 1e9;
    }

    void timeScale()
    {
        QFETCH(double, spanCycles);
        QFETCH(QString, unit);
        QFETCH(double, cyclesPerUnit);
        const TimeScale scale = timeScaleFor(spanCycles, 1e9);
        QCOMPARE(scale.unit, unit);
        QCOMPARE(scale.cyclesPerUnit, cyclesPerUnit);
    }

    void niceSteps_data()
    {
        QTest::addColumn<double>("span");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("decimals");
        QTest::addRow("58 over 5: 10") << 58.0 << 5 << 10.0 << 0;
        QTest::addRow("1.3 over 5: 0.2") << 1.3 << 5 << 0.2 << 1;
        QTest::addRow("0.11 over 5: 0.02") << 0.11 << 5 << 0.02 << 2;
        QTest::addRow("2400 over 5: 500") << 2400.0 << 5 << 500.0 << 0;
        QTest::addRow("0.3 over 6: 0.05") << 0.3 << 6 << 0.05 << 2;
    }

    void niceSteps()
    {
        QFETCH(double, span);
        QFETCH(int, ticks);
        QFETCH(double, step);
        QFETCH(int, decimals);
        ELK_COMPARE_NEAR(niceStep(span, ticks), step, step * 1e-9);
        QCOMPARE(decimalsForStep(step), decimals);
    }

    void timeIntervals_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::addColumn<QString>("text");
        QTest::addRow("0.1 µs bin") << 12300.0 << 12400.0 << QStringLiteral("12.3–12.4 µs");
        QTest::addRow("ms bin") << 5.0e6 << 5.25e6 << QStringLiteral("5.00–5.25 ms");
        QTest::addRow("whole µs") << 3e3 << 5e3 << QStringLiteral("3–5 µs");
    }

    void timeIntervals()
    {
        QFETCH(double, start);
        QFETCH(double, end);
        QFETCH(QString, text);
        QCOMPARE(formatTimeInterval(start, end, 1e9), text);
    }

    void binarySearchAndHitTest()
    {
        const std::vector<LaneBar> bars = evenBars(100, 10, 5); // [0,10] [15,25] ...
        QCOMPARE(firstBarEndingAfter(bars, -5), std::size_t(0));
        QCOMPARE(firstBarEndingAfter(bars, 11), std::size_t(1));
        QCOMPARE(firstBarEndingAfter(bars, 1e9), bars.size());
        QCOMPARE(barAt(bars, 17, 0), 1); // inside
        QCOMPARE(barAt(bars, 12, 0), -1); // in a gap, no tolerance
        QCOMPARE(barAt(bars, 11, 2), 0); // nearest within tolerance: the one ending at 10
        QCOMPARE(barAt(bars, 14, 2), 1); // the one starting at 15
        QCOMPARE(barAt(bars, 2000, 5), -1);
    }

    void subPixelBarsMerge_data()
    {
        QTest::addColumn<int>("bars");
        QTest::addColumn<double>("pixels");
        QTest::addColumn<int>("maxRuns");
        QTest::addColumn<bool>("merged");
        QTest::addRow("4,000 ops in 1,600 px") << 4000 << 1600.0 << 1600 << true;
        QTest::addRow("40,000 ops in 1,600 px") << 40000 << 1600.0 << 1600 << true;
        QTest::addRow("100 ops in 1,600 px: one run each") << 100 << 1600.0 << 100 << false;
    }

    void subPixelBarsMerge()
    {
        QFETCH(int, bars);
        QFETCH(double, pixels);
        QFETCH(int, maxRuns);
        QFETCH(bool, merged);
        const std::vector<LaneBar> lane = evenBars(bars, 3, 1);
        const double end = lane.back().end;
        std::vector<PixelRun> runs;
        pixelRuns(lane, 0, end, 10, pixels / end, runs);
        QVERIFY2(int(runs.size()) <= maxRuns + 1, qPrintable(QString::number(runs.size())));
        if (!merged)
            QCOMPARE(int(runs.size()), bars);
        bool anyMerged = false;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            QVERIFY(runs[i].x1 > runs[i].x0);
            QVERIFY(runs[i].x0 >= 10 && runs[i].x1 <= 10 + int(pixels) + 1);
            if (i > 0)
                QVERIFY(runs[i].x0 >= runs[i - 1].x1); // never paint a pixel twice
            anyMerged = anyMerged || runs[i].merged;
        }
        QCOMPARE(anyMerged, merged);
        // A zoomed-in window only visits visible bars.
        pixelRuns(lane, end / 2, end / 2 + 40, 0, pixels / 40, runs);
        QVERIFY(runs.size() <= 11);
        QVERIFY(!runs.empty());
    }

    void clamping()
    {
        const TimeRange inside = clampTimeRange({ 10, 20 }, 0, 100, 1);
        QCOMPARE(inside.lower, 10.0);
        QCOMPARE(inside.upper, 20.0);
        const TimeRange pastEnd = clampTimeRange({ 95, 115 }, 0, 100, 1);
        QCOMPARE(pastEnd.lower, 80.0);
        QCOMPARE(pastEnd.upper, 100.0);
        const TimeRange beforeStart = clampTimeRange({ -30, -10 }, 0, 100, 1);
        QCOMPARE(beforeStart.lower, 0.0);
        QCOMPARE(beforeStart.upper, 20.0);
        const TimeRange tooWide = clampTimeRange({ -300, 500 }, 0, 100, 1);
        QCOMPARE(tooWide.lower, 0.0);
        QCOMPARE(tooWide.upper, 100.0);
        const TimeRange tooNarrow = clampTimeRange({ 50, 50.1 }, 0, 100, 4);
        QCOMPARE(tooNarrow.upper - tooNarrow.lower, 4.0);
    }

    void foldedGrids_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("columns");
        QTest::addRow("16 cores: 4 × 4") << 16 << 4;
        QTest::addRow("1472 cores: 39 columns") << 1472 << 39;
        QTest::addRow("one core") << 1 << 1;
        QTest::addRow("17 cores: 5 columns") << 17 << 5;
    }

    void foldedGrids()
    {
        QFETCH(int, count);
        QFETCH(int, columns);
        QCOMPARE(foldedColumns(count), columns);
    }
};

QTEST_MAIN(TestTimelineGeometry)
#include "tst_timeline_geometry.moc"
