// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_run_request.h"

#include <algorithm>

#include <QCommandLineParser>
#include <QTextStream>

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

std::map<std::string, std::int64_t> parseDimOptions(const QStringList& values, QStringList& problems)
{
    std::map<std::string, std::int64_t> dims;
    for (const QString& value : values) {
        const qsizetype equals = value.lastIndexOf(u'=');
        bool ok = false;
        const qlonglong size = equals > 0 ? value.mid(equals + 1).toLongLong(&ok) : 0;
        if (!ok || size < 1) {
            problems << u"--dim: '%1' is not NAME=SIZE with a size >= 1 (e.g. --dim batch_size=1)"_s.arg(value);
            continue;
        }
        dims[value.left(equals).toStdString()] = size;
    }
    return dims;
}

std::map<std::string, std::vector<std::int64_t>> parseInputShapeOptions(
    const QStringList& values, QStringList& problems)
{
    std::map<std::string, std::vector<std::int64_t>> shapes;
    for (const QString& value : values) {
        const qsizetype equals = value.lastIndexOf(u'=');
        std::vector<std::int64_t> shape;
        bool ok = equals > 0;
        for (const QString& part : ok ? value.mid(equals + 1).split(u',') : QStringList {}) {
            bool number = false;
            const qlonglong size = part.trimmed().toLongLong(&number);
            ok = ok && number && size >= 1;
            shape.push_back(size);
        }
        if (!ok || shape.empty()) {
            problems
                << u"--input-shape: '%1' is not INPUT=d0,d1,... with sizes >= 1 (e.g. --input-shape x=1,3,640,640)"_s
                       .arg(value);
            continue;
        }
        shapes[value.left(equals).toStdString()] = std::move(shape);
    }
    return shapes;
}

RunRequestOptions::RunRequestOptions(SeqMeaning seqMeaning)
    : m_seqMeaning(seqMeaning)
    , m_chip(u"chip"_s, u"Built-in preset name, or a chip JSON file."_s, u"PRESET|FILE"_s)
    , m_set(u"set"_s,
          u"Change a chip field: dotted (interconnect.linkBandwidthGBpsPerCore=8, hbm.bandwidthGBpsPerStack=2000) "
          "or a JSON pointer (/hbm/stacksPerChip=2). Repeatable."_s,
          u"field=value"_s)
    , m_batch(u"batch"_s, u"Batch size (default 1)."_s, u"B"_s)
    , m_seq(u"seq"_s,
          seqMeaning == SeqMeaning::NewTokens
              ? u"New tokens per sequence (default: decode 1, else 2048)."_s
              : u"Tokens per sequence (default 2048): decode runs one new token over a KV cache of S tokens "
                "unless --kv is given; prefill and train run S tokens."_s,
          u"S"_s)
    , m_kv(u"kv"_s, u"KV cache length in tokens (default: decode 2048, else 0)."_s, u"K"_s)
    , m_phase(u"phase"_s, u"decode (default), prefill or train."_s, u"PHASE"_s)
    , m_design(u"design"_s,
          u"basic, static, elk-dyn, elk-full, ideal or all; repeatable or comma-separated (default: all)."_s, u"NAME"_s)
    , m_threshold(u"preload-noc-threshold"_s,
          u"θ: share of a core's ingress preloads may fill, 0 < θ ≤ 1 (default 0.9)."_s, u"THETA"_s)
    , m_ingress(u"preload-ingress-gbps"_s,
          u"κ: preload ingress per core in GB/s (default: the chip's link bandwidth)."_s, u"KAPPA"_s)
    , m_delayCompute(u"delay-compute"_s, u"on (default) or off."_s, u"on|off"_s)
    , m_seed(u"seed"_s, u"Seed of randomised choices (default 0)."_s, u"N"_s)
    , m_dim(u"dim"_s, u"Bind a free dim of the model file by name (e.g. p2o.DynamicDimension.0=1). Repeatable."_s,
          u"NAME=SIZE"_s)
    , m_inputShape(u"input-shape"_s,
          u"Give a graph input's whole shape, also where its dims have no name (e.g. x=1,3,640,640). Repeatable."_s,
          u"INPUT=d0,d1,..."_s)
{
}

void RunRequestOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({ m_chip, m_set, m_batch, m_seq, m_kv, m_phase, m_design, m_threshold, m_ingress, m_delayCompute,
        m_seed, m_dim, m_inputShape });
}

run::RunRequest RunRequestOptions::read(const QCommandLineParser& parser, QStringList& problems) const
{
    run::RunRequest request;
    request.chip = parser.value(m_chip).toStdString();
    request.chipOverrides = toStdStrings(parser.values(m_set));
    for (const QString& value : parser.values(m_design)) {
        for (const QString& name : value.split(u',', Qt::SkipEmptyParts)) {
            if (name.trimmed() == u"all"_s)
                request.designs = run::knownDesigns();
            else
                request.designs.push_back(name.trimmed().toStdString());
        }
    }
    ValueReader reader(parser);
    request.batch = reader.integer(m_batch);
    const std::optional<std::int64_t> seq = reader.integer(m_seq);
    request.kvLen = reader.integer(m_kv);
    request.preloadNocThreshold = reader.number(m_threshold);
    request.preloadIngressGBpsPerCore = reader.number(m_ingress);
    request.delayCompute = reader.onOff(m_delayCompute);
    request.seed = reader.unsignedInteger(m_seed);
    problems << reader.problems();
    request.dims = parseDimOptions(parser.values(m_dim), problems);
    request.inputShapes = parseInputShapeOptions(parser.values(m_inputShape), problems);
    if (parser.isSet(m_phase)) {
        if (const auto parsedPhase = run::phaseFromString(parser.value(m_phase).toStdString()))
            request.phase = *parsedPhase;
        else
            problems << u"--phase: '%1' is not decode, prefill or train"_s.arg(parser.value(m_phase));
    }
    if (m_seqMeaning == SeqMeaning::Context && request.phase == run::Phase::Decode) {
        if (!request.kvLen)
            request.kvLen = seq;
    } else {
        request.seqLen = seq;
    }
    // "all" plus names, or a name twice: keep the first of each.
    std::vector<std::string> unique;
    for (const std::string& name : request.designs) {
        if (std::find(unique.begin(), unique.end(), name) == unique.end())
            unique.push_back(name);
    }
    request.designs = std::move(unique);
    return request;
}

std::optional<run::RunSpec> resolveOrReport(const run::RunRequest& request, const QString& command, Io io)
{
    run::RunSpecResult resolved = run::resolveRunSpec(request);
    for (const chip::FieldError& error : resolved.errors)
        io.err << command << ": " << QString::fromStdString(error.field) << ": "
               << QString::fromStdString(error.message) << "\n";
    if (!resolved.ok())
        return std::nullopt;
    return std::move(resolved.spec);
}

} // namespace elk::app::cli
