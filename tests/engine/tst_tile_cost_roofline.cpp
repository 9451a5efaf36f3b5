// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>

#include <cstdint>
#include <vector>

#include "engine/chip/presets.h"
#include "engine/cost/roofline_cost.h"

using elk::cost::RooflineCostModel;
using elk::model::Axis;
using elk::model::DType;
using elk::model::Operand;
using elk::model::OpKind;
using elk::model::TensorExpr;

Q_DECLARE_METATYPE(TensorExpr)
Q_DECLARE_METATYPE(DType)

namespace {

Operand over(std::initializer_list<int> dims, DType dtype)
{
    Operand operand;
    operand.dtype = dtype;
    for (int dim : dims)
        operand.axes.push_back(Axis::loop(dim));
    return operand;
}

TensorExpr matmul(std::int64_t m, std::int64_t k, std::int64_t n, DType dtype)
{
    return TensorExpr { OpKind::MatMul, { m, k, n },
        { over({ 0, 2 }, dtype), over({ 0, 1 }, dtype), over({ 1, 2 }, dtype) } };
}

elk::chip::RooflineTileCost spec(double fp8 = 256)
{
    elk::chip::RooflineTileCost roofline;
    roofline.peakFlopPerCycleFp32 = 64;
    roofline.peakFlopPerCycleFp16 = 128;
    roofline.peakFlopPerCycleFp8 = fp8;
    roofline.sramBytesPerCycle = 64;
    roofline.opOverheadCycles = 10;
    return roofline;
}

} // namespace

class TestTileCostRoofline : public QObject {
    Q_OBJECT

private slots:
    void tileCycles_data()
    {
        QTest::addColumn<TensorExpr>("expr");
        QTest::addColumn<double>("fp8Peak");
        QTest::addColumn<double>("expected");
        // 64³ matmul: 524288 FLOPs; bytes = 3 · 4096 · element size
        QTest::addRow("f16 matmul is compute bound: 524288 / 128 + 10")
            << matmul(64, 64, 64, DType::F16) << 256.0 << 4106.0;
        QTest::addRow("bf16 runs at the fp16 peak") << matmul(64, 64, 64, DType::BF16) << 256.0 << 4106.0;
        QTest::addRow("f32 at the fp32 peak: 524288 / 64 + 10") << matmul(64, 64, 64, DType::F32) << 256.0 << 8202.0;
        QTest::addRow("f8 at the fp8 peak: 524288 / 256 + 10") << matmul(64, 64, 64, DType::F8E4M3) << 256.0 << 2058.0;
        QTest::addRow("i8 at the fp8 peak") << matmul(64, 64, 64, DType::I8) << 256.0 << 2058.0;
        QTest::addRow("f8 without fp8 units runs at fp16") << matmul(64, 64, 64, DType::F8E5M2) << 0.0 << 4106.0;
        QTest::addRow("f64 at half the fp32 peak: 524288 / 32 + 10")
            << matmul(64, 64, 64, DType::F64) << 256.0 << 16394.0;
        // 1000-element add: 1000 FLOPs / 128 = 7.8 < 3 · 2000 bytes / 64 = 93.75
        QTest::addRow("elementwise add is memory bound") << TensorExpr { OpKind::Elementwise, { 1000 },
            { over({ 0 }, DType::F16), over({ 0 }, DType::F16), over({ 0 }, DType::F16) } }
                                                         << 256.0 << 103.75;
        // A gather does no arithmetic: output 640·2 + table tile 10·... bytes only.
        QTest::addRow("gather: bytes only") << TensorExpr { OpKind::Gather, { 10, 64, 1 },
            { over({ 0, 1 }, DType::F16), over({ 2, 1 }, DType::F16), over({ 0 }, DType::I32) } }
                                            << 256.0 << (1280.0 + 128 + 40) / 64 + 10;
    }

    void tileCycles()
    {
        QFETCH(TensorExpr, expr);
        QFETCH(double, fp8Peak);
        QFETCH(double, expected);
        QCOMPARE(RooflineCostModel(spec(fp8Peak)).tileCycles(expr, expr.dimExtents), expected);
    }

    void partialSums_data()
    {
        QTest::addColumn<qint64>("outputs");
        QTest::addColumn<qint64>("partials");
        QTest::addColumn<DType>("dtype");
        QTest::addColumn<double>("expected");
        // reads 4·1000, writes 1000 f16 values = 10000 bytes / 64; 3000 adds / 128 is less
        QTest::addRow("4 partials of 1000 f16") << qint64(1000) << qint64(4) << DType::F16 << 10000.0 / 64 + 10;
        QTest::addRow("2 partials of 1000 f32") << qint64(1000) << qint64(2) << DType::F32 << 12000.0 / 64 + 10;
        QTest::addRow("a single partial costs nothing") << qint64(1000) << qint64(1) << DType::F16 << 0.0;
    }

    void partialSums()
    {
        QFETCH(qint64, outputs);
        QFETCH(qint64, partials);
        QFETCH(DType, dtype);
        QFETCH(double, expected);
        QCOMPARE(RooflineCostModel(spec()).partialSumCycles(outputs, partials, dtype), expected);
    }

    void smallerTileCostsLess()
    {
        const RooflineCostModel model(spec());
        const TensorExpr big = matmul(256, 256, 256, DType::F16);
        const std::vector<std::int64_t> half { 128, 256, 256 };
        QCOMPARE(model.tileCycles(big, half), 2.0 * 128 * 256 * 256 / 128 + 10);
        QVERIFY(model.tileCycles(big, half) < model.tileCycles(big, big.dimExtents));
    }

    void makeFromPresetAndVersion()
    {
        const auto chip = elk::chip::findBuiltinPreset("teaching-mesh-4x4");
        QVERIFY(chip.has_value());
        const auto result = elk::cost::makeTileCostModel(*chip);
        QVERIFY2(result.ok(), result.error.c_str());
        QCOMPARE(result.model->name(), std::string("roofline"));
        QCOMPARE(result.model->version(), RooflineCostModel(chip->tileCost.roofline).version());
        elk::chip::RooflineTileCost faster = chip->tileCost.roofline;
        faster.peakFlopPerCycleFp16 *= 2;
        QVERIFY(RooflineCostModel(faster).version() != result.model->version());
    }
};

QTEST_GUILESS_MAIN(TestTileCostRoofline)
#include "tst_tile_cost_roofline.moc"
