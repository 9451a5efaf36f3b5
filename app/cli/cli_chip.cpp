// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk chip validate FILE...
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/run/chips.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    constexpr qint64 kMaxChipFileBytes = 16 << 20; // chip files are a few KiB; anything huge is a wrong file

    /// Validates one file; returns whether it is a valid chip. Problems go to stderr, one per line.
    bool validateFile(const QString& path, Io io)
    {
        const QFileInfo info(path);
        QFile file(path);
        QString readError;
        if (!info.exists())
            readError = u"no such file"_s;
        else if (info.isDir())
            readError = u"is a directory"_s;
        else if (info.size() > kMaxChipFileBytes)
            readError = u"%1 bytes; a chip file has at most %2"_s.arg(info.size()).arg(kMaxChipFileBytes);
        else if (!file.open(QIODevice::ReadOnly))
            readError = file.errorString();
        if (!readError.isEmpty()) {
            io.err << path << ": cannot read: " << readError << "\n";
            return false;
        }

        const QByteArray text = file.readAll();
        const chip::ChipParseResult parsed
            = chip::chipSpecFromJson(std::string_view(text.constData(), std::size_t(text.size())));
        std::vector<chip::FieldError> errors = parsed.errors;
        if (parsed.ok())
            errors = chip::validateChipSpec(parsed.spec);
        for (const chip::FieldError& error : errors) {
            io.err << path << ": " << QString::fromStdString(error.field) << ": "
                   << QString::fromStdString(error.message) << "\n";
        }
        if (!errors.empty())
            return false;
        io.out << path << ": ok\n  " << chipSummary(parsed.spec) << "\n";
        return true;
    }

} // namespace

QString chipSummary(const chip::ChipSpec& spec)
{
    QString interconnect = QString::fromLatin1(chip::toString(spec.interconnect.topology));
    if (spec.interconnect.topology == chip::Topology::Mesh2d)
        interconnect += u" %1×%2"_s.arg(spec.interconnect.meshWidth).arg(spec.interconnect.meshHeight);
    return u"%1: %2 × %3 cores, %4 KiB SRAM/core, %5 GHz, %6 at %7 GB/s per core, HBM %8 TB/s (%9 GiB)"_s
        .arg(QString::fromStdString(spec.name))
        .arg(spec.chips)
        .arg(spec.coresPerChip)
        .arg(numberText(double(spec.sramBytesPerCore) / 1024.0))
        .arg(numberText(spec.clockHz / 1e9))
        .arg(interconnect)
        .arg(numberText(spec.interconnect.linkBandwidthGBpsPerCore))
        .arg(numberText(spec.totalHbmBandwidthGBps() / 1000.0, 4))
        .arg(numberText(spec.totalHbmCapacityGiB()));
}

int runChip(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Checks chip JSON files (schema elk.chip/1): prints 'FILE: ok' and a summary, or one line per "
        "problem, 'FILE: /field: message', on stderr and exits with 2."_s);
    parser.addPositionalArgument(u"validate"_s, u"The subcommand (only 'validate' exists)."_s);
    parser.addPositionalArgument(u"FILE"_s, u"Chip JSON files to check."_s, u"FILE..."_s);
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(command, u"no subcommand given; expected 'validate FILE...'"_s, io);
    if (positional.first() != u"validate"_s)
        return usageError(command, u"unknown subcommand '%1'; expected 'validate'"_s.arg(positional.first()), io);
    if (positional.size() < 2)
        return usageError(command + u" validate"_s, u"no file given"_s, io);

    bool allValid = true;
    for (const QString& path : positional.mid(1))
        allValid = validateFile(path, io) && allValid;
    return int(allValid ? ExitCode::Ok : ExitCode::BadInput);
}

} // namespace elk::app::cli
