// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled shape-only ONNX models: the committed sample_models/*.onnx are exactly what the
// transformer builder writes, parameter counts match the published model sizes, files stay small,
// carry no weight bytes and have the inputs, outputs and symbolic dims each phase promises.
#include "engine/import/onnx_summary.h"
#include "engine/import/transformer_builder.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <fstream>
#include <iterator>
#include <set>

using namespace elk::import;

namespace {

const char* const kRegenerate = "cmake --build build/default --target elk_regenerate_sample_models";
constexpr std::int64_t kMaxFileBytes = 1'000'000;

std::string samplePath(const std::string& model, ModelPhase phase)
{
    return std::string(ELK_SOURCE_DIR "/sample_models/") + model + "-" + toString(phase) + ".onnx";
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

TransformerConfig config(const std::string& name)
{
    const auto c = bundledModelConfig(name);
    if (!c)
        qFatal("no bundled model '%s'", name.c_str());
    return *c;
}

std::int64_t opCount(const OnnxModelSummary& s, const std::string& op)
{
    for (const auto& [type, count] : s.opCounts)
        if (type == op)
            return count;
    return 0;
}

std::vector<std::string> ioShape(const OnnxModelSummary& s, const std::string& name)
{
    for (const auto& [n, dims] : s.ioShapes)
        if (n == name)
            return dims;
    return {};
}

QString join(const std::vector<std::string>& items)
{
    QStringList list;
    for (const auto& i : items)
        list << QString::fromStdString(i);
    return list.join(QLatin1Char(','));
}

// Elements of DiT's fixed sin-cos position table: a parameter in DiT (counted) that Adam never updates.
constexpr std::int64_t kDitFrozenElements = 256 * 1152;

} // namespace

class TstBundledModels : public QObject {
    Q_OBJECT

private slots:
    void namesAndPhases()
    {
        const std::vector<std::string> expected { "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b", "dit-xl" };
        QCOMPARE(bundledModelNames(), expected);
        for (const auto& name : expected) {
            const auto phases = supportedPhases(config(name));
            if (name == "dit-xl")
                QCOMPARE(phases, (std::vector<ModelPhase> { ModelPhase::Prefill, ModelPhase::Train }));
            else
                QCOMPARE(phases.size(), std::size_t(3));
        }
        QVERIFY(!bundledModelConfig("llama2-7b"));
        for (ModelPhase p : { ModelPhase::Decode, ModelPhase::Prefill, ModelPhase::Train })
            QCOMPARE(modelPhaseFromString(toString(p)), std::optional<ModelPhase>(p));
        QVERIFY(!modelPhaseFromString("Decode"));
        QVERIFY(!modelPhaseFromString(""));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildTransformerOnnx(config("dit-xl"), ModelPhase::Decode));
    }

    void parameterCounts_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("exact");
        QTest::addColumn<double>("published");
        const std::int64_t v32k = 32000;
        // Llama 2 (Touvron et al. 2023, arXiv:2307.09288, Table 1; HF meta-llama/Llama-2-13b-hf
        // config.json): 13B. Embedding + LM head + 40 × (attention 4·H², SwiGLU 3·H·13824, 2 norms) + norm.
        {
            const std::int64_t h = 5120, ffn = 13824, layers = 40;
            QTest::addRow("Llama-2-13B (paper: 13B)")
                << QStringLiteral("llama2-13b") << qint64(2 * v32k * h + layers * (4 * h * h + 3 * h * ffn + 2 * h) + h)
                << 13.0e9;
        }
        // Llama-2-70B (same paper, "70B" in the name; HF config: 64 heads, 8 KV heads of 128, FFN 28672):
        // 69.0B when counted from the config's shapes.
        {
            const std::int64_t h = 8192, kv = 8 * 128, ffn = 28672, layers = 80;
            QTest::addRow("Llama-2-70B (69.0B, GQA 8 KV heads)")
                << QStringLiteral("llama2-70b")
                << qint64(2 * v32k * h + layers * (2 * h * h + 2 * h * kv + 3 * h * ffn + 2 * h) + h) << 69.0e9;
        }
        // OPT-30B (Zhang et al. 2022, arXiv:2205.01068, Table 1; HF facebook/opt-30b config.json):
        // tied embedding 50272 × 7168, learned positions 2050 × 7168, biases everywhere, 2 LayerNorms.
        {
            const std::int64_t h = 7168, ffn = 28672, layers = 48;
            const std::int64_t layer = 4 * (h * h + h) + (h * ffn + ffn) + (ffn * h + h) + 4 * h;
            QTest::addRow("OPT-30B (paper: 30B)")
                << QStringLiteral("opt-30b") << qint64(50272 * h + 2050 * h + layers * layer + 2 * h) << 30.0e9;
        }
        // Gemma 2 (Gemma Team 2024, arXiv:2408.00118: 27.2B incl. embeddings; HF
        // google/gemma-2-27b config.json): tied 256000 × 4608, 32 q / 16 kv heads of 128, 4 norms/layer.
        {
            const std::int64_t h = 4608, q = 32 * 128, kv = 16 * 128, ffn = 36864, layers = 46;
            QTest::addRow("Gemma-2-27B (paper: 27.2B)")
                << QStringLiteral("gemma2-27b")
                << qint64(256000 * h + layers * (h * (q + 2 * kv) + q * h + 3 * h * ffn + 4 * h) + h) << 27.2e9;
        }
        // DiT-XL/2 (Peebles & Xie 2023, arXiv:2212.09748: 675M; configuration in its Table 1, modules in
        // facebookresearch/DiT models.py, counted as sum(p.numel() for p in model.parameters()), which
        // includes the frozen pos_embed): patch conv, pos table, timestep MLP, 1001-row label table,
        // 28 blocks (qkv, proj, fc1, fc2, adaLN 6·H, all with bias), final adaLN 2·H and linear to 32.
        {
            const std::int64_t h = 1152;
            const std::int64_t block
                = (h * 3 * h + 3 * h) + (h * h + h) + (h * 4 * h + 4 * h) + (4 * h * h + h) + (h * 6 * h + 6 * h);
            const std::int64_t embedders = (h * 4 * 2 * 2 + h) + 256 * h + (256 * h + h) + (h * h + h) + 1001 * h;
            const std::int64_t final = (h * 2 * h + 2 * h) + (h * 32 + 32);
            QTest::addRow("DiT-XL/2 (paper: 675M)")
                << QStringLiteral("dit-xl") << qint64(embedders + 28 * block + final) << 675.0e6;
        }
    }

    void parameterCounts()
    {
        QFETCH(QString, model);
        QFETCH(qint64, exact);
        QFETCH(double, published);
        const std::int64_t count = parameterCount(config(model.toStdString()));
        QCOMPARE(count, std::int64_t(exact));
        const double error = std::abs(double(count) - published) / published;
        if (error > 0.01)
            QFAIL(qPrintable(QStringLiteral("%1 parameters, published %2: %3 % off")
                                 .arg(count)
                                 .arg(published, 0, 'g', 4)
                                 .arg(error * 100, 0, 'f', 2)));
    }

    void files_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("phase");
        for (const auto& name : bundledModelNames())
            for (ModelPhase p : supportedPhases(config(name)))
                QTest::addRow("%s-%s", name.c_str(), toString(p)) << QString::fromStdString(name) << int(p);
    }

    // The committed file is the builder's output, byte for byte; the builder is deterministic.
    void files()
    {
        QFETCH(QString, model);
        QFETCH(int, phase);
        const auto c = config(model.toStdString());
        const auto p = ModelPhase(phase);
        const std::string built = buildTransformerOnnx(c, p);
        QVERIFY(built == buildTransformerOnnx(c, p));
        QVERIFY2(std::int64_t(built.size()) < kMaxFileBytes, qPrintable(QString::number(built.size())));
        const std::string path = samplePath(c.name, p);
        const std::string committed = readFile(path);
        if (committed != built)
            QFAIL(qPrintable(QStringLiteral("%1 (%2 bytes) differs from the builder's output (%3 bytes); regenerate "
                                            "with\n    %4\nand review the diff")
                                 .arg(QString::fromStdString(path))
                                 .arg(committed.size())
                                 .arg(built.size())
                                 .arg(QLatin1String(kRegenerate))));
    }

    void structure_data() { files_data(); }

    // Read back without ONNX headers: opset, shape-only weights, metadata, symbolic dims.
    void structure()
    {
        QFETCH(QString, model);
        QFETCH(int, phase);
        const auto c = config(model.toStdString());
        const auto p = ModelPhase(phase);
        const bool dit = c.arch == ModelArch::Dit;
        const OnnxModelSummary s = summarizeOnnx(buildTransformerOnnx(c, p));
        QVERIFY2(s.parsed, s.error.c_str());
        QCOMPARE(s.irVersion, std::int64_t(8));
        QCOMPARE(s.opset, std::int64_t(17));
        for (const auto& [op, count] : s.opCounts)
            QVERIFY2(op.find("::") == std::string::npos, op.c_str()); // default domain only

        // No weight bytes: every weight is external, in the file that never exists, with running
        // offsets; only a few scalars and shape vectors are inline.
        QCOMPARE(s.externalLocations, std::vector<std::string> { "__shape_only_no_data__.bin" });
        QVERIFY(s.externalOffsetsConsistent);
        QVERIFY2(s.largestInlineElements <= 8, qPrintable(QString::number(s.largestInlineElements)));
        QVERIFY2(s.inlineDataBytes < 1024, qPrintable(QString::number(s.inlineDataBytes)));
        const std::int64_t params = parameterCount(c);
        if (p == ModelPhase::Train) {
            // fp16 weights plus fp32 Adam moments m and v for every trainable weight.
            const std::int64_t trainable = params - (dit ? kDitFrozenElements : 0);
            QCOMPARE(s.externalElements, params + 2 * trainable);
            QCOMPARE(s.externalBytes, 2 * params + 8 * trainable);
        } else {
            QCOMPARE(s.externalElements, params);
            QCOMPARE(s.externalBytes, 2 * params);
        }
        QVERIFY(!QFile::exists(QStringLiteral(ELK_SOURCE_DIR "/sample_models/__shape_only_no_data__.bin")));

        const std::vector<std::pair<std::string, std::string>> metadata { { "model", c.name }, { "phase", toString(p) },
            { "params", std::to_string(params) } };
        QCOMPARE(s.metadata, metadata);

        std::vector<std::string> dims { "batch", "seq" };
        if (dit)
            dims = { "batch" }; // 256 patch tokens, fixed by the latent size
        else if (p == ModelPhase::Decode)
            dims = { "batch", "past", "past + seq", "seq" };
        QCOMPARE(join(s.dimParams), join(dims));

        const std::int64_t layers = c.layers;
        if (dit) {
            QCOMPARE(opCount(s, "Conv"), std::int64_t(1));
            QCOMPARE(ioShape(s, "latent"), (std::vector<std::string> { "batch", "4", "32", "32" }));
            if (p == ModelPhase::Prefill)
                QCOMPARE(ioShape(s, "model_output"), (std::vector<std::string> { "batch", "8", "32", "32" }));
        } else if (p != ModelPhase::Train) {
            const std::string v = std::to_string(c.vocab);
            const std::string kv = std::to_string(c.kvHeads);
            const std::string hd = std::to_string(c.headDim);
            QCOMPARE(ioShape(s, "logits"), (std::vector<std::string> { "batch", "seq", v }));
            QCOMPARE(s.outputs.size(), std::size_t(1 + 2 * layers)); // logits, present K/V per layer
            const std::string last = std::to_string(layers - 1);
            if (p == ModelPhase::Decode) {
                QCOMPARE(ioShape(s, "past_key." + last), (std::vector<std::string> { "batch", kv, "past", hd }));
                QCOMPARE(
                    ioShape(s, "present_value." + last), (std::vector<std::string> { "batch", kv, "past + seq", hd }));
                QCOMPARE(opCount(s, "Concat") - (c.rotaryPositions ? 2 * layers : 0), 2 * layers);
            } else {
                QVERIFY(ioShape(s, "past_key.0").empty());
                QCOMPARE(ioShape(s, "present_key." + last), (std::vector<std::string> { "batch", kv, "seq", hd }));
            }
            // Decode attends over past + seq keys: the mask (and so the scores) span that length.
            const auto mask = ioShape(s, "attn_mask");
            QVERIFY(!mask.empty());
            QCOMPARE(mask.back(), std::string(p == ModelPhase::Decode ? "past + seq" : "seq"));
        }
        if (p == ModelPhase::Train) {
            // Backward: dW = Xᵀ·dY is a Gemm per weight matmul; Adam: weight, m and v written back per
            // trainable weight, plus the loss.
            const std::int64_t trainableWeights = (s.externalInitializers - (dit ? 1 : 0)) / 3;
            QCOMPARE(s.outputs.size(), std::size_t(1 + 3 * trainableWeights));
            QCOMPARE(s.outputs.front(), std::string("loss"));
            std::int64_t updated = 0;
            std::int64_t moments = 0;
            for (const auto& o : s.outputs) {
                const auto suffix = [&o](const std::string& end) {
                    return o.size() > end.size() && o.compare(o.size() - end.size(), end.size(), end) == 0;
                };
                updated += suffix(".new") && !suffix("_new") ? 1 : 0;
                moments += suffix(".m_new") ? 1 : 0;
            }
            QCOMPARE(updated, trainableWeights);
            QCOMPARE(moments, trainableWeights);
            QVERIFY(opCount(s, "Gemm") >= 4 * layers); // ≥ 4 weight matmuls per layer, one dW each
            const auto prefill = summarizeOnnx(buildTransformerOnnx(c, ModelPhase::Prefill));
            QVERIFY2(
                s.nodes > 3 * prefill.nodes, qPrintable(QStringLiteral("%1 vs %2").arg(s.nodes).arg(prefill.nodes)));
        }
    }

    void summaryRejectsGarbage()
    {
        QVERIFY(!summarizeOnnx("").parsed);
        QVERIFY(!summarizeOnnx("this is not a protobuf at all").parsed);
        const std::string good = buildTransformerOnnx(config("dit-xl"), ModelPhase::Prefill);
        QVERIFY(!summarizeOnnx(std::string_view(good).substr(0, good.size() / 2)).parsed);
    }
};

QTEST_GUILESS_MAIN(TstBundledModels)
#include "tst_bundled_models.moc"
