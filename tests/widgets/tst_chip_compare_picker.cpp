// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// "Compare against": off by default, a preset or a chip file when checked, one signal per change,
// and a cancelled file dialog changes nothing.
#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

#include "widgets/chip_editor/chip_compare_picker.h"

using elk::widgets::ChipComparePicker;

namespace {

QString g_chosenFile; // what the stand-in file dialog answers

QString chooseFile(QWidget*)
{
    return g_chosenFile;
}

template <typename T> T* child(const QWidget& widget, const char* name)
{
    auto* found = widget.findChild<T*>(QLatin1String(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

} // namespace

class TestChipComparePicker : public QObject {
    Q_OBJECT
private slots:
    void offUntilChecked()
    {
        ChipComparePicker picker;
        auto* enabled = child<QCheckBox>(picker, "compareEnabled");
        auto* chips = child<QComboBox>(picker, "compareChip");
        QSignalSpy spy(&picker, &ChipComparePicker::compareChipChanged);
        QVERIFY(picker.compareChip().isEmpty());
        QVERIFY(!chips->isEnabled());
        QVERIFY(chips->findData(QStringLiteral("teaching-mesh-4x4")) >= 0); // the built-in presets are offered

        enabled->setChecked(true);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), chips->currentData().toString());
        QVERIFY(!picker.compareChip().isEmpty());

        const int mesh = chips->findData(QStringLiteral("teaching-mesh-4x4"));
        chips->setCurrentIndex(mesh);
        emit chips->activated(mesh);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toString(), QStringLiteral("teaching-mesh-4x4"));

        enabled->setChecked(false);
        QCOMPARE(spy.count(), 3);
        QVERIFY(spy.at(2).at(0).toString().isEmpty()); // empty: comparison off
    }

    void aChipFileIsAddedAndACancelledDialogChangesNothing()
    {
        ChipComparePicker picker;
        picker.setFileChooser(&chooseFile);
        auto* chips = child<QComboBox>(picker, "compareChip");
        picker.setCompareChip(QStringLiteral("ipu-pod4-hbm"));
        QSignalSpy spy(&picker, &ChipComparePicker::compareChipChanged);
        const int fileEntry = chips->count() - 1;

        g_chosenFile.clear(); // cancelled
        chips->setCurrentIndex(fileEntry);
        emit chips->activated(fileEntry);
        QCOMPARE(spy.count(), 0);
        QCOMPARE(picker.compareChip(), QStringLiteral("ipu-pod4-hbm"));

        g_chosenFile = QStringLiteral("/chips/my-chip.json");
        chips->setCurrentIndex(fileEntry);
        emit chips->activated(fileEntry);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), g_chosenFile);
        QCOMPARE(chips->currentText(), QStringLiteral("my-chip.json"));
        QCOMPARE(chips->itemText(chips->count() - 1), QStringLiteral("Chip file…")); // still last
    }

    void setCompareChipRestoresAndSignalsOnlyChanges()
    {
        ChipComparePicker picker;
        QSignalSpy spy(&picker, &ChipComparePicker::compareChipChanged);
        picker.setCompareChip(QStringLiteral("/chips/other.json"));
        QCOMPARE(picker.compareChip(), QStringLiteral("/chips/other.json"));
        QVERIFY(child<QCheckBox>(picker, "compareEnabled")->isChecked());
        picker.setCompareChip(QStringLiteral("/chips/other.json"));
        QCOMPARE(spy.count(), 1); // the same value again is no change
        QCOMPARE(child<QComboBox>(picker, "compareChip")->findData(QStringLiteral("/chips/other.json")),
            child<QComboBox>(picker, "compareChip")->currentIndex()); // listed once
        picker.setCompareChip({});
        QCOMPARE(spy.count(), 2);
        QVERIFY(picker.compareChip().isEmpty());
    }
};

QTEST_MAIN(TestChipComparePicker)
#include "tst_chip_compare_picker.moc"
