// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/main_menus.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QToolBar>

#include "app/studio/cache_limit.h"
#include "app/studio/classroom_mode.h"
#include "app/studio/main_window.h"
#include "app/studio/recent_files.h"
#include "app/studio/workspace_controller.h"
#include "widgets/chip_editor/chip_editor.h"

namespace elk::app {

namespace {
    QIcon icon(const char* name)
    {
        return QIcon::fromTheme(QLatin1String(name));
    }

    QAction* addAction(QMenu* menu, const char* iconName, const QString& text, const char* objectName,
        const QKeySequence& shortcut = {})
    {
        QAction* action = iconName ? menu->addAction(icon(iconName), text) : menu->addAction(text);
        if (objectName)
            action->setObjectName(QLatin1String(objectName));
        action->setShortcut(shortcut);
        return action;
    }
} // namespace

MainMenus buildMainMenus(MainWindow& window)
{
    MainMenus menus;
    elk::widgets::ChipEditor* chipEditor = window.chipEditor();
    QMenu* file = window.menuBar()->addMenu(MainWindow::tr("&File"));
    QAction* openWorkspace = addAction(
        file, "document-open", MainWindow::tr("&Open workspace…"), "openWorkspaceAction", QKeySequence::Open);
    QObject::connect(openWorkspace, &QAction::triggered, &window, &MainWindow::openWorkspaceDialog);
    file->addMenu(window.workspaces()->recentWorkspacesMenu());
    QAction* saveWorkspace = addAction(
        file, "document-save", MainWindow::tr("&Save workspace…"), "saveWorkspaceAction", QKeySequence::Save);
    QObject::connect(saveWorkspace, &QAction::triggered, &window, &MainWindow::saveWorkspaceDialog);
    file->addSeparator();
    QAction* openModel = addAction(file, "document-import", MainWindow::tr("Open &model…"), "openModelAction",
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QObject::connect(openModel, &QAction::triggered, &window, &MainWindow::openModelDialog);
    QObject::connect(addAction(file, nullptr, MainWindow::tr("Open &chip…"), nullptr), &QAction::triggered, chipEditor,
        &elk::widgets::ChipEditor::openJsonDialog);
    QObject::connect(addAction(file, nullptr, MainWindow::tr("Save c&hip…"), nullptr), &QAction::triggered, chipEditor,
        &elk::widgets::ChipEditor::saveJsonDialog);
    file->addSeparator();
    QAction* exportFigure = addAction(file, "document-export", MainWindow::tr("Export &figure…"), "exportFigureAction",
        QKeySequence(Qt::CTRL | Qt::Key_E));
    QObject::connect(exportFigure, &QAction::triggered, &window, &MainWindow::exportFigureDialog);
    QAction* exportRun = addAction(file, nullptr, MainWindow::tr("Export r&un…"), "exportRunAction",
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QObject::connect(exportRun, &QAction::triggered, &window, &MainWindow::exportRunDialog);
    QAction* cacheLimit = addAction(file, nullptr, MainWindow::tr("Result cache si&ze…"), "cacheLimitAction");
    QObject::connect(cacheLimit, &QAction::triggered, window.cacheLimit(), &CacheLimit::askLimit);
    file->addSeparator();
    QAction* quit = addAction(file, "application-exit", MainWindow::tr("&Quit"), nullptr, QKeySequence::Quit);
    QObject::connect(quit, &QAction::triggered, &window, &QWidget::close);

    QMenu* edit = window.menuBar()->addMenu(MainWindow::tr("&Edit"));
    edit->addAction(chipEditor->undoAction());
    edit->addAction(chipEditor->redoAction());

    QMenu* run = window.menuBar()->addMenu(MainWindow::tr("&Run"));
    menus.runAction = addAction(
        run, "media-playback-start", MainWindow::tr("&Run"), "runAction", QKeySequence(Qt::CTRL | Qt::Key_R));
    QObject::connect(menus.runAction, &QAction::triggered, &window, &MainWindow::startRun);
    menus.cancelAction = addAction(run, "process-stop", MainWindow::tr("&Cancel run"), "cancelAction");
    QObject::connect(menus.cancelAction, &QAction::triggered, &window, &MainWindow::cancelRun);

    QMenu* view = window.menuBar()->addMenu(MainWindow::tr("&View"));
    QAction* classroom
        = addAction(view, nullptr, MainWindow::tr("&Classroom mode"), "classroomModeAction", Qt::Key_F11);
    classroom->setCheckable(true);
    QObject::connect(classroom, &QAction::toggled, window.classroomMode(), &ClassroomMode::setOn);
    QObject::connect(window.classroomMode(), &ClassroomMode::toggled, classroom, &QAction::setChecked);
    view->addSeparator();
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QToolBar* tools = window.addToolBar(MainWindow::tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(openWorkspace);
    tools->addAction(saveWorkspace);
    tools->addSeparator();
    tools->addAction(menus.runAction);
    tools->addSeparator();
    tools->addWidget(new QLabel(MainWindow::tr("Design: ")));
    menus.designBox = window.designSelector();
    menus.designBox->setObjectName(QStringLiteral("designSelector"));
    menus.designBox->setToolTip(MainWindow::tr("The design the timeline, links, Pareto and classroom views show"));
    menus.designBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tools->addWidget(menus.designBox);
    tools->addSeparator();
    tools->addAction(exportFigure);
    return menus;
}

} // namespace elk::app
