// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Cross-check of the bundled shape-only ONNX models against the ONNX importer: each committed file
// imports with batch / seq / KV length bound, its parameters (weight tensors, each initializer once:
// a tied LM head is a view of the embedding, not a second tensor) match the builder's count, a
// training step's Adam moments are optimizer state (not parameters), and decode attention spans
// the KV length.
#include "engine/import/onnx_importer.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph.h"
#include "engine/model/graph_analysis.h"

#include <QTest>

#include <cmath>
#include <fstream>
#include <iterator>

using namespace elk::import;
using namespace elk::model;

namespace {

constexpr std::int64_t kBatch = 4;
constexpr std::int64_t kPast = 2047;
constexpr std::int64_t kPrefillTokens = 16;

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::int64_t elements(const std::vector<std::int64_t>& shape)
{
    std::int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

} // namespace

class TstBundledModelsImport : public QObject {
    Q_OBJECT

private slots:
    void importsCommittedFile_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("phase");
        for (const auto& name : bundledModelNames())
            for (ModelPhase p : supportedPhases(*bundledModelConfig(name)))
                QTest::addRow("%s-%s", name.c_str(), toString(p)) << QString::fromStdString(name) << int(p);
    }

    void importsCommittedFile()
    {
        QFETCH(QString, model);
        QFETCH(int, phase);
        const TransformerConfig c = *bundledModelConfig(model.toStdString());
        const auto p = ModelPhase(phase);
        const std::string file = c.name + "-" + toString(p) + ".onnx";
        const std::string bytes = readFile(ELK_SOURCE_DIR "/sample_models/" + file);
        QVERIFY2(!bytes.empty(), file.c_str());

        // Only the conventional bindings, as `elk inspect --batch --seq` gives them: "past + seq"
        // on the decode mask and presents must follow from them.
        ImportOptions options;
        const std::int64_t seq = p == ModelPhase::Decode ? 1 : kPrefillTokens;
        options.dims.batch = kBatch;
        options.dims.seqLen = seq;
        options.dims.kvLen = kPast;
        const ImportResult result = importOnnxBytes(bytes, file, options);
        QString problems;
        for (const auto& e : result.errors)
            problems += QString::fromStdString(toString(file, e)) + QLatin1Char('\n');
        QVERIFY2(result.ok(), qPrintable(problems));
        QVERIFY(!result.graph.ops().empty());
        const auto invalid = result.graph.validate();
        QVERIFY2(invalid.empty(), invalid.empty() ? "" : toString(invalid.front()).c_str());

        // Parameters: the weight tensors, within 0.01 % of the builder's count (Gemma's RMSNorm
        // scales are read as (1 + w): a folded constant, and in training w itself once more).
        const std::int64_t params = parameterCount(c);
        const GraphTotals totals = graphTotals(result.graph);
        const QByteArray got = QByteArray::number(qint64(totals.params)) + " params in weight tensors, builder "
            + QByteArray::number(qint64(params)) + "; " + QByteArray::number(qint64(totals.weightBytes))
            + " weight bytes";
        QVERIFY2(std::abs(double(totals.params - params)) <= 1e-4 * double(params), got.constData());
        QVERIFY2(std::abs(double(totals.weightBytes - 2 * params)) <= 2e-4 * double(params), got.constData()); // fp16
        QCOMPARE(totals.weightBytes, 2 * totals.params);
        if (p != ModelPhase::Train) {
            QCOMPARE(totals.optimizerStateBytes, std::int64_t(0));
            QCOMPARE(result.graph.bytesOfRole(TensorRole::OptimizerState), std::int64_t(0));
        } else {
            // Adam's fp32 moments m and v: 8 bytes per trainable parameter (DiT's fixed sin-cos
            // position table is not trained).
            const std::int64_t frozen = c.arch == ModelArch::Dit ? 256 * c.hidden : 0;
            QCOMPARE(totals.optimizerStateBytes, 8 * (params - frozen));
        }

        // Attention: one softmax per layer; in decode each spans past + seq keys, not 1.
        std::int64_t softmaxes = 0;
        for (OpId id = 0; id < result.graph.ops().size(); ++id) {
            if (result.graph.exprOf(id).kind != OpKind::Softmax)
                continue;
            const auto& shape = result.graph.tensor(result.graph.op(id).tensors.front()).shape;
            if (p == ModelPhase::Train && c.vocab > 0 && shape.back() == c.vocab)
                continue; // the loss's LogSoftmax over the vocabulary
            ++softmaxes;
            if (c.arch == ModelArch::Dit) {
                QCOMPARE(elements(shape), kBatch * c.heads * 256 * 256);
            } else {
                const std::int64_t keys = p == ModelPhase::Decode ? kPast + seq : seq;
                QCOMPARE(shape.back(), keys);
                QCOMPARE(elements(shape), kBatch * c.heads * seq * keys);
            }
        }
        QCOMPARE(softmaxes, c.layers);
    }
};

QTEST_GUILESS_MAIN(TstBundledModelsImport)
#include "tst_bundled_models_import.moc"
