// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Artifact parity: the plan search against the counts elk-reference.md derives from the artifact
// (§2.3, §2.7, §9). The measured latencies: tst_artifact_parity_points.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/partition/artifact_search.h"
#include "engine/schedule/artifact_schedulers.h"

using namespace elk;
using partition::artifact::Expr;
using partition::artifact::OpType;

namespace {

/// The QKV projection of llama2-13 at batch 32 as the artifact's parser leaves it: dims
/// [batch, out, in], output [batch, out], activation [batch, in] (on chip), weight [in, out].
Expr qkvDot()
{
    Expr expr;
    expr.type = OpType::MatMul;
    expr.dims = { 32, 15360, 5120 };
    expr.tensors = { { { 0 }, { 1 } }, { { 0 }, { 2 } }, { { 2 }, { 1 } } };
    expr.onchip = { true, false };
    return expr;
}

/// Its decode attention scores: [batch, heads, q = 1, kv, head dim], K from HBM.
Expr kvBatchMatMul()
{
    Expr expr;
    expr.type = OpType::MatMul;
    expr.dims = { 32, 40, 1, 2048, 128 };
    expr.tensors = { { { 0 }, { 1 }, { 2 }, { 3 } }, { { 0 }, { 1 }, { 2 }, { 4 } }, { { 0 }, { 1 }, { 4 }, { 3 } } };
    expr.onchip = { true, false };
    return expr;
}

Expr dot(std::int64_t out, std::int64_t in)
{
    Expr expr = qkvDot();
    expr.dims = { 32, out, in };
    return expr;
}

Expr elementwise(std::int64_t width, bool secondOnchip)
{
    Expr expr;
    expr.type = OpType::Element;
    expr.dims = { 32, width };
    expr.tensors = { { { 0 }, { 1 } }, { { 0 }, { 1 } }, { { 0 }, { 1 } } };
    expr.onchip = { true, secondOnchip };
    return expr;
}

/// A small decode program of `layers` identical layers: up-projection, an add of a residual read from
/// HBM (as the artifact reloads it), down-projection, a scale — plus the searches it needs.
struct SmallProgram {
    std::vector<partition::artifact::ExprPlans> plans;
    std::vector<schedule::artifact::ParityOp> ops;
    std::vector<Expr> exprs;
};

SmallProgram smallProgram(int layers, std::int64_t cores)
{
    SmallProgram program;
    program.exprs = { dot(4096, 1024), elementwise(4096, false), dot(1024, 4096), elementwise(1024, true) };
    NullRunControl control;
    partition::artifact::SearchSettings settings;
    settings.cores = cores;
    for (const Expr& expr : program.exprs)
        program.plans.push_back(partition::artifact::searchExpr(expr, settings, control));
    for (int layer = 0; layer < layers; ++layer) {
        for (int k = 0; k < 4; ++k) {
            schedule::artifact::ParityOp op;
            op.plans = &program.plans[std::size_t(k)];
            op.exprKey = k;
            op.matmul = program.exprs[std::size_t(k)].type == OpType::MatMul;
            op.dims = program.exprs[std::size_t(k)].dims;
            program.ops.push_back(op);
        }
    }
    return program;
}

} // namespace

class TestArtifactParity : public QObject {
    Q_OBJECT

private slots:
    void searchCounts_data()
    {
        QTest::addColumn<qint64>("cores");
        QTest::addColumn<qint64>("dotLeaves");
        QTest::addColumn<qint64>("kvLeaves");
        QTest::addColumn<int>("coldSizes");
        QTest::addColumn<int>("tableEntries");
        // elk-reference.md §2.3 and §2.7 (derived by running the artifact's code).
        QTest::newRow("1472 cores") << qint64(1472) << qint64(9532) << qint64(34629) << 611 << 21;
        QTest::newRow("5888 cores") << qint64(5888) << qint64(40857) << qint64(139013) << 1969 << 41;
    }

    void searchCounts()
    {
        QFETCH(qint64, cores);
        QFETCH(qint64, dotLeaves);
        QFETCH(qint64, kvLeaves);
        QFETCH(int, coldSizes);
        QFETCH(int, tableEntries);
        NullRunControl control;
        partition::artifact::SearchSettings settings;
        settings.cores = cores;
        const auto dot = partition::artifact::searchExpr(qkvDot(), settings, control);
        QVERIFY2(dot.ok(), dot.error.c_str());
        QCOMPARE(dot.spatialLeaves, dotLeaves);
        QCOMPARE(dot.coldSizes, coldSizes);
        QCOMPARE(int(dot.table.size()), tableEntries);
        const auto kv = partition::artifact::searchExpr(kvBatchMatMul(), settings, control);
        QVERIFY2(kv.ok(), kv.error.c_str());
        QCOMPARE(kv.spatialLeaves, kvLeaves);
        if (cores == 1472) {
            // "9 preload sizes, min preload 106 880 B/core, fastest entry 47 546 cycles" (§2.7).
            std::set<std::int64_t> cold;
            double fastest = INFINITY;
            for (const auto& entry : dot.table) {
                cold.insert(entry.coldBytes);
                fastest = std::min(fastest, entry.totalCycles);
            }
            QCOMPARE(int(cold.size()), 9);
            QCOMPARE(dot.minColdBytes(), std::int64_t(106880));
            QCOMPARE(std::round(fastest), 47546.0);
        }
    }

    void tableIsSortedAndFits()
    {
        NullRunControl control;
        partition::artifact::SearchSettings settings;
        settings.cores = 1472;
        const auto dot = partition::artifact::searchExpr(qkvDot(), settings, control);
        QVERIFY(dot.ok());
        for (std::size_t i = 0; i < dot.table.size(); ++i) {
            const auto& entry = dot.table[i];
            QVERIFY(entry.coldBytes <= entry.hotBytes);
            QVERIFY(entry.hotBytes <= settings.sramBytesPerCore);
            QVERIFY(entry.totalCycles >= entry.compCycles + entry.commCycles);
            if (i > 0) {
                const auto& previous = dot.table[i - 1];
                QVERIFY(std::pair(previous.coldBytes, previous.hotBytes) < std::pair(entry.coldBytes, entry.hotBytes));
            }
        }
        // The dimension scramble is a switch: the fixed enumeration finds other plans.
        settings.scrambledTemporal = false;
        const auto fixed = partition::artifact::searchExpr(qkvDot(), settings, control);
        QVERIFY(fixed.ok());
        QVERIFY(fixed.plansEvaluated != dot.plansEvaluated);
    }

    void layerBlockAndOrders()
    {
        const SmallProgram program = smallProgram(4, 1472);
        const auto block = schedule::artifact::detectLayerBlock(program.ops, 4);
        QCOMPARE(block.prefix, 0);
        QCOMPARE(block.length, 4);
        // Two matmul-anchored groups per layer with different shapes: the identity and the swap.
        const auto orders = schedule::artifact::reducedPreloadOrders(program.ops, 4, 4);
        QCOMPARE(int(orders.size()), 2);
        for (const auto& order : orders) {
            std::vector<int> sorted = order;
            std::sort(sorted.begin(), sorted.end());
            for (int i = 0; i < int(sorted.size()); ++i)
                QCOMPARE(sorted[std::size_t(i)], i);
        }
        // Groups end at a matmul and the ops before one travel with it; trailing ops join the last group:
        // {up} and {add, down, scale}. Swapped, every layer starts with the add.
        QCOMPARE(orders[1][0], 1);
        QCOMPARE(orders[1][3], 0);
        QCOMPARE(orders[1][4], 5);
        // Past the limit (a wrong layer count makes a "layer" of many groups): none, and why.
        std::string error;
        QVERIFY(schedule::artifact::reducedPreloadOrders(program.ops, 4, 4, &error, 1).empty());
        QVERIFY2(error.find("--layers") != std::string::npos, error.c_str());
        error.clear();
        QCOMPARE(int(schedule::artifact::reducedPreloadOrders(program.ops, 4, 4, &error, 2).size()), 2);
        QVERIFY(error.empty());
    }

    void ordersAreTheDistinctLabelSequences_data()
    {
        QTest::addColumn<std::vector<int>>("labels"); // one matmul per group, labelled by its shape
        QTest::addColumn<int>("expected"); // -1: count every permutation here (an independent oracle)
        QTest::newRow("8 shapes") << std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7 } << -1;
        QTest::newRow("llama2-13 at 1472 cores: KV matmuls halved")
            << std::vector<int> { 0, 1, 1, 2, 2, 3, 4, 5 } << -1;
        QTest::newRow("9 groups, four equal") << std::vector<int> { 0, 1, 1, 1, 1, 2, 3, 4, 5 } << -1;
        // opt-30 at b64 / KV 4096: each KV matmul split in four; 10 773 is what an enumeration written
        // apart from this one (Python, over the 12! permutations with the bound) counts. More permutations
        // than the 20 000-order limit's old guard allowed: this point had no Elk-Full schedule before.
        QTest::newRow("opt-30 at b64 KV 4096: KV matmuls in quarters")
            << std::vector<int> { 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 5 } << 10773;
    }

    void ordersAreTheDistinctLabelSequences()
    {
        QFETCH(std::vector<int>, labels);
        QFETCH(int, expected);
        const int groups = int(labels.size());
        std::vector<schedule::artifact::ParityOp> ops(labels.size());
        for (int g = 0; g < groups; ++g) {
            ops[std::size_t(g)].exprKey = g;
            ops[std::size_t(g)].matmul = true;
            ops[std::size_t(g)].dims = { 32, 100 + labels[std::size_t(g)], 128 };
        }
        constexpr int kDisplacement = 4;
        if (expected < 0) {
            std::set<std::vector<int>> sequences;
            std::vector<int> perm(labels.size());
            for (int g = 0; g < groups; ++g)
                perm[std::size_t(g)] = g;
            do {
                bool within = true;
                for (int p = 0; p < groups && within; ++p)
                    within = std::abs(perm[std::size_t(p)] - p) <= kDisplacement;
                if (within) {
                    std::vector<int> sequence;
                    for (int g : perm)
                        sequence.push_back(labels[std::size_t(g)]);
                    sequences.insert(sequence);
                }
            } while (std::next_permutation(perm.begin(), perm.end()));
            expected = int(sequences.size());
        }
        std::string error;
        const auto orders = schedule::artifact::reducedPreloadOrders(ops, 1, kDisplacement, &error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(int(orders.size()), expected);
        QCOMPARE(orders.front(), [&] {
            std::vector<int> identity(labels.size());
            for (int g = 0; g < groups; ++g)
                identity[std::size_t(g)] = g;
            return identity;
        }());
        std::set<std::vector<int>> seen;
        for (const auto& order : orders) {
            std::vector<int> sequence;
            for (int p = 0; p < groups; ++p) {
                QVERIFY(std::abs(order[std::size_t(p)] - p) <= kDisplacement);
                sequence.push_back(labels[std::size_t(order[std::size_t(p)])]);
            }
            QVERIFY(seen.insert(sequence).second);
        }
    }

    void schedulesKeepTheirRules_data()
    {
        QTest::addColumn<int>("design");
        for (schedule::Design design : schedule::kAllDesigns)
            QTest::newRow(schedule::toString(design)) << int(design);
    }

    void schedulesKeepTheirRules()
    {
        QFETCH(int, design);
        const SmallProgram program = smallProgram(4, 1472);
        for (const auto& plans : program.plans)
            QVERIFY2(plans.ok(), plans.error.c_str());
        schedule::artifact::ParityKnobs knobs;
        knobs.cores = 1472;
        knobs.hbmMiBPerMs = 4000;
        knobs.layers = 4;
        NullRunControl control;
        const auto result = schedule::artifact::scheduleParity(program.ops, knobs, schedule::Design(design), control);
        QVERIFY2(result.schedule, result.error.c_str());
        const auto& s = *result.schedule;
        const std::size_t n = program.ops.size();
        QCOMPARE(s.execute.size(), n);
        QCOMPARE(s.preloadOrder.size(), n);
        const double eps = 1e-6;
        QCOMPARE(s.execute.back().endCycles, 0.0);
        double hbmFloor = 0, computeFloor = 0;
        for (std::size_t i = 0; i < n; ++i) {
            QVERIFY(s.preload[i].endCycles <= s.execute[i].startCycles + eps); // loaded before it runs
            if (i + 1 < n)
                QVERIFY(s.execute[i].endCycles <= s.execute[i + 1].startCycles + eps); // one op at a time
            const auto& table = program.ops[i].plans->table;
            hbmFloor += double(table.front().coldBytes) * double(knobs.cores) * knobs.cyclesPerMs
                / (double(1 << 20) * knobs.hbmMiBPerMs);
            double fastest = INFINITY;
            for (const auto& entry : table)
                fastest = std::min(fastest, entry.totalCycles);
            computeFloor += fastest;
        }
        for (std::size_t p = 0; p + 1 < n; ++p) { // preloads one after another, in preload order
            const auto& a = s.preload[std::size_t(s.preloadOrder[p])];
            const auto& b = s.preload[std::size_t(s.preloadOrder[p + 1])];
            QVERIFY(a.endCycles <= b.startCycles + eps);
        }
        QCOMPARE(s.latencyCycles, -s.preload[std::size_t(s.preloadOrder.front())].startCycles);
        QVERIFY2(s.latencyCycles >= hbmFloor * (1 - 1e-9) && s.latencyCycles >= computeFloor * (1 - 1e-9),
            qPrintable(
                u"latency %1, HBM floor %2, compute floor %3"_qs.arg(s.latencyCycles).arg(hbmFloor).arg(computeFloor)));
        // Deterministic: the same inputs give the same schedule, bit for bit.
        const auto again = schedule::artifact::scheduleParity(program.ops, knobs, schedule::Design(design), control);
        QVERIFY(again.schedule);
        QCOMPARE(again.schedule->latencyCycles, s.latencyCycles);
        QCOMPARE(again.schedule->coldHot, s.coldHot);
    }

    /// The bound on Elk-Full's order search changes nothing but the work: the same latency, preload
    /// order and sizes as running every order to the end.
    void boundedOrderSearchIsExact_data()
    {
        QTest::addColumn<double>("hbmMiBPerMs");
        for (double hbm : { 1000.0, 4000.0, 16000.0, 64000.0 })
            QTest::newRow(qPrintable(QString::number(hbm))) << hbm;
    }

    void boundedOrderSearchIsExact()
    {
        QFETCH(double, hbmMiBPerMs);
        const SmallProgram program = smallProgram(4, 1472);
        schedule::artifact::ParityKnobs knobs;
        knobs.cores = 1472;
        knobs.hbmMiBPerMs = hbmMiBPerMs;
        knobs.layers = 4;
        NullRunControl control;
        const auto bounded = schedule::artifact::scheduleParity(program.ops, knobs, schedule::Design::ElkFull, control);
        knobs.boundOrderSearch = false;
        const auto exhaustive
            = schedule::artifact::scheduleParity(program.ops, knobs, schedule::Design::ElkFull, control);
        QVERIFY2(bounded.schedule && exhaustive.schedule, bounded.error.c_str());
        QCOMPARE(bounded.schedule->latencyCycles, exhaustive.schedule->latencyCycles);
        QCOMPARE(bounded.schedule->preloadOrder, exhaustive.schedule->preloadOrder);
        QCOMPARE(bounded.schedule->coldHot, exhaustive.schedule->coldHot);
        QCOMPARE(bounded.schedule->note, exhaustive.schedule->note);
        QCOMPARE(exhaustive.schedule->ordersCutShort, std::int64_t(0));
        QCOMPARE(bounded.schedule->ordersTried, exhaustive.schedule->ordersTried);
        QVERIFY(bounded.schedule->validOrders + bounded.schedule->ordersCutShort <= bounded.schedule->ordersTried);
        if (hbmMiBPerMs >= 4000) // where the orders differ enough for the bound to stop one (so this tests it)
            QVERIFY(bounded.schedule->ordersCutShort > 0);
    }

    /// A convolution ([N, F, C, HO, WO, KH, KW], input axes (HO, KH) and (WO, KW)): its windows
    /// span HO + KH − 1 input rows, and its cost is the artifact's cap 0.0495 · flops + 2030 cycles.
    void convolutionWindows()
    {
        NullRunControl control;
        partition::artifact::SearchSettings settings;
        settings.cores = 1472;
        Expr conv;
        conv.type = partition::artifact::OpType::Conv;
        conv.dims = { 32, 64, 16, 56, 56, 3, 3 };
        conv.tensors
            = { { { 0 }, { 1 }, { 3 }, { 4 } }, { { 0 }, { 2 }, { 3, 5 }, { 4, 6 } }, { { 2 }, { 1 }, { 5 }, { 6 } } };
        conv.onchip = { true, false };
        const auto plans = partition::artifact::searchExpr(conv, settings, control);
        QVERIFY2(plans.ok(), plans.error.c_str());
        double fastest = INFINITY;
        for (const auto& entry : plans.table) {
            QVERIFY(entry.coldBytes <= settings.sramBytesPerCore && entry.hotBytes <= settings.sramBytesPerCore);
            fastest = std::min(fastest, entry.compCycles);
        }
        // All 1472 cores at most: at least flops / 1472 of the cap's per-flop rate, plus its constant.
        const double flops = 32.0 * 16 * 64 * 56 * 56 * 3 * 3;
        QVERIFY2(fastest >= 0.0495 * flops / 1472 + 2030, qPrintable(QString::number(fastest)));
        // The weights come from HBM: the smallest preload holds at least 1/1472 of them.
        QVERIFY(plans.minColdBytes() * 1472 >= 2 * 16 * 64 * 3 * 3);
    }

    void searchRejectsWhatItCannotPrice()
    {
        NullRunControl control;
        partition::artifact::SearchSettings settings;
        settings.cores = 1472;
        Expr conv = qkvDot();
        conv.tensors[1][0] = { 0, 1, 2 }; // an axis of three loop dims
        const auto result = partition::artifact::searchExpr(conv, settings, control);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.find("sliding window") != std::string::npos, result.error.c_str());
        settings.sramBytesPerCore = 1024; // nothing fits
        const auto tiny = partition::artifact::searchExpr(qkvDot(), settings, control);
        QVERIFY(!tiny.ok());
        QVERIFY2(tiny.error.find("fits") != std::string::npos, tiny.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestArtifactParity)
#include "tst_artifact_parity.moc"
