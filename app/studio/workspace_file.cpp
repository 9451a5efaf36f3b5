// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/workspace_file.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace elk::app {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("WorkspaceFile", text);
}
} // namespace

bool readWorkspaceFile(const QString& path, WorkspaceFile& workspace, QString& error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = tr("%1: cannot open: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = file.read(1024 * 1024); // a workspace is a few lines
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const QByteArray before = bytes.left(parseError.offset);
        const qsizetype line = before.count('\n') + 1;
        const qsizetype column = before.size() - (before.lastIndexOf('\n') + 1) + 1;
        error = tr("%1: line %2, column %3: %4").arg(path).arg(line).arg(column).arg(parseError.errorString());
        return false;
    }
    if (!document.isObject()) {
        error = tr("%1: expected a JSON object").arg(path);
        return false;
    }
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("schema")).toString() != QStringLiteral("elk.workspace/1")) {
        error = tr("%1: /schema: expected \"elk.workspace/1\"").arg(path);
        return false;
    }
    const QJsonValue chip = root.value(QStringLiteral("chip"));
    if (!chip.isString() || chip.toString().isEmpty()) {
        error = tr("%1: /chip: expected a preset name or chip file path").arg(path);
        return false;
    }
    workspace.chip = chip.toString();
    workspace.modelPath = root.value(QStringLiteral("model")).toString();
    return true;
}

} // namespace elk::app
