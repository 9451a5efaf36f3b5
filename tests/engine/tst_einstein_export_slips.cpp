// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Forms of the Elk artifact's real einstein_v2 files that the format description does not promise,
// each reduced to a few nodes (the real files live in ../shared and are tested in
// tst_einstein_real): the GatherV2 'g' operator, redefined node ids, a view read before its place,
// weight concats that do not tile, slices past the end, slices of reshaped axes, reshapes of part
// of an axis, reshapes that read their input over and over, and a decode-step mask over the new
// token. Each is imported, with a warning where the file is inconsistent, never refused.
#include "engine/import/einstein_importer.h"
#include "engine/model/tensor_expr.h"

#include <QTest>

#include <string>
#include <vector>

using namespace elk;

namespace {

struct In {
    std::string shape;
    std::string dtype = "float32";
};

// One node [id, "kernel", "Type", [[input, 0], ...]] with the kernel's input_dict built from `inputs`.
std::string node(int id, const std::string& expression, const std::vector<In>& inputs, const std::string& type,
    const std::vector<int>& sources)
{
    std::string dict;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        dict += (k ? ", " : "") + std::string("\\\"input") + std::to_string(k) + "\\\": {\\\"dtype\\\": \\\""
            + inputs[k].dtype + "\\\", \\\"shape\\\": " + inputs[k].shape + "}";
    }
    std::string list;
    for (std::size_t k = 0; k < sources.size(); ++k)
        list += (k ? ", [" : "[") + std::to_string(sources[k]) + ", 0]";
    return "[" + std::to_string(id) + ", \" - einstein_v2(\\\" " + expression + " \\\", input_dict={" + dict
        + "})\", \"" + type + "\", [" + list + "]]";
}

std::string file(const std::vector<std::string>& nodes)
{
    std::string text = "[";
    for (std::size_t k = 0; k < nodes.size(); ++k)
        text += (k ? ",\n" : "\n") + nodes[k];
    return text + "\n]";
}

import::ImportOptions dims(std::int64_t batch, std::int64_t seq, std::int64_t kv = 0){ import::ImportOptions options;
options.dims.batch = batch;
options.dims.seqLen = seq;
if (kv > 0)
    options.dims.kvLen = kv;
return options;
}

import::ImportResult importText(const std::string& text, const import::ImportOptions& options = dims(2, 3)){
    return import::importEinsteinText(text, "slips.json", options);
}

std::string problems(const import::ImportResult& result)
{
    std::string text;
    for (const auto& issue : result.errors)
        text += import::toString("", issue) + "\n";
    return text.empty() ? "no errors" : text;
}

bool warns(const import::ImportResult& result, const std::string& fragment)
{
    for (const auto& warning : result.warnings) {
        if (warning.message.find(fragment) != std::string::npos)
            return true;
    }
    return false;
}

const model::Op* opNamed(const model::Graph& graph, const std::string& name)
{
    for (const model::Op& op : graph.ops()) {
        if (op.name == name)
            return &op;
    }
    return nullptr;
}

std::vector<std::int64_t> shapeOf(const model::Graph& graph, const std::string& tensor)
{
    const auto id = graph.findTensor(tensor);
    return id ? graph.tensor(*id).shape : std::vector<std::int64_t> {};
}

using Shape = std::vector<std::int64_t>;

const std::string kNegate = "output0[N0, N1] = -input0[N0, N1];";

} // namespace

class TestEinsteinExportSlips : public QObject {
    Q_OBJECT

private slots:
    void gatherOperatorIsTheNestedForm()
    {
        const std::string g = file({ node(5, "output0[N0, N1, N2] = input0[G3, N2] g input1[N0, N1];",
            { { "[32, 8]" }, { "[99, 66]", "int32" } }, "GatherV2", { 1, 2 }) });
        const std::string nested = file({ node(5, "output0[N0, N1, N2] = input0[input1[N0, N1], N2];",
            { { "[32, 8]" }, { "[99, 66]", "int32" } }, "GatherV2", { 1, 2 }) });
        const auto a = importText(g);
        const auto b = importText(nested);
        QVERIFY2(a.ok(), problems(a).c_str());
        QVERIFY2(b.ok(), problems(b).c_str());
        QCOMPARE(a.graph.ops().size(), std::size_t(1));
        QVERIFY(a.graph.exprOf(0) == b.graph.exprOf(0));
        QCOMPARE(a.graph.exprOf(0).kind, model::OpKind::Gather);
        QCOMPARE(shapeOf(a.graph, "n5"), (Shape { 2, 3, 8 }));
    }

    void gatherOperatorNeedsOneGatheredAxis()
    {
        const auto twoMissing = importText(file({ node(5, "output0[N0, N1] = input0[G3, G4] g input1[N0, N1];",
            { { "[32, 8]" }, { "[99, 66]", "int32" } }, "GatherV2", { 1, 2 }) }));
        QVERIFY(!twoMissing.ok());
        QVERIFY2(twoMissing.errors.front().message.find("both G3 and G4 are absent from output0") != std::string::npos,
            problems(twoMissing).c_str());
        const auto none = importText(file({ node(5, "output0[N0, N1] = input0[N0, N1] g input1[N0, N1];",
            { { "[32, 8]" }, { "[32, 8]", "int32" } }, "GatherV2", { 1, 2 }) }));
        QVERIFY(!none.ok());
        QVERIFY2(none.errors.front().message.find("the gathered axis") != std::string::npos, problems(none).c_str());
        QCOMPARE(none.errors.front().location, std::string("node 5 (GatherV2), kernel column 51")); // at the g
    }

    // Node 1 is defined twice: the second definition replaces it for the nodes after it.
    void redefinedIdNamesItsLatestDefinition()
    {
        const auto result = importText(file({
            node(1, kNegate, { { "[4, 8]" } }, "Negative", { 100 }),
            node(2, kNegate, { { "[4, 8]" } }, "Negative", { 1 }),
            node(1, "output0[N0, N1] = input0[N0, N1] + input1[N0, N1];", { { "[4, 8]" }, { "[4, 8]" } }, "Add",
                { 2, 1 }),
            node(3, "output0[N0, N1] = input0[N0, N1] * input1[N0, N1];", { { "[4, 8]" }, { "[4, 8]" } }, "Multiply",
                { 1, 2 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QCOMPARE(result.graph.ops().size(), std::size_t(4));
        const model::Op* add = opNamed(result.graph, "Add.1@2");
        QVERIFY(add);
        QCOMPARE(result.graph.tensor(add->tensors[2]).name, std::string("n1")); // reads the first definition
        const model::Op* multiply = opNamed(result.graph, "Multiply.3");
        QVERIFY(multiply);
        QCOMPARE(result.graph.tensor(multiply->tensors[1]).name, std::string("n1@2"));
        QVERIFY(warns(result, "1 node id(s) are defined more than once (up to 2 times; 0 with identical content"));
        QCOMPARE(result.warnings.front().location, std::string("node ids"));
    }

    // gemma2 lists one span of nodes several times with identical content: every copy runs.
    void identicalRepeatsEachRun()
    {
        const std::string first = node(1, kNegate, { { "[4, 8]" } }, "Negative", { 100 });
        const auto result = importText(file({ first, node(2, kNegate, { { "[4, 8]" } }, "Negative", { 1 }), first,
            node(3, kNegate, { { "[4, 8]" } }, "Negative", { 1 }) }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QCOMPARE(result.graph.ops().size(), std::size_t(4));
        QVERIFY(warns(result, "1 with identical content each time; e.g. id 1 at elements 0, 2"));
    }

    // llama2-70 reads one transposed weight thousands of nodes before the transpose is listed.
    void viewOfExternalsReadBeforeItsPlace()
    {
        const auto result = importText(file({
            node(5, "output0[N0, N1] +=! input0[N0, K] * input1[K, N1];", { { "[4, 8]" }, { "[8, 6]" } }, "Dot",
                { 100, 7 }),
            node(7, "output0[N1, N0] = input0[N0, N1];", { { "[6, 8]" } }, "Reshape", { 101 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QVERIFY(warns(result, "refers to node 7, which comes later in the file; it only views external tensors"));
        QCOMPARE(result.graph.ops().size(), std::size_t(1));
        QCOMPARE(shapeOf(result.graph, "p101"), (Shape { 6, 8 }));
        // A computed node read early is still an error.
        const auto computed = importText(file({
            node(5, kNegate, { { "[4, 8]" } }, "Negative", { 7 }),
            node(7, kNegate, { { "[4, 8]" } }, "Negative", { 100 }),
        }));
        QVERIFY(!computed.ok());
        QVERIFY(computed.errors.front().message.find("comes later in the file") != std::string::npos);
    }

    // gemma2's fused QKV weight: three 4608-wide parts at 0, 4608 and 10240 of 15360.
    void weightConcatThatDoesNotTileIsPackedAtItsDeclaredExtent()
    {
        const auto result = importText(file({
            node(4, "output0[N0, N1] = input0[N0, N1 - 0].when(N1 < 4, input1[N0, N1 - 6]) where N1 in 12;",
                { { "[8, 4]" }, { "[8, 4]" } }, "Concat", { 100, 101 }),
            node(5, "output0[N0, N1] +=! input0[N0, K] * input1[K, N1];", { { "[99, 8]" }, { "[8, 12]" } }, "Dot",
                { 102, 4 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QVERIFY(warns(result,
            "part input1 starts at offset 6 but the parts before it end at 4; the packed weight "
            "takes the declared extent 12 of N1"));
        QCOMPARE(shapeOf(result.graph, "n4"), (Shape { 8, 12 }));
        QCOMPARE(result.graph.tensor(*result.graph.findTensor("n4")).role, model::TensorRole::Weight);
    }

    // A Slice past the end of its input takes the extent its reader declares.
    void slicePastTheEndTakesItsReadersExtent_data()
    {
        QTest::addColumn<QString>("slice");
        QTest::addColumn<QString>("readerShape");
        QTest::addColumn<QList<qint64>>("sliced");
        QTest::addColumn<QString>("warning");
        QTest::addRow("clamped, as gemma2's RoPE slices")
            << "output0[N0, N1] = input0[N0 + 0, N1 + 0] where N0 in 4, N1 in 8;"
            << "[4, 6]" << QList<qint64> { 4, 6 }
            << "N1 in 8 at offset 0 reads past the end of input0 axis 1 (extent 6); clamped to 6, as its reader "
               "declares";
        QTest::addRow("padded, as gemma2's MLP slices")
            << "output0[N0, N1] = input0[N0 + 0, N1 + 0] where N0 in 4, N1 in 8;"
            << "[4, 8]" << QList<qint64> { 4, 8 }
            << "taken as a copy of 6 element(s) from offset 0, zero-padded to the declared 8";
        QTest::addRow("wholly past the end")
            << "output0[N0, N1] = input0[N0 + 0, N1 + 8] where N0 in 4, N1 in 8;"
            << "[4, 8]" << QList<qint64> { 4, 8 } << "N1 in 8 at offset 8 reads past the end";
        QTest::addRow("inside, shifted back")
            << "output0[N0, N1] = input0[N0 + 0, N1 + 4] where N0 in 4, N1 in 4;"
            << "[4, 4]" << QList<qint64> { 4, 4 } << "taken as a copy of 4 element(s) from offset 2";
    }

    void slicePastTheEndTakesItsReadersExtent()
    {
        QFETCH(QString, slice);
        QFETCH(QString, readerShape);
        QFETCH(QList<qint64>, sliced);
        QFETCH(QString, warning);
        const auto result = importText(file({
            node(1, kNegate, { { "[4, 6]" } }, "Negative", { 100 }),
            node(2, slice.toStdString(), { { "[4, 6]" } }, "Slice", { 1 }),
            node(3, kNegate, { { readerShape.toStdString() } }, "Negative", { 2 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QVERIFY2(warns(result, warning.toStdString()),
            result.warnings.empty() ? "no warning" : result.warnings.front().message.c_str());
        QCOMPARE(shapeOf(result.graph, "n2"), Shape(sliced.begin(), sliced.end()));
        QVERIFY(result.graph.validate().empty());
    }

    // RoPE halves of a head dim that is reshaped out of the hidden axis (llama2-13), and retnet's even
    // elements: the slice reads its region of the stored [4, 16] in place. The operand covers less
    // than the tensor (the IR has no offsets); each copy moves what it writes.
    void sliceOfAReshapedAxisReadsItsRegion_data()
    {
        QTest::addColumn<QString>("slice");
        QTest::addColumn<QList<qint64>>("operand");
        QTest::addRow("second half of each head")
            << "output0[N0, N1, N2] = input0[N0 + 0, N1 + 0, N2 + 4] where N2 in 4;" << QList<qint64> { 4, 12 };
        QTest::addRow("first head only") << "output0[N0, N1, N2] = input0[N0 + 0, N1 + 0, N2 + 0] where N1 in 1;"
                                         << QList<qint64> { 4, 8 };
        QTest::addRow("even elements") << "output0[N0, N1, N2] = input0[N0 + 0, N1 + 0, N2 * 2 + 0] where N2 in 4;"
                                       << QList<qint64> { 4, 12 };
    }

    void sliceOfAReshapedAxisReadsItsRegion()
    {
        QFETCH(QString, slice);
        QFETCH(QList<qint64>, operand);
        const auto result = importText(file({
            node(1, kNegate, { { "[4, 16]" } }, "Negative", { 100 }),
            node(2, "output0[N0, N1, N2] = input0[N0, N1 * 8 + N2] where N1 in 2, N2 in 8;", { { "[4, 16]" } },
                "Reshape", { 1 }),
            node(3, slice.toStdString(), { { "[4, 2, 8]" } }, "Slice", { 2 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QVERIFY(result.graph.validate().empty());
        const model::Op* op = opNamed(result.graph, "Slice.3");
        QVERIFY(op);
        const auto id = model::OpId(op - result.graph.ops().data());
        QCOMPARE(model::operandShape(result.graph.exprOf(id), 1), Shape(operand.begin(), operand.end()));
        QCOMPARE(result.graph.tensor(op->tensors[1]).shape, (Shape { 4, 16 }));
        const std::int64_t written = model::operandElements(result.graph.exprOf(id), 0);
        QCOMPARE(model::byteCount(result.graph.exprOf(id)), 2 * written * 4);
    }

    // gemma2 reshapes 2048 of a 4608-wide K slice into 16 heads of 128.
    void reshapeOfPartOfAnAxisIsACropThenAView()
    {
        const auto result = importText(file({
            node(1, kNegate, { { "[4, 12]" } }, "Negative", { 100 }),
            node(2, "output0[N0, N1, N2] = input0[N0, N1 * 4 + N2] where N1 in 2, N2 in 4;", { { "[4, 12]" } },
                "Reshape", { 1 }),
            node(3, "output0[N0, N1, N2] = -input0[N0, N1, N2];", { { "[4, 2, 4]" } }, "Negative", { 2 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QCOMPARE(result.graph.ops().size(), std::size_t(3));
        QCOMPARE(result.graph.exprOf(1).kind, model::OpKind::Slice);
        QCOMPARE(model::operandShape(result.graph.exprOf(1), 0), (Shape { 4, 8 }));
        QCOMPARE(shapeOf(result.graph, "n3"), (Shape { 4, 2, 4 }));
    }

    // gemma2 and llama2-70 reshape their attention outputs (16 x 128, 8 x 128) into the wider
    // hidden size the output projection expects: the input is read over and over.
    void reshapeThatRereadsItsInputIsACopy()
    {
        const auto result = importText(file({
            node(1, "output0[N0, N1, N2] = -input0[N0, N1, N2];", { { "[4, 2, 4]" } }, "Negative", { 100 }),
            node(2, "output0[N0, N1] = input0[N0, N1 / 4 % 2, N1 % 4] where N1 in 12;", { { "[4, 2, 4]" } }, "Reshape",
                { 1 }),
            node(3, "output0[N0, N1] +=! input0[N0, K] * input1[K, N1];", { { "[4, 12]" }, { "[12, 3]" } }, "Dot",
                { 2, 101 }),
        }));
        QVERIFY2(result.ok(), problems(result).c_str());
        QVERIFY(warns(result, "N1 in 12 reads input0 through digits that cover fewer elements"));
        const model::Op* copy = opNamed(result.graph, "Reshape.2");
        QVERIFY(copy);
        QCOMPARE(result.graph.exprOf(model::OpId(copy - result.graph.ops().data())).kind, model::OpKind::Slice);
        QCOMPARE(shapeOf(result.graph, "n2"), (Shape { 4, 12 }));
        QCOMPARE(shapeOf(result.graph, "n3"), (Shape { 4, 3 }));
    }

    // BERT's mask is computed from the token input before attention; in a decode step its key axis
    // is the new token (1), added to scores over the KV positions: broadcast over them.
    void decodeMaskOverTheNewTokenIsBroadcast()
    {
        const std::string scores = "output0[B, N, M] +=! input0[B, N, K] * input1[B, M, K];";
        const auto result = importText(
            file({
                node(1, "output0[B, S, K] = -input0[B, S, K];", { { "[99, 66, 8]" } }, "Negative", { 100 }),
                node(2, "output0[B, S, K] = -input0[B, S, K];", { { "[99, 66, 8]" } }, "Negative", { 101 }),
                node(3, scores, { { "[99, 66, 8]" }, { "[99, 66, 8]" } }, "BatchMatMul", { 1, 2 }),
                node(4, "output0[B, M] = -input0[B, M];", { { "[99, 66]" } }, "Negative", { 102 }),
                node(5, "output0[B, N, M] = input0[B, N, M] + input1[B, M];", { { "[99, 66, 66]" }, { "[99, 66]" } },
                    "Add", { 3, 4 }),
            }),
            dims(2, 1, 5));
        QVERIFY2(result.ok(), problems(result).c_str());
        QVERIFY(warns(result, "input1 holds M over the new tokens, which another operand holds over the KV positions"));
        QCOMPARE(shapeOf(result.graph, "n5"), (Shape { 2, 1, 5 }));
        QCOMPARE(shapeOf(result.graph, "n4"), (Shape { 2, 1 }));
    }
};

QTEST_GUILESS_MAIN(TestEinsteinExportSlips)
#include "tst_einstein_export_slips.moc"
