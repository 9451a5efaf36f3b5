// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a model for the panel: every failure becomes an error text naming file and location (never
// an exception), a replaced background load never delivers, and workspace errors and run defaults
// read as the user wrote them.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/studio/model_loader.h"
#include "app/studio/studio_workspace.h"

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
        extra += QStringLiteral(",\n    {\"name\": \"unused%1\", \"shape\": [2], \"dtype\": \"f16\", \"role\": \"activation\"}")
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

class TestModelLoader : public QObject
{
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
            QVERIFY2(snapshot->error.contains(part), qPrintable(QStringLiteral("'%1' not in:\n%2").arg(part, snapshot->error)));
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
        QTest::addRow("syntax error: line and column") << QStringLiteral("{\n \"schema\": ,\n}")
                                                       << QStringLiteral("ws.json: line 2, column");
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
        QTest::addRow("decode: one new token over 2048 cached") << int(elk::run::Phase::Decode) << qint64(1) << qint64(2048);
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
};

QTEST_GUILESS_MAIN(TestModelLoader)
#include "tst_model_loader.moc"
