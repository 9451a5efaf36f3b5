// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk sweep MODEL --chip PRESET|FILE --vary field=start:stop:step [--vary ...] [--preset NAME]
//           [run options as for elk run] [--parity artifact [parity options]] --csv OUT|-
//           [--cache PATH | --no-cache] [--threads N] [--shard K/N | --mpi]
#include <chrono>
#include <cmath>
#include <memory>

#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_parity.h"
#include "app/cli/cli_run_request.h"
#include "app/cli/cli_sweep_mpi.h"
#include "engine/run/sweep.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString presetList()
    {
        QStringList names;
        for (const run::SweepPreset& preset : run::sweepPresets())
            names << QString::fromStdString(preset.name);
        return names.join(u", "_s);
    }

    const run::SweepPreset* findPreset(const QString& name)
    {
        for (const run::SweepPreset& preset : run::sweepPresets()) {
            if (QString::fromStdString(preset.name) == name)
                return &preset;
        }
        return nullptr;
    }

} // namespace

int runSweep(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Runs a model over a grid of chip variants (one or more --vary axes; the first varies slowest) with "
        "every selected design and writes one CSV row per point and design: the axis values, design, "
        "latency_ms (simulated; with --parity artifact the artifact's analytic latency), from_cache, error. "
        "Points run in parallel and are served from the result cache when repeated; points sharing partition "
        "tables search them once."_s);
    parser.addPositionalArgument(u"MODEL"_s, modelArgumentHelp());
    const RunRequestOptions runOptions(SeqMeaning::Context);
    runOptions.addTo(parser);
    const QCommandLineOption vary(u"vary"_s,
        u"A chip field and its values: field=start:stop:step (stop included when on the grid) or "
        "field=a,b,c (e.g. interconnect.topology=all-to-all,mesh2d). Repeatable: one axis each."_s,
        u"field=values"_s);
    const QCommandLineOption preset(u"preset"_s, u"A named study adding its axes: %1."_s.arg(presetList()), u"NAME"_s);
    const QCommandLineOption csv(u"csv"_s, u"Write the CSV to OUT ('-' for stdout). Required."_s, u"OUT"_s);
    const QCommandLineOption cache(u"cache"_s,
        u"The result cache file (default: $ELK_CACHE_DIR, $XDG_CACHE_HOME/elk-studio or "
        "~/.cache/elk-studio, then results.sqlite)."_s,
        u"PATH"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Neither read nor write the result cache."_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Points run at once (default 0: all cores)."_s, u"N"_s);
    const QCommandLineOption shardOption(u"shard"_s,
        u"Run only the points whose index in the sweep's order (the first axis slowest) is K modulo N, e.g. "
        "--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with its own --cache; the CSV lists those points."_s,
        u"K/N"_s);
    const QCommandLineOption mpiOption(u"mpi"_s,
        u"Under mpirun: the ranks split the points as --shard RANK/SIZE does, each with its own cache file "
        "(CACHE.rankR); rank 0 gathers every point, writes the CSV and merges the rank caches into the cache."_s
            + (mpiAvailable() ? QString() : u" Not in this build (built without MPI)."_s));
    parser.addOptions({ vary, preset, csv, cache, noCache, threadsOption, shardOption, mpiOption });
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
    if (!parser.isSet(csv))
        return usageError(command, u"--csv OUT|- is required"_s, io);
    if (!parser.isSet(vary) && !parser.isSet(preset))
        return usageError(command, u"nothing to vary: give --vary field=start:stop:step or --preset NAME"_s, io);
    if (parser.isSet(cache) && parser.isSet(noCache))
        return usageError(command, u"--cache and --no-cache exclude each other"_s, io);

    QStringList problems;
    QStringList varyTexts;
    for (const QString& name : parser.values(preset)) {
        if (const run::SweepPreset* found = findPreset(name)) {
            for (const std::string& text : found->varySpecs)
                varyTexts << QString::fromStdString(text);
        } else {
            problems << u"--preset: '%1' is not one of %2"_s.arg(name, presetList());
        }
    }
    varyTexts << parser.values(vary);
    std::vector<run::SweepAxis> axes;
    for (const QString& text : varyTexts) {
        const run::SweepAxisParse parsed = run::parseSweepAxis(text.toStdString());
        if (!parsed.ok()) {
            problems << QString::fromStdString(parsed.error);
            continue;
        }
        for (const run::SweepAxis& axis : axes) {
            if (axis.field == parsed.axis.field)
                problems << u"--vary: %1 is varied twice"_s.arg(QString::fromStdString(axis.field));
        }
        axes.push_back(parsed.axis);
    }
    int threads = 0;
    if (parser.isSet(threadsOption)) {
        bool ok = false;
        threads = parser.value(threadsOption).toInt(&ok);
        if (!ok || threads < 0)
            problems << u"--threads: '%1' is not an integer ≥ 0"_s.arg(parser.value(threadsOption));
    }
    run::SweepShard shard;
    if (parser.isSet(shardOption)) {
        std::string error;
        if (const auto parsed = run::parseSweepShard(parser.value(shardOption).toStdString(), error))
            shard = *parsed;
        else
            problems << QString::fromStdString(error);
    }
    MpiRanks ranks;
    const bool mpi = parser.isSet(mpiOption);
    if (mpi && parser.isSet(shardOption))
        problems << u"--mpi and --shard exclude each other (the ranks are the shards)"_s;
    if (mpi && problems.isEmpty()) {
        QString error;
        if (!mpiStart(ranks, error))
            problems << u"--mpi: "_s + error;
        shard = { ranks.rank, ranks.size };
    }
    // Every way out of a started MPI finalises it (mpiFinish is idempotent).
    struct MpiFinally {
        bool started;
        ~MpiFinally()
        {
            if (started)
                mpiFinish();
        }
    } mpiFinally { mpi && ranks.size >= 1 && problems.isEmpty() };
    run::RunRequest request = runOptions.read(parser, problems);
    request.modelPath = positional.first().toStdString();
    const bool parity = parityOptions.requested(parser, problems);
    const run::ParityOptions parityRead = parityOptions.read(parser, problems);
    for (const QString& problem : problems)
        io.err << command << ": " << problem << "\n";
    if (!problems.isEmpty())
        return int(ExitCode::BadInput);
    // The base (without the axes) must resolve: a bad model, chip or option is no sweep.
    const run::RunSpecResult base = run::resolveRunSpec(request);
    for (const chip::FieldError& error : base.errors)
        io.err << command << ": " << QString::fromStdString(error.field) << ": "
               << QString::fromStdString(error.message) << "\n";
    if (!base.ok())
        return int(ExitCode::BadInput);
    if (request.designs.empty())
        request.designs = base.spec.designs;

    // Under MPI every rank writes a cache of its own (no two processes on one file across nodes);
    // rank 0 merges them into the cache once all points are in.
    QString cachePath;
    const QString targetCache = parser.isSet(noCache) ? QString()
        : parser.isSet(cache)                         ? parser.value(cache)
                                                      : QString::fromStdString(store::ResultStore::defaultPath());
    const QString rankCache = mpi && !targetCache.isEmpty() ? targetCache + u".rank%1"_s.arg(ranks.rank) : QString();
    std::unique_ptr<store::ResultStore> resultStore
        = openCache(parser.isSet(noCache), mpi ? rankCache : parser.value(cache), command, io, &cachePath);

    const auto start = std::chrono::steady_clock::now();
    NullRunControl control;
    run::SweepResult result
        = run::runSweep(request, axes, resultStore.get(), control, threads, {}, parity ? &parityRead : nullptr, shard);
    if (mpi) {
        resultStore.reset(); // closed before rank 0 reads it
        mpiGatherPoints(ranks, result);
        if (ranks.rank != 0) {
            mpiFinish();
            return int(ExitCode::Ok);
        }
        shard = {};
        cachePath.clear();
        if (!targetCache.isEmpty()) {
            const store::OpenResult target = store::ResultStore::open(targetCache.toStdString());
            if (target.store) {
                cachePath = targetCache;
                for (int r = 0; r < ranks.size; ++r) {
                    const QString part = targetCache + u".rank%1"_s.arg(r);
                    const store::MergeReport merged = target.store->mergeFrom(part.toStdString());
                    if (merged.ok()) {
                        for (const char* suffix : { "", "-wal", "-shm" })
                            QFile::remove(part + QLatin1String(suffix));
                    } else {
                        io.err << command << ": rank " << r << "'s cache kept at " << part << ": "
                               << QString::fromStdString(merged.error) << "\n";
                    }
                }
            } else {
                io.err << command << ": " << QString::fromStdString(target.error) << "\n";
            }
        }
        mpiFinish();
    }
    const double wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    int fromCache = 0;
    int failed = 0;
    int ran = 0;
    QString firstError;
    for (const run::SweepPoint& point : result.points) {
        if (!point.done)
            continue; // another shard's
        ++ran;
        fromCache += point.fromCache ? 1 : 0;
        if (point.error.empty())
            continue;
        ++failed;
        if (firstError.isEmpty())
            firstError = QString::fromStdString(point.error);
    }
    const std::string text = run::sweepCsv(result);
    const bool toStdout = parser.value(csv) == u"-"_s;
    if (toStdout)
        io.out << QString::fromStdString(text);
    else if (!writeFile(parser.value(csv), text, command, io))
        return int(ExitCode::BadInput);
    QTextStream& summary = toStdout ? io.err : io.out;
    if (shard.count > 1)
        summary << "sweep: shard " << shard.index << "/" << shard.count << ": " << ran << " of " << result.points.size()
                << " points\n";
    summary << "sweep: " << ran << " points × " << result.designs.size() << " designs, " << fromCache
            << " from the cache, " << failed << " failed; " << numberText(wallSeconds, 3) << " s wall"
            << (cachePath.isEmpty() ? u" (no cache)"_s : u"; cache "_s + cachePath) << "\n";
    if (failed > 0)
        io.err << command << ": " << failed << " of " << ran << " points failed; first: " << firstError << "\n";
    // Like elk run: a model that fits no variant (or variants that are no valid chip) is bad input.
    if (ran > 0 && failed == ran)
        return int(ExitCode::BadInput);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
