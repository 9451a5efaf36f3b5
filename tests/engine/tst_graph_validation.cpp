// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Graph::validate(): one row per kind of problem; every error names its op and tensor, and all
// problems are reported together. Also producer/consumer links and topological order.
#include "engine/model/graph.h"

#include <QTest>

#include <functional>

using namespace elk::model;

using GraphChange = std::function<void(Graph&)>;
Q_DECLARE_METATYPE(GraphChange)

namespace {

const std::vector<Axis> kMK { Axis::loop(0), Axis::loop(2) };
const std::vector<Axis> kKN { Axis::loop(2), Axis::loop(1) };
const std::vector<Axis> kMN { Axis::loop(0), Axis::loop(1) };

struct Mlp {
    Graph graph;
    TensorId x, w, h, y;
};

// x[2,4] (input) -> mm: h = x * w -> relu: y = relu(h) (output). `beforeOps` runs between the
// tensor declarations and the ops, `afterOps` at the end.
Graph buildMlp(const std::function<void(Mlp&)>& beforeOps = {}, const std::function<void(Mlp&)>& afterOps = {})
{
    Mlp m;
    m.x = m.graph.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
    m.w = m.graph.addTensor("w", { 4, 3 }, DType::F16, TensorRole::Weight);
    m.h = m.graph.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
    m.y = m.graph.addTensor("y", { 2, 3 }, DType::F16, TensorRole::Output);
    if (beforeOps)
        beforeOps(m);
    m.graph.addOp(
        "mm", OpKind::MatMul, { { "m", 2 }, { "n", 3 }, { "k", 4 } }, { { m.h, kMN }, { m.x, kMK }, { m.w, kKN } });
    m.graph.addOp("relu", OpKind::Unary, { { "m", 2 }, { "n", 3 } }, { { m.y, kMN }, { m.h, kMN } });
    if (afterOps)
        afterOps(m);
    return m.graph;
}

Graph validMlp(const std::function<void(Mlp&)>& afterOps = {})
{
    return buildMlp(
        [](Mlp& m) {
            m.graph.addInput(m.x);
            m.graph.addOutput(m.y);
        },
        afterOps);
}

// The expression of `mm` with one operand changed, added through the low-level addOp.
TensorExpr mmExpr()
{
    return TensorExpr { OpKind::MatMul, { 2, 3, 4 },
        { Operand { kMN, DType::F16, TensorRole::Activation }, Operand { kMK, DType::F16, TensorRole::Activation },
            Operand { kKN, DType::F16, TensorRole::Weight } } };
}

// The MLP with `mm` added through the low-level addOp with a hand-made expression.
Graph mlpWithMmExpr(const TensorExpr& expr)
{
    Graph graph;
    const TensorId x = graph.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
    const TensorId w = graph.addTensor("w", { 4, 3 }, DType::F16, TensorRole::Weight);
    const TensorId h = graph.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
    const TensorId y = graph.addTensor("y", { 2, 3 }, DType::F16, TensorRole::Output);
    graph.addInput(x);
    graph.addOutput(y);
    graph.addOp("mm", expr, { h, x, w }, { "m", "n", "k" });
    graph.addOp("relu", OpKind::Unary, { { "m", 2 }, { "n", 3 } }, { { y, kMN }, { h, kMN } });
    return graph;
}

QByteArray describe(const std::vector<GraphError>& errors)
{
    QByteArray text;
    for (const GraphError& error : errors)
        text += "\n  [op '" + QByteArray::fromStdString(error.op) + "', tensor '"
            + QByteArray::fromStdString(error.tensor) + "'] " + QByteArray::fromStdString(error.message);
    return text;
}

} // namespace

class TestGraphValidation : public QObject {
    Q_OBJECT

private slots:
    void validGraphHasNoErrors()
    {
        const Graph graph = validMlp();
        const auto errors = graph.validate();
        QVERIFY2(errors.empty(), describe(errors).constData());
    }

    void eachProblemIsReported_data()
    {
        QTest::addColumn<GraphChange>("build");
        QTest::addColumn<int>("errorCount");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("fragment");

        QTest::addRow("dangling input: not produced, not a graph input")
            << GraphChange([](Graph& g) { g = buildMlp([](Mlp& m) { m.graph.addOutput(m.y); }); }) << 1 << "mm"
            << "x"
            << "which no op produces and which is not a graph input";
        QTest::addRow("activation never consumed and not an output")
            << GraphChange([](Graph& g) { g = buildMlp([](Mlp& m) { m.graph.addInput(m.x); }); }) << 2 << "relu"
            << "y"
            << "is never consumed and is not a graph output";
        QTest::addRow("unused weight") << GraphChange([](Graph& g) {
            g = validMlp([](Mlp& m) { m.graph.addTensor("w_unused", { 4 }, DType::F16, TensorRole::Weight); });
        }) << 1 << ""
                                       << "w_unused"
                                       << "is never consumed";
        QTest::addRow("tensor produced twice") << GraphChange([](Graph& g) {
            g = validMlp([](Mlp& m) {
                m.graph.addOp("mm_again", OpKind::MatMul, { { "m", 2 }, { "n", 3 }, { "k", 4 } },
                    { { m.h, kMN }, { m.x, kMK }, { m.w, kKN } });
            });
        }) << 1 << "mm_again"
                                               << "h"
                                               << "is produced by op 'mm' and again by op 'mm_again'";
        QTest::addRow("cycle of two ops") << GraphChange([](Graph& g) {
            g = Graph {};
            const TensorId x = g.addTensor("x", { 4 }, DType::F16, TensorRole::Activation);
            const TensorId t1 = g.addTensor("t1", { 4 }, DType::F16, TensorRole::Activation);
            const TensorId t2 = g.addTensor("t2", { 4 }, DType::F16, TensorRole::Activation);
            g.addInput(x);
            g.addOutput(t1);
            const std::vector<Axis> i { Axis::loop(0) };
            g.addOp("a", OpKind::Elementwise, { { "i", 4 } }, { { t1, i }, { x, i }, { t2, i } });
            g.addOp("b", OpKind::Unary, { { "i", 4 } }, { { t2, i }, { t1, i } });
        }) << 1 << "a"
                                          << "t1"
                                          << "ops form a cycle: 'a' -(t1)-> 'b' -(t2)-> 'a'";
        QTest::addRow("op reading its own output") << GraphChange([](Graph& g) {
            g = Graph {};
            const TensorId t = g.addTensor("acc", { 4 }, DType::F32, TensorRole::Activation);
            g.addOutput(t);
            const std::vector<Axis> i { Axis::loop(0) };
            g.addOp("accumulate", OpKind::Unary, { { "i", 4 } }, { { t, i }, { t, i } });
        }) << 1 << "accumulate"
                                                   << "acc"
                                                   << "ops form a cycle: 'accumulate' -(acc)-> 'accumulate'";
        QTest::addRow("declared shape differs from the axes' extents")
            << GraphChange([](Graph& g) {
                   g = Graph {};
                   const TensorId x = g.addTensor("x", { 2, 5 }, DType::F16, TensorRole::Activation);
                   const TensorId w = g.addTensor("w", { 4, 3 }, DType::F16, TensorRole::Weight);
                   const TensorId h = g.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
                   g.addInput(x);
                   g.addOutput(h);
                   g.addOp("mm", OpKind::MatMul, { { "m", 2 }, { "n", 3 }, { "k", 4 } },
                       { { h, kMN }, { x, kMK }, { w, kKN } });
               })
            << 1 << "mm"
            << "x"
            << "declared shape [2,5] but the operand's axes give [2,4]";
        // A Slice reads a region of its input (the IR has no offsets), never more than the tensor,
        // and writes all of its output.
        QTest::addRow("slice reads more than its input holds")
            << GraphChange([](Graph& g) {
                   g = Graph {};
                   const TensorId x = g.addTensor("x", { 2, 3 }, DType::F16, TensorRole::Activation);
                   const TensorId y = g.addTensor("y", { 2, 4 }, DType::F16, TensorRole::Output);
                   g.addInput(x);
                   g.addOutput(y);
                   g.addOp("crop", OpKind::Slice, { { "m", 2 }, { "n", 4 } }, { { y, kMN }, { x, kMN } });
               })
            << 1 << "crop"
            << "x"
            << "declared shape [2,3] but the operand's axes give [2,4]";
        QTest::addRow("slice writes a region of its output")
            << GraphChange([](Graph& g) {
                   g = Graph {};
                   const TensorId x = g.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
                   const TensorId y = g.addTensor("y", { 2, 4 }, DType::F16, TensorRole::Output);
                   g.addInput(x);
                   g.addOutput(y);
                   g.addOp("crop", OpKind::Slice, { { "m", 2 }, { "n", 3 } }, { { y, kMN }, { x, kMN } });
               })
            << 1 << "crop"
            << "y"
            << "declared shape [2,4] but the operand's axes give [2,3]";
        QTest::addRow("rank mismatch") << GraphChange([](Graph& g) {
            g = Graph {};
            const TensorId x = g.addTensor("x", { 2, 4, 1 }, DType::F16, TensorRole::Activation);
            const TensorId w = g.addTensor("w", { 4, 3 }, DType::F16, TensorRole::Weight);
            const TensorId h = g.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
            g.addInput(x);
            g.addOutput(h);
            g.addOp(
                "mm", OpKind::MatMul, { { "m", 2 }, { "n", 3 }, { "k", 4 } }, { { h, kMN }, { x, kMK }, { w, kKN } });
        }) << 1 << "mm"
                                       << "x"
                                       << "tensor has rank 3 [2,4,1] but the operand has 2 axes";
        QTest::addRow("dtype mismatch between tensor and operand") << GraphChange([](Graph& g) {
            TensorExpr expr = mmExpr();
            expr.operands[1].dtype = DType::F32;
            g = mlpWithMmExpr(expr);
        }) << 1 << "mm"
                                                                   << "x"
                                                                   << "tensor dtype f16 but operand dtype f32";
        QTest::addRow("role mismatch between tensor and operand") << GraphChange([](Graph& g) {
            TensorExpr expr = mmExpr();
            expr.operands[2].role = TensorRole::Activation;
            g = mlpWithMmExpr(expr);
        }) << 1 << "mm"
                                                                  << "w"
                                                                  << "tensor role weight but operand role activation";
        QTest::addRow("zero loop extent") << GraphChange([](Graph& g) {
            TensorExpr expr = mmExpr();
            expr.dimExtents[2] = 0;
            g = mlpWithMmExpr(expr);
        }) << 1 << "mm"
                                          << "x"
                                          << "loop dim 2 ('k'), used by operand 1 (tensor 'x'): extent 0 must be >= 1";
        QTest::addRow("negative tensor extent") << GraphChange([](Graph& g) {
            g = Graph {};
            const TensorId x = g.addTensor("x", { -3 }, DType::F16, TensorRole::Activation);
            const TensorId y = g.addTensor("y", { 3 }, DType::F16, TensorRole::Activation);
            g.addInput(x);
            g.addOutput(y);
            g.addOp("neg", OpKind::Unary, { { "i", 3 } }, { { y, { Axis::loop(0) } }, { x, { Axis::loop(0) } } });
        }) << 2 << "neg"
                                                << "x"
                                                << "tensor 'x' (used by op 'neg'): shape [-3] has extent -3 at axis 0";
        QTest::addRow("axis dim index out of range")
            << GraphChange([](Graph& g) {
                   TensorExpr expr = mmExpr();
                   expr.operands[1].axes[1].dim = 7;
                   g = mlpWithMmExpr(expr);
               })
            << 1 << "mm"
            << "x"
            << "op 'mm' operand 1 (tensor 'x') axis 1: dim index 7 out of range 0..2";
        QTest::addRow("window stride of zero") << GraphChange([](Graph& g) {
            g = Graph {};
            const TensorId x = g.addTensor("x", { 3 }, DType::F16, TensorRole::Activation);
            const TensorId y = g.addTensor("y", { 2 }, DType::F16, TensorRole::Activation);
            g.addInput(x);
            g.addOutput(y);
            g.addOp("pool", OpKind::Pool, { { "o", 2 }, { "k", 3 } },
                { { y, { Axis::loop(0) } }, { x, { Axis::window(0, 1, 0) } } });
        }) << 1 << "pool"
                                               << "x"
                                               << "axis 0: stride 0 must be >= 1";
        QTest::addRow("fewer tensors bound than operands")
            << GraphChange([](Graph& g) {
                   g = Graph {};
                   const TensorId x = g.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
                   const TensorId h = g.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
                   g.addInput(x);
                   g.addOutput(h);
                   g.addOp("mm", mmExpr(), { h, x }, { "m", "n", "k" });
               })
            << 1 << "mm"
            << ""
            << "op 'mm' binds 2 tensor(s) but its expression has 3 operand(s)";
        QTest::addRow("tensor id that does not exist")
            << GraphChange([](Graph& g) {
                   g = Graph {};
                   const TensorId x = g.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
                   const TensorId h = g.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
                   g.addInput(x);
                   g.addOutput(h);
                   g.addOp("mm", mmExpr(), { h, x, 42 }, { "m", "n", "k" });
               })
            << 1 << "mm"
            << ""
            << "op 'mm' operand 2 refers to tensor id 42, but the graph has 2 tensor(s)";
        QTest::addRow("a matmul with one input") << GraphChange([](Graph& g) {
            TensorExpr expr = mmExpr();
            expr.operands.pop_back();
            g = Graph {};
            const TensorId x = g.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
            const TensorId h = g.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
            g.addInput(x);
            g.addOutput(h);
            g.addOp("mm", expr, { h, x }, { "m", "n", "k" });
        }) << 1 << "mm"
                                                 << ""
                                                 << "op 'mm': a matmul op takes 2 input(s), this one has 1";
        QTest::addRow("duplicate tensor name") << GraphChange([](Graph& g) {
            g = validMlp([](Mlp& m) {
                const TensorId again = m.graph.addTensor("h", { 1 }, DType::F16, TensorRole::Activation);
                m.graph.addOutput(again);
            });
        }) << 1 << ""
                                               << "h"
                                               << "tensor 'h' is declared twice";
        QTest::addRow("duplicate op name") << GraphChange([](Graph& g) {
            g = validMlp([](Mlp& m) {
                const TensorId z = m.graph.addTensor("z", { 2, 3 }, DType::F16, TensorRole::Activation);
                m.graph.addOutput(z);
                m.graph.addOp("relu", OpKind::Unary, { { "m", 2 }, { "n", 3 } }, { { z, kMN }, { m.h, kMN } });
            });
        }) << 1 << "relu"
                                           << ""
                                           << "op 'relu' is declared twice";
        QTest::addRow("graph input that an op produces")
            << GraphChange([](Graph& g) { g = validMlp([](Mlp& m) { m.graph.addInput(m.h); }); }) << 1 << "mm"
            << "h"
            << "tensor 'h' is a graph input but op 'mm' produces it";
        QTest::addRow("tensor listed twice as an output")
            << GraphChange([](Graph& g) { g = validMlp([](Mlp& m) { m.graph.addOutput(m.y); }); }) << 1 << ""
            << "y"
            << "tensor 'y' is listed twice as a graph output";
        QTest::addRow("role output not listed as an output") << GraphChange([](Graph& g) {
            g = validMlp([](Mlp& m) {
                const TensorId z = m.graph.addTensor("z", { 2, 3 }, DType::F16, TensorRole::Output);
                m.graph.addOp("copy", OpKind::Unary, { { "m", 2 }, { "n", 3 } }, { { z, kMN }, { m.h, kMN } });
            });
        }) << 2 << "copy"
                                                             << "z"
                                                             << "has role output but is not listed as a graph output";
        QTest::addRow("dim names do not match the loop dims") << GraphChange([](Graph& g) {
            g = Graph {};
            const TensorId x = g.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
            const TensorId w = g.addTensor("w", { 4, 3 }, DType::F16, TensorRole::Weight);
            const TensorId h = g.addTensor("h", { 2, 3 }, DType::F16, TensorRole::Activation);
            g.addInput(x);
            g.addOutput(h);
            g.addOp("mm", mmExpr(), { h, x, w }, { "m", "n" });
        }) << 1 << "mm"
                                                              << ""
                                                              << "op 'mm' names 2 loop dim(s) but has 3";
    }

    void eachProblemIsReported()
    {
        QFETCH(GraphChange, build);
        QFETCH(int, errorCount);
        QFETCH(QString, op);
        QFETCH(QString, tensor);
        QFETCH(QString, fragment);
        Graph graph;
        build(graph);
        const auto errors = graph.validate();
        QVERIFY2(int(errors.size()) == errorCount, describe(errors).constData());
        // The row's problem is among the errors, with its op and tensor in the fields and the text.
        const auto match = std::find_if(errors.begin(), errors.end(),
            [&](const GraphError& e) { return QString::fromStdString(e.message).contains(fragment); });
        QVERIFY2(match != errors.end(), describe(errors).constData());
        QCOMPARE(QString::fromStdString(match->op), op);
        QCOMPARE(QString::fromStdString(match->tensor), tensor);
        if (!op.isEmpty())
            QVERIFY2(QString::fromStdString(match->message).contains(QLatin1Char('\'') + op + QLatin1Char('\'')),
                match->message.c_str());
        if (!tensor.isEmpty())
            QVERIFY2(QString::fromStdString(match->message).contains(tensor), match->message.c_str());
        QCOMPARE(toString(*match), match->message);
    }

    void sliceMayReadARegionOfItsInput()
    {
        Graph g;
        const TensorId x = g.addTensor("x", { 2, 8 }, DType::F16, TensorRole::Activation);
        const TensorId y = g.addTensor("y", { 2, 3 }, DType::F16, TensorRole::Output);
        g.addInput(x);
        g.addOutput(y);
        g.addOp("crop", OpKind::Slice, { { "m", 2 }, { "n", 3 } }, { { y, kMN }, { x, kMN } });
        const auto errors = g.validate();
        QVERIFY2(errors.empty(), describe(errors).constData());
        // The same region read by an elementwise op is a shape error.
        Graph h;
        const TensorId a = h.addTensor("a", { 2, 8 }, DType::F16, TensorRole::Activation);
        const TensorId b = h.addTensor("b", { 2, 3 }, DType::F16, TensorRole::Output);
        h.addInput(a);
        h.addOutput(b);
        h.addOp("neg", OpKind::Unary, { { "m", 2 }, { "n", 3 } }, { { b, kMN }, { a, kMN } });
        QCOMPARE(h.validate().size(), std::size_t(1));
    }

    void allProblemsAreReportedTogether()
    {
        // Three independent problems in one graph: a dtype mismatch, an unused weight, a cycle.
        Graph graph;
        const TensorId x = graph.addTensor("x", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId t1 = graph.addTensor("t1", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId t2 = graph.addTensor("t2", { 4 }, DType::F16, TensorRole::Activation);
        graph.addTensor("unused", { 4 }, DType::F16, TensorRole::Weight);
        graph.addInput(x);
        graph.addOutput(t1);
        const std::vector<Axis> i { Axis::loop(0) };
        graph.addOp("a", OpKind::Elementwise, { { "i", 4 } }, { { t1, i }, { x, i }, { t2, i } });
        TensorExpr unary { OpKind::Unary, { 4 },
            { Operand { i, DType::F16, TensorRole::Activation }, Operand { i, DType::BF16, TensorRole::Activation } } };
        graph.addOp("b", unary, { t2, t1 });
        const auto errors = graph.validate();
        QVERIFY2(errors.size() == 3, describe(errors).constData());
        // Fixed order: op problems, then graph-level problems, then cycles.
        QCOMPARE(errors[0].op, std::string("b"));
        QCOMPARE(errors[0].tensor, std::string("t1"));
        QCOMPARE(errors[1].tensor, std::string("unused"));
        QVERIFY(errors[2].message.find("cycle") != std::string::npos);
        QCOMPARE(graph.validate(), errors); // deterministic
    }

    void producerAndConsumerLinks()
    {
        Graph graph = validMlp([](Mlp& m) {
            const TensorId z = m.graph.addTensor("z", { 2, 3 }, DType::F16, TensorRole::Activation);
            m.graph.addOutput(z);
            // reads h twice: listed once among h's consumers
            m.graph.addOp(
                "square", OpKind::Elementwise, { { "m", 2 }, { "n", 3 } }, { { z, kMN }, { m.h, kMN }, { m.h, kMN } });
        });
        QVERIFY2(graph.validate().empty(), describe(graph.validate()).constData());
        const Tensor& h = graph.tensor(*graph.findTensor("h"));
        QCOMPARE(h.producer, std::optional<OpId>(0));
        QCOMPARE(h.consumers, (std::vector<OpId> { 1, 2 }));
        const Tensor& x = graph.tensor(*graph.findTensor("x"));
        QVERIFY(!x.producer);
        QCOMPARE(x.consumers, std::vector<OpId> { 0 });
        QVERIFY(graph.isGraphInput(*graph.findTensor("x"))); // declared
        QVERIFY(graph.isGraphInput(*graph.findTensor("w"))); // a weight nobody produces
        QVERIFY(!graph.isGraphInput(*graph.findTensor("h"))); // produced
        QVERIFY(graph.isGraphOutput(*graph.findTensor("z")));
        QCOMPARE(graph.findOp("square"), std::optional<OpId>(2));
        QVERIFY(!graph.findOp("nope"));
    }

    void topologicalOrderKeepsValidProgramOrder()
    {
        const Graph graph = validMlp();
        QCOMPARE(graph.topologicalOrder(), (std::vector<OpId> { 0, 1 }));
    }

    void topologicalOrderRepairsOutOfOrderOps()
    {
        // Program order: c (reads b's output), a, b (reads a's output), d (independent).
        Graph graph;
        const std::vector<Axis> i { Axis::loop(0) };
        const TensorId x = graph.addTensor("x", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId ta = graph.addTensor("ta", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId tb = graph.addTensor("tb", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId tc = graph.addTensor("tc", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId td = graph.addTensor("td", { 4 }, DType::F16, TensorRole::Activation);
        graph.addInput(x);
        graph.addOutput(tc);
        graph.addOutput(td);
        graph.addOp("c", OpKind::Unary, { { "i", 4 } }, { { tc, i }, { tb, i } });
        graph.addOp("a", OpKind::Unary, { { "i", 4 } }, { { ta, i }, { x, i } });
        graph.addOp("b", OpKind::Unary, { { "i", 4 } }, { { tb, i }, { ta, i } });
        graph.addOp("d", OpKind::Unary, { { "i", 4 } }, { { td, i }, { x, i } });
        QVERIFY2(graph.validate().empty(), describe(graph.validate()).constData());
        // a, b are forced before c; d is ready from the start, after a in program order.
        QCOMPARE(graph.topologicalOrder(), (std::vector<OpId> { 1, 2, 0, 3 }));
    }

    void topologicalOrderLeavesOutCycles()
    {
        Graph graph;
        const std::vector<Axis> i { Axis::loop(0) };
        const TensorId x = graph.addTensor("x", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId t1 = graph.addTensor("t1", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId t2 = graph.addTensor("t2", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId t3 = graph.addTensor("t3", { 4 }, DType::F16, TensorRole::Activation);
        const TensorId t4 = graph.addTensor("t4", { 4 }, DType::F16, TensorRole::Activation);
        graph.addInput(x);
        graph.addOutput(t3);
        graph.addOutput(t4);
        graph.addOp("free", OpKind::Unary, { { "i", 4 } }, { { t4, i }, { x, i } });
        graph.addOp("a", OpKind::Elementwise, { { "i", 4 } }, { { t1, i }, { x, i }, { t2, i } });
        graph.addOp("b", OpKind::Unary, { { "i", 4 } }, { { t2, i }, { t1, i } });
        graph.addOp("after", OpKind::Unary, { { "i", 4 } }, { { t3, i }, { t2, i } });
        QCOMPARE(graph.topologicalOrder(), std::vector<OpId> { 0 });
        const auto errors = graph.validate();
        QVERIFY2(errors.size() == 1, describe(errors).constData());
        QCOMPARE(errors[0].message, std::string("ops form a cycle: 'a' -(t1)-> 'b' -(t2)-> 'a'"));
    }

    void longChainDoesNotExhaustTheStack()
    {
        // Cycle detection is iterative: a 100 000-op chain closed into a loop is found (a recursive DFS
        // this deep could overflow the default stack).
        Graph graph;
        const std::vector<Axis> i { Axis::loop(0) };
        constexpr int length = 100000;
        std::vector<TensorId> t;
        for (int k = 0; k < length; ++k)
            t.push_back(graph.addTensor("t" + std::to_string(k), { 1 }, DType::F16, TensorRole::Activation));
        for (int k = 0; k < length; ++k)
            graph.addOp(
                "op" + std::to_string(k), OpKind::Unary, { { "i", 1 } }, { { t[(k + 1) % length], i }, { t[k], i } });
        const auto errors = graph.validate();
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].op, std::string("op0"));
        QVERIFY(graph.topologicalOrder().empty());
    }
};

QTEST_GUILESS_MAIN(TestGraphValidation)
#include "tst_graph_validation.moc"
