// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/main_window.h"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/studio/cache_limit.h"
#include "app/studio/classroom_mode.h"
#include "app/studio/diff_page.h"
#include "app/studio/figure_export_dialog.h"
#include "app/studio/history_diff.h"
#include "app/studio/history_dock.h"
#include "app/studio/hlo_page.h"
#include "app/studio/model_loader.h"
#include "app/studio/paper_page.h"
#include "app/studio/recent_files.h"
#include "app/studio/run_folder_export.h"
#include "app/studio/run_job.h"
#include "app/studio/run_progress.h"
#include "app/studio/run_summary.h"
#include "app/studio/run_views.h"
#include "app/studio/studio_workspace.h"
#include "app/studio/sweep_panel.h"
#include "engine/chip/presets.h"
#include "widgets/chip_editor/chip_compare_picker.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/model_summary_view.h"
#include "widgets/model/quantity_format.h"

namespace elk::app {

namespace {
    const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
    const QString kStateKey = QStringLiteral("mainWindow/state");
    const QString kRecentWorkspacesKey = QStringLiteral("mainWindow/recentWorkspaces");
    const std::string kHeadlineDesign = "elk-full";

    QString text(const std::string& s)
    {
        return QString::fromStdString(s);
    }

    QString errorLines(const std::vector<elk::chip::FieldError>& errors)
    {
        QStringList lines;
        for (const auto& error : errors)
            lines << text(error.field) + QStringLiteral(": ") + text(error.message);
        return lines.join(QLatin1Char('\n'));
    }

} // namespace

MainWindow::MainWindow(const QString& storePath, QWidget* parent)
    : QMainWindow(parent)
    , m_chipEditor(new elk::widgets::ChipEditor)
    , m_comparePicker(new elk::widgets::ChipComparePicker)
    , m_modelPane(new elk::widgets::ModelPane)
    , m_modelLoader(new ModelLoader(this))
    , m_sweepPanel(new SweepPanel)
    , m_hloPage(new HloPage)
    , m_runJob(new RunJob(this))
    , m_compareJob(new RunJob(this))
    , m_historyDiff(new HistoryDiffLoader(this))
    , m_progress(new RunProgress)
{
    openStore(storePath);
    m_cacheLimit = new CacheLimit(m_store.get(), this);
    connect(m_cacheLimit, &CacheLimit::trimmed, this, [this](const QString& message) { showStatus(message, 8000); });
    auto* chipPage = new QWidget;
    auto* chipLayout = new QVBoxLayout(chipPage);
    chipLayout->setContentsMargins(0, 0, 0, 0);
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(m_comparePicker);
    compareRow->addStretch(1);
    chipLayout->addLayout(compareRow);
    chipLayout->addWidget(m_chipEditor, 1);
    auto* paperPage = new PaperPage;
    paperPage->setStore(m_store.get());
    connect(paperPage, &PaperPage::statusMessage, this, [this](const QString& m) { showStatus(m); });
    m_views = new RunViews(chipPage, m_sweepPanel, m_hloPage, paperPage);
    setCentralWidget(m_views);
    m_classroom = new ClassroomMode(this, m_views);
    buildDocks();
    buildMenusAndToolBar();

    m_validity = new QLabel;
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_validity);
    m_rerunTimer.setSingleShot(true);
    m_rerunTimer.setInterval(kRerunDelayMs);

    connect(m_chipEditor, &elk::widgets::ChipEditor::statusMessage, this,
        [this](const QString& m) { showStatus(m, 5000); });
    connect(m_chipEditor, &elk::widgets::ChipEditor::validityChanged, this, &MainWindow::updateRunAction);
    connect(m_chipEditor, &elk::widgets::ChipEditor::specChanged, this, &MainWindow::onChipChanged);
    connect(
        m_chipEditor->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });
    connect(m_comparePicker, &elk::widgets::ChipComparePicker::compareChipChanged, this, [this] {
        if (m_hasRun && !m_applying)
            m_rerunTimer.start();
    });
    connect(m_modelPane, &elk::widgets::ModelPane::modelRequested, this, &MainWindow::openModel);
    connect(m_modelPane, &elk::widgets::ModelPane::runParametersChanged, this, &MainWindow::onRunParametersChanged);
    connect(m_modelPane, &elk::widgets::ModelPane::opActivated, this, &MainWindow::onOpActivated);
    connect(m_modelLoader, &ModelLoader::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(&m_rerunTimer, &QTimer::timeout, this, &MainWindow::startRun);

    m_runJob->setStore(m_store.get());
    m_compareJob->setStore(m_store.get());
    m_historyDiff->setStore(m_store.get());
    m_sweepPanel->setStore(m_store.get());
    m_hloPage->setStore(m_store.get());
    connect(m_hloPage, &HloPage::statusMessage, this, [this](const QString& m) { showStatus(m); });
    connect(m_runJob, &RunJob::progress, m_progress, &RunProgress::showProgress);
    connect(m_runJob, &RunJob::finished, this, &MainWindow::onRunFinished);
    connect(m_runJob, &RunJob::failed, this, [this](const QString& message) {
        m_progress->showEnded(tr("Run failed"));
        showStatus(tr("Run failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0)), 0);
        m_progress->stageLabel()->setToolTip(message);
        updateRunAction();
    });
    connect(m_runJob, &RunJob::cancelled, this, [this] {
        m_progress->showEnded(tr("Run cancelled"));
        showStatus(tr("Run cancelled."));
        updateRunAction();
    });
    connect(m_compareJob, &RunJob::finished, this,
        [this](elk::widgets::RunSnapshotPtr result) { onCompareFinished(std::move(result)); });
    connect(m_compareJob, &RunJob::failed, this, [this](const QString& message) {
        m_views->setCompareRun(nullptr, {});
        showStatus(tr("Compare run on %1 failed: %2").arg(m_compareLabel, message.section(QLatin1Char('\n'), 0, 0)), 0);
    });
    connect(m_progress, &RunProgress::cancelRequested, this, &MainWindow::cancelRun);
    connect(m_views, &RunViews::stepSelected, this, &MainWindow::onStepSelected);
    connect(m_views, &RunViews::designPicked, m_designBox, &QComboBox::setCurrentIndex);
    connect(m_history, &HistoryDock::reopenRequested, this, &MainWindow::reopenRun);
    connect(m_history, &HistoryDock::diffRequested, m_historyDiff, &HistoryDiffLoader::load);
    connect(
        m_historyDiff, &HistoryDiffLoader::failed, this, [this](const QString& message) { showStatus(message, 0); });
    connect(m_historyDiff, &HistoryDiffLoader::loaded, this,
        [this](elk::widgets::RunSnapshotPtr run, const QString& label) {
            m_views->diffPage()->setHistoryRun(std::move(run), label);
            m_views->setCurrentKind(QStringLiteral("diff"));
        });
    connect(m_sweepPanel, &SweepPanel::statusMessage, this, [this](const QString& m) { showStatus(m); });
    m_sweepPanel->setBaseProvider([this] {
        // Cheap: the sweep resolves its points on its workers (model hash included).
        SweepBase base;
        base.chip = m_chipEditor->spec();
        if (m_modelPath.isEmpty())
            base.error = tr("open a model first");
        else if (!m_chipEditor->isValid())
            base.error = tr("the chip spec has problems");
        base.request = currentWorkspace().run;
        return base;
    });

    m_history->refresh(m_store.get());
    m_cacheLimit->trimInBackground();
    updateRunAction();
    updateTitle();
    if (!m_storeMessage.isEmpty())
        showStatus(m_storeMessage, 0);

    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QSize available = screen() ? screen()->availableSize() : QSize(1280, 800);
        resize(available.boundedTo(QSize(1600, 1000)) * 0.95);
    }
    restoreState(settings.value(kStateKey).toByteArray());
}

MainWindow::~MainWindow()
{
    // Running jobs use the result store, a member that goes before the child objects do: stop them first.
    m_cacheLimit->waitForTrim();
    delete m_runJob;
    delete m_compareJob;
    delete m_historyDiff;
    m_sweepPanel->job()->stopAndWait();
    m_views->paperPage()->job()->stopAndWait();
    delete m_hloPage; // its HloJob waits for its worker
    m_hloPage = nullptr;
}

void MainWindow::openStore(const QString& path)
{
    const std::string file = path.isEmpty() ? elk::store::ResultStore::defaultPath() : path.toStdString();
    elk::store::OpenResult opened = elk::store::ResultStore::open(file);
    m_store = std::move(opened.store);
    if (!opened.error.empty())
        m_storeMessage = tr("No result cache (%1); runs are not kept.").arg(text(opened.error));
    else if (!opened.message.empty())
        m_storeMessage = text(opened.message);
    if (!opened.message.empty() || !opened.error.empty()) {
        // Said once, without blocking start-up (a modal box here would also stall tests).
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Result cache"), m_storeMessage, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        QTimer::singleShot(0, box, [box] { box->open(); });
    }
}

void MainWindow::buildDocks()
{
    auto* modelDock = new QDockWidget(tr("Model"), this);
    modelDock->setObjectName(QStringLiteral("modelDock"));
    modelDock->setFeatures(
        QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    modelDock->setWidget(m_modelPane);
    addDockWidget(Qt::LeftDockWidgetArea, modelDock);
    m_history = new HistoryDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, m_history);
    tabifyDockWidget(modelDock, m_history);
    modelDock->raise();
}

void MainWindow::buildMenusAndToolBar()
{
    const auto icon = [](const char* name) { return QIcon::fromTheme(QLatin1String(name)); };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openWorkspace = file->addAction(icon("document-open"), tr("&Open workspace…"));
    openWorkspace->setObjectName(QStringLiteral("openWorkspaceAction"));
    openWorkspace->setShortcut(QKeySequence::Open);
    connect(openWorkspace, &QAction::triggered, this, &MainWindow::openWorkspaceDialog);
    m_recentWorkspaces = new RecentFilesMenu(tr("Open &recent workspace"), kRecentWorkspacesKey, this);
    file->addMenu(m_recentWorkspaces);
    connect(m_recentWorkspaces, &RecentFilesMenu::fileChosen, this, [this](const QString& path) {
        if (const QString error = openWorkspaceFile(path); !error.isEmpty())
            QMessageBox::warning(this, tr("Open workspace"), error);
    });
    QAction* saveWorkspace = file->addAction(icon("document-save"), tr("&Save workspace…"));
    saveWorkspace->setObjectName(QStringLiteral("saveWorkspaceAction"));
    saveWorkspace->setShortcut(QKeySequence::Save);
    connect(saveWorkspace, &QAction::triggered, this, &MainWindow::saveWorkspaceDialog);
    file->addSeparator();
    QAction* openModelAction = file->addAction(icon("document-import"), tr("Open &model…"));
    openModelAction->setObjectName(QStringLiteral("openModelAction"));
    openModelAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    connect(openModelAction, &QAction::triggered, this, &MainWindow::openModelDialog);
    QAction* openChipAction = file->addAction(tr("Open &chip…"));
    connect(openChipAction, &QAction::triggered, m_chipEditor, &elk::widgets::ChipEditor::openJsonDialog);
    QAction* saveChipAction = file->addAction(tr("Save c&hip…"));
    connect(saveChipAction, &QAction::triggered, m_chipEditor, &elk::widgets::ChipEditor::saveJsonDialog);
    file->addSeparator();
    QAction* exportFigure = file->addAction(icon("document-export"), tr("Export &figure…"));
    exportFigure->setObjectName(QStringLiteral("exportFigureAction"));
    exportFigure->setShortcut(Qt::CTRL | Qt::Key_E);
    connect(exportFigure, &QAction::triggered, this, &MainWindow::exportFigureDialog);
    QAction* exportRun = file->addAction(tr("Export r&un…"));
    exportRun->setObjectName(QStringLiteral("exportRunAction"));
    exportRun->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_E);
    connect(exportRun, &QAction::triggered, this, &MainWindow::exportRunDialog);
    QAction* cacheLimit = file->addAction(tr("Result cache si&ze…"));
    cacheLimit->setObjectName(QStringLiteral("cacheLimitAction"));
    connect(cacheLimit, &QAction::triggered, m_cacheLimit, &CacheLimit::askLimit);
    file->addSeparator();
    QAction* quit = file->addAction(icon("application-exit"), tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_chipEditor->undoAction());
    edit->addAction(m_chipEditor->redoAction());

    m_runAction = new QAction(icon("media-playback-start"), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(Qt::CTRL | Qt::Key_R);
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRun);
    m_cancelAction = new QAction(icon("process-stop"), tr("&Cancel run"), this);
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelRun);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_cancelAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* classroom = view->addAction(tr("&Classroom mode"));
    classroom->setObjectName(QStringLiteral("classroomModeAction"));
    classroom->setCheckable(true);
    classroom->setShortcut(Qt::Key_F11);
    connect(classroom, &QAction::toggled, m_classroom, &ClassroomMode::setOn);
    connect(m_classroom, &ClassroomMode::toggled, classroom, &QAction::setChecked);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(openWorkspace);
    tools->addAction(saveWorkspace);
    tools->addSeparator();
    tools->addAction(m_runAction);
    tools->addSeparator();
    tools->addWidget(new QLabel(tr("Design: ")));
    m_designBox = new QComboBox;
    m_designBox->setObjectName(QStringLiteral("designSelector"));
    m_designBox->setToolTip(tr("The design the timeline, links, Pareto and classroom views show"));
    m_designBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tools->addWidget(m_designBox);
    connect(m_designBox, &QComboBox::currentIndexChanged, this, &MainWindow::onDesignChosen);
    tools->addSeparator();
    tools->addAction(exportFigure);
}

elk::widgets::ModelSummaryView* MainWindow::modelView() const
{
    return m_modelPane->findChild<elk::widgets::ModelSummaryView*>();
}

elk::widgets::RunSnapshotPtr MainWindow::lastRun() const
{
    return m_views->run();
}

// ---- workspace -------------------------------------------------------------------------------

QString MainWindow::openWorkspace(const elk::run::Workspace& workspace)
{
    m_applying = true;
    m_runTemplate = workspace.run;
    m_modelPane->setRunParameters(runParametersOf(workspace.run));
    QString error;
    if (workspace.embeddedChip) {
        m_chipEditor->setSpec(*workspace.embeddedChip);
    } else if (!workspace.run.chipOverrides.empty()) {
        const elk::run::ChipResolveResult chip = elk::run::resolveChip(workspace.chip, workspace.run.chipOverrides);
        if (chip.ok())
            m_chipEditor->setSpec(chip.spec);
        else
            error = errorLines(chip.errors);
    } else {
        error = openChip(text(workspace.chip));
    }
    m_comparePicker->setCompareChip(text(workspace.compareChip));
    if (!workspace.views.current.empty())
        m_views->setCurrentKind(text(workspace.views.current));
    m_pendingDesign = text(workspace.views.selectedDesign);
    m_pendingStep = workspace.views.selectedStep;
    m_workspacePath = text(workspace.filePath);
    m_applying = false;
    if (!workspace.modelPath.empty()) {
        m_runWhenModelLoads = error.isEmpty();
        openModel(text(workspace.modelPath));
    }
    updateTitle();
    return error;
}

QString MainWindow::openWorkspaceFile(const QString& path)
{
    const elk::run::WorkspaceParseResult parsed = elk::run::loadWorkspaceFile(path.toStdString());
    if (!parsed.ok())
        return workspaceErrorText(parsed);
    const QString error = openWorkspace(parsed.workspace);
    if (error.isEmpty()) {
        m_recentWorkspaces->add(path);
        QStringList warnings;
        for (const std::string& warning : parsed.warnings)
            warnings << text(warning);
        showStatus(
            warnings.isEmpty() ? tr("Opened %1").arg(QFileInfo(path).fileName()) : warnings.join(QLatin1Char(' ')));
    }
    return error;
}

elk::run::Workspace MainWindow::currentWorkspace() const
{
    elk::run::Workspace workspace;
    workspace.filePath = m_workspacePath.toStdString();
    workspace.modelPath = m_modelPath.toStdString();
    const elk::chip::ChipSpec chip = m_chipEditor->spec();
    const auto preset = elk::chip::findBuiltinPreset(chip.name);
    if (preset && *preset == chip)
        workspace.chip = chip.name;
    else
        workspace.embeddedChip = chip;
    workspace.compareChip = m_comparePicker->compareChip().toStdString();
    workspace.run = m_runTemplate;
    workspace.run.modelPath = workspace.modelPath;
    workspace.run.chip = workspace.chip;
    workspace.run.chipOverrides.clear(); // the editor's spec already holds every change
    const elk::widgets::RunParameters run = m_modelPane->runParameters();
    workspace.run.phase = run.phase;
    workspace.run.batch = run.batch;
    workspace.run.seqLen = run.seqLen;
    workspace.run.kvLen = run.kvLen;
    workspace.run.dims = run.dims;
    workspace.run.inputShapes = run.inputShapes;
    for (const QString& kind : RunViews::tabKinds())
        workspace.views.open.push_back(kind.toStdString());
    workspace.views.current = m_views->currentKind().toStdString();
    if (m_designBox->currentIndex() >= 0)
        workspace.views.selectedDesign = m_designBox->currentText().toStdString();
    if (m_views->selectedStep() >= 0)
        workspace.views.selectedStep = m_views->selectedStep();
    return workspace;
}

QString MainWindow::saveWorkspaceFile(const QString& path)
{
    const std::string json = elk::run::workspaceToJson(currentWorkspace(), path.toStdString());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json.data(), qint64(json.size())) != qint64(json.size())
        || !file.commit())
        return tr("%1: cannot write: %2").arg(path, file.errorString());
    m_workspacePath = path;
    m_recentWorkspaces->add(path);
    updateTitle();
    showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()));
    return {};
}

void MainWindow::openWorkspaceDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open workspace"),
        QFileInfo(m_workspacePath).absolutePath(), tr("Elk workspaces (*.elkproj *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = openWorkspaceFile(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Open workspace"), error);
}

void MainWindow::saveWorkspaceDialog()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save workspace"),
        m_workspacePath.endsWith(QLatin1String(".elkproj")) ? m_workspacePath : QString(),
        tr("Elk workspaces (*.elkproj)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".elkproj");
    if (const QString error = saveWorkspaceFile(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Save workspace"), error);
}

// ---- chip and model --------------------------------------------------------------------------

QString MainWindow::openChip(const QString& presetOrPath)
{
    if (elk::chip::findBuiltinPreset(presetOrPath.toStdString())) {
        m_chipEditor->loadPreset(presetOrPath);
    } else if (QFileInfo::exists(presetOrPath)) {
        if (!m_chipEditor->loadJsonFile(presetOrPath))
            return m_chipEditor->fileError();
    } else {
        QStringList names;
        for (const auto& preset : elk::chip::builtinPresets())
            names << text(preset.name);
        return tr("%1: no such chip preset or file (presets: %2)").arg(presetOrPath, names.join(QStringLiteral(", ")));
    }
    m_chipEditor->undoStack()->clear(); // the opened chip is the starting point, not an undoable step
    return {};
}

void MainWindow::openModel(const QString& pathOrBundledName)
{
    if (pathOrBundledName.endsWith(QLatin1String(".mlir"), Qt::CaseInsensitive)) {
        openHloModule(pathOrBundledName);
        return;
    }
    m_modelPath = pathOrBundledName;
    m_modelPane->showLoading(pathOrBundledName);
    updateRunAction();
    showStatus(tr("Loading model %1…").arg(QFileInfo(pathOrBundledName).fileName()), 0);
    m_modelLoader->start(pathOrBundledName, m_modelPane->runParameters());
}

void MainWindow::openHloModule(const QString& path, bool run)
{
    m_hloPage->openFile(path);
    m_views->setCurrentKind(QStringLiteral("hlo"));
    if (run)
        m_hloPage->run();
}

void MainWindow::openModelDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open model"), QFileInfo(m_modelPath).absolutePath(), elk::widgets::ModelPane::fileDialogFilter());
    if (!path.isEmpty())
        openModel(path);
}

void MainWindow::onModelLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot)
{
    const bool ok = snapshot->ok();
    if (!ok && snapshot->freeDims.empty() && m_lastGoodModel && snapshot->filePath != m_lastGoodModel->filePath) {
        // Opening a broken file loses nothing: the model that was open stays, with why the other did
        // not open above it. (A file with free dims is shown: its form asks for their sizes.)
        const QString failedName = QFileInfo(snapshot->filePath).fileName();
        m_modelPath = m_lastGoodModel->filePath;
        m_modelPane->setSnapshot(m_lastGoodModel);
        m_modelPane->showOpenError(tr("%1 was not opened; %2 stays open.\n%3")
                                       .arg(failedName, QFileInfo(m_modelPath).fileName(), snapshot->error));
        showStatus(tr("Model %1 not opened: %2").arg(failedName, snapshot->error.section(QLatin1Char('\n'), 0, 0)), 0);
        m_runWhenModelLoads = false;
        updateRunAction();
        return;
    }
    if (ok)
        m_lastGoodModel = snapshot;
    if (ok) {
        const elk::model::GraphSummary& summary = snapshot->summary;
        showStatus(tr("Model %1 loaded: %2 ops, %3")
                       .arg(text(summary.name), elk::widgets::formatCount(summary.opCount),
                           elk::widgets::formatFlops(summary.flops)));
    } else {
        showStatus(tr("Model not loaded: %1").arg(snapshot->error.section(QLatin1Char('\n'), 0, 0)), 0);
    }
    m_modelPane->setSnapshot(std::move(snapshot));
    updateRunAction();
    if (std::exchange(m_runWhenModelLoads, false) && ok && m_chipEditor->isValid())
        startRun();
}

void MainWindow::onRunParametersChanged(const elk::widgets::RunParameters& run)
{
    // The op table follows the new shapes; a run that was shown follows them too.
    if (!m_modelPath.isEmpty())
        m_modelLoader->start(m_modelPath, run);
    if (m_hasRun)
        m_rerunTimer.start();
}

void MainWindow::onChipChanged()
{
    updateTitle();
    if (m_hasRun && !m_applying && m_chipEditor->isValid())
        m_rerunTimer.start();
}

// ---- runs ------------------------------------------------------------------------------------

elk::run::RunSpecResult MainWindow::currentRunSpec() const
{
    elk::run::RunSpecResult result;
    if (m_modelPath.isEmpty()) {
        result.errors.push_back({ "/model", tr("no model opened").toStdString() });
        return result;
    }
    elk::run::Workspace workspace = currentWorkspace();
    workspace.chip.clear();
    workspace.embeddedChip = m_chipEditor->spec(); // exactly what the editor shows
    return elk::run::resolveWorkspaceRun(workspace);
}

void MainWindow::startRun()
{
    m_rerunTimer.stop();
    if (!m_chipEditor->isValid()) {
        showStatus(tr("The chip spec has problems; fix them to run."));
        return;
    }
    if (m_modelPath.isEmpty()) {
        showStatus(tr("Open a model to run."));
        return;
    }
    m_hasRun = true;
    // Resolved on the worker: hashing the model file (or building a bundled model) takes a while.
    elk::run::Workspace workspace = currentWorkspace();
    workspace.chip.clear();
    workspace.embeddedChip = m_chipEditor->spec(); // exactly what the editor shows
    // runCached uses the compiled model only when its partition key matches: an HBM edit reschedules.
    m_runJob->start([workspace] { return elk::run::resolveWorkspaceRun(workspace); }, m_runJob->lastCompiled());
    m_progress->showStarted(
        tr("Running %1 on %2…").arg(QFileInfo(m_modelPath).fileName(), text(m_chipEditor->spec().name)));
    updateRunAction();

    const QString compare = m_comparePicker->compareChip();
    if (compare.isEmpty()) {
        m_compareJob->cancel();
        m_views->setCompareRun(nullptr, {});
        return;
    }
    elk::run::RunRequest request = workspace.run;
    request.chip = compare.toStdString();
    request.chipOverrides.clear();
    request.preloadIngressGBpsPerCore.reset(); // the compare chip's own link bandwidth
    const auto preset = elk::chip::findBuiltinPreset(request.chip);
    m_compareLabel = preset ? compare : QFileInfo(compare).completeBaseName();
    m_compareJob->start([request] { return elk::run::resolveRunSpec(request); }, m_compareJob->lastCompiled());
}

void MainWindow::cancelRun()
{
    m_rerunTimer.stop();
    m_runJob->cancel();
    m_compareJob->cancel();
    m_sweepPanel->cancel();
}

void MainWindow::onRunFinished(elk::widgets::RunSnapshotPtr result, elk::store::CacheOutcome cache, double seconds)
{
    m_lastCache = cache;
    m_lastSeconds = seconds;
    m_views->setRun(result);
    updateDesignSelector();
    if (m_pendingStep) {
        m_views->setSelectedStep(int(*m_pendingStep));
        m_pendingStep.reset();
    }
    const QString source = cache.runHit ? tr("from the cache")
        : cache.partitionHit            ? tr("rescheduled")
                                        : tr("computed");
    QString summary = tr("%1 · %2 in %3 s").arg(runHeadline(*result, kHeadlineDesign), source).arg(seconds, 0, 'f', 2);
    const auto [splitCount, splitDetail] = pipelinedSplitSummary(*result);
    if (!splitCount.isEmpty())
        summary += tr(" · %1").arg(splitCount);
    m_progress->showEnded(summary);
    m_progress->stageLabel()->setToolTip(splitDetail);
    m_history->refresh(m_store.get());
    updateRunAction();
}

void MainWindow::onCompareFinished(elk::widgets::RunSnapshotPtr result)
{
    m_views->setCompareRun(std::move(result), m_compareLabel);
}

void MainWindow::updateDesignSelector()
{
    const elk::widgets::RunSnapshotPtr run = m_views->run();
    const QString wanted = !m_pendingDesign.isEmpty() ? std::exchange(m_pendingDesign, {})
        : m_designBox->currentIndex() >= 0            ? m_designBox->currentText()
                                                      : text(kHeadlineDesign);
    const QSignalBlocker blocker(m_designBox);
    m_designBox->clear();
    if (!run)
        return;
    for (const std::string& name : run->spec.designs)
        m_designBox->addItem(text(name));
    int index = m_designBox->findText(wanted);
    if (index < 0)
        index = std::max(0, m_designBox->findText(text(kHeadlineDesign)));
    m_designBox->setCurrentIndex(index);
    m_views->setDesignIndex(index);
}

void MainWindow::onDesignChosen(int index)
{
    if (index >= 0)
        m_views->setDesignIndex(index);
}

void MainWindow::onStepSelected(int step)
{
    // Execution step → the graph op the model pane's table lists (a split op's parts share one op).
    const elk::widgets::RunSnapshotPtr run = m_views->run();
    if (!run || !run->compiled || step < 0 || step >= int(run->problem.steps.size()))
        return;
    const int graphStep = run->problem.steps[std::size_t(step)].graphStep;
    if (graphStep < 0 || std::size_t(graphStep) >= run->compiled->analysis.order.size())
        return;
    m_modelPane->selectOp(int(run->compiled->analysis.order[std::size_t(graphStep)]));
}

void MainWindow::onOpActivated(int graphOp)
{
    const elk::widgets::RunSnapshotPtr run = m_views->run();
    if (!run || !run->compiled)
        return;
    const auto& order = run->compiled->analysis.order;
    const auto position = std::find(order.begin(), order.end(), elk::model::OpId(graphOp));
    if (position == order.end())
        return;
    const auto& steps = run->problem.steps;
    const int graphStep = int(position - order.begin());
    const auto first = std::find_if(
        steps.begin(), steps.end(), [&](const elk::schedule::Step& s) { return s.graphStep == graphStep; });
    if (first != steps.end())
        m_views->setSelectedStep(int(first - steps.begin()));
}

QString MainWindow::reopenRun(const QString& specHash)
{
    if (!m_store)
        return tr("no result cache is open");
    const std::optional<std::string> json = m_store->specJson(specHash.toStdString());
    if (!json) {
        showStatus(tr("That run is no longer in the cache."));
        return tr("run %1 is not in the result cache %2 (trimmed since, or made with "
                  "another result cache)")
            .arg(specHash.left(12), QString::fromStdString(m_store->path()));
    }
    const elk::run::RunSpecParseResult parsed = elk::run::runSpecFromJson(*json);
    if (!parsed.ok()) {
        const QString why = errorLines(parsed.errors).section(QLatin1Char('\n'), 0, 0);
        showStatus(tr("Cannot reopen that run: %1").arg(why), 0);
        return tr("cannot reopen run %1: %2").arg(specHash.left(12), why);
    }
    applyRunSpecToControls(parsed.spec);
    m_hasRun = true;
    m_runJob->start(parsed.spec, m_runJob->lastCompiled());
    const QString model = QFileInfo(text(parsed.spec.model.path)).fileName();
    m_progress->showStarted(tr("Reopening %1 on %2…").arg(model, text(parsed.spec.chip.name)));
    updateRunAction();
    return {};
}

void MainWindow::applyRunSpecToControls(const elk::run::RunSpec& spec)
{
    // The controls show the reopened run, without re-running on their own.
    m_applying = true;
    m_rerunTimer.stop();
    if (spec.chip != m_chipEditor->spec())
        m_chipEditor->setSpec(spec.chip);
    elk::widgets::RunParameters run;
    run.phase = spec.phase;
    run.batch = spec.batch;
    run.seqLen = spec.seqLen;
    run.kvLen = spec.kvLen;
    run.dims = spec.dims;
    run.inputShapes = spec.inputShapes;
    m_modelPane->setRunParameters(run);
    m_runTemplate.designs = spec.designs;
    m_runTemplate.preloadNocThreshold = spec.options.preloadNocThreshold;
    m_runTemplate.preloadIngressGBpsPerCore = spec.options.preloadIngressGBpsPerCore;
    m_runTemplate.delayCompute = spec.options.delayCompute;
    m_runTemplate.seed = spec.options.seed;
    if (text(spec.model.path) != m_modelPath || m_modelPane->snapshot() == nullptr
        || m_modelPane->snapshot()->run != run)
        openModel(text(spec.model.path));
    m_applying = false;
    m_rerunTimer.stop();
}

// ---- exports ---------------------------------------------------------------------------------

void MainWindow::exportFigureDialog()
{
    elk::widgets::PlotView* view = m_views->currentPlotView();
    if (!view || !view->hasData()) {
        showStatus(tr("Nothing to export here: pick a view that shows a run."));
        return;
    }
    const QString folder = m_lastExportFolder.isEmpty() ? QDir::homePath() : m_lastExportFolder;
    FigureExportDialog dialog(QDir(folder).filePath(view->figureKind() + QStringLiteral(".pdf")), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_lastExportFolder = QFileInfo(dialog.path()).absolutePath();
    if (const QString error = view->exportFigure(dialog.path(), dialog.style()); !error.isEmpty())
        QMessageBox::warning(this, tr("Export figure"), error);
    else
        showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())));
}

void MainWindow::exportRunDialog()
{
    const elk::widgets::RunSnapshotPtr run = m_views->run();
    if (!run) {
        showStatus(tr("Nothing to export yet: run first."));
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Export run into folder"), m_lastExportFolder.isEmpty() ? QDir::homePath() : m_lastExportFolder);
    if (folder.isEmpty())
        return;
    m_lastExportFolder = folder;
    const RunFolderExport written = exportRunFolder(*run, folder);
    if (!written.ok())
        QMessageBox::warning(this, tr("Export run"), written.error);
    else
        showStatus(tr("Wrote %1 files to %2").arg(written.files.size()).arg(QDir::toNativeSeparators(folder)));
}

// ---- state -----------------------------------------------------------------------------------

void MainWindow::updateRunAction()
{
    const bool chipValid = m_chipEditor->isValid();
    const auto model = m_modelPane->snapshot();
    const bool modelLoaded = model && model->ok();
    m_runAction->setEnabled(chipValid && modelLoaded);
    m_runAction->setToolTip(!chipValid ? tr("Fix the chip spec's problems to run")
            : !modelLoaded             ? tr("Open a model that loads without problems to run")
                                       : tr("Run the model on this chip (every design)"));
    m_cancelAction->setEnabled(m_runJob->isRunning());
    const int problems = int(m_chipEditor->problems().size());
    m_validity->setText(chipValid ? tr("Chip spec valid") : tr("Chip spec: %n problem(s)", nullptr, problems));
}

void MainWindow::updateTitle()
{
    const QString name = text(m_chipEditor->spec().name);
    const QString workspace
        = m_workspacePath.isEmpty() ? QString() : QFileInfo(m_workspacePath).fileName() + QStringLiteral(" — ");
    setWindowTitle(tr("%1%2[*] — Elk Studio").arg(workspace, name.isEmpty() ? tr("untitled chip") : name));
    updateRunAction(); // the problem count changes without a validity change
}

void MainWindow::showStatus(const QString& message, int timeoutMs)
{
    statusBar()->showMessage(message, timeoutMs);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isWindowModified()) {
        const auto answer
            = QMessageBox::question(this, tr("Unsaved chip"), tr("The chip spec has unsaved changes. Save them?"),
                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            m_chipEditor->saveJsonDialog();
            if (!m_chipEditor->undoStack()->isClean()) {
                event->ignore();
                return;
            }
        }
    }
    m_classroom->setOn(false); // its font is not the saved state
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    event->accept();
}

} // namespace elk::app
