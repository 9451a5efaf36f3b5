// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

class QCheckBox;
class QComboBox;

namespace elk::widgets {

/// "Compare against [chip]": a second chip (a built-in preset or a chip file) whose run the app
/// shows beside the first one. Unchecked means no comparison.
/// Child objectNames for tests: compareEnabled (the check box), compareChip (the combo box).
class ChipComparePicker : public QWidget {
    Q_OBJECT
public:
    explicit ChipComparePicker(QWidget* parent = nullptr);

    /// The preset name or chip file path compared against; empty when the box is unchecked.
    QString compareChip() const;

    /// Asks for a chip file (a file dialog); the tests replace it.
    using FileChooser = QString (*)(QWidget* parent);
    void setFileChooser(FileChooser chooser) { m_chooseFile = chooser; }

public slots:
    /// Checks the box and selects the preset or file (added to the list); empty unchecks it.
    /// Emits compareChipChanged when the value changes, like any other way of changing it.
    void setCompareChip(const QString& presetOrPath);

signals:
    /// A preset name or chip file path; empty when the comparison was switched off.
    void compareChipChanged(const QString& presetOrPath);

private:
    void onChipActivated(int index);
    int indexOfFile(const QString& path);
    void emitIfChanged();

    QCheckBox* m_enabled = nullptr;
    QComboBox* m_chips = nullptr;
    int m_fileEntryIndex = -1; ///< the "Chip file…" entry, always last
    int m_lastIndex = 0; ///< restored when the file dialog is cancelled
    QString m_emitted; ///< what compareChipChanged said last
    FileChooser m_chooseFile = nullptr;
};

} // namespace elk::widgets
