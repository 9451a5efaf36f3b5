// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/workspace_controller.h"

#include <utility>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>
#include <QUndoStack>

#include "app/studio/model_controller.h"
#include "app/studio/recent_files.h"
#include "app/studio/run_views.h"
#include "app/studio/studio_workspace.h"
#include "engine/run/chips.h"
#include "widgets/chip_editor/chip_compare_picker.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_pane.h"

namespace elk::app {

namespace {
    const QString kRecentWorkspacesKey = QStringLiteral("mainWindow/recentWorkspaces");

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

WorkspaceController::WorkspaceController(const StudioParts& parts, ModelController* model, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_parts(parts)
    , m_model(model)
    , m_dialogParent(dialogParent)
    , m_recent(new RecentFilesMenu(tr("Open &recent workspace"), kRecentWorkspacesKey, dialogParent))
{
    connect(m_recent, &RecentFilesMenu::fileChosen, this, [this](const QString& path) {
        if (const QString error = openWorkspaceFile(path); !error.isEmpty())
            QMessageBox::warning(m_dialogParent, tr("Open workspace"), error);
    });
}

QString WorkspaceController::openWorkspace(const elk::run::Workspace& workspace)
{
    m_applying = true;
    m_runTemplate = workspace.run;
    m_parts.modelPane->setRunParameters(runParametersOf(workspace.run));
    QString error;
    if (workspace.embeddedChip) {
        m_parts.chipEditor->setSpec(*workspace.embeddedChip);
    } else if (!workspace.run.chipOverrides.empty()) {
        const elk::run::ChipResolveResult chip = elk::run::resolveChip(workspace.chip, workspace.run.chipOverrides);
        if (chip.ok())
            m_parts.chipEditor->setSpec(chip.spec);
        else
            error = errorLines(chip.errors);
    } else {
        error = openChip(text(workspace.chip));
    }
    m_parts.comparePicker->setCompareChip(text(workspace.compareChip));
    if (!workspace.views.current.empty())
        m_parts.views->setCurrentKind(text(workspace.views.current));
    m_pendingDesign = text(workspace.views.selectedDesign);
    m_pendingStep = workspace.views.selectedStep;
    m_workspacePath = text(workspace.filePath);
    m_applying = false;
    if (!workspace.modelPath.empty()) {
        m_model->runWhenLoaded(error.isEmpty());
        m_model->openModel(text(workspace.modelPath));
    }
    emit pathChanged();
    return error;
}

QString WorkspaceController::openWorkspaceFile(const QString& path)
{
    const elk::run::WorkspaceParseResult parsed = elk::run::loadWorkspaceFile(path.toStdString());
    if (!parsed.ok())
        return workspaceErrorText(parsed);
    const QString error = openWorkspace(parsed.workspace);
    if (error.isEmpty()) {
        m_recent->add(path);
        QStringList warnings;
        for (const std::string& warning : parsed.warnings)
            warnings << text(warning);
        m_parts.showStatus(
            warnings.isEmpty() ? tr("Opened %1").arg(QFileInfo(path).fileName()) : warnings.join(QLatin1Char(' ')),
            8000);
    }
    return error;
}

elk::run::Workspace WorkspaceController::currentWorkspace() const
{
    elk::run::Workspace workspace;
    workspace.filePath = m_workspacePath.toStdString();
    workspace.modelPath = m_model->modelPath().toStdString();
    const elk::chip::ChipSpec chip = m_parts.chipEditor->spec();
    const auto preset = elk::chip::findBuiltinPreset(chip.name);
    if (preset && *preset == chip)
        workspace.chip = chip.name;
    else
        workspace.embeddedChip = chip;
    workspace.compareChip = m_parts.comparePicker->compareChip().toStdString();
    workspace.run = m_runTemplate;
    workspace.run.modelPath = workspace.modelPath;
    workspace.run.chip = workspace.chip;
    workspace.run.chipOverrides.clear(); // the editor's spec already holds every change
    const elk::widgets::RunParameters run = m_parts.modelPane->runParameters();
    workspace.run.phase = run.phase;
    workspace.run.batch = run.batch;
    workspace.run.seqLen = run.seqLen;
    workspace.run.kvLen = run.kvLen;
    workspace.run.dims = run.dims;
    workspace.run.inputShapes = run.inputShapes;
    for (const QString& kind : RunViews::tabKinds())
        workspace.views.open.push_back(kind.toStdString());
    workspace.views.current = m_parts.views->currentKind().toStdString();
    if (m_parts.designBox->currentIndex() >= 0)
        workspace.views.selectedDesign = m_parts.designBox->currentText().toStdString();
    if (m_parts.views->selectedStep() >= 0)
        workspace.views.selectedStep = m_parts.views->selectedStep();
    return workspace;
}

QString WorkspaceController::saveWorkspaceFile(const QString& path)
{
    const std::string json = elk::run::workspaceToJson(currentWorkspace(), path.toStdString());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json.data(), qint64(json.size())) != qint64(json.size())
        || !file.commit())
        return tr("%1: cannot write: %2").arg(path, file.errorString());
    m_workspacePath = path;
    m_recent->add(path);
    emit pathChanged();
    m_parts.showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()), 8000);
    return {};
}

void WorkspaceController::openWorkspaceDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Open workspace"),
        QFileInfo(m_workspacePath).absolutePath(), tr("Elk workspaces (*.elkproj *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = openWorkspaceFile(path); !error.isEmpty())
        QMessageBox::warning(m_dialogParent, tr("Open workspace"), error);
}

void WorkspaceController::saveWorkspaceDialog()
{
    QString path = QFileDialog::getSaveFileName(m_dialogParent, tr("Save workspace"),
        m_workspacePath.endsWith(QLatin1String(".elkproj")) ? m_workspacePath : QString(),
        tr("Elk workspaces (*.elkproj)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".elkproj");
    if (const QString error = saveWorkspaceFile(path); !error.isEmpty())
        QMessageBox::warning(m_dialogParent, tr("Save workspace"), error);
}

QString WorkspaceController::openChip(const QString& presetOrPath)
{
    elk::widgets::ChipEditor* editor = m_parts.chipEditor;
    if (elk::chip::findBuiltinPreset(presetOrPath.toStdString())) {
        editor->loadPreset(presetOrPath);
    } else if (QFileInfo::exists(presetOrPath)) {
        if (!editor->loadJsonFile(presetOrPath))
            return editor->fileError();
    } else {
        QStringList names;
        for (const auto& preset : elk::chip::builtinPresets())
            names << text(preset.name);
        return tr("%1: no such chip preset or file (presets: %2)").arg(presetOrPath, names.join(QStringLiteral(", ")));
    }
    editor->undoStack()->clear(); // the opened chip is the starting point, not an undoable step
    return {};
}

void WorkspaceController::applyRunSpec(const elk::run::RunSpec& spec)
{
    m_applying = true;
    if (spec.chip != m_parts.chipEditor->spec())
        m_parts.chipEditor->setSpec(spec.chip);
    elk::widgets::RunParameters run;
    run.phase = spec.phase;
    run.batch = spec.batch;
    run.seqLen = spec.seqLen;
    run.kvLen = spec.kvLen;
    run.dims = spec.dims;
    run.inputShapes = spec.inputShapes;
    m_parts.modelPane->setRunParameters(run);
    m_runTemplate.designs = spec.designs;
    m_runTemplate.preloadNocThreshold = spec.options.preloadNocThreshold;
    m_runTemplate.preloadIngressGBpsPerCore = spec.options.preloadIngressGBpsPerCore;
    m_runTemplate.delayCompute = spec.options.delayCompute;
    m_runTemplate.seed = spec.options.seed;
    const auto shown = m_parts.modelPane->snapshot();
    if (text(spec.model.path) != m_model->modelPath() || shown == nullptr || shown->run != run)
        m_model->openModel(text(spec.model.path));
    m_applying = false;
}

} // namespace elk::app
