// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Liveness-aware placement of a graph's steps: which inputs come from HBM, what SRAM activations
// hold across a step, which activations are spilled, and which steps share a partition search.
#include "engine/model/graph.h"
#include "engine/model/graph_analysis.h"
#include "engine/run/step_inputs.h"

#include <QTest>

using namespace elk;
using namespace elk::model;

namespace {

const std::vector<Axis> kRows { Axis::loop(0), Axis::loop(1) };
const std::vector<LoopDim> kRowDims { { "r", 4 }, { "c", 8 } };

/// x → u → a; a·W → b; u(b) → c; c + a → d (output). Every activation is f16 [4, 8] = 64 bytes.
Graph residualGraph()
{
    Graph graph;
    graph.setName("residual");
    const TensorId x = graph.addTensor("x", { 4, 8 }, DType::F16, TensorRole::Activation);
    graph.addInput(x);
    const TensorId a = graph.addTensor("a", { 4, 8 }, DType::F16, TensorRole::Activation);
    const TensorId w = graph.addTensor("w", { 8, 8 }, DType::F16, TensorRole::Weight);
    const TensorId b = graph.addTensor("b", { 4, 8 }, DType::F16, TensorRole::Activation);
    const TensorId c = graph.addTensor("c", { 4, 8 }, DType::F16, TensorRole::Activation);
    const TensorId d = graph.addTensor("d", { 4, 8 }, DType::F16, TensorRole::Activation);
    graph.addOp("op0", OpKind::Unary, kRowDims, { { a, kRows }, { x, kRows } });
    graph.addOp("op1", OpKind::MatMul, { { "r", 4 }, { "c", 8 }, { "k", 8 } },
        { { b, kRows }, { a, { Axis::loop(0), Axis::loop(2) } }, { w, { Axis::loop(2), Axis::loop(1) } } });
    graph.addOp("op2", OpKind::Unary, kRowDims, { { c, kRows }, { b, kRows } });
    graph.addOp("op3", OpKind::Elementwise, kRowDims, { { d, kRows }, { c, kRows }, { a, kRows } });
    graph.addOutput(d);
    return graph;
}

std::vector<bool> hbmFlags(const run::StepInputs& inputs, int step)
{
    return inputs.distinctInputs[inputs.inputOfStep[std::size_t(step)]].fromHbm;
}

} // namespace

class TestStepInputs : public QObject {
    Q_OBJECT

private slots:
    void residualStaysOnChipWhenItFits()
    {
        const Graph graph = residualGraph();
        QVERIFY(graph.validate().empty());
        const GraphAnalysis analysis = analyzeGraph(graph);
        const run::StepInputs inputs = run::buildStepInputs(graph, analysis, 2, 1000);
        // 'a' lives from step 0 to step 3; at step 1 it is op1's operand, at step 2 it is reserved: 64 B / 2 cores.
        QCOMPARE(inputs.reservedBytesPerCore, (std::vector<std::int64_t> { 0, 0, 32, 0 }));
        QVERIFY(inputs.spilledTensors.empty());
        QCOMPARE(hbmFlags(inputs, 0), (std::vector<bool> { false, true })); // graph input from the host
        QCOMPARE(hbmFlags(inputs, 1), (std::vector<bool> { false, false, true })); // the weight
        QCOMPARE(hbmFlags(inputs, 2), (std::vector<bool> { false, false }));
        QCOMPARE(hbmFlags(inputs, 3), (std::vector<bool> { false, false, false }));
        QCOMPARE(inputs.distinctInputs.size(), std::size_t(4)); // op0 and op2 differ in where x / b come from
    }

    void residualIsSpilledWhenSramIsShort()
    {
        const Graph graph = residualGraph();
        const GraphAnalysis analysis = analyzeGraph(graph);
        // A quarter of 100 bytes is 25 < 32: 'a' must go to HBM and op3 reads it back from there.
        const run::StepInputs inputs = run::buildStepInputs(graph, analysis, 2, 100);
        QCOMPARE(inputs.reservedBytesPerCore, (std::vector<std::int64_t> { 0, 0, 0, 0 }));
        QCOMPARE(inputs.spilledTensors, (std::vector<TensorId> { *graph.findTensor("a") }));
        QCOMPARE(inputs.spilledBytes, std::int64_t(64));
        QCOMPARE(hbmFlags(inputs, 1), (std::vector<bool> { false, false, true })); // right after its producer: on chip
        QCOMPARE(hbmFlags(inputs, 3), (std::vector<bool> { false, false, true }));
    }

    void repeatedBlocksShareSearches()
    {
        Graph graph;
        TensorId previous = graph.addTensor("x", { 4, 8 }, DType::F16, TensorRole::Activation);
        graph.addInput(previous);
        for (int layer = 0; layer < 5; ++layer) {
            const std::string name = "l" + std::to_string(layer);
            const TensorId w = graph.addTensor(name + ".w", { 8, 8 }, DType::F16, TensorRole::Weight);
            const TensorId h = graph.addTensor(name + ".h", { 4, 8 }, DType::F16, TensorRole::Activation);
            const TensorId o = graph.addTensor(name + ".o", { 4, 8 }, DType::F16, TensorRole::Activation);
            graph.addOp(name + ".mm", OpKind::MatMul, { { "r", 4 }, { "c", 8 }, { "k", 8 } },
                { { h, kRows }, { previous, { Axis::loop(0), Axis::loop(2) } },
                    { w, { Axis::loop(2), Axis::loop(1) } } });
            graph.addOp(name + ".act", OpKind::Unary, kRowDims, { { o, kRows }, { h, kRows } });
            previous = o;
        }
        graph.addOutput(previous);
        QVERIFY(graph.validate().empty());
        const run::StepInputs inputs = run::buildStepInputs(graph, analyzeGraph(graph), 4, 1 << 20);
        // Layer 0's matmul reads the graph input from HBM; every later matmul and every activation op match.
        QCOMPARE(inputs.distinctInputs.size(), std::size_t(3));
        QCOMPARE(inputs.inputOfStep, (std::vector<std::uint32_t> { 0, 1, 2, 1, 2, 1, 2, 1, 2, 1 }));
        QCOMPARE(inputs.reservedBytesPerCore, std::vector<std::int64_t>(10, 0));
    }
};

QTEST_GUILESS_MAIN(TestStepInputs)
#include "tst_step_inputs.moc"
