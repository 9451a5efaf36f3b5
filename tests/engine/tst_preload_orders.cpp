// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/backward_scheduler.h"
#include "engine/schedule/preload_orders.h"
#include "tests/engine/schedule_test_support.h"

#include <QtTest>

#include "tests/support/compare_near.h"
#include <algorithm>
#include <set>

using namespace elk;
using namespace elk::schedule;
using elk::schedule::test::TestProblem;

namespace {

/// Two layers of four HBM-heavy ops (distinct plan sets), 30 bytes preloaded, 40 executing, SRAM 100:
/// an execution can hold at most two preloads of later ops, so some orders overflow.
void buildTight(TestProblem& t, std::int64_t sram = 100, bool equalLabels = false)
{
    ScheduleProblem& p = t.problem;
    p.cores = 10;
    p.sramBytesPerCore = sram;
    p.hbmBytesPerCycle = 10;
    p.preloadIngressBytesPerCycle = 1000;
    p.preloadNocThreshold = 1;
    std::vector<std::uint32_t> sets;
    for (int r = 0; r < 4; ++r) {
        if (equalLabels && r == 2) {
            sets.push_back(sets[1]);
            continue;
        }
        sets.push_back(
            t.addPlans(test::makePlans(3000 + 100 * r, { { 30, 40, 100.0 + 50 * r }, { 30, 60, 80.0 + 50 * r } })));
    }
    for (int l = 0; l < 2; ++l)
        for (int r = 0; r < 4; ++r)
            t.addStep(sets[static_cast<std::size_t>(r)]);
    p.layers = { 0, 2, 4, 0, 0 };
}

bool schedules(const ScheduleProblem& problem, const Allocator& allocator, const std::vector<int>& layerOrder)
{
    detail::BackwardScheduler scheduler(problem, allocator);
    const std::vector<int> order = expandLayerOrder(problem, layerOrder);
    detail::BackwardOptions options;
    options.maxOverlap = problem.layers.opsPerLayer;
    options.preloadOrder = &order;
    if (!scheduler.run(options))
        return false;
    const Schedule s = scheduler.toSchedule(Design::ElkFull);
    return s.preloadOrder == order && checkSchedule(problem, s).empty();
}

} // namespace

class TestPreloadOrders : public QObject {
    Q_OBJECT

private slots:
    void identityFirstAndAllValid()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 4, 64 * 1024, true, 0.9);
        const Allocator allocator(t.problem);
        NullRunControl control;
        const LayerOrders orders = generateLayerOrders(t.problem, allocator, {}, control);
        QCOMPARE(orders.movable, (std::vector<int> { 0, 2, 3 })); // qkv, ffn, kv; not the light ops
        QCOMPARE(orders.orders.front(), (std::vector<int> { 0, 1, 2, 3, 4 }));
        QVERIFY(orders.orders.size() > 1);
        std::set<std::vector<int>> distinct(orders.orders.begin(), orders.orders.end());
        QCOMPARE(distinct.size(), orders.orders.size());
        for (const auto& order : orders.orders) {
            QCOMPARE(order[1], 1); // light ops keep their slots
            QCOMPARE(order[4], 4);
            QVERIFY(orderFitsSram(t.problem, allocator, order));
            QVERIFY(schedules(t.problem, allocator, order));
        }
    }

    void pruningIsExact()
    {
        TestProblem t;
        buildTight(t);
        const Allocator allocator(t.problem);
        NullRunControl control;
        PreloadOrderOptions options;
        options.maxDisplacement = 4;
        const LayerOrders orders = generateLayerOrders(t.problem, allocator, options, control);
        QCOMPARE(orders.movable.size(), std::size_t(4));
        const std::set<std::vector<int>> generated(orders.orders.begin(), orders.orders.end());
        std::vector<int> perm { 0, 1, 2, 3 };
        int valid = 0, invalid = 0;
        do {
            const bool fits = orderFitsSram(t.problem, allocator, perm);
            // The static test and the scheduler agree on every order, and the generator keeps exactly
            // the ones that fit.
            QCOMPARE(schedules(t.problem, allocator, perm), fits);
            QCOMPARE(generated.count(perm) == 1, fits);
            (fits ? valid : invalid)++;
        } while (std::next_permutation(perm.begin(), perm.end()));
        QVERIFY(valid >= 2);
        QVERIFY(invalid >= 1); // e.g. {3, 2, 1, 0}: op 0 executes with three preloads resident
        QVERIFY(!generated.count({ 3, 2, 1, 0 }));
    }

    void displacementBound_data()
    {
        QTest::addColumn<int>("bound");
        QTest::addColumn<int>("count");
        QTest::addRow("0: identity only") << 0 << 1;
        QTest::addRow("1: adjacent swaps (5 of 24)") << 1 << 5;
        QTest::addRow("3: all 24") << 3 << 24;
    }
    void displacementBound()
    {
        QFETCH(int, bound);
        QFETCH(int, count);
        TestProblem t;
        buildTight(t, 1000); // room for every order
        const Allocator allocator(t.problem);
        NullRunControl control;
        PreloadOrderOptions options;
        options.maxDisplacement = bound;
        const LayerOrders orders = generateLayerOrders(t.problem, allocator, options, control);
        QCOMPARE(static_cast<int>(orders.orders.size()), count);
        for (const auto& order : orders.orders)
            for (int slot = 0; slot < 4; ++slot)
                QVERIFY2(std::abs(order[static_cast<std::size_t>(slot)] - slot) <= bound,
                    qPrintable(QStringLiteral("slot %1 holds %2, more than %3 away")
                                   .arg(slot)
                                   .arg(order[static_cast<std::size_t>(slot)])
                                   .arg(bound)));
    }

    void equalPlanSetsNotSwapped()
    {
        TestProblem t;
        buildTight(t, 1000, true); // ops 1 and 2 share a plan set
        const Allocator allocator(t.problem);
        NullRunControl control;
        const LayerOrders orders = generateLayerOrders(t.problem, allocator, {}, control);
        std::set<std::vector<std::uint32_t>> labels;
        for (const auto& order : orders.orders) {
            std::vector<std::uint32_t> sequence;
            for (int r : order)
                sequence.push_back(t.problem.steps[static_cast<std::size_t>(r)].planSet);
            QVERIFY(labels.insert(sequence).second);
        }
        QCOMPARE(orders.orders.size(), std::size_t(12)); // 4! / 2!
    }

    void boundedCount()
    {
        TestProblem t;
        buildTight(t, 1000);
        const Allocator allocator(t.problem);
        NullRunControl control;
        PreloadOrderOptions options;
        options.maxOrders = 3;
        const LayerOrders orders = generateLayerOrders(t.problem, allocator, options, control);
        QCOMPARE(orders.orders.size(), std::size_t(3));
        QVERIFY(orders.truncated);
    }

    void sameOrderInEveryLayer()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 4, 64 * 1024, true, 0.9);
        const std::vector<int> layerOrder { 2, 1, 0, 4, 3 };
        const std::vector<int> order = expandLayerOrder(t.problem, layerOrder);
        QCOMPARE(order.size(), t.problem.steps.size());
        QCOMPARE(order.front(), 0); // prefix
        QCOMPARE(order.back(), static_cast<int>(t.problem.steps.size()) - 1); // suffix
        for (int l = 0; l < 4; ++l)
            for (int q = 0; q < 5; ++q)
                QCOMPARE(order[static_cast<std::size_t>(1 + 5 * l + q)],
                    1 + 5 * l + layerOrder[static_cast<std::size_t>(q)]);
        // Elk-Full's chosen order has this shape too.
        NullRunControl control;
        const ScheduleResult full = scheduleDesign(t.problem, Design::ElkFull, control);
        QVERIFY(full.ok());
        const auto& chosen = full.schedule->preloadOrder;
        for (int l = 1; l < 4; ++l)
            for (int q = 0; q < 5; ++q)
                QCOMPARE(
                    chosen[static_cast<std::size_t>(1 + 5 * l + q)] - 5 * l, chosen[static_cast<std::size_t>(1 + q)]);
    }

    void stops()
    {
        TestProblem t;
        buildTight(t, 1000);
        const Allocator allocator(t.problem);
        AtomicRunControl control;
        control.requestStop();
        PreloadOrderOptions options;
        options.maxNodes = 1'000'000;
        // Stop is polled every 1024 nodes; this tree is smaller, so it completes — and scheduleDesign
        // reports the stop before it starts.
        QVERIFY(!generateLayerOrders(t.problem, allocator, options, control).orders.empty());
        QCOMPARE(QString::fromStdString(scheduleDesign(t.problem, Design::ElkFull, control).error),
            QStringLiteral("stopped"));
    }
};

QTEST_GUILESS_MAIN(TestPreloadOrders)
#include "tst_preload_orders.moc"
