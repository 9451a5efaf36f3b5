// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/main_window.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/studio/cache_limit.h"
#include "app/studio/classroom_mode.h"
#include "app/studio/diff_page.h"
#include "app/studio/history_diff.h"
#include "app/studio/history_dock.h"
#include "app/studio/hlo_page.h"
#include "app/studio/main_menus.h"
#include "app/studio/model_controller.h"
#include "app/studio/paper_page.h"
#include "app/studio/run_job.h"
#include "app/studio/run_progress.h"
#include "app/studio/run_views.h"
#include "app/studio/studio_exports.h"
#include "app/studio/sweep_panel.h"
#include "app/studio/workspace_controller.h"
#include "widgets/chip_editor/chip_compare_picker.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/model_summary_view.h"

namespace elk::app {

namespace {
    const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
    const QString kStateKey = QStringLiteral("mainWindow/state");
} // namespace

MainWindow::MainWindow(const QString& storePath, QWidget* parent)
    : QMainWindow(parent)
    , m_chipEditor(new elk::widgets::ChipEditor)
    , m_comparePicker(new elk::widgets::ChipComparePicker)
    , m_modelPane(new elk::widgets::ModelPane)
    , m_sweepPanel(new SweepPanel)
    , m_hloPage(new HloPage)
    , m_historyDiff(new HistoryDiffLoader(this))
    , m_progress(new RunProgress)
    , m_designBox(new QComboBox)
{
    openStore(storePath);
    m_cacheLimit = new CacheLimit(m_store.get(), this);
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
    m_views = new RunViews(chipPage, m_sweepPanel, m_hloPage, paperPage);
    setCentralWidget(m_views);
    m_classroom = new ClassroomMode(this, m_views);
    buildDocks();

    const StudioParts parts { m_chipEditor, m_comparePicker, m_modelPane, m_views, m_hloPage, m_history, m_progress,
        m_designBox, m_store.get(), [this](const QString& message, int timeoutMs) { showStatus(message, timeoutMs); } };
    m_model = new ModelController(parts, this);
    m_workspaces = new WorkspaceController(parts, m_model, this);
    m_runs = new RunController(parts, m_model, m_workspaces, this);
    m_exports = new StudioExports(parts, this);
    const MainMenus menus = buildMainMenus(*this);
    m_runAction = menus.runAction;
    m_cancelAction = menus.cancelAction;
    m_validity = new QLabel;
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_validity);
    wireControllers();
    wireViews();

    m_history->refresh(m_store.get());
    m_cacheLimit->trimInBackground();
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
    delete m_runs;
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
        m_storeMessage = tr("No result cache (%1); runs are not kept.").arg(QString::fromStdString(opened.error));
    else if (!opened.message.empty())
        m_storeMessage = QString::fromStdString(opened.message);
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

void MainWindow::wireControllers()
{
    const auto status = [this](const QString& message) { showStatus(message); };
    connect(m_cacheLimit, &CacheLimit::trimmed, this, [this](const QString& message) { showStatus(message, 8000); });
    connect(m_chipEditor, &elk::widgets::ChipEditor::statusMessage, this,
        [this](const QString& message) { showStatus(message, 5000); });
    connect(m_chipEditor, &elk::widgets::ChipEditor::validityChanged, this, &MainWindow::updateRunAction);
    connect(m_chipEditor, &elk::widgets::ChipEditor::specChanged, this, [this] {
        updateTitle();
        if (m_chipEditor->isValid())
            m_runs->rerunSoon();
    });
    connect(
        m_chipEditor->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });
    connect(m_comparePicker, &elk::widgets::ChipComparePicker::compareChipChanged, m_runs, &RunController::rerunSoon);
    connect(m_modelPane, &elk::widgets::ModelPane::modelRequested, m_model, &ModelController::openModel);
    connect(m_modelPane, &elk::widgets::ModelPane::runParametersChanged, this, [this] {
        m_model->reload(); // the op table follows the new shapes; a run that was shown follows them too
        m_runs->rerunSoon();
    });
    connect(m_model, &ModelController::stateChanged, this, &MainWindow::updateRunAction);
    connect(m_model, &ModelController::readyToRun, this, [this] {
        if (m_chipEditor->isValid())
            m_runs->startRun();
    });
    connect(m_workspaces, &WorkspaceController::pathChanged, this, &MainWindow::updateTitle);
    connect(m_runs, &RunController::stateChanged, this, &MainWindow::updateRunAction);
    connect(m_progress, &RunProgress::cancelRequested, this, &MainWindow::cancelRun);
    m_historyDiff->setStore(m_store.get());
    m_sweepPanel->setStore(m_store.get());
    m_hloPage->setStore(m_store.get());
    m_sweepPanel->setBaseProvider([this] {
        // Cheap: the sweep resolves its points on its workers (model hash included).
        SweepBase base;
        base.chip = m_chipEditor->spec();
        if (m_model->modelPath().isEmpty())
            base.error = tr("open a model first");
        else if (!m_chipEditor->isValid())
            base.error = tr("the chip spec has problems");
        base.request = currentWorkspace().run;
        return base;
    });
    connect(m_sweepPanel, &SweepPanel::statusMessage, this, status);
    connect(m_hloPage, &HloPage::statusMessage, this, status);
    connect(m_views->paperPage(), &PaperPage::statusMessage, this, status);
}

void MainWindow::wireViews()
{
    connect(m_designBox, &QComboBox::currentIndexChanged, m_runs, &RunController::chooseDesign);
    connect(m_views, &RunViews::designPicked, m_designBox, &QComboBox::setCurrentIndex);
    connect(m_views, &RunViews::stepSelected, m_runs, &RunController::selectOpOfStep);
    connect(m_modelPane, &elk::widgets::ModelPane::opActivated, m_runs, &RunController::selectStepOfOp);
    connect(m_history, &HistoryDock::reopenRequested, this, &MainWindow::reopenRun);
    connect(m_history, &HistoryDock::diffRequested, m_historyDiff, &HistoryDiffLoader::load);
    connect(
        m_historyDiff, &HistoryDiffLoader::failed, this, [this](const QString& message) { showStatus(message, 0); });
    connect(m_historyDiff, &HistoryDiffLoader::loaded, this,
        [this](elk::widgets::RunSnapshotPtr run, const QString& label) {
            m_views->diffPage()->setHistoryRun(std::move(run), label);
            m_views->setCurrentKind(QStringLiteral("diff"));
        });
}

// ---- what the controllers do, under the names tests and the command line use ----------------

QString MainWindow::openWorkspace(const elk::run::Workspace& workspace)
{
    return m_workspaces->openWorkspace(workspace);
}
QString MainWindow::openWorkspaceFile(const QString& path)
{
    return m_workspaces->openWorkspaceFile(path);
}
QString MainWindow::saveWorkspaceFile(const QString& path)
{
    return m_workspaces->saveWorkspaceFile(path);
}
elk::run::Workspace MainWindow::currentWorkspace() const
{
    return m_workspaces->currentWorkspace();
}
QString MainWindow::openChip(const QString& presetOrPath)
{
    return m_workspaces->openChip(presetOrPath);
}
void MainWindow::openModel(const QString& pathOrBundledName)
{
    m_model->openModel(pathOrBundledName);
}
void MainWindow::openHloModule(const QString& path, bool run)
{
    m_model->openHloModule(path, run);
}
elk::run::RunSpecResult MainWindow::currentRunSpec() const
{
    return m_runs->currentRunSpec();
}
elk::widgets::ModelSummaryView* MainWindow::modelView() const
{
    return m_modelPane->findChild<elk::widgets::ModelSummaryView*>();
}
elk::widgets::RunSnapshotPtr MainWindow::lastRun() const
{
    return m_views->run();
}
void MainWindow::startRun()
{
    m_runs->startRun();
}
void MainWindow::cancelRun()
{
    m_runs->cancelRun();
    m_sweepPanel->cancel();
}
QString MainWindow::reopenRun(const QString& specHash)
{
    return m_runs->reopenRun(specHash);
}
void MainWindow::exportFigureDialog()
{
    m_exports->exportFigureDialog();
}
void MainWindow::exportRunDialog()
{
    m_exports->exportRunDialog();
}
void MainWindow::openWorkspaceDialog()
{
    m_workspaces->openWorkspaceDialog();
}
void MainWindow::saveWorkspaceDialog()
{
    m_workspaces->saveWorkspaceDialog();
}
void MainWindow::openModelDialog()
{
    m_model->openModelDialog(this);
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
    m_cancelAction->setEnabled(m_runs->isRunning());
    const int problems = int(m_chipEditor->problems().size());
    m_validity->setText(chipValid ? tr("Chip spec valid") : tr("Chip spec: %n problem(s)", nullptr, problems));
}

void MainWindow::updateTitle()
{
    const QString name = QString::fromStdString(m_chipEditor->spec().name);
    const QString path = m_workspaces->workspacePath();
    const QString workspace = path.isEmpty() ? QString() : QFileInfo(path).fileName() + QStringLiteral(" — ");
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
