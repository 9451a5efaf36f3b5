// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk run MODEL --chip PRESET|FILE [--set field=value]... [--batch B] [--seq S] [--phase P]
//         [--design NAME|all] [--json OUT] [--program OUT] [--trace OUT] [--csv OUT]
#include <map>
#include <stdexcept>

#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_parity.h"
#include "app/cli/cli_run_request.h"
#include "engine/core/version.h"
#include "engine/export/csv_export.h"
#include "engine/export/perfetto_trace.h"
#include "engine/export/run_export.h"
#include "engine/run/run_compile.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString fixed(double value, int decimals)
    {
        return QString::number(value, 'f', decimals);
    }

    void printTable(const run::RunResult& result, Io io)
    {
        const run::CompiledModel& compiled = *result.compiled;
        const double clock = result.spec.chip.clockHz;
        std::int64_t hbmBytes = 0;
        int splitOps = 0;
        std::map<int, int> opsByParts; // parts → graph ops
        for (const schedule::Step& step : result.problem.steps) {
            hbmBytes += result.problem.planSets[step.planSet]->hbmBytes;
            if (step.parts > 1 && step.part == 0) {
                ++splitOps;
                ++opsByParts[step.parts];
            }
        }
        const double hbmBoundMs = double(hbmBytes) / (result.spec.chip.totalHbmBandwidthGBps() * 1e9) * 1e3;
        io.out << "Model: " << QString::fromStdString(compiled.model.graph.name()) << " ("
               << QString::fromStdString(compiled.model.description) << ")\n"
               << "  " << compiled.model.graph.ops().size() << " ops, " << compiled.plans.size()
               << " distinct partition searches, tile cost " << QString::fromStdString(compiled.costModel) << "\n";
        if (splitOps > 0) {
            QStringList parts;
            for (const auto& [count, ops] : opsByParts)
                parts << u"%1 in %2 parts"_s.arg(ops).arg(count);
            io.out << "  split into parts (pipelined, the same for every design; --json lists them): "
                   << parts.join(u", "_s) << "\n";
        }
        io.out << "Chip: " << chipSummary(result.spec.chip) << "\n"
               << "HBM reads/step: " << fixed(double(hbmBytes) / 1e9, 3) << " GB → at least " << fixed(hbmBoundMs, 3)
               << " ms at full HBM bandwidth\n\n";
        io.out << u"%1 %2 %3 %4 %5 %6 %7 %8 %9\n"_s.arg(u"design"_s, -9)
                      .arg(u"latency ms"_s, 11)
                      .arg(u"analytic ms"_s, 12)
                      .arg(u"execute ms"_s, 11)
                      .arg(u"preload ms"_s, 11)
                      .arg(u"HBM util"_s, 9)
                      .arg(u"NoC util"_s, 9)
                      .arg(u"TFLOPS"_s, 8)
                      .arg(u"vs basic"_s, 9);
        double basicCycles = 0;
        for (const run::DesignRun& run : result.designs) {
            if (run.design == schedule::Design::Basic && run.simulated)
                basicCycles = run.simulated->latencyCycles;
        }
        for (const run::DesignRun& run : result.designs) {
            const QString name = QString::fromLatin1(schedule::toString(run.design));
            if (!run.simulated) {
                io.out << u"%1 no schedule: %2\n"_s.arg(name, -9).arg(QString::fromStdString(run.error));
                continue;
            }
            const sim::SimResult& m = *run.simulated;
            double executeCycles = 0;
            double preloadCycles = 0;
            for (const sim::StepTrace& step : m.steps) {
                executeCycles += step.execute.length();
                preloadCycles += step.preload.length();
            }
            io.out << u"%1 %2 %3 %4 %5 %6 %7 %8 %9\n"_s.arg(name, -9)
                          .arg(fixed(m.latencyCycles / clock * 1e3, 3), 11)
                          .arg(fixed(run.metrics.latencyCycles / clock * 1e3, 3), 12)
                          .arg(fixed(executeCycles / clock * 1e3, 3), 11)
                          .arg(fixed(preloadCycles / clock * 1e3, 3), 11)
                          .arg(fixed(m.hbmUtilization * 100, 1) + u" %"_s, 9)
                          .arg(fixed(m.nocUtilization * 100, 1) + u" %"_s, 9)
                          .arg(fixed(m.flopsPerCycle * clock / 1e12, 1), 8)
                          .arg(basicCycles > 0 ? fixed(basicCycles / m.latencyCycles, 2) + u"×"_s : u"-"_s, 9);
        }
        io.out << "\nlatency = event-driven simulation with link contention (ideal: preloads and executions on "
                  "separate interconnects); analytic = the scheduler's own estimate\n"
               << "timings: import " << fixed(result.timings.importSeconds, 3) << " s, partition "
               << fixed(result.timings.partitionSeconds, 3) << " s, schedule "
               << fixed(result.timings.scheduleSeconds, 3) << " s, simulate "
               << fixed(result.timings.simulateSeconds, 3) << " s\n";
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
    parser.addPositionalArgument(u"MODEL"_s, modelArgumentHelp());
    const RunRequestOptions runOptions(SeqMeaning::Context);
    runOptions.addTo(parser);
    const QCommandLineOption json(u"json"_s, u"Write the results as JSON to OUT ('-' for stdout)."_s, u"OUT"_s);
    const QCommandLineOption program(u"program"_s,
        u"Write the emitted preload_async/execute program of each design except ideal (which has no SRAM limit "
        "for preloads) to OUT: JSON when OUT ends in .json, readable text otherwise."_s,
        u"OUT"_s);
    const QCommandLineOption trace(u"trace"_s,
        u"Write the simulated timelines of every design as a Perfetto-openable trace (Chrome Trace Event JSON) "
        "to OUT: one process per design, lanes execute, preload, execute phases and stalls, counters for HBM, "
        "NoC and SRAM."_s,
        u"OUT"_s);
    const QCommandLineOption csv(u"csv"_s,
        u"Write every design's simulated intervals (preload, execute, warm-up, compute, shift, reduce) as CSV to OUT."_s,
        u"OUT"_s);
    parser.addOptions({ json, program, trace, csv });
    const ParityCliOptions parityOptions;
    parityOptions.addTo(parser);
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
    const bool parity = parityOptions.requested(parser, problems);
    const run::ParityOptions parityRead = parityOptions.read(parser, problems);
    if (parity && (parser.isSet(program) || parser.isSet(trace) || parser.isSet(csv)))
        problems << u"--program, --trace and --csv export simulated runs; --parity artifact has no simulator"_s;
    for (const QString& problem : problems)
        io.err << command << ": " << problem << "\n";
    if (!problems.isEmpty())
        return int(ExitCode::BadInput);
    const std::optional<run::RunSpec> spec = resolveOrReport(request, command, io);
    if (!spec)
        return int(ExitCode::BadInput);

    if (parity)
        return runParity(*spec, parityRead, parser.isSet(json) ? parser.value(json) : QString(), command, io);
    NullRunControl control;
    const run::RunResult result = run::executeRun(*spec, control);
    for (const std::string& error : result.errors)
        io.err << command << ": " << QString::fromStdString(error) << "\n";
    if (!result.ok())
        return int(ExitCode::BadInput);
    // Files first: a file that cannot be written fails the command before anything is printed.
    const bool jsonToStdout = parser.isSet(json) && parser.value(json) == u"-"_s;
    if (parser.isSet(json) && !jsonToStdout
        && !writeFile(parser.value(json), run::runResultToJson(result), command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(program)
        && !writeFile(parser.value(program), exports::runPrograms(result, parser.value(program).endsWith(u".json"_s)),
            command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(trace) || parser.isSet(csv)) {
        const std::vector<exports::NamedSimResult> named = exports::namedSimResults(result);
        try {
            exports::PerfettoOptions options;
            options.engineVersion = kEngineVersion;
            if (parser.isSet(trace)
                && !writeFile(parser.value(trace), exports::perfettoTraceJson(named, options), command, io))
                return int(ExitCode::BadInput);
            if (parser.isSet(csv) && !writeFile(parser.value(csv), exports::intervalsCsv(named), command, io))
                return int(ExitCode::BadInput);
        } catch (const std::invalid_argument& error) {
            io.err << command << ": cannot export: " << error.what() << "\n";
            return int(ExitCode::InternalError);
        }
    }
    if (jsonToStdout)
        io.out << QString::fromStdString(run::runResultToJson(result));
    else
        printTable(result, io);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
