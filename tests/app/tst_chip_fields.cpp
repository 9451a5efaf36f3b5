// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Chip fields declared once (engine/chip/chip_fields.cpp): every row of the table is read and written
// by the JSON code, checked by validation against its range, edited by the chip editor and, when
// sweepable, offered by the sweep panel with its label. A row added to the table is covered by each
// check below without touching this file.
#include <QDoubleSpinBox>
#include <QTest>

#include <cmath>

#include "app/studio/sweep_panel.h"
#include "engine/run/chips.h"
#include "widgets/chip_editor/chip_editor.h"

using elk::app::SweepPanel;
using elk::chip::ChipField;
using elk::chip::ChipSpec;

namespace {

/// A preset where `field` is in scope (roofline fields on a roofline chip, mesh fields on a mesh).
ChipSpec presetFor(const ChipField& field)
{
    const char* name = field.scope == elk::chip::FieldScope::Roofline ? "tt-wormhole-n300"
        : field.scope == elk::chip::FieldScope::Mesh                  ? "ipu-pod4-hbm-mesh"
                                                                      : "ipu-pod4-hbm";
    const auto spec = elk::chip::findBuiltinPreset(name);
    if (!spec)
        qFatal("built-in preset %s is missing", name);
    return *spec;
}

/// An in-range value different from the preset's (the fields' own rules stay satisfied).
double otherValue(const ChipField& field, double current)
{
    const double step = field.integer() ? 1.0 : 0.5;
    const double up = current + step;
    return up <= field.maxValue ? up : current - step;
}

QStringList pointers()
{
    QStringList out;
    for (const ChipField& field : elk::chip::chipFields())
        out << QString::fromUtf8(field.pointer.data(), qsizetype(field.pointer.size()));
    return out;
}

} // namespace

class TestChipFields : public QObject {
    Q_OBJECT

private slots:
    void rowsAreWellFormed()
    {
        QStringList seen;
        for (const ChipField& field : elk::chip::chipFields()) {
            const QString pointer = QString::fromUtf8(field.pointer.data(), qsizetype(field.pointer.size()));
            QVERIFY2(!seen.contains(pointer), qPrintable(pointer));
            seen << pointer;
            QVERIFY(pointer.startsWith(QLatin1Char('/')));
            QVERIFY2(field.minValue <= field.maxValue, qPrintable(pointer));
            QVERIFY2(!field.label.empty() && !field.help.empty() && !field.group.empty() && !field.axisLabel.empty(),
                qPrintable(pointer));
            QVERIFY2(field.editorScale > 0, qPrintable(pointer));
            QCOMPARE(elk::chip::findChipField(field.pointer), &field);
            QCOMPARE(elk::chip::findChipField(field.dotted()), &field);
            // The declared type is the member's.
            ChipSpec spec;
            const std::size_t kind = field.ref(spec).index();
            QCOMPARE(kind, std::size_t(field.type));
        }
        QVERIFY(elk::chip::findChipField("/hbm/nonsense") == nullptr);
    }

    void jsonWritesAndReadsEveryField_data()
    {
        QTest::addColumn<QString>("pointer");
        for (const QString& p : pointers())
            QTest::addRow("%s", qPrintable(p)) << p;
    }
    void jsonWritesAndReadsEveryField()
    {
        QFETCH(QString, pointer);
        const ChipField& field = *elk::chip::findChipField(pointer.toStdString());
        ChipSpec spec = presetFor(field);
        const double value = otherValue(field, field.get(spec));
        field.set(spec, value);
        const std::string text = elk::chip::chipSpecToJson(spec);
        QVERIFY2(text.find("\"" + std::string(field.key()) + "\"") != std::string::npos, text.c_str());
        const auto parsed = elk::chip::chipSpecFromJson(text);
        QVERIFY2(parsed.errors.empty(), parsed.errors.empty() ? "" : parsed.errors.front().message.c_str());
        QCOMPARE(field.get(parsed.spec), value);
        QVERIFY(parsed.spec == spec);
    }

    void validationChecksEveryRange_data() { jsonWritesAndReadsEveryField_data(); }
    void validationChecksEveryRange()
    {
        QFETCH(QString, pointer);
        const ChipField& field = *elk::chip::findChipField(pointer.toStdString());
        ChipSpec spec = presetFor(field);
        QVERIFY(elk::chip::validateChipSpec(spec).empty());
        // Above the table's maximum: an error naming the field (integers: the next integer).
        field.set(spec, field.integer() ? field.maxValue + 1 : field.maxValue * 2 + 1);
        const auto errors = elk::chip::validateChipSpec(spec);
        bool named = false;
        for (const auto& error : errors)
            named = named || error.field == field.pointer;
        QVERIFY2(named, qPrintable(pointer));
    }

    void editorHasEveryField()
    {
        elk::widgets::ChipEditor editor;
        for (const ChipField& field : elk::chip::chipFields()) {
            editor.setSpec(presetFor(field));
            const QString pointer = QString::fromUtf8(field.pointer.data(), qsizetype(field.pointer.size()));
            auto* box = editor.findChild<QDoubleSpinBox*>(pointer);
            QVERIFY2(box, qPrintable(pointer));
            QVERIFY2(std::abs(box->value() * field.editorScale - field.get(editor.spec())) <= field.editorScale,
                qPrintable(pointer));
            QVERIFY2(box->toolTip().startsWith(QString::fromUtf8(field.help.data(), qsizetype(field.help.size()))),
                qPrintable(box->toolTip()));
        }
    }

    void sweepPanelOffersTheSweepableFields()
    {
        QStringList offered;
        for (const SweepPanel::Field& f : SweepPanel::fields())
            offered << f.field;
        for (const ChipField& field : elk::chip::chipFields()) {
            const QString dotted = QString::fromStdString(field.dotted());
            QCOMPARE(offered.contains(dotted), field.sweepable);
            if (!field.sweepable)
                continue;
            const SweepPanel::Field& f = SweepPanel::fields()[std::size_t(offered.indexOf(dotted))];
            QCOMPARE(f.label, QString::fromUtf8(field.axisLabel.data(), qsizetype(field.axisLabel.size())));
            QCOMPARE(f.integer, field.integer());
            const ChipSpec spec = presetFor(field);
            QCOMPARE(f.value(spec), field.get(spec));
        }
    }
};

QTEST_MAIN(TestChipFields)
#include "tst_chip_fields.moc"
