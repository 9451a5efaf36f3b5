// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QMainWindow>
#include <QString>
#include <QTimer>

#include "engine/run/run_spec.h"
#include "engine/run/workspace.h"
#include "engine/store/result_store.h"
#include "widgets/model/model_snapshot.h"
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

class ClassroomMode;
class HistoryDiffLoader;
class HistoryDock;
class HloPage;
class ModelLoader;
class RecentFilesMenu;
class RunJob;
class RunProgress;
class RunViews;
class SweepPanel;

/// The elk-studio main window. It only wires: the chip editor and the views in central tabs
/// (RunViews), the model pane and the run history in docks, runs on worker threads (RunJob, one per
/// chip compared) through the result cache, a progress display with Cancel in the status bar, and
/// the menus (workspaces, exports, classroom mode).
///
/// After the first run, every chip edit or run-parameter change re-runs by itself after a short
/// pause (kRerunDelayMs), reusing the compiled model when only scheduling inputs changed.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int kRerunDelayMs = 300;

    /// Opens the result cache at `storePath` (empty: ResultStore::defaultPath(), which honours
    /// $ELK_CACHE_DIR).
    explicit MainWindow(const QString& storePath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens the workspace's chip, compare chip, views and run settings now and starts loading its
    /// model; runs once the model has loaded. Returns why the chip could not be opened, or empty.
    QString openWorkspace(const elk::run::Workspace& workspace);
    /// Reads a workspace file (.elkproj, or the older .json) and opens it; returns the errors, or empty.
    QString openWorkspaceFile(const QString& path);
    /// Writes the current state as an "elk.workspace/2" file; returns why not, or empty.
    QString saveWorkspaceFile(const QString& path);
    /// The current state as a workspace (model, chip as a preset name or embedded, run settings, views).
    elk::run::Workspace currentWorkspace() const;

    /// A built-in preset name or a chip file path. The opened chip starts a fresh undo history.
    /// Returns why it could not be opened, or an empty string.
    QString openChip(const QString& presetOrPath);
    /// Starts loading a model file or "bundled:NAME" in the background; a later call replaces it.
    /// A StableHLO module (.mlir) opens on the StableHLO page instead (see openHloModule).
    void openModel(const QString& pathOrBundledName);
    /// Shows the StableHLO page with this module; `run` starts it on the page's configurations.
    void openHloModule(const QString& path, bool run = false);
    void openModelDialog();

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
    RunJob* runJob() const { return m_runJob; }
    RunJob* compareJob() const { return m_compareJob; }
    HistoryDiffLoader* historyDiff() const { return m_historyDiff; }
    RunProgress* runProgress() const { return m_progress; }
    QComboBox* designSelector() const { return m_designBox; }
    ClassroomMode* classroomMode() const { return m_classroom; }
    elk::store::ResultStore* store() const { return m_store.get(); }
    /// What opening the cache said (a bad file moved aside, or why there is no cache); usually empty.
    QString storeMessage() const { return m_storeMessage; }
    QAction* runAction() const { return m_runAction; }
    QAction* cancelAction() const { return m_cancelAction; }
    /// The last finished run (null before the first).
    elk::widgets::RunSnapshotPtr lastRun() const;
    /// How the cache served the last finished run, and how long it took.
    elk::store::CacheOutcome lastCacheOutcome() const { return m_lastCache; }
    double lastRunSeconds() const { return m_lastSeconds; }

public slots:
    /// Runs the current model, run settings and chip now (and the compare chip, when one is chosen).
    void startRun();
    void cancelRun();
    /// Reopens a run of the history (or of an exported figure) from the cache: chip, model and run
    /// settings follow it. Returns why it cannot (no cache, not in it, unreadable; also shown in the
    /// status bar), or empty once the reopening started.
    QString reopenRun(const QString& specHash);
    void exportFigureDialog();
    void exportRunDialog();
    void openWorkspaceDialog();
    void saveWorkspaceDialog();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildDocks();
    void buildMenusAndToolBar();
    void openStore(const QString& path);
    void onModelLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot);
    void onRunParametersChanged(const elk::widgets::RunParameters& run);
    void onChipChanged();
    void onRunFinished(elk::widgets::RunSnapshotPtr result, elk::store::CacheOutcome cache, double seconds);
    void onCompareFinished(elk::widgets::RunSnapshotPtr result);
    void onDesignChosen(int index);
    void onStepSelected(int step);
    void onOpActivated(int graphOp);
    void updateDesignSelector();
    void updateRunAction();
    void updateTitle();
    void showStatus(const QString& message, int timeoutMs = 8000);
    void applyRunSpecToControls(const elk::run::RunSpec& spec);

    std::unique_ptr<elk::store::ResultStore> m_store;
    QString m_storeMessage;
    elk::widgets::ChipEditor* m_chipEditor = nullptr;
    elk::widgets::ChipComparePicker* m_comparePicker = nullptr;
    elk::widgets::ModelPane* m_modelPane = nullptr;
    ModelLoader* m_modelLoader = nullptr;
    SweepPanel* m_sweepPanel = nullptr;
    HloPage* m_hloPage = nullptr;
    RunViews* m_views = nullptr;
    HistoryDock* m_history = nullptr;
    class CacheLimit* m_cacheLimit = nullptr;
    RunJob* m_runJob = nullptr;
    RunJob* m_compareJob = nullptr;
    HistoryDiffLoader* m_historyDiff = nullptr;
    RunProgress* m_progress = nullptr;
    ClassroomMode* m_classroom = nullptr;
    RecentFilesMenu* m_recentWorkspaces = nullptr;
    QComboBox* m_designBox = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QLabel* m_validity = nullptr;
    QTimer m_rerunTimer;

    QString m_modelPath; ///< file path or "bundled:NAME" of the model asked for last
    /// The last model that loaded: kept when a file opened after it fails to load.
    std::shared_ptr<const elk::widgets::ModelSnapshot> m_lastGoodModel;
    /// Designs and run options of the workspace (the controls hold model, chip and step).
    elk::run::RunRequest m_runTemplate;
    QString m_workspacePath;
    QString m_lastExportFolder;
    QString m_pendingDesign; ///< design to select when the next run arrives (from a workspace)
    std::optional<std::int64_t> m_pendingStep;
    QString m_compareLabel;
    elk::store::CacheOutcome m_lastCache;
    double m_lastSeconds = 0;
    bool m_hasRun = false; ///< a run was asked for: edits re-run by themselves from now on
    bool m_runWhenModelLoads = false;
    bool m_applying = false; ///< set while the window changes controls itself: no re-run
};

} // namespace elk::app
