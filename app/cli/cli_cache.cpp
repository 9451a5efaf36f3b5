// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk cache merge A.sqlite B.sqlite … --into C.sqlite
#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

int runCache(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    const QString action = args.value(1);
    if (action != u"merge"_s) {
        return usageError(command,
            action.isEmpty() ? u"no action given: elk cache merge A.sqlite B.sqlite … --into C.sqlite"_s
                             : u"unknown action '%1' (the one there is: merge)"_s.arg(action),
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
