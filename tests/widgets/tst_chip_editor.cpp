// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The chip editor offscreen: presets fill the form, edits validate live, undo/redo restore,
// broken files never replace the spec, and every ChipSpec field has an editor.
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "engine/chip/chip_spec_json.h"
#include "engine/chip/presets.h"
#include "widgets/chip_editor/chip_editor.h"

using elk::chip::ChipSpec;
using elk::widgets::ChipEditor;

Q_DECLARE_METATYPE(elk::chip::ChipSpec)

namespace {

ChipSpec preset(const char* name)
{
    const auto spec = elk::chip::findBuiltinPreset(name);
    if (!spec)
        qFatal("built-in preset %s is missing", name);
    return *spec;
}

// Every leaf of the spec's JSON as a JSON pointer; arrays count as one leaf (one editor holds the list).
void collectLeaves(const QJsonObject& object, const QString& prefix, QStringList& leaves)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString pointer = prefix + QLatin1Char('/') + it.key();
        if (it.value().isObject())
            collectLeaves(it.value().toObject(), pointer, leaves);
        else if (pointer != QLatin1String("/schema"))
            leaves << pointer;
    }
}

bool anyMentions(const QStringList& lines, const QString& text)
{
    for (const QString& line : lines) {
        if (line.contains(text))
            return true;
    }
    return false;
}

QDoubleSpinBox* spin(ChipEditor& editor, const char* pointer)
{
    auto* box = editor.findChild<QDoubleSpinBox*>(QString::fromLatin1(pointer));
    if (!box)
        qFatal("no spin box %s", pointer);
    return box;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestChipEditor : public QObject {
    Q_OBJECT
private slots:
    void presetFillsEveryField_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("expected"); // as the editor shows it
        QTest::addRow("cores per chip") << "/coresPerChip"
                                        << "1472";
        QTest::addRow("chips") << "/chips"
                               << "4";
        QTest::addRow("SRAM shown in KiB") << "/sramBytesPerCore"
                                           << "624";
        QTest::addRow("clock shown in GHz") << "/clockHz"
                                            << "1.325";
        QTest::addRow("SRAM port B/cycle") << "/sramBandwidthBytesPerCyclePerCore"
                                           << "24.35";
        QTest::addRow("link bandwidth GB/s") << "/interconnect/linkBandwidthGBpsPerCore"
                                             << "5.5";
        QTest::addRow("HBM stacks") << "/hbm/stacksPerChip"
                                    << "4";
        QTest::addRow("name") << "/name"
                              << "ipu-pod4-hbm";
    }
    void presetFillsEveryField()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, expected);
        ChipEditor editor;
        QVERIFY(editor.loadPreset(QStringLiteral("ipu-pod4-hbm")));
        QCOMPARE(editor.spec(), preset("ipu-pod4-hbm"));
        QVERIFY(editor.isValid());
        QWidget* field = editor.findChild<QWidget*>(pointer);
        QVERIFY2(field, qPrintable(pointer));
        if (auto* box = qobject_cast<QDoubleSpinBox*>(field))
            QCOMPARE(box->cleanText(), expected);
        else if (auto* line = qobject_cast<QLineEdit*>(field))
            QCOMPARE(line->text(), expected);
        else
            QFAIL("unexpected editor type");
    }

    void presetPickerFollowsTheSpec()
    {
        ChipEditor editor;
        auto* picker = editor.findChild<QComboBox*>(QStringLiteral("presetPicker"));
        QVERIFY(picker);
        editor.setSpec(preset("teaching-mesh-4x4"));
        QCOMPARE(picker->currentText(), QStringLiteral("teaching-mesh-4x4"));

        picker->setCurrentIndex(picker->findText(QStringLiteral("ipu-mk2-hbm")));
        QCOMPARE(editor.spec(), preset("ipu-mk2-hbm"));
        spin(editor, "/coresPerChip")->setValue(1000);
        QCOMPARE(picker->currentText(), QStringLiteral("Custom"));

        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QCOMPARE(editor.spec(), preset("teaching-mesh-4x4"));
        QCOMPARE(picker->currentText(), QStringLiteral("teaching-mesh-4x4"));
    }

    void unknownPresetKeepsSpec()
    {
        ChipEditor editor;
        editor.setSpec(preset("ipu-mk2-hbm"));
        QVERIFY(!editor.loadPreset(QStringLiteral("no-such-chip")));
        QCOMPARE(editor.spec(), preset("ipu-mk2-hbm"));
        QVERIFY(editor.fileError().contains(QStringLiteral("no-such-chip")));
    }

    void invalidEditIsMarkedAndUndoable_data()
    {
        QTest::addColumn<QString>("presetName");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<double>("badValue");
        QTest::addColumn<QString>("markedPointer"); // the editor that must turn red
        QTest::addRow("zero cores") << "ipu-pod4-hbm"
                                    << "/coresPerChip" << 0.0 << "/coresPerChip";
        QTest::addRow("zero chips") << "ipu-pod4-hbm"
                                    << "/chips" << 0.0 << "/chips";
        QTest::addRow("mesh width x height != cores") << "teaching-mesh-4x4"
                                                      << "/interconnect/meshWidth" << 5.0 << "/interconnect/meshWidth";
        QTest::addRow("clock below 1 MHz") << "ipu-mk2-hbm"
                                           << "/clockHz" << 0.0 << "/clockHz";
        QTest::addRow("SRAM port slower than the link")
            << "ipu-pod4-hbm"
            << "/sramBandwidthBytesPerCyclePerCore" << 2.0 << "/sramBandwidthBytesPerCyclePerCore";
        QTest::addRow("overhead factor below 1") << "ipu-pod4-hbm"
                                                 << "/interChip/overheadFactor" << 0.5 << "/interChip/overheadFactor";
    }
    void invalidEditIsMarkedAndUndoable()
    {
        QFETCH(QString, presetName);
        QFETCH(QString, pointer);
        QFETCH(double, badValue);
        QFETCH(QString, markedPointer);

        ChipEditor editor;
        editor.setSpec(preset(presetName.toLatin1().constData()));
        QVERIFY(editor.isValid());
        const ChipSpec original = editor.spec();
        QSignalSpy validity(&editor, &ChipEditor::validityChanged);
        QSignalSpy changed(&editor, &ChipEditor::specChanged);
        auto* box = editor.findChild<QDoubleSpinBox*>(pointer);
        QVERIFY(box);
        const double goodValue = box->value();
        auto* marked = editor.findChild<QWidget*>(markedPointer);
        QVERIFY(marked);
        QVERIFY(!marked->property("elkInvalid").toBool());

        box->setValue(badValue);

        QVERIFY(!editor.isValid());
        QCOMPARE(validity.count(), 1);
        QCOMPARE(validity.at(0).at(0).toBool(), false);
        QCOMPARE(changed.count(), 1);
        QVERIFY(marked->property("elkInvalid").toBool());
        QVERIFY(marked->toolTip().contains(QStringLiteral("⚠")));
        QVERIFY2(anyMentions(editor.problems(), markedPointer + QStringLiteral(": ")),
            qPrintable(editor.problems().join(QLatin1Char('\n'))));
        auto* messages = editor.findChild<QListWidget*>(QStringLiteral("messages"));
        QVERIFY(messages);
        QVERIFY(!messages->findItems(markedPointer + QStringLiteral(": "), Qt::MatchStartsWith).isEmpty());
        QCOMPARE(editor.undoStack()->count(), 1);

        editor.undoAction()->trigger();
        QVERIFY(editor.isValid());
        QCOMPARE(validity.count(), 2);
        QCOMPARE(validity.at(1).at(0).toBool(), true);
        QCOMPARE(editor.spec(), original);
        QCOMPARE(box->value(), goodValue);
        QVERIFY(!marked->property("elkInvalid").toBool());
        QVERIFY(editor.problems().isEmpty());
        QCOMPARE(messages->count(), 0);

        editor.redoAction()->trigger();
        QVERIFY(!editor.isValid());
        QCOMPARE(box->value(), badValue);
        QVERIFY(marked->property("elkInvalid").toBool());
    }

    void typingIntoOneFieldIsOneUndoStep()
    {
        ChipEditor editor;
        editor.setSpec(preset("ipu-pod4-hbm"));
        QDoubleSpinBox* cores = spin(editor, "/coresPerChip");
        cores->setValue(1);
        cores->setValue(14);
        cores->setValue(147);
        QCOMPARE(editor.undoStack()->count(), 1);
        emit cores->editingFinished(); // a later edit of the same field is a new step
        cores->setValue(100);
        QCOMPARE(editor.undoStack()->count(), 2);
        spin(editor, "/chips")->setValue(2); // another field: another step
        QCOMPARE(editor.undoStack()->count(), 3);

        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QCOMPARE(cores->value(), 147.0);
        editor.undoStack()->undo();
        QCOMPARE(editor.spec(), preset("ipu-pod4-hbm"));
    }

    void typingBackTheOldValueLeavesNoStep()
    {
        ChipEditor editor;
        editor.setSpec(preset("ipu-pod4-hbm"));
        QDoubleSpinBox* cores = spin(editor, "/coresPerChip");
        cores->setValue(147);
        cores->setValue(1472);
        QCOMPARE(editor.spec(), preset("ipu-pod4-hbm"));
        QCOMPARE(editor.undoStack()->count(), 0);
        QVERIFY(editor.undoStack()->isClean());
    }

    void fieldsApplyOnlyWhereRelevant_data()
    {
        QTest::addColumn<QString>("presetName");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<bool>("enabled");
        QTest::addRow("all-to-all: mesh width off") << "ipu-pod4-hbm"
                                                    << "/interconnect/meshWidth" << false;
        QTest::addRow("mesh2d: mesh height on") << "teaching-mesh-4x4"
                                                << "/interconnect/meshHeight" << true;
        QTest::addRow("ipu-mk2: roofline off") << "ipu-pod4-hbm"
                                               << "/tileCost/roofline/sramBytesPerCycle" << false;
        QTest::addRow("roofline: roofline on") << "teaching-mesh-4x4"
                                               << "/tileCost/roofline/peakFlopPerCycleFp16" << true;
        QTest::addRow("roofline: fitted path off") << "teaching-mesh-4x4"
                                                   << "/tileCost/fitted/modelPath" << false;
        QTest::addRow("spread: controller ids off") << "ipu-pod4-hbm"
                                                    << "/hbm/controllerCoreIds" << false;
        QTest::addRow("link bandwidth always on") << "ipu-pod4-hbm"
                                                  << "/interconnect/linkBandwidthGBpsPerCore" << true;
    }
    void fieldsApplyOnlyWhereRelevant()
    {
        QFETCH(QString, presetName);
        QFETCH(QString, pointer);
        QFETCH(bool, enabled);
        ChipEditor editor;
        editor.setSpec(preset(presetName.toLatin1().constData()));
        QWidget* field = editor.findChild<QWidget*>(pointer);
        QVERIFY(field);
        QCOMPARE(field->isEnabled(), enabled);
    }

    void switchingTopologyEnablesMeshFields()
    {
        ChipEditor editor;
        editor.setSpec(preset("ipu-pod4-hbm"));
        auto* topology = editor.findChild<QComboBox*>(QStringLiteral("/interconnect/topology"));
        QVERIFY(topology);
        topology->setCurrentIndex(topology->findData(int(elk::chip::Topology::Mesh2d)));
        QCOMPARE(editor.spec().interconnect.topology, elk::chip::Topology::Mesh2d);
        QVERIFY(editor.findChild<QWidget*>(QStringLiteral("/interconnect/meshWidth"))->isEnabled());
        QVERIFY(!editor.isValid()); // a mesh of 0 × 0 routers
        editor.undoStack()->undo();
        QVERIFY(!editor.findChild<QWidget*>(QStringLiteral("/interconnect/meshWidth"))->isEnabled());
        QVERIFY(editor.isValid());
    }

    void controllerIdsParseOrComplain()
    {
        ChipEditor editor;
        ChipSpec spec = preset("teaching-mesh-4x4");
        spec.hbm.controllerPlacement = elk::chip::ControllerPlacement::Explicit;
        spec.hbm.controllerCoreIds = { 0 };
        editor.setSpec(spec);
        QVERIFY(editor.isValid());
        auto* ids = editor.findChild<QLineEdit*>(QStringLiteral("/hbm/controllerCoreIds"));
        QVERIFY(ids);
        QVERIFY(ids->isEnabled());
        QCOMPARE(ids->text(), QStringLiteral("0"));

        ids->setText(QStringLiteral("3, x"));
        QVERIFY(!editor.isValid());
        QCOMPARE(editor.spec(), spec); // unparsable text never reaches the spec
        QVERIFY(ids->property("elkInvalid").toBool());
        QVERIFY(anyMentions(editor.problems(), QStringLiteral("/hbm/controllerCoreIds: ")));

        ids->setText(QStringLiteral("3"));
        QVERIFY(editor.isValid());
        QCOMPARE(editor.spec().hbm.controllerCoreIds, std::vector<int> { 3 });
        QVERIFY(!ids->property("elkInvalid").toBool());
    }

    void textEditsReachTheSpec()
    {
        ChipEditor editor;
        editor.setSpec(preset("ipu-mk2-hbm"));
        auto* name = editor.findChild<QLineEdit*>(QStringLiteral("/name"));
        QVERIFY(name);
        name->setText(QString());
        QVERIFY(!editor.isValid()); // the name must not be empty
        QVERIFY(name->property("elkInvalid").toBool());
        name->setText(QStringLiteral("my-chip"));
        QVERIFY(editor.isValid());
        QCOMPARE(editor.spec().name, std::string("my-chip"));
        auto* source = editor.findChild<QPlainTextEdit*>(QStringLiteral("/source"));
        QVERIFY(source);
        source->setPlainText(QStringLiteral("measured"));
        QCOMPARE(editor.spec().source, std::string("measured"));
    }

    void brokenFileLeavesSpecUnchanged_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("mentions"); // part of the error shown
        QTest::addRow("not JSON") << QByteArray("{ \"schema\": \"elk.chip/1\",\n  \"name\": }") << "line 2";
        QTest::addRow("wrong type") << QByteArray(R"({"schema":"elk.chip/1","name":"x","chips":"four"})") << "/chips";
        QTest::addRow("empty file") << QByteArray() << "chip";
    }
    void brokenFileLeavesSpecUnchanged()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(writeFile(path, contents));

        ChipEditor editor;
        editor.setSpec(preset("ipu-pod4-hbm"));
        QSignalSpy changed(&editor, &ChipEditor::specChanged);
        QVERIFY(!editor.loadJsonFile(path));
        QCOMPARE(editor.spec(), preset("ipu-pod4-hbm"));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(editor.undoStack()->count(), 0);
        QVERIFY2(editor.fileError().contains(QStringLiteral("broken.json")), qPrintable(editor.fileError()));
        QVERIFY2(editor.fileError().contains(mentions), qPrintable(editor.fileError()));
        auto* messages = editor.findChild<QListWidget*>(QStringLiteral("messages"));
        QVERIFY(!messages->findItems(QStringLiteral("broken.json"), Qt::MatchContains).isEmpty());
        QVERIFY(editor.isValid()); // a load failure is not a spec problem
    }

    void missingFileIsAnError()
    {
        ChipEditor editor;
        editor.setSpec(preset("ipu-pod4-hbm"));
        QVERIFY(!editor.loadJsonFile(QStringLiteral("/nonexistent/elk/chip.json")));
        QCOMPARE(editor.spec(), preset("ipu-pod4-hbm"));
        QVERIFY(editor.fileError().contains(QStringLiteral("chip.json")));
    }

    void saveThenLoadRoundTrips()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("chip.json"));
        ChipEditor editor;
        editor.setSpec(preset("sn40l-rdu"));
        spin(editor, "/hbm/latencyNs")->setValue(150);
        const ChipSpec edited = editor.spec();
        QVERIFY(!editor.undoStack()->isClean());
        QVERIFY(editor.saveJsonFile(path));
        QVERIFY(editor.undoStack()->isClean());

        editor.loadPreset(QStringLiteral("ipu-mk2-hbm"));
        QVERIFY(editor.loadJsonFile(path));
        QCOMPARE(editor.spec(), edited);
        QVERIFY(editor.fileError().isEmpty());
        editor.undoStack()->undo(); // loading is one undo step
        QCOMPARE(editor.spec(), preset("ipu-mk2-hbm"));
    }

    void everySpecFieldHasAnEditor_data()
    {
        QTest::addColumn<ChipSpec>("spec");
        for (const ChipSpec& builtin : elk::chip::builtinPresets())
            QTest::addRow("preset %s", builtin.name.c_str()) << builtin;
        ChipSpec fitted = preset("teaching-mesh-4x4");
        fitted.tileCost.model = elk::chip::TileCostModelKind::Fitted;
        fitted.tileCost.fitted.modelPath = "model.json";
        fitted.hbm.controllerPlacement = elk::chip::ControllerPlacement::Explicit;
        fitted.hbm.controllerCoreIds = { 0 };
        QTest::addRow("fitted, explicit controllers") << fitted;
    }
    void everySpecFieldHasAnEditor()
    {
        QFETCH(ChipSpec, spec);
        const QByteArray json = QByteArray::fromStdString(elk::chip::chipSpecToJson(spec));
        const QJsonDocument document = QJsonDocument::fromJson(json);
        QVERIFY(document.isObject());
        QStringList leaves;
        collectLeaves(document.object(), QString(), leaves);
        // Every ChipSpec field is written; the optional SRAM port bandwidth only when set.
        const int expected = 29 + (spec.sramBandwidthBytesPerCyclePerCore != 0 ? 1 : 0);
        QVERIFY2(leaves.size() == expected, qPrintable(leaves.join(QLatin1Char(' '))));

        ChipEditor editor;
        editor.setSpec(spec);
        QCOMPARE(editor.spec(), spec);
        for (const QString& pointer : leaves) {
            QWidget* field = editor.findChild<QWidget*>(pointer);
            QVERIFY2(field, qPrintable(QStringLiteral("no editor for ") + pointer));
            QVERIFY2(!field->toolTip().isEmpty(), qPrintable(QStringLiteral("no tooltip on ") + pointer));
        }
    }
};

QTEST_MAIN(TestChipEditor)
#include "tst_chip_editor.moc"
