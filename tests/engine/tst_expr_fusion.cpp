// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// fuseLoopDims: unit dims dropped, dims that every operand uses as adjacent axes fused; FLOPs,
// bytes and shapes' element counts kept.
#include "engine/model/expr_fusion.h"

#include <QTest>

using namespace elk::model;

namespace {

Operand operand(std::vector<int> dims, TensorRole role = TensorRole::Activation)
{
    Operand result;
    for (int dim : dims)
        result.axes.push_back(Axis::loop(dim));
    result.role = role;
    return result;
}

TensorExpr matmul(std::vector<std::int64_t> extents, std::vector<std::vector<int>> operands)
{
    TensorExpr expr;
    expr.kind = OpKind::MatMul;
    expr.dimExtents = std::move(extents);
    for (std::size_t v = 0; v < operands.size(); ++v)
        expr.operands.push_back(operand(operands[v], v == 2 ? TensorRole::Weight : TensorRole::Activation));
    return expr;
}

} // namespace

Q_DECLARE_METATYPE(TensorExpr)

class TestExprFusion : public QObject {
    Q_OBJECT

private slots:
    void fuses_data()
    {
        QTest::addColumn<TensorExpr>("input");
        QTest::addColumn<TensorExpr>("expected");
        QTest::addRow("QKV projection split for later reshapes")
            << matmul({ 32, 3, 40, 2, 64, 5120 }, { { 0, 1, 2, 3, 4 }, { 0, 5 }, { 5, 1, 2, 3, 4 } })
            << matmul({ 32, 15360, 5120 }, { { 0, 1 }, { 0, 2 }, { 2, 1 } });
        QTest::addRow("decode step's unit sequence dim") << matmul({ 32, 1, 5120, 5120 },
            { { 0, 1, 3 }, { 0, 1, 2 }, { 2, 3 } }) << matmul({ 32, 5120, 5120 }, { { 0, 2 }, { 0, 1 }, { 1, 2 } });
        QTest::addRow("attention scores keep heads apart from the KV length")
            << matmul({ 32, 40, 2049, 128 }, { { 0, 1, 2 }, { 0, 1, 3 }, { 0, 1, 2, 3 } })
            << matmul({ 1280, 2049, 128 }, { { 0, 1 }, { 0, 2 }, { 0, 1, 2 } });
        QTest::addRow("a transposed pair does not fuse")
            << matmul({ 8, 4, 6, 5 }, { { 0, 1, 2 }, { 0, 1, 3 }, { 3, 2, 1 } })
            << matmul({ 8, 4, 6, 5 }, { { 0, 1, 2 }, { 0, 1, 3 }, { 3, 2, 1 } });
    }

    void fuses()
    {
        QFETCH(TensorExpr, input);
        QFETCH(TensorExpr, expected);
        QVERIFY(validateExpr(input).empty());
        const TensorExpr fused = fuseLoopDims(input);
        QCOMPARE(QString::fromStdString(toString(fused)), QString::fromStdString(toString(expected)));
        QVERIFY(validateExpr(fused).empty());
        QCOMPARE(flopCount(fused), flopCount(input));
        QCOMPARE(byteCount(fused), byteCount(input));
        for (std::size_t v = 0; v < input.operands.size(); ++v)
            QCOMPARE(operandElements(fused, v), operandElements(input, v));
        QCOMPARE(QString::fromStdString(toString(fuseLoopDims(fused))), QString::fromStdString(toString(fused)));
    }

    void slidingWindowsStay()
    {
        // A 1-D convolution: out[n, f, h] = in[n, c, h*2 + k] * w[f, c, k]; h and k are window dims.
        TensorExpr conv;
        conv.kind = OpKind::Conv;
        conv.dimExtents = { 4, 8, 16, 3, 5 }; // n f c h k
        conv.operands = { operand({ 0, 1, 3 }), Operand { { Axis::loop(0), Axis::loop(2), Axis::window(3, 4, 2) } },
            operand({ 1, 2, 4 }, TensorRole::Weight) };
        QVERIFY(validateExpr(conv).empty());
        const TensorExpr fused = fuseLoopDims(conv);
        QCOMPARE(fused.dimExtents.size(), std::size_t(5));
        QCOMPARE(flopCount(fused), flopCount(conv));
    }

    void scalarOperandsSurvive()
    {
        // x[1, 8] * s[1]: the unit dim goes, s becomes a scalar.
        TensorExpr scale;
        scale.kind = OpKind::Elementwise;
        scale.dimExtents = { 1, 8 };
        scale.operands = { operand({ 0, 1 }), operand({ 0, 1 }), operand({ 0 }, TensorRole::Weight) };
        const TensorExpr fused = fuseLoopDims(scale);
        QCOMPARE(fused.dimExtents, (std::vector<std::int64_t> { 8 }));
        QVERIFY(fused.operands[2].axes.empty());
        QVERIFY(validateExpr(fused).empty());
        QCOMPARE(byteCount(fused), byteCount(scale));
    }
};

QTEST_GUILESS_MAIN(TestExprFusion)
#include "tst_expr_fusion.moc"
