// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk runspec resolve --model PATH --chip PRESET|FILE [...]
#include <optional>

#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_run_request.h"
#include "engine/run/run_spec.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

int runRunSpec(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Resolves a run request (model, chip preset or file, overrides, shape, designs) into the fully "
        "specified run spec; prints its canonical JSON and the cache key (SHA-256 of that text)."_s);
    parser.addPositionalArgument(u"resolve"_s, u"The subcommand (only 'resolve' exists)."_s);
    const QCommandLineOption model(u"model"_s,
        u"Model file (.onnx, .mlir, .elk.json or einstein_v2 .json; hashed by content) or a bundled model name."_s,
        u"PATH"_s);
    parser.addOption(model);
    const RunRequestOptions runOptions(SeqMeaning::NewTokens);
    runOptions.addTo(parser);
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(command, u"no subcommand given; expected 'resolve'"_s, io);
    if (positional.first() != u"resolve"_s || positional.size() > 1)
        return usageError(command, u"unexpected argument '%1'; expected 'resolve'"_s.arg(positional.last()), io);
    const QString resolveCommand = command + u" resolve"_s;
    if (!parser.isSet(model))
        return usageError(resolveCommand, u"--model PATH is required"_s, io);
    if (!parser.isSet(runOptions.chip()))
        return usageError(resolveCommand, u"--chip PRESET|FILE is required"_s, io);

    QStringList problems;
    run::RunRequest request = runOptions.read(parser, problems);
    request.modelPath = parser.value(model).toStdString();
    if (!problems.isEmpty()) {
        for (const QString& problem : problems)
            io.err << resolveCommand << ": " << problem << "\n";
        return int(ExitCode::BadInput);
    }
    const run::RunSpecResult result = run::resolveRunSpec(request);
    if (!result.ok()) {
        for (const chip::FieldError& error : result.errors) {
            io.err << resolveCommand << ": " << QString::fromStdString(error.field) << ": "
                   << QString::fromStdString(error.message) << "\n";
        }
        return int(ExitCode::BadInput);
    }
    io.out << QString::fromStdString(run::runSpecToCanonicalJson(result.spec)) << "\n"
           << "cache key: " << QString::fromStdString(run::runSpecHash(result.spec)) << "\n";
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
