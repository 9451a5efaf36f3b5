// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QMainWindow>
#include <QString>

#include "app/studio/run_controller.h"
#include "engine/run/run_spec.h"
#include "engine/run/workspace.h"
#include "engine/store/result_store.h"
#include "widgets/plots/plot_view.h"

class QAction;
class QComboBox;
class QLabel;

namespace elk::widgets {
class ChipComparePicker;
class ChipEditor;
class ModelPane;
class ModelSummaryView;
}

namespace elk::app {

class CacheLimit;
class ClassroomMode;
class HistoryDiffLoader;
class HistoryDock;
class HloPage;
class ModelController;
class RunProgress;
class RunViews;
class StudioExports;
class SweepPanel;
class WorkspaceController;

/// The elk-studio main window. It only wires: the chip editor and the views in central tabs
/// (RunViews), the model pane and the run history in docks, a progress display with Cancel in the
/// status bar, the menus (MainMenus), and the controllers that hold the state between them: the
/// open model (ModelController), the workspace (WorkspaceController), the runs (RunController:
/// after the first run, every chip edit or run-parameter change re-runs by itself after
/// kRerunDelayMs) and the exports (StudioExports).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int kRerunDelayMs = RunController::kRerunDelayMs;

    /// Opens the result cache at `storePath` (empty: ResultStore::defaultPath(), which honours
    /// $ELK_CACHE_DIR).
    explicit MainWindow(const QString& storePath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // The workspace, chip and model (see WorkspaceController and ModelController).
    QString openWorkspace(const elk::run::Workspace& workspace);
    QString openWorkspaceFile(const QString& path);
    QString saveWorkspaceFile(const QString& path);
    elk::run::Workspace currentWorkspace() const;
    QString openChip(const QString& presetOrPath);
    void openModel(const QString& pathOrBundledName);
    void openHloModule(const QString& path, bool run = false);
    /// The RunSpec a run would use now, or the errors that prevent one.
    elk::run::RunSpecResult currentRunSpec() const;

    elk::widgets::ChipEditor* chipEditor() const { return m_chipEditor; }
    elk::widgets::ChipComparePicker* comparePicker() const { return m_comparePicker; }
    elk::widgets::ModelPane* modelPane() const { return m_modelPane; }
    /// The model pane's summary part.
    elk::widgets::ModelSummaryView* modelView() const;
    RunViews* views() const { return m_views; }
    HloPage* hloPage() const { return m_hloPage; }
    SweepPanel* sweepPanel() const { return m_sweepPanel; }
    HistoryDock* historyDock() const { return m_history; }
    RunJob* runJob() const { return m_runs->runJob(); }
    RunJob* compareJob() const { return m_runs->compareJob(); }
    HistoryDiffLoader* historyDiff() const { return m_historyDiff; }
    RunProgress* runProgress() const { return m_progress; }
    QComboBox* designSelector() const { return m_designBox; }
    ClassroomMode* classroomMode() const { return m_classroom; }
    CacheLimit* cacheLimit() const { return m_cacheLimit; }
    WorkspaceController* workspaces() const { return m_workspaces; }
    elk::store::ResultStore* store() const { return m_store.get(); }
    /// What opening the cache said (a bad file moved aside, or why there is no cache); usually empty.
    QString storeMessage() const { return m_storeMessage; }
    QAction* runAction() const { return m_runAction; }
    QAction* cancelAction() const { return m_cancelAction; }
    /// The last finished run (null before the first).
    elk::widgets::RunSnapshotPtr lastRun() const;
    /// How the cache served the last finished run, and how long it took.
    elk::run::CacheOutcome lastCacheOutcome() const { return m_runs->lastCacheOutcome(); }
    double lastRunSeconds() const { return m_runs->lastRunSeconds(); }

public slots:
    void startRun();
    /// Cancels the run, the compare run and the sweep.
    void cancelRun();
    /// See RunController::reopenRun.
    QString reopenRun(const QString& specHash);
    void exportFigureDialog();
    void exportRunDialog();
    void openWorkspaceDialog();
    void saveWorkspaceDialog();
    void openModelDialog();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildDocks();
    void openStore(const QString& path);
    void wireControllers();
    void wireViews();
    void updateRunAction();
    void updateTitle();
    void showStatus(const QString& message, int timeoutMs = 8000);

    std::unique_ptr<elk::store::ResultStore> m_store;
    QString m_storeMessage;
    elk::widgets::ChipEditor* m_chipEditor = nullptr;
    elk::widgets::ChipComparePicker* m_comparePicker = nullptr;
    elk::widgets::ModelPane* m_modelPane = nullptr;
    SweepPanel* m_sweepPanel = nullptr;
    HloPage* m_hloPage = nullptr;
    RunViews* m_views = nullptr;
    HistoryDock* m_history = nullptr;
    CacheLimit* m_cacheLimit = nullptr;
    HistoryDiffLoader* m_historyDiff = nullptr;
    RunProgress* m_progress = nullptr;
    ClassroomMode* m_classroom = nullptr;
    QComboBox* m_designBox = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QLabel* m_validity = nullptr;
    ModelController* m_model = nullptr;
    WorkspaceController* m_workspaces = nullptr;
    RunController* m_runs = nullptr;
    StudioExports* m_exports = nullptr;
};

} // namespace elk::app
