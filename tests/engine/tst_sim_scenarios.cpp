// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator on scenarios small enough to compute by hand.
#include "engine/chip/presets.h"
#include "engine/sim/fair_share.h"
#include "engine/sim/simulator.h"
#include "sim_test_support.h"

#include <QtTest>

#include "tests/support/compare_near.h"
#include <map>

using namespace elk;

class TestSimScenarios : public QObject {
    Q_OBJECT

private slots:
    void onePreloadOverOneLink_data();
    void onePreloadOverOneLink();
    void twoFlowsShareOneLink_data();
    void twoFlowsShareOneLink();
    void meshPreloadFromWestEdge();
    void meshRingShift();
    void threeOpsOverlap();
    void contentionSlowsSharedPhases();
    void sramPortSlowsOverlappedCompute_data();
    void sramPortSlowsOverlappedCompute();
    void badProgramIsAnError();
};

namespace {

sim::SimResult run(const chip::ChipSpec& chip, const simtest::Fixture& f, bool contention = true)
{
    NullRunControl control;
    sim::SimOptions options;
    options.contention = contention;
    sim::SimRunResult r = sim::simulate(chip, f.problem, f.program, options, control);
    if (!r.ok())
        qFatal("simulate failed: %s", r.error.c_str());
    return *r.result;
}

} // namespace

void TestSimScenarios::onePreloadOverOneLink_data()
{
    QTest::addColumn<qint64>("latencyNs");
    QTest::addColumn<qint64>("bytesPerCore");
    QTest::addColumn<double>("expectedPreload");
    // 6400 HBM bytes at 64 B/cycle = 100 cycles; 720 B/core over the 16 B/cycle port = 45. The
    // scheduler's θ and κ never throttle the simulated preload.
    QTest::addRow("HBM-bound") << qint64(0) << qint64(720) << 100.0;
    // 2880 B/core ÷ 16 = 180 cycles: the ingress port bounds it.
    QTest::addRow("ingress-bound") << qint64(0) << qint64(2880) << 180.0;
    // An idle HBM pays its 100 ns (100 cycles at 1 GHz) first.
    QTest::addRow("with HBM latency") << qint64(100) << qint64(720) << 200.0;
}

void TestSimScenarios::onePreloadOverOneLink()
{
    QFETCH(qint64, latencyNs);
    QFETCH(qint64, bytesPerCore);
    QFETCH(double, expectedPreload);
    const chip::ChipSpec chip = simtest::smallChip(1, latencyNs);
    simtest::Fixture f(chip, 1);
    f.preload(0, 6400, bytesPerCore);
    f.execute(0, 30);
    const sim::SimResult r = run(chip, f);
    QCOMPARE(r.steps[0].preload.startCycles, 0.0);
    ELK_COMPARE_NEAR(r.steps[0].preload.endCycles, expectedPreload, 1e-9);
    ELK_COMPARE_NEAR(r.latencyCycles, (expectedPreload + 30), 1e-9);
    QCOMPARE(r.steps[0].waitedFor, std::string());
    // Links: core 0 ingress, core 0 egress, HBM 0.
    QCOMPARE(r.links.size(), std::size_t(3));
    QCOMPARE(r.links[2].kind, sim::LinkKind::HbmStack);
    ELK_COMPARE_NEAR(r.linkBytes[0], double(bytesPerCore), 1e-9);
    QCOMPARE(r.linkBytes[1], 0.0);
    ELK_COMPARE_NEAR(r.linkBytes[2], 6400, 1e-9);
    QCOMPARE(r.hbmBytes, std::int64_t(6400));
    QVERIFY(r.maxLinkUtilization <= 1 + 1e-9);
    ELK_COMPARE_NEAR(r.preloadOnlyCycles, expectedPreload, 1e-9);
    ELK_COMPARE_NEAR(r.executeOnlyCycles, 30, 1e-9);
}

void TestSimScenarios::twoFlowsShareOneLink_data()
{
    QTest::addColumn<double>("soloB"); // B's solo speed, share of the link
    QTest::addColumn<double>("expectedA");
    QTest::addColumn<double>("expectedB");
    QTest::addRow("equal flows split the link") << 1.0 << 0.5 << 0.5;
    QTest::addRow("a slow flow keeps its rate, the other takes the rest") << 0.25 << 0.75 << 0.25;
    QTest::addRow("B keeps its solo 0.4, A takes the remaining 0.6") << 0.4 << 0.6 << 0.4;
}

void TestSimScenarios::twoFlowsShareOneLink()
{
    QFETCH(double, soloB);
    QFETCH(double, expectedA);
    QFETCH(double, expectedB);
    // Two cores exchanging in a ring of two: every flow crosses each port once, 1600 B per link;
    // alone at full speed one flow takes 100 cycles (16 B/cycle).
    const chip::ChipSpec chip = simtest::smallChip(2);
    const sim::Topology topology(chip);
    sim::TrafficBuilder traffic(topology);
    const int v = traffic.ring(2, 1600);
    QCOMPARE(traffic.vector(v).minCycles, 100.0);
    QCOMPARE(traffic.vector(v).links.size(), std::size_t(4));
    sim::FairShare share(topology, traffic);
    const sim::FlowDemand flows[] = { { v, 1.0 / 100 }, { v, soloB / 100 } };
    const sim::FairShareResult& r = share.solve(flows, true);
    ELK_COMPARE_NEAR(r.rates[0] * 100, expectedA, 1e-12);
    ELK_COMPARE_NEAR(r.rates[1] * 100, expectedB, 1e-12);
    QVERIFY(r.maxUtilization <= 1 + 1e-12);
    const sim::FairShareResult& off = share.solve(flows, false);
    QCOMPARE(off.rates[0] * 100, 1.0);
    ELK_COMPARE_NEAR(off.maxUtilization, (1 + soloB), 1e-12);
}

void TestSimScenarios::meshPreloadFromWestEdge()
{
    // teaching-mesh-4x4: one stack, controllers on the west column; each core gets its bytes from
    // the controller router of its own row, moving east: link (i,y)→E carries the bytes of the
    // 3 − i cores east of it; nothing moves west, north or south.
    const auto chip = chip::findBuiltinPreset("teaching-mesh-4x4");
    QVERIFY(chip.has_value());
    simtest::Fixture f(*chip, 1);
    f.preload(0, 16000, 1000);
    f.execute(0, 10);
    const sim::SimResult r = run(*chip, f);
    int meshLinks = 0;
    for (std::size_t l = 0; l < r.links.size(); ++l) {
        const sim::LinkInfo& link = r.links[l];
        if (link.kind == sim::LinkKind::HbmStack) {
            QCOMPARE(r.linkBytes[l], 16000.0);
            continue;
        }
        QCOMPARE(link.kind, sim::LinkKind::MeshLink);
        ++meshLinks;
        const double expected = link.direction == 'E' ? 1000.0 * (3 - link.x) : 0.0;
        QVERIFY2(qAbs(r.linkBytes[l] - expected) < 1e-9, link.name.c_str());
    }
    QCOMPARE(meshLinks, 48); // 2 × (3 × 4) horizontal + 2 × (4 × 3) vertical
    // 16000 B at 64 B/cycle = 250 cycles (HBM) vs 3000 B on link (0,y)→E at 16 B/cycle = 187.5 and
    // 1000 B/core ÷ 16 = 62.5 on the last link: HBM-bound, plus the idle-HBM latency 100 cycles and 3 hops.
    ELK_COMPARE_NEAR(r.steps[0].preload.endCycles, (250 + 100 + 3), 1e-9);
}

void TestSimScenarios::meshRingShift()
{
    // Rings of 4 consecutive cores are the mesh rows: (x,y)→(x+1,y) east, and (3,y) back to (0,y)
    // over three west links. Every E and W link carries one core's bytes, N and S links nothing.
    const auto chip = chip::findBuiltinPreset("teaching-mesh-4x4");
    const sim::Topology topology(*chip);
    sim::TrafficBuilder traffic(topology);
    const int v = traffic.ring(4, 500);
    const sim::PhaseVector& vector = traffic.vector(v);
    std::map<std::uint32_t, double> bytes;
    for (std::size_t k = 0; k < vector.links.size(); ++k)
        bytes[vector.links[k]] = vector.bytes[k];
    for (std::size_t l = 0; l < topology.links().size(); ++l) {
        const sim::LinkInfo& link = topology.links()[l];
        const double expected
            = link.kind == sim::LinkKind::MeshLink && (link.direction == 'E' || link.direction == 'W') ? 500.0 : 0.0;
        QVERIFY2(qAbs(bytes[static_cast<std::uint32_t>(l)] - expected) < 1e-9, link.name.c_str());
    }
    QCOMPARE(vector.maxHops, 3);
}

void TestSimScenarios::threeOpsOverlap()
{
    // pre0 [0,100]; pre1 [100,200] (issued before exe0); exe0 [100,250]; pre2 comes after exe0 in
    // the program: [250,350]; exe1 [250,300]; exe2 waits for pre2: [350,430].
    const chip::ChipSpec chip = simtest::smallChip(1);
    simtest::Fixture f(chip, 3);
    f.preload(0, 6400, 100);
    f.preload(1, 6400, 100);
    f.execute(0, 150);
    f.preload(2, 6400, 100);
    f.execute(1, 50);
    f.execute(2, 80);
    const sim::SimResult r = run(chip, f);
    const double expected[3][4] = { { 0, 100, 100, 250 }, { 100, 200, 250, 300 }, { 250, 350, 350, 430 } };
    for (int i = 0; i < 3; ++i) {
        const sim::StepTrace& s = r.steps[static_cast<std::size_t>(i)];
        ELK_COMPARE_NEAR(s.preload.startCycles, expected[i][0], 1e-9);
        ELK_COMPARE_NEAR(s.preload.endCycles, expected[i][1], 1e-9);
        ELK_COMPARE_NEAR(s.execute.startCycles, expected[i][2], 1e-9);
        ELK_COMPARE_NEAR(s.execute.endCycles, expected[i][3], 1e-9);
    }
    QCOMPARE(r.steps[1].waitedFor, std::string("execute"));
    QCOMPARE(r.steps[2].waitedFor, std::string("preload"));
    ELK_COMPARE_NEAR(r.latencyCycles, 430, 1e-9);
    ELK_COMPARE_NEAR(r.overlapCycles, 150, 1e-9);
    ELK_COMPARE_NEAR(r.preloadOnlyCycles, 150, 1e-9);
    ELK_COMPARE_NEAR(r.executeOnlyCycles, 130, 1e-9);
    QCOMPARE(r.preloadOrder, (std::vector<int> { 0, 1, 2 }));
    // SRAM: while exe0 runs, pre1 (100) then also pre2? No: pre2 starts after exe0. Peak = 1000 + 100.
    QCOMPARE(r.sramPeakBytesPerCore, std::int64_t(1100));
    QCOMPARE(r.flops, std::int64_t(3000));
}

void TestSimScenarios::contentionSlowsSharedPhases()
{
    // Two cores. exe0 shifts in a ring of 2 (1600 B per port, 100 cycles alone) while pre1 pushes
    // 1440 B into each core's ingress at its HBM-bound solo 14.4 B/cycle (100 cycles). Shared
    // ingress: both want 16 and 14.4 B/cycle; max-min gives 8 each: the simulator must stretch both.
    const chip::ChipSpec chip = simtest::smallChip(2);
    simtest::Fixture f(chip, 2);
    f.preload(0, 64, 1);
    f.preload(1, 6400, 1440);
    f.execute(0, 0, true);
    f.execute(1, 10);
    const sim::SimResult off = run(chip, f, false);
    const sim::SimResult on = run(chip, f, true);
    QVERIFY(on.latencyCycles > off.latencyCycles + 10);
    QVERIFY(on.steps[0].executeStallCycles > 0);
    QVERIFY(on.maxLinkUtilization <= 1 + 1e-9);
    QVERIFY(off.maxLinkUtilization > 1.5);
    QCOMPARE(off.steps[0].executeStallCycles, 0.0);
    ELK_COMPARE_NEAR(on.interconnectStallCycles - on.steps[0].executeStallCycles, on.steps[1].executeStallCycles, 1e-9);
}

void TestSimScenarios::sramPortSlowsOverlappedCompute_data()
{
    QTest::addColumn<double>("portBytesPerCycle"); // P; 0 = not modelled
    QTest::addColumn<bool>("contention");
    QTest::addColumn<double>("expectedEnd"); // of exe0
    // pre1 delivers r = 1440 B/core over its 100 cycles = 14.4 B/cycle into the core's SRAM while exe0
    // computes 150 cycles alone from cycle 0. Over the overlap [0, 100] compute runs at 1 − r/P, i.e.
    // stretched by 1/(1 − r/P): it does 100·(1 − r/P) cycles of work, the rest runs alone after 100.
    QTest::addRow("P = 57.6: speed 0.75, 75 + 75 cycles") << 57.6 << true << 175.0;
    QTest::addRow("P = 16: speed 0.1, 10 + 140 cycles") << 16.0 << true << 240.0;
    QTest::addRow("P = 14.4: speed floored at 0.05") << 14.4 << true << 245.0;
    QTest::addRow("P = 0: not modelled, no stretch") << 0.0 << true << 150.0;
    QTest::addRow("contention off: no stretch") << 57.6 << false << 150.0;
}

void TestSimScenarios::sramPortSlowsOverlappedCompute()
{
    QFETCH(double, portBytesPerCycle);
    QFETCH(bool, contention);
    QFETCH(double, expectedEnd);
    chip::ChipSpec chip = simtest::smallChip(1);
    chip.sramBandwidthBytesPerCyclePerCore = portBytesPerCycle;
    simtest::Fixture f(chip, 2);
    f.preload(1, 6400, 1440); // max(6400 ÷ 64, 1440 ÷ 14.4) = 100 cycles; nothing else on its links
    f.execute(0, 150);
    f.execute(1, 10);
    const sim::SimResult r = run(chip, f, contention);
    ELK_COMPARE_NEAR(r.steps[1].preload.endCycles, 100, 1e-9); // the preload itself is not slowed
    ELK_COMPARE_NEAR(r.steps[0].compute.startCycles, 0, 1e-9);
    QVERIFY2(qAbs(r.steps[0].compute.endCycles - expectedEnd) < 1e-9, QByteArray::number(r.steps[0].compute.endCycles));
    ELK_COMPARE_NEAR(r.steps[0].execute.endCycles, expectedEnd, 1e-9);
    ELK_COMPARE_NEAR(r.steps[0].executeStallCycles, (expectedEnd - 150), 1e-9);
    ELK_COMPARE_NEAR(r.interconnectStallCycles, (expectedEnd - 150), 1e-9);
    // exe1 computes alone (no preload left): no stretch.
    ELK_COMPARE_NEAR(r.steps[1].execute.length(), 10, 1e-9);
    QCOMPARE(r.steps[1].executeStallCycles, 0.0);
    ELK_COMPARE_NEAR(r.latencyCycles, (expectedEnd + 10), 1e-9);
}

void TestSimScenarios::badProgramIsAnError()
{
    const chip::ChipSpec chip = simtest::smallChip(1);
    simtest::Fixture f(chip, 2);
    f.preload(0, 64, 1);
    f.execute(1, 10);
    NullRunControl control;
    const sim::SimRunResult r = sim::simulate(chip, f.problem, f.program, {}, control);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("step 1") != std::string::npos, r.error.c_str());
}

QTEST_GUILESS_MAIN(TestSimScenarios)
#include "tst_sim_scenarios.moc"
