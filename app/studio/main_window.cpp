// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

#include "widgets/chip_editor/chip_editor.h"

namespace elk::app {

namespace {
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_chipEditor(new elk::widgets::ChipEditor(this))
{
    setCentralWidget(m_chipEditor);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open chip…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, m_chipEditor, &elk::widgets::ChipEditor::openJsonDialog);
    QAction* save = file->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save chip…"));
    save->setShortcut(QKeySequence::Save);
    connect(save, &QAction::triggered, m_chipEditor, &elk::widgets::ChipEditor::saveJsonDialog);
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
    tools->addSeparator();
    tools->addAction(m_runAction);

    m_validity = new QLabel;
    statusBar()->addPermanentWidget(m_validity);
    connect(m_chipEditor, &elk::widgets::ChipEditor::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
    connect(m_chipEditor, &elk::widgets::ChipEditor::validityChanged, this, &MainWindow::onValidityChanged);
    connect(m_chipEditor, &elk::widgets::ChipEditor::specChanged, this, &MainWindow::updateTitle);
    connect(m_chipEditor->undoStack(), &QUndoStack::cleanChanged, this,
            [this](bool clean) { setWindowModified(!clean); });
    onValidityChanged(m_chipEditor->isValid());
    updateTitle();

    resize(1280, 800);
    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
}

void MainWindow::onRunRequested()
{
    // Nothing runs yet: the compiler and simulator arrive with their own issues.
    statusBar()->showMessage(tr("Running a model arrives with the compiler issue; nothing was run."), 8000);
}

void MainWindow::onValidityChanged(bool valid)
{
    m_runAction->setEnabled(valid);
    m_runAction->setToolTip(valid ? tr("Run the model on this chip") : tr("Fix the chip spec's problems to run"));
    const int problems = int(m_chipEditor->problems().size());
    m_validity->setText(valid ? tr("Chip spec valid") : tr("Chip spec: %n problem(s)", nullptr, problems));
}

void MainWindow::updateTitle()
{
    const QString name = QString::fromStdString(m_chipEditor->spec().name);
    setWindowTitle(tr("%1[*] — Elk Studio").arg(name.isEmpty() ? tr("untitled chip") : name));
    if (!m_chipEditor->isValid())
        onValidityChanged(false); // the problem count changes without a validity change
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
