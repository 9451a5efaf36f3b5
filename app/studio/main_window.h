// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QMainWindow>

#include "widgets/model/model_snapshot.h"

class QAction;
class QLabel;

namespace elk::run {
struct Workspace;
}

namespace elk::widgets {
class ChipEditor;
class ModelSummaryView;
}

namespace elk::app {

class ModelLoader;

/// The elk-studio main window. It only wires widgets together: the chip editor in the centre, the
/// model panel in a dock on the left, menus, a tool bar with Run (enabled only while the chip spec
/// is valid and a model is loaded) and the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens the workspace's chip now and starts loading its model (the panel shows the outcome).
    /// Returns why the chip could not be opened, or an empty string.
    QString openWorkspace(const elk::run::Workspace& workspace);
    /// A built-in preset name or a chip file path. The opened chip starts a fresh undo history.
    /// Returns why it could not be opened, or an empty string.
    QString openChip(const QString& presetOrPath);
    /// Starts loading an elk.graph/1 file in the background; a later call replaces it.
    void openModel(const QString& path);
    void openModelDialog();

    elk::widgets::ChipEditor* chipEditor() const { return m_chipEditor; }
    elk::widgets::ModelSummaryView* modelView() const { return m_modelView; }
    QAction* runAction() const { return m_runAction; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenusAndToolBar();
    void onModelLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot);
    void onRunRequested();
    void updateRunAction();
    void updateTitle();

    elk::widgets::ChipEditor* m_chipEditor = nullptr;
    elk::widgets::ModelSummaryView* m_modelView = nullptr;
    ModelLoader* m_modelLoader = nullptr;
    elk::widgets::RunParameters m_run;
    QString m_lastModelDirectory;
    QAction* m_runAction = nullptr;
    QLabel* m_validity = nullptr;
};

} // namespace elk::app
