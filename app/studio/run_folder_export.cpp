// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/run_folder_export.h"

#include <exception>
#include <string>

#include <QDir>
#include <QSaveFile>

#include "engine/core/version.h"
#include "engine/export/csv_export.h"
#include "engine/export/perfetto_trace.h"
#include "engine/export/run_export.h"
#include "engine/run/results.h"
#include "engine/run/run_compile.h"

namespace elk::app {

RunFolderExport exportRunFolder(const elk::run::RunResult& result, const QString& folder)
{
    RunFolderExport out;
    const QDir dir(folder);
    if (!dir.mkpath(QStringLiteral("."))) {
        out.error = QObject::tr("%1: cannot create the folder").arg(folder);
        return out;
    }
    // QSaveFile: a failed export never leaves a half-written file behind.
    auto write = [&](const QString& name, const std::string& text) {
        if (!out.error.isEmpty())
            return;
        QSaveFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
            || !file.commit()) {
            out.error = QObject::tr("%1: cannot write: %2").arg(dir.filePath(name), file.errorString());
            return;
        }
        out.files << name;
    };
    try {
        write(QStringLiteral("runspec.json"), elk::run::runSpecToCanonicalJson(result.spec) + "\n");
        write(QStringLiteral("run.json"), elk::run::runResultToJson(result));
        const std::vector<elk::exports::NamedSimResult> named = elk::exports::namedSimResults(result);
        if (!named.empty()) {
            elk::exports::PerfettoOptions options;
            options.engineVersion = elk::kEngineVersion;
            write(QStringLiteral("trace.perfetto.json"), elk::exports::perfettoTraceJson(named, options));
            write(QStringLiteral("intervals.csv"), elk::exports::intervalsCsv(named));
            for (const elk::exports::NamedSimResult& one : named)
                write(QStringLiteral("links-%1.csv").arg(QString::fromStdString(one.name)),
                    elk::exports::linkUtilizationCsv(*one.result));
        }
        for (const elk::run::DesignRun& design : result.designs) {
            if (!design.schedule || design.design == elk::schedule::Design::Ideal)
                continue;
            const elk::schedule::Program program
                = elk::schedule::lowerProgram(result.problemOf(design), *design.schedule);
            const QString name = QString::fromLatin1(elk::schedule::toString(design.design));
            write(QStringLiteral("program-%1.json").arg(name), elk::schedule::programJson(program));
            write(QStringLiteral("program-%1.txt").arg(name), elk::schedule::programText(program));
        }
    } catch (const std::exception& error) {
        out.error = QObject::tr("%1: cannot export the run: %2").arg(folder, QString::fromLocal8Bit(error.what()));
    }
    return out;
}

} // namespace elk::app
