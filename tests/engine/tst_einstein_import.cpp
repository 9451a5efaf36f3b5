// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// NNFusion einstein_v2 importer: the fixtures under tests/data/einstein are small graphs written
// from elk-reference.md §1 (a matmul chain, an attention block with batch/sequence placeholders, a
// convolution, views, concatenations, a gather) plus broken files.

#include <QtTest>

#include <fstream>
#include <sstream>

#include "engine/import/einstein_importer.h"
#include "engine/model/tensor_expr.h"

using namespace elk;
using namespace Qt::StringLiterals;
using model::OpKind;
using model::TensorRole;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(ELK_TEST_DATA_DIR "/einstein/") + name;
}

QString fixture(const char* name)
{
    return fixture(QString::fromUtf8(name));
}

std::string readText(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// -1: not bound.
import::ImportOptions dims(qint64 batch, qint64 seq, qint64 kv = -1){ import::ImportOptions options;
if (batch >= 0)
    options.dims.batch = batch;
if (seq >= 0)
    options.dims.seqLen = seq;
if (kv >= 0)
    options.dims.kvLen = kv;
return options;
}

QString shapeText(const std::vector<std::int64_t>& shape)
{
    QStringList parts;
    for (std::int64_t extent : shape)
        parts << QString::number(extent);
    return u"["_s + parts.join(u',') + u"]"_s;
}

// "Dot.10 matmul [2,3,128,64] 98304": name, kind, loop extents, FLOPs.
QStringList opLines(const model::Graph& graph)
{
    QStringList lines;
    for (model::OpId id = 0; id < graph.ops().size(); ++id) {
        const model::TensorExpr& expr = graph.exprOf(id);
        lines << QString::fromStdString(graph.op(id).name) + u' ' + QLatin1String(model::toString(expr.kind)) + u' '
                + shapeText(expr.dimExtents) + u' ' + QString::number(model::flopCount(expr));
    }
    return lines;
}

// "p1 [2,3,64] f16 activation in": name, shape, dtype, role, graph input / output.
QStringList tensorLines(const model::Graph& graph)
{
    QStringList lines;
    for (model::TensorId id = 0; id < graph.tensors().size(); ++id) {
        const model::Tensor& tensor = graph.tensor(id);
        lines << QString::fromStdString(tensor.name) + u' ' + shapeText(tensor.shape) + u' '
                + QLatin1String(model::toString(tensor.dtype)) + u' ' + QLatin1String(model::toString(tensor.role))
                + (graph.isGraphInput(id) ? u" in"_s : QString()) + (graph.isGraphOutput(id) ? u" out"_s : QString());
    }
    return lines;
}

QString errorsText(const import::ImportResult& result)
{
    QStringList lines;
    for (const auto& issue : result.errors)
        lines << QString::fromStdString(import::toString("", issue));
    return lines.join(u'\n');
}

const model::Tensor& tensorNamed(const model::Graph& graph, const char* name)
{
    const auto id = graph.findTensor(name);
    if (!id)
        qFatal("no tensor %s", name);
    return graph.tensor(*id);
}

} // namespace

class TestEinsteinImport : public QObject {
    Q_OBJECT

private slots:
    void importsFixture_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<qint64>("kv");
        QTest::addColumn<QStringList>("ops");
        QTest::addColumn<QStringList>("tensors");
        QTest::addColumn<qint64>("flops");

        // Dot: 2 * B*S*N*K; Relu one per element; Add one per element. Weights are the external
        // inputs without placeholders, x (99 x 66 x 64) is the token input.
        QTest::addRow("matmul chain, batch 2 sequence 3")
            << u"matmul_chain.json"_s << qint64(2) << qint64(3) << qint64(-1)
            << (QStringList() << u"Dot.10 matmul [2,3,128,64] 98304"_s << u"Relu.11 unary [2,3,128] 768"_s
                              << u"Dot.12 matmul [2,3,64,128] 98304"_s << u"Add.13 elementwise [2,3,64] 384"_s)
            << (QStringList() << u"p1 [2,3,64] f16 activation in"_s << u"p2 [64,128] f16 weight in"_s
                              << u"n10 [2,3,128] f16 activation"_s << u"n11 [2,3,128] f16 activation"_s
                              << u"p3 [128,64] f16 weight in"_s << u"n12 [2,3,64] f16 activation"_s
                              << u"n13 [2,3,64] f16 output out"_s)
            << qint64(197760);

        // 18 view nodes fold away; the fused QKV weight n19 is one packed weight. Heads (396 = 4 x 99)
        // split the batch loop into B.0 x B.1; the output projection reads [h, d] as two loop dims.
        // Total = 32832 B S + 280 B S^2 (S = 3 here).
        QTest::addRow("attention block, prefill, batch 2 sequence 3")
            << u"attention.json"_s << qint64(2) << qint64(3) << qint64(-1)
            << (QStringList() << u"Dot.20 matmul [2,3,192,64] 147456"_s << u"Slice.21 slice [2,3,64,3] 0"_s
                              << u"Slice.22 slice [2,3,64,3] 0"_s << u"Slice.23 slice [2,3,64,3] 0"_s
                              << u"BatchMatMul.30 matmul [2,4,3,3,16] 2304"_s
                              << u"Divide.32 elementwise [2,4,3,3,1] 72"_s << u"Softmax.33-36 softmax [2,4,3,3] 360"_s
                              << u"BatchMatMul.40 matmul [2,4,3,16,3] 2304"_s << u"Dot.44 matmul [2,3,64,4,16] 49152"_s
                              << u"Add.45 elementwise [2,3,64] 384"_s)
            << (QStringList() << u"n19 [64,192] f16 weight in"_s << u"p1 [2,3,64] f16 activation in"_s
                              << u"n20 [2,3,192] f16 activation"_s << u"n21 [2,3,64] f16 activation"_s
                              << u"n22 [2,3,64] f16 activation out"_s << u"n23 [2,3,64] f16 activation out"_s
                              << u"n30 [2,4,3,3] f16 activation"_s << u"p5 [1] f16 weight in"_s
                              << u"n32 [2,4,3,3] f16 activation"_s << u"n36 [2,4,3,3] f16 activation"_s
                              << u"n40 [2,4,3,16] f16 activation"_s << u"p6 [64,64] f16 weight in"_s
                              << u"n44 [2,3,64] f16 activation"_s << u"n45 [2,3,64] f16 output out"_s)
            << qint64(202032);

        // Decode: scores, scale, softmax and the weighted sum run over the KV length 8, K and V come
        // from the cache [B, kv, heads, head dim] and the new rows are appended to it.
        // Total = 32832 B + 280 B kv.
        QTest::addRow("attention block, decode, batch 2 kv 8")
            << u"attention.json"_s << qint64(2) << qint64(1) << qint64(8)
            << (QStringList() << u"Dot.20 matmul [2,1,192,64] 49152"_s << u"Slice.21 slice [2,1,64,3] 0"_s
                              << u"Slice.22 slice [2,1,64,3] 0"_s << u"Slice.23 slice [2,1,64,3] 0"_s
                              << u"kv_append.n22 slice [2,1,64] 0"_s << u"BatchMatMul.30 matmul [2,4,1,8,16] 2048"_s
                              << u"Divide.32 elementwise [2,4,1,8,1] 64"_s << u"Softmax.33-36 softmax [2,4,1,8] 320"_s
                              << u"kv_append.n23 slice [2,1,64] 0"_s << u"BatchMatMul.40 matmul [2,4,1,16,8] 2048"_s
                              << u"Dot.44 matmul [2,1,64,4,16] 16384"_s << u"Add.45 elementwise [2,1,64] 128"_s)
            << (QStringList() << u"n19 [64,192] f16 weight in"_s << u"p1 [2,1,64] f16 activation in"_s
                              << u"n20 [2,1,192] f16 activation"_s << u"n21 [2,1,64] f16 activation"_s
                              << u"n22 [2,1,64] f16 activation"_s << u"n23 [2,1,64] f16 activation"_s
                              << u"kv_cache.n22 [2,8,4,16] f16 kv_cache in"_s
                              << u"kv_new.n22 [2,1,64] f16 kv_cache out"_s << u"n30 [2,4,1,8] f16 activation"_s
                              << u"p5 [1] f16 weight in"_s << u"n32 [2,4,1,8] f16 activation"_s
                              << u"n36 [2,4,1,8] f16 activation"_s << u"kv_cache.n23 [2,8,4,16] f16 kv_cache in"_s
                              << u"kv_new.n23 [2,1,64] f16 kv_cache out"_s << u"n40 [2,4,1,16] f16 activation"_s
                              << u"p6 [64,64] f16 weight in"_s << u"n44 [2,1,64] f16 activation"_s
                              << u"n45 [2,1,64] f16 output out"_s)
            << qint64(70144);

        // Conv: 2 x N F HO WO C KH KW; the padded 3x3 conv reads a zero-padded copy [.., 6, 6] of its
        // input; the pool counts one compare per window element.
        QTest::addRow("convolutions and a pool, batch 2")
            << u"conv.json"_s << qint64(2) << qint64(-1) << qint64(-1)
            << (QStringList() << u"Convolution.50 conv [2,4,4,4,3,3,3] 6912"_s
                              << u"Convolution.51.input0.read0 slice [2,4,4,3,4,3] 0"_s
                              << u"Convolution.51 conv [2,4,4,4,4,3,3] 9216"_s
                              << u"MaxPool.52 pool [2,4,2,2,2,2] 128"_s)
            << (QStringList() << u"p7 [2,3,9,9] f32 activation in"_s << u"p8 [4,3,3,3] f32 weight in"_s
                              << u"n50 [2,4,4,4] f32 activation"_s << u"p9 [4,4,3,3] f32 weight in"_s
                              << u"n51.input0.read0 [2,4,6,6] f32 activation"_s << u"n51 [2,4,4,4] f32 activation"_s
                              << u"n52 [2,4,2,2] f32 output out"_s)
            << qint64(16256);

        // Convert, Broadcast and Reshape produce no operator: Multiply reads the f32 input and the
        // [8] bias directly, the Sum reads [B, 8] as [B, 2, 4].
        QTest::addRow("views: convert, broadcast, reshape")
            << u"views.json"_s << qint64(2) << qint64(-1) << qint64(-1)
            << (QStringList() << u"Multiply.62 elementwise [2,8] 16"_s << u"Sum.64 reduce [2,2,4] 16"_s)
            << (QStringList() << u"p1 [2,8] f32 activation in"_s << u"p2 [8] f16 weight in"_s
                              << u"n62 [2,8] f32 activation"_s << u"n64 [2,2] f32 output out"_s)
            << qint64(32);

        // Concatenated weights become one packed weight n70; concatenations of activations are one
        // copy each, their joined axis stored as (part, element).
        QTest::addRow("concat: weights folded, activations copied")
            << u"concat.json"_s << qint64(2) << qint64(-1) << qint64(-1)
            << (QStringList() << u"Dot.71 matmul [2,16,8] 512"_s << u"Negative.72 unary [2,16] 32"_s
                              << u"Concat.73 slice [2,2,16] 0"_s << u"Concat.74 slice [2,3,16,2] 0"_s
                              << u"Tanh.75 unary [2,3,16] 96"_s)
            << (QStringList() << u"n70 [8,16] f32 weight in"_s << u"p1 [2,8] f32 activation in"_s
                              << u"n71 [2,16] f32 activation"_s << u"n72 [2,16] f32 activation"_s
                              << u"n73 [2,2,16] f32 activation"_s << u"n74 [2,3,16] f32 activation"_s
                              << u"n75 [2,3,16] f32 output out"_s)
            << qint64(640);

        QTest::addRow("gather and a strided slice, batch 2 sequence 3")
            << u"gather.json"_s << qint64(2) << qint64(3) << qint64(-1)
            << (QStringList() << u"GatherV2.80 gather [2,3,8,32] 0"_s << u"Slice.81 slice [2,3,4,2] 0"_s)
            << (QStringList() << u"p2 [32,8] f32 weight in"_s << u"p1 [2,3] i32 activation in"_s
                              << u"n80 [2,3,8] f32 activation"_s << u"n81 [2,3,4] f32 output out"_s)
            << qint64(0);
        // NNFusion's one-node Softmax template (max, sum of exp, divide, with temporaries) is one
        // Softmax (5 per element); other temporaries stay operators of their own.
        QTest::addRow("kernels of several statements, batch 2")
            << u"statements.json"_s << qint64(2) << qint64(-1) << qint64(-1)
            << (QStringList() << u"Softmax.90 softmax [2,10] 100"_s << u"SumSquares.91.temp0 unary [2,10] 20"_s
                              << u"SumSquares.91 reduce [2,10] 20"_s << u"Sum.92 reduce [1,2] 2"_s)
            << (QStringList() << u"p1 [2,10] f32 activation in"_s << u"n90 [2,10] f32 activation"_s
                              << u"n91.temp0 [2,10] f32 activation"_s << u"n91 [2] f32 activation"_s
                              << u"n92 [1] f32 output out"_s)
            << qint64(142);
    }

    void importsFixture()
    {
        QFETCH(QString, file);
        QFETCH(qint64, batch);
        QFETCH(qint64, seq);
        QFETCH(qint64, kv);
        QFETCH(QStringList, ops);
        QFETCH(QStringList, tensors);
        QFETCH(qint64, flops);
        const auto result = import::importEinsteinFile(fixture(file).toStdString(), dims(batch, seq, kv));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        QVERIFY(result.warnings.empty());
        QCOMPARE(opLines(result.graph), ops);
        QCOMPARE(tensorLines(result.graph), tensors);
        QCOMPARE(qint64(result.graph.totalFlops()), flops);
        QVERIFY(result.graph.validate().empty());
        QCOMPARE(QString::fromStdString(result.graph.name()), file.chopped(5));
    }

    // Data movement is charged what it moves: a concatenation of activations is a copy (a Slice
    // with one input per part: no FLOPs, each part read once, the result written once), and a
    // gather or slice reads only the elements it copies, not its whole source. Batch 2 (seq 3), f32:
    //   Concat.73 [2,32] from n72, n71 [2,16]:  (64 + 32 + 32) · 4 = 512 bytes
    //   Concat.74 [2,48] from n73 [2,32], n71 [2,16]:  (96 + 64 + 32) · 4 = 768 bytes
    //   GatherV2.80 [2,3,8]: 6 rows of p2 [32,8] by p1 [2,3] i32:  (48 + 48) · 4 + 6 · 4 = 408 bytes
    //   Slice.81 [2,3,4]: every other element of n80 [2,3,8]:  (24 + 24) · 4 = 192 bytes
    //   Concat.10 [2,16] f16 from three parts [2,4], [2,8], [2,4]:  (32 + 8 + 16 + 8) · 2 = 128 bytes
    //   (as an elementwise op it was charged 2 · 32 = 64 FLOPs)
    void dataMovementCountsWhatItMoves_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<qint64>("bytes");
        QTest::addRow("two-part concat") << u"concat.json"_s << u"Concat.73"_s << int(model::OpKind::Slice) << 2
                                         << qint64(512);
        QTest::addRow("unequal parts") << u"concat.json"_s << u"Concat.74"_s << int(model::OpKind::Slice) << 2
                                       << qint64(768);
        QTest::addRow("gather reads 6 rows")
            << u"gather.json"_s << u"GatherV2.80"_s << int(model::OpKind::Gather) << 2 << qint64(408);
        QTest::addRow("strided slice") << u"gather.json"_s << u"Slice.81"_s << int(model::OpKind::Slice) << 1
                                       << qint64(192);
        QTest::addRow("three-part concat")
            << u"concat3.json"_s << u"Concat.10"_s << int(model::OpKind::Slice) << 3 << qint64(128);
    }
    void dataMovementCountsWhatItMoves()
    {
        QFETCH(QString, file);
        QFETCH(QString, op);
        QFETCH(int, kind);
        QFETCH(int, inputs);
        QFETCH(qint64, bytes);
        const auto result = import::importEinsteinFile(fixture(file).toStdString(), dims(2, 3));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        const auto id = result.graph.findOp(op.toStdString());
        QVERIFY(id);
        const model::TensorExpr& expr = result.graph.exprOf(*id);
        QCOMPARE(int(expr.kind), kind);
        QCOMPARE(int(expr.operands.size()) - 1, inputs);
        QCOMPARE(qint64(model::flopCount(expr)), qint64(0));
        QCOMPARE(qint64(model::byteCount(expr)), bytes);
    }

    // A GatherV2 whose index tensor has shape [1] and whose output drops the gathered axis picks one
    // slice: ViT's class token, `output0[N0, N1] = input0[N0, G3, N1] g input1[N2]`. N2 runs over one
    // position, so it is no loop variable (before, "index N2 is not in output0[...]" refused it).
    void issue42_gatherOfOneRowDropsItsAxis()
    {
        // One node as NNFusion writes it: [id, " - einstein_v2(\" expr \", input_dict={...})", type, inputs].
        auto node = [](int id, const std::string& expr, const std::vector<std::string>& shapes, const std::string& type,
                        const std::string& inputs) {
            std::string dict;
            for (std::size_t i = 0; i < shapes.size(); ++i)
                dict += std::string(i ? ", " : "") + "\\\"input" + std::to_string(i) + "\\\": {\\\"dtype\\\": \\\""
                    + (type == "GatherV2" && i == 1 ? "int32" : "float32") + "\\\", \\\"shape\\\": " + shapes[i] + "}";
            return "[" + std::to_string(id) + ", \" - einstein_v2(\\\" " + expr + " \\\", input_dict={" + dict
                + "})\", \"" + type + "\", " + inputs + "]";
        };
        const std::string text = "["
            + node(90, "output0[N0, N1, N2] = input0[N0, N1, N2] + input1[N1, N2];", { "[99, 5, 8]", "[5, 8]" }, "Add",
                "[[1, 0], [2, 0]]")
            + ",\n"
            + node(91, "output0[N0, N1] = input0[N0, G3, N1] g input1[N2];", { "[99, 5, 8]", "[1]" }, "GatherV2",
                "[[90, 0], [3, 0]]")
            + ",\n" + node(92, "output0[N0, N1] = input0[N0, N1].call(`tanh`);", { "[99, 8]" }, "Tanh", "[[91, 0]]")
            + ",\n" + "[93, \"\", \"Result\", [[92, 0]]]]";
        const auto result = import::importEinsteinText(text, "class_token.json", dims(2, -1));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        const auto& graph = result.graph;
        QVERIFY(graph.validate().empty());
        // Loop dims of the gather: N0, N1, the 5 table rows, and the [1] index's unit axis.
        QCOMPARE(opLines(graph),
            QStringList() << u"Add.90 elementwise [2,5,8] 80"_s << u"GatherV2.91 gather [2,8,5,1] 0"_s
                          << u"Tanh.92 unary [2,8] 16"_s);
        QCOMPARE(shapeText(tensorNamed(graph, "n91").shape), u"[2,8]"_s);
        QCOMPARE(shapeText(tensorNamed(graph, "p3").shape), u"[1]"_s);
        const model::TensorExpr& expr = graph.exprOf(*graph.findOp("GatherV2.91"));
        QCOMPARE(int(expr.kind), int(OpKind::Gather));
        // One row per batch: 16 f32 written, 16 read from the table, the i32 index: (16 + 16) · 4 + 4.
        QCOMPARE(qint64(model::byteCount(expr)), qint64(132));
    }

    // Reshape, transpose, Broadcast, Convert and weight Concat nodes leave no operator and no tensor of
    // their own: their readers address the stored tensor.
    void viewsAreFolded_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QList<int>>("viewNodes");
        QTest::addRow("attention: head reshapes, transposes, the scale broadcast")
            << u"attention.json"_s << QList<int> { 24, 25, 26, 27, 28, 29, 31, 37, 38, 39, 41, 42, 43 };
        QTest::addRow("views: convert, broadcast, reshape") << u"views.json"_s << QList<int> { 60, 61, 63 };
    }

    void viewsAreFolded()
    {
        QFETCH(QString, file);
        QFETCH(QList<int>, viewNodes);
        const auto result = import::importEinsteinFile(fixture(file).toStdString(), dims(2, 3));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        for (const int id : viewNodes) {
            const std::string tensor = "n" + std::to_string(id);
            QVERIFY2(!result.graph.findTensor(tensor), tensor.c_str());
            for (const auto& op : result.graph.ops())
                QVERIFY2(op.name.find("." + std::to_string(id)) == std::string::npos, op.name.c_str());
        }
    }

    // The exporter's placeholders: 99 = batch, 66 = sequence, 396 = 4 heads x batch.
    void placeholdersBind_data()
    {
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<qint64>("kv");
        QTest::addRow("prefill 1 x 1") << qint64(1) << qint64(1) << qint64(-1);
        QTest::addRow("prefill 2 x 3") << qint64(2) << qint64(3) << qint64(-1);
        QTest::addRow("prefill 16 x 128") << qint64(16) << qint64(128) << qint64(-1);
        QTest::addRow("prefill 32 x 2048") << qint64(32) << qint64(2048) << qint64(-1);
        QTest::addRow("decode 1, kv 1") << qint64(1) << qint64(1) << qint64(1);
        QTest::addRow("decode 32, kv 2048") << qint64(32) << qint64(1) << qint64(2048);
        QTest::addRow("decode 64, kv 4096") << qint64(64) << qint64(1) << qint64(4096);
    }

    void placeholdersBind()
    {
        QFETCH(qint64, batch);
        QFETCH(qint64, seq);
        QFETCH(qint64, kv);
        const auto result = import::importEinsteinFile(fixture("attention.json").toStdString(), dims(batch, seq, kv));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        const auto& graph = result.graph;
        QCOMPARE(tensorNamed(graph, "p1").shape, (std::vector<std::int64_t> { batch, seq, 64 }));
        const qint64 keys = kv >= 0 ? kv : seq;
        QCOMPARE(tensorNamed(graph, "n30").shape, (std::vector<std::int64_t> { batch, 4, seq, keys }));
        // Per token 32832 FLOPs of projections and residual, per (query, key) pair 280.
        QCOMPARE(qint64(graph.totalFlops()), 32832 * batch * seq + 280 * batch * seq * keys);
    }

    void decodeReadsTheKvCache()
    {
        const auto result = import::importEinsteinFile(fixture("attention.json").toStdString(), dims(3, 1, 100));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        const auto& graph = result.graph;
        for (const char* name : { "kv_cache.n22", "kv_cache.n23" }) {
            const auto id = *graph.findTensor(name);
            QCOMPARE(graph.tensor(id).role, TensorRole::KvCache);
            QCOMPARE(graph.tensor(id).shape, (std::vector<std::int64_t> { 3, 100, 4, 16 }));
            QVERIFY(graph.isGraphInput(id));
        }
        const auto scores = *graph.findOp("BatchMatMul.30");
        QCOMPARE(graph.tensor(graph.op(scores).tensors[2]).name, std::string("kv_cache.n22"));
        const auto values = *graph.findOp("BatchMatMul.40");
        QCOMPARE(graph.tensor(graph.op(values).tensors[2]).name, std::string("kv_cache.n23"));
        // The softmax normalises over all 100 keys, not over the one new token.
        const auto softmax = *graph.findOp("Softmax.33-36");
        QCOMPARE(graph.exprOf(softmax).kind, OpKind::Softmax);
        QCOMPARE(model::operandShape(graph.exprOf(softmax), 1), (std::vector<std::int64_t> { 3, 4, 1, 100 }));
        // The new rows are written into the cache, once; the Results on them are that write.
        QCOMPARE(graph.bytesOfRole(TensorRole::KvCache), qint64(2 * (3 * 100 * 64 + 3 * 64) * 2));
        QVERIFY(!graph.isGraphOutput(*graph.findTensor("n22")));
        QVERIFY(graph.isGraphOutput(*graph.findTensor("kv_new.n22")));
    }

    void prefillHasNoKvCache()
    {
        const auto result = import::importEinsteinFile(fixture("attention.json").toStdString(), dims(2, 5));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        QCOMPARE(result.graph.bytesOfRole(TensorRole::KvCache), qint64(0));
        // K and V are the "present" outputs (Result nodes) of the prefill.
        QVERIFY(result.graph.isGraphOutput(*result.graph.findTensor("n22")));
    }

    // Identical operators share one expression (and later one partition search).
    void identicalOpsShareAnExpression()
    {
        const auto result = import::importEinsteinFile(fixture("attention.json").toStdString(), dims(2, 3));
        QVERIFY2(result.ok(), qPrintable(errorsText(result)));
        const auto& graph = result.graph;
        const auto q = graph.op(*graph.findOp("Slice.21")).expr;
        QCOMPARE(graph.op(*graph.findOp("Slice.22")).expr, q);
        QCOMPARE(graph.op(*graph.findOp("Slice.23")).expr, q);
        QCOMPARE(graph.expressions().size(), graph.ops().size() - 2);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("source"); // a fixture name, or JSON text
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("message");

        // Kernel text of one statement over inputs of the given shapes, as a JSON string literal.
        auto kernel = [](const QString& expression, const QStringList& shapes) {
            QStringList entries;
            for (int i = 0; i < shapes.size(); ++i)
                entries << u"\\\"input%1\\\": {\\\"dtype\\\": \\\"float32\\\", \\\"shape\\\": %2}"_s.arg(i).arg(
                    shapes[i]);
            return u"\" - einstein_v2(\\\" %1 \\\", input_dict={%2})\""_s.arg(expression, entries.join(u", "_s));
        };
        auto node = [&](int id, const QString& expression, const QStringList& shapes, const QString& type,
                        const QString& inputs) {
            return u"[%1, %2, \"%3\", %4]"_s.arg(id).arg(kernel(expression, shapes), type, inputs);
        };
        const QString add = u"output0[N] = input0[N] + input1[N];"_s;

        QTest::addRow("JSON syntax: line and column")
            << u"broken_syntax.json"_s << qint64(-1) << qint64(-1) << u"line 3, column 3"_s << u"JSON syntax error"_s;
        QTest::addRow("not an array") << u"{\"nodes\": []}"_s << qint64(-1) << qint64(-1) << u""_s
                                      << u"expected a JSON array of nodes"_s;
        QTest::addRow("node is not [id, kernel, type, inputs]")
            << u"[[1, \"\", \"Result\"]]"_s << qint64(-1) << qint64(-1) << u"/0"_s << u"an array of 3 element(s)"_s;
        QTest::addRow("node id is not an integer") << u"[[\"a\", \"\", \"Result\", []]]"_s << qint64(-1) << qint64(-1)
                                                   << u"/0/0"_s << u"node id (an integer)"_s;
        QTest::addRow("input is not [id, port]")
            << u"[[1, \"\", \"Result\", [[2]]]]"_s << qint64(-1) << qint64(-1) << u"/0/3/0"_s << u"[node id, port]"_s;
        QTest::addRow("expression does not parse: node and column")
            << u"broken_expression.json"_s << qint64(-1) << qint64(-1) << u"node 5 (Add), kernel column 53"_s
            << u"expected a value"_s;
        QTest::addRow("kernel is not einstein_v2")
            << u"[[3, \" - einstein_v3(\\\"output0[N] = input0[N]\\\")\", \"Relu\", [[1, 0]]]]"_s << qint64(-1)
            << qint64(-1) << u"node 3 (Relu), kernel column 4"_s << u"expected '- einstein_v2('"_s;
        QTest::addRow("kernel without input_dict")
            << u"[[3, \" - einstein_v2(\\\"output0[N] = input0[N]\\\")\", \"Relu\", [[1, 0]]]]"_s << qint64(-1)
            << qint64(-1) << u"node 3 (Relu), kernel column 41"_s << u"has no input_dict"_s;
        QTest::addRow("unterminated string in the kernel")
            << u"[[3, \" - einstein_v2(\\\"output0[N] = input0[N]\", \"Relu\", [[1, 0]]]]"_s << qint64(-1) << qint64(-1)
            << u"node 3 (Relu), kernel column 16"_s << u"unterminated string"_s;
        QTest::addRow("missing index list bracket")
            << u"["_s + node(4, u"output0[N = input0[N];"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 28"_s
            << u"expected ',' or ']' in the index list of output0, found '='"_s;
        QTest::addRow("no assignment operator")
            << u"["_s + node(4, u"output0[N] input0[N];"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 29"_s << u"expected an assignment"_s;
        QTest::addRow("unknown tensor in the expression") << u"["_s
                + node(4, u"output0[N] = input0[N] + input3[N];"_s, { u"[4]"_s }, u"Add"_s, u"[[1, 0]]"_s)
                + u"]"_s << qint64(-1) << qint64(-1) << u"node 4 (Add), kernel column 43"_s
                                                          << u"input3 is not declared in input_dict"_s;
        QTest::addRow("input_dict declares more inputs than the node has")
            << u"["_s + node(4, add, { u"[4]"_s, u"[4]"_s, u"[4]"_s }, u"Add"_s, u"[[1, 0], [2, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Add), kernel column 161"_s
            << u"input_dict declares input2, but the node has 2"_s;
        QTest::addRow("unknown dtype") << u"["_s
                + node(4, u"output0[N] = input0[N];"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s)
                      .replace(u"float32"_s, u"float7"_s)
                + u"]"_s << qint64(-1) << qint64(-1)
                                       << u"node 4 (Relu), kernel column 57"_s << u"unknown dtype \"float7\""_s;
        QTest::addRow("index rank does not match the input")
            << u"["_s + node(4, u"output0[N] = input0[N];"_s, { u"[4, 2]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 31"_s
            << u"input0 has 2 axes [4, 2] but is indexed with 1"_s;
        QTest::addRow("unsupported index arithmetic") << u"["_s
                + node(4, u"output0[N] = input0[N * N] where N in 2;"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s)
                + u"]"_s << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 38"_s
                                                      << u"may multiply an index name by a constant only"_s;
        QTest::addRow("extent known only from arithmetic") << u"["_s
                + node(4, u"output0[HO] >=! input0[HO * 2 + KH];"_s, { u"[8]"_s }, u"MaxPool"_s, u"[[1, 0]]"_s)
                + u"]"_s << qint64(-1) << qint64(-1) << u"node 4 (MaxPool), kernel column 26"_s
                                                           << u"the extent of index HO is not known"_s;
        QTest::addRow("'=' over an index missing from the output")
            << u"["_s + node(4, u"output0[N] = input0[N, K];"_s, { u"[4, 3]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 41"_s << u"cannot sum over it (use +=!)"_s;
        QTest::addRow("second output") << u"["_s
                + node(4, u"output1[N] = input0[N];"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
                                       << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 18"_s
                                       << u"only output0 is supported"_s;
        QTest::addRow("where clause names an unused index") << u"["_s
                + node(4, u"output0[N] = input0[N] where M in 3;"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s)
                + u"]"_s << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 47"_s
                                                            << u"names M, which the statement does not use"_s;
        QTest::addRow("zero extent in input_dict")
            << u"["_s + node(4, u"output0[N] = input0[N];"_s, { u"[0]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Relu), kernel column 57"_s << u"input0 axis 0 has extent 0"_s;
        // A Slice node past the end of its input is an export slip taken with a warning
        // (tst_einstein_export_slips); any other node reading there is refused.
        QTest::addRow("copy reads past the end") << u"["_s
                + node(4, u"output0[N] = input0[N + 5] where N in 4;"_s, { u"[6]"_s }, u"Reshape"_s, u"[[1, 0]]"_s)
                + u"]"_s << qint64(-1) << qint64(-1)
                                                 << u"node 4 (Reshape), kernel column 38"_s
                                                 << u"reads 4 element(s) at offset 5, stride 1 from an axis of 6"_s;
        QTest::addRow("index extents disagree between inputs")
            << u"["_s
                + node(4, u"output0[N, M] +=! input0[N, K] * input1[K, M];"_s, { u"[4, 8]"_s, u"[6, 5]"_s }, u"Dot"_s,
                    u"[[1, 0], [2, 0]]"_s)
                + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Dot), kernel column 58"_s
            << u"index K has extent 8 in input0 axis 1 but input1 axis 0 has extent 6"_s;
        QTest::addRow("declared shape differs from the producer's")
            << u"broken_shape.json"_s << qint64(-1) << qint64(-1) << u"node 2 (Add), kernel column 84"_s
            << u"input0 is the output of node 1 (Dot) of shape [4, 16], but input_dict declares [4, 32]"_s;
        QTest::addRow("unknown input node id") << u"broken_unknown_input.json"_s << qint64(-1) << qint64(-1)
                                               << u"node 2 (Add)"_s << u"refers to node 42, which is not in the file"_s;
        QTest::addRow("input from a later node")
            << u"["_s + node(4, add, { u"[4]"_s, u"[4]"_s }, u"Add"_s, u"[[1, 0], [5, 0]]"_s) + u", "_s
                + node(5, u"output0[N] = input0[N];"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Add)"_s << u"refers to node 5, which comes later in the file"_s;
        QTest::addRow("input from itself")
            << u"["_s + node(4, add, { u"[4]"_s, u"[4]"_s }, u"Add"_s, u"[[1, 0], [4, 0]]"_s) + u"]"_s << qint64(-1)
            << qint64(-1) << u"node 4 (Add)"_s << u"input 1 (input1) refers to the node itself"_s;
        QTest::addRow("input from a Result")
            << u"[[2, \"\", \"Result\", [[1, 0]]], "_s
                + node(4, add, { u"[4]"_s, u"[4]"_s }, u"Add"_s, u"[[1, 0], [2, 0]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Add)"_s << u"a Result, which has no output"_s;
        QTest::addRow("input from a second port")
            << u"["_s + node(3, u"output0[N] = input0[N];"_s, { u"[4]"_s }, u"Relu"_s, u"[[1, 0]]"_s) + u", "_s
                + node(4, add, { u"[4]"_s, u"[4]"_s }, u"Add"_s, u"[[1, 0], [3, 1]]"_s) + u"]"_s
            << qint64(-1) << qint64(-1) << u"node 4 (Add)"_s << u"reads port 1 of node 3"_s;
        QTest::addRow("node without kernel text") << u"[[4, \"\", \"Dot\", [[1, 0], [2, 0]]]]"_s << qint64(-1)
                                                  << qint64(-1) << u"node 4 (Dot)"_s << u"has no kernel text"_s;
        QTest::addRow("unbound batch placeholder")
            << u"attention.json"_s << qint64(-1) << qint64(3) << u"node 20 (Dot), kernel column 92"_s
            << u"extent 99 holds the batch placeholder 99, but no batch size is bound"_s;
        QTest::addRow("unbound sequence placeholder")
            << u"attention.json"_s << qint64(2) << qint64(-1) << u"node 20 (Dot), kernel column 92"_s
            << u"extent 66 holds the sequence placeholder 66, but no sequence length is bound"_s;
        QTest::addRow("unbound placeholder in a where clause") << u"["_s
                + node(
                    4, u"output0[N0, N1] = input0[N1] where N0 in 99;"_s, { u"[4]"_s }, u"Broadcast"_s, u"[[1, 0]]"_s)
                + u"]"_s << qint64(-1) << qint64(-1) << u"node 4 (Broadcast), kernel column 26"_s
                                                               << u"no batch size is bound"_s;
        QTest::addRow("missing file") << u"no_such_file.json"_s << qint64(-1) << qint64(-1) << u""_s
                                      << u"no_such_file.json"_s;
    }

    void errors()
    {
        QFETCH(QString, source);
        QFETCH(qint64, batch);
        QFETCH(qint64, seq);
        QFETCH(QString, location);
        QFETCH(QString, message);
        const auto options = dims(batch, seq);
        const auto result = source.endsWith(u".json"_s)
            ? import::importEinsteinFile(fixture(source).toStdString(), options)
            : import::importEinsteinText(source.toStdString(), "inline.json", options);
        QVERIFY(!result.ok());
        const auto& first = result.errors.front();
        QVERIFY2(QString::fromStdString(first.message).contains(message), qPrintable(errorsText(result)));
        QCOMPARE(QString::fromStdString(first.location), location);
    }

    void nodeLimit()
    {
        import::ImportOptions options;
        options.maxNodes = 3;
        const auto result = import::importEinsteinFile(fixture("conv.json").toStdString(), options);
        QVERIFY(!result.ok());
        QVERIFY2(result.errors.front().message.find("more than the limit of 3") != std::string::npos,
            qPrintable(errorsText(result)));
    }

    // Every error is reported, not only the first: independent broken nodes each get one.
    void reportsEveryBrokenNode()
    {
        const std::string text
            = "[[1, \" - einstein_v2(\\\"output0[N] = \\\", input_dict={})\", \"Relu\", []],"
              " [2, \" - einstein_v2(\\\"output0[N] = input0[N] +\\\", input_dict={})\", \"Relu\", []],"
              " [3, \"\", \"Result\", [[1, 0]]]]";
        const auto result = import::importEinsteinText(text, "two.json", {});
        QCOMPARE(int(result.errors.size()), 2);
        QCOMPARE(result.errors[0].location, std::string("node 1 (Relu), kernel column 30"));
        QCOMPARE(result.errors[1].location, std::string("node 2 (Relu), kernel column 41"));
    }

    // Truncated and corrupted versions of every fixture: an error or a valid graph, never a crash.
    void neverCrashes_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* file : { "matmul_chain.json", "attention.json", "conv.json", "views.json", "concat.json",
                 "gather.json", "statements.json" })
            QTest::addRow("%s", file) << QString::fromLatin1(file);
    }

    void neverCrashes()
    {
        QFETCH(QString, file);
        const std::string text = readText(fixture(file));
        QVERIFY(!text.empty());
        int failures = 0;
        auto check = [&](const std::string& variant) {
            const auto result = import::importEinsteinText(variant, "variant.json", dims(2, 3, 5));
            if (!result.ok()) {
                ++failures;
                QVERIFY(!result.errors.front().message.empty());
            } else {
                QVERIFY(result.graph.validate().empty());
            }
        };
        for (std::size_t cut = 0; cut < text.size(); cut += 19)
            check(text.substr(0, cut));
        const std::string replacements = "[]{}\",0-9a;()+*/%. ";
        for (std::size_t at = 0; at < text.size(); at += 23)
            check(text.substr(0, at) + replacements[at % replacements.size()] + text.substr(at + 1));
        QVERIFY(failures > 0);
    }
};

QTEST_GUILESS_MAIN(TestEinsteinImport)
#include "tst_einstein_import.moc"
