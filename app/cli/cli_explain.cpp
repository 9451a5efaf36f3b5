// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk explain MODEL --chip PRESET|FILE [run options] [--json OUT] [--cache PATH | --no-cache]
// The bound-gap waterfall of every design: the physical floor, then the named losses to the latency.
#include <cmath>
#include <optional>
#include <vector>

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_run_request.h"
#include "engine/run/explain.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString fixed(double value, int decimals)
    {
        return QString::number(value, 'f', decimals);
    }

    void printWaterfalls(
        const run::RunSpec& spec, const std::vector<run::DesignRun>& designs, bool fromCache, double seconds, Io io)
    {
        io.out << "Bound-gap waterfall: " << QString::fromStdString(spec.model.path) << " on " << chipSummary(spec.chip)
               << "\n"
               << "floor = the largest of HBM bytes ÷ HBM bandwidth, FLOPs ÷ peak, the hottest link's bytes ÷ its "
                  "bandwidth;\nlosses = time the floor resource was not fully used, by cause, measured in the "
                  "simulation\n";
        for (const run::DesignRun& run : designs) {
            const QString name = QString::fromLatin1(schedule::toString(run.design));
            if (!run.simulated) {
                io.out << "\n" << name << ": no schedule: " << QString::fromStdString(run.error) << "\n";
                continue;
            }
            const run::Waterfall w = run::waterfallOf(*run.simulated, run.design);
            io.out << "\n"
                   << name << ": " << fixed(w.latencyMs, 3) << " ms  (floor " << fixed(w.floorMs / w.latencyMs * 100, 1)
                   << " % of it)\n";
            io.out << u"  %1 %2   %3\n"_s.arg(u"floor: "_s + QString::fromLatin1(sim::toString(w.floorKind)), -44)
                          .arg(fixed(w.floorMs, 3), 10)
                          .arg(QString::fromStdString(w.floorResource));
            for (const run::WaterfallLoss& loss : w.losses) {
                if (std::abs(loss.ms) < 5e-4 && loss.ms <= 0.0005 * w.latencyMs)
                    continue;
                io.out << u"  + %1 %2   %3 % of latency, over %4 ms\n"_s
                              .arg(QString::fromLatin1(sim::describe(loss.cause)), -42)
                              .arg(fixed(loss.ms, 3), 10)
                              .arg(fixed(loss.ms / w.latencyMs * 100, 1), 5)
                              .arg(fixed(loss.durationMs, 3));
            }
            io.out << u"  = %1 %2   (candidates: HBM %3, compute %4, link %5 ms)\n"_s.arg(u"sum"_s, -42)
                          .arg(fixed(w.sumMs(), 3), 10)
                          .arg(fixed(w.hbmFloorMs, 3))
                          .arg(w.computeFloorMs > 0 ? fixed(w.computeFloorMs, 3) : u"n/a"_s)
                          .arg(fixed(w.linkFloorMs, 3));
        }
        io.out << "\n"
               << (fromCache ? "served from the result cache" : "computed") << " in " << fixed(seconds, 3) << " s\n";
    }

} // namespace

int runExplain(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Why not faster: for each design, the physical floor (the largest of HBM bytes ÷ HBM bandwidth, FLOPs ÷ "
        "peak, and the hottest link's bytes ÷ its bandwidth, saying which) and the losses that take the simulated "
        "latency there (SRAM-full preload waits, dependency waits, interconnect and SRAM-port contention, warm-up, "
        "shifts, reduction, the preload path, the floor resource idle while computing, compute below peak). The "
        "parts are measured in the simulation and add up to its latency."_s);
    parser.addPositionalArgument(u"MODEL"_s, modelArgumentHelp());
    const RunRequestOptions runOptions(SeqMeaning::Context);
    runOptions.addTo(parser);
    const QCommandLineOption json(u"json"_s, u"Write the waterfalls as JSON to OUT ('-' for stdout)."_s, u"OUT"_s);
    const QCommandLineOption cache(u"cache"_s, u"The result cache file (default: the user cache)."_s, u"PATH"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Neither read nor write the result cache."_s);
    parser.addOptions({ json, cache, noCache });
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
    const std::optional<run::RunSpec> spec = resolveOrReport(request, command, io);
    if (!spec)
        return int(ExitCode::BadInput);

    QElapsedTimer timer;
    timer.start();
    const std::unique_ptr<store::ResultStore> resultStore
        = openCache(parser.isSet(noCache), parser.value(cache), command, io);
    // A cached run answers from its designs alone (no import, no compiled model); a miss runs and
    // stores the run with its detail, so the app opens it from the cache too.
    std::optional<std::vector<run::DesignRun>> designs;
    if (resultStore)
        designs = resultStore->loadDesigns(*spec, false);
    const bool fromCache = designs.has_value();
    if (!designs) {
        NullRunControl control;
        run::RunResult result = run::runCached(*spec, resultStore.get(), control, 0, nullptr, true);
        for (const std::string& error : result.errors)
            io.err << command << ": " << QString::fromStdString(error) << "\n";
        if (!result.ok())
            return int(ExitCode::BadInput);
        designs = std::move(result.designs);
    }
    const std::string text = parser.isSet(json) ? run::explainJson(*spec, *designs) : std::string();
    const bool jsonToStdout = parser.isSet(json) && parser.value(json) == u"-"_s;
    if (parser.isSet(json) && !jsonToStdout && !writeFile(parser.value(json), text, command, io))
        return int(ExitCode::BadInput);
    if (jsonToStdout)
        io.out << QString::fromStdString(text);
    else
        printWaterfalls(*spec, *designs, fromCache, double(timer.nsecsElapsed()) * 1e-9, io);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
