// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk presets [--json | --show NAME]
#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/run/chips.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString topologyText(const chip::ChipSpec& spec)
    {
        QString text = QString::fromLatin1(chip::toString(spec.interconnect.topology));
        if (spec.interconnect.topology == chip::Topology::Mesh2d)
            text += u" %1×%2"_s.arg(spec.interconnect.meshWidth).arg(spec.interconnect.meshHeight);
        return text;
    }

    /// Descriptions run to a paragraph; the table keeps the first ~60 characters, cut at a word.
    QString oneLine(const std::string& description)
    {
        QString text = QString::fromStdString(description).simplified();
        constexpr qsizetype kMax = 60;
        if (text.size() <= kMax)
            return text;
        qsizetype cut = text.lastIndexOf(u' ', kMax - 1);
        if (cut < kMax / 2)
            cut = kMax - 1;
        return text.left(cut) + u"…"_s;
    }

    void printTable(const std::vector<chip::ChipSpec>& presets, QTextStream& out)
    {
        const QStringList header { u"NAME"_s, u"CHIPS×CORES"_s, u"SRAM/CORE KiB"_s, u"TOPOLOGY"_s, u"HBM TB/s"_s,
            u"DESCRIPTION"_s };
        QList<QStringList> rows { header };
        for (const chip::ChipSpec& spec : presets) {
            rows.append({ QString::fromStdString(spec.name), u"%1×%2"_s.arg(spec.chips).arg(spec.coresPerChip),
                numberText(double(spec.sramBytesPerCore) / 1024.0), topologyText(spec),
                numberText(spec.totalHbmBandwidthGBps() / 1000.0, 4), oneLine(spec.description) });
        }
        QList<qsizetype> widths(header.size(), 0);
        for (const QStringList& row : rows) {
            for (qsizetype c = 0; c < row.size(); ++c)
                widths[c] = std::max(widths[c], row[c].size());
        }
        for (const QStringList& row : rows) {
            QString line;
            for (qsizetype c = 0; c < row.size(); ++c)
                line += c + 1 == row.size() ? row[c] : row[c].leftJustified(widths[c] + 2);
            out << line << "\n";
        }
    }

    /// A JSON array of the canonical chip texts, indented one level; byte-identical to --show per entry.
    void printJsonArray(const std::vector<chip::ChipSpec>& presets, QTextStream& out)
    {
        out << "[\n";
        for (std::size_t i = 0; i < presets.size(); ++i) {
            const QStringList lines = QString::fromStdString(chip::chipSpecToJson(presets[i])).trimmed().split(u'\n');
            for (qsizetype l = 0; l < lines.size(); ++l)
                out << "  " << lines[l] << (l + 1 < lines.size() ? "\n" : "");
            out << (i + 1 < presets.size() ? ",\n" : "\n");
        }
        out << "]\n";
    }

} // namespace

int runPresets(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Lists the chip presets built into elk."_s);
    const QCommandLineOption jsonOption(u"json"_s, u"Print every preset, fully resolved, as a JSON array."_s);
    const QCommandLineOption showOption(u"show"_s, u"Print one preset, fully resolved, as JSON."_s, u"NAME"_s);
    parser.addOption(jsonOption);
    parser.addOption(showOption);
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty())
        return usageError(command, u"unexpected argument '%1'"_s.arg(parser.positionalArguments().first()), io);
    if (parser.isSet(jsonOption) && parser.isSet(showOption))
        return usageError(command, u"--json and --show cannot be combined"_s, io);

    const std::vector<chip::ChipSpec> presets = chip::builtinPresets();
    if (parser.isSet(showOption)) {
        const QString name = parser.value(showOption);
        const auto preset = chip::findBuiltinPreset(name.toStdString());
        if (!preset) {
            QStringList names;
            for (const chip::ChipSpec& spec : presets)
                names << QString::fromStdString(spec.name);
            io.err << command << ": unknown preset '" << name << "'; valid names: " << names.join(u", "_s) << "\n";
            return int(ExitCode::BadInput);
        }
        io.out << QString::fromStdString(chip::chipSpecToJson(*preset)).trimmed() << "\n";
        return int(ExitCode::Ok);
    }
    if (parser.isSet(jsonOption))
        printJsonArray(presets, io.out);
    else
        printTable(presets, io.out);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
