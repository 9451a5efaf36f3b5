// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/allocator.h"
#include "tests/engine/schedule_test_support.h"

#include <QtTest>

using namespace elk::schedule;
using elk::schedule::test::TestProblem;

namespace {

/// No HBM loads, so an entry's cost is its totalCycles.
/// A (executing): execute 100/60/40 bytes → 10/12/20 cycles.
/// B (preloaded): preload 50/30/10 bytes → 5/5.5/30 cycles.
void buildPair(TestProblem& t)
{
    t.problem.sramBytesPerCore = 1000;
    t.problem.hbmBytesPerCycle = 10;
    t.problem.preloadIngressBytesPerCycle = 1;
    t.addPlans(test::makePlans(0, { { 0, 100, 10 }, { 0, 60, 12 }, { 0, 40, 20 }, { 0, 80, 15 } }));
    t.addPlans(test::makePlans(0, { { 50, 50, 5 }, { 30, 30, 5.5 }, { 10, 10, 30 } }));
}

} // namespace

class TestAllocator : public QObject {
    Q_OBJECT

private slots:
    void preloadTimeFormula()
    {
        ScheduleProblem p;
        p.hbmBytesPerCycle = 10;
        p.preloadIngressBytesPerCycle = 2;
        p.preloadNocThreshold = 0.5;
        QCOMPARE(preloadTime(p, 1000, 20).totalCycles, 100.0); // Lh = 100 >= (20 / 2) / 0.5
        QCOMPARE(preloadTime(p, 1000, 20).idleCycles(), 90.0);
        QCOMPARE(preloadTime(p, 1000, 80).totalCycles, 80.0 / 2 / 0.5 > 100 ? 80.0 : 100.0);
        QCOMPARE(preloadTime(p, 100, 80).totalCycles, 80.0);
        QCOMPARE(preloadTime(p, 0, 80).totalCycles, 0.0); // loads nothing
    }

    void meshEdgeInjectionBoundsPreloads()
    {
        // 64 cores fed through edge links carrying 32 B/cycle in all: 20 B per core take 64 · 20 / 32 = 40
        // cycles on the links (more than 20 / 2 = 10 at the core ports); with θ = 0.5, 80 cycles.
        ScheduleProblem p;
        p.cores = 64;
        p.hbmBytesPerCycle = 10;
        p.preloadIngressBytesPerCycle = 2;
        p.preloadNocThreshold = 0.5;
        p.preloadInjectionBytesPerCycle = 32;
        QCOMPARE(preloadTime(p, 100, 20).nocCycles, 40.0);
        QCOMPARE(preloadTime(p, 100, 20).totalCycles, 80.0);
        p.preloadInjectionBytesPerCycle = 0; // all-to-all: no edge
        QCOMPARE(preloadTime(p, 100, 20).totalCycles, 20.0);
    }

    void bestEntry_data()
    {
        QTest::addColumn<qint64>("budget");
        QTest::addColumn<int>("executeBytes");
        QTest::addRow("everything fits: fastest") << qint64(1000) << 100;
        QTest::addRow("99 bytes: 60 (the 80-byte entry is slower)") << qint64(99) << 60;
        QTest::addRow("exactly 60") << qint64(60) << 60;
        QTest::addRow("59 bytes") << qint64(59) << 40;
        QTest::addRow("nothing fits") << qint64(39) << -1;
    }
    void bestEntry()
    {
        QFETCH(qint64, budget);
        QFETCH(int, executeBytes);
        TestProblem t;
        buildPair(t);
        const Allocator allocator(t.problem);
        const int e = allocator.bestEntry(0, budget, false);
        QCOMPARE(e < 0 ? -1 : static_cast<int>(t.problem.planSets[0]->table[static_cast<std::size_t>(e)].executeBytes),
            executeBytes);
        QCOMPARE(allocator.minExecuteBytes(0, false), std::int64_t(40));
    }

    void minPreloadRestriction()
    {
        TestProblem t;
        t.problem.hbmBytesPerCycle = 10;
        t.problem.preloadIngressBytesPerCycle = 1;
        // Smallest preload (10) only reaches 50 cycles; a 30-byte preload state runs in 20.
        t.addPlans(test::makePlans(1000, { { 10, 40, 50 }, { 30, 60, 20 } }));
        const Allocator allocator(t.problem);
        QCOMPARE(allocator.bestEntry(0, 100, false), 1);
        QCOMPARE(allocator.bestEntry(0, 100, true), 0);
        QCOMPARE(allocator.minExecuteBytes(0, true), std::int64_t(40));
        QCOMPARE(allocator.fastestCycles(0), 20.0);
    }

    void jointDeltaGreedy_data()
    {
        QTest::addColumn<qint64>("capacity");
        QTest::addColumn<int>("executeA");
        QTest::addColumn<int>("preloadB");
        QTest::addRow("both fastest") << qint64(170) << 100 << 50;
        QTest::addRow("B shrinks first (0.5 cycles for 20 bytes)") << qint64(140) << 100 << 30;
        QTest::addRow("then A, cheaper per byte than B's last step") << qint64(100) << 60 << 30;
        QTest::addRow("A down to 40 before B's expensive step") << qint64(80) << 40 << 30;
        QTest::addRow("everything smallest") << qint64(50) << 40 << 10;
        QTest::addRow("does not fit") << qint64(49) << -1 << -1;
    }
    void jointDeltaGreedy()
    {
        QFETCH(qint64, capacity);
        QFETCH(int, executeA);
        QFETCH(int, preloadB);
        TestProblem t;
        buildPair(t);
        Allocator allocator(t.problem);
        const Allocator::Member members[] = { { 0, true }, { 1, false } };
        const auto result = allocator.allocateGroup(members, 0, capacity);
        if (executeA < 0) {
            QVERIFY(!result);
            return;
        }
        QVERIFY(result);
        const auto& a = t.problem.planSets[0]->table[(*result)[0]];
        const auto& b = t.problem.planSets[1]->table[(*result)[1]];
        QCOMPARE(static_cast<int>(a.executeBytes), executeA);
        QCOMPARE(static_cast<int>(b.preloadBytes), preloadB);
        QVERIFY(a.executeBytes + b.preloadBytes <= capacity);
    }

    void jointAlwaysFitsAndMemoises()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 1, 64 * 1024, true, 0.9);
        Allocator allocator(t.problem);
        const Allocator::Member members[] = { { 1, true }, { 3, false }, { 4, false }, { 0, false } };
        int feasible = 0;
        for (std::int64_t capacity = 1000; capacity < 200'000; capacity += 997) {
            const auto result = allocator.allocateGroup(members, 1024, capacity);
            if (!result)
                continue;
            ++feasible;
            std::int64_t total = 1024;
            for (std::size_t k = 0; k < 4; ++k) {
                const auto& e = t.problem.planSets[members[k].planSet]->table[(*result)[k]];
                total += members[k].executing ? e.executeBytes : e.preloadBytes;
            }
            QVERIFY(total <= capacity);
        }
        QVERIFY(feasible > 100);
        const auto size = allocator.memoEntries();
        QVERIFY(allocator.allocateGroup(members, 1024, 1000 + 997 * 50));
        QCOMPARE(allocator.memoEntries(), size); // repeated query: memo hit
        QVERIFY(allocator.allocateGroup(members, 2048, 1000 + 997 * 50));
        QCOMPARE(allocator.memoEntries(), size + 1); // different room: a new key
    }

    void singleMemberMatchesBestEntry()
    {
        // The scheduler's tabulated answer is the Δ-greedy's for a group whose only free member executes.
        TestProblem t;
        test::buildRepeatedLayers(t, 1, 64 * 1024, true, 0.9);
        Allocator allocator(t.problem);
        for (std::uint32_t set = 0; set < t.problem.planSets.size(); ++set) {
            const Allocator::Member member[] = { { set, true } };
            for (std::int64_t budget = 0; budget < 300'000; budget += 1531) {
                const auto joint = allocator.allocateGroup(member, 0, budget);
                const int best = allocator.bestEntry(set, budget, false);
                QCOMPARE(joint.has_value(), best >= 0);
                if (joint)
                    QCOMPARE(static_cast<int>((*joint)[0]), best);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestAllocator)
#include "tst_allocator.moc"
