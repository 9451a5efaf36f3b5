// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace elk::app {

/// An "elk.workspace/1" file: which model and chip elk-studio opens.
struct WorkspaceFile {
    QString chip;      ///< a built-in preset name, or a chip JSON path relative to the workspace
    QString modelPath; ///< relative to the workspace file's folder (as written)
};

/// Reads a workspace file. On failure returns false and sets `error` to a message naming the file
/// and what was expected.
bool readWorkspaceFile(const QString& path, WorkspaceFile& workspace, QString& error);

} // namespace elk::app
