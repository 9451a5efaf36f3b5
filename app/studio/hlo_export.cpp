// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_export.h"

#include <string>

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QSaveFile>

#include "engine/hlo/hlo_chakra.h"
#include "engine/hlo/hlo_run.h"

namespace elk::app {

namespace {

    QString writeText(const QString& path, const std::string& text)
    {
        // QSaveFile: a failed export never leaves a half-written file behind.
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
            || !file.commit())
            return QObject::tr("%1: cannot write: %2").arg(path, file.errorString());
        return {};
    }

    QString safeName(const std::string& text)
    {
        QString name = QString::fromStdString(text);
        for (QChar& c : name) {
            if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.'))
                c = QLatin1Char('_');
        }
        return name.isEmpty() ? QStringLiteral("module") : name;
    }

} // namespace

QString hloExportName(const elk::hlo::HloRunResult& result, HloDataFormat format)
{
    const QString module = result.sourceFile.empty()
        ? safeName(result.moduleName)
        : QFileInfo(QString::fromStdString(result.sourceFile)).completeBaseName();
    const QString base = module + QLatin1Char('-') + safeName(result.systemName);
    switch (format) {
    case HloDataFormat::Json:
        return base + QStringLiteral(".json");
    case HloDataFormat::Csv:
        return base + QStringLiteral("-regions.csv");
    case HloDataFormat::Perfetto:
        return base + QStringLiteral(".perfetto.json");
    case HloDataFormat::Chakra:
        return base + QStringLiteral("-chakra");
    }
    return base;
}

QString exportHloData(const elk::hlo::HloRunResult& result, HloDataFormat format, const QString& path)
{
    if (!result.ok())
        return QObject::tr("the run failed: nothing to export");
    if (path.isEmpty())
        return QObject::tr("no file given");
    switch (format) {
    case HloDataFormat::Json:
        return writeText(path, elk::hlo::hloRunToJson(result));
    case HloDataFormat::Csv:
        return writeText(path, elk::hlo::hloRegionsToCsv(result));
    case HloDataFormat::Perfetto:
        return writeText(path,
            elk::hlo::stepTimelineToPerfetto(
                result.stepNodes, result.timeline, result.moduleName + " on " + result.systemName));
    case HloDataFormat::Chakra: {
        if (!QDir().mkpath(path))
            return QObject::tr("%1: cannot create the folder").arg(path);
        const elk::hlo::ChakraExport chakra
            = elk::hlo::buildChakraExport(result.stepNodes, result.system.deviceCount());
        const std::string error = elk::hlo::writeChakraExport(chakra, QDir(path).absolutePath().toStdString());
        return QString::fromStdString(error);
    }
    }
    return QObject::tr("unknown export format");
}

} // namespace elk::app
