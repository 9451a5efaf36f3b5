// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

class QAction;
class QLabel;

namespace elk::widgets {
class ChipEditor;
}

namespace elk::app {

/// The elk-studio main window. It only wires widgets together: the chip editor in the centre,
/// menus, a tool bar with Run (enabled only while the chip spec is valid) and the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    elk::widgets::ChipEditor* chipEditor() const { return m_chipEditor; }
    QAction* runAction() const { return m_runAction; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void onRunRequested();
    void onValidityChanged(bool valid);
    void updateTitle();

    elk::widgets::ChipEditor* m_chipEditor = nullptr;
    QAction* m_runAction = nullptr;
    QLabel* m_validity = nullptr;
};

} // namespace elk::app
