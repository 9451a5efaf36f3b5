// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// FLOP and byte counts, operand shapes and reduction dims of hand-built tensor expressions.
#include "engine/model/dtype.h"
#include "engine/model/graph.h"
#include "engine/model/tensor_expr.h"

#include <QTest>

using namespace elk::model;

namespace {

Operand operand(std::vector<Axis> axes, DType dtype = DType::F16, TensorRole role = TensorRole::Activation)
{
    return Operand { std::move(axes), dtype, role };
}

// out[m, n] += a[m, k] * b[k, n] with m = 2, n = 3, k = 4.
TensorExpr matmul2x3x4(DType out, DType a, DType b)
{
    return TensorExpr { OpKind::MatMul, { 2, 3, 4 },
        { operand({ Axis::loop(0), Axis::loop(1) }, out), operand({ Axis::loop(0), Axis::loop(2) }, a),
            operand({ Axis::loop(2), Axis::loop(1) }, b, TensorRole::Weight) } };
}

// dims n, f, c, ho, wo, kh, kw; out[n, f, ho, wo] += in[n, c, ho*s + kh, wo*s + kw] * w[c, f, kh, kw]
TensorExpr conv(std::int64_t stride)
{
    return TensorExpr { OpKind::Conv, { 1, 2, 3, 4, 4, 3, 3 },
        { operand({ Axis::loop(0), Axis::loop(1), Axis::loop(3), Axis::loop(4) }),
            operand({ Axis::loop(0), Axis::loop(2), Axis::window(3, 5, stride), Axis::window(4, 6, stride) }),
            operand({ Axis::loop(2), Axis::loop(1), Axis::loop(5), Axis::loop(6) }, DType::F16, TensorRole::Weight) } };
}

// A rows x cols tensor through an op of `kind` with `inputs` identical inputs.
TensorExpr rowwise(OpKind kind, std::int64_t rows, std::int64_t cols, int inputs)
{
    TensorExpr expr { kind, { rows, cols }, { operand({ Axis::loop(0), Axis::loop(1) }) } };
    for (int i = 0; i < inputs; ++i)
        expr.operands.push_back(operand({ Axis::loop(0), Axis::loop(1) }));
    return expr;
}

} // namespace

class TestGraphCosts : public QObject {
    Q_OBJECT

private slots:
    void dtypeBytesAndNames_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("bytes");
        QTest::addRow("f64") << int(DType::F64) << "f64" << 8;
        QTest::addRow("f32") << int(DType::F32) << "f32" << 4;
        QTest::addRow("f16") << int(DType::F16) << "f16" << 2;
        QTest::addRow("bf16") << int(DType::BF16) << "bf16" << 2;
        QTest::addRow("f8e4m3") << int(DType::F8E4M3) << "f8e4m3" << 1;
        QTest::addRow("f8e5m2") << int(DType::F8E5M2) << "f8e5m2" << 1;
        QTest::addRow("i64") << int(DType::I64) << "i64" << 8;
        QTest::addRow("i32") << int(DType::I32) << "i32" << 4;
        QTest::addRow("i16") << int(DType::I16) << "i16" << 2;
        QTest::addRow("i8") << int(DType::I8) << "i8" << 1;
        QTest::addRow("u8") << int(DType::U8) << "u8" << 1;
        QTest::addRow("bool stored as a byte") << int(DType::Bool) << "bool" << 1;
    }

    void dtypeBytesAndNames()
    {
        QFETCH(int, dtype);
        QFETCH(QString, name);
        QFETCH(int, bytes);
        const auto type = DType(dtype);
        QCOMPARE(bytesPerElement(type), bytes);
        QCOMPARE(QString::fromUtf8(toString(type)), name);
        QCOMPARE(dtypeFromString(name.toStdString()), std::optional<DType>(type));
    }

    void unknownDtypeNamesAreRejected()
    {
        QVERIFY(!dtypeFromString("F16"));
        QVERIFY(!dtypeFromString("float16"));
        QVERIFY(!dtypeFromString(""));
        QVERIFY(!opKindFromString("MatMul"));
        QVERIFY(!tensorRoleFromString("kv-cache"));
        QCOMPARE(tensorRoleFromString("kv_cache"), std::optional<TensorRole>(TensorRole::KvCache));
    }

    void matmulCounts_data()
    {
        QTest::addColumn<int>("outType");
        QTest::addColumn<int>("aType");
        QTest::addColumn<int>("bType");
        QTest::addColumn<qint64>("bytes");
        const int f16 = int(DType::F16);
        QTest::addRow("fp16: (2*4 + 4*3 + 2*3) * 2") << f16 << f16 << f16 << qint64((8 + 12 + 6) * 2);
        QTest::addRow("fp32") << int(DType::F32) << int(DType::F32) << int(DType::F32) << qint64((8 + 12 + 6) * 4);
        QTest::addRow("bf16") << int(DType::BF16) << int(DType::BF16) << int(DType::BF16) << qint64((8 + 12 + 6) * 2);
        QTest::addRow("int8 in, int32 out")
            << int(DType::I32) << int(DType::I8) << int(DType::I8) << qint64(6 * 4 + 8 + 12);
        QTest::addRow("fp8 weight, fp16 activation")
            << f16 << f16 << int(DType::F8E4M3) << qint64(6 * 2 + 8 * 2 + 12 * 1);
    }

    void matmulCounts()
    {
        QFETCH(int, outType);
        QFETCH(int, aType);
        QFETCH(int, bType);
        QFETCH(qint64, bytes);
        const TensorExpr expr = matmul2x3x4(DType(outType), DType(aType), DType(bType));
        QCOMPARE(qint64(flopCount(expr)), qint64(48)); // 2 x 3 x 4 multiply-adds
        QCOMPARE(qint64(byteCount(expr)), bytes);
        QCOMPARE(reductionDims(expr), std::vector<int> { 2 });
        QCOMPARE(operandShape(expr, 1), (std::vector<std::int64_t> { 2, 4 }));
        QCOMPARE(operandShape(expr, 2), (std::vector<std::int64_t> { 4, 3 }));
    }

    void slidingWindowShape_data()
    {
        QTest::addColumn<qint64>("stride");
        QTest::addColumn<qint64>("inputExtent");
        QTest::addRow("stride 1: ho + kh - 1") << qint64(1) << qint64(4 + 3 - 1);
        QTest::addRow("stride 2: (ho - 1) * 2 + kh") << qint64(2) << qint64(3 * 2 + 3);
        QTest::addRow("stride 4 leaves gaps") << qint64(4) << qint64(3 * 4 + 3);
    }

    void slidingWindowShape()
    {
        QFETCH(qint64, stride);
        QFETCH(qint64, inputExtent);
        const TensorExpr expr = conv(stride);
        QCOMPARE(operandShape(expr, 0), (std::vector<std::int64_t> { 1, 2, 4, 4 }));
        QCOMPARE(operandShape(expr, 1), (std::vector<std::int64_t> { 1, 3, inputExtent, inputExtent }));
        QCOMPARE(operandShape(expr, 2), (std::vector<std::int64_t> { 3, 2, 3, 3 }));
        // c, kh and kw are summed over; the window dims count although the output never names them.
        QCOMPARE(reductionDims(expr), (std::vector<int> { 2, 5, 6 }));
        QCOMPARE(qint64(flopCount(expr)), qint64(2 * 1 * 2 * 3 * 4 * 4 * 3 * 3)); // stride does not change work
        QCOMPARE(qint64(byteCount(expr)), qint64((32 + 3 * inputExtent * inputExtent + 54) * 2));
    }

    void flopsPerKind_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<qint64>("flops");
        // 4 x 8 = 32 output elements throughout.
        QTest::addRow("unary: one per output element") << int(OpKind::Unary) << 1 << qint64(32);
        QTest::addRow("elementwise, 1 input: still one per element") << int(OpKind::Elementwise) << 1 << qint64(32);
        QTest::addRow("elementwise, 2 inputs: one op per element") << int(OpKind::Elementwise) << 2 << qint64(32);
        QTest::addRow("elementwise, 3 inputs: two ops per element") << int(OpKind::Elementwise) << 3 << qint64(64);
        QTest::addRow("softmax: max, sub, exp, sum, div") << int(OpKind::Softmax) << 1 << qint64(5 * 32);
        QTest::addRow("normalization: square, sum, scale twice") << int(OpKind::Normalization) << 1 << qint64(4 * 32);
        QTest::addRow("slice moves data only") << int(OpKind::Slice) << 1 << qint64(0);
        QTest::addRow("gather moves data only") << int(OpKind::Gather) << 2 << qint64(0);
    }

    void flopsPerKind()
    {
        QFETCH(int, kind);
        QFETCH(int, inputs);
        QFETCH(qint64, flops);
        const TensorExpr expr = rowwise(OpKind(kind), 4, 8, inputs);
        QCOMPARE(qint64(flopCount(expr)), flops);
        QCOMPARE(qint64(byteCount(expr)), qint64((1 + inputs) * 32 * 2));
    }

    void reduceCountsEveryIteration()
    {
        // out[i] += in[i, j], 4 x 5: one add per input element.
        const TensorExpr sum { OpKind::Reduce, { 4, 5 },
            { operand({ Axis::loop(0) }), operand({ Axis::loop(0), Axis::loop(1) }) } };
        QCOMPARE(qint64(flopCount(sum)), qint64(20));
        QCOMPARE(reductionDims(sum), std::vector<int> { 1 });
        QCOMPARE(qint64(byteCount(sum)), qint64((4 + 20) * 2));
    }

    void poolCountsOverlappingWindows()
    {
        // dims n, c, ho, wo, kh, kw = 1, 2, 3, 3, 3, 3 with stride 2: windows overlap by one element.
        const TensorExpr pool { OpKind::Pool, { 1, 2, 3, 3, 3, 3 },
            { operand({ Axis::loop(0), Axis::loop(1), Axis::loop(2), Axis::loop(3) }),
                operand({ Axis::loop(0), Axis::loop(1), Axis::window(2, 4, 2), Axis::window(3, 5, 2) }) } };
        QCOMPARE(operandShape(pool, 1), (std::vector<std::int64_t> { 1, 2, 7, 7 }));
        QCOMPARE(qint64(flopCount(pool)), qint64(1 * 2 * 3 * 3 * 3 * 3)); // 162 compares, more than 98 inputs
        QCOMPARE(qint64(byteCount(pool)), qint64((18 + 98) * 2));
    }

    void softmaxCountsItsInputNotItsOutput()
    {
        // A softmax that also reduces (e.g. writes only the denominators) is still charged per input.
        const TensorExpr expr { OpKind::Softmax, { 3, 10 },
            { operand({ Axis::loop(0) }), operand({ Axis::loop(0), Axis::loop(1) }) } };
        QCOMPARE(qint64(flopCount(expr)), qint64(5 * 30));
    }

    void scalarOperandHasOneElement()
    {
        QCOMPARE(qint64(elementCount({})), qint64(1));
        const TensorExpr scale { OpKind::Elementwise, { 4 },
            { operand({ Axis::loop(0) }), operand({ Axis::loop(0) }), operand({}, DType::F32) } };
        QCOMPARE(qint64(operandElements(scale, 2)), qint64(1));
        QCOMPARE(qint64(byteCount(scale)), qint64(4 * 2 + 4 * 2 + 4));
    }

    void graphTotalsSumOpsAndCountTensorsOnce()
    {
        Graph graph;
        const TensorId x = graph.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
        const TensorId w = graph.addTensor("w", { 4, 3 }, DType::F16, TensorRole::Weight);
        const TensorId h = graph.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
        const TensorId h2 = graph.addTensor("h2", { 2, 3 }, DType::F16, TensorRole::Activation);
        const TensorId y = graph.addTensor("y", { 2, 3 }, DType::F32, TensorRole::Output);
        graph.addInput(x);
        graph.addOutput(y);
        const std::vector<Axis> mk { Axis::loop(0), Axis::loop(2) }, kn { Axis::loop(2), Axis::loop(1) },
            mn { Axis::loop(0), Axis::loop(1) };
        graph.addOp("mm1", OpKind::MatMul, { { "m", 2 }, { "n", 3 }, { "k", 4 } }, { { h, mn }, { x, mk }, { w, kn } });
        graph.addOp(
            "mm2", OpKind::MatMul, { { "m", 2 }, { "n", 3 }, { "k", 4 } }, { { h2, mn }, { x, mk }, { w, kn } });
        graph.addOp("add", OpKind::Elementwise, { { "m", 2 }, { "n", 3 } }, { { y, mn }, { h, mn }, { h2, mn } });
        QVERIFY2(graph.validate().empty(), graph.validate().empty() ? "" : graph.validate().front().message.c_str());
        QCOMPARE(qint64(graph.totalFlops()), qint64(48 + 48 + 6));
        QCOMPARE(qint64(graph.totalOperandBytes()), qint64(52 + 52 + (6 * 4 + 6 * 2 + 6 * 2)));
        QCOMPARE(qint64(graph.bytesOfRole(TensorRole::Weight)), qint64(12 * 2)); // w once, though read twice
        QCOMPARE(qint64(graph.bytesOfRole(TensorRole::Output)), qint64(6 * 4));
        QCOMPARE(qint64(graph.bytesOfRole(TensorRole::KvCache)), qint64(0));
        QCOMPARE(graph.expressions().size(), std::size_t(2)); // mm1 and mm2 share one expression
    }
};

QTEST_GUILESS_MAIN(TestGraphCosts)
#include "tst_graph_costs.moc"
