// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk runspec resolve --model PATH --chip PRESET|FILE [...]
#include <optional>

#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/run/run_spec.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    /// Collects "--option: 'value' is not ..." problems so all of them are reported at once.
    class ValueReader {
    public:
        explicit ValueReader(const QCommandLineParser& parser)
            : m_parser(parser)
        {
        }

        std::optional<std::int64_t> integer(const QCommandLineOption& option)
        {
            if (!m_parser.isSet(option))
                return std::nullopt;
            bool ok = false;
            const qlonglong value = m_parser.value(option).toLongLong(&ok);
            if (!ok)
                fail(option, u"an integer"_s);
            return ok ? std::optional<std::int64_t>(value) : std::nullopt;
        }

        std::optional<std::uint64_t> unsignedInteger(const QCommandLineOption& option)
        {
            if (!m_parser.isSet(option))
                return std::nullopt;
            bool ok = false;
            const qulonglong value = m_parser.value(option).toULongLong(&ok);
            if (!ok)
                fail(option, u"an integer ≥ 0"_s);
            return ok ? std::optional<std::uint64_t>(value) : std::nullopt;
        }

        std::optional<double> number(const QCommandLineOption& option)
        {
            if (!m_parser.isSet(option))
                return std::nullopt;
            bool ok = false;
            const double value = m_parser.value(option).toDouble(&ok);
            if (!ok)
                fail(option, u"a number"_s);
            return ok ? std::optional<double>(value) : std::nullopt;
        }

        std::optional<bool> onOff(const QCommandLineOption& option)
        {
            if (!m_parser.isSet(option))
                return std::nullopt;
            const QString value = m_parser.value(option);
            if (value == u"on"_s)
                return true;
            if (value == u"off"_s)
                return false;
            fail(option, u"on or off"_s);
            return std::nullopt;
        }

        const QStringList& problems() const { return m_problems; }

    private:
        void fail(const QCommandLineOption& option, const QString& expected)
        {
            m_problems << u"--%1: '%2' is not %3"_s.arg(option.names().constFirst(), m_parser.value(option), expected);
        }

        const QCommandLineParser& m_parser;
        QStringList m_problems;
    };

    std::vector<std::string> toStdStrings(const QStringList& list)
    {
        std::vector<std::string> strings;
        for (const QString& item : list)
            strings.push_back(item.toStdString());
        return strings;
    }

} // namespace

int runRunSpec(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Resolves a run request (model, chip preset or file, overrides, shape, designs) into the fully "
        "specified run spec; prints its canonical JSON and the cache key (SHA-256 of that text)."_s);
    parser.addPositionalArgument(u"resolve"_s, u"The subcommand (only 'resolve' exists)."_s);
    const QCommandLineOption model(u"model"_s, u"Model file (.onnx, .mlir or .elk.json); hashed by content."_s, u"PATH"_s);
    const QCommandLineOption chipOption(u"chip"_s, u"Built-in preset name, or a chip JSON file."_s, u"PRESET|FILE"_s);
    const QCommandLineOption set(u"set"_s,
        u"Change a chip field: dotted (interconnect.linkBandwidthGBpsPerCore=8) or a JSON "
        "pointer (/hbm/stacksPerChip=2). Repeatable."_s,
        u"field=value"_s);
    const QCommandLineOption batch(u"batch"_s, u"Batch size (default 1)."_s, u"B"_s);
    const QCommandLineOption seq(u"seq"_s, u"New tokens per sequence (default: decode 1, else 2048)."_s, u"S"_s);
    const QCommandLineOption kv(u"kv"_s, u"KV cache length in tokens (default: decode 2048, else 0)."_s, u"K"_s);
    const QCommandLineOption phase(u"phase"_s, u"decode (default), prefill or train."_s, u"PHASE"_s);
    const QCommandLineOption design(
        u"design"_s, u"basic, static, elk-dyn, elk-full or ideal; repeatable (default: all)."_s, u"NAME"_s);
    const QCommandLineOption threshold(u"preload-noc-threshold"_s,
        u"θ: share of a core's ingress preloads may fill, 0 < θ ≤ 1 (default 0.9)."_s, u"THETA"_s);
    const QCommandLineOption ingress(u"preload-ingress-gbps"_s,
        u"κ: preload ingress per core in GB/s (default: the chip's link bandwidth)."_s, u"KAPPA"_s);
    const QCommandLineOption delayCompute(u"delay-compute"_s, u"on (default) or off."_s, u"on|off"_s);
    const QCommandLineOption seed(u"seed"_s, u"Seed of randomised choices (default 0)."_s, u"N"_s);
    parser.addOptions(
        { model, chipOption, set, batch, seq, kv, phase, design, threshold, ingress, delayCompute, seed });
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
    if (!parser.isSet(chipOption))
        return usageError(resolveCommand, u"--chip PRESET|FILE is required"_s, io);

    run::RunRequest request;
    request.modelPath = parser.value(model).toStdString();
    request.chip = parser.value(chipOption).toStdString();
    request.chipOverrides = toStdStrings(parser.values(set));
    request.designs = toStdStrings(parser.values(design));
    ValueReader reader(parser);
    request.batch = reader.integer(batch);
    request.seqLen = reader.integer(seq);
    request.kvLen = reader.integer(kv);
    request.preloadNocThreshold = reader.number(threshold);
    request.preloadIngressGBpsPerCore = reader.number(ingress);
    request.delayCompute = reader.onOff(delayCompute);
    request.seed = reader.unsignedInteger(seed);
    QStringList problems = reader.problems();
    if (parser.isSet(phase)) {
        if (const auto parsedPhase = run::phaseFromString(parser.value(phase).toStdString()))
            request.phase = *parsedPhase;
        else
            problems << u"--phase: '%1' is not decode, prefill or train"_s.arg(parser.value(phase));
    }
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
