// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// "elk.graph/1" JSON: exact round trip, every error path with its location, and the bundled
// sample model (one Llama-2-13B decoder layer, decode step), which this test also generates:
// run with ELK_UPDATE_SAMPLE=1 to rewrite sample_models/llama2-13b-layer-decode.elk.json.
#include "engine/model/graph.h"
#include "engine/model/graph_json.h"

#include <QTest>

#include <fstream>
#include <sstream>

using namespace elk::model;

namespace {

const char* const kSamplePath = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";

// Llama-2-13B (Touvron et al. 2023, table of model sizes; config: hidden 5120, 40 heads of 128,
// SwiGLU FFN 13824, RMSNorm) — one decoder layer in the decode phase.
constexpr std::int64_t kBatch = 16;
constexpr std::int64_t kKvLength = 2048;
constexpr std::int64_t kHidden = 5120;
constexpr std::int64_t kHeads = 40;
constexpr std::int64_t kHeadDim = 128;
constexpr std::int64_t kFfn = 13824;

Graph buildLlama2_13bDecodeLayer()
{
    Graph g;
    g.setName("llama2-13b-layer-decode");
    g.setDescription("One Llama-2-13B decoder layer, decode step (one new token per sequence): batch 16, KV length "
                     "2048, hidden 5120, 40 heads x 128, SwiGLU FFN 13824, fp16. Hand-built from the published "
                     "model dimensions; see sample_models/README.md.");
    const auto f16 = DType::F16;
    const auto act = TensorRole::Activation;
    const auto weight = TensorRole::Weight;
    const auto kv = TensorRole::KvCache;
    auto L = [](int d) { return Axis::loop(d); };

    const TensorId x = g.addTensor("x", { kBatch, kHidden }, f16, act);
    g.addInput(x);

    // Attention block. Dims: b batch, c hidden, h head, d head dim, k contraction, s KV position.
    const TensorId attnNormW = g.addTensor("attn_norm_w", { kHidden }, f16, weight);
    const TensorId hAttn = g.addTensor("h_attn", { kBatch, kHidden }, f16, act);
    g.addOp("attn_norm", OpKind::Normalization, { { "b", kBatch }, { "c", kHidden } },
        { { hAttn, { L(0), L(1) } }, { x, { L(0), L(1) } }, { attnNormW, { L(1) } } });

    const std::vector<LoopDim> projDims { { "b", kBatch }, { "h", kHeads }, { "d", kHeadDim }, { "k", kHidden } };
    TensorId qkv[3];
    const char* const projNames[3] = { "q", "k", "v" };
    for (int i = 0; i < 3; ++i) {
        const std::string p = projNames[i];
        const TensorId w = g.addTensor("w" + p, { kHidden, kHeads, kHeadDim }, f16, weight);
        qkv[i] = g.addTensor(p, { kBatch, kHeads, kHeadDim }, f16, act);
        g.addOp(p + "_proj", OpKind::MatMul, projDims,
            { { qkv[i], { L(0), L(1), L(2) } }, { hAttn, { L(0), L(3) } }, { w, { L(3), L(1), L(2) } } });
    }
    // KV append: the new token's K/V row is written into its cache slot (data movement only).
    for (int i = 1; i < 3; ++i) {
        const std::string p = projNames[i];
        const TensorId row = g.addTensor(p + "_cache_new", { kBatch, kHeads, 1, kHeadDim }, f16, kv);
        g.addOutput(row);
        g.addOp(p + "_append", OpKind::Slice, { { "b", kBatch }, { "h", kHeads }, { "t", 1 }, { "d", kHeadDim } },
            { { row, { L(0), L(1), L(2), L(3) } }, { qkv[i], { L(0), L(1), L(3) } } });
    }
    // Scores, softmax and the weighted sum all run over the KV length (the artifact used 1 here).
    const TensorId kCache = g.addTensor("k_cache", { kBatch, kHeads, kKvLength, kHeadDim }, f16, kv);
    const TensorId scores = g.addTensor("scores", { kBatch, kHeads, kKvLength }, f16, act);
    g.addOp("attn_scores", OpKind::MatMul, { { "b", kBatch }, { "h", kHeads }, { "s", kKvLength }, { "d", kHeadDim } },
        { { scores, { L(0), L(1), L(2) } }, { qkv[0], { L(0), L(1), L(3) } }, { kCache, { L(0), L(1), L(2), L(3) } } });
    const TensorId probs = g.addTensor("probs", { kBatch, kHeads, kKvLength }, f16, act);
    g.addOp("attn_softmax", OpKind::Softmax, { { "b", kBatch }, { "h", kHeads }, { "s", kKvLength } },
        { { probs, { L(0), L(1), L(2) } }, { scores, { L(0), L(1), L(2) } } });
    const TensorId vCache = g.addTensor("v_cache", { kBatch, kHeads, kKvLength, kHeadDim }, f16, kv);
    const TensorId attn = g.addTensor("attn", { kBatch, kHeads, kHeadDim }, f16, act);
    g.addOp("attn_values", OpKind::MatMul, { { "b", kBatch }, { "h", kHeads }, { "d", kHeadDim }, { "s", kKvLength } },
        { { attn, { L(0), L(1), L(2) } }, { probs, { L(0), L(1), L(3) } }, { vCache, { L(0), L(1), L(3), L(2) } } });
    const TensorId wo = g.addTensor("wo", { kHeads, kHeadDim, kHidden }, f16, weight);
    const TensorId attnOut = g.addTensor("attn_out", { kBatch, kHidden }, f16, act);
    g.addOp("o_proj", OpKind::MatMul, { { "b", kBatch }, { "n", kHidden }, { "h", kHeads }, { "d", kHeadDim } },
        { { attnOut, { L(0), L(1) } }, { attn, { L(0), L(2), L(3) } }, { wo, { L(2), L(3), L(1) } } });
    const TensorId h1 = g.addTensor("h1", { kBatch, kHidden }, f16, act);
    g.addOp("attn_residual", OpKind::Elementwise, { { "b", kBatch }, { "c", kHidden } },
        { { h1, { L(0), L(1) } }, { x, { L(0), L(1) } }, { attnOut, { L(0), L(1) } } });

    // FFN block (SwiGLU). Dims: f FFN width, n output features.
    const TensorId ffnNormW = g.addTensor("ffn_norm_w", { kHidden }, f16, weight);
    const TensorId hFfn = g.addTensor("h_ffn", { kBatch, kHidden }, f16, act);
    g.addOp("ffn_norm", OpKind::Normalization, { { "b", kBatch }, { "c", kHidden } },
        { { hFfn, { L(0), L(1) } }, { h1, { L(0), L(1) } }, { ffnNormW, { L(1) } } });
    TensorId gateUp[2];
    const char* const gateUpNames[2] = { "gate", "up" };
    for (int i = 0; i < 2; ++i) {
        const std::string p = gateUpNames[i];
        const TensorId w = g.addTensor("w_" + p, { kHidden, kFfn }, f16, weight);
        gateUp[i] = g.addTensor(p, { kBatch, kFfn }, f16, act);
        g.addOp(p + "_proj", OpKind::MatMul, { { "b", kBatch }, { "f", kFfn }, { "k", kHidden } },
            { { gateUp[i], { L(0), L(1) } }, { hFfn, { L(0), L(2) } }, { w, { L(2), L(1) } } });
    }
    const TensorId gateAct = g.addTensor("gate_act", { kBatch, kFfn }, f16, act);
    g.addOp("ffn_silu", OpKind::Unary, { { "b", kBatch }, { "f", kFfn } },
        { { gateAct, { L(0), L(1) } }, { gateUp[0], { L(0), L(1) } } });
    const TensorId hidden = g.addTensor("ffn_hidden", { kBatch, kFfn }, f16, act);
    g.addOp("ffn_mul", OpKind::Elementwise, { { "b", kBatch }, { "f", kFfn } },
        { { hidden, { L(0), L(1) } }, { gateAct, { L(0), L(1) } }, { gateUp[1], { L(0), L(1) } } });
    const TensorId wDown = g.addTensor("w_down", { kFfn, kHidden }, f16, weight);
    const TensorId ffnOut = g.addTensor("ffn_out", { kBatch, kHidden }, f16, act);
    g.addOp("down_proj", OpKind::MatMul, { { "b", kBatch }, { "n", kHidden }, { "f", kFfn } },
        { { ffnOut, { L(0), L(1) } }, { hidden, { L(0), L(2) } }, { wDown, { L(2), L(1) } } });
    // The layer output feeds the next layer, so it is an activation (role output would make this
    // residual a different expression from the first one).
    const TensorId y = g.addTensor("y", { kBatch, kHidden }, f16, act);
    g.addOutput(y);
    g.addOp("ffn_residual", OpKind::Elementwise, { { "b", kBatch }, { "c", kHidden } },
        { { y, { L(0), L(1) } }, { h1, { L(0), L(1) } }, { ffnOut, { L(0), L(1) } } });
    return g;
}

// A graph that uses windows, a scalar, several dtypes and roles, and text that needs escaping.
Graph buildVariedGraph()
{
    Graph g;
    g.setName("varied \"graph\" / ünïcode");
    g.setDescription("line one\nline two\ttabbed");
    const TensorId image = g.addTensor("image", { 1, 3, 9, 9 }, DType::BF16, TensorRole::Activation);
    const TensorId kernel = g.addTensor("kernel", { 3, 2, 3, 3 }, DType::BF16, TensorRole::Weight);
    const TensorId feat = g.addTensor("feat", { 1, 2, 4, 4 }, DType::F32, TensorRole::Activation);
    const TensorId pooled = g.addTensor("pooled", { 1, 2, 2, 2 }, DType::F32, TensorRole::Activation);
    const TensorId scale = g.addTensor("scale", {}, DType::F32, TensorRole::Weight);
    const TensorId out = g.addTensor("out", { 1, 2, 2, 2 }, DType::F32, TensorRole::Output);
    g.addInput(image);
    g.addOutput(out);
    auto L = [](int d) { return Axis::loop(d); };
    g.addOp("conv", OpKind::Conv,
        { { "n", 1 }, { "f", 2 }, { "c", 3 }, { "ho", 4 }, { "wo", 4 }, { "kh", 3 }, { "kw", 3 } },
        { { feat, { L(0), L(1), L(3), L(4) } }, { image, { L(0), L(2), Axis::window(3, 5, 2), Axis::window(4, 6, 2) } },
            { kernel, { L(2), L(1), L(5), L(6) } } });
    g.addOp("pool", OpKind::Pool, { { "n", 1 }, { "c", 2 }, { "ho", 2 }, { "wo", 2 }, { "kh", 2 }, { "kw", 2 } },
        { { pooled, { L(0), L(1), L(2), L(3) } },
            { feat, { L(0), L(1), Axis::window(2, 4, 2), Axis::window(3, 5, 2) } } });
    g.addOp("scale", OpKind::Elementwise, { { "n", 1 }, { "c", 2 }, { "h", 2 }, { "w", 2 } },
        { { out, { L(0), L(1), L(2), L(3) } }, { pooled, { L(0), L(1), L(2), L(3) } }, { scale, {} } });
    return g;
}

std::string readText(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

QByteArray describe(const std::vector<GraphParseError>& errors)
{
    QByteArray text;
    for (const GraphParseError& error : errors)
        text += "\n  " + QByteArray::fromStdString(toString(error));
    return text;
}

QByteArray describe(const std::vector<GraphError>& errors)
{
    QByteArray text;
    for (const GraphError& error : errors)
        text += "\n  " + QByteArray::fromStdString(error.message);
    return text;
}

// A minimal valid document on one line, so that rows can change it by text replacement.
const char* const kTiny
    = R"({"schema": "elk.graph/1", "name": "tiny", "tensors": [)"
      R"({"name": "x", "shape": [2, 3], "dtype": "f16", "role": "activation"}, )"
      R"({"name": "y", "shape": [2, 3], "dtype": "f16", "role": "activation"}], )"
      R"("inputs": ["x"], "outputs": ["y"], "ops": [{"name": "relu", "kind": "unary", )"
      R"("dims": [{"name": "i", "extent": 2}, {"name": "j", "extent": 3}], )"
      R"("operands": [{"tensor": "y", "axes": [[0], [1]]}, {"tensor": "x", "axes": [[0], [1]]}]}]})";

} // namespace

class TestGraphJson : public QObject {
    Q_OBJECT

    static bool loadSample(Graph& graph)
    {
        auto result = loadGraphFile(kSamplePath);
        if (!result.ok())
            qWarning("%s", describe(result.errors).constData());
        graph = std::move(result.graph);
        return result.ok();
    }

private slots:
    void tinyDocumentIsValid()
    {
        const auto result = graphFromJson(kTiny);
        QVERIFY2(result.ok(), describe(result.errors).constData());
        QVERIFY2(result.graph.validate().empty(), describe(result.graph.validate()).constData());
        QCOMPARE(result.graph.ops().size(), std::size_t(1));
        QCOMPARE(result.graph.exprOf(0).operands[1].dtype, DType::F16); // operand types come from the tensor
        QCOMPARE(result.graph.op(0).dimNames, (std::vector<std::string> { "i", "j" }));
    }

    void roundTripIsExact_data()
    {
        QTest::addColumn<int>("which");
        QTest::addRow("windows, scalar, escaping") << 0;
        QTest::addRow("llama2-13b decode layer") << 1;
        QTest::addRow("empty graph") << 2;
    }

    void roundTripIsExact()
    {
        QFETCH(int, which);
        Graph graph;
        if (which == 0)
            graph = buildVariedGraph();
        else if (which == 1)
            graph = buildLlama2_13bDecodeLayer();
        QVERIFY2(which == 2 || graph.validate().empty(), describe(graph.validate()).constData());
        const std::string text = graphToJson(graph);
        const auto parsed = graphFromJson(text);
        QVERIFY2(parsed.ok(), describe(parsed.errors).constData());
        QVERIFY(parsed.graph == graph);
        QCOMPARE(graphToJson(parsed.graph), text);
    }

    void writerIsReadable()
    {
        const std::string text = graphToJson(buildVariedGraph());
        // One tensor, dim list and operand per line, windows as [dim, windowDim, stride].
        QVERIFY(
            text.find(
                "\n    {\"name\": \"image\", \"shape\": [1, 3, 9, 9], \"dtype\": \"bf16\", \"role\": \"activation\"}")
            != std::string::npos);
        QVERIFY(text.find("\n        {\"tensor\": \"image\", \"axes\": [[0], [2], [3, 5, 2], [4, 6, 2]]}")
            != std::string::npos);
        QVERIFY(text.find("{\"tensor\": \"scale\", \"axes\": []}") != std::string::npos);
        QVERIFY(text.find("\"schema\": \"elk.graph/1\"") != std::string::npos);
    }

    void errorsHaveLocations_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("fragment");
        QTest::addColumn<int>("errorCount");
        auto row = [](const char* name, const char* from, const char* to, const char* location, const char* fragment,
                       int count = 1) {
            QTest::addRow("%s", name) << QString::fromUtf8(from) << QString::fromUtf8(to) << QString::fromUtf8(location)
                                      << QString::fromUtf8(fragment) << count;
        };
        // from = "*": the whole document is replaced.
        row("not an object", "*", R"([1, 2])", "", "expected an object, got array");
        row("missing schema", R"("schema": "elk.graph/1", )", "", "",
            "missing key \"schema\" (expected \"elk.graph/1\")");
        row("other schema version", "elk.graph/1", "elk.graph/2", "/schema",
            "unsupported schema \"elk.graph/2\", expected \"elk.graph/1\"");
        row("unknown top-level key", R"("name": "tiny")", R"("name": "tiny", "layers": 40)", "/layers",
            "unknown key \"layers\"; allowed keys: schema, name, tensors, inputs, outputs, ops, description");
        row("missing ops", R"(, "ops": [{"name": "relu", "kind": "unary", )",
            R"(, "opz": [{"name": "relu", "kind": "unary", )", "", "missing key \"ops\"", 2);
        row("name is not a string", R"("name": "tiny")", R"("name": 5)", "/name", "expected a string, got number 5");
        row("tensors is not an array", "*",
            R"({"schema": "elk.graph/1", "name": "n", "tensors": {}, "inputs": [], "outputs": [], "ops": []})",
            "/tensors", "expected an array, got object");
        row("ops is not an array", "*",
            R"({"schema": "elk.graph/1", "name": "n", "tensors": [], "inputs": [], "outputs": [], "ops": null})",
            "/ops", "expected an array, got null");
        row("empty name is allowed, description must be a string", "*",
            R"({"schema": "elk.graph/1", "name": "", "description": 1, "tensors": [], "inputs": [], "outputs": [], "ops": []})",
            "/description", "expected a string, got number 1");
        row("unknown tensor key", R"("name": "x", "shape")", R"("name": "x", "size": 1, "shape")", "/tensors/0/size",
            "unknown key \"size\"; allowed keys: name, shape, dtype, role");
        row("missing role", R"("dtype": "f16", "role": "activation"}, {"name": "y")",
            R"("dtype": "f16"}, {"name": "y")", "/tensors/0", "missing key \"role\"");
        row("unknown dtype", R"("dtype": "f16")", R"("dtype": "float16")", "/tensors/0/dtype",
            "unknown dtype \"float16\"; expected one of f64, f32, f16, bf16, f8e4m3, f8e5m2, i64, i32, i16, i8, u8, "
            "bool");
        row("unknown role", R"("role": "activation"}, {"name": "y")", R"("role": "kv-cache"}, {"name": "y")",
            "/tensors/0/role",
            "unknown role \"kv-cache\"; expected one of weight, kv_cache, activation, output, optimizer_state");
        row("fractional extent in a shape", R"("shape": [2, 3])", R"("shape": [2, 2.5])", "/tensors/0/shape/1",
            "expected an integer, got number 2.5");
        row("extent beyond int64", R"("shape": [2, 3])", R"("shape": [18446744073709551615, 3])", "/tensors/0/shape/0",
            "integer 18446744073709551615 is out of range");
        row("duplicate tensor name", R"({"name": "y", "shape")", R"({"name": "x", "shape")", "/tensors/1/name",
            "duplicate tensor name \"x\" (first declared at /tensors/0)", 3); // and "y" is unknown twice
        row("input names an undeclared tensor", R"("inputs": ["x"])", R"("inputs": ["nope"])", "/inputs/0",
            "unknown tensor \"nope\" (not in \"tensors\")");
        row("output is not a string", R"("outputs": ["y"])", R"("outputs": [7])", "/outputs/0",
            "expected a string, got number 7");
        row("unknown op kind", R"("kind": "unary")", R"("kind": "relu")", "/ops/0/kind",
            "unknown op kind \"relu\"; expected one of reduce, unary, elementwise, pool, conv, matmul, gather, slice, "
            "softmax, normalization");
        row("dim without extent", R"({"name": "j", "extent": 3})", R"({"name": "j"})", "/ops/0/dims/1",
            "missing key \"extent\"");
        row("extent as a string", R"({"name": "i", "extent": 2})", R"({"name": "i", "extent": "2"})",
            "/ops/0/dims/0/extent", "expected an integer, got string");
        row("empty dim name", R"({"name": "i", "extent": 2})", R"({"name": "", "extent": 2})", "/ops/0/dims/0/name",
            "expected a non-empty string");
        row("operand names an undeclared tensor", R"({"tensor": "x", "axes")", R"({"tensor": "z", "axes")",
            "/ops/0/operands/1/tensor", "unknown tensor \"z\"");
        row("dim index out of range", R"({"tensor": "x", "axes": [[0], [1]]})",
            R"({"tensor": "x", "axes": [[7], [1]]})", "/ops/0/operands/1/axes/0", "dim index 7 out of range 0..1");
        row("negative dim index", R"({"tensor": "x", "axes": [[0], [1]]})", R"({"tensor": "x", "axes": [[0], [-1]]})",
            "/ops/0/operands/1/axes/1", "dim index -1 out of range 0..1");
        row("window axis with two numbers", R"({"tensor": "x", "axes": [[0], [1]]})",
            R"({"tensor": "x", "axes": [[0, 1], [1]]})", "/ops/0/operands/1/axes/0",
            "an axis is [dim] or [dim, windowDim, stride], got 2 element(s)");
        row("window dim out of range", R"({"tensor": "x", "axes": [[0], [1]]})",
            R"({"tensor": "x", "axes": [[0, 9, 1], [1]]})", "/ops/0/operands/1/axes/0",
            "window dim index 9 out of range 0..1");
        row("fractional stride", R"({"tensor": "x", "axes": [[0], [1]]})",
            R"({"tensor": "x", "axes": [[0, 1, 1.5], [1]]})", "/ops/0/operands/1/axes/0/2",
            "expected an integer, got number 1.5");
        row("axes is not an array", R"({"tensor": "x", "axes": [[0], [1]]})", R"({"tensor": "x", "axes": 0})",
            "/ops/0/operands/1/axes", "expected an array, got number 0");
        row("unknown operand key", R"({"tensor": "x", "axes")", R"({"tensor": "x", "dtype": "f16", "axes")",
            "/ops/0/operands/1/dtype", "unknown key \"dtype\"; allowed keys: tensor, axes");
        row("op is not an object", R"("ops": [{"name": "relu", "kind": "unary", )",
            R"("ops": [3, {"name": "relu", "kind": "unary", )", "/ops/0", "expected an object, got number 3");
        row("duplicate key in an op", R"({"name": "relu", "kind": "unary")",
            R"({"name": "relu", "name": "relu2", "kind": "unary")", "/ops/0/name", "duplicate key \"name\"");
        row("duplicate key in a nested dim", R"({"name": "j", "extent": 3})",
            R"({"name": "j", "extent": 3, "extent": 4})", "/ops/0/dims/1/extent", "duplicate key \"extent\"");
    }

    void errorsHaveLocations()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, location);
        QFETCH(QString, fragment);
        QFETCH(int, errorCount);
        QString text = QString::fromUtf8(kTiny);
        if (from == QLatin1String("*")) {
            text = to;
        } else {
            QVERIFY2(text.contains(from), "the row's text to replace is not in the document");
            text.replace(text.indexOf(from), from.size(), to);
        }
        const auto result = graphFromJson(text.toStdString());
        QVERIFY2(int(result.errors.size()) == errorCount, describe(result.errors).constData());
        const auto match = std::find_if(result.errors.begin(), result.errors.end(),
            [&](const GraphParseError& e) { return QString::fromStdString(e.location) == location; });
        QVERIFY2(match != result.errors.end(), describe(result.errors).constData());
        QVERIFY2(QString::fromStdString(match->message).contains(fragment), describe(result.errors).constData());
        QCOMPARE(match->line, 0);
    }

    void syntaxErrorsHaveLineAndColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        QTest::addRow("missing value") << "{\n  \"schema\": \"elk.graph/1\",\n  \"name\": ,\n}" << 3 << 11
                                       << "unexpected ','";
        QTest::addRow("trailing comma") << "{\n  \"a\": 1,\n}" << 3 << 1 << "unexpected '}'";
        QTest::addRow("unterminated string") << "{\"schema\": \"elk.gr" << 1 << 19 << "missing closing quote";
        QTest::addRow("empty file") << "" << 1 << 1 << "unexpected end of input";
        QTest::addRow("text after the document") << "{}\n{}" << 2 << 1 << "expected end of input";
    }

    void syntaxErrorsHaveLineAndColumn()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        const auto result = graphFromJson(text.toStdString());
        QCOMPARE(result.errors.size(), std::size_t(1));
        const GraphParseError& error = result.errors.front();
        QCOMPARE(error.line, line);
        QCOMPARE(error.column, column);
        QCOMPARE(QString::fromStdString(error.location), QStringLiteral("line %1, column %2").arg(line).arg(column));
        QVERIFY2(QString::fromStdString(error.message).contains(fragment), error.message.c_str());
        QVERIFY2(error.message.find("json.exception") == std::string::npos, error.message.c_str());
    }

    void missingFileNamesThePath()
    {
        const std::string path = ELK_SOURCE_DIR "/sample_models/does-not-exist.elk.json";
        const auto result = loadGraphFile(path);
        QCOMPARE(result.errors.size(), std::size_t(1));
        QCOMPARE(result.errors.front().location, path);
        QCOMPARE(toString(result.errors.front()), path + ": cannot open the file for reading");
    }

    void sampleModelIsUpToDate()
    {
        const std::string expected = graphToJson(buildLlama2_13bDecodeLayer());
        if (qEnvironmentVariableIsSet("ELK_UPDATE_SAMPLE")) {
            std::ofstream(kSamplePath, std::ios::binary) << expected;
            qInfo("rewrote %s", kSamplePath);
        }
        QVERIFY2(readText(kSamplePath) == expected,
            "the sample differs from the builder in tst_graph_json.cpp; rerun with ELK_UPDATE_SAMPLE=1 and review the "
            "diff");
    }

    void sampleModelValidates()
    {
        const auto result = loadGraphFile(kSamplePath);
        QVERIFY2(result.ok(), describe(result.errors).constData());
        const Graph& graph = result.graph;
        QVERIFY2(graph.validate().empty(), describe(graph.validate()).constData());
        QCOMPARE(graph.ops().size(), std::size_t(18));
        std::vector<OpId> programOrder(graph.ops().size());
        for (OpId id = 0; id < programOrder.size(); ++id)
            programOrder[id] = id;
        QCOMPARE(graph.topologicalOrder(), programOrder);
    }

    void sampleModelParameterBytes()
    {
        Graph graph;
        QVERIFY(loadSample(graph));
        // Q, K, V, O projections + gate, up, down + two RMSNorm scales, 2 bytes each (fp16).
        // Exact: every tensor is counted once and the sizes are integers, so no rounding is involved.
        const std::int64_t expected = 2 * (4 * kHidden * kHidden + 3 * kHidden * kFfn + 2 * kHidden);
        QCOMPARE(qint64(graph.bytesOfRole(TensorRole::Weight)), qint64(expected)); // 634 . 10^6 bytes, ~0.59 GiB
        // K and V caches: 2 x batch x heads x KV length x head dim x 2 bytes.
        QCOMPARE(qint64(graph.bytesOfRole(TensorRole::KvCache)),
            qint64(2 * 2 * kBatch * kHeads * kKvLength * kHeadDim + 2 * 2 * kBatch * kHeads * kHeadDim));
    }

    void sampleModelAttentionRunsOverTheKvLength()
    {
        Graph graph;
        QVERIFY(loadSample(graph));
        for (const char* name : { "attn_scores", "attn_softmax", "attn_values", "o_proj", "ffn_residual", "k_append" })
            QVERIFY2(graph.findOp(name), name);
        for (const char* name : { "attn_scores", "attn_softmax", "attn_values" }) {
            const OpId id = *graph.findOp(name);
            const auto& extents = graph.exprOf(id).dimExtents;
            QVERIFY2(std::find(extents.begin(), extents.end(), kKvLength) != extents.end(), name);
        }
        const TensorExpr& scores = graph.exprOf(*graph.findOp("attn_scores"));
        QCOMPARE(scores.operands[2].role, TensorRole::KvCache);
        QCOMPARE(qint64(flopCount(scores)), qint64(2 * kBatch * kHeads * kKvLength * kHeadDim));
        const TensorExpr& softmax = graph.exprOf(*graph.findOp("attn_softmax"));
        QCOMPARE(qint64(flopCount(softmax)), qint64(5 * kBatch * kHeads * kKvLength));
        QCOMPARE(reductionDims(graph.exprOf(*graph.findOp("attn_values"))), std::vector<int> { 3 }); // s
    }

    void sampleModelSharesRepeatedExpressions()
    {
        Graph graph;
        QVERIFY(loadSample(graph));
        auto exprOf
            = [&](const char* name) { return graph.findOp(name) ? graph.op(*graph.findOp(name)).expr : ExprId(999); };
        QCOMPARE(exprOf("attn_norm"), exprOf("ffn_norm"));
        QCOMPARE(exprOf("attn_residual"), exprOf("ffn_residual"));
        QCOMPARE(exprOf("q_proj"), exprOf("k_proj"));
        QCOMPARE(exprOf("q_proj"), exprOf("v_proj"));
        QCOMPARE(exprOf("k_append"), exprOf("v_append"));
        QCOMPARE(exprOf("gate_proj"), exprOf("up_proj"));
        QVERIFY(exprOf("q_proj") != exprOf("o_proj")); // same FLOPs, different layout
        QVERIFY(exprOf("attn_scores") != exprOf("attn_values"));
        QVERIFY(exprOf("ffn_mul") != exprOf("attn_residual")); // 13824 vs 5120 wide
        QCOMPARE(graph.expressions().size(), std::size_t(12)); // 18 ops, 12 distinct expressions
    }

    void sampleModelFlops()
    {
        Graph graph;
        QVERIFY(loadSample(graph));
        const std::int64_t b = kBatch, hid = kHidden, ffn = kFfn, heads = kHeads, hd = kHeadDim, kv = kKvLength;
        const std::int64_t projections = 2 * b * (4 * hid * hid + 3 * hid * ffn);
        const std::int64_t attention = 2 * (2 * b * heads * kv * hd) + 5 * b * heads * kv;
        const std::int64_t pointwise = 2 * (4 * b * hid) + 2 * (b * hid) + 2 * (b * ffn); // norms, residuals, silu, mul
        QCOMPARE(qint64(graph.totalFlops()), qint64(projections + attention + pointwise));
    }
};

QTEST_GUILESS_MAIN(TestGraphJson)
#include "tst_graph_json.moc"
