// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "engine/chip/chip_spec_json.h"
#include "engine/chip/presets.h"
#include "engine/core/sha256.h"
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

const std::string kDefaultV1 = ELK_SOURCE_DIR "/resources/workspaces/default.json";
const std::string kDefaultV2 = ELK_SOURCE_DIR "/resources/workspaces/default.elkproj";

// A v2 workspace with this model, chip (empty: a valid default) and further members.
QString v2(const QString& model, const QString& chip = {}, const QString& rest = {})
{
    return u"{\"schema\": \"elk.workspace/2\", \"model\": %1, \"chip\": %2%3}"_s.arg(
        model.isEmpty() ? u"{\"path\": \"m.onnx\"}"_s : model,
        chip.isEmpty() ? u"{\"preset\": \"teaching-mesh-4x4\"}"_s : chip, rest);
}

elk::run::Workspace everyField()
{
    elk::run::Workspace workspace;
    workspace.modelPath = "/data/models/m.onnx";
    workspace.modelSha256 = std::string(64, 'a');
    workspace.chip = "/data/chips/edited.json";
    workspace.compareChip = "teaching-mesh-4x4";
    workspace.run.chipOverrides = { "hbm.bandwidthGBpsPerStack=800", "/interconnect/hopLatencyCycles=2" };
    workspace.run.phase = elk::run::Phase::Prefill;
    workspace.run.batch = 4;
    workspace.run.seqLen = 512;
    workspace.run.kvLen = 128;
    workspace.run.designs = { "basic", "elk-full" };
    workspace.run.preloadNocThreshold = 0.75;
    workspace.run.preloadIngressGBpsPerCore = 12.5;
    workspace.run.delayCompute = false;
    workspace.run.seed = 42;
    workspace.run.dims = { { "p2o.DynamicDimension.0", 1 } };
    workspace.run.inputShapes = { { "x", { 1, 3, 640, 640 } } };
    workspace.views.open = { "designs", "gantt" };
    workspace.views.current = "gantt";
    workspace.views.selectedDesign = "elk-full";
    workspace.views.selectedStep = 17;
    return workspace;
}

void writeText(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}
} // namespace

class TestWorkspace : public QObject {
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
        const QString folder
            = workspacePath.contains(u'/') ? workspacePath.left(workspacePath.lastIndexOf(u'/') + 1) : QString();
        QCOMPARE(QString::fromStdString(parsed.workspace.chip), folder + u"my-chip.json"_s);
    }

    void badWorkspacesNameTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::addRow("syntax error") << u"{\"schema\": \"elk.workspace/1\",\n  \"model\" 3}"_s
                                      << u"line 2, column 11"_s << u"invalid JSON"_s;
        QTest::addRow("not an object") << u"[1]"_s << u"/"_s << u"expected a JSON object, found array"_s;
        QTest::addRow("wrong schema") << u"{\"schema\": \"elk.chip/1\", \"model\": \"m\", \"chip\": \"c\"}"_s
                                      << u"/schema"_s << u"expected \"elk.workspace/2\" or \"elk.workspace/1\""_s;
        QTest::addRow("missing model") << u"{\"schema\": \"elk.workspace/1\", \"chip\": \"c\"}"_s << u"/model"_s
                                       << u"missing"_s;
        QTest::addRow("model not a string") << u"{\"schema\": \"elk.workspace/1\", \"model\": 4, \"chip\": \"c\"}"_s
                                            << u"/model"_s << u"expected a non-empty string, found number"_s;
        QTest::addRow("unknown key")
            << u"{\"schema\": \"elk.workspace/1\", \"model\": \"m\", \"chip\": \"c\", \"x\": 1}"_s << u"/x"_s
            << u"unknown key"_s;
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

    void version1IsStillRead()
    {
        const auto parsed = elk::run::loadWorkspaceFile(kDefaultV1);
        QVERIFY2(parsed.ok(), qPrintable(joinedErrors(parsed.errors)));
        QCOMPARE(parsed.workspace.schemaVersion, 1);
        QVERIFY(parsed.workspace.views.open.empty());
        QVERIFY(!parsed.workspace.embeddedChip);
        // v2-only keys are unknown in a v1 file: the schema says what the file may hold.
        const auto withViews = elk::run::workspaceFromJson(
            R"({"schema": "elk.workspace/1", "model": "m", "chip": "c", "views": {"open": ["gantt"]}})", "w.json");
        QVERIFY(joinedErrors(withViews.errors).contains(u"/views: unknown key"_s));
        const auto withOptions = elk::run::workspaceFromJson(
            R"({"schema": "elk.workspace/1", "model": "m", "chip": "c", "run": {"options": {}}})", "w.json");
        QVERIFY(joinedErrors(withOptions.errors).contains(u"/run/options: unknown key"_s));
    }

    void defaultElkprojMatchesTheVersion1Default()
    {
        const auto v1 = elk::run::loadWorkspaceFile(kDefaultV1);
        const auto v2 = elk::run::loadWorkspaceFile(kDefaultV2);
        QVERIFY2(v2.ok(), qPrintable(joinedErrors(v2.errors)));
        QCOMPARE(v2.workspace.schemaVersion, 2);
        QCOMPARE(v2.workspace.modelPath, v1.workspace.modelPath);
        QCOMPARE(v2.workspace.chip, v1.workspace.chip);
        QCOMPARE(v2.workspace.views.current, std::string("designs"));
        const auto spec1 = elk::run::resolveRunSpec(v1.workspace.run);
        const auto spec2 = elk::run::resolveWorkspaceRun(v2.workspace);
        QVERIFY2(spec2.ok(), qPrintable(joinedErrors(spec2.errors)));
        QCOMPARE(elk::run::runSpecHash(spec2.spec), elk::run::runSpecHash(spec1.spec)); // the same run
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("savedAs");
        QTest::addColumn<QString>("expectedModelText"); // how the model path is written
        QTest::addRow("beside the models") << u"/data/ws/a.elkproj"_s << u"\"path\": \"../models/m.onnx\""_s;
        QTest::addRow("in the model folder") << u"/data/models/a.elkproj"_s << u"\"path\": \"m.onnx\""_s;
        QTest::addRow("deeper") << u"/data/ws/x/y/a.elkproj"_s << u"\"path\": \"../../../models/m.onnx\""_s;
    }

    void roundTrip()
    {
        QFETCH(QString, savedAs);
        QFETCH(QString, expectedModelText);
        const elk::run::Workspace original = everyField();
        const std::string text = elk::run::workspaceToJson(original, savedAs.toStdString());
        QVERIFY2(QString::fromStdString(text).contains(expectedModelText), text.c_str());
        QVERIFY2(!QString::fromStdString(text).contains(u"/data/"_s), text.c_str()); // every path relative

        const auto parsed = elk::run::workspaceFromJson(text, savedAs.toStdString());
        QVERIFY2(parsed.ok(), qPrintable(joinedErrors(parsed.errors)));
        const elk::run::Workspace& back = parsed.workspace;
        QCOMPARE(back.schemaVersion, 2);
        QCOMPARE(back.modelPath, original.modelPath);
        QCOMPARE(back.modelSha256, original.modelSha256);
        QCOMPARE(back.chip, original.chip);
        QCOMPARE(back.compareChip, original.compareChip);
        QVERIFY(back.views == original.views);
        QCOMPARE(back.run.modelPath, original.modelPath);
        QCOMPARE(back.run.chip, original.chip);
        QCOMPARE(back.run.chipOverrides, original.run.chipOverrides);
        QCOMPARE(back.run.phase, original.run.phase);
        QCOMPARE(back.run.batch, original.run.batch);
        QCOMPARE(back.run.seqLen, original.run.seqLen);
        QCOMPARE(back.run.kvLen, original.run.kvLen);
        QCOMPARE(back.run.designs, original.run.designs);
        QCOMPARE(back.run.preloadNocThreshold, original.run.preloadNocThreshold);
        QCOMPARE(back.run.preloadIngressGBpsPerCore, original.run.preloadIngressGBpsPerCore);
        QCOMPARE(back.run.delayCompute, original.run.delayCompute);
        QCOMPARE(back.run.seed, original.run.seed);
        QVERIFY(back.run.dims == original.run.dims);
        QVERIFY(back.run.inputShapes == original.run.inputShapes);
        // Saving what was read gives the same text: saved workspaces diff cleanly.
        QCOMPARE(elk::run::workspaceToJson(back, savedAs.toStdString()), text);
    }

    void roundTripOfABundledModelAndAnEmbeddedChip()
    {
        elk::run::Workspace original;
        original.modelPath = "bundled:llama2-13b";
        auto chip = elk::chip::findBuiltinPreset("teaching-mesh-4x4");
        QVERIFY(chip);
        chip->hbm.bandwidthGBpsPerStack = 96; // edited in the app: no longer the preset
        original.embeddedChip = *chip;
        original.compareChip = "/data/chips/other.json";
        const std::string text = elk::run::workspaceToJson(original, "/data/ws/b.elkproj");
        QVERIFY2(QString::fromStdString(text).contains(u"\"bundled\": \"llama2-13b\""_s), text.c_str());
        QVERIFY2(QString::fromStdString(text).contains(u"\"path\": \"../chips/other.json\""_s), text.c_str());

        const auto parsed = elk::run::workspaceFromJson(text, "/data/ws/b.elkproj");
        QVERIFY2(parsed.ok(), qPrintable(joinedErrors(parsed.errors)));
        QCOMPARE(parsed.workspace.modelPath, std::string("bundled:llama2-13b"));
        QVERIFY(parsed.workspace.embeddedChip);
        QVERIFY(*parsed.workspace.embeddedChip == *chip);
        QVERIFY(parsed.workspace.chip.empty());
        QCOMPARE(parsed.workspace.compareChip, std::string("/data/chips/other.json"));
        QCOMPARE(parsed.workspace.run.phase, elk::run::Phase::Decode);
        QVERIFY(!parsed.workspace.run.batch); // unset stays unset: resolveRunSpec fills the default
    }

    void anEmbeddedChipIsWhatRuns()
    {
        auto chip = elk::chip::findBuiltinPreset("teaching-mesh-4x4");
        QVERIFY(chip);
        chip->interconnect.linkBandwidthGBpsPerCore = 24;
        elk::run::Workspace workspace;
        workspace.modelPath = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
        workspace.embeddedChip = *chip;
        workspace.run.modelPath = workspace.modelPath;
        const auto resolved = elk::run::resolveWorkspaceRun(workspace);
        QVERIFY2(resolved.ok(), qPrintable(joinedErrors(resolved.errors)));
        QVERIFY(resolved.spec.chip == *chip);
        QCOMPARE(resolved.spec.options.preloadIngressGBpsPerCore, 24.0); // defaults follow the embedded chip

        chip->coresPerChip = 0;
        workspace.embeddedChip = *chip;
        const auto invalid = elk::run::resolveWorkspaceRun(workspace);
        QVERIFY(!invalid.ok());
        QVERIFY2(
            joinedErrors(invalid.errors).contains(u"/chip/coresPerChip"_s), qPrintable(joinedErrors(invalid.errors)));
    }

    void badVersion2FieldsNameThePointer_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::addRow("syntax error") << u"{\"schema\": \"elk.workspace/2\",\n\n   \"model\": }"_s
                                      << u"line 3, column 13"_s << u"invalid JSON"_s;
        QTest::addRow("model as a v1 string")
            << v2(u"\"m.onnx\""_s) << u"/model"_s
            << u"expected an object {\"path\": FILE} or {\"bundled\": NAME}, found string"_s;
        QTest::addRow("model neither path nor bundled")
            << v2(u"{}"_s) << u"/model"_s << u"expected one of \"path\" or \"bundled\""_s;
        QTest::addRow("model both path and bundled") << v2(u"{\"path\": \"m.onnx\", \"bundled\": \"llama2-13b\"}"_s)
                                                     << u"/model/bundled"_s << u"conflicts with \"path\""_s;
        QTest::addRow("unknown bundled model") << v2(u"{\"bundled\": \"gpt-9\"}"_s) << u"/model/bundled"_s
                                               << u"'gpt-9' is not a bundled model; expected one of llama2-13b"_s;
        QTest::addRow("sha256 not hex") << v2(u"{\"path\": \"m.onnx\", \"sha256\": \"abc\"}"_s) << u"/model/sha256"_s
                                        << u"'abc' is not a SHA-256; expected 64 lower-case hex digits"_s;
        QTest::addRow("unknown preset") << v2({}, u"{\"preset\": \"tpu-v9\"}"_s) << u"/chip/preset"_s
                                        << u"'tpu-v9' is not a built-in preset; expected one of"_s;
        QTest::addRow("chip as a v1 string") << v2({}, u"\"ipu-pod4-hbm\""_s) << u"/chip"_s << u"expected an object"_s;
        QTest::addRow("embedded chip field")
            << v2({}, u"{\"spec\": {\"schema\": \"elk.chip/1\"}}"_s) << u"/chip/spec/name"_s << u"missing"_s;
        QTest::addRow("overrides beside an embedded chip") << v2({},
            u"{\"spec\": %1, \"overrides\": [\"chips=2\"]}"_s.arg(
                QString::fromStdString(elk::chip::chipSpecToJson(*elk::chip::findBuiltinPreset("teaching-mesh-4x4")))))
                                                           << u"/chip/overrides"_s
                                                           << u"not allowed with an embedded chip spec"_s;
        QTest::addRow("override without =")
            << v2({}, u"{\"preset\": \"teaching-mesh-4x4\", \"overrides\": [\"chips\"]}"_s) << u"/chip/overrides/0"_s
            << u"'chips' is not field=value"_s;
        QTest::addRow("compare chip unknown preset")
            << v2({}, {}, u", \"compareChip\": {\"preset\": \"nope\"}"_s) << u"/compareChip/preset"_s
            << u"'nope' is not a built-in preset"_s;
        QTest::addRow("delayCompute not a boolean")
            << v2({}, {}, u", \"run\": {\"options\": {\"delayCompute\": \"yes\"}}"_s) << u"/run/options/delayCompute"_s
            << u"expected true or false, found string"_s;
        QTest::addRow("negative seed") << v2({}, {}, u", \"run\": {\"options\": {\"seed\": -1}}"_s)
                                       << u"/run/options/seed"_s << u"expected an integer >= 0, found -1"_s;
        QTest::addRow("unknown option") << v2({}, {}, u", \"run\": {\"options\": {\"beam\": 4}}"_s)
                                        << u"/run/options/beam"_s << u"unknown key"_s;
        QTest::addRow("current view not open")
            << v2({}, {}, u", \"views\": {\"open\": [\"designs\"], \"current\": \"gantt\"}"_s) << u"/views/current"_s
            << u"'gantt' is not one of the open views"_s;
        QTest::addRow("view listed twice") << v2({}, {}, u", \"views\": {\"open\": [\"gantt\", \"gantt\"]}"_s)
                                           << u"/views/open/1"_s << u"'gantt' is listed twice"_s;
        QTest::addRow("negative step") << v2({}, {}, u", \"views\": {\"selectedStep\": -3}"_s)
                                       << u"/views/selectedStep"_s << u"-3: expected a step index >= 0"_s;
        QTest::addRow("unknown top-level key") << v2({}, {}, u", \"layout\": 1"_s) << u"/layout"_s << u"unknown key"_s;
    }

    void badVersion2FieldsNameThePointer()
    {
        QFETCH(QString, json);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const auto parsed = elk::run::workspaceFromJson(json.toStdString(), "w.elkproj");
        QVERIFY(!parsed.ok());
        const QString errors = joinedErrors(parsed.errors);
        QVERIFY2(errors.contains(field + u": "_s + message), qPrintable(errors));
    }

    void aChangedModelFileGivesAWarning()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const std::string bytes = "not really a model";
        writeText(folder.filePath(u"m.onnx"_s), bytes);
        const QString workspacePath = folder.filePath(u"w.elkproj"_s);

        writeText(workspacePath,
            v2(u"{\"path\": \"m.onnx\", \"sha256\": \"%1\"}"_s.arg(QString::fromStdString(elk::sha256Hex(bytes))))
                .toStdString());
        const auto same = elk::run::loadWorkspaceFile(workspacePath.toStdString());
        QVERIFY2(same.ok(), qPrintable(joinedErrors(same.errors)));
        QVERIFY(same.warnings.empty());

        writeText(
            workspacePath, v2(u"{\"path\": \"m.onnx\", \"sha256\": \"%1\"}"_s.arg(QString(64, u'0'))).toStdString());
        const auto changed = elk::run::loadWorkspaceFile(workspacePath.toStdString());
        QVERIFY(changed.ok()); // a warning, not an error: the user may have meant to update the model
        QCOMPARE(changed.warnings.size(), std::size_t(1));
        const QString warning = QString::fromStdString(changed.warnings.front());
        QVERIFY2(warning.contains(u"m.onnx' changed since the workspace was saved"_s), qPrintable(warning));
    }
};

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
