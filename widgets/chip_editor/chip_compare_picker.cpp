// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/chip_editor/chip_compare_picker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>

#include "engine/run/chips.h"

namespace elk::widgets {

namespace {

    QString chooseChipFile(QWidget* parent)
    {
        return QFileDialog::getOpenFileName(parent, ChipComparePicker::tr("Chip to compare against"), {},
            ChipComparePicker::tr("Elk chip (*.json);;All files (*)"));
    }

} // namespace

ChipComparePicker::ChipComparePicker(QWidget* parent)
    : QWidget(parent)
    , m_chooseFile(&chooseChipFile)
{
    m_enabled = new QCheckBox(tr("Compare against"));
    m_enabled->setObjectName(QStringLiteral("compareEnabled"));
    m_enabled->setToolTip(tr("Also run the model on a second chip and show both"));
    m_chips = new QComboBox;
    m_chips->setObjectName(QStringLiteral("compareChip"));
    for (const elk::chip::ChipSpec& preset : elk::chip::builtinPresets()) {
        const QString name = QString::fromStdString(preset.name);
        m_chips->addItem(name, name);
        m_chips->setItemData(m_chips->count() - 1, QString::fromStdString(preset.description), Qt::ToolTipRole);
    }
    m_chips->insertSeparator(m_chips->count());
    m_chips->addItem(tr("Chip file…"));
    m_fileEntryIndex = m_chips->count() - 1;
    m_chips->setEnabled(false);

    connect(m_enabled, &QCheckBox::toggled, this, [this](bool on) {
        m_chips->setEnabled(on);
        emitIfChanged();
    });
    connect(m_chips, &QComboBox::activated, this, &ChipComparePicker::onChipActivated);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_enabled);
    layout->addWidget(m_chips, 1);
}

QString ChipComparePicker::compareChip() const
{
    return m_enabled->isChecked() ? m_chips->currentData().toString() : QString();
}

void ChipComparePicker::setCompareChip(const QString& presetOrPath)
{
    if (!presetOrPath.isEmpty()) {
        int index = m_chips->findData(presetOrPath);
        if (index < 0 || index >= m_fileEntryIndex)
            index = indexOfFile(presetOrPath);
        m_chips->setCurrentIndex(index);
        m_lastIndex = index;
    }
    const QSignalBlocker blocker(m_enabled); // one signal for the whole change
    m_enabled->setChecked(!presetOrPath.isEmpty());
    m_chips->setEnabled(m_enabled->isChecked());
    emitIfChanged();
}

int ChipComparePicker::indexOfFile(const QString& path)
{
    const int existing = m_chips->findData(path);
    if (existing >= 0 && existing != m_fileEntryIndex)
        return existing;
    // Files go between the presets' separator and the "Chip file…" entry.
    m_chips->insertItem(m_fileEntryIndex, QFileInfo(path).fileName(), path);
    m_chips->setItemData(m_fileEntryIndex, path, Qt::ToolTipRole);
    return m_fileEntryIndex++;
}

void ChipComparePicker::onChipActivated(int index)
{
    if (index == m_fileEntryIndex) {
        const QString path = m_chooseFile ? m_chooseFile(this) : QString();
        index = path.isEmpty() ? m_lastIndex : indexOfFile(path);
        m_chips->setCurrentIndex(index);
    }
    m_lastIndex = index;
    emitIfChanged();
}

void ChipComparePicker::emitIfChanged()
{
    const QString now = compareChip();
    if (now == m_emitted)
        return;
    m_emitted = now;
    emit compareChipChanged(now);
}

} // namespace elk::widgets
