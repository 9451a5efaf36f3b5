// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Hash-consing: identical expressions intern once, any structural change gives a new id, names do
// not matter, and ids follow first-seen order.
#include "engine/model/expression_pool.h"
#include "engine/model/graph.h"

#include <QTest>

#include <functional>

using namespace elk::model;

using ExprChange = std::function<void(TensorExpr&)>;
Q_DECLARE_METATYPE(ExprChange)

namespace {

// A strided conv: covers windows, strides, dtypes and roles in one expression.
TensorExpr baseExpr()
{
    return TensorExpr { OpKind::Conv, { 1, 8, 4, 6, 6, 3, 3 },
        { Operand {
              { Axis::loop(0), Axis::loop(1), Axis::loop(3), Axis::loop(4) }, DType::F16, TensorRole::Activation },
            Operand { { Axis::loop(0), Axis::loop(2), Axis::window(3, 5, 2), Axis::window(4, 6, 2) }, DType::F16,
                TensorRole::Activation },
            Operand {
                { Axis::loop(2), Axis::loop(1), Axis::loop(5), Axis::loop(6) }, DType::F16, TensorRole::Weight } } };
}

} // namespace

class TestExpressionPool : public QObject {
    Q_OBJECT

private slots:
    void identicalExpressionsInternOnce()
    {
        ExpressionPool pool;
        const ExprId first = pool.intern(baseExpr());
        const ExprId second = pool.intern(baseExpr()); // built separately, equal in structure
        QCOMPARE(first, second);
        QCOMPARE(pool.size(), std::size_t(1));
        QCOMPARE(pool.find(baseExpr()), std::optional<ExprId>(first));
        QCOMPARE(TensorExprHash {}(baseExpr()), TensorExprHash {}(pool.at(first)));
    }

    void anySingleChangeGivesANewId_data()
    {
        QTest::addColumn<ExprChange>("change");
        QTest::addRow("a loop extent") << ExprChange([](TensorExpr& e) { e.dimExtents[1] = 16; });
        QTest::addRow("a window extent") << ExprChange([](TensorExpr& e) { e.dimExtents[6] = 5; });
        QTest::addRow("one more loop dim") << ExprChange([](TensorExpr& e) { e.dimExtents.push_back(1); });
        QTest::addRow("an axis' dim") << ExprChange([](TensorExpr& e) { e.operands[2].axes[0].dim = 1; });
        QTest::addRow("axis order") << ExprChange(
            [](TensorExpr& e) { std::swap(e.operands[0].axes[2], e.operands[0].axes[3]); });
        QTest::addRow("a window dim") << ExprChange([](TensorExpr& e) { e.operands[1].axes[2].windowDim = 6; });
        QTest::addRow("a stride") << ExprChange([](TensorExpr& e) { e.operands[1].axes[2].stride = 1; });
        QTest::addRow("window made plain") << ExprChange([](TensorExpr& e) { e.operands[1].axes[3] = Axis::loop(4); });
        QTest::addRow("an extra axis") << ExprChange(
            [](TensorExpr& e) { e.operands[0].axes.push_back(Axis::loop(2)); });
        QTest::addRow("output dtype") << ExprChange([](TensorExpr& e) { e.operands[0].dtype = DType::F32; });
        QTest::addRow("weight dtype fp16 -> bf16")
            << ExprChange([](TensorExpr& e) { e.operands[2].dtype = DType::BF16; });
        QTest::addRow("input role") << ExprChange([](TensorExpr& e) { e.operands[1].role = TensorRole::KvCache; });
        QTest::addRow("output role") << ExprChange([](TensorExpr& e) { e.operands[0].role = TensorRole::Output; });
        QTest::addRow("kind") << ExprChange([](TensorExpr& e) { e.kind = OpKind::Pool; });
        QTest::addRow("inputs swapped") << ExprChange([](TensorExpr& e) { std::swap(e.operands[1], e.operands[2]); });
        QTest::addRow("an extra input") << ExprChange([](TensorExpr& e) { e.operands.push_back(e.operands[2]); });
    }

    void anySingleChangeGivesANewId()
    {
        QFETCH(ExprChange, change);
        ExpressionPool pool;
        const ExprId base = pool.intern(baseExpr());
        TensorExpr changed = baseExpr();
        change(changed);
        const ExprId other = pool.intern(changed);
        QVERIFY(other != base);
        QCOMPARE(other, ExprId(1));
        QCOMPARE(pool.size(), std::size_t(2));
        QCOMPARE(pool.intern(baseExpr()), base); // the original still maps to its own id
        QCOMPARE(pool.intern(changed), other);
    }

    void idsFollowFirstSeenOrder()
    {
        TensorExpr a = baseExpr();
        TensorExpr b = baseExpr();
        b.dimExtents[0] = 2;
        TensorExpr c = baseExpr();
        c.kind = OpKind::Pool;
        const std::vector<TensorExpr> sequence { b, a, b, c, a, c, b };
        const std::vector<ExprId> expected { 0, 1, 0, 2, 1, 2, 0 };
        for (int run = 0; run < 2; ++run) { // a fresh pool gives the same ids again
            ExpressionPool pool;
            std::vector<ExprId> ids;
            for (const TensorExpr& expr : sequence)
                ids.push_back(pool.intern(expr));
            QCOMPARE(ids, expected);
            QCOMPARE(pool.expressions().size(), std::size_t(3));
            QVERIFY(pool.at(0) == b);
            QVERIFY(pool.at(1) == a);
            QVERIFY(pool.at(2) == c);
        }
    }

    void unknownExpressionIsNotFound()
    {
        ExpressionPool pool;
        pool.intern(baseExpr());
        TensorExpr other = baseExpr();
        other.dimExtents[0] = 7;
        QVERIFY(!pool.find(other));
        QCOMPARE(pool.size(), std::size_t(1)); // find() never adds
    }

    void namesDoNotAffectIdentity()
    {
        // Two residual adds with different op, dim and tensor names share one expression.
        Graph graph;
        const TensorId a = graph.addTensor("a", { 4, 8 }, DType::F16, TensorRole::Activation);
        const TensorId b = graph.addTensor("b", { 4, 8 }, DType::F16, TensorRole::Activation);
        const TensorId c = graph.addTensor("c", { 4, 8 }, DType::F16, TensorRole::Activation);
        const TensorId d = graph.addTensor("totally_different_name", { 4, 8 }, DType::F16, TensorRole::Activation);
        const std::vector<Axis> ij { Axis::loop(0), Axis::loop(1) };
        const OpId first = graph.addOp(
            "residual_1", OpKind::Elementwise, { { "i", 4 }, { "j", 8 } }, { { c, ij }, { a, ij }, { b, ij } });
        const OpId second = graph.addOp(
            "other", OpKind::Elementwise, { { "row", 4 }, { "col", 8 } }, { { d, ij }, { c, ij }, { a, ij } });
        QCOMPARE(graph.op(first).expr, graph.op(second).expr);
        QCOMPARE(graph.expressions().size(), std::size_t(1));
        QCOMPARE(graph.op(second).dimNames, (std::vector<std::string> { "row", "col" })); // kept for display
        // A different dtype on one tensor is a different expression.
        const TensorId e = graph.addTensor("e", { 4, 8 }, DType::F32, TensorRole::Activation);
        const OpId third = graph.addOp(
            "third", OpKind::Elementwise, { { "i", 4 }, { "j", 8 } }, { { e, ij }, { c, ij }, { a, ij } });
        QVERIFY(graph.op(third).expr != graph.op(first).expr);
    }
};

QTEST_GUILESS_MAIN(TestExpressionPool)
#include "tst_expression_pool.moc"
