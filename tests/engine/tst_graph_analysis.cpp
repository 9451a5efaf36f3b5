// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Graph analysis: execution order, tensor lifetimes, layer detection, per-step totals.
#include "engine/import/onnx_importer.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph.h"
#include "engine/model/graph_analysis.h"
#include "engine/model/graph_json.h"
#include "tests/support/stacked_layers.h"

#include <QTest>

#include "tests/support/compare_near.h"
#include <algorithm>
#include <optional>

using namespace elk::model;
using namespace Qt::Literals::StringLiterals;

namespace {

const std::vector<std::int64_t> kRowShape { 4, 8 };

/// A chain of ops from a spec of space-separated tokens, one op per token, every activation f16
/// [4, 8] so any op can follow any other:
///   u unary, s softmax, c copy (one-input elementwise), l slice,
///   n RMSNorm with its own scale weight [8], e bias add with its own weight [8],
///   m matmul with its own weight [8, 8],
///   +D residual add of the previous op's output and the output of the op D steps back (the graph
///      input x when that lies before the first op).
/// Each token's op reads the previous op's output (the first reads x); the last output is the
/// graph's output. Distinct tokens give distinct expressions, equal tokens equal ones.
Graph chainGraph(const QString& spec)
{
    Graph graph;
    graph.setName("chain");
    const TensorId x = graph.addTensor("x", kRowShape, DType::F16, TensorRole::Activation);
    graph.addInput(x);
    std::vector<TensorId> outputs; // by step
    const std::vector<Axis> rows { Axis::loop(0), Axis::loop(1) };
    const std::vector<LoopDim> rowDims { { "r", 4 }, { "c", 8 } };
    const QStringList tokens = spec.split(u' ', Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QString& token = tokens[i];
        const std::string name = "op" + std::to_string(i);
        const TensorId in = outputs.empty() ? x : outputs.back();
        const TensorId out = graph.addTensor(name + ".out", kRowShape, DType::F16, TensorRole::Activation);
        auto weight = [&](std::vector<std::int64_t> shape) {
            return graph.addTensor(name + ".w", std::move(shape), DType::F16, TensorRole::Weight);
        };
        if (token == u"u"_s || token == u"s"_s || token == u"c"_s || token == u"l"_s) {
            const OpKind kind = token == u"u"_s ? OpKind::Unary
                : token == u"s"_s               ? OpKind::Softmax
                : token == u"c"_s               ? OpKind::Elementwise
                                                : OpKind::Slice;
            graph.addOp(name, kind, rowDims, { { out, rows }, { in, rows } });
        } else if (token == u"n"_s || token == u"e"_s) {
            const OpKind kind = token == u"n"_s ? OpKind::Normalization : OpKind::Elementwise;
            graph.addOp(name, kind, rowDims, { { out, rows }, { in, rows }, { weight({ 8 }), { Axis::loop(1) } } });
        } else if (token == u"m"_s) {
            graph.addOp(name, OpKind::MatMul, { { "r", 4 }, { "c", 8 }, { "k", 8 } },
                { { out, rows }, { in, { Axis::loop(0), Axis::loop(2) } },
                    { weight({ 8, 8 }), { Axis::loop(2), Axis::loop(1) } } });
        } else if (token.startsWith(u'+')) {
            const qsizetype back = i - token.mid(1).toInt();
            const TensorId other = back < 0 ? x : outputs[std::size_t(back)];
            graph.addOp(name, OpKind::Elementwise, rowDims, { { out, rows }, { in, rows }, { other, rows } });
        } else {
            qFatal("chainGraph: unknown token '%s'", qPrintable(token));
        }
        outputs.push_back(out);
    }
    if (!outputs.empty())
        graph.addOutput(outputs.back());
    return graph;
}

QString repeat(const QString& block, int times)
{
    QStringList blocks;
    for (int i = 0; i < times; ++i)
        blocks << block;
    return blocks.join(u' ');
}

QString lifetimeText(const Graph& graph, const std::vector<TensorLifetime>& lifetimes)
{
    QStringList parts;
    for (TensorId id = 0; id < graph.tensors().size(); ++id) {
        const TensorLifetime& life = lifetimes.at(id);
        parts << u"%1 %2 %3 %4"_s.arg(QString::fromStdString(graph.tensor(id).name))
                     .arg(life.start)
                     .arg(life.firstUse)
                     .arg(life.end);
    }
    return parts.join(u", "_s);
}

Graph loadSample()
{
    GraphParseResult loaded = loadGraphFile(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
    if (!loaded.ok())
        qFatal("sample model does not load: %s", toString(loaded.errors.front()).c_str());
    return std::move(loaded.graph);
}

/// Imports one step of a bundled model (the path `elk inspect NAME` takes).
elk::import::ImportResult importBundled(
    const std::string& name, elk::import::ModelPhase phase, std::int64_t batch, std::int64_t seq, std::int64_t kv)
{
    using namespace elk::import;
    const std::string bytes = buildTransformerOnnx(bundledModelConfig(name).value(), phase);
    ImportOptions options;
    options.dims.batch = batch;
    options.dims.seqLen = seq;
    if (phase == ModelPhase::Decode)
        options.dims.kvLen = kv;
    // The builder names the attention mask's length "past + seq"; the importer binds names only.
    options.dims.named["past + seq"] = seq + (phase == ModelPhase::Decode ? kv : 0);
    return importOnnxBytes(bytes, name, options);
}

} // namespace

class TestGraphAnalysis : public QObject {
    Q_OBJECT

private slots:
    // Diamond: a = u(x); b = u(a); c = a · w; d = b + c and e = u(b), both graph outputs. With ops
    // added in that order the execution order is the program order; added as a, d, b, c, e it is
    // still a, b, c, d, e (by dependencies), and lifetimes are in steps of that order, not op ids.
    void diamondLifetimes_data()
    {
        QTest::addColumn<bool>("outOfOrder");
        QTest::addColumn<QString>("expected"); // "tensor start firstUse end" per tensor, by id
        const QString expected = u"x -1 0 0, w -1 2 2, a 0 1 2, b 1 3 4, c 2 3 3, d 3 -1 5, e 4 -1 5"_s;
        QTest::addRow("program order is topological") << false << expected;
        QTest::addRow("ops added out of order") << true << expected;
    }

    void diamondLifetimes()
    {
        QFETCH(bool, outOfOrder);
        QFETCH(QString, expected);
        Graph graph;
        const auto act = [&](const char* name) {
            return graph.addTensor(name, { 4, 8 }, DType::F16, TensorRole::Activation);
        };
        const TensorId x = act("x");
        const TensorId w = graph.addTensor("w", { 8, 8 }, DType::F16, TensorRole::Weight);
        const TensorId a = act("a"), b = act("b"), c = act("c"), d = act("d"), e = act("e");
        graph.addInput(x);
        graph.addOutput(d);
        graph.addOutput(e);
        const std::vector<Axis> rows { Axis::loop(0), Axis::loop(1) };
        const std::vector<LoopDim> dims { { "r", 4 }, { "c", 8 } };
        const auto addA = [&] { graph.addOp("A", OpKind::Unary, dims, { { a, rows }, { x, rows } }); };
        const auto addB = [&] { graph.addOp("B", OpKind::Unary, dims, { { b, rows }, { a, rows } }); };
        const auto addC = [&] {
            graph.addOp("C", OpKind::MatMul, { { "r", 4 }, { "c", 8 }, { "k", 8 } },
                { { c, rows }, { a, { Axis::loop(0), Axis::loop(2) } }, { w, { Axis::loop(2), Axis::loop(1) } } });
        };
        const auto addD = [&] {
            graph.addOp("D", OpKind::Elementwise, dims, { { d, rows }, { b, rows }, { c, rows } });
        };
        const auto addE = [&] { graph.addOp("E", OpKind::Unary, dims, { { e, rows }, { b, rows } }); };
        addA();
        if (outOfOrder)
            addD();
        addB();
        addC();
        if (!outOfOrder)
            addD();
        addE();
        QVERIFY2(graph.validate().empty(), graph.validate().empty() ? "" : toString(graph.validate().front()).c_str());

        const GraphAnalysis analysis = analyzeGraph(graph);
        std::vector<std::string> names;
        for (OpId id : analysis.order)
            names.push_back(graph.op(id).name);
        QCOMPARE(names, (std::vector<std::string> { "A", "B", "C", "D", "E" }));
        for (std::size_t step = 0; step < analysis.order.size(); ++step)
            QCOMPARE(analysis.stepOf.at(analysis.order[step]), int(step));
        QCOMPARE(lifetimeText(graph, analysis.lifetimes), expected);
    }

    // Expected results, with prefix P = "e l", block B = "n m s m +5" (5 ops; +5 is the residual
    // add of the block's input, i.e. the op before the block) and suffix S = "u c":
    // - P + 5 B + S: prefix 2, 5 × 5, suffix 2.
    // - 5 B fed by the graph input: layer 0's residual reads x (no producer), the others read the
    //   previous block's last op; both lie outside their block, so all 5 match: 5 × 5.
    // - P + 6 B + S: 6 × 5 and 3 × 10 cover the same 30 ops; the shorter block wins.
    // - suffix "n m" repeats the block's first two ops: blocks could start at step 2 or 3 (both 5
    //   blocks); the earlier start wins, leaving the suffix "n m".
    // - P + 1 B + S, and no repetition at all: one layer holding every op.
    // - Q/K/V-like "m m m" inside one layer: 3 of 13 ops repeat, less than a quarter: one layer.
    // - Alternating A = B, A' = "n m u m +5": the block is A A' (10 ops) × 5 after P, then "c".
    // - Dataflow: the 5th block's residual reads 3 back (inside the block) instead of 5: the
    //   expressions still repeat 5 times, but only 4 blocks match (then 5 + 2 suffix steps).
    // - A 1-op block repeated over the whole graph ("m" × 12): 12 × 1.
    void detectLayers_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("prefix");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("opsPerLayer");
        QTest::addColumn<int>("suffix");
        const QString block = u"n m s m +5"_s;
        const QString other = u"n m u m +5"_s;
        QTest::addRow("prefix + 5 blocks + suffix") << u"e l "_s + repeat(block, 5) + u" u c"_s << 2 << 5 << 5 << 2;
        QTest::addRow("5 blocks from the graph input") << repeat(block, 5) << 0 << 5 << 5 << 0;
        QTest::addRow("6 blocks: shortest period wins") << u"e l "_s + repeat(block, 6) + u" u c"_s << 2 << 6 << 5 << 2;
        QTest::addRow("suffix repeats the block start") << u"e l "_s + repeat(block, 5) + u" n m"_s << 2 << 5 << 5 << 2;
        QTest::addRow("one block") << u"e l "_s + block + u" u c"_s << 0 << 1 << 9 << 0;
        QTest::addRow("no repetition") << u"e l n m s u c"_s << 0 << 1 << 7 << 0;
        QTest::addRow("q/k/v repeat inside one layer") << u"e l n m m m s m +7 u c u s"_s << 0 << 1 << 13 << 0;
        QTest::addRow("a quarter of the ops is enough") << u"e l n m m m s m +7 u c u"_s << 3 << 3 << 1 << 6;
        QTest::addRow("two alternating block types")
            << u"e l "_s + repeat(block + u' ' + other, 5) + u" c"_s << 2 << 5 << 10 << 1;
        QTest::addRow("dataflow differs in the last block")
            << u"e l "_s + repeat(block, 4) + u" n m s m +3 u c"_s << 2 << 4 << 5 << 7;
        // Real exports wire a few ops of some layers differently (llama2-70, gemma2): a block of 16
        // or more that differs from its neighbours in at most 1 op of 16 is still a layer when exact
        // repetition covers less than two thirds of the graph; 2 of 16 is a different block.
        const QString big = u"n m s m +5 u c u c u c u c u c u"_s;
        const QString oneOff = u"n m s m +5 u c u c s c u c u c u"_s;
        const QString twoOff = u"n m s m +5 u c u c s c s c u c u"_s;
        QTest::addRow("one op of 16 differs in one layer")
            << repeat(big, 3) + u' ' + oneOff + u' ' + repeat(big, 2) << 0 << 6 << 16 << 0;
        // Two off in 16 is too many for 16-op layers; as 32-op layers (2 of 32) it is within the rule.
        QTest::addRow("two ops of 16 differ")
            << repeat(big, 3) + u' ' + twoOff + u' ' + repeat(big, 2) << 0 << 3 << 32 << 0;
        QTest::addRow("one-op layers") << repeat(u"m"_s, 12) << 0 << 12 << 1 << 0;
        QTest::addRow("single op") << u"m"_s << 0 << 1 << 1 << 0;
        QTest::addRow("empty graph") << QString() << 0 << 0 << 0 << 0;
    }

    void detectLayers()
    {
        QFETCH(QString, spec);
        QFETCH(int, prefix);
        QFETCH(int, layers);
        QFETCH(int, opsPerLayer);
        QFETCH(int, suffix);
        const Graph graph = chainGraph(spec);
        QVERIFY(spec.isEmpty() || graph.validate().empty()); // an empty graph is reported as such
        const LayerStructure found = elk::model::detectLayers(graph, graph.topologicalOrder());
        const QString text = u"prefix %1, %2 x %3, suffix %4"_s.arg(found.prefixOps)
                                 .arg(found.layerCount)
                                 .arg(found.opsPerLayer)
                                 .arg(found.suffixOps);
        QCOMPARE(text, u"prefix %1, %2 x %3, suffix %4"_s.arg(prefix).arg(layers).arg(opsPerLayer).arg(suffix));
        QCOMPARE(found.firstLayerStart, found.prefixOps);
        QCOMPARE(found.prefixOps + found.layerCount * found.opsPerLayer + found.suffixOps, int(graph.ops().size()));
    }

    void layerOfStep()
    {
        const LayerStructure layers { 2, 3, 4, 1, 2 };
        QCOMPARE(layers.layerOf(0), -1);
        QCOMPARE(layers.layerOf(1), -1);
        QCOMPARE(layers.layerOf(2), 0);
        QCOMPARE(layers.layerOf(5), 0);
        QCOMPARE(layers.layerOf(6), 1);
        QCOMPARE(layers.layerOf(13), 2);
        QCOMPARE(layers.layerOf(14), -1);
    }

    // A small decode-like graph, every number by hand (f16 = 2 bytes, f32 = 4):
    //   h[2,6]     = x[2,4] · w[4,6]                 matmul  flops 2·2·6·4 = 96   bytes (8+24+12)·2 = 88
    //   k_new[2,1,6] = slice(h)                     slice   flops 0            bytes (12+12)·2 = 48
    //   scores[2,3] = h[2,6] · k_cache[2,3,6]       matmul  flops 2·2·3·6 = 72   bytes (6+12+36)·2 = 108
    //   probs[2,3] = softmax(scores)                softmax flops 5·6 = 30     bytes (6+6)·2 = 24
    //   hn[2,6]    = rmsnorm(h, g[6] f32)           norm    flops 4·12 = 48    bytes 24+24+6·4 = 72
    //   w_next[4,6] = copy(w)  (an optimizer step)  elementwise flops 24      bytes (24+24)·2 = 96
    // params: w 24 + g 6 = 30 (w_next is produced, so not a parameter); weight bytes 48 + 24 = 72;
    // KV read: k_cache 36·2 = 72; KV written: k_new 12·2 = 24;
    // FLOPs 96+0+72+30+48+24 = 270; HBM bytes with no reuse 88+48+108+24+72+96 = 436.
    void totals()
    {
        Graph graph;
        const TensorId x = graph.addTensor("x", { 2, 4 }, DType::F16, TensorRole::Activation);
        const TensorId w = graph.addTensor("w", { 4, 6 }, DType::F16, TensorRole::Weight);
        const TensorId g = graph.addTensor("g", { 6 }, DType::F32, TensorRole::Weight);
        const TensorId h = graph.addTensor("h", { 2, 6 }, DType::F16, TensorRole::Activation);
        const TensorId kNew = graph.addTensor("k_new", { 2, 1, 6 }, DType::F16, TensorRole::KvCache);
        const TensorId kCache = graph.addTensor("k_cache", { 2, 3, 6 }, DType::F16, TensorRole::KvCache);
        const TensorId scores = graph.addTensor("scores", { 2, 3 }, DType::F16, TensorRole::Activation);
        const TensorId probs = graph.addTensor("probs", { 2, 3 }, DType::F16, TensorRole::Output);
        const TensorId hn = graph.addTensor("hn", { 2, 6 }, DType::F16, TensorRole::Output);
        const TensorId wNext = graph.addTensor("w_next", { 4, 6 }, DType::F16, TensorRole::Weight);
        graph.addInput(x);
        for (TensorId out : { kNew, probs, hn, wNext })
            graph.addOutput(out);
        const auto loop = [](std::initializer_list<int> dims) {
            std::vector<Axis> axes;
            for (int d : dims)
                axes.push_back(Axis::loop(d));
            return axes;
        };
        graph.addOp("proj", OpKind::MatMul, { { "b", 2 }, { "n", 6 }, { "k", 4 } },
            { { h, loop({ 0, 1 }) }, { x, loop({ 0, 2 }) }, { w, loop({ 2, 1 }) } });
        graph.addOp("append", OpKind::Slice, { { "b", 2 }, { "t", 1 }, { "d", 6 } },
            { { kNew, loop({ 0, 1, 2 }) }, { h, loop({ 0, 2 }) } });
        graph.addOp("scores", OpKind::MatMul, { { "b", 2 }, { "s", 3 }, { "d", 6 } },
            { { scores, loop({ 0, 1 }) }, { h, loop({ 0, 2 }) }, { kCache, loop({ 0, 1, 2 }) } });
        graph.addOp("softmax", OpKind::Softmax, { { "b", 2 }, { "s", 3 } },
            { { probs, loop({ 0, 1 }) }, { scores, loop({ 0, 1 }) } });
        graph.addOp("norm", OpKind::Normalization, { { "b", 2 }, { "c", 6 } },
            { { hn, loop({ 0, 1 }) }, { h, loop({ 0, 1 }) }, { g, loop({ 1 }) } });
        graph.addOp("update", OpKind::Elementwise, { { "r", 4 }, { "c", 6 } },
            { { wNext, loop({ 0, 1 }) }, { w, loop({ 0, 1 }) } });
        QVERIFY2(graph.validate().empty(), graph.validate().empty() ? "" : toString(graph.validate().front()).c_str());

        const GraphAnalysis analysis = analyzeGraph(graph);
        const GraphTotals& totals = analysis.totals;
        QCOMPARE(totals.params, std::int64_t(30));
        QCOMPARE(totals.weightBytes, std::int64_t(72));
        QCOMPARE(totals.kvBytesRead, std::int64_t(72));
        QCOMPARE(totals.kvBytesWritten, std::int64_t(24));
        QCOMPARE(totals.kvBytes(), std::int64_t(96));
        QCOMPARE(totals.flops, std::int64_t(270));
        QCOMPARE(totals.hbmBytesNoReuse, std::int64_t(436));
        const std::vector<double> intensity { 96.0 / 88, 0.0, 72.0 / 108, 30.0 / 24, 48.0 / 72, 24.0 / 96 };
        QCOMPARE(analysis.arithmeticIntensity.size(), intensity.size());
        for (std::size_t i = 0; i < intensity.size(); ++i)
            QCOMPARE(analysis.arithmeticIntensity[i], intensity[i]);
        QCOMPARE(analysis.layers.layerCount, 1);
    }

    // Optimizer state (an Adam moment) is not a parameter: it is counted apart, and like weights
    // and the KV cache it is a graph input without being declared.
    //   m_next[4,6] f32 = m + g       elementwise flops 24, bytes 3·24·4 = 288
    //   w_next[4,6] f16 = w + m_next  elementwise flops 24, bytes 24·2 + 24·4 + 24·2 = 192
    // params: w 24 (not m); weight bytes 48; optimizer state bytes m 24·4 = 96 (m_next is produced).
    void optimizerStateTotals()
    {
        Graph graph;
        const TensorId w = graph.addTensor("w", { 4, 6 }, DType::F16, TensorRole::Weight);
        const TensorId m = graph.addTensor("w.m", { 4, 6 }, DType::F32, TensorRole::OptimizerState);
        const TensorId g = graph.addTensor("g", { 4, 6 }, DType::F32, TensorRole::Activation);
        const TensorId mNext = graph.addTensor("m_next", { 4, 6 }, DType::F32, TensorRole::Output);
        const TensorId wNext = graph.addTensor("w_next", { 4, 6 }, DType::F16, TensorRole::Output);
        graph.addInput(g);
        graph.addOutput(mNext);
        graph.addOutput(wNext);
        const std::vector<Axis> rows { Axis::loop(0), Axis::loop(1) };
        const std::vector<LoopDim> dims { { "r", 4 }, { "c", 6 } };
        graph.addOp("moment", OpKind::Elementwise, dims, { { mNext, rows }, { m, rows }, { g, rows } });
        graph.addOp("update", OpKind::Elementwise, dims, { { wNext, rows }, { w, rows }, { mNext, rows } });
        const auto problems = graph.validate();
        QVERIFY2(problems.empty(), problems.empty() ? "" : toString(problems.front()).c_str());
        QVERIFY(graph.isGraphInput(m)); // not declared: its role resides in HBM
        QVERIFY(!graph.isGraphInput(mNext));

        const GraphTotals totals = analyzeGraph(graph).totals;
        QCOMPARE(totals.params, std::int64_t(24));
        QCOMPARE(totals.weightBytes, std::int64_t(48));
        QCOMPARE(totals.optimizerStateBytes, std::int64_t(96));
        QCOMPARE(totals.flops, std::int64_t(48));
        QCOMPARE(totals.hbmBytesNoReuse, std::int64_t(288 + 192));
        QCOMPARE(graph.bytesOfRole(TensorRole::OptimizerState), std::int64_t(96));

        // The role survives the elk.graph JSON format.
        const GraphParseResult parsed = graphFromJson(graphToJson(graph));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.graph.tensor(*parsed.graph.findTensor("w.m")).role, TensorRole::OptimizerState);
        QCOMPARE(graphTotals(parsed.graph), totals);
    }

    void tensorRoles_data()
    {
        QTest::addColumn<int>("role");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("inHbm");
        QTest::addRow("weight") << int(TensorRole::Weight) << u"weight"_s << true;
        QTest::addRow("KV cache") << int(TensorRole::KvCache) << u"kv_cache"_s << true;
        QTest::addRow("activation") << int(TensorRole::Activation) << u"activation"_s << false;
        QTest::addRow("output") << int(TensorRole::Output) << u"output"_s << false;
        QTest::addRow("optimizer state") << int(TensorRole::OptimizerState) << u"optimizer_state"_s << true;
    }
    void tensorRoles()
    {
        QFETCH(int, role);
        QFETCH(QString, text);
        QFETCH(bool, inHbm);
        const auto r = TensorRole(role);
        QCOMPARE(QString::fromLatin1(toString(r)), text);
        QCOMPARE(tensorRoleFromString(text.toStdString()), std::optional<TensorRole>(r));
        QCOMPARE(residesInHbm(r), inHbm);
        QVERIFY(std::find(kAllTensorRoles.begin(), kAllTensorRoles.end(), r) != kAllTensorRoles.end());
    }

    // The bundled one-layer sample: numbers from sample_models/README.md (checked there by
    // tst_graph_json too): weights 634,408,960 B = 317,204,480 fp16 params; KV read = K and V
    // caches 2 × 2·16·40·2048·128 = 671,088,640 B, written = the two new rows 2 × 2·16·40·128 =
    // 327,680 B; FLOPs 10,829,119,488; 18 ops and no repetition beyond Q/K/V and gate/up: one layer.
    void sampleLayer()
    {
        const Graph graph = loadSample();
        const GraphAnalysis analysis = analyzeGraph(graph);
        QCOMPARE(analysis.order.size(), std::size_t(18));
        for (std::size_t step = 0; step < analysis.order.size(); ++step)
            QCOMPARE(analysis.order[step], OpId(step)); // the file's program order is topological
        QCOMPARE(analysis.layers, (LayerStructure { 0, 1, 18, 0, 0 }));
        QCOMPARE(analysis.totals.weightBytes, std::int64_t(634'408'960));
        QCOMPARE(analysis.totals.params, std::int64_t(317'204'480));
        QCOMPARE(analysis.totals.kvBytesRead, std::int64_t(671'088'640));
        QCOMPARE(analysis.totals.kvBytesWritten, std::int64_t(327'680));
        QCOMPARE(analysis.totals.flops, std::int64_t(10'829'119'488));
        QCOMPARE(analysis.totals.hbmBytesNoReuse, graph.totalOperandBytes());
        const TensorLifetime x = analysis.lifetimes.at(*graph.findTensor("x"));
        QCOMPARE(x.start, -1);
        QCOMPARE(x.firstUse, 0);
        QCOMPARE(x.end, int(*graph.findOp("attn_residual")));
        QCOMPARE(analysis.lifetimes.at(*graph.findTensor("y")).end, 18); // graph output: to the end
        // Decode attention runs over the KV length: the score matmul reads the whole cache.
        const OpId scores = *graph.findOp("attn_scores");
        QCOMPARE(graph.exprOf(scores).dimExtents.at(2), std::int64_t(2048));
    }

    // The sample layer stacked 40 times (Llama-2-13B's layer count, no embedding or LM head):
    // 40 layers of 18 ops are found, and the totals scale by 40.
    void stackedSampleLayers_data()
    {
        QTest::addColumn<int>("count");
        QTest::addRow("2 layers") << 2;
        QTest::addRow("40 layers") << 40;
    }

    void stackedSampleLayers()
    {
        QFETCH(int, count);
        const Graph layer = loadSample();
        const Graph graph = elk::test::stackLayers(layer, count, "stacked");
        QVERIFY(graph.validate().empty());
        const GraphAnalysis analysis = analyzeGraph(graph);
        QCOMPARE(analysis.layers, (LayerStructure { 0, count, 18, 0, 0 }));
        QCOMPARE(analysis.totals.weightBytes, count * std::int64_t(634'408'960));
        QCOMPARE(analysis.totals.kvBytesRead, count * std::int64_t(671'088'640));
        QCOMPARE(analysis.totals.flops, count * std::int64_t(10'829'119'488));
    }

    // The check, `elk inspect llama2-13b --batch 32 --seq 2048` (decode: one new token per
    // sequence over a KV cache of 2048), by hand:
    // - weights: 13,015,864,320 parameters (13.0 B) × 2 bytes (fp16) = 26,031,728,640 B ≈ 26.0 GB;
    // - KV cache: 32 sequences × 2048 tokens × 40 layers × 5120 (40 heads × 128) × 2 (K and V)
    //   × 2 bytes = 53,687,091,200 B ≈ 53.7 GB. The step also touches the appended row: attention
    //   reads 2049 positions (the new token attends to itself) and writes one row per layer,
    //   32 × 1 × 40 × 5120 × 2 × 2 = 26,214,400 B, so read + written lies within two rows of it;
    // - 40 layers.
    void bundledLlama2_13bDecode()
    {
        const elk::import::ImportResult imported
            = importBundled("llama2-13b", elk::import::ModelPhase::Decode, 32, 1, 2048);
        QVERIFY2(
            imported.ok(), imported.ok() ? "" : elk::import::toString("llama2-13b", imported.errors.front()).c_str());
        const GraphAnalysis analysis = analyzeGraph(imported.graph);
        const std::int64_t params = elk::import::parameterCount(elk::import::bundledModelConfig("llama2-13b").value());
        QCOMPARE(params, std::int64_t(13'015'864'320));
        QCOMPARE(analysis.totals.params, params);
        QCOMPARE(analysis.totals.weightBytes, 2 * params);
        ELK_COMPARE_NEAR(double(analysis.totals.weightBytes) / 26.0e9, 1.0, 0.005);
        const std::int64_t kvCache = std::int64_t(32) * 2048 * 40 * 5120 * 2 * 2;
        const std::int64_t kvRow = std::int64_t(32) * 1 * 40 * 5120 * 2 * 2;
        QCOMPARE(kvCache, std::int64_t(53'687'091'200));
        QVERIFY2(analysis.totals.kvBytes() >= kvCache && analysis.totals.kvBytes() <= kvCache + 2 * kvRow,
            qPrintable(QString::number(analysis.totals.kvBytes())));
        QCOMPARE(analysis.totals.kvBytesWritten, kvRow);
        QCOMPARE(analysis.layers.layerCount, 40);
    }

    // Every bundled model and phase the importer reads today: the layer count is the published
    // one, and the weight elements are the builder's parameter count within 0.01 % (a tied LM
    // head is a view of the embedding; Adam's moments in a training step are optimizer state).
    void bundledModelLayers_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<int>("layers");
        QTest::addRow("llama2-13b decode") << u"llama2-13b"_s << u"decode"_s << 40;
        QTest::addRow("llama2-13b prefill") << u"llama2-13b"_s << u"prefill"_s << 40;
        QTest::addRow("llama2-13b train") << u"llama2-13b"_s << u"train"_s << 40;
        QTest::addRow("opt-30b decode") << u"opt-30b"_s << u"decode"_s << 48;
        QTest::addRow("opt-30b prefill") << u"opt-30b"_s << u"prefill"_s << 48;
        QTest::addRow("opt-30b train") << u"opt-30b"_s << u"train"_s << 48;
        QTest::addRow("gemma2-27b decode") << u"gemma2-27b"_s << u"decode"_s << 46;
        QTest::addRow("llama2-70b decode") << u"llama2-70b"_s << u"decode"_s << 80;
        QTest::addRow("llama2-70b prefill") << u"llama2-70b"_s << u"prefill"_s << 80;
        QTest::addRow("dit-xl prefill") << u"dit-xl"_s << u"prefill"_s << 28;
        QTest::addRow("dit-xl train") << u"dit-xl"_s << u"train"_s << 28;
    }

    void bundledModelLayers()
    {
        QFETCH(QString, name);
        QFETCH(QString, phase);
        QFETCH(int, layers);
        const auto modelPhase = elk::import::modelPhaseFromString(phase.toStdString()).value();
        const elk::import::ImportResult imported = importBundled(
            name.toStdString(), modelPhase, 4, modelPhase == elk::import::ModelPhase::Decode ? 1 : 256, 256);
        QVERIFY2(imported.ok(),
            imported.ok() ? "" : elk::import::toString(name.toStdString(), imported.errors.front()).c_str());
        const GraphAnalysis analysis = analyzeGraph(imported.graph);
        QCOMPARE(analysis.layers.layerCount, layers);
        QVERIFY(analysis.layers.opsPerLayer >= 10);
        const auto config = elk::import::bundledModelConfig(name.toStdString()).value();
        const std::int64_t params = elk::import::parameterCount(config);
        QVERIFY2(qAbs(double(analysis.totals.params - params)) <= 1e-4 * double(params),
            qPrintable(u"%1 weight elements, %2 parameters"_s.arg(analysis.totals.params).arg(params)));
        QCOMPARE(analysis.totals.optimizerStateBytes > 0, modelPhase == elk::import::ModelPhase::Train);
    }
};

QTEST_GUILESS_MAIN(TestGraphAnalysis)
#include "tst_graph_analysis.moc"
