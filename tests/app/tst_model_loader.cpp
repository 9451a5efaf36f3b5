// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a model for the panel: every failure becomes an error text naming file and location (never
// an exception), a replaced background load never delivers, and workspace errors and run defaults
// read as the user wrote them.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <QPushButton>
#include <QSpinBox>

#include "app/studio/model_loader.h"
#include "app/studio/studio_workspace.h"
#include "engine/import/onnx_test_models.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/op_table_model.h"

using elk::app::loadModelSnapshot;
using elk::widgets::ModelSnapshot;
using elk::widgets::RunParameters;

Q_DECLARE_METATYPE(std::shared_ptr<const elk::widgets::ModelSnapshot>)

namespace {

const char* const kDefaultModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
constexpr int kLoadTimeoutMs = 20000;

// The README's "tiny" example: one matmul h[m,n] = x[m,k] · w[k,n]. %1 is x's shape, %2 extra tensors.
const char* const kTinyGraph = R"({
  "schema": "elk.graph/1",
  "name": "tiny",
  "tensors": [
    {"name": "x", "shape": %1, "dtype": "f16", "role": "activation"},
    {"name": "w", "shape": [4, 3], "dtype": "f16", "role": "weight"},
    {"name": "h", "shape": [2, 3], "dtype": "f16", "role": "activation"}%2
  ],
  "inputs": ["x"],
  "outputs": ["h"],
  "ops": [
    {
      "name": "mm",
      "kind": "matmul",
      "dims": [{"name": "m", "extent": 2}, {"name": "n", "extent": 3}, {"name": "k", "extent": 4}],
      "operands": [
        {"tensor": "h", "axes": [[0], [1]]},
        {"tensor": "x", "axes": [[0], [2]]},
        {"tensor": "w", "axes": [[2], [1]]}
      ]
    }
  ]
})";

QString tinyGraph(const QString& xShape, int unusedTensors = 0)
{
    QString extra;
    for (int i = 0; i < unusedTensors; ++i)
        extra += QStringLiteral(
            ",\n    {\"name\": \"unused%1\", \"shape\": [2], \"dtype\": \"f16\", \"role\": \"activation\"}")
                     .arg(i);
    return QString::fromLatin1(kTinyGraph).arg(xShape, extra);
}

QString writeFile(const QTemporaryDir& folder, const QString& name, const QString& text)
{
    const QString path = folder.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) != text.toUtf8().size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

} // namespace

class TestModelLoader : public QObject {
    Q_OBJECT
private slots:
    void loadsTheSampleModel()
    {
        RunParameters run;
        run.batch = 16;
        const auto snapshot = loadModelSnapshot(QString::fromLatin1(kDefaultModel), run);
        QVERIFY2(snapshot->ok(), qPrintable(snapshot->error));
        QCOMPARE(snapshot->summary.name, std::string("llama2-13b-layer-decode"));
        QCOMPARE(snapshot->summary.opCount, 18);
        QCOMPARE(snapshot->summary.distinctExpressionCount, 12);
        QCOMPARE(snapshot->summary.bytesOf(elk::model::TensorRole::Weight), 634'408'960);
        QCOMPARE(snapshot->validationProblemCount, 0);
        QCOMPARE(snapshot->run.batch, 16); // carried along for the panel
        QCOMPARE(snapshot->filePath, QString::fromLatin1(kDefaultModel));
    }

    void failuresBecomeErrorText_data()
    {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("text"); // empty: the file is not written
        QTest::addColumn<QStringList>("expectedParts");
        QTest::addColumn<int>("problemCount");
        QTest::addRow("missing file") << "absent.elk.json" << QString()
                                      << QStringList { QStringLiteral("absent.elk.json") } << 0;
        QTest::addRow("bad JSON names line and column")
            << "syntax.elk.json" << QStringLiteral("{\n  \"schema\": \"elk.graph/1\",\n  \"name\": }")
            << QStringList { QStringLiteral("syntax.elk.json: line 3, column") } << 0;
        QTest::addRow("field error names the JSON pointer")
            << "field.elk.json" << tinyGraph(QStringLiteral("\"wide\""))
            << QStringList { QStringLiteral("field.elk.json: /tensors/0/shape") } << 0;
        QTest::addRow("graph check names op and tensor")
            << "shape.elk.json" << tinyGraph(QStringLiteral("[2, 5]"))
            << QStringList { QStringLiteral("shape.elk.json: the graph checks found"), QStringLiteral("'mm'"),
                   QStringLiteral("'x'") }
            << 1;
        QTest::addRow("many problems: the first few and a count")
            << "unused.elk.json" << tinyGraph(QStringLiteral("[2, 4]"), 8)
            << QStringList { QStringLiteral("found 8 problems:"), QStringLiteral("'unused0'"),
                   QStringLiteral("'unused4'"), QStringLiteral("… and 3 more") }
            << 8;
    }
    void failuresBecomeErrorText()
    {
        QFETCH(QString, fileName);
        QFETCH(QString, text);
        QFETCH(QStringList, expectedParts);
        QFETCH(int, problemCount);
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString path = text.isEmpty() ? folder.filePath(fileName) : writeFile(folder, fileName, text);

        const auto snapshot = loadModelSnapshot(path, RunParameters {});
        QVERIFY(!snapshot->ok());
        for (const QString& part : expectedParts)
            QVERIFY2(snapshot->error.contains(part),
                qPrintable(QStringLiteral("'%1' not in:\n%2").arg(part, snapshot->error)));
        QCOMPARE(snapshot->validationProblemCount, problemCount);
        QVERIFY(!snapshot->error.contains(QStringLiteral("unused5"))); // only the first five are listed
    }

    void aReplacedLoadNeverArrives()
    {
        qRegisterMetaType<std::shared_ptr<const ModelSnapshot>>();
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString tiny = writeFile(folder, QStringLiteral("tiny.elk.json"), tinyGraph(QStringLiteral("[2, 4]")));

        elk::app::ModelLoader loader;
        QSignalSpy spy(&loader, &elk::app::ModelLoader::modelLoaded);
        loader.start(QString::fromLatin1(kDefaultModel), RunParameters {});
        loader.start(tiny, RunParameters {});
        QTRY_VERIFY_WITH_TIMEOUT(!loader.isRunning() && spy.count() >= 1, kLoadTimeoutMs);
        QTest::qWait(100); // a stale delivery would be queued by now
        QCOMPARE(spy.count(), 1);
        const auto snapshot = spy.at(0).at(0).value<std::shared_ptr<const ModelSnapshot>>();
        QCOMPARE(snapshot->filePath, tiny);
        QCOMPARE(snapshot->summary.name, std::string("tiny"));
    }

    void workspaceErrorsNameFileAndField_data()
    {
        QTest::addColumn<QString>("text"); // empty: the file is not written
        QTest::addColumn<QString>("expected");
        QTest::addRow("missing file") << QString() << QStringLiteral("ws.json': no such file");
        QTest::addRow("syntax error: line and column")
            << QStringLiteral("{\n \"schema\": ,\n}") << QStringLiteral("ws.json: line 2, column");
        QTest::addRow("bad field: JSON pointer")
            << QStringLiteral(R"({"schema": "elk.workspace/1", "model": "m.elk.json", "chip": "ipu-pod4-hbm",
                                 "run": {"batch": "many"}})")
            << QStringLiteral("ws.json: /run/batch: expected an integer");
    }
    void workspaceErrorsNameFileAndField()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString path = text.isEmpty() ? folder.filePath(QStringLiteral("ws.json"))
                                            : writeFile(folder, QStringLiteral("ws.json"), text);
        const auto parsed = elk::run::loadWorkspaceFile(path.toStdString());
        QVERIFY(!parsed.ok());
        const QString message = elk::app::workspaceErrorText(parsed);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.count(path) == 1, qPrintable(message)); // named once, not twice
    }

    void runDefaultsFollowThePhase_data()
    {
        QTest::addColumn<int>("phase");
        QTest::addColumn<qint64>("seqLen");
        QTest::addColumn<qint64>("kvLen");
        QTest::addRow("decode: one new token over 2048 cached")
            << int(elk::run::Phase::Decode) << qint64(1) << qint64(2048);
        QTest::addRow("prefill: a 2048-token prompt") << int(elk::run::Phase::Prefill) << qint64(2048) << qint64(0);
        QTest::addRow("train: no KV cache") << int(elk::run::Phase::Train) << qint64(2048) << qint64(0);
    }
    void runDefaultsFollowThePhase()
    {
        QFETCH(int, phase);
        QFETCH(qint64, seqLen);
        QFETCH(qint64, kvLen);
        elk::run::RunRequest request;
        request.phase = elk::run::Phase(phase);
        const RunParameters run = elk::app::runParametersOf(request);
        QCOMPARE(run.batch, 1);
        QCOMPARE(run.seqLen, seqLen);
        QCOMPARE(run.kvLen, kvLen);

        request.batch = 3;
        request.kvLen = 7;
        QCOMPARE(elk::app::runParametersOf(request).batch, 3);
        QCOMPARE(elk::app::runParametersOf(request).kvLen, 7);
    }

    void loadsEveryFormatThroughTheEngine_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("filePath");
        QTest::addColumn<QString>("description");
        QTest::addColumn<int>("layers");
        QTest::addRow("bundled by name") << QStringLiteral("llama2-13b") << QStringLiteral("bundled:llama2-13b")
                                         << QStringLiteral("bundled Llama-2-13B, decode, batch 2") << 40;
        QTest::addRow("bundled: prefix") << QStringLiteral("bundled:opt-30b") << QStringLiteral("bundled:opt-30b")
                                         << QStringLiteral("bundled OPT-30B, decode, batch 2") << 48;
        const QString onnx = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-decode.onnx");
        QTest::addRow("ONNX file") << onnx << onnx << QStringLiteral("llama2-13b-decode.onnx, decode, batch 2") << 40;
        const QString einstein = QStringLiteral(ELK_TEST_DATA_DIR "/einstein/matmul_chain.json");
        QTest::addRow("einstein_v2 JSON")
            << einstein << einstein << QStringLiteral("einstein_v2, one inference pass, batch 2")
            << -1; // a matmul chain: no KV cache
    }
    void loadsEveryFormatThroughTheEngine()
    {
        QFETCH(QString, model);
        QFETCH(QString, filePath);
        QFETCH(QString, description);
        QFETCH(int, layers);
        RunParameters run;
        run.batch = 2;
        run.kvLen = 64;
        const auto snapshot = loadModelSnapshot(model, run);
        QVERIFY2(snapshot->ok(), qPrintable(snapshot->error));
        QCOMPARE(snapshot->filePath, filePath);
        QVERIFY2(snapshot->description.contains(description), qPrintable(snapshot->description));
        QVERIFY(snapshot->graph);
        QVERIFY(snapshot->analysis);
        QCOMPARE(qsizetype(snapshot->graph->ops().size()), qsizetype(snapshot->summary.opCount));
        QCOMPARE(snapshot->analysis->order.size(), snapshot->graph->ops().size());
        if (layers > 0)
            QCOMPARE(snapshot->analysis->layers.layerCount, layers);
    }

    void runParametersBindTheDims()
    {
        RunParameters small;
        small.kvLen = 128;
        RunParameters large = small;
        large.batch = 4;
        const auto one = loadModelSnapshot(QStringLiteral("llama2-13b"), small);
        const auto four = loadModelSnapshot(QStringLiteral("llama2-13b"), large);
        QVERIFY2(one->ok() && four->ok(), qPrintable(one->error + four->error));
        QCOMPARE(four->summary.bytesOf(elk::model::TensorRole::Weight),
            one->summary.bytesOf(elk::model::TensorRole::Weight));
        QCOMPARE(four->summary.bytesOf(elk::model::TensorRole::KvCache),
            4 * one->summary.bytesOf(elk::model::TensorRole::KvCache));
        QVERIFY(four->summary.flops > 3 * one->summary.flops);
    }

    // An export with a dynamic batch and image size (x: [n, 3, ?, ?], as paddle2onnx writes them):
    // the load fails, the pane asks for the three sizes, and the bindings it gives load the model.
    void freeDimsAreAskedForThenBound()
    {
        namespace t = elk::import::onnxtest;
        t::Model onnx;
        onnx.graph.inputs = { { "x", t::kFloat, { "n", 3, 0, 0 } } };
        onnx.graph.outputs = { { "y", t::kFloat, { "n", 3, 0, 0 } } };
        onnx.graph.nodes = { { "Relu", { "x" }, { "y" } } };
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("dynamic.onnx"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            const std::string bytes = t::serialize(onnx);
            QCOMPARE(file.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
        }
        const auto unbound = loadModelSnapshot(path, RunParameters {});
        QVERIFY(!unbound->ok());
        QVERIFY2(unbound->error.contains(QStringLiteral("--input-shape x=?,3,?,?")), qPrintable(unbound->error));
        QCOMPARE(unbound->freeDims.size(), std::size_t(3));
        QCOMPARE(unbound->freeDims[0].name, std::string("n"));
        QCOMPARE(unbound->freeDims[1].axis, 2);
        QCOMPARE(unbound->freeDims[2].suggested, std::int64_t(224)); // an image's width

        elk::widgets::ModelPane pane;
        pane.setSnapshot(unbound);
        auto* form = pane.findChild<QWidget*>(QStringLiteral("freeDims"));
        QVERIFY(form);
        QVERIFY(!form->isHidden());
        auto* height = form->findChild<QSpinBox*>(QStringLiteral("freeDim1"));
        auto* width = form->findChild<QSpinBox*>(QStringLiteral("freeDim2"));
        QVERIFY(height && width);
        QCOMPARE(height->value(), 224);
        height->setValue(640);
        width->setValue(480);
        QSignalSpy changed(&pane, &elk::widgets::ModelPane::runParametersChanged);
        form->findChild<QPushButton*>(QStringLiteral("bindFreeDims"))->click();
        QCOMPARE(changed.count(), 1);
        const auto run = changed.front().front().value<RunParameters>();
        QCOMPARE(run.dims.at("n"), std::int64_t(1));
        QCOMPARE(run.inputShapes.at("x"), (std::vector<std::int64_t> { 1, 3, 640, 480 }));
        QCOMPARE(pane.runParameters(), run);

        const auto bound = loadModelSnapshot(path, run);
        QVERIFY2(bound->ok(), qPrintable(bound->error));
        QVERIFY(bound->freeDims.empty());
        const auto x = bound->graph->findTensor("x");
        QVERIFY(x);
        // The IR leaves out extent-1 axes: the batch of 1 is not an axis.
        QCOMPARE(bound->graph->tensor(*x).shape, (std::vector<std::int64_t> { 3, 640, 480 }));
        pane.setSnapshot(bound);
        QVERIFY(form->isHidden());
    }

    void engineErrorsNameTheModel_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("phase");
        QTest::addColumn<QString>("expected");
        QTest::addRow("unknown bundled name")
            << QStringLiteral("llama9") << int(elk::run::Phase::Decode)
            << QStringLiteral("llama9: no such file, and not a bundled model (llama2-13b");
        QTest::addRow("a phase the model lacks") << QStringLiteral("dit-xl") << int(elk::run::Phase::Decode)
                                                 << QStringLiteral("dit-xl: has no decode phase");
        QTest::addRow("einstein syntax error names the file")
            << QStringLiteral(ELK_TEST_DATA_DIR "/einstein/broken_syntax.json") << int(elk::run::Phase::Decode)
            << QStringLiteral("broken_syntax.json: ");
        QTest::addRow("einstein cannot train")
            << QStringLiteral(ELK_TEST_DATA_DIR "/einstein/matmul_chain.json") << int(elk::run::Phase::Train)
            << QStringLiteral("a training step needs an ONNX or bundled model");
        QTest::addRow("not an ONNX file") << QStringLiteral(ELK_SOURCE_DIR "/README.md") << int(elk::run::Phase::Decode)
                                          << QStringLiteral("README.md: unknown model format");
    }
    void engineErrorsNameTheModel()
    {
        QFETCH(QString, model);
        QFETCH(int, phase);
        QFETCH(QString, expected);
        RunParameters run;
        run.phase = elk::run::Phase(phase);
        run.seqLen = 16;
        run.kvLen = phase == int(elk::run::Phase::Train) ? 0 : 16;
        const auto snapshot = loadModelSnapshot(model, run);
        QVERIFY(!snapshot->ok());
        QVERIFY2(snapshot->error.contains(expected), qPrintable(snapshot->error));
        QVERIFY(!snapshot->graph);
    }

    void bundledModelFillsThePane()
    {
        RunParameters run;
        run.batch = 32;
        const auto snapshot = loadModelSnapshot(QStringLiteral("llama2-13b"), run);
        QVERIFY2(snapshot->ok(), qPrintable(snapshot->error));
        elk::widgets::ModelPane pane;
        pane.setRunParameters(run);
        pane.resize(600, 900);
        pane.setSnapshot(snapshot);
        QCOMPARE(pane.opProxyModel()->rowCount(), int(snapshot->graph->ops().size()));
        const QModelIndex lastLayer
            = pane.opTableModel()->index(pane.opTableModel()->rowCount() / 2, elk::widgets::OpTableModel::LayerColumn);
        QVERIFY(lastLayer.data().toString().toInt() > 0); // the middle op sits in a repeated layer
        pane.selectOp(900); // deep in the model: the table scrolls there
        QCOMPARE(pane.findChild<QTableView*>(QStringLiteral("opTable"))->currentIndex().row(), 900);
        if (const QString folder = qEnvironmentVariable("ELK_SCREENSHOT_DIR"); !folder.isEmpty()) {
            pane.show();
            QVERIFY(QTest::qWaitForWindowExposed(&pane));
            QVERIFY(pane.grab().save(QDir(folder).filePath(QStringLiteral("model_pane_llama2-13b.png"))));
        }
    }
};

QTEST_MAIN(TestModelLoader) // the pane test needs a QApplication
#include "tst_model_loader.moc"
