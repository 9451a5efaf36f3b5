// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk-studio [--chip PRESET|FILE] [--workspace FILE]
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTextStream>
#include <QUndoStack>

#include "app/studio/main_window.h"
#include "app/studio/workspace_file.h"
#include "engine/chip/presets.h"
#include "engine/core/version.h"
#include "widgets/chip_editor/chip_editor.h"

namespace {

constexpr int kExitBadInput = 2;
const QString kDefaultChip = QStringLiteral("ipu-pod4-hbm");

int fail(const QString& message)
{
    QTextStream(stderr) << "elk-studio: " << message << '\n';
    return kExitBadInput;
}

} // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("elk-studio"));
    QApplication::setOrganizationName(QStringLiteral("Elk Studio"));
    QApplication::setApplicationVersion(QString::fromLatin1(elk::kEngineVersion));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Elk Studio: explore inter-core connected AI chips."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption chipOption(QStringLiteral("chip"),
                                        QStringLiteral("Chip to open: a built-in preset name or an elk.chip/1 JSON file "
                                                       "(default: the workspace's chip, else %1).")
                                            .arg(kDefaultChip),
                                        QStringLiteral("PRESET|FILE"));
    const QCommandLineOption workspaceOption(QStringLiteral("workspace"),
                                             QStringLiteral("Workspace file (elk.workspace/1) naming model and chip."),
                                             QStringLiteral("FILE"));
    parser.addOption(chipOption);
    parser.addOption(workspaceOption);
    parser.process(app);

    QString chip = kDefaultChip;
    QDir chipBase = QDir::current();
    QString workspaceNote;
    if (parser.isSet(workspaceOption)) {
        elk::app::WorkspaceFile workspace;
        QString error;
        if (!elk::app::readWorkspaceFile(parser.value(workspaceOption), workspace, error))
            return fail(error);
        chip = workspace.chip;
        chipBase = QFileInfo(parser.value(workspaceOption)).absoluteDir();
        if (!workspace.modelPath.isEmpty())
            workspaceNote = QStringLiteral("Workspace model %1 is not opened yet: model import arrives with a later issue.")
                                .arg(workspace.modelPath);
    }
    if (parser.isSet(chipOption)) {
        chip = parser.value(chipOption);
        chipBase = QDir::current();
    }

    elk::app::MainWindow window;
    elk::widgets::ChipEditor* editor = window.chipEditor();
    if (elk::chip::findBuiltinPreset(chip.toStdString())) {
        editor->loadPreset(chip);
    } else if (const QString path = chipBase.absoluteFilePath(chip); QFileInfo::exists(path)) {
        if (!editor->loadJsonFile(path))
            return fail(editor->fileError());
    } else {
        QStringList names;
        for (const auto& preset : elk::chip::builtinPresets())
            names << QString::fromStdString(preset.name);
        return fail(QStringLiteral("--chip %1: no such preset or file (presets: %2)").arg(chip, names.join(QStringLiteral(", "))));
    }
    editor->undoStack()->clear(); // the opened chip is the starting point, not an undoable step
    if (!workspaceNote.isEmpty())
        window.statusBar()->showMessage(workspaceNote, 10000);

    window.show();
    return app.exec();
}
