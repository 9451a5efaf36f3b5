// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The ONNX importer on hand-made models: lowering (op kinds, FLOPs, shapes, roles), symbolic dims,
// the own shape rules of opsets 18+, control flow, and every kind of bad input.
#include "engine/import/onnx_importer.h"
#include "engine/import/onnx_test_models.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph_analysis.h"
#include "engine/model/graph_summary.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace elk;
using namespace elk::import::onnxtest;
using model::OpKind;
using model::TensorRole;
using namespace Qt::Literals::StringLiterals;

namespace {

struct Imported {
    import::ImportResult result;
    import::OnnxImportDetails details;
};

Imported importModel(const Model& model, const import::ImportOptions& options = {})
{
    Imported out;
    out.result = import::importOnnxBytes(serialize(model), "test", options, out.details);
    return out;
}

std::string errorsText(const import::ImportResult& result)
{
    std::string text;
    for (const auto& e : result.errors)
        text += import::toString("model", e) + "\n";
    return text;
}

int opsOfKind(const model::Graph& graph, OpKind kind)
{
    return int(std::count_if(graph.ops().begin(), graph.ops().end(),
        [&](const model::Op& op) { return graph.exprOf(graph.findOp(op.name).value()).kind == kind; }));
}

const model::Tensor* tensorNamed(const model::Graph& graph, const std::string& name)
{
    const auto id = graph.findTensor(name);
    return id ? &graph.tensor(*id) : nullptr;
}

ValueInfo tensor(std::string name, std::vector<Dim> dims, int type = kFloat)
{
    return ValueInfo { std::move(name), type, std::move(dims) };
}

// x [4,16] -> MatMul W1 [16,32] -> Relu -> MatMul W2 [32,8] -> y.
Model matmulChain()
{
    Model m;
    m.graph.inputs = { tensor("x", { 4, 16 }) };
    m.graph.outputs = { tensor("y", { 4, 8 }) };
    m.graph.initializers = { weight("w1", { 16, 32 }, kFloat), weight("w2", { 32, 8 }, kFloat) };
    m.graph.nodes = {
        { "MatMul", { "x", "w1" }, { "h" }, {}, "fc1" },
        { "Relu", { "h" }, { "a" }, {}, "act" },
        { "MatMul", { "a", "w2" }, { "y" }, {}, "fc2" },
    };
    return m;
}

Model singleNode(int opset, Node node, std::vector<ValueInfo> inputs, std::vector<ValueInfo> outputs,
    std::vector<TensorData> initializers = {})
{
    Model m;
    m.irVersion = opset >= 19 ? 9 : 8;
    m.opsets = { { "", opset } };
    m.graph.nodes = { std::move(node) };
    m.graph.inputs = std::move(inputs);
    m.graph.outputs = std::move(outputs);
    m.graph.initializers = std::move(initializers);
    return m;
}

std::vector<std::int64_t> dims(std::initializer_list<std::int64_t> d)
{
    return d;
}

} // namespace

class TestOnnxImport : public QObject {
    Q_OBJECT

private slots:
    void matmulChainLowers()
    {
        const Imported imported = importModel(matmulChain());
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(g.ops().size(), std::size_t(3));
        QCOMPARE(opsOfKind(g, OpKind::MatMul), 2);
        QCOMPARE(opsOfKind(g, OpKind::Unary), 1);
        QCOMPARE(g.totalFlops(), std::int64_t(2 * 4 * 16 * 32 + 4 * 32 + 2 * 4 * 32 * 8));
        QCOMPARE(tensorNamed(g, "w1")->role, TensorRole::Weight);
        QCOMPARE(tensorNamed(g, "w1")->shape, dims({ 16, 32 }));
        QCOMPARE(tensorNamed(g, "w1")->dtype, model::DType::F32);
        QCOMPARE(tensorNamed(g, "x")->role, TensorRole::Activation);
        QCOMPARE(tensorNamed(g, "h")->role, TensorRole::Activation);
        QCOMPARE(tensorNamed(g, "y")->role, TensorRole::Output);
        QCOMPARE(g.inputs().size(), std::size_t(1));
        QCOMPARE(g.outputs().size(), std::size_t(1));
        QVERIFY(g.validate().empty());
        QCOMPARE(g.bytesOfRole(TensorRole::Weight), std::int64_t((16 * 32 + 32 * 8) * 4));
        QCOMPARE(g.name(), std::string("test"));
    }

    // Weights whose external data names a file that does not exist: only dims and types matter.
    void externalWeightsNeedNoFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("model.onnx")).toStdString();
        std::ofstream(path, std::ios::binary) << serialize(matmulChain());
        QVERIFY(!std::filesystem::exists(dir.filePath(QStringLiteral("__missing_weights__.bin")).toStdString()));
        const import::ImportResult result = import::importOnnxFile(path, {});
        QVERIFY2(result.ok(), errorsText(result).c_str());
        QCOMPARE(result.graph.name(), std::string("test")); // the graph's own name wins over the file name
    }

    void symbolicDims_data()
    {
        QTest::addColumn<QString>("param");
        QTest::addColumn<std::int64_t>("expected");
        QTest::addRow("batch binds 'batch'") << QStringLiteral("batch") << std::int64_t(3);
        QTest::addRow("seqLen binds 'sequence_length'") << QStringLiteral("sequence_length") << std::int64_t(5);
        QTest::addRow("kvLen binds 'past_sequence_length'")
            << QStringLiteral("past_sequence_length") << std::int64_t(7);
        QTest::addRow("a named binding") << QStringLiteral("tokens") << std::int64_t(11);
        QTest::addRow("named beats conventional") << QStringLiteral("T") << std::int64_t(13);
        QTest::addRow("an expression") << QStringLiteral("past + seq") << std::int64_t(7 + 5);
        QTest::addRow("a product") << QStringLiteral("batch * (seq + 1)") << std::int64_t(3 * 6);
    }

    void symbolicDims()
    {
        QFETCH(QString, param);
        QFETCH(std::int64_t, expected);
        const std::string p = param.toStdString();
        Model m = singleNode(17, { "MatMul", { "x", "w" }, { "y" } }, { tensor("x", { p.c_str(), 8 }) },
            { tensor("y", { p.c_str(), 4 }) }, { weight("w", { 8, 4 }, kFloat) });
        import::ImportOptions options;
        options.dims.batch = 3;
        options.dims.seqLen = 5;
        options.dims.kvLen = 7;
        options.dims.named = { { "tokens", 11 }, { "T", 13 } };
        const Imported imported = importModel(m, options);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        QCOMPARE(imported.details.outputShapes.at(0).second, dims({ expected, 4 }));
        QCOMPARE(imported.result.graph.totalFlops(), 2 * expected * 8 * 4);
    }

    void unboundSymbolicDimIsNamed()
    {
        Model m = singleNode(17, { "Relu", { "x" }, { "y" } }, { tensor("x", { "batch", "hidden" }) },
            { tensor("y", { "batch", "hidden" }) });
        import::ImportOptions options;
        options.dims.batch = 2;
        const Imported imported = importModel(m, options);
        QCOMPARE(imported.result.errors.size(), std::size_t(1));
        const auto& e = imported.result.errors.front();
        QCOMPARE(e.location, std::string("input 'x'"));
        QVERIFY2(e.message.find("'hidden'") != std::string::npos, e.message.c_str());
        QVERIFY2(
            e.message.find("bindable names: batch (batch, batch_size, N, B)") != std::string::npos, e.message.c_str());
        QVERIFY(e.message.find("past_sequence_length") != std::string::npos);
    }

    void inputShapeBindsEveryDim()
    {
        // Exporters leave dims unnamed (dim_value 0, no dim_param) or name them arbitrarily
        // (paddle2onnx: "p2o.DynamicDimension.0"): --input-shape gives the whole shape, --dim a name.
        Model m = singleNode(17, { "MatMul", { "x", "w" }, { "y" } }, { tensor("x", { 0, "p2o.DynamicDimension.1" }) },
            { tensor("y", { 0, 4 }) }, { weight("w", { 8, 4 }, kFloat) });
        import::ImportOptions options;
        options.dims.inputShapes = { { "x", { 5, 8 } } };
        const Imported byShape = importModel(m, options);
        QVERIFY2(byShape.result.ok(), errorsText(byShape.result).c_str());
        QCOMPARE(byShape.result.graph.totalFlops(), std::int64_t(2 * 5 * 8 * 4));
        // Unbound: each free dim is an error naming the option that would bind it, and is listed
        // (for the app's form) with a suggested size; those sizes bind the input whole.
        const Imported unbound = importModel(m, {});
        QCOMPARE(unbound.result.errors.size(), std::size_t(2));
        QCOMPARE(unbound.result.freeDims.size(), std::size_t(2));
        QCOMPARE(unbound.result.freeDims[0].name, std::string());
        QCOMPARE(unbound.result.freeDims[1].name, std::string("p2o.DynamicDimension.1"));
        QCOMPARE(unbound.result.freeDims[1].axis, 1);
        QCOMPARE(unbound.result.freeDims[0].suggested, std::int64_t(1)); // a leading dim: the batch
        import::ImportOptions suggested;
        suggested.dims = import::bindFreeDims(unbound.result.freeDims, { 3, 8 });
        QCOMPARE(suggested.dims.inputShapes.at("x"), (std::vector<std::int64_t> { 3, 8 }));
        QCOMPARE(suggested.dims.named.at("p2o.DynamicDimension.1"), std::int64_t(8));
        QVERIFY(importModel(m, suggested).result.ok());
        const std::string& message = unbound.result.errors.front().message;
        QVERIFY2(message.find("dim 0 has neither a size nor a name; give the input's shape with --input-shape x=?,?")
                != std::string::npos,
            message.c_str());
        Model named = singleNode(17, { "Relu", { "x" }, { "y" } }, { tensor("x", { 2, "p2o.DynamicDimension.1" }) },
            { tensor("y", { 2, "p2o.DynamicDimension.1" }) });
        const Imported namedUnbound = importModel(named, {});
        QVERIFY2(namedUnbound.result.errors.front().message.find(
                     "bind it with --dim p2o.DynamicDimension.1=N or --input-shape x=2,?")
                != std::string::npos,
            namedUnbound.result.errors.front().message.c_str());
        import::ImportOptions byName;
        byName.dims.named = { { "p2o.DynamicDimension.1", 6 } };
        QVERIFY(importModel(named, byName).result.ok());
        // A shape of the wrong rank, or one that contradicts a size the file fixes, is refused.
        import::ImportOptions wrongRank;
        wrongRank.dims.inputShapes = { { "x", { 2, 6, 1 } } };
        const Imported rank = importModel(named, wrongRank);
        QVERIFY(!rank.result.ok());
        QVERIFY2(
            rank.result.errors.front().message.find("has rank 2 but --input-shape gives 3 dims") != std::string::npos,
            rank.result.errors.front().message.c_str());
        import::ImportOptions contradicts;
        contradicts.dims.inputShapes = { { "x", { 3, 6 } } };
        const Imported fixed = importModel(named, contradicts);
        QVERIFY(!fixed.result.ok());
        QVERIFY2(fixed.result.errors.front().message.find("dim 0 is 2 in the file; --input-shape gives 3")
                != std::string::npos,
            fixed.result.errors.front().message.c_str());
    }

    // Opset 18 moved Reduce*'s axes to an input and added Split's num_outputs; ONNX 1.12 gets both
    // wrong without complaint, the own rules get them right.
    void ownShapeRules_data()
    {
        QTest::addColumn<std::string>("bytes");
        QTest::addColumn<QString>("value");
        QTest::addColumn<std::vector<std::int64_t>>("expected");
        auto add = [](const char* row, const Model& m, const char* value, std::vector<std::int64_t> expected) {
            QTest::addRow("%s", row) << serialize(m) << QString::fromLatin1(value) << expected;
        };
        const auto x234 = tensor("x", { 2, 3, 4 });
        add("ReduceMean-18 axes input, keepdims",
            singleNode(18, { "ReduceMean", { "x", "axes" }, { "y" } }, { x234 }, { tensor("y", { 2, 1, 4 }) },
                { int64s("axes", { 1 }) }),
            "y", { 2, 1, 4 });
        add("ReduceMean-18 axes input, no keepdims",
            singleNode(18, { "ReduceMean", { "x", "axes" }, { "y" }, { attrInt("keepdims", 0) } }, { x234 },
                { tensor("y", { 2, 4 }) }, { int64s("axes", { -2 }) }),
            "y", { 2, 4 });
        add("ReduceSum-18 empty axes with noop",
            singleNode(18, { "ReduceSum", { "x", "axes" }, { "y" }, { attrInt("noop_with_empty_axes", 1) } }, { x234 },
                { tensor("y", { 2, 3, 4 }) }, { int64s("axes", {}) }),
            "y", { 2, 3, 4 });
        add("ReduceMax-13 axes attribute",
            singleNode(13, { "ReduceMax", { "x" }, { "y" }, { attrInts("axes", { 0, 2 }) } }, { x234 },
                { tensor("y", { 1, 3, 1 }) }),
            "y", { 1, 3, 1 });
        add("Split-18 num_outputs, uneven",
            singleNode(18, { "Split", { "x" }, { "a", "b", "c" }, { attrInt("num_outputs", 3) } },
                { tensor("x", { 10, 4 }) }, { tensor("a", { 4, 4 }), tensor("b", { 4, 4 }), tensor("c", { 2, 4 }) }),
            "c", { 2, 4 });
        add("Split-13 sizes input",
            singleNode(13, { "Split", { "x", "s" }, { "a", "b" }, { attrInt("axis", 1) } }, { tensor("x", { 2, 10 }) },
                { tensor("a", { 2, 3 }), tensor("b", { 2, 7 }) }, { int64s("s", { 3, 7 }) }),
            "b", { 2, 7 });
        add("Reshape 0 and -1",
            singleNode(19, { "Reshape", { "x", "s" }, { "y" } }, { x234 }, { tensor("y", { 2, 4, 3 }) },
                { int64s("s", { 0, -1, 3 }) }),
            "y", { 2, 4, 3 });
        add("Slice-21 negative step",
            singleNode(21, { "Slice", { "x", "st", "en", "ax", "sp" }, { "y" } }, { x234 },
                { tensor("y", { 2, 3, 2 }) },
                { int64s("st", { -1 }), int64s("en", { -100 }), int64s("ax", { 2 }), int64s("sp", { -2 }) }),
            "y", { 2, 3, 2 });
        add("Unsqueeze-21 axes input",
            singleNode(21, { "Unsqueeze", { "x", "a" }, { "y" } }, { x234 }, { tensor("y", { 1, 2, 3, 1, 4 }) },
                { int64s("a", { 0, -2 }) }),
            "y", { 1, 2, 3, 1, 4 });
        add("Pad-18 axes input",
            singleNode(18, { "Pad", { "x", "p", "", "a" }, { "y" } }, { x234 }, { tensor("y", { 2, 6, 4 }) },
                { int64s("p", { 1, 2 }), int64s("a", { 1 }) }),
            "y", { 2, 6, 4 });
        add("Conv-21 pads and strides",
            singleNode(21,
                { "Conv", { "x", "w" }, { "y" }, { attrInts("pads", { 1, 1, 1, 1 }), attrInts("strides", { 2, 2 }) } },
                { tensor("x", { 1, 3, 9, 9 }) }, { tensor("y", { 1, 8, 5, 5 }) },
                { weight("w", { 8, 3, 3, 3 }, kFloat) }),
            "y", { 1, 8, 5, 5 });
        add("MatMul-20 broadcast batch",
            singleNode(20, { "MatMul", { "a", "b" }, { "y" } },
                { tensor("a", { 2, 1, 3, 4 }), tensor("b", { 5, 4, 6 }) }, { tensor("y", { 2, 5, 3, 6 }) }),
            "y", { 2, 5, 3, 6 });
        add("Gather-18 axis 1",
            singleNode(18, { "Gather", { "x", "i" }, { "y" }, { attrInt("axis", 1) } },
                { x234, tensor("i", { 5, 2 }, kInt64) }, { tensor("y", { 2, 5, 2, 4 }) }),
            "y", { 2, 5, 2, 4 });
        add("Expand-18 bidirectional",
            singleNode(18, { "Expand", { "x", "s" }, { "y" } }, { tensor("x", { 3, 1 }) }, { tensor("y", { 2, 3, 5 }) },
                { int64s("s", { 2, 1, 5 }) }),
            "y", { 2, 3, 5 });
        add("Concat-19 axis -1",
            singleNode(19, { "Concat", { "x", "x" }, { "y" }, { attrInt("axis", -1) } }, { x234 },
                { tensor("y", { 2, 3, 8 }) }),
            "y", { 2, 3, 8 });
        add("Transpose default perm",
            singleNode(21, { "Transpose", { "x" }, { "y" } }, { x234 }, { tensor("y", { 4, 3, 2 }) }), "y",
            { 4, 3, 2 });
        add("LayerNormalization mean output",
            singleNode(18, { "LayerNormalization", { "x", "g" }, { "y", "mean" }, { attrInt("axis", 1) } }, { x234 },
                { tensor("y", { 2, 3, 4 }), tensor("mean", { 2, 1, 1 }) }, { weight("g", { 3, 4 }, kFloat) }),
            "mean", { 2, 1, 1 });
        add("Einsum batched product",
            singleNode(18, { "Einsum", { "a", "b" }, { "y" }, { attrString("equation", "bij,bjk->bik") } },
                { tensor("a", { 2, 3, 4 }), tensor("b", { 2, 4, 5 }) }, { tensor("y", { 2, 3, 5 }) }),
            "y", { 2, 3, 5 });
    }

    void ownShapeRules()
    {
        QFETCH(std::string, bytes);
        QFETCH(QString, value);
        QFETCH(std::vector<std::int64_t>, expected);
        import::OnnxImportDetails details;
        const import::ImportResult result = import::importOnnxBytes(bytes, "rule", {}, details);
        QVERIFY2(result.ok(), errorsText(result).c_str());
        QCOMPARE(details.valueShapes.at(value.toStdString()), expected);
    }

    // The same rules agree with ONNX's own shape inference where that one is right (opset <= 17).
    void ownRulesAgreeWithOnnx()
    {
        Model m = singleNode(13, { "ReduceMean", { "x" }, { "y" }, { attrInts("axes", { 1 }) } },
            { tensor("x", { 2, 3, 4 }) }, { tensor("y", { 2, 1, 4 }) });
        import::ImportOptions options;
        options.crossCheckShapes = true;
        const Imported imported = importModel(m, options);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        QVERIFY(imported.result.warnings.empty());
    }

    // Reshape, Transpose, Squeeze and friends re-view memory: they become no op at all, and the
    // op that reads the view indexes the stored tensor directly.
    void viewsAreFolded()
    {
        Model m;
        m.opsets = { { "", 18 } };
        m.graph.inputs = { tensor("x", { 2, 6 }) };
        m.graph.outputs = { tensor("y", { 2, 3, 2 }) };
        m.graph.initializers = { int64s("shape", { 2, 2, 3 }) };
        m.graph.nodes = {
            { "Reshape", { "x", "shape" }, { "r" } },
            { "Transpose", { "r" }, { "t" }, { attrInts("perm", { 0, 2, 1 }) } },
            { "Identity", { "t" }, { "i" } },
            { "Relu", { "i" }, { "y" } },
        };
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(g.ops().size(), std::size_t(1));
        QCOMPARE(opsOfKind(g, OpKind::Unary), 1);
        QCOMPARE(tensorNamed(g, "x")->shape, dims({ 2, 2, 3 })); // stored split the way the reshape reads it
        QCOMPARE(g.totalFlops(), std::int64_t(12));
        QVERIFY(g.validate().empty());
    }

    void decodeAttentionReadsTheKvLength()
    {
        // One attention head group: q [1,2,1,8], the cache grows by one token k_new.
        Model m;
        m.graph.inputs
            = { tensor("q", { 1, 2, 1, 8 }), tensor("k_new", { 1, 2, 1, 8 }), tensor("past_key", { 1, 2, "past", 8 }) };
        m.graph.outputs = { tensor("probs", { 1, 2, 1, "past + 1" }), tensor("present_key", { 1, 2, "past + 1", 8 }) };
        m.graph.nodes = {
            { "Concat", { "past_key", "k_new" }, { "present_key" }, { attrInt("axis", 2) }, "append" },
            { "Transpose", { "present_key" }, { "kt" }, { attrInts("perm", { 0, 1, 3, 2 }) } },
            { "MatMul", { "q", "kt" }, { "scores" }, {}, "scores" },
            { "Softmax", { "scores" }, { "probs" }, { attrInt("axis", -1) }, "softmax" },
        };
        import::ImportOptions options;
        options.dims.kvLen = 4;
        const Imported imported = importModel(m, options);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(g.ops().size(), std::size_t(2)); // the append writes k_new in place: no copy op
        QVERIFY(!g.findTensor("past_key"));
        QCOMPARE(tensorNamed(g, "present_key")->role, TensorRole::KvCache);
        QCOMPARE(tensorNamed(g, "present_key")->shape, dims({ 2, 5, 8 }));
        QCOMPARE(tensorNamed(g, "k_new")->role, TensorRole::KvCache); // written to the cache
        const model::TensorExpr& scores = g.exprOf(*g.findOp("scores"));
        QCOMPARE(scores.kind, OpKind::MatMul);
        QCOMPARE(model::flopCount(scores), std::int64_t(2 * 2 * 5 * 8)); // over the KV length 5, not 1
        const model::TensorExpr& softmax = g.exprOf(*g.findOp("softmax"));
        QCOMPARE(model::operandElements(softmax, 1), std::int64_t(2 * 5));
    }

    void convWithPadding()
    {
        Model m = singleNode(17,
            { "Conv", { "x", "w", "b" }, { "y" },
                { attrInts("pads", { 1, 1, 1, 1 }), attrInts("kernel_shape", { 3, 3 }) }, "conv" },
            { tensor("x", { 1, 3, 8, 8 }) }, { tensor("y", { 1, 4, 8, 8 }) },
            { weight("w", { 4, 3, 3, 3 }, kFloat), weight("b", { 4 }, kFloat) });
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(opsOfKind(g, OpKind::Conv), 1);
        QCOMPARE(opsOfKind(g, OpKind::Slice), 1); // the zero padding: a copy to 10x10
        const model::TensorExpr& conv = g.exprOf(*g.findOp("conv"));
        QCOMPARE(model::flopCount(conv), std::int64_t(2 * 4 * 8 * 8 * 3 * 3 * 3));
        QCOMPARE(model::operandShape(conv, 1), dims({ 3, 10, 10 }));
        QVERIFY(std::any_of(conv.operands[1].axes.begin(), conv.operands[1].axes.end(),
            [](const model::Axis& a) { return a.isWindow(); }));
    }

    void gemmWithBias()
    {
        Model m = singleNode(11, { "Gemm", { "a", "b", "c" }, { "y" }, { attrInt("transB", 1) }, "fc" },
            { tensor("a", { 3, 5 }) }, { tensor("y", { 3, 7 }) },
            { weight("b", { 7, 5 }, kFloat), weight("c", { 7 }, kFloat) });
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(opsOfKind(g, OpKind::MatMul), 1);
        QCOMPARE(opsOfKind(g, OpKind::Elementwise), 1);
        QCOMPARE(g.totalFlops(), std::int64_t(2 * 3 * 7 * 5 + 3 * 7));
    }

    void concatAndSplitAreDataMovement()
    {
        // Unequal parts: Split [6, 2] then Concat back in the other order.
        Model m = singleNode(13, { "Split", { "x", "sizes" }, { "a", "b" }, { attrInt("axis", 1) }, "split" },
            { tensor("x", { 3, 8 }) }, { tensor("y", { 3, 8 }) }, { int64s("sizes", { 6, 2 }) });
        m.graph.nodes.push_back({ "Concat", { "b", "a" }, { "y" }, { attrInt("axis", 1) }, "concat" });
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(opsOfKind(g, OpKind::Slice), 3); // the concatenation is a copy from both parts
        QCOMPARE(opsOfKind(g, OpKind::Gather), 0);
        QCOMPARE(g.totalFlops(), std::int64_t(0));
        const model::TensorExpr& concat = g.exprOf(*g.findOp("concat"));
        QVERIFY2(
            model::iterationCount(concat) <= 3 * 8 * 3, model::toString(concat).c_str()); // blocks of 2, not 6 x 2 x 8
        QVERIFY(g.validate().empty());
    }

    // Concat of k activations is one copy (a Slice with k inputs): no FLOPs, every part read once
    // and the result written once; not k - 1 elementwise operations per element.
    void concatOfActivationsIsACopy()
    {
        Model m;
        m.graph.inputs = { tensor("a", { 2, 3 }), tensor("b", { 2, 5 }), tensor("c", { 2, 4 }) };
        m.graph.outputs = { tensor("y", { 2, 12 }) };
        m.graph.nodes = { { "Concat", { "a", "b", "c" }, { "y" }, { attrInt("axis", 1) }, "concat" } };
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QCOMPARE(g.ops().size(), std::size_t(1));
        const model::TensorExpr& concat = g.exprOf(*g.findOp("concat"));
        QCOMPARE(concat.kind, OpKind::Slice);
        QCOMPARE(concat.operands.size(), std::size_t(4));
        QCOMPARE(model::flopCount(concat), std::int64_t(0));
        // f32: written 2 x 12, read 2 x 3 + 2 x 5 + 2 x 4.
        QCOMPARE(model::byteCount(concat), std::int64_t((24 + 6 + 10 + 8) * 4));
        QVERIFY(g.validate().empty());
    }

    // A slice reads only the rows it copies, not its whole source.
    void sliceCountsOnlyTheBytesItReads()
    {
        Model m = singleNode(13, { "Slice", { "x", "starts", "ends", "axes" }, { "y" }, {}, "rows" },
            { tensor("x", { 8, 4 }) }, { tensor("y", { 2, 4 }) },
            { int64s("starts", { 2 }), int64s("ends", { 4 }), int64s("axes", { 0 }) });
        m.graph.nodes.push_back({ "Relu", { "y" }, { "z" }, {}, "relu" });
        m.graph.outputs = { tensor("z", { 2, 4 }) };
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        const model::TensorExpr& slice = g.exprOf(*g.findOp("rows"));
        QCOMPARE(slice.kind, OpKind::Slice);
        QCOMPARE(model::byteCount(slice), std::int64_t((8 + 8) * 4)); // 2 x 4 read, 2 x 4 written (f32)
    }

    // A tied LM head (OPT, Gemma) reads the embedding table through a transpose, possibly behind
    // other views: the table stays one weight tensor, its parameters counted once.
    void tiedWeightIsOneTensor_data()
    {
        QTest::addColumn<QString>("views");
        QTest::addRow("transpose") << u"transpose"_s;
        QTest::addRow("identity, then transpose") << u"identity"_s;
        QTest::addRow("unsqueeze, squeeze, transpose") << u"unsqueeze"_s;
        QTest::addRow("transpose, then reshape to itself") << u"reshape"_s;
    }
    void tiedWeightIsOneTensor()
    {
        QFETCH(QString, views);
        Model m;
        m.graph.inputs = { tensor("ids", { 2, 3 }, kInt64) };
        m.graph.outputs = { tensor("logits", { 2, 3, 10 }, kFloat16) };
        m.graph.initializers = { weight("embed", { 10, 4 }), int64s("axes", { 0 }), int64s("shape", { 4, 10 }) };
        m.graph.nodes = { { "Gather", { "embed", "ids" }, { "x" }, {}, "lookup" } };
        std::string table = "embed";
        if (views == u"identity"_s) {
            m.graph.nodes.push_back({ "Identity", { table }, { "embed_alias" } });
            table = "embed_alias";
        } else if (views == u"unsqueeze"_s) {
            m.graph.nodes.push_back({ "Unsqueeze", { table, "axes" }, { "embed_3d" } });
            m.graph.nodes.push_back({ "Squeeze", { "embed_3d", "axes" }, { "embed_2d" } });
            table = "embed_2d";
        }
        m.graph.nodes.push_back({ "Transpose", { table }, { "head" }, { attrInts("perm", { 1, 0 }) }, "tie" });
        std::string head = "head";
        if (views == u"reshape"_s) {
            m.graph.nodes.push_back({ "Reshape", { "head", "shape" }, { "head_2d" } });
            head = "head_2d";
        }
        m.graph.nodes.push_back({ "MatMul", { "x", head }, { "logits" }, {}, "lm_head" });
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QVERIFY(g.validate().empty());
        const auto weights = std::count_if(g.tensors().begin(), g.tensors().end(),
            [](const model::Tensor& t) { return t.role == TensorRole::Weight; });
        QCOMPARE(weights, 1);
        QCOMPARE(g.ops().size(), std::size_t(2)); // the lookup and the head; the views are no ops
        const model::TensorExpr& lmHead = g.exprOf(*g.findOp("lm_head"));
        QCOMPARE(g.op(*g.findOp("lm_head")).tensors.at(2), *g.findTensor("embed"));
        QCOMPARE(model::flopCount(lmHead), std::int64_t(2 * 2 * 3 * 4 * 10));
        const model::GraphTotals totals = model::graphTotals(g);
        QCOMPARE(totals.params, std::int64_t(40));
        QCOMPARE(totals.weightBytes, std::int64_t(80));
        // The lookup reads 6 rows of the table (not all 10), the indices, and writes 6 rows (f16).
        const model::TensorExpr& lookup = g.exprOf(*g.findOp("lookup"));
        QCOMPARE(lookup.kind, OpKind::Gather);
        QCOMPARE(model::byteCount(lookup), std::int64_t(24 * 2 + 24 * 2 + 6 * 8));
    }

    // Optimizer state named after its weight ("w.m", "w.v": the transformer builder's Adam; PyTorch's
    // "w.exp_avg") is role optimizer_state: not parameters, and its update is computed each step
    // rather than folded as a constant. A same-named tensor of another shape is not state.
    void optimizerStateByName_data()
    {
        QTest::addColumn<QString>("firstMoment");
        QTest::addColumn<QString>("secondMoment");
        QTest::addColumn<bool>("sameShape");
        QTest::addRow("builder: w.m, w.v") << u"w.m"_s << u"w.v"_s << true;
        QTest::addRow("PyTorch: w.exp_avg, w.exp_avg_sq") << u"w.exp_avg"_s << u"w.exp_avg_sq"_s << true;
        QTest::addRow("other shape: weights after all") << u"w.m"_s << u"w.v"_s << false;
    }
    void optimizerStateByName()
    {
        QFETCH(QString, firstMoment);
        QFETCH(QString, secondMoment);
        QFETCH(bool, sameShape);
        const std::string m1 = firstMoment.toStdString();
        const std::string v1 = secondMoment.toStdString();
        const std::vector<std::int64_t> stateShape = sameShape ? dims({ 4, 8 }) : dims({ 8, 4 });
        Model m;
        m.graph.inputs = { tensor("g", { 4, 8 }), tensor("g_t", { 8, 4 }) };
        m.graph.outputs = { tensor("w_new", { 4, 8 }, kFloat16), tensor("m_new", { 4, 8 }), tensor("v_new", { 4, 8 }) };
        TensorData beta { "beta", kFloat, {}, {}, { 0.9 } };
        m.graph.initializers = { weight("w", { 4, 8 }), weight(m1, stateShape, kFloat), weight(v1, stateShape, kFloat),
            beta, int64s("perm_shape", { 4, 8 }) };
        const std::string grad = sameShape ? "g" : "g_t";
        m.graph.nodes = {
            { "Mul", { m1, "beta" }, { "m_scaled" }, {}, "m_decay" },
            { "Add", { "m_scaled", grad }, { "m_sum" }, {}, "m_add" },
            { "Mul", { v1, "beta" }, { "v_scaled" }, {}, "v_decay" },
            { "Add", { "v_scaled", grad }, { "v_sum" }, {}, "v_add" },
            { "Reshape", { "m_sum", "perm_shape" }, { "m_new" } },
            { "Reshape", { "v_sum", "perm_shape" }, { "v_new" } },
            { "Cast", { "m_new" }, { "step" }, { attrInt("to", kFloat16) }, "to_f16" },
            { "Sub", { "w", "step" }, { "w_new" }, {}, "w_update" },
        };
        if (!sameShape)
            m.graph.inputs.erase(m.graph.inputs.begin()); // g unused
        else
            m.graph.inputs.pop_back(); // g_t unused
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QVERIFY(g.validate().empty());
        const model::GraphTotals totals = model::graphTotals(g);
        QCOMPARE(tensorNamed(g, "w")->role, TensorRole::Weight);
        if (sameShape) {
            QCOMPARE(tensorNamed(g, m1)->role, TensorRole::OptimizerState);
            QCOMPARE(tensorNamed(g, v1)->role, TensorRole::OptimizerState);
            QVERIFY(g.isGraphInput(*g.findTensor(m1)));
            QVERIFY(g.findOp("m_decay")); // computed each step, not folded into a constant
            QCOMPARE(totals.params, std::int64_t(32));
            QCOMPARE(totals.weightBytes, std::int64_t(64));
            QCOMPARE(totals.optimizerStateBytes, std::int64_t(2 * 32 * 4));
        } else {
            QCOMPARE(totals.optimizerStateBytes, std::int64_t(0));
            QCOMPARE(totals.params, std::int64_t(32 + 2 * 32)); // folded constants, counted as weights
        }
    }

    // The state inputs of ai.onnx.preview.training's Adam (first and second moments) are optimizer
    // state; the weight it updates stays a parameter.
    void adamOpStateIsOptimizerState()
    {
        Model m;
        m.opsets = { { "", 17 }, { "ai.onnx.preview.training", 1 } };
        m.graph.inputs = { tensor("r", {}), tensor("t", {}, kInt64), tensor("grad", { 6 }), tensor("v", { 6 }),
            tensor("h", { 6 }) };
        m.graph.outputs = { tensor("x_new", { 6 }), tensor("v_new", { 6 }), tensor("h_new", { 6 }) };
        m.graph.initializers = { weight("x", { 6 }, kFloat) };
        m.graph.nodes = { { "Adam", { "r", "t", "x", "grad", "v", "h" }, { "x_new", "v_new", "h_new" }, {}, "adam",
            "ai.onnx.preview.training" } };
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        const model::Graph& g = imported.result.graph;
        QVERIFY(g.validate().empty());
        QCOMPARE(tensorNamed(g, "x")->role, TensorRole::Weight);
        QCOMPARE(tensorNamed(g, "v")->role, TensorRole::OptimizerState);
        QCOMPARE(tensorNamed(g, "h")->role, TensorRole::OptimizerState);
        QCOMPARE(tensorNamed(g, "grad")->role, TensorRole::Activation);
        const model::GraphTotals totals = model::graphTotals(g);
        QCOMPARE(totals.params, std::int64_t(6));
        QCOMPARE(totals.optimizerStateBytes, std::int64_t(2 * 6 * 4));
    }

    void constantShapeArithmeticFolds()
    {
        // y = Reshape(x, Concat(Shape(x)[0], -1)): the shape subgraph computes nothing at run time.
        Model m;
        m.opsets = { { "", 17 } };
        m.graph.inputs = { tensor("x", { 2, 3, 4 }) };
        m.graph.outputs = { tensor("y", { 2, 12 }) };
        m.graph.initializers = { int64s("zero", { 0 }), int64s("minus1", { -1 }) };
        m.graph.nodes = {
            { "Shape", { "x" }, { "s" } },
            { "Gather", { "s", "zero" }, { "n" } },
            { "Concat", { "n", "minus1" }, { "target" }, { attrInt("axis", 0) } },
            { "Reshape", { "x", "target" }, { "r" } },
            { "Neg", { "r" }, { "y" } },
        };
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        QCOMPARE(imported.result.graph.ops().size(), std::size_t(1));
        QCOMPARE(imported.details.valueShapes.at("r"), dims({ 2, 12 }));
    }

    void ifWithConstantConditionTakesItsBranch()
    {
        Graph thenBranch;
        thenBranch.nodes = { { "Relu", { "x" }, { "t" } } };
        thenBranch.outputs = { tensor("t", { 4 }) };
        Graph elseBranch;
        elseBranch.nodes = { { "MatMul", { "x", "w" }, { "e0" } }, { "Relu", { "e0" }, { "e" } } };
        elseBranch.outputs = { tensor("e", { 4 }) };
        TensorData cond;
        cond.name = "cond";
        cond.elemType = kBool;
        cond.ints = { 1 };
        Model m = singleNode(17,
            { "If", { "cond" }, { "y" },
                { attrGraph("then_branch", thenBranch), attrGraph("else_branch", elseBranch) } },
            { tensor("x", { 4 }) }, { tensor("y", { 4 }) }, { cond, weight("w", { 4, 4 }, kFloat) });
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        QCOMPARE(imported.result.graph.ops().size(), std::size_t(1));
        QCOMPARE(imported.result.graph.totalFlops(), std::int64_t(4));
    }

    void loopWithConstantTripCountUnrolls()
    {
        Graph body;
        body.inputs = { tensor("i", {}, kInt64), tensor("c", {}, kBool), tensor("h", { 2, 8 }) };
        body.nodes = { { "MatMul", { "h", "w" }, { "h2" } }, { "Identity", { "c" }, { "c2" } } };
        body.outputs = { tensor("c2", {}, kBool), tensor("h2", { 2, 8 }) };
        Model m = singleNode(17, { "Loop", { "trips", "", "x" }, { "y" }, { attrGraph("body", body) }, "layers" },
            { tensor("x", { 2, 8 }) }, { tensor("y", { 2, 8 }) },
            { int64s("trips", { 3 }), weight("w", { 8, 8 }, kFloat) });
        m.graph.initializers[0].dims = {};
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        QCOMPARE(opsOfKind(imported.result.graph, OpKind::MatMul), 3);
        QCOMPARE(imported.result.graph.totalFlops(), std::int64_t(3 * 2 * 2 * 8 * 8));
    }

    // Shapes that depend on data come from value_info when the file declares them.
    void dataDependentShapeFromDeclaration()
    {
        Model m = singleNode(
            13, { "NonZero", { "x" }, { "y" } }, { tensor("x", { 3, 4 }) }, { tensor("y", { 2, 5 }, kInt64) });
        const Imported imported = importModel(m);
        QVERIFY2(imported.result.ok(), errorsText(imported.result).c_str());
        QCOMPARE(imported.details.outputShapes.at(0).second, dims({ 2, 5 }));
    }

    // Bundled Llama-2-13B decode step (built by the transformer builder): the numbers of the
    // issue's hand calculation.
    void llamaDecodeStep()
    {
        const auto config = import::bundledModelConfig("llama2-13b");
        QVERIFY(config);
        import::ImportOptions options;
        options.dims.batch = 32;
        options.dims.seqLen = 1;
        options.dims.kvLen = 2048;
        const import::ImportResult result = import::importOnnxBytes(
            import::buildTransformerOnnx(*config, import::ModelPhase::Decode), "llama2-13b", options);
        QVERIFY2(result.ok(), errorsText(result).c_str());
        const model::GraphSummary s = model::summarizeGraph(result.graph);
        const double weightGB = double(s.bytesOf(TensorRole::Weight)) / 1e9;
        QVERIFY2(weightGB > 25.9 && weightGB < 26.2, std::to_string(weightGB).c_str()); // 13.0 B params x 2 bytes
        // K and V of 40 layers x 5120 x 2 bytes for 32 x 2048 cached tokens, plus the new token.
        const std::int64_t kvPerToken = 2 * 40 * 5120 * 2;
        QCOMPARE(s.bytesOf(TensorRole::KvCache), kvPerToken * 32 * 2049 + kvPerToken * 32);
        QCOMPARE(s.opsOf(OpKind::Softmax), std::int64_t(40));
        QCOMPARE(s.opsOf(OpKind::MatMul), std::int64_t(40 * 6 + 1));
        QVERIFY(result.graph.validate().empty());
    }

    // Every bad input gives an error value, never an exception or crash, and names where.
    void badInput_data()
    {
        QTest::addColumn<std::string>("bytes");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("what");
        auto add = [](const char* row, std::string bytes, const char* where, const char* what) {
            QTest::addRow("%s", row) << std::move(bytes) << QString::fromLatin1(where) << QString::fromLatin1(what);
        };
        const std::string good = serialize(matmulChain());
        add("empty file", "", "", "the file is empty");
        add("text file", "ir_version: 8\ngraph {\n  node { op_type: \"Relu\" }\n}\n", "", "looks like a text file");
        add("wrong magic", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(64, '\0'), "",
            "does not start like a ModelProto");
        add("garbage bytes", std::string("\x08\x08\x3a\xff\xff\xff\xff\x0f\x01\x02", 10), "", "truncated");
        add("truncated", good.substr(0, good.size() / 2), "", "truncated");
        Model m = matmulChain();
        m.irVersion = 0;
        add("ir_version 0", serialize(m), "", "ir_version is 0");
        m = matmulChain();
        m.irVersion = 11;
        add("IR version 11", serialize(m), "", "IR version 11 is newer than 10");
        m = matmulChain();
        m.opsets.clear();
        add("no opset_import", serialize(m), "", "no opset_import");
        m = matmulChain();
        m.graph.nodes.clear();
        add("empty graph", serialize(m), "", "the graph has no nodes");
        m = matmulChain();
        m.opsets = { { "", 22 } };
        add("opset 22", serialize(m), "", "opset 22 of the default domain is newer than 21");
        m = matmulChain();
        m.graph.inputs[0].dims = { 4, -3 };
        add("negative dim", serialize(m), "input 'x'", "dim 1 is negative (-3)");
        m = matmulChain();
        m.graph.inputs[0].dims = { 0, 16 };
        m.graph.outputs[0].dims = { 0, 8 };
        // A size-0 dim without a name is how exporters write "unknown": it must be given.
        add("zero dim", serialize(m), "input 'x'",
            "dim 0 has neither a size nor a name; give the input's shape with --input-shape x=?,16");
        m = matmulChain();
        m.graph.nodes[1].inputs = { "y" };
        add("cyclic graph", serialize(m), "node 'act' (Relu, ai.onnx)",
            "the graph has a cycle: node 'act' (Relu, ai.onnx) <- node 'fc2'");
        m = matmulChain();
        m.graph.initializers[1].dims = { 31, 8 };
        add("mismatched shapes", serialize(m), "node 'fc2' (MatMul, ai.onnx)",
            "mismatched shapes: inner dimensions differ (32 vs 31)");
        m = matmulChain();
        m.graph.outputs[0].dims = { 4, 9 };
        add("declared shape differs", serialize(m), "node 'fc2' (MatMul, ai.onnx)", "but the model declares [4,9]");
        m = matmulChain();
        m.graph.inputs[0].elemType = kString;
        add("string tensor", serialize(m), "input 'x'", "element type STRING, which cannot be modelled");
        m = matmulChain();
        m.graph.inputs[0].kind = ValueInfo::Kind::Sequence;
        add("sequence input", serialize(m), "input 'x'", "is a sequence");
        m = matmulChain();
        m.graph.nodes[2].inputs = { "a", "nowhere" };
        add("undefined input", serialize(m), "node 'fc2' (MatMul, ai.onnx)",
            "reads 'nowhere', which is not a graph input");
        m = matmulChain();
        m.graph.nodes[1].outputs = { "h" };
        add("two producers", serialize(m), "node 'act' (Relu, ai.onnx)",
            "writes 'h', which is already defined by node 'fc1'");
        m = singleNode(
            17, { "NonZero", { "x" }, { "nz" }, {}, "where" }, { tensor("x", { 3 }) }, { tensor("y", { 2 }) });
        m.graph.nodes.push_back({ "Shape", { "nz" }, { "y" } });
        add("data-dependent shape", serialize(m), "node 'where' (NonZero, ai.onnx)",
            "cannot determine the shape of output 'nz'");
        m = matmulChain();
        m.graph.inputs[0].dims = { std::int64_t(1) << 40, std::int64_t(1) << 30 };
        add("element count overflow", serialize(m), "input 'x'", "has more than 2^53 elements");
        Graph body;
        body.inputs = { tensor("i", {}, kInt64), tensor("c", {}, kBool) };
        body.nodes = { { "Identity", { "c" }, { "c2" } }, { "Cast", { "i" }, { "f" }, { attrInt("to", kFloat) } } };
        body.outputs = { tensor("c2", {}, kBool), tensor("f", {}) };
        m = singleNode(17, { "Loop", { "n", "" }, { "steps" }, { attrGraph("body", body) }, "loop" },
            { tensor("n", {}, kInt64) }, { tensor("steps", { "count" }) });
        add("loop with run-time trip count", serialize(m), "node 'loop' (Loop, ai.onnx)",
            "the trip count is not known");
    }

    void badInput()
    {
        QFETCH(std::string, bytes);
        QFETCH(QString, where);
        QFETCH(QString, what);
        import::ImportResult result;
        try {
            result = import::importOnnxBytes(bytes, "bad", {});
        } catch (...) {
            QFAIL("the importer threw");
        }
        QVERIFY(!result.ok());
        const auto& e = result.errors.front();
        QVERIFY2(QString::fromStdString(e.location) == where, import::toString("model", e).c_str());
        QVERIFY2(e.message.find(what.toStdString()) != std::string::npos, e.message.c_str());
    }

    // Every unsupported op in one error: node name, op type and domain of each.
    void unsupportedOpsAreListedTogether()
    {
        Model m;
        m.opsets = { { "", 17 }, { "com.microsoft", 1 } };
        m.graph.inputs = { tensor("x", { 2, 8 }) };
        m.graph.outputs = { tensor("y", { 2, 8 }) };
        m.graph.nodes = {
            { "FooBar", { "x" }, { "a" }, {}, "mystery" },
            { "Attention", { "a" }, { "b" }, {}, "attn", "com.microsoft" },
            { "Relu", { "b" }, { "c" }, {}, "fine" },
            { "SkipLayerNormalization", { "c" }, { "y" }, {}, "skipnorm", "com.microsoft" },
        };
        const Imported imported = importModel(m);
        QCOMPARE(imported.result.errors.size(), std::size_t(1));
        const std::string& message = imported.result.errors.front().message;
        QVERIFY2(message.find("3 unsupported operator(s)") != std::string::npos, message.c_str());
        QVERIFY(message.find("node 'mystery' (FooBar, ai.onnx): unknown op type") != std::string::npos);
        QVERIFY(
            message.find("node 'attn' (Attention, com.microsoft): custom domain 'com.microsoft'") != std::string::npos);
        QVERIFY(message.find("node 'skipnorm' (SkipLayerNormalization, com.microsoft)") != std::string::npos);
        QVERIFY(message.find("'fine'") == std::string::npos);
    }

    void opsNewerThanTheirOpsetAreUnsupported()
    {
        // LayerNormalization arrived in opset 17.
        Model m = singleNode(12, { "LayerNormalization", { "x" }, { "y" }, {}, "ln" }, { tensor("x", { 2, 4 }) },
            { tensor("y", { 2, 4 }) });
        const Imported imported = importModel(m);
        QVERIFY(!imported.result.ok());
        QVERIFY2(imported.result.errors.front().message.find(
                     "node 'ln' (LayerNormalization, ai.onnx): does not exist in opset 12")
                != std::string::npos,
            imported.result.errors.front().message.c_str());
    }

    void limitsAreEnforced_data()
    {
        QTest::addColumn<std::int64_t>("maxNodes");
        QTest::addColumn<int>("maxRank");
        QTest::addColumn<QString>("what");
        QTest::addRow("node count") << std::int64_t(
            2) << 8 << QStringLiteral("the model has 3 nodes (subgraphs included), more than the limit 2");
        QTest::addRow("rank") << std::int64_t(100) << 1 << QStringLiteral("has rank 2, more than the limit 1");
    }

    void limitsAreEnforced()
    {
        QFETCH(std::int64_t, maxNodes);
        QFETCH(int, maxRank);
        QFETCH(QString, what);
        import::ImportOptions options;
        options.maxNodes = maxNodes;
        options.maxRank = maxRank;
        const Imported imported = importModel(matmulChain(), options);
        QVERIFY(!imported.result.ok());
        QVERIFY2(imported.result.errors.front().message.find(what.toStdString()) != std::string::npos,
            imported.result.errors.front().message.c_str());
    }

    void zeroBindingIsRefused()
    {
        Model m = singleNode(
            17, { "Relu", { "x" }, { "y" } }, { tensor("x", { "batch", 4 }) }, { tensor("y", { "batch", 4 }) });
        import::ImportOptions options;
        options.dims.batch = 0;
        const Imported imported = importModel(m, options);
        QVERIFY(!imported.result.ok());
        QCOMPARE(imported.result.errors.front().location, std::string("input 'x'"));
        QVERIFY(imported.result.errors.front().message.find("is bound to 0; sizes must be >= 1") != std::string::npos);
    }

    // Files over protobuf's 2 GiB limit are refused from their size, before any byte is read.
    void hugeFileIsRefusedUnread()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("huge.onnx")).toStdString();
        std::ofstream(path, std::ios::binary).put('\x08');
        std::filesystem::resize_file(path, (std::uintmax_t(1) << 31) + 1); // sparse: no disk space used
        const import::ImportResult result = import::importOnnxFile(path, {});
        QVERIFY(!result.ok());
        QVERIFY2(result.errors.front().message.find("more than protobuf's 2 GiB limit") != std::string::npos,
            result.errors.front().message.c_str());
    }

    // Damaged files (bytes flipped, cut short) are refused or imported, never a crash or throw.
    void mutatedBytesNeverCrash()
    {
        Graph body;
        body.inputs = { tensor("i", {}, kInt64), tensor("c", {}, kBool), tensor("h", { 2, 8 }) };
        body.nodes = { { "MatMul", { "h", "w" }, { "h2" } }, { "Identity", { "c" }, { "c2" } } };
        body.outputs = { tensor("c2", {}, kBool), tensor("h2", { 2, 8 }) };
        Model loop = singleNode(17, { "Loop", { "trips", "", "x" }, { "y" }, { attrGraph("body", body) } },
            { tensor("x", { 2, 8 }) }, { tensor("y", { 2, 8 }) },
            { int64s("trips", { 2 }), weight("w", { 8, 8 }, kFloat) });
        Model conv = singleNode(17, { "Conv", { "x", "w" }, { "y" }, { attrInts("pads", { 1, 1, 1, 1 }) } },
            { tensor("x", { 1, 3, 8, 8 }) }, { tensor("y", { 1, 4, 8, 8 }) }, { weight("w", { 4, 3, 3, 3 }, kFloat) });
        std::uint64_t seed = 0x9e3779b97f4a7c15ull;
        auto next = [&seed] {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            return seed;
        };
        int imported = 0;
        int refused = 0;
        for (const std::string& original : { serialize(matmulChain()), serialize(loop), serialize(conv) }) {
            for (int round = 0; round < 400; ++round) {
                std::string bytes = original;
                const int flips = 1 + int(next() % 4);
                for (int f = 0; f < flips; ++f)
                    bytes[next() % bytes.size()] = char(next() & 0xff);
                if (round % 5 == 0)
                    bytes.resize(next() % bytes.size());
                import::ImportResult result;
                try {
                    result = import::importOnnxBytes(bytes, "mutant", {});
                } catch (...) {
                    QFAIL("the importer threw");
                }
                if (result.ok()) {
                    ++imported;
                    QVERIFY(result.graph.validate().empty());
                } else {
                    ++refused;
                    QVERIFY(!result.errors.front().message.empty());
                }
            }
        }
        QCOMPARE(imported + refused, 1200);
        QVERIFY(refused > 0);
    }

    void missingFileIsAnError()
    {
        const import::ImportResult result = import::importOnnxFile("/nonexistent/model.onnx", {});
        QVERIFY(!result.ok());
        QVERIFY(result.errors.front().message.find("cannot read '/nonexistent/model.onnx'") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "tst_onnx_import.moc"
