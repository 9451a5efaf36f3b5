// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

#include "app/studio/model_loader.h"
#include "app/studio/studio_workspace.h"
#include "engine/chip/presets.h"
#include "engine/run/workspace.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_summary_view.h"
#include "widgets/model/quantity_format.h"

namespace elk::app {

namespace {
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
constexpr int kStatusMs = 8000;
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_chipEditor(new elk::widgets::ChipEditor(this))
    , m_modelView(new elk::widgets::ModelSummaryView)
    , m_modelLoader(new ModelLoader(this))
{
    setCentralWidget(m_chipEditor);
    auto* modelDock = new QDockWidget(tr("Model"), this);
    modelDock->setObjectName(QStringLiteral("modelDock"));
    modelDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    modelDock->setWidget(m_modelView);
    addDockWidget(Qt::LeftDockWidgetArea, modelDock);
    buildMenusAndToolBar();

    m_validity = new QLabel;
    statusBar()->addPermanentWidget(m_validity);
    connect(m_chipEditor, &elk::widgets::ChipEditor::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
    connect(m_chipEditor, &elk::widgets::ChipEditor::validityChanged, this, &MainWindow::updateRunAction);
    connect(m_chipEditor, &elk::widgets::ChipEditor::specChanged, this, &MainWindow::updateTitle);
    connect(m_chipEditor->undoStack(), &QUndoStack::cleanChanged, this,
            [this](bool clean) { setWindowModified(!clean); });
    connect(m_modelLoader, &ModelLoader::modelLoaded, this, &MainWindow::onModelLoaded);
    updateRunAction();
    updateTitle();

    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QSize available = screen() ? screen()->availableSize() : QSize(1280, 800);
        resize(available.boundedTo(QSize(1600, 1000)) * 0.95);
    }
    restoreState(settings.value(kStateKey).toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenusAndToolBar()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open chip…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, m_chipEditor, &elk::widgets::ChipEditor::openJsonDialog);
    QAction* save = file->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save chip…"));
    save->setShortcut(QKeySequence::Save);
    connect(save, &QAction::triggered, m_chipEditor, &elk::widgets::ChipEditor::saveJsonDialog);
    QAction* openModelAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-import")), tr("Open &model…"));
    openModelAction->setObjectName(QStringLiteral("openModelAction"));
    openModelAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    connect(openModelAction, &QAction::triggered, this, &MainWindow::openModelDialog);
    file->addSeparator();
    QAction* quit = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_chipEditor->undoAction());
    edit->addAction(m_chipEditor->redoAction());

    m_runAction = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(Qt::CTRL | Qt::Key_R);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    connect(m_runAction, &QAction::triggered, this, &MainWindow::onRunRequested);

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(open);
    tools->addAction(save);
    tools->addAction(openModelAction);
    tools->addSeparator();
    tools->addAction(m_runAction);
}

QString MainWindow::openWorkspace(const elk::run::Workspace& workspace)
{
    m_run = runParametersOf(workspace.run);
    if (!workspace.modelPath.empty())
        openModel(QString::fromStdString(workspace.modelPath));
    return openChip(QString::fromStdString(workspace.chip));
}

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
            names << QString::fromStdString(preset.name);
        return tr("%1: no such chip preset or file (presets: %2)").arg(presetOrPath, names.join(QStringLiteral(", ")));
    }
    m_chipEditor->undoStack()->clear(); // the opened chip is the starting point, not an undoable step
    return {};
}

void MainWindow::openModel(const QString& path)
{
    m_modelView->showLoading(path);
    updateRunAction();
    statusBar()->showMessage(tr("Loading model %1…").arg(QFileInfo(path).fileName()));
    m_modelLoader->start(path, m_run);
}

void MainWindow::openModelDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), m_lastModelDirectory,
                                                      tr("Elk graph models (*.elk.json);;JSON files (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    m_lastModelDirectory = QFileInfo(path).absolutePath();
    openModel(path);
}

void MainWindow::onModelLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot)
{
    if (snapshot->ok()) {
        const elk::model::GraphSummary& summary = snapshot->summary;
        statusBar()->showMessage(tr("Model %1 loaded: %2 ops, %3")
                                     .arg(QString::fromStdString(summary.name), elk::widgets::formatCount(summary.opCount),
                                          elk::widgets::formatFlops(summary.flops)),
                                 kStatusMs);
    } else {
        statusBar()->showMessage(tr("Model not loaded: %1").arg(snapshot->error.section(QLatin1Char('\n'), 0, 0)));
    }
    m_modelView->setSummary(std::move(snapshot));
    updateRunAction();
}

void MainWindow::onRunRequested()
{
    // Nothing runs yet: the compiler and simulator arrive with their own issues.
    statusBar()->showMessage(tr("Running a model arrives with the compiler issue; nothing was run."), kStatusMs);
}

void MainWindow::updateRunAction()
{
    const bool chipValid = m_chipEditor->isValid();
    const auto model = m_modelView->summary();
    const bool modelLoaded = model && model->ok();
    m_runAction->setEnabled(chipValid && modelLoaded);
    m_runAction->setToolTip(!chipValid     ? tr("Fix the chip spec's problems to run")
                                : !modelLoaded ? tr("Open a model that loads without problems to run")
                                               : tr("Run the model on this chip"));
    const int problems = int(m_chipEditor->problems().size());
    m_validity->setText(chipValid ? tr("Chip spec valid") : tr("Chip spec: %n problem(s)", nullptr, problems));
}

void MainWindow::updateTitle()
{
    const QString name = QString::fromStdString(m_chipEditor->spec().name);
    setWindowTitle(tr("%1[*] — Elk Studio").arg(name.isEmpty() ? tr("untitled chip") : name));
    if (!m_chipEditor->isValid())
        updateRunAction(); // the problem count changes without a validity change
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isWindowModified()) {
        const auto answer = QMessageBox::question(this, tr("Unsaved chip"),
                                                  tr("The chip spec has unsaved changes. Save them?"),
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
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    event->accept();
}

} // namespace elk::app
