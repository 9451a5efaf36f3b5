// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_parity.h"

#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    bool readPositive(
        const QCommandLineParser& parser, const QCommandLineOption& option, double& value, QStringList& problems)
    {
        if (!parser.isSet(option))
            return false;
        bool ok = false;
        const QString text = parser.value(option);
        value = text.toDouble(&ok);
        if (!ok || !(value > 0)) {
            problems << u"--%1: '%2' is not a positive number"_s.arg(option.names().first(), text);
            return false;
        }
        return true;
    }

} // namespace

QString parityQuirkList()
{
    QStringList names;
    for (const std::string& name : run::parityQuirkNames())
        names << QString::fromStdString(name);
    return names.join(u", "_s);
}

ParityCliOptions::ParityCliOptions()
    : m_parity(u"parity"_s,
        u"MODE 'artifact': run as the published Elk artifact does (its front end on its own einstein_v2 model "
        "files, its plan search, per-design constants and backward list schedules; elk-reference.md), to "
        "reproduce the paper's numbers. Default: Elk Studio's equal-terms pipeline and simulator."_s,
        u"MODE"_s)
    , m_layers(u"layers"_s,
          u"Artifact parity: the model's layer count (launch.py --layers); default: the paper's value for its model files."_s,
          u"L"_s)
    , m_splitFactor(u"split-factor"_s,
          u"Artifact parity: capacity split at cores // F MB (launch.py --split_factor); default: the paper's value."_s,
          u"F"_s)
    , m_meshRatio(u"mesh-ratio"_s,
          u"Artifact parity: the artifact's scalar 'mesh' r (launch.py --mesh); default: all-to-all."_s, u"R"_s)
    , m_commScale(u"comm-scale"_s,
          u"Artifact parity: divide every plan's communication cycles by X (launch.py --comm)."_s, u"X"_s)
    , m_compScale(
          u"comp-scale"_s, u"Artifact parity: divide every plan's compute cycles by Y (launch.py --comp)."_s, u"Y"_s)
    , m_quirkOff(u"quirk-off"_s,
          u"Artifact parity: switch one of the artifact's behaviours off (repeatable): %1."_s.arg(parityQuirkList()),
          u"NAME"_s)
{
}

void ParityCliOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({ m_parity, m_layers, m_splitFactor, m_meshRatio, m_commScale, m_compScale, m_quirkOff });
}

bool ParityCliOptions::requested(const QCommandLineParser& parser, QStringList& problems) const
{
    if (!parser.isSet(m_parity)) {
        for (const QCommandLineOption* option :
            { &m_layers, &m_splitFactor, &m_meshRatio, &m_commScale, &m_compScale, &m_quirkOff }) {
            if (parser.isSet(*option))
                problems << u"--%1 applies to --parity artifact only"_s.arg(option->names().first());
        }
        return false;
    }
    if (parser.value(m_parity) != u"artifact"_s)
        problems << u"--parity: '%1' is not a parity mode (known: artifact)"_s.arg(parser.value(m_parity));
    return true;
}

run::ParityOptions ParityCliOptions::read(const QCommandLineParser& parser, QStringList& problems) const
{
    run::ParityOptions options;
    double value = 0;
    if (readPositive(parser, m_layers, value, problems))
        options.layers = int(value);
    if (readPositive(parser, m_splitFactor, value, problems))
        options.splitFactor = int(value);
    if (readPositive(parser, m_meshRatio, value, problems))
        options.meshRatio = value;
    if (readPositive(parser, m_commScale, value, problems))
        options.commScale = value;
    if (readPositive(parser, m_compScale, value, problems))
        options.compScale = value;
    for (const QString& name : parser.values(m_quirkOff)) {
        if (!run::setParityQuirk(options.quirks, name.toStdString(), false)) {
            QStringList known;
            for (const std::string& quirk : run::parityQuirkNames())
                known << QString::fromStdString(quirk);
            problems << u"--quirk-off: '%1' is not a quirk (known: %2)"_s.arg(name, known.join(u", "_s));
        }
    }
    return options;
}

int runParity(
    const run::RunSpec& spec, const run::ParityOptions& options, const QString& jsonPath, const QString& command, Io io)
{
    NullRunControl control;
    const run::ParityRun result = run::runArtifactParity(spec, options, control);
    for (const std::string& error : result.errors)
        io.err << command << ": " << QString::fromStdString(error) << "\n";
    if (!result.ok())
        return int(ExitCode::BadInput);
    const std::string json = run::parityRunToJson(spec, result);
    if (!jsonPath.isEmpty() && jsonPath != u"-"_s && !writeFile(jsonPath, json, command, io))
        return int(ExitCode::BadInput);
    if (jsonPath == u"-"_s) {
        io.out << QString::fromStdString(json);
        return int(ExitCode::Ok);
    }
    io.out << "Artifact parity (elk-reference.md): " << QString::fromStdString(spec.model.path) << ", " << result.ops
           << " ops after the artifact's front end, " << result.distinctExpressions << " distinct plan searches, "
           << result.layers << " layers, capacity split at " << spec.chip.totalCores() << " // " << result.splitFactor
           << " MB\n"
           << "Chip: " << spec.chip.totalCores() << " cores, HBM " << numberText(result.hbmMiBPerMs)
           << " (the artifact's \"GB/s\", used as MiB/ms)\n\n";
    io.out << u"%1 %2 %3 %4  %5\n"_s.arg(u"design"_s, -9)
                  .arg(u"latency ms"_s, 11)
                  .arg(u"execute ms"_s, 11)
                  .arg(u"preload ms"_s, 11)
                  .arg(u"chosen"_s);
    for (const run::ParityDesign& design : result.designs) {
        const QString name = QString::fromLatin1(schedule::toString(design.design));
        if (!design.schedule) {
            io.out << u"%1 no schedule: %2\n"_s.arg(name, -9).arg(QString::fromStdString(design.error));
            continue;
        }
        QString note = QString::fromStdString(design.schedule->note);
        if (design.design == schedule::Design::ElkFull)
            note += u", %1 order runs: %2 valid, %3 cut short"_s.arg(design.schedule->ordersTried)
                        .arg(design.schedule->validOrders)
                        .arg(design.schedule->ordersCutShort);
        io.out << u"%1 %2 %3 %4  %5\n"_s.arg(name, -9)
                      .arg(QString::number(design.latencyMs, 'f', 3), 11)
                      .arg(QString::number(design.executeMs, 'f', 3), 11)
                      .arg(QString::number(design.preloadMs, 'f', 3), 11)
                      .arg(note);
    }
    io.out << "\nlatency = the artifact's analytic backward schedule (it has no simulator); timings: front end "
           << QString::number(result.importSeconds, 'f', 2) << " s, plan search "
           << QString::number(result.searchSeconds, 'f', 2) << " s\n";
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
