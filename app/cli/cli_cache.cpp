// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk cache merge A.sqlite B.sqlite … --into C.sqlite
// elk cache stats [--cache PATH]
#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString mebibytes(std::int64_t bytes)
    {
        return QString::number(double(bytes) / double(1 << 20), 'f', 1) + u" MiB"_s;
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
        const std::string path = parser.isSet(cache) ? parser.value(cache).toStdString() : store::ResultStore::defaultPath();
        const store::OpenResult opened = store::ResultStore::open(path);
        if (!opened.store) {
            io.err << command << ": " << QString::fromStdString(opened.error) << "\n";
            return int(ExitCode::BadInput);
        }
        const store::CacheStats stats = opened.store->stats();
        io.out << QString::fromStdString(path) << ": " << mebibytes(stats.fileBytes) << "\n";
        for (const store::CacheStats::Kind& kind : stats.kinds) {
            io.out << u"  %1 %2 rows, %3"_s.arg(QString::fromStdString(kind.name) + u":"_s, -20).arg(kind.rows, 6).arg(mebibytes(kind.payloadBytes), 10);
            if (kind.rows > 0) {
                io.out << u", largest %1"_s.arg(mebibytes(kind.largestBytes));
                if (!kind.oldestUtc.empty())
                    io.out << u", oldest "_s << QString::fromStdString(kind.oldestUtc);
            }
            io.out << "\n";
        }
        return int(ExitCode::Ok);
    }

} // namespace

int runCache(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    const QString action = args.value(1);
    if (action == u"stats"_s)
        return runStats(QStringList { command + u" stats"_s } + args.mid(2), io);
    if (action != u"merge"_s) {
        return usageError(command,
            action.isEmpty() ? u"no action given: elk cache merge A.sqlite B.sqlite … --into C.sqlite, or elk cache stats"_s
                             : u"unknown action '%1' (there are: merge, stats)"_s.arg(action),
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
               << report.regions << " StableHLO regions, " << report.parityRuns << " parity runs added\n";
    }
    io.out << parser.value(into) << ": " << opened.store->runCount() << " runs, " << opened.store->partitionCount()
           << " partition tables\n";
    return failed > 0 ? int(ExitCode::BadInput) : int(ExitCode::Ok);
}

} // namespace elk::app::cli
