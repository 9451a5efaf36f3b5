// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Artifact parity: the plan search against the counts elk-reference.md derives from the artifact
// (§2.3, §2.7, §9). The measured latencies: tst_artifact_parity_points.
#include <QTest>

#include <cmath>
#include <set>

#include "engine/partition/artifact_search.h"

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

} // namespace

class TestArtifactParity : public QObject
{
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

    void searchRejectsWhatItCannotPrice()
    {
        NullRunControl control;
        partition::artifact::SearchSettings settings;
        settings.cores = 1472;
        Expr conv = qkvDot();
        conv.tensors[1][0] = { 0, 1 }; // a sliding-window axis
        const auto result = partition::artifact::searchExpr(conv, settings, control);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.find("sliding-window") != std::string::npos, result.error.c_str());
        settings.sramBytesPerCore = 1024; // nothing fits
        const auto tiny = partition::artifact::searchExpr(qkvDot(), settings, control);
        QVERIFY(!tiny.ok());
        QVERIFY2(tiny.error.find("fits") != std::string::npos, tiny.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestArtifactParity)
#include "tst_artifact_parity.moc"
