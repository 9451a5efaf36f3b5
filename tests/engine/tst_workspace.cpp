// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>

#include "engine/model/graph_json.h"
#include "engine/model/graph_summary.h"
#include "engine/run/workspace.h"

using namespace Qt::Literals::StringLiterals;

namespace {
QString joinedErrors(const std::vector<elk::chip::FieldError>& errors)
{
    QStringList lines;
    for (const auto& error : errors)
        lines << QString::fromStdString(error.field + ": " + error.message);
    return lines.join(u"\n"_s);
}
} // namespace

class TestWorkspace : public QObject
{
    Q_OBJECT
private slots:
    void bundledDefaultWorkspaceOpens()
    {
        const std::string path = ELK_SOURCE_DIR "/resources/workspaces/default.json";
        const auto parsed = elk::run::loadWorkspaceFile(path);
        QVERIFY2(parsed.ok(), qPrintable(joinedErrors(parsed.errors)));
        const auto& workspace = parsed.workspace;
        QCOMPARE(workspace.chip, std::string("ipu-pod4-hbm"));
        QCOMPARE(workspace.run.phase, elk::run::Phase::Decode);
        QCOMPARE(workspace.run.batch.value_or(0), 16);
        QCOMPARE(workspace.run.kvLen.value_or(0), 2048);

        // The model path resolves against the workspace folder, not the working directory.
        const auto model = elk::model::loadGraphFile(workspace.modelPath);
        QVERIFY(model.ok());
        QVERIFY(model.graph.validate().empty());
        const auto summary = elk::model::summarizeGraph(model.graph);
        QCOMPARE(summary.opCount, 18);
        QCOMPARE(summary.distinctExpressionCount, 12);
        QCOMPARE(summary.opsOf(elk::model::OpKind::MatMul), 9);
        QCOMPARE(summary.bytesOf(elk::model::TensorRole::Weight), 634408960); // 2 × (4·5120² + 3·5120·13824 + 2·5120)

        const auto resolved = elk::run::resolveRunSpec(workspace.run);
        QVERIFY2(resolved.ok(), qPrintable(joinedErrors(resolved.errors)));
        QCOMPARE(resolved.spec.chip.totalCores(), 5888);
        QCOMPARE(resolved.spec.model.format, std::string("elk-graph"));
    }

    void relativePathsResolveAgainstTheWorkspaceFolder_data()
    {
        QTest::addColumn<QString>("workspacePath");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("expectedModelPath");
        QTest::addRow("sibling") << u"/data/ws/a.json"_s << u"m.elk.json"_s << u"/data/ws/m.elk.json"_s;
        QTest::addRow("parent") << u"/data/ws/a.json"_s << u"../models/m.elk.json"_s << u"/data/models/m.elk.json"_s;
        QTest::addRow("absolute stays") << u"/data/ws/a.json"_s << u"/abs/m.elk.json"_s << u"/abs/m.elk.json"_s;
        QTest::addRow("bare workspace name") << u"a.json"_s << u"m.elk.json"_s << u"m.elk.json"_s;
    }

    void relativePathsResolveAgainstTheWorkspaceFolder()
    {
        QFETCH(QString, workspacePath);
        QFETCH(QString, model);
        QFETCH(QString, expectedModelPath);
        const std::string json = "{\"schema\": \"elk.workspace/1\", \"model\": \"" + model.toStdString()
            + "\", \"chip\": \"my-chip.json\"}";
        const auto parsed = elk::run::workspaceFromJson(json, workspacePath.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(joinedErrors(parsed.errors)));
        QCOMPARE(QString::fromStdString(parsed.workspace.modelPath), expectedModelPath);
        QCOMPARE(parsed.workspace.run.modelPath, parsed.workspace.modelPath);
        // A chip that names no preset is a file beside the workspace.
        const QString folder = workspacePath.contains(u'/') ? workspacePath.left(workspacePath.lastIndexOf(u'/') + 1) : QString();
        QCOMPARE(QString::fromStdString(parsed.workspace.chip), folder + u"my-chip.json"_s);
    }

    void badWorkspacesNameTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::addRow("syntax error") << u"{\"schema\": \"elk.workspace/1\",\n  \"model\" 3}"_s << u"line 2, column 11"_s
                                      << u"invalid JSON"_s;
        QTest::addRow("not an object") << u"[1]"_s << u"/"_s << u"expected a JSON object, found array"_s;
        QTest::addRow("wrong schema") << u"{\"schema\": \"elk.chip/1\", \"model\": \"m\", \"chip\": \"c\"}"_s
                                      << u"/schema"_s << u"expected \"elk.workspace/1\""_s;
        QTest::addRow("missing model") << u"{\"schema\": \"elk.workspace/1\", \"chip\": \"c\"}"_s << u"/model"_s
                                       << u"missing"_s;
        QTest::addRow("model not a string") << u"{\"schema\": \"elk.workspace/1\", \"model\": 4, \"chip\": \"c\"}"_s
                                            << u"/model"_s << u"expected a non-empty string, found number"_s;
        QTest::addRow("unknown key") << u"{\"schema\": \"elk.workspace/1\", \"model\": \"m\", \"chip\": \"c\", \"x\": 1}"_s
                                     << u"/x"_s << u"unknown key"_s;
        QTest::addRow("bad phase")
            << u"{\"schema\": \"elk.workspace/1\", \"model\": \"m\", \"chip\": \"c\", \"run\": {\"phase\": \"up\"}}"_s
            << u"/run/phase"_s << u"'up' is not a phase"_s;
        QTest::addRow("fractional batch")
            << u"{\"schema\": \"elk.workspace/1\", \"model\": \"m\", \"chip\": \"c\", \"run\": {\"batch\": 1.5}}"_s
            << u"/run/batch"_s << u"expected an integer"_s;
        QTest::addRow("designs not a list")
            << u"{\"schema\": \"elk.workspace/1\", \"model\": \"m\", \"chip\": \"c\", \"run\": {\"designs\": \"basic\"}}"_s
            << u"/run/designs"_s << u"expected an array"_s;
        QTest::addRow("unknown run key")
            << u"{\"schema\": \"elk.workspace/1\", \"model\": \"m\", \"chip\": \"c\", \"run\": {\"beam\": 2}}"_s
            << u"/run/beam"_s << u"unknown key"_s;
    }

    void badWorkspacesNameTheField()
    {
        QFETCH(QString, json);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const auto parsed = elk::run::workspaceFromJson(json.toStdString(), "w.json");
        QVERIFY(!parsed.ok());
        const QString errors = joinedErrors(parsed.errors);
        QVERIFY2(errors.contains(field + u": "_s), qPrintable(errors));
        QVERIFY2(errors.contains(message), qPrintable(errors));
    }

    void syntaxErrorSaysWhereOnce()
    {
        const auto parsed = elk::run::workspaceFromJson("{\"schema\": \"elk.workspace/1\",\n  \"model\" 3}", "w.json");
        QCOMPARE(parsed.errors.size(), std::size_t(1));
        const auto& error = parsed.errors.front();
        QCOMPARE(QString::fromStdString(error.field), u"line 2, column 11"_s);
        const QString message = QString::fromStdString(error.message);
        QVERIFY2(message.startsWith(u"invalid JSON: syntax error"_s), qPrintable(message));
        // nlohmann's own "[json.exception...] parse error at line L, column C: " would repeat the field.
        QVERIFY2(!message.contains(u"json.exception"_s) && !message.contains(u"line "_s), qPrintable(message));
    }

    void missingFileIsAnError()
    {
        const auto parsed = elk::run::loadWorkspaceFile("/nonexistent/elk/ws.json");
        QVERIFY(!parsed.ok());
        QVERIFY(QString::fromStdString(parsed.errors.front().message).contains(u"/nonexistent/elk/ws.json"_s));
    }
};

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
