// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk run MODEL --chip PRESET|FILE [--set field=value]... [--batch B] [--seq S] [--phase P]
//         [--design NAME|all] [--json OUT] [--program OUT]
#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_run_request.h"
#include "engine/run/run_compile.h"
#include "engine/schedule/program.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    bool writeFile(const QString& path, const std::string& text, const QString& command, Io io)
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(text.data(), qint64(text.size())) != qint64(text.size())) {
            io.err << command << ": cannot write " << path << ": " << file.errorString() << "\n";
            return false;
        }
        return true;
    }

    QString fixed(double value, int decimals)
    {
        return QString::number(value, 'f', decimals);
    }

    void printTable(const run::RunResult& result, Io io)
    {
        const run::CompiledModel& compiled = *result.compiled;
        const double clock = result.spec.chip.clockHz;
        std::int64_t hbmBytes = 0;
        for (const schedule::Step& step : result.problem.steps)
            hbmBytes += result.problem.planSets[step.planSet]->hbmBytes;
        const double hbmBoundMs = double(hbmBytes) / (result.spec.chip.totalHbmBandwidthGBps() * 1e9) * 1e3;
        io.out << "Model: " << QString::fromStdString(compiled.model.graph.name()) << " ("
               << QString::fromStdString(compiled.model.description) << ")\n"
               << "  " << compiled.model.graph.ops().size() << " ops, " << compiled.plans.size()
               << " distinct partition searches, tile cost " << QString::fromStdString(compiled.costModel) << "\n"
               << "Chip: " << chipSummary(result.spec.chip) << "\n"
               << "HBM reads/step: " << fixed(double(hbmBytes) / 1e9, 3) << " GB → at least " << fixed(hbmBoundMs, 3)
               << " ms at full HBM bandwidth\n\n";
        io.out << u"%1 %2 %3 %4 %5 %6 %7 %8\n"_s.arg(u"design"_s, -9)
                      .arg(u"latency ms"_s, 11)
                      .arg(u"execute ms"_s, 11)
                      .arg(u"preload ms"_s, 11)
                      .arg(u"HBM util"_s, 9)
                      .arg(u"NoC util"_s, 9)
                      .arg(u"TFLOPS"_s, 8)
                      .arg(u"vs basic"_s, 9);
        double basicCycles = 0;
        for (const run::DesignRun& run : result.designs) {
            if (run.design == schedule::Design::Basic && run.schedule)
                basicCycles = run.metrics.latencyCycles;
        }
        for (const run::DesignRun& run : result.designs) {
            const QString name = QString::fromLatin1(schedule::toString(run.design));
            if (!run.schedule) {
                io.out << u"%1 no schedule: %2\n"_s.arg(name, -9).arg(QString::fromStdString(run.error));
                continue;
            }
            const schedule::ScheduleMetrics& m = run.metrics;
            const double seconds = m.latencyCycles / clock;
            io.out << u"%1 %2 %3 %4 %5 %6 %7 %8\n"_s.arg(name, -9)
                          .arg(fixed(m.latencyCycles / clock * 1e3, 3), 11)
                          .arg(fixed(m.executeCycles / clock * 1e3, 3), 11)
                          .arg(fixed(m.preloadCycles / clock * 1e3, 3), 11)
                          .arg(fixed(m.hbmUtilization * 100, 1) + u" %"_s, 9)
                          .arg(fixed(m.nocUtilization * 100, 1) + u" %"_s, 9)
                          .arg(fixed(seconds > 0 ? double(m.flops) / seconds / 1e12 : 0.0, 1), 8)
                          .arg(basicCycles > 0 ? fixed(basicCycles / m.latencyCycles, 2) + u"×"_s : u"-"_s, 9);
        }
        io.out << "\nlatency = the analytic schedule (the event-driven simulator is not part of this run)\n"
               << "timings: import " << fixed(result.timings.importSeconds, 3) << " s, partition "
               << fixed(result.timings.partitionSeconds, 3) << " s, schedule "
               << fixed(result.timings.scheduleSeconds, 3) << " s\n";
    }

} // namespace

int runRun(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Compiles a model for a chip with each scheduling design (basic, static, elk-dyn, elk-full, ideal) and "
        "prints one row per design: latency, execute and preload time, HBM and NoC utilisation, TFLOPS and "
        "the speedup over basic."_s);
    parser.addPositionalArgument(u"MODEL"_s,
        u"A model file (.onnx, .elk.json, einstein_v2 .json) or a bundled model: llama2-13b, llama2-70b, "
        "opt-30b, gemma2-27b, dit-xl."_s);
    const RunRequestOptions runOptions(SeqMeaning::Context);
    runOptions.addTo(parser);
    const QCommandLineOption json(u"json"_s, u"Write the results as JSON to OUT ('-' for stdout)."_s, u"OUT"_s);
    const QCommandLineOption program(u"program"_s,
        u"Write the emitted preload_async/execute program of each design except ideal (which has no SRAM limit "
        "for preloads) to OUT: JSON when OUT ends in .json, readable text otherwise."_s,
        u"OUT"_s);
    parser.addOptions({ json, program });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(command, positional.isEmpty() ? u"no MODEL given"_s : u"expected exactly one MODEL"_s, io);
    if (!parser.isSet(runOptions.chip()))
        return usageError(command, u"--chip PRESET|FILE is required"_s, io);

    QStringList problems;
    run::RunRequest request = runOptions.read(parser, problems);
    request.modelPath = positional.first().toStdString();
    for (const QString& problem : problems)
        io.err << command << ": " << problem << "\n";
    if (!problems.isEmpty())
        return int(ExitCode::BadInput);
    const run::RunSpecResult resolved = run::resolveRunSpec(request);
    for (const chip::FieldError& error : resolved.errors)
        io.err << command << ": " << QString::fromStdString(error.field) << ": "
               << QString::fromStdString(error.message) << "\n";
    if (!resolved.ok())
        return int(ExitCode::BadInput);

    NullRunControl control;
    const run::RunResult result = run::executeRun(resolved.spec, control);
    for (const std::string& error : result.errors)
        io.err << command << ": " << QString::fromStdString(error) << "\n";
    if (!result.ok())
        return int(ExitCode::BadInput);
    // Files first: a file that cannot be written fails the command before anything is printed.
    const bool jsonToStdout = parser.isSet(json) && parser.value(json) == u"-"_s;
    if (parser.isSet(json) && !jsonToStdout && !writeFile(parser.value(json), run::runResultToJson(result), command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(program)) {
        const bool asJson = parser.value(program).endsWith(u".json"_s);
        std::string text = asJson ? "{\n" : std::string();
        bool first = true;
        for (const run::DesignRun& run : result.designs) {
            if (!run.schedule || run.design == schedule::Design::Ideal)
                continue;
            const schedule::Program lowered = schedule::lowerProgram(result.problem, *run.schedule);
            if (asJson) {
                text += std::string(first ? "" : ",\n") + "\"" + schedule::toString(run.design)
                    + "\": " + schedule::programJson(lowered);
            } else {
                text += std::string(first ? "" : "\n") + schedule::programText(lowered);
            }
            first = false;
        }
        if (asJson)
            text += "\n}\n";
        if (!writeFile(parser.value(program), text, command, io))
            return int(ExitCode::BadInput);
    }
    if (jsonToStdout)
        io.out << QString::fromStdString(run::runResultToJson(result));
    else
        printTable(result, io);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
