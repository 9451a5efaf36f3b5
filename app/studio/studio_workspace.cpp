// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/studio_workspace.h"

#include <QStringList>

namespace elk::app {

QString workspaceErrorText(const elk::run::WorkspaceParseResult& result)
{
    const QString file = QString::fromStdString(result.workspace.filePath);
    QStringList lines;
    for (const auto& error : result.errors) {
        const QString field = QString::fromStdString(error.field);
        const QString message = QString::fromStdString(error.message);
        if (field == QLatin1String("/") && message.contains(file))
            lines << message; // an I/O error already names the file
        else
            lines << file + QStringLiteral(": ") + field + QStringLiteral(": ") + message;
    }
    return lines.join(QLatin1Char('\n'));
}

elk::widgets::RunParameters runParametersOf(const elk::run::RunRequest& request)
{
    // Same defaults as resolveRunSpec() (engine/run/run_resolve.cpp), so the panel shows what a run would use.
    const bool decode = request.phase == elk::run::Phase::Decode;
    elk::widgets::RunParameters run;
    run.phase = request.phase;
    run.batch = request.batch.value_or(1);
    run.seqLen = request.seqLen.value_or(decode ? 1 : 2048);
    run.kvLen = request.kvLen.value_or(decode ? 2048 : 0);
    run.dims = request.dims;
    run.inputShapes = request.inputShapes;
    return run;
}

} // namespace elk::app
