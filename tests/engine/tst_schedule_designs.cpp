// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/schedule.h"
#include "tests/engine/schedule_test_support.h"

#include <QtTest>

#include <chrono>

using namespace elk;
using namespace elk::schedule;
using elk::schedule::test::TestProblem;

Q_DECLARE_METATYPE(elk::schedule::Design)

namespace {

Schedule run(const ScheduleProblem& problem, Design design)
{
    NullRunControl control;
    ScheduleResult result = scheduleDesign(problem, design, control);
    if (!result.ok())
        qWarning("%s: %s", toString(design), result.error.c_str());
    return result.ok() ? *result.schedule : Schedule {};
}

/// hbm 1000 B at 10 B/cycle: Lh = 100; κ = 1 B/cycle/core; θ = 0.5.
void buildOneOp(TestProblem& t, std::int64_t sram)
{
    t.problem.cores = 10;
    t.problem.sramBytesPerCore = sram;
    t.problem.hbmBytesPerCycle = 10;
    t.problem.preloadIngressBytesPerCycle = 1;
    t.problem.preloadNocThreshold = 0.5;
    // A: Ln/θ = 80 <= Lh; B: Ln/θ = 240, so B's cost is 20 + 140; C: faster but needs 200 bytes.
    const auto set
        = t.addPlans(test::makePlans(1000, { { 40, 100, 50, 0, 0 }, { 120, 150, 20, 0, 0 }, { 40, 200, 30, 0, 0 } }));
    t.addStep(set);
    t.problem.layers = { 0, 1, 1, 0, 0 };
}

/// Three ops, one entry each, loads far above NoC limits (κ large, θ = 1): L = Lh.
void buildThreeOps(TestProblem& t, std::int64_t sram)
{
    t.problem.cores = 10;
    t.problem.sramBytesPerCore = sram;
    t.problem.hbmBytesPerCycle = 10;
    t.problem.preloadIngressBytesPerCycle = 1000;
    t.problem.preloadNocThreshold = 1;
    t.addStep(t.addPlans(test::makePlans(1000, { { 10, 20, 30, 0, 0 } })));
    t.addStep(t.addPlans(test::makePlans(500, { { 10, 20, 200, 0, 0 } })));
    t.addStep(t.addPlans(test::makePlans(2000, { { 10, 20, 40, 0, 0 } })));
    t.problem.layers = { 0, 1, 3, 0, 0 };
}

} // namespace

class TestScheduleDesigns : public QObject {
    Q_OBJECT

private slots:
    void jointAllocationShrinksAResidentPreload()
    {
        // op0 loads nothing: fast (130 B, 40 cycles) or small (60 B, 200 cycles). op1 loads 1000 B
        // (100 cycles of HBM) into a 100-byte preload state (10 cycles) or a memory-saving 50-byte one
        // whose distribution adds 2 cycles. SRAM 180. Alone, op1 picks the 100-byte state; then op0
        // overlapping op1's preload only gets 80 bytes (slow), so Elk-Dyn runs them one after the
        // other: 40 + 100 + 10 = 150. The joint allocation holds op1 to 50 bytes: op0 runs fast
        // during op1's preload, and the model takes max(40, 100) + 12 = 112.
        TestProblem t;
        t.problem.cores = 10;
        t.problem.sramBytesPerCore = 180;
        t.problem.hbmBytesPerCycle = 10;
        t.problem.preloadIngressBytesPerCycle = 1000;
        t.problem.preloadNocThreshold = 1;
        t.addStep(t.addPlans(test::makePlans(0, { { 0, 60, 200, 0, 0 }, { 0, 130, 40, 0, 0 } })));
        t.addStep(t.addPlans(test::makePlans(1000, { { 100, 100, 10, 0, 0 }, { 50, 100, 12, 0, 2 } })));
        t.problem.layers = { 0, 1, 2, 0, 0 }; // one layer of both ops: K = 2
        NullRunControl control;
        const ScheduleResult dyn = scheduleDesign(t.problem, Design::ElkDyn, control);
        QVERIFY2(dyn.ok(), dyn.error.c_str());
        QCOMPARE(dyn.schedule->latencyCycles, 112.0);
        QCOMPARE(dyn.schedule->steps[1].preloadBytes, std::int64_t(50));
        QCOMPARE(dyn.schedule->steps[0].executeBytes, std::int64_t(130));
        QVERIFY2(dyn.schedule->note.find("1 memory-saving preload plans kept") != std::string::npos,
            dyn.schedule->note.c_str());
        QVERIFY(checkSchedule(t.problem, *dyn.schedule).empty());
        // The schedule without the move is offered too, for confirmation on the simulator.
        QCOMPARE(dyn.finalists.size(), std::size_t(2));
        QCOMPARE(dyn.finalists[1].latencyCycles, 150.0);
        // Elk-Full applies the same allocation; Ideal is below both.
        QVERIFY(run(t.problem, Design::ElkFull).latencyCycles <= 112.0);
        QVERIFY(run(t.problem, Design::Ideal).latencyCycles <= 112.0);
    }

    void designNames()
    {
        for (Design d : kAllDesigns)
            QCOMPARE(designFromString(toString(d)), std::optional<Design>(d));
        QVERIFY(!designFromString("elk"));
    }

    void oneOp_data()
    {
        QTest::addColumn<Design>("design");
        QTest::addColumn<qint64>("sram");
        QTest::addColumn<double>("latency");
        QTest::addColumn<double>("preloadEnd");
        QTest::addRow("basic, small SRAM: A") << Design::Basic << qint64(150) << 150.0 << 100.0;
        QTest::addRow("static, small SRAM: A") << Design::Static << qint64(150) << 150.0 << 100.0;
        QTest::addRow("elk-dyn, small SRAM: A, not the NoC-bound B") << Design::ElkDyn << qint64(150) << 150.0 << 100.0;
        QTest::addRow("elk-full, small SRAM") << Design::ElkFull << qint64(150) << 150.0 << 100.0;
        // Ideal takes real entries only (its program must run them): at θ = 1, A is 100 + 50 and B is
        // max(100, 120) + 20 = 140, the shorter chain; not the unrealisable 100 + 20.
        QTest::addRow("ideal: the entry with the shortest chain (B at θ = 1)")
            << Design::Ideal << qint64(150) << 140.0 << 120.0;
        QTest::addRow("elk-dyn, room for C") << Design::ElkDyn << qint64(250) << 130.0 << 100.0;
        QTest::addRow("basic, room for C") << Design::Basic << qint64(250) << 130.0 << 100.0;
        QTest::addRow("static, room for C") << Design::Static << qint64(250) << 130.0 << 100.0;
    }
    void oneOp()
    {
        QFETCH(Design, design);
        QFETCH(qint64, sram);
        QFETCH(double, latency);
        QFETCH(double, preloadEnd);
        TestProblem t;
        buildOneOp(t, sram);
        const Schedule s = run(t.problem, design);
        QCOMPARE(s.latencyCycles, latency);
        QCOMPARE(s.steps.at(0).preload.startCycles, 0.0);
        QCOMPARE(s.steps.at(0).preload.endCycles, preloadEnd);
        QVERIFY(checkSchedule(t.problem, s).empty());
    }

    void threeOps_data()
    {
        QTest::addColumn<Design>("design");
        QTest::addColumn<qint64>("sram");
        QTest::addColumn<double>("latency");
        QTest::addColumn<QList<double>>("executeStarts");
        // Room for everything: op 1 runs while op 2 loads; Σ L = 350, then op 2's 40 cycles.
        for (Design d : kAllDesigns)
            QTest::addRow("%s, roomy", toString(d))
                << d << qint64(1000) << 390.0
                << (d == Design::Ideal ? QList<double> { 100, 150, 350 } : QList<double> { 120, 150, 350 });
        // 25 bytes: no execution can hold a preload (20 + 10): fully serial, 100+30+50+200+200+40.
        for (Design d : { Design::Basic, Design::Static, Design::ElkDyn, Design::ElkFull })
            QTest::addRow("%s, serial", toString(d)) << d << qint64(25) << 620.0 << QList<double> { 100, 180, 580 };
    }
    void threeOps()
    {
        QFETCH(Design, design);
        QFETCH(qint64, sram);
        QFETCH(double, latency);
        QFETCH(QList<double>, executeStarts);
        TestProblem t;
        buildThreeOps(t, sram);
        const Schedule s = run(t.problem, design);
        QCOMPARE(s.latencyCycles, latency);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(s.steps.at(static_cast<std::size_t>(i)).execute.startCycles, executeStarts.at(i));
        QVERIFY(checkSchedule(t.problem, s).empty());
        QCOMPARE(s.preloadOrder, (std::vector<int> { 0, 1, 2 }));
    }

    void repeatedLayers_data()
    {
        QTest::addColumn<qint64>("sram");
        QTest::addColumn<bool>("delayCompute");
        QTest::addColumn<double>("theta");
        QTest::addRow("64 KiB, delay compute, θ 0.9") << qint64(64 * 1024) << true << 0.9;
        QTest::addRow("64 KiB, preloads yield, θ 0.9") << qint64(64 * 1024) << false << 0.9;
        QTest::addRow("48 KiB, delay compute, θ 0.5") << qint64(48 * 1024) << true << 0.5;
        QTest::addRow("256 KiB, delay compute, θ 1") << qint64(256 * 1024) << true << 1.0;
        QTest::addRow("256 KiB, preloads yield, θ 0.7") << qint64(256 * 1024) << false << 0.7;
    }
    void repeatedLayers()
    {
        QFETCH(qint64, sram);
        QFETCH(bool, delayCompute);
        QFETCH(double, theta);
        TestProblem t;
        test::buildRepeatedLayers(t, 4, sram, delayCompute, theta);
        const ScheduleProblem& p = t.problem;
        double hbmCycles = 0, fastest = 0;
        for (const Step& step : p.steps) {
            hbmCycles += static_cast<double>(p.planSets[step.planSet]->hbmBytes) / p.hbmBytesPerCycle;
            double f = 1e300;
            for (const auto& e : p.planSets[step.planSet]->table)
                f = std::min(f, e.totalCycles);
            fastest += f;
        }
        std::map<Design, double> latency;
        for (Design d : kAllDesigns) {
            const Schedule s = run(p, d);
            QCOMPARE(s.steps.size(), p.steps.size());
            const auto violations = checkSchedule(p, s);
            for (const auto& v : violations)
                qWarning("%s: %s", toString(d), v.message.c_str());
            QVERIFY2(violations.empty(), toString(d));
            // Preloads serialised in preload order, each ending before its op executes.
            for (std::size_t q = 1; q < s.preloadOrder.size(); ++q)
                QVERIFY(s.steps[static_cast<std::size_t>(s.preloadOrder[q - 1])].preload.endCycles
                    <= s.steps[static_cast<std::size_t>(s.preloadOrder[q])].preload.startCycles + 1e-6);
            for (const StepSchedule& st : s.steps)
                QVERIFY(st.preload.endCycles <= st.execute.startCycles + 1e-6);
            if (d != Design::Ideal)
                QVERIFY2(s.sramPeakBytesPerCore <= p.sramBytesPerCore, toString(d));
            QVERIFY2(s.latencyCycles >= std::max(hbmCycles, fastest) * (1 - 1e-12), toString(d));
            latency[d] = s.latencyCycles;
            const ScheduleMetrics m = scheduleMetrics(p, s, 4.15);
            QCOMPARE(m.latencyCycles, s.latencyCycles);
            QVERIFY(m.overlapCycles >= 0 && m.overlapCycles <= m.executeCycles + 1e-6);
            QVERIFY(m.hbmUtilization > 0 && m.hbmUtilization <= 1 + 1e-9);
            QCOMPARE(m.flops, static_cast<std::int64_t>(1000 * p.steps.size()));
        }
        QVERIFY(latency[Design::Ideal] <= latency[Design::ElkFull]);
        QVERIFY(latency[Design::ElkFull] <= latency[Design::ElkDyn]);
        QVERIFY(latency[Design::Ideal] <= latency[Design::Basic]);
        QVERIFY(latency[Design::Ideal] <= latency[Design::Static]);
    }

    void deterministic()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 4, 64 * 1024, true, 0.9);
        for (Design d : kAllDesigns) {
            const Schedule a = run(t.problem, d);
            const Schedule b = run(t.problem, d);
            QCOMPARE(a.latencyCycles, b.latencyCycles);
            QCOMPARE(a.preloadOrder, b.preloadOrder);
            QCOMPARE(a.note, b.note);
            QCOMPARE(a.ordersTried, b.ordersTried);
            for (std::size_t i = 0; i < a.steps.size(); ++i) {
                QCOMPARE(a.steps[i].tableEntry, b.steps[i].tableEntry);
                QCOMPARE(a.steps[i].preload.startCycles, b.steps[i].preload.startCycles);
                QCOMPARE(a.steps[i].execute.endCycles, b.steps[i].execute.endCycles);
                QCOMPARE(a.steps[i].stallCycles, b.steps[i].stallCycles);
            }
        }
    }

    void elkFullReportsOrders()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 4, 64 * 1024, true, 0.9);
        const Schedule full = run(t.problem, Design::ElkFull);
        QVERIFY(full.ordersTried > 1);
        QVERIFY(!full.note.empty());
        const Schedule statics = run(t.problem, Design::Static);
        QVERIFY(statics.ordersTried > 2);
        QVERIFY(statics.note.find("execute space") != std::string::npos);
    }

    void stopped()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 2, 64 * 1024, true, 0.9);
        AtomicRunControl control;
        control.requestStop();
        for (Design d : kAllDesigns) {
            const ScheduleResult r = scheduleDesign(t.problem, d, control);
            QVERIFY(!r.ok());
            QCOMPARE(QString::fromStdString(r.error), QStringLiteral("stopped"));
        }
    }

    void opTooLargeNamesIt()
    {
        TestProblem t;
        buildThreeOps(t, 15); // every op needs 20 bytes
        NullRunControl control;
        for (Design d : kAllDesigns) {
            const ScheduleResult r = scheduleDesign(t.problem, d, control);
            QVERIFY(!r.ok());
            QVERIFY2(
                r.error.find("op2") != std::string::npos || r.error.find("op0") != std::string::npos, r.error.c_str());
        }
    }

    void checkFindsOverflow()
    {
        TestProblem t;
        buildThreeOps(t, 1000);
        Schedule s = run(t.problem, Design::ElkDyn);
        t.problem.sramBytesPerCore = 25; // op 1 runs while op 2's preload is resident: 30 bytes
        const auto violations = checkSchedule(t.problem, s);
        QVERIFY(!violations.empty());
        QCOMPARE(violations.front().bytesPerCore, std::int64_t(30));
        s.steps[1].execute.startCycles -= 100; // now overlaps op 0
        QVERIFY(checkSchedule(t.problem, s).size() > violations.size());
    }

    void largeProblemTiming()
    {
        // Llama-sized: 4 + 40 × 45 + 4 = 1808 steps, 28 plan sets, K = 45. Timing printed, not asserted.
        TestProblem t;
        ScheduleProblem& p = t.problem;
        p.cores = 1000;
        p.sramBytesPerCore = 624 * 1024;
        p.hbmBytesPerCycle = 3000;
        p.preloadIngressBytesPerCycle = 4.15;
        std::vector<std::uint32_t> sets;
        for (int k = 0; k < 28; ++k)
            sets.push_back(k % 3 == 0
                    ? t.addPlans(test::heavyPlans(8'000'000 + 1'000'000 * k, 1000, 20000, 2000 + 50 * k))
                    : t.addPlans(test::lightPlans(4000 + 100 * k, 200 + 10 * k)));
        for (int i = 0; i < 4; ++i)
            t.addStep(sets[static_cast<std::size_t>(i)]);
        for (int l = 0; l < 40; ++l)
            for (int r = 0; r < 45; ++r)
                t.addStep(sets[static_cast<std::size_t>((r * 7) % 28)], r % 4 == 1 ? 8192 : 0);
        for (int i = 0; i < 4; ++i)
            t.addStep(sets[static_cast<std::size_t>(27 - i)]);
        p.layers = { 4, 40, 45, 4, 4 };
        NullRunControl control;
        for (Design d : kAllDesigns) {
            const auto start = std::chrono::steady_clock::now();
            const ScheduleResult r = scheduleDesign(p, d, control);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            QVERIFY(r.ok());
            QVERIFY(checkSchedule(p, *r.schedule).empty());
            qInfo("%-8s %zu steps: %.3f s, latency %.0f cycles, %lld orders", toString(d), p.steps.size(), seconds,
                r.schedule->latencyCycles, static_cast<long long>(r.schedule->ordersTried));
        }
    }
};

QTEST_GUILESS_MAIN(TestScheduleDesigns)
#include "tst_schedule_designs.moc"
