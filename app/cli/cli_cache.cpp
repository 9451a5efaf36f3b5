// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk cache merge A.sqlite B.sqlite … --into C.sqlite
// elk cache stats [--cache PATH]
// elk cache trim --max-size SIZE [--cache PATH]
// elk cache sweeps [--cache PATH]; elk cache sweep HASH [--cache PATH] [--csv FILE]
#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/run/sweep.h"
#include "engine/store/result_store.h"
#include "engine/store/sweep_recorded.h"

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString mebibytes(std::int64_t bytes)
    {
        if (bytes < (1 << 20)) // small caches and limits: in KiB, not as "0.0 MiB"
            return QString::number(double(bytes) / 1024.0, 'f', 1) + u" KiB"_s;
        return QString::number(double(bytes) / double(1 << 20), 'f', 1) + u" MiB"_s;
    }

    std::unique_ptr<store::ResultStore> openNamedCache(const QCommandLineParser& parser,
        const QCommandLineOption& cache, const QString& command, Io io, std::string& path)
    {
        path = parser.isSet(cache) ? parser.value(cache).toStdString() : store::ResultStore::defaultPath();
        // Looking at or trimming a cache never creates one, nor moves a file aside.
        store::OpenResult opened = store::ResultStore::openExisting(path);
        if (!opened.store)
            io.err << command << ": " << QString::fromStdString(opened.error) << "\n";
        return std::move(opened.store);
    }

    int runStats(const QStringList& args, Io io)
    {
        const QString command = args.value(0);
        QCommandLineParser parser;
        parser.setApplicationDescription(
            u"What a result cache holds: its size, and per kind of row how many, their bytes, the largest and the "
            "oldest."_s);
        const QCommandLineOption cache(u"cache"_s, u"The cache file (default: the user cache)."_s, u"PATH"_s);
        parser.addOption(cache);
        int exitCode = 0;
        if (!parseOrExplain(parser, args, command, io, exitCode))
            return exitCode;
        std::string path;
        const std::unique_ptr<store::ResultStore> store = openNamedCache(parser, cache, command, io, path);
        if (!store)
            return int(ExitCode::BadInput);
        const store::CacheStats stats = store->stats();
        io.out << QString::fromStdString(path) << ": " << mebibytes(stats.fileBytes) << "\n";
        for (const store::CacheStats::Kind& kind : stats.kinds) {
            io.out << u"  %1 %2 rows, %3"_s.arg(QString::fromStdString(kind.name) + u":"_s, -20)
                          .arg(kind.rows, 6)
                          .arg(mebibytes(kind.payloadBytes), 10);
            if (kind.rows > 0) {
                io.out << u", largest %1"_s.arg(mebibytes(kind.largestBytes));
                if (!kind.oldestUtc.empty())
                    io.out << u", oldest "_s << QString::fromStdString(kind.oldestUtc);
            }
            io.out << "\n";
        }
        return int(ExitCode::Ok);
    }

    /// "500M", "2G", "750MiB", "1048576": K, M, G, T are powers of 1024; nothing when not a size.
    std::optional<std::int64_t> parseSize(QString text)
    {
        text = text.trimmed();
        for (const QString& suffix : { u"iB"_s, u"B"_s }) {
            if (text.endsWith(suffix, Qt::CaseInsensitive) && text.size() > suffix.size()) {
                text.chop(suffix.size());
                break;
            }
        }
        double scale = 1;
        const QString units = u"KMGT"_s;
        if (!text.isEmpty()) {
            if (const qsizetype unit = units.indexOf(text.back().toUpper()); unit >= 0) {
                scale = std::pow(1024.0, double(unit + 1));
                text.chop(1);
            }
        }
        bool ok = false;
        const double value = text.toDouble(&ok) * scale;
        if (!ok || !std::isfinite(value) || value < 0 || value > 9e18)
            return std::nullopt;
        return std::int64_t(value);
    }

    int runTrim(const QStringList& args, Io io)
    {
        const QString command = args.value(0);
        QCommandLineParser parser;
        parser.setApplicationDescription(
            u"Shrinks a result cache to at most SIZE: first rows no lookup of this elk can hit (other engine "
            "versions), then, least recently used first, the detail of runs (they stay as summaries, so sweeps and "
            "the history still find them), partition tables, and finally run summaries, parity runs and StableHLO "
            "estimates; then compacts the file. Whatever is evicted is recomputed when next needed."_s);
        const QCommandLineOption cache(u"cache"_s, u"The cache file (default: the user cache)."_s, u"PATH"_s);
        const QCommandLineOption maxSize(u"max-size"_s,
            u"The largest the file may be: bytes, or with K, M, G (powers of 1024), e.g. 500M. Required."_s, u"SIZE"_s);
        parser.addOption(cache);
        parser.addOption(maxSize);
        int exitCode = 0;
        if (!parseOrExplain(parser, args, command, io, exitCode))
            return exitCode;
        if (!parser.isSet(maxSize))
            return usageError(command, u"--max-size SIZE is required (e.g. --max-size 500M)"_s, io);
        const std::optional<std::int64_t> limit = parseSize(parser.value(maxSize));
        if (!limit)
            return usageError(command,
                u"--max-size: '%1' is not a size (expected bytes, or a number with K, M or G, e.g. 500M)"_s.arg(
                    parser.value(maxSize)),
                io);
        std::string path;
        const std::unique_ptr<store::ResultStore> store = openNamedCache(parser, cache, command, io, path);
        if (!store)
            return int(ExitCode::BadInput);
        const store::TrimReport report = store->trim(*limit);
        io.out << QString::fromStdString(path) << ": " << mebibytes(report.bytesBefore) << " → "
               << mebibytes(report.bytesAfter) << " (limit " << mebibytes(*limit) << ")\n";
        io.out << "  " << report.staleRowsRemoved << " rows of other engine versions removed, " << report.detailsDropped
               << " runs kept as summaries only, " << report.runsRemoved << " runs, " << report.partitionsRemoved
               << " partition tables, " << report.parityRunsRemoved << " parity runs, " << report.regionsRemoved
               << " StableHLO regions and " << report.sweepsRemoved << " sweep records removed\n";
        if (!report.ok()) {
            io.err << command << ": " << QString::fromStdString(report.error) << "\n";
            return int(ExitCode::BadInput);
        }
        return int(ExitCode::Ok);
    }

    int runSweeps(const QStringList& args, Io io)
    {
        const QString command = args.value(0);
        QCommandLineParser parser;
        parser.setApplicationDescription(u"The sweeps a result cache recorded, newest first: hash, when, points "
                                         "recorded of the grid, and what was varied."_s);
        const QCommandLineOption cache(u"cache"_s, u"The cache file (default: the user cache)."_s, u"PATH"_s);
        parser.addOption(cache);
        int exitCode = 0;
        if (!parseOrExplain(parser, args, command, io, exitCode))
            return exitCode;
        std::string path;
        const std::unique_ptr<store::ResultStore> store = openNamedCache(parser, cache, command, io, path);
        if (!store)
            return int(ExitCode::BadInput);
        const std::vector<store::SweepRecordInfo> sweeps = store->sweeps();
        if (sweeps.empty())
            io.out << QString::fromStdString(path) << ": no sweeps recorded\n";
        for (const store::SweepRecordInfo& sweep : sweeps) {
            io.out << QString::fromStdString(sweep.sweepHash.substr(0, 12)) << "  "
                   << QString::fromStdString(sweep.createdUtc) << "  "
                   << u"%1/%2 points"_s.arg(sweep.recordedPoints).arg(sweep.gridPoints) << "  "
                   << QString::fromStdString(sweep.title) << "\n";
        }
        return int(ExitCode::Ok);
    }

    int runRecordedSweep(const QStringList& args, Io io)
    {
        const QString command = args.value(0);
        QCommandLineParser parser;
        parser.setApplicationDescription(
            u"A recorded sweep's CSV (as elk sweep writes it) from the cache alone: no model file or run is "
            "needed, so it works on a cache merged from shards or copied from another machine. Points whose "
            "result is no longer in the cache are left out and counted."_s);
        parser.addPositionalArgument(u"HASH"_s, u"The sweep's hash or a unique prefix (elk cache sweeps)."_s);
        const QCommandLineOption cache(u"cache"_s, u"The cache file (default: the user cache)."_s, u"PATH"_s);
        const QCommandLineOption csv(u"csv"_s, u"Where the CSV goes ('-': standard output, the default)."_s, u"FILE"_s);
        parser.addOption(cache);
        parser.addOption(csv);
        int exitCode = 0;
        if (!parseOrExplain(parser, args, command, io, exitCode))
            return exitCode;
        if (parser.positionalArguments().size() != 1)
            return usageError(command, u"expected one sweep HASH (elk cache sweeps lists them)"_s, io);
        std::string path;
        const std::unique_ptr<store::ResultStore> store = openNamedCache(parser, cache, command, io, path);
        if (!store)
            return int(ExitCode::BadInput);
        std::string error;
        const std::optional<store::RecordedSweep> sweep
            = store::openRecordedSweep(*store, parser.positionalArguments().first().toStdString(), error);
        if (!sweep) {
            io.err << command << ": " << QString::fromStdString(error) << "\n";
            return int(ExitCode::BadInput);
        }
        const std::string text = run::sweepCsv(sweep->result);
        const QString target = parser.value(csv);
        if (target.isEmpty() || target == u"-"_s)
            io.out << QString::fromStdString(text);
        else if (!writeFile(target, text, command, io))
            return int(ExitCode::BadInput);
        io.err << command << ": " << QString::fromStdString(sweep->info.title) << ": " << sweep->pointsWithResult
               << " of " << sweep->result.points.size() << " points from the cache\n";
        return int(ExitCode::Ok);
    }

} // namespace

int runCache(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    const QString action = args.value(1);
    if (action == u"stats"_s)
        return runStats(QStringList { command + u" stats"_s } + args.mid(2), io);
    if (action == u"trim"_s)
        return runTrim(QStringList { command + u" trim"_s } + args.mid(2), io);
    if (action == u"sweeps"_s)
        return runSweeps(QStringList { command + u" sweeps"_s } + args.mid(2), io);
    if (action == u"sweep"_s)
        return runRecordedSweep(QStringList { command + u" sweep"_s } + args.mid(2), io);
    if (action != u"merge"_s) {
        return usageError(command,
            action.isEmpty() ? u"no action given: elk cache merge A.sqlite B.sqlite … --into C.sqlite, elk cache "
                               "stats, elk cache trim --max-size 500M, elk cache sweeps, or elk cache sweep HASH"_s
                             : u"unknown action '%1' (there are: merge, stats, trim, sweeps, sweep)"_s.arg(action),
            io);
    }
    const QString mergeCommand = command + u" merge"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Copies the rows of result caches (sweep shards, MPI ranks, other machines) into one cache, which is "
        "created when missing: rows keyed alike are kept once, and a detailed run replaces a summary of the same "
        "spec. A key whose result differs between two files is an error naming it, and that file adds nothing "
        "(runs are deterministic). Run it while nothing else writes the target."_s);
    parser.addPositionalArgument(u"CACHE"_s, u"Result cache files to merge (one or more)."_s, u"CACHE..."_s);
    const QCommandLineOption into(u"into"_s, u"The cache the rows go into. Required."_s, u"TARGET"_s);
    parser.addOption(into);
    int exitCode = 0;
    if (!parseOrExplain(parser, QStringList { mergeCommand } + args.mid(2), mergeCommand, io, exitCode))
        return exitCode;
    const QStringList sources = parser.positionalArguments();
    if (sources.isEmpty())
        return usageError(mergeCommand, u"no CACHE files given"_s, io);
    if (!parser.isSet(into))
        return usageError(mergeCommand, u"--into TARGET.sqlite is required"_s, io);
    const store::OpenResult opened = store::ResultStore::open(parser.value(into).toStdString());
    if (!opened.store) {
        io.err << mergeCommand << ": " << QString::fromStdString(opened.error) << "\n";
        return int(ExitCode::BadInput);
    }
    if (!opened.message.empty())
        io.err << mergeCommand << ": " << QString::fromStdString(opened.message) << "\n";
    int failed = 0;
    for (const QString& source : sources) {
        const store::MergeReport report = opened.store->mergeFrom(source.toStdString());
        if (!report.ok()) {
            io.err << mergeCommand << ": " << QString::fromStdString(report.error) << "\n";
            ++failed;
            continue;
        }
        io.out << source << ": " << report.runs << " runs, " << report.partitions << " partition tables, "
               << report.regions << " StableHLO regions, " << report.parityRuns << " parity runs, "
               << report.sweepPoints << " sweep points added\n";
    }
    io.out << parser.value(into) << ": " << opened.store->runCount() << " runs, " << opened.store->partitionCount()
           << " partition tables\n";
    return failed > 0 ? int(ExitCode::BadInput) : int(ExitCode::Ok);
}

} // namespace elk::app::cli
