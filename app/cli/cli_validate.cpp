// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk validate [--reference FILE.csv] [--module WORKLOAD=PATH]... [--estimator SPEC]... [--fit-on SYSTEM]...
//              [--csv OUT] [--cache PATH | --no-cache]
#include <map>
#include <memory>

#include <QCommandLineParser>
#include <QFileInfo>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/core/read_file.h"
#include "engine/hlo/hlo_run.h"
#include "engine/hlo/hlo_validate.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

int runValidate(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Compares predicted step times with measured ones: one row per (workload, system) of a reference "
        "CSV (columns workload, system, measured_s, source, module), its error, the MAPE over the predicted "
        "rows (rows without a module are listed as not predicted), and the speedup error between consecutive "
        "generations of one vendor's devices, as in the hespas paper's Table V (A100 → H100 → H200 → B200; "
        "(S_ref − S_sim) / S_ref, S = T_prev / T_next). Without --reference, hespas's published ground truth "
        "(ISPASS 2026) is used."_s);
    const QCommandLineOption reference(u"reference"_s, u"The reference CSV."_s, u"FILE.csv"_s);
    const QCommandLineOption module(u"module"_s,
        u"The StableHLO module of a workload (repeatable); overrides the CSV's module column."_s, u"WORKLOAD=PATH"_s);
    const QCommandLineOption estimator(u"estimator"_s, u"As for elk hlo (repeatable; default roofline)."_s, u"SPEC"_s);
    const QCommandLineOption fitOn(u"fit-on"_s,
        u"Fit one efficiency factor on this system's rows (repeatable; at least 2 predicted rows; the "
        "efficiency is clamped to at most 1) and report the error on the other systems' rows."_s,
        u"SYSTEM"_s);
    const QCommandLineOption fitOut(u"fit-out"_s,
        u"With --fit-on: write the fitted device preset (efficiencies and their provenance) to FILE.json; a "
        "system JSON may name it as its device."_s,
        u"FILE.json"_s);
    const QCommandLineOption csv(u"csv"_s, u"Write the rows as CSV to OUT."_s, u"OUT"_s);
    const QCommandLineOption cache(u"cache"_s, u"The result cache file."_s, u"PATH"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Neither read nor write the region cache."_s);
    parser.addOptions({ reference, module, estimator, fitOn, fitOut, csv, cache, noCache });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty())
        return usageError(command, u"unexpected argument '%1'"_s.arg(parser.positionalArguments().first()), io);

    std::string text;
    std::string sourceName = "bundled hespas-ispass2026.csv";
    QString baseDir;
    if (parser.isSet(reference)) {
        std::string error;
        const auto read = readFileText(parser.value(reference).toStdString(), error);
        if (!read) {
            io.err << command << ": " << parser.value(reference) << ": " << QString::fromStdString(error) << "\n";
            return int(ExitCode::BadInput);
        }
        text = *read;
        sourceName = parser.value(reference).toStdString();
        baseDir = QFileInfo(parser.value(reference)).absolutePath();
    } else {
        text = hlo::bundledReferenceCsv();
    }
    const hlo::ReferenceTable table = hlo::parseReferenceCsv(text, sourceName);
    for (const std::string& error : table.errors)
        io.err << command << ": " << QString::fromStdString(error) << "\n";
    if (!table.ok())
        return int(ExitCode::BadInput);

    std::map<std::string, std::string> modules;
    for (const QString& value : parser.values(module)) {
        const auto equals = value.indexOf(u'=');
        if (equals <= 0 || equals == value.size() - 1)
            return usageError(command, u"--module: expected WORKLOAD=PATH, found '%1'"_s.arg(value), io);
        modules[value.left(equals).toStdString()] = value.mid(equals + 1).toStdString();
    }
    std::vector<std::string> estimators;
    for (const QString& value : parser.values(estimator))
        estimators.push_back(value.toStdString());
    if (estimators.empty())
        estimators.push_back("roofline");
    std::vector<std::string> fitSystems;
    for (const QString& value : parser.values(fitOn))
        fitSystems.push_back(value.toStdString());

    const std::unique_ptr<store::ResultStore> resultStore
        = openCache(parser.isSet(noCache), parser.value(cache), command, io);
    std::map<std::string, hlo::ReadResult> parsed;
    NullRunControl control;
    auto predict = [&](const hlo::ReferenceRow& row, double scale) -> hlo::Prediction {
        std::string path;
        if (const auto found = modules.find(row.workload); found != modules.end())
            path = found->second;
        else if (!row.module.empty())
            path = QFileInfo(QString::fromStdString(row.module)).isAbsolute() || baseDir.isEmpty()
                ? row.module
                : QString(baseDir + u'/' + QString::fromStdString(row.module)).toStdString();
        if (path.empty())
            return { std::nullopt, "no module (give --module " + row.workload + "=PATH)" };
        auto entry = parsed.find(path);
        if (entry == parsed.end())
            entry = parsed.emplace(path, hlo::readHloFile(path)).first;
        if (entry->second.modules.empty())
            return { std::nullopt,
                entry->second.onlyComments         ? path + ": holds only comments: no module"
                    : entry->second.errors.empty() ? path + ": no module"
                                                   : hlo::toString(entry->second.errors.front()) };
        hlo::HloRunOptions options;
        options.system = row.system;
        options.estimators = estimators;
        options.efficiencyScale = scale;
        const hlo::HloRunResult result
            = hlo::runHloModule(entry->second.modules.front(), options, resultStore.get(), control);
        if (!result.ok())
            return { std::nullopt, result.errors.empty() ? std::string("stopped") : result.errors.front() };
        return { result.stepSeconds, "" };
    };
    // Speedups pair generations of one vendor's devices, as read from the system presets.
    const hlo::LineageOf lineage = [](const std::string& systemName) -> std::optional<hlo::SystemLineage> {
        const hlo::SystemPresetResult system = hlo::resolveSystemPreset(systemName);
        if (!system.ok())
            return std::nullopt;
        const hlo::DevicePresetResult device = hlo::resolveDevicePreset(system.preset.device);
        if (!device.ok())
            return std::nullopt;
        return hlo::SystemLineage { device.preset.vendor, device.preset.generation };
    };
    const hlo::ValidationReport report = hlo::validateAgainst(table, predict, fitSystems, lineage);
    if (!report.ok()) {
        io.err << command << ": --fit-on: " << QString::fromStdString(report.error) << "\n";
        return int(ExitCode::BadInput);
    }
    io.out << "reference: " << QString::fromStdString(sourceName) << "\n"
           << QString::fromStdString(hlo::validationReportText(report));
    if (parser.isSet(csv) && !writeFile(parser.value(csv), hlo::validationReportCsv(report), command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(fitOut)) {
        if (!report.fittedScale || fitSystems.empty())
            return usageError(command, u"--fit-out needs --fit-on SYSTEM with at least one predicted row"_s, io);
        const hlo::SystemPresetResult system = hlo::resolveSystemPreset(fitSystems.front());
        const hlo::DevicePresetResult device
            = system.ok() ? hlo::resolveDevicePreset(system.preset.device) : hlo::DevicePresetResult {};
        if (!system.ok() || !device.ok()) {
            io.err << command << ": --fit-out: cannot resolve the device of "
                   << QString::fromStdString(fitSystems.front()) << "\n";
            return int(ExitCode::BadInput);
        }
        hlo::DevicePreset fitted = device.preset;
        fitted.name += "-fitted";
        fitted.computeEfficiency = fitted.computeEfficiency / *report.fittedScale;
        fitted.memoryEfficiency = fitted.memoryEfficiency / *report.fittedScale;
        QStringList systems;
        for (const std::string& name : fitSystems)
            systems << QString::fromStdString(name);
        int fitRows = 0;
        for (const hlo::ValidationRow& row : report.rows)
            fitRows += row.usedForFit && row.prediction.seconds ? 1 : 0;
        fitted.efficiencyProvenance
            = QString(u"fitted by elk validate on %1 (%2 rows of %3; MAPE %4 % on them, %5 % on "
                      "the other systems' %6 rows)"_s)
                  .arg(systems.join(u", "_s), QString::number(fitRows), QString::fromStdString(sourceName),
                      QString::number(report.fitMapePercent, 'f', 1),
                      report.mapePercent ? QString::number(*report.mapePercent, 'f', 1) : u"n/a"_s,
                      QString::number(report.predictedRows - fitRows))
                  .toStdString();
        if (!writeFile(parser.value(fitOut), hlo::devicePresetToJson(fitted), command, io))
            return int(ExitCode::BadInput);
        io.out << "fitted device preset written to " << parser.value(fitOut) << "\n";
    }
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
