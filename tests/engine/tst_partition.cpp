// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// partitionOp: execute-state Pareto fronts, the preload table, errors, stop and determinism.
#include "engine/partition/partition.h"
#include "partition_fixtures.h"

#include <QTest>

#include <cstring>
#include <set>

Q_DECLARE_METATYPE(elk::partition::PartitionInput)

using namespace elk;
using namespace elk::partition;

namespace {

PartitionResult run(const PartitionInput& input, const PartitionSettings& settings)
{
    const test::CountingTileCost costModel;
    NullRunControl control;
    return partitionOp(input, settings, costModel, test::simpleTransfer(), control);
}

/// Stops after `allowed` calls to stopRequested().
class CountdownControl final : public RunControl {
public:
    explicit CountdownControl(int allowed)
        : m_allowed(allowed)
    {
    }
    bool stopRequested() const override { return ++m_calls > m_allowed; }
    void progress(std::int64_t, std::int64_t, std::string_view) override { }
    int calls() const { return m_calls; }

private:
    int m_allowed;
    mutable int m_calls = 0;
};

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameCost(const PlanCost& a, const PlanCost& b)
{
    return a.executeBytes == b.executeBytes && a.preloadBytes == b.preloadBytes && a.iterations == b.iterations
        && sameBits(a.computeCycles, b.computeCycles) && sameBits(a.shiftCycles, b.shiftCycles)
        && sameBits(a.reduceCycles, b.reduceCycles);
}

bool sameEntry(const PreloadEntry& a, const PreloadEntry& b)
{
    return a.preloadBytes == b.preloadBytes && a.executeBytes == b.executeBytes && a.preloadPlan == b.preloadPlan
        && a.executePlan == b.executePlan && sameBits(a.warmupCycles, b.warmupCycles)
        && sameBits(a.totalCycles, b.totalCycles);
}

void addSearchRows()
{
    QTest::addColumn<PartitionInput>("input");
    QTest::addColumn<qlonglong>("cores");
    QTest::addColumn<qlonglong>("sram");
    QTest::addRow("matmul 64×512×256, weight from HBM, 256 cores")
        << test::matmul(64, 512, 256, false, true) << 256LL << 4096LL;
    QTest::addRow("matmul 32×1536×512, both inputs from HBM, 1024 cores, tight SRAM")
        << test::matmul(32, 1536, 512, true, true) << 1024LL << 2400LL;
    QTest::addRow("attention scores 8×8×256×64, 512 cores") << test::attentionScores(8, 8, 256, 64) << 512LL << 8192LL;
    QTest::addRow("conv1d 1000×7 stride 2, 64 cores") << test::conv1d(1000, 7, 2) << 64LL << 512LL;
    QTest::addRow("activation-only matmul 16×256×256, 128 cores")
        << test::matmul(16, 256, 256, false, false) << 128LL << 4096LL;
}

} // namespace

class TestPartition : public QObject {
    Q_OBJECT

private slots:
    void elementwiseOnFourCores()
    {
        // Splits 1..4 give 48, 24, 18, 12 bytes and 2t + one sync cycles: the 4-way split is both
        // the smallest and the fastest, so the front and the table hold it alone.
        const PartitionResult result = run(test::elementwise(8), test::settingsFor(4, 1 << 20));
        QVERIFY2(result.ok(), result.error.c_str());
        const OpPlans& plans = *result.plans;
        QCOMPARE(plans.enumeratedPlans, std::int64_t(4));
        QCOMPARE(plans.pareto.size(), std::size_t(1));
        QCOMPARE(plans.plans.size(), std::size_t(1));
        QCOMPARE(plans.plans[0].spatial, std::vector<std::int32_t>({ 4 }));
        QCOMPARE(plans.costs[0].executeBytes, std::int64_t(12));
        QCOMPARE(plans.costs[0].executeCycles(), 4.0 + 10.0);
        QCOMPARE(plans.hbmBytes, std::int64_t(0));
        QCOMPARE(plans.table.size(), std::size_t(1));
        QCOMPARE(plans.table[0].preloadBytes, std::int64_t(0));
        QCOMPARE(plans.table[0].executeBytes, std::int64_t(12));
        QCOMPARE(plans.table[0].warmupCycles, 0.0);
        QCOMPARE(plans.table[0].totalCycles, 14.0);
    }

    void tinyMatmulTable()
    {
        // The 10 plans of tst_partition_plans' tinyMatmulByHand. Front: (1,2,1) unrotated, 16 B,
        // 8 + 62 = 70 cycles (it ties with (2,1,1) and comes first; (1,1,1) is larger and slower).
        // Its preload plans: itself (A whole: 8 B, no warm-up) and A rotated along k or m (4 B);
        // warm-up of the latter: 2 parts of A's 4-byte piece over the link (8 B / 2 = 4 cycles)
        // plus 2 syncs (20) = 24; along k comes first and wins the tie.
        const PartitionResult result = run(test::matmul(2, 2, 2, true, false), test::settingsFor(2, 1 << 20));
        QVERIFY2(result.ok(), result.error.c_str());
        const OpPlans& plans = *result.plans;
        QCOMPARE(plans.enumeratedPlans, std::int64_t(10));
        QCOMPARE(plans.hbmBytes, std::int64_t(8));
        QCOMPARE(plans.pareto, std::vector<std::uint32_t>({ 0 }));
        QCOMPARE(plans.plans.size(), std::size_t(2));
        QCOMPARE(plans.plans[0].spatial, std::vector<std::int32_t>({ 1, 2, 1 }));
        QCOMPARE(plans.costs[0].executeCycles(), 70.0);
        const Plan rotatedA { { 1, 2, 1 }, { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 2, 1 } } };
        QCOMPARE(plans.plans[1], rotatedA);
        QCOMPARE(plans.table.size(), std::size_t(2));
        QCOMPARE(plans.table[0].preloadBytes, std::int64_t(4));
        QCOMPARE(plans.table[0].executeBytes, std::int64_t(16));
        QCOMPARE(plans.table[0].preloadPlan, 1u);
        QCOMPARE(plans.table[0].executePlan, 0u);
        QCOMPARE(plans.table[0].warmupCycles, 24.0);
        QCOMPARE(plans.table[0].totalCycles, 94.0);
        QCOMPARE(plans.table[1].preloadBytes, std::int64_t(8));
        QCOMPARE(plans.table[1].preloadPlan, 0u);
        QCOMPARE(plans.table[1].warmupCycles, 0.0);
        QCOMPARE(plans.table[1].totalCycles, 70.0);
        QCOMPARE(plans.minPreloadBytes(), std::int64_t(4));
    }

    void paretoStrictlyImproves_data() { addSearchRows(); }
    void paretoStrictlyImproves()
    {
        QFETCH(PartitionInput, input);
        QFETCH(qlonglong, cores);
        QFETCH(qlonglong, sram);
        const PartitionResult result = run(input, test::settingsFor(cores, sram));
        QVERIFY2(result.ok(), result.error.c_str());
        const OpPlans& plans = *result.plans;
        QVERIFY(!plans.pareto.empty());
        QCOMPARE(plans.costs.size(), plans.plans.size());
        for (std::size_t i = 0; i < plans.pareto.size(); ++i) {
            const PlanCost& cost = plans.costs[plans.pareto[i]];
            QVERIFY(cost.executeBytes <= sram);
            QVERIFY(cost.preloadBytes <= cost.executeBytes);
            if (i > 0) {
                const PlanCost& previous = plans.costs[plans.pareto[i - 1]];
                QVERIFY(cost.executeBytes > previous.executeBytes);
                QVERIFY(cost.executeCycles() < previous.executeCycles());
            }
        }
    }

    void tableHoldsCompatiblePairs_data() { addSearchRows(); }
    void tableHoldsCompatiblePairs()
    {
        QFETCH(PartitionInput, input);
        QFETCH(qlonglong, cores);
        QFETCH(qlonglong, sram);
        const PartitionResult result = run(input, test::settingsFor(cores, sram));
        QVERIFY2(result.ok(), result.error.c_str());
        const OpPlans& plans = *result.plans;
        const bool anyHbm = plans.hbmBytes > 0;
        std::set<std::uint32_t> referenced(plans.pareto.begin(), plans.pareto.end());
        std::set<std::uint32_t> executePlans;
        QVERIFY(!plans.table.empty());
        for (std::size_t i = 0; i < plans.table.size(); ++i) {
            const PreloadEntry& entry = plans.table[i];
            QVERIFY(entry.preloadPlan < plans.plans.size());
            QVERIFY(entry.executePlan < plans.plans.size());
            referenced.insert(entry.preloadPlan);
            executePlans.insert(entry.executePlan);
            const Plan& cold = plans.plans[entry.preloadPlan];
            const Plan& hot = plans.plans[entry.executePlan];
            QCOMPARE(cold.spatial, hot.spatial);
            QVERIFY(entry.preloadBytes <= entry.executeBytes);
            QCOMPARE(entry.preloadBytes, plans.costs[entry.preloadPlan].preloadBytes);
            QCOMPARE(entry.executeBytes, plans.costs[entry.executePlan].executeBytes);
            for (std::size_t d = 0; d < hot.temporal.size(); ++d) {
                for (std::size_t v = 0; v < hot.temporal[d].size(); ++v)
                    QCOMPARE(cold.temporal[d][v] % hot.temporal[d][v], 0);
            }
            QVERIFY(entry.warmupCycles >= 0);
            QCOMPARE(entry.totalCycles, plans.costs[entry.executePlan].executeCycles() + entry.warmupCycles);
            if (!anyHbm) {
                QCOMPARE(entry.preloadBytes, std::int64_t(0));
                QCOMPARE(entry.preloadPlan, entry.executePlan);
                QCOMPARE(entry.warmupCycles, 0.0);
            }
            if (i > 0) {
                const PreloadEntry& previous = plans.table[i - 1];
                QVERIFY(std::tie(previous.preloadBytes, previous.executeBytes)
                    < std::tie(entry.preloadBytes, entry.executeBytes));
            }
        }
        // Every front plan is its own preload plan, so each appears as an execute plan; and
        // `plans` holds nothing that is not referred to.
        QCOMPARE(executePlans, std::set<std::uint32_t>(plans.pareto.begin(), plans.pareto.end()));
        QCOMPARE(referenced.size(), plans.plans.size());
        if (!anyHbm)
            QCOMPARE(plans.table.size(), plans.pareto.size());
    }

    void sramTooSmall()
    {
        // f32 [4096] elementwise on one core: 3 × 4096 × 4 bytes whatever the plan.
        const PartitionResult result = run(test::elementwise(4096, model::DType::F32), test::settingsFor(1, 1000));
        QVERIFY(!result.ok());
        QCOMPARE(result.smallestBytesPerCore, std::int64_t(49152));
        QCOMPARE(result.error,
            std::string(
                "needs at least 49,152 bytes per core (execute state of its smallest plan); the chip has 1,000"));
    }

    void stopBeforeStart()
    {
        const test::CountingTileCost costModel;
        AtomicRunControl control;
        control.requestStop();
        const PartitionResult result = partitionOp(test::matmul(2, 2, 2, true, false), test::settingsFor(2, 1 << 20),
            costModel, test::simpleTransfer(), control);
        QVERIFY(!result.ok());
        QCOMPARE(result.error, std::string("stopped"));
    }

    void stopWhileSearching()
    {
        const test::CountingTileCost costModel;
        CountdownControl control(2);
        const PartitionResult result = partitionOp(test::matmul(32, 1536, 512, false, true),
            test::settingsFor(1024, 1 << 20), costModel, test::simpleTransfer(), control);
        QVERIFY(!result.ok());
        QCOMPARE(result.error, std::string("stopped"));
        QCOMPARE(control.calls(), 3); // it returned at the first "yes"
    }

    void deterministic_data() { addSearchRows(); }
    void deterministic()
    {
        QFETCH(PartitionInput, input);
        QFETCH(qlonglong, cores);
        QFETCH(qlonglong, sram);
        const PartitionResult first = run(input, test::settingsFor(cores, sram));
        const PartitionResult second = run(input, test::settingsFor(cores, sram));
        QVERIFY(first.ok() && second.ok());
        const OpPlans& a = *first.plans;
        const OpPlans& b = *second.plans;
        QCOMPARE(a.plans, b.plans);
        QCOMPARE(a.costs.size(), b.costs.size());
        for (std::size_t i = 0; i < a.costs.size(); ++i)
            QVERIFY(sameCost(a.costs[i], b.costs[i]));
        QCOMPARE(a.pareto, b.pareto);
        QCOMPARE(a.table.size(), b.table.size());
        for (std::size_t i = 0; i < a.table.size(); ++i)
            QVERIFY(sameEntry(a.table[i], b.table[i]));
        QCOMPARE(a.hbmBytes, b.hbmBytes);
        QCOMPARE(a.enumeratedPlans, b.enumeratedPlans);
    }

    void partsGiveTheWholeSearch_data() { addSearchRows(); }
    void partsGiveTheWholeSearch()
    {
        // A search cut into parts over its first dim's split values (as several threads run it) merges
        // into exactly the one-piece result, however it is cut.
        QFETCH(PartitionInput, input);
        QFETCH(qlonglong, cores);
        QFETCH(qlonglong, sram);
        const PartitionSettings settings = test::settingsFor(cores, sram);
        const PartitionResult whole = run(input, settings);
        QVERIFY(whole.ok());
        const int candidates = firstDimCandidates(input, settings);
        QVERIFY(candidates >= 1);
        const test::CountingTileCost cost;
        const cost::TransferCost transfer = test::simpleTransfer();
        for (int pieces : { 2, 3, candidates }) {
            NullRunControl control;
            std::vector<PartialSearch> parts;
            for (int p = 0; p < pieces; ++p)
                parts.push_back(searchPart(
                    input, settings, cost, transfer, p * candidates / pieces, (p + 1) * candidates / pieces, control));
            const PartitionResult merged = finishSearch(input, settings, cost, transfer, parts, control);
            QVERIFY(merged.ok());
            const OpPlans& a = *whole.plans;
            const OpPlans& b = *merged.plans;
            QCOMPARE(a.plans, b.plans);
            QCOMPARE(a.pareto, b.pareto);
            QCOMPARE(a.table.size(), b.table.size());
            for (std::size_t i = 0; i < a.table.size(); ++i)
                QVERIFY(sameEntry(a.table[i], b.table[i]));
            for (std::size_t i = 0; i < a.costs.size(); ++i)
                QVERIFY(sameCost(a.costs[i], b.costs[i]));
            QCOMPARE(a.enumeratedPlans, b.enumeratedPlans);
        }
    }
};

QTEST_GUILESS_MAIN(TestPartition)
#include "tst_partition.moc"
