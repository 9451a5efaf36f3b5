// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>

#include <QObject>
#include <QString>

#include "app/studio/studio_parts.h"
#include "engine/run/run_spec.h"
#include "engine/run/workspace.h"

class QWidget;

namespace elk::app {

class ModelController;
class RecentFilesMenu;

/// What the controls hold, as a workspace: opens one into the chip editor, compare picker, model
/// pane and views (and the model through ModelController), writes the current state as one, and
/// keeps what the controls do not show (designs and run options, the file path, the design and
/// step to select when the next run arrives).
class WorkspaceController : public QObject {
    Q_OBJECT
public:
    /// `dialogParent` owns the recent-workspaces menu and parents the file dialogs.
    WorkspaceController(const StudioParts& parts, ModelController* model, QWidget* dialogParent);

    /// Opens the workspace's chip, compare chip, views and run settings now and starts loading its
    /// model; asks for a run once the model has loaded. Returns why the chip could not be opened, or empty.
    QString openWorkspace(const elk::run::Workspace& workspace);
    /// Reads a workspace file (.elkproj, or the older .json) and opens it; returns the errors, or empty.
    QString openWorkspaceFile(const QString& path);
    /// Writes the current state as an "elk.workspace/2" file; returns why not, or empty.
    QString saveWorkspaceFile(const QString& path);
    /// The current state as a workspace (model, chip as a preset name or embedded, run settings, views).
    elk::run::Workspace currentWorkspace() const;
    void openWorkspaceDialog();
    void saveWorkspaceDialog();

    /// A built-in preset name or a chip file path. The opened chip starts a fresh undo history.
    /// Returns why it could not be opened, or an empty string.
    QString openChip(const QString& presetOrPath);
    /// The controls show `spec` (chip, run parameters, designs and options, model), without re-running.
    void applyRunSpec(const elk::run::RunSpec& spec);
    /// True while the controls are being set from a workspace or run spec: their edits must not re-run.
    bool isApplying() const { return m_applying; }

    /// The design and step a workspace asked to select, once (empty / nothing afterwards).
    QString takePendingDesign() { return std::exchange(m_pendingDesign, {}); }
    std::optional<std::int64_t> takePendingStep() { return std::exchange(m_pendingStep, std::nullopt); }

    QString workspacePath() const { return m_workspacePath; }
    RecentFilesMenu* recentWorkspacesMenu() const { return m_recent; }

signals:
    void pathChanged();

private:
    StudioParts m_parts;
    ModelController* m_model = nullptr;
    QWidget* m_dialogParent = nullptr;
    RecentFilesMenu* m_recent = nullptr;
    /// Designs and run options of the workspace (the controls hold model, chip and step).
    elk::run::RunRequest m_runTemplate;
    QString m_workspacePath;
    QString m_pendingDesign;
    std::optional<std::int64_t> m_pendingStep;
    bool m_applying = false;
};

} // namespace elk::app
