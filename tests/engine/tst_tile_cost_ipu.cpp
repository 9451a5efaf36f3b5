// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>

#include <cstdint>
#include <vector>

#include "engine/chip/presets.h"
#include "engine/cost/ipu_mk2_cost.h"
#include "engine/cost/tile_cost.h"

using elk::cost::IpuMk2CostModel;
using elk::cost::TransferCost;
using elk::model::Axis;
using elk::model::DType;
using elk::model::Operand;
using elk::model::OpKind;
using elk::model::TensorExpr;

using Extents = std::vector<std::int64_t>;
Q_DECLARE_METATYPE(TensorExpr)

namespace {

Operand over(std::initializer_list<int> dims, DType dtype = DType::F16)
{
    Operand operand;
    operand.dtype = dtype;
    for (int dim : dims)
        operand.axes.push_back(Axis::loop(dim));
    return operand;
}

TensorExpr make(OpKind kind, Extents extents, std::vector<Operand> operands)
{
    return TensorExpr { kind, std::move(extents), std::move(operands) };
}

/// [b..., m, k, n] with out[b, m, n] = A[b, m, k] · B[b, k, n].
TensorExpr batchedMatmul(std::int64_t b, std::int64_t m, std::int64_t k, std::int64_t n, DType dtype = DType::F16)
{
    return make(OpKind::MatMul, { b, m, k, n },
        { over({ 0, 1, 3 }, dtype), over({ 0, 1, 2 }, dtype), over({ 0, 2, 3 }, dtype) });
}

TransferCost transfer()
{
    TransferCost cost;
    cost.linkBytesPerCycle = 4;
    cost.syncCycles = 118;
    return cost;
}

/// FLOPs of the whole of `expr` restricted to `tile`, by the model's own rule.
double tileFlops(TensorExpr expr, const Extents& tile)
{
    expr.dimExtents = tile;
    return double(elk::model::flopCount(expr));
}

} // namespace

class TestTileCostIpu : public QObject {
    Q_OBJECT

private slots:
    void handComputedCycles_data()
    {
        QTest::addColumn<TensorExpr>("expr");
        QTest::addColumn<double>("expected");

        // 2·12·⌈6/6⌉⌈16/16⌉⌈16/16⌉ + 514·1·1 + 113·1 + 173
        QTest::addRow("matmul m=6 k=16 n=16: one AMP block") << batchedMatmul(1, 6, 16, 16) << 824.0;
        // Loop dims in (m, n, k) order, as einstein Dots come: k found by use, not by position.
        QTest::addRow("matmul dims ordered m,n,k")
            << make(OpKind::MatMul, { 6, 16, 16 }, { over({ 0, 1 }), over({ 0, 2 }), over({ 2, 1 }) }) << 824.0;
        // n = 128 > m = 64 → swap: 2·(24·⌈128/6⌉·2·4 + 514·2·4 + 113·4 + 173) = 2·8961
        QTest::addRow("matmul b=2 m=64 k=32 n=128 swaps m and n") << batchedMatmul(2, 64, 32, 128) << 17922.0;
        // n = 100 > m = 20 → swap: 24·17·1·2 + 514·2 + 113·2 + 173
        QTest::addRow("matmul m=20 k=16 n=100 swaps") << batchedMatmul(1, 20, 16, 100) << 2243.0;
        // f32: blocks of 32/4 = 8: 24·1·2·2 + 514·2·2 + 113·2 + 173
        QTest::addRow("matmul f32 uses blocks of 8") << batchedMatmul(1, 6, 16, 16, DType::F32) << 2551.0;
        // Attention scores Q[b,h,q,d]·K[b,h,kv,d]: k = d, m = q = 1, n = kv = 64 → swap; b = 2·4.
        QTest::addRow("matmul attention scores (k is the shared last axis)")
            << make(OpKind::MatMul, { 2, 4, 1, 64, 128 },
                   { over({ 0, 1, 2, 3 }), over({ 0, 1, 2, 4 }), over({ 0, 1, 3, 4 }) })
            << 8.0 * (24 * 11 * 8 * 1 + 514 * 8 + 113 + 173);
        // Conv as its im2col matmul: m = n·oh·ow = 16, k = ic·kh·kw = 144, n = oc = 16.
        QTest::addRow("conv as im2col matmul") << make(OpKind::Conv, { 1, 16, 4, 4, 16, 3, 3 },
            { over({ 0, 1, 2, 3 }),
                Operand { { Axis::loop(0), Axis::loop(4), Axis::window(2, 5, 1), Axis::window(3, 6, 1) }, DType::F16,
                    elk::model::TensorRole::Activation },
                over({ 1, 4, 5, 6 }) }) << double(24 * 3 * 9 * 1 + 514 * 9 + 113 + 173);

        QTest::addRow("elementwise 100 elements: 0.75·Pe + 290")
            << make(OpKind::Elementwise, { 100 }, { over({ 0 }), over({ 0 }), over({ 0 }) }) << 365.0;
        QTest::addRow("elementwise 16432 elements: capped at 8517")
            << make(OpKind::Elementwise, { 16432 }, { over({ 0 }), over({ 0 }), over({ 0 }) }) << 8517.0;
        QTest::addRow("elementwise 16433 elements: 0.5·Pe + 300")
            << make(OpKind::Elementwise, { 16433 }, { over({ 0 }), over({ 0 }), over({ 0 }) }) << 8516.5;
        QTest::addRow("elementwise 20000 elements")
            << make(OpKind::Elementwise, { 100, 200 }, { over({ 0, 1 }), over({ 0, 1 }), over({ 1 }) }) << 10300.0;
        QTest::addRow("elementwise of 3 inputs: two binary passes")
            << make(OpKind::Elementwise, { 100 }, { over({ 0 }), over({ 0 }), over({ 0 }), over({ 0 }) }) << 730.0;
        QTest::addRow("elementwise f32 counts double elements") << make(
            OpKind::Elementwise, { 100 }, { over({ 0 }, DType::F32), over({ 0 }, DType::F32), over({ 0 }, DType::F32) })
                                                                << 440.0;
        QTest::addRow("pool: elementwise formula over all iterations")
            << make(OpKind::Pool, { 10, 10 }, { over({ 0 }), over({ 0, 1 }) }) << 365.0;
        QTest::addRow("unary 1000 elements: 0.5·Pe + 200")
            << make(OpKind::Unary, { 1000 }, { over({ 0 }), over({ 0 }) }) << 700.0;

        // O = 3 → ladder 4; x = 4·10 = 40 ≤ 480 → min(295.25, 1.5·40 + 175)
        QTest::addRow("reduce O=3 R=10") << make(OpKind::Reduce, { 3, 10 }, { over({ 0 }), over({ 0, 1 }) }) << 235.0;
        QTest::addRow("reduce O=4 R=100: capped at 295.25")
            << make(OpKind::Reduce, { 4, 100 }, { over({ 0 }), over({ 0, 1 }) }) << 295.25;
        // O = 50 → ladder 96; x = 96·20 = 1920 → 0.25·1920 + 175
        QTest::addRow("reduce O=50 R=20: ladder 96")
            << make(OpKind::Reduce, { 50, 20 }, { over({ 0 }), over({ 0, 1 }) }) << 655.0;
        // rows 4 of 64: 2 reduces (x = 4·64 = 256 → 295.25) + 2 elementwise (0.75·256 + 290)
        QTest::addRow("softmax: 2 reduce + 2 elementwise passes")
            << make(OpKind::Softmax, { 4, 64 }, { over({ 0, 1 }), over({ 0, 1 }) }) << 2 * 295.25 + 2 * 482.0;
        QTest::addRow("normalization with scale and shift: 2 reduce + 4 elementwise passes")
            << make(OpKind::Normalization, { 4, 64 }, { over({ 0, 1 }), over({ 0, 1 }), over({ 1 }), over({ 1 }) })
            << 2 * 295.25 + 4 * 482.0;

        // total = 10·64 gathered elements, idx = 10: 300 + ⌈640/10/2⌉·10 + 10
        QTest::addRow("gather 10 rows of 64")
            << make(OpKind::Gather, { 10, 64, 1000 }, { over({ 0, 1 }), over({ 2, 1 }), over({ 0 }, DType::I32) })
            << 630.0;
        // 100 f16 elements = 200 bytes at 4 B/cycle, plus one sync
        QTest::addRow("slice: transfer of the output plus a sync")
            << make(OpKind::Slice, { 100 }, { over({ 0 }), over({ 0 }) }) << 168.0;
        // f8 at 32/1 = 32-wide blocks would beat 128 flop/cycle: clamped to FLOPs / 128.
        QTest::addRow("f8 matmul clamped at the fp16 peak")
            << batchedMatmul(1, 60, 1024, 1024, DType::F8E4M3) << 2.0 * 60 * 1024 * 1024 / 128;
    }

    void handComputedCycles()
    {
        QFETCH(TensorExpr, expr);
        QFETCH(double, expected);
        const IpuMk2CostModel model(transfer());
        QCOMPARE(model.tileCycles(expr, expr.dimExtents), expected);
    }

    void reduceLadder_data()
    {
        QTest::addColumn<qint64>("outputs");
        QTest::addColumn<qint64>("rounded");
        const qint64 rows[][2] = { { 1, 1 }, { 2, 2 }, { 3, 4 }, { 5, 8 }, { 9, 12 }, { 12, 12 }, { 13, 16 },
            { 17, 24 }, { 24, 24 }, { 25, 48 }, { 49, 96 }, { 97, 144 } };
        for (const auto& row : rows)
            QTest::addRow("%lld outputs", row[0]) << row[0] << row[1];
    }

    void reduceLadder()
    {
        QFETCH(qint64, outputs);
        QFETCH(qint64, rounded);
        QCOMPARE(qint64(elk::cost::ipuReduceOutputLadder(outputs)), rounded);
    }

    void partialSums_data()
    {
        QTest::addColumn<qint64>("outputs");
        QTest::addColumn<qint64>("partials");
        QTest::addColumn<double>("expected");
        QTest::addRow("2 partials: one elementwise add") << qint64(100) << qint64(2) << 365.0;
        // ladder(10) = 12, x = 12·4 = 48 → 1.5·48 + 175
        QTest::addRow("4 partials: reduce with batch 4") << qint64(10) << qint64(4) << 247.0;
        QTest::addRow("1 partial: nothing to add") << qint64(10) << qint64(1) << 0.0;
    }

    void partialSums()
    {
        QFETCH(qint64, outputs);
        QFETCH(qint64, partials);
        QFETCH(double, expected);
        QCOMPARE(IpuMk2CostModel(transfer()).partialSumCycles(outputs, partials, DType::F16), expected);
    }

    // A latency may never beat the chip peak: for every kind, dtype and a sweep of tiles,
    // cycles >= FLOPs / 128 (the fp16 matmul peak of a tile, the highest of any kind).
    void neverFasterThanPeak()
    {
        const IpuMk2CostModel model(transfer());
        std::uint64_t state = 12345;
        const auto next = [&](std::int64_t max) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return std::int64_t((state >> 33) % std::uint64_t(max)) + 1;
        };
        int checked = 0;
        for (DType dtype : { DType::F16, DType::BF16, DType::F32, DType::F8E4M3, DType::I8, DType::F64 }) {
            for (int i = 0; i < 200; ++i) {
                const std::int64_t b = next(4), m = next(512), k = next(2048), n = next(2048);
                const TensorExpr matmul = batchedMatmul(b, m, k, n, dtype);
                const double cycles = model.tileCycles(matmul, matmul.dimExtents);
                QVERIFY2(cycles >= tileFlops(matmul, matmul.dimExtents) / 128,
                    qPrintable(QString::fromStdString(elk::model::toString(matmul))));
                const TensorExpr reduce = make(OpKind::Reduce, { m, k }, { over({ 0 }, dtype), over({ 0, 1 }, dtype) });
                QVERIFY(model.tileCycles(reduce, reduce.dimExtents) >= tileFlops(reduce, reduce.dimExtents) / 128);
                const TensorExpr softmax
                    = make(OpKind::Softmax, { m, k }, { over({ 0, 1 }, dtype), over({ 0, 1 }, dtype) });
                QVERIFY(model.tileCycles(softmax, softmax.dimExtents) >= tileFlops(softmax, softmax.dimExtents) / 128);
                checked += 3;
            }
        }
        QCOMPARE(checked, 3600);
    }

    void tilesSmallerThanTheExpression()
    {
        // The tile, not the expression's extents, decides: a 6×16×16 tile of a big matmul.
        const TensorExpr big = batchedMatmul(1, 600, 1600, 1600);
        const Extents tile { 1, 6, 16, 16 };
        QCOMPARE(IpuMk2CostModel(transfer()).tileCycles(big, tile), 824.0);
    }

    void makeFromPreset()
    {
        const auto chip = elk::chip::findBuiltinPreset("ipu-mk2-hbm");
        QVERIFY(chip.has_value());
        const auto result = elk::cost::makeTileCostModel(*chip);
        QVERIFY2(result.ok(), result.error.c_str());
        QCOMPARE(result.model->name(), std::string("ipu-mk2"));
        // The slice price follows the chip's link bandwidth and sync cost, not constants.
        const TensorExpr slice = make(OpKind::Slice, { 100 }, { over({ 0 }), over({ 0 }) });
        const TransferCost fromChip = TransferCost::fromChip(*chip);
        QCOMPARE(result.model->tileCycles(slice, slice.dimExtents), 200 / fromChip.linkBytesPerCycle + 118);
        // The version changes with the transfer costs it prices slices with.
        QVERIFY(result.model->version() != IpuMk2CostModel(transfer()).version());
        QCOMPARE(IpuMk2CostModel(transfer()).version(), IpuMk2CostModel(transfer()).version());
    }
};

QTEST_GUILESS_MAIN(TestTileCostIpu)
#include "tst_tile_cost_ipu.moc"
