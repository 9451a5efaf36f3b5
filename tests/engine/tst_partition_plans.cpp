// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Plan enumeration and per-plan costs (elk-reference.md §2.2–2.5 with the fixed temporal
// enumeration), checked against cases worked out by hand.
#include "engine/partition/impl/expr_facts.h"
#include "engine/partition/impl/plan_enumeration.h"
#include "engine/partition/impl/plan_evaluation.h"
#include "partition_fixtures.h"

#include <QTest>

#include <map>
#include <tuple>

Q_DECLARE_METATYPE(elk::partition::PartitionInput)

using namespace elk;
using namespace elk::partition;

namespace {

struct Rotation {
    int dim;
    int operand;
    int factor;
};

struct ExpectedPlan {
    std::vector<std::int32_t> spatial;
    std::vector<Rotation> rotations; ///< every T[d][v] > 1
    std::int64_t executeBytes;
    std::int64_t preloadBytes;
    double computeCycles;
    double shiftCycles;
    double reduceCycles;
};

struct WalkedPlan {
    std::vector<std::int32_t> spatial;
    std::vector<std::int32_t> temporal; ///< [d * V + v]
    std::vector<std::int64_t> replicas;
    PlanCost cost;
};

/// Every valid plan of `input`, in enumeration order, with its cost.
std::vector<WalkedPlan> walkAll(const PartitionInput& input, const PartitionSettings& settings,
    const cost::TransferCost& transfer = test::simpleTransfer())
{
    const test::CountingTileCost costModel;
    const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
    detail::SpatialEnumerator spatial(facts);
    detail::TemporalEnumerator temporal(facts);
    detail::PlanEvaluator evaluator(facts, settings, costModel, transfer);
    std::vector<WalkedPlan> plans;
    const auto D = std::size_t(facts.dims);
    const auto V = std::size_t(facts.operands);
    while (spatial.next()) {
        temporal.reset(spatial.spatial(), spatial.tile());
        while (temporal.next()) {
            WalkedPlan plan;
            plan.spatial.assign(spatial.spatial(), spatial.spatial() + D);
            plan.temporal.assign(temporal.temporal(), temporal.temporal() + D * V);
            plan.replicas.assign(temporal.replicas(), temporal.replicas() + V);
            evaluator.measure(spatial.tile(), temporal.temporal());
            plan.cost = evaluator.cost(spatial.tile(), temporal.temporal(), temporal.replicas());
            plans.push_back(std::move(plan));
        }
    }
    return plans;
}

std::vector<std::int32_t> temporalOf(const ExpectedPlan& expected, int dims, int operands)
{
    std::vector<std::int32_t> temporal(std::size_t(dims * operands), 1);
    for (const Rotation& rotation : expected.rotations)
        temporal[std::size_t(rotation.dim * operands + rotation.operand)] = rotation.factor;
    return temporal;
}

bool usesDim(const model::Operand& operand, int dim)
{
    for (const model::Axis& axis : operand.axes) {
        if (axis.dim == dim || axis.windowDim == dim)
            return true;
    }
    return false;
}

} // namespace

class TestPartitionPlans : public QObject {
    Q_OBJECT

private slots:
    void thresholds_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("training");
        QTest::addColumn<double>("utilization");
        QTest::addColumn<double>("padding");
        const double p = 32.0 * 15360 * 5120;
        QTest::addRow("big matmul, 1472 cores: 0.9 × P/(P+2C), 0.9 × P/(P+C)")
            << 0 << false << 0.9 * p / (p + 2 * 1472) << 0.9 * p / (p + 1472);
        QTest::addRow("training raises the utilisation factor to 0.999")
            << 0 << true << 0.999 * p / (p + 2 * 1472) << 0.9 * p / (p + 1472);
        QTest::addRow("tiny elementwise [8]: capped by max(dims)·nd/220")
            << 1 << false << 0.9 * 8.0 / 220 << 0.9 * 8.0 / 220;
        QTest::addRow("gather: 0.951 and a constant padding threshold")
            << 2 << false << 0.951 * p / (p + 2 * 1472) << 0.951;
    }
    void thresholds()
    {
        QFETCH(int, which);
        QFETCH(bool, training);
        QFETCH(double, utilization);
        QFETCH(double, padding);
        PartitionInput input = which == 1 ? test::elementwise(8) : test::matmul(32, 15360, 5120, false, true);
        if (which == 2)
            input.expr.kind = model::OpKind::Gather;
        const std::int64_t cores = which == 1 ? 4 : 1472;
        const detail::Thresholds thresholds = detail::thresholdsFor(input.expr, cores, training);
        QCOMPARE(thresholds.utilization, utilization);
        QCOMPARE(thresholds.padding, padding);
    }

    void elementwiseOnFourCores()
    {
        // S = 1..4, tiles 8, 4, 3, 2; every operand uses the only dim, so nothing rotates.
        const auto plans = walkAll(test::elementwise(8), test::settingsFor(4, 1 << 20));
        QCOMPARE(plans.size(), std::size_t(4));
        const std::int64_t tiles[] = { 8, 4, 3, 2 };
        for (std::size_t i = 0; i < plans.size(); ++i) {
            QCOMPARE(plans[i].spatial, std::vector<std::int32_t>({ std::int32_t(i + 1) }));
            QCOMPARE(plans[i].cost.executeBytes, 3 * tiles[i] * 2);
            QCOMPARE(plans[i].cost.preloadBytes, std::int64_t(0));
            QCOMPARE(plans[i].cost.computeCycles, 2.0 * double(tiles[i]));
            QCOMPARE(plans[i].cost.shiftCycles, 0.0);
            QCOMPARE(plans[i].cost.reduceCycles, 10.0); // elementwise: one sync, nothing to gather
        }
    }

    void tinyMatmulByHand()
    {
        // out[m,n] = A[m,k] · W[k,n], 2×2×2 f16 on 2 cores, A from HBM. Link 2 B/cycle, sync 10.
        // Spatial splits (m,n,k) using <= 2 cores: (1,1,1) (1,1,2) (1,2,1) (2,1,1). Replicas: with k
        // split the output has 2 partial-sum copies (it may rotate along m or n); with n split A
        // is on 2 cores (rotates along m or k); with m split W (along n or k). Reduce cycles:
        // redistribution zb0/2 + 6 syncs, plus for 2 partials 2 syncs + (O·2/2)/2 + partial sum O/2·2.
        const std::vector<ExpectedPlan> expected = {
            { { 1, 1, 1 }, {}, 24, 8, 16, 0, 4 + 60 },
            { { 1, 1, 2 }, {}, 16, 4, 8, 0, 4 + 60 + 22 + 4 },
            { { 1, 1, 2 }, { { 1, 0, 2 } }, 16, 4, 8, 20 + 2, 2 + 60 },
            { { 1, 1, 2 }, { { 0, 0, 2 } }, 16, 4, 8, 20 + 2, 2 + 60 },
            { { 1, 2, 1 }, {}, 16, 8, 8, 0, 2 + 60 },
            { { 1, 2, 1 }, { { 2, 1, 2 } }, 16, 4, 8, 20 + 2, 2 + 60 },
            { { 1, 2, 1 }, { { 0, 1, 2 } }, 16, 4, 8, 20 + 2, 2 + 60 },
            { { 2, 1, 1 }, {}, 16, 4, 8, 0, 2 + 60 },
            { { 2, 1, 1 }, { { 2, 2, 2 } }, 16, 4, 8, 20 + 2, 2 + 60 },
            { { 2, 1, 1 }, { { 1, 2, 2 } }, 16, 4, 8, 20 + 2, 2 + 60 },
        };
        const auto plans = walkAll(test::matmul(2, 2, 2, true, false), test::settingsFor(2, 1 << 20));
        QCOMPARE(plans.size(), expected.size());
        for (std::size_t i = 0; i < plans.size(); ++i) {
            const QByteArray what = "plan " + QByteArray::number(qulonglong(i));
            QVERIFY2(plans[i].spatial == expected[i].spatial, what);
            QVERIFY2(plans[i].temporal == temporalOf(expected[i], 3, 3), what);
            QCOMPARE(plans[i].cost.executeBytes, expected[i].executeBytes);
            QCOMPARE(plans[i].cost.preloadBytes, expected[i].preloadBytes);
            QCOMPARE(plans[i].cost.computeCycles, expected[i].computeCycles);
            QCOMPARE(plans[i].cost.shiftCycles, expected[i].shiftCycles);
            QCOMPARE(plans[i].cost.reduceCycles, expected[i].reduceCycles);
            QCOMPARE(plans[i].cost.iterations, expected[i].rotations.empty() ? std::int64_t(1) : std::int64_t(2));
        }
    }

    void doubleBufferingOnlyForRotatedTensors()
    {
        // 4×4×4 on 4 cores split along m: W [k,n] is on all 4 cores; rotating it 4 ways along k
        // quarters its part but double-buffers it. Output and A are not rotated: single buffers.
        const PartitionInput input = test::matmul(4, 4, 4, false, true);
        const PartitionSettings settings = test::settingsFor(4, 1 << 20);
        const test::CountingTileCost costModel;
        const cost::TransferCost transfer = test::simpleTransfer();
        const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
        detail::PlanEvaluator evaluator(facts, settings, costModel, transfer);
        const std::int64_t tile[] = { 1, 4, 4 };
        std::vector<std::int32_t> temporal(9, 1);
        evaluator.measure(tile, temporal.data());
        QCOMPARE(evaluator.executeBytes(), std::int64_t(8 + 8 + 32));
        QCOMPARE(evaluator.preloadBytes(), std::int64_t(32));
        temporal[2 * 3 + 2] = 4;
        evaluator.measure(tile, temporal.data());
        QCOMPARE(evaluator.operandBytes(2), std::int64_t(8));
        QCOMPARE(evaluator.executeBytes(), std::int64_t(8 + 8 + 2 * 8));
        QCOMPARE(evaluator.preloadBytes(), std::int64_t(8)); // preload state holds no second buffer
        // 3 shifts of W's 8-byte part, 2 syncs each: 3·(8/2) + 3·2·10.
        const std::int64_t replicas[] = { 1, 1, 4 };
        const PlanCost cost = evaluator.cost(tile, temporal.data(), replicas);
        QCOMPARE(cost.shiftCycles, 12.0 + 60.0);
        QCOMPARE(cost.iterations, std::int64_t(4));
        QCOMPARE(cost.computeCycles, 4 * 2.0 * (1 * 4 * 1));
    }

    void nestedRotationRounds()
    {
        // Two tensors rotating along one dim with factors 2 and 4: a ring of 2 shared by both (1
        // shift) outside a ring of 2 for the second alone (run once per outer position + 1).
        const PartitionInput input = test::matmul(8, 8, 8, false, false);
        const PartitionSettings settings = test::settingsFor(64, 1 << 20);
        const test::CountingTileCost costModel;
        const cost::TransferCost transfer = test::simpleTransfer();
        const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
        detail::PlanEvaluator evaluator(facts, settings, costModel, transfer);
        const std::int64_t tile[] = { 8, 1, 8 }; // S = (1, 8, 1): A on 8 cores
        std::vector<std::int32_t> temporal(9, 1);
        temporal[0 * 3 + 0] = 2; // out along m (pretend replicas allow it)
        temporal[0 * 3 + 1] = 4; // A along m
        evaluator.measure(tile, temporal.data());
        const std::int64_t out = evaluator.operandBytes(0); // [4,1] f16 = 8 B
        const std::int64_t a = evaluator.operandBytes(1); // [2,8] f16 = 32 B
        QCOMPARE(out, std::int64_t(8));
        QCOMPARE(a, std::int64_t(32));
        const std::int64_t replicas[] = { 2, 8, 1 };
        const PlanCost cost = evaluator.cost(tile, temporal.data(), replicas);
        // Rounds: {out, A} g=2 (40 B, 1 shift, 2 tensors), then {A} g=2 (32 B, 1 shift, 1 tensor).
        // Sorted by bytes: outer {out, A}, inner {A} with acc 2. Bytes 40 + 2·32, shifts 2 + 2·1.
        QCOMPARE(cost.shiftCycles, (40.0 + 64.0) / 2 + 10.0 * 2 * 4);
    }

    void multiChipFactorOnCommunicationOnly()
    {
        // Plan (1,1,2) of the tiny matmul with the operator spread over two one-core chips.
        PartitionSettings settings = test::settingsFor(2, 1 << 20);
        settings.coresPerChip = 1;
        const auto plans = walkAll(test::matmul(2, 2, 2, true, false), settings);
        QCOMPARE(plans.size(), std::size_t(10));
        QCOMPARE(plans[1].cost.computeCycles, 8.0);
        QCOMPARE(plans[1].cost.reduceCycles, 1.5 * 90);
        QCOMPARE(plans[2].cost.shiftCycles, 1.5 * 22);
    }

    void slidingWindowAxes()
    {
        // out[o] = Σ in[2o + k] w[k], o = 8, k = 3. Split o in 2: tile o = 4, so a core reads
        // (4 − 1)·2 + 3 = 9 input elements; rotating in along o by 2 leaves (2 − 1)·2 + 3 = 5.
        const PartitionInput input = test::conv1d(8, 3, 2);
        const PartitionSettings settings = test::settingsFor(2, 1 << 20);
        const test::CountingTileCost costModel;
        const cost::TransferCost transfer = test::simpleTransfer();
        const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
        QCOMPARE(facts.uses[0 * 3 + 1], std::uint8_t(1));
        QCOMPARE(facts.uses[1 * 3 + 1], std::uint8_t(1)); // the window dim is used by the input too
        detail::PlanEvaluator evaluator(facts, settings, costModel, transfer);
        const std::int64_t tile[] = { 4, 3 };
        std::vector<std::int32_t> temporal(6, 1);
        evaluator.measure(tile, temporal.data());
        QCOMPARE(evaluator.operandBytes(0), std::int64_t(4 * 2));
        QCOMPARE(evaluator.operandBytes(1), std::int64_t(9 * 2));
        QCOMPARE(evaluator.operandBytes(2), std::int64_t(3 * 2));
        QCOMPARE(evaluator.preloadBytes(), std::int64_t(3 * 2));
        temporal[0 * 3 + 1] = 2;
        evaluator.measure(tile, temporal.data());
        QCOMPARE(evaluator.operandBytes(1), std::int64_t(5 * 2));
        // The whole search accepts window expressions and keeps sizes consistent.
        const auto plans = walkAll(input, settings);
        QVERIFY(!plans.empty());
        QCOMPARE(plans.front().cost.executeBytes, std::int64_t((8 + 17 + 3) * 2)); // S = (1,1): in is 7·2+3
    }

    void rotationOnlyAlongOwnDims_data()
    {
        QTest::addColumn<PartitionInput>("input");
        QTest::addColumn<qlonglong>("cores");
        QTest::addRow("matmul 32×96×64 on 64 cores") << test::matmul(32, 96, 64, false, true) << 64LL;
        QTest::addRow("attention scores 4×8×64×32 on 128 cores") << test::attentionScores(4, 8, 64, 32) << 128LL;
        QTest::addRow("conv1d 30×3 stride 1 on 8 cores") << test::conv1d(30, 3, 1) << 8LL;
        PartitionInput batched = test::attentionScores(2, 1, 48, 16);
        QTest::addRow("batched matmul with extent-1 dims on 32 cores") << batched << 32LL;
    }
    void rotationOnlyAlongOwnDims()
    {
        QFETCH(PartitionInput, input);
        QFETCH(qlonglong, cores);
        const auto plans = walkAll(input, test::settingsFor(cores, 1 << 30));
        QVERIFY(!plans.empty());
        const std::size_t D = input.expr.dimExtents.size();
        const std::size_t V = input.expr.operands.size();
        std::size_t rotated = 0;
        for (const WalkedPlan& plan : plans) {
            std::int64_t used = 1;
            for (std::size_t d = 0; d < D; ++d) {
                used *= plan.spatial[d];
                if (input.expr.dimExtents[d] == 1)
                    QCOMPARE(plan.spatial[d], std::int32_t(1)); // extent-1 dims are never split
            }
            QVERIFY(used <= cores);
            for (std::size_t v = 0; v < V; ++v) {
                std::int64_t product = 1;
                for (std::size_t d = 0; d < D; ++d) {
                    const std::int32_t factor = plan.temporal[d * V + v];
                    product *= factor;
                    if (factor > 1) {
                        ++rotated;
                        QVERIFY2(usesDim(input.expr.operands[v], int(d)),
                            qPrintable(
                                QStringLiteral("operand %1 rotated along dim %2 it does not use").arg(v).arg(d)));
                    }
                }
                QCOMPARE(plan.replicas[v] % product, std::int64_t(0));
            }
        }
        QVERIFY(rotated > 0); // the property was exercised
    }

    void searchMatchesBruteForce_data()
    {
        QTest::addColumn<PartitionInput>("input");
        QTest::addColumn<qlonglong>("cores");
        QTest::addColumn<qlonglong>("sram");
        QTest::addRow("matmul 64×512×256, weight from HBM")
            << test::matmul(64, 512, 256, false, true) << 256LL << 4096LL;
        QTest::addRow("matmul 32×1536×512, both from HBM, tight SRAM")
            << test::matmul(32, 1536, 512, true, true) << 1024LL << 2400LL;
        QTest::addRow("conv1d 1000×7 stride 2") << test::conv1d(1000, 7, 2) << 64LL << 512LL;
    }
    void searchMatchesBruteForce()
    {
        // The search keeps only a streaming front and re-walks front splits for the table; here
        // every plan is kept and §2.6–2.7 are applied literally, then the two are compared.
        QFETCH(PartitionInput, input);
        QFETCH(qlonglong, cores);
        QFETCH(qlonglong, sram);
        const PartitionSettings settings = test::settingsFor(cores, sram);
        const auto all = walkAll(input, settings);
        const test::CountingTileCost costModel;
        NullRunControl control;
        const PartitionResult result = partitionOp(input, settings, costModel, test::simpleTransfer(), control);
        QVERIFY2(result.ok(), result.error.c_str());
        const OpPlans& plans = *result.plans;
        QCOMPARE(plans.enumeratedPlans, std::int64_t(all.size()));

        std::map<std::int64_t, std::size_t> fastestBySize; // first fastest plan of each size
        for (std::size_t i = 0; i < all.size(); ++i) {
            const PlanCost& cost = all[i].cost;
            if (cost.executeBytes > sram)
                continue;
            auto [it, inserted] = fastestBySize.try_emplace(cost.executeBytes, i);
            if (!inserted && cost.executeCycles() < all[it->second].cost.executeCycles())
                it->second = i;
        }
        std::vector<std::size_t> front;
        for (const auto& [bytes, i] : fastestBySize) {
            if (front.empty() || all[i].cost.executeCycles() < all[front.back()].cost.executeCycles())
                front.push_back(i);
        }
        QCOMPARE(plans.pareto.size(), front.size());
        const std::size_t V = input.expr.operands.size();
        for (std::size_t k = 0; k < front.size(); ++k) {
            const Plan& plan = plans.plans[plans.pareto[k]];
            QCOMPARE(plan.spatial, all[front[k]].spatial);
            for (std::size_t d = 0; d < plan.spatial.size(); ++d) {
                for (std::size_t v = 0; v < V; ++v)
                    QCOMPARE(plan.temporal[d][v], all[front[k]].temporal[d * V + v]);
            }
        }

        // Table: for each front plan and preload size, the fastest compatible preload plan.
        const test::CountingTileCost cost;
        const cost::TransferCost transfer = test::simpleTransfer();
        const detail::ExprFacts facts = detail::makeExprFacts(input, settings);
        detail::PlanEvaluator evaluator(facts, settings, cost, transfer);
        std::map<std::pair<std::int64_t, std::int64_t>, double> best;
        for (std::size_t h : front) {
            const WalkedPlan& hot = all[h];
            std::vector<std::int64_t> tile;
            for (std::size_t d = 0; d < hot.spatial.size(); ++d)
                tile.push_back((input.expr.dimExtents[d] + hot.spatial[d] - 1) / hot.spatial[d]);
            for (const WalkedPlan& cold : all) {
                if (cold.spatial != hot.spatial || cold.cost.preloadBytes > hot.cost.executeBytes)
                    continue;
                bool compatible = true;
                for (std::size_t i = 0; i < cold.temporal.size(); ++i)
                    compatible = compatible && cold.temporal[i] % hot.temporal[i] == 0;
                if (!compatible)
                    continue;
                evaluator.measure(tile.data(), cold.temporal.data());
                const double total
                    = hot.cost.executeCycles() + evaluator.warmupCycles(cold.temporal.data(), hot.temporal.data());
                const auto key = std::make_pair(cold.cost.preloadBytes, hot.cost.executeBytes);
                auto [it, inserted] = best.try_emplace(key, total);
                if (!inserted)
                    it->second = std::min(it->second, total);
            }
        }
        QCOMPARE(plans.table.size(), best.size());
        std::size_t i = 0;
        for (const auto& [key, total] : best) {
            QCOMPARE(plans.table[i].preloadBytes, key.first);
            QCOMPARE(plans.table[i].executeBytes, key.second);
            QCOMPARE(plans.table[i].totalCycles, total);
            ++i;
        }
    }
};

QTEST_GUILESS_MAIN(TestPartitionPlans)
#include "tst_partition_plans.moc"
