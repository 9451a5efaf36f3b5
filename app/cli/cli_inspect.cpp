// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk inspect MODEL [--batch B] [--seq S] [--kv K] [--phase decode|prefill|train] [--json]
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_run_request.h"
#include "engine/run/model_load.h"
#include "engine/run/models.h"
#include "engine/run/run_spec.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    constexpr std::int64_t kDefaultTokens = 2048;

    /// The step to inspect, as asked on the command line (unset: not given).
    struct Shape {
        std::optional<std::int64_t> batch;
        std::optional<std::int64_t> seq;
        std::optional<std::int64_t> kv;
        std::optional<import::ModelPhase> phase;
        std::map<std::string, std::int64_t> dims; ///< --dim
        std::map<std::string, std::vector<std::int64_t>> inputShapes; ///< --input-shape
        bool any() const { return batch || seq || kv || phase || !dims.empty() || !inputShapes.empty(); }
    };

    /// Symbolic-dim values for one step. Decode generates one token per sequence over a cache of
    /// --kv tokens, or --seq when --kv is not given (the context length; "llama2-13b --seq 2048"
    /// is the paper's decode step); prefill and train run --seq tokens.
    import::DimBindings bindingsFor(const Shape& shape){ import::DimBindings dims;
    dims.batch = shape.batch.value_or(1);
    if (shape.phase.value_or(import::ModelPhase::Decode) == import::ModelPhase::Decode) {
        dims.seqLen = 1;
        dims.kvLen = shape.kv ? *shape.kv : shape.seq.value_or(kDefaultTokens);
    } else {
        dims.seqLen = shape.seq.value_or(kDefaultTokens);
        dims.kvLen = shape.kv; // prefill after a cached prefix, when a file has such a dim
    }
    dims.named = shape.dims;
    dims.inputShapes = shape.inputShapes;
    return dims;
}

import::ImportOptions optionsFor(const Shape& shape){ import::ImportOptions options;
options.dims = bindingsFor(shape);
return options;
}

/// The step in words; a decode-phase model without KV-cache inputs (a CNN, an encoder) is one
/// inference pass, not a decode step.
QString stepText(const Shape& shape, const model::Graph& graph)
{
    const import::DimBindings dims = bindingsFor(shape);
    const auto phase = shape.phase.value_or(import::ModelPhase::Decode);
    if (phase == import::ModelPhase::Decode && !run::hasKvCache(graph, dims.kvLen.value_or(0)))
        return u"one inference pass, batch %1"_s.arg(*dims.batch);
    QString text = u"%1, batch %2"_s.arg(QString::fromLatin1(import::toString(phase))).arg(*dims.batch);
    if (phase == import::ModelPhase::Decode)
        return text + u", 1 new token over a KV cache of %1"_s.arg(*dims.kvLen);
    text += u", %1 tokens"_s.arg(*dims.seqLen);
    if (dims.kvLen)
        text += u" after %1 cached"_s.arg(*dims.kvLen);
    return text;
}

struct LoadedModel {
    model::Graph graph;
    QString source; ///< what it is and where it came from, for the header line
    /// A bundled model's parameter count from its architecture (the graph's weight tensors give
    /// the same number; this one is exact by construction).
    std::optional<std::int64_t> declaredParams;
};

/// The graph of a successful import; otherwise prints every issue as "PREFIX: location: message".
std::optional<model::Graph> importedGraph(import::ImportResult&& result, const QString& prefix, Io io)
{
    for (const import::ImportIssue& issue : result.errors)
        io.err << QString::fromStdString(import::toString(prefix.toStdString(), issue)) << "\n";
    if (!result.ok())
        return std::nullopt;
    // What the importer accepted but the user should know (an export's slips, a dim taken as given).
    for (const import::ImportIssue& issue : result.warnings)
        io.err << "warning: " << QString::fromStdString(import::toString(prefix.toStdString(), issue)) << "\n";
    return std::move(result.graph);
}

std::optional<LoadedModel> loadBundled(
    const import::TransformerConfig& config, const Shape& shape, const QString& command, Io io)
{
    const import::ModelPhase phase = shape.phase.value_or(import::ModelPhase::Decode);
    const std::vector<import::ModelPhase> phases = import::supportedPhases(config);
    const QString name = QString::fromStdString(config.name);
    if (std::find(phases.begin(), phases.end(), phase) == phases.end()) {
        QStringList names;
        for (import::ModelPhase supported : phases)
            names << QString::fromLatin1(import::toString(supported));
        io.err << command << ": " << name << " has no " << import::toString(phase) << " phase; it has "
               << names.join(u", "_s) << "\n";
        return std::nullopt;
    }
    const std::string bytes = import::buildTransformerOnnx(config, phase);
    const import::ImportOptions options = optionsFor(shape);
    std::optional<model::Graph> graph
        = importedGraph(import::importOnnxBytes(bytes, config.name, options), name + u" (bundled)"_s, io);
    if (!graph)
        return std::nullopt;
    LoadedModel loaded { std::move(*graph), {}, import::parameterCount(config) };
    const QString title = QString::fromStdString(config.title);
    loaded.source = u"bundled %1, %2"_s.arg(title, stepText(shape, loaded.graph));
    if (config.arch == import::ModelArch::Dit && config.patchSize > 0) {
        const std::int64_t side = config.inputSize / config.patchSize; // tokens are fixed: one per patch
        loaded.source
            = u"bundled %1, %2, batch %3, %4 patch tokens"_s.arg(title, QString::fromLatin1(import::toString(phase)))
                  .arg(*options.dims.batch)
                  .arg(side * side);
    }
    return loaded;
}

std::optional<LoadedModel> loadOnnxFile(const QString& path, const Shape& shape, Io io)
{
    // Dims named by expressions ("past + seq") are bound by the importer from batch, seq and past.
    std::optional<model::Graph> graph
        = importedGraph(import::importOnnxFile(path.toStdString(), optionsFor(shape)), path, io);
    if (!graph)
        return std::nullopt;
    const QString step = stepText(shape, *graph);
    return LoadedModel { std::move(*graph), u"%1, %2"_s.arg(path, step), std::nullopt };
}

std::optional<LoadedModel> loadEinsteinFile(const QString& path, const Shape& shape, const QString& command, Io io)
{
    if (shape.phase == import::ModelPhase::Train) {
        io.err << command << ": " << path
               << ": an einstein_v2 graph is a forward pass; a training step needs a bundled model\n";
        return std::nullopt;
    }
    std::optional<model::Graph> graph
        = importedGraph(import::importEinsteinFile(path.toStdString(), optionsFor(shape)), path, io);
    if (!graph)
        return std::nullopt;
    const QString step = stepText(shape, *graph);
    return LoadedModel { std::move(*graph), u"%1, einstein_v2, %2"_s.arg(path, step), std::nullopt };
}

std::optional<LoadedModel> loadElkGraphFile(const QString& path, const Shape& shape, const QString& command, Io io)
{
    if (shape.any()) {
        io.err << command << ": " << path
               << ": --batch, --seq, --kv, --phase, --dim and --input-shape do not apply to an elk.graph file (its "
                  "shapes are fixed)\n";
        return std::nullopt;
    }
    model::GraphParseResult parsed = model::loadGraphFile(path.toStdString());
    for (const model::GraphParseError& error : parsed.errors)
        io.err << path << ": " << QString::fromStdString(model::toString(error)) << "\n";
    if (!parsed.ok())
        return std::nullopt;
    return LoadedModel { std::move(parsed.graph), path, std::nullopt };
}

/// Loads MODEL (a file, by extension, or a bundled model name) and validates the graph; every
/// problem goes to stderr, naming the file (or model) and the node or line.
std::optional<LoadedModel> loadModel(const QString& modelArg, const Shape& shape, const QString& command, Io io)
{
    const QFileInfo info(modelArg);
    const bool looksLikePath
        = modelArg.contains(u'/') || modelArg.endsWith(u".onnx"_s) || modelArg.endsWith(u".json"_s);
    std::optional<LoadedModel> loaded;
    QString prefix = modelArg;
    if (!info.exists() && looksLikePath) {
        io.err << modelArg << ": cannot read: no such file\n";
    } else if (!info.exists()) {
        const std::optional<import::TransformerConfig> config = import::bundledModelConfig(modelArg.toStdString());
        if (config) {
            loaded = loadBundled(*config, shape, command, io);
            prefix += u" (bundled)"_s;
        } else {
            QStringList names;
            for (const std::string& name : import::bundledModelNames())
                names << QString::fromStdString(name);
            io.err << command << ": '" << modelArg << "' is neither a file nor a bundled model (" << names.join(u", "_s)
                   << ")\n";
        }
    } else if (info.isDir()) {
        io.err << modelArg << ": cannot read: is a directory\n";
    } else if (modelArg.endsWith(u".elk.json"_s)) {
        loaded = loadElkGraphFile(modelArg, shape, command, io);
    } else if (modelArg.endsWith(u".onnx"_s)) {
        loaded = loadOnnxFile(modelArg, shape, io);
    } else if (modelArg.endsWith(u".json"_s)) {
        loaded = loadEinsteinFile(modelArg, shape, command, io);
    } else {
        io.err << modelArg << ": unknown model format; expected .onnx, .elk.json, an einstein_v2 .json, "
               << "or a bundled model name\n";
    }
    if (!loaded)
        return std::nullopt;
    const std::vector<model::GraphError> graphErrors = loaded->graph.validate();
    for (const model::GraphError& error : graphErrors)
        io.err << prefix << ": " << QString::fromStdString(model::toString(error)) << "\n";
    if (!graphErrors.empty())
        return std::nullopt;
    return loaded;
}

/// 26031728640 -> "26,031,728,640": exact numbers a hand calculation can be checked against.
QString grouped(std::int64_t value)
{
    QString digits = QString::number(value < 0 ? -value : value);
    for (qsizetype at = digits.size() - 3; at > 0; at -= 3)
        digits.insert(at, u',');
    return value < 0 ? u'-' + digits : digits;
}

/// Decimal units (1 GB = 1e9 bytes), as model sizes are usually quoted: "26.03 GB", "13.02 G".
QString scaled(std::int64_t value, const QString& unit)
{
    static const char* const prefixes[] = { "", "k", "M", "G", "T", "P" };
    double number = double(value);
    std::size_t prefix = 0;
    while (number >= 1000.0 && prefix + 1 < std::size(prefixes)) {
        number /= 1000.0;
        ++prefix;
    }
    const QString suffix = QString::fromLatin1(prefixes[prefix]) + unit;
    return suffix.isEmpty() ? numberText(number, 4) : numberText(number, 4) + u' ' + suffix;
}

QString exactAndScaled(std::int64_t value, const QString& unit)
{
    return u"%1 (%2)"_s.arg(grouped(value), scaled(value, unit));
}

QString jsonString(const QString& text)
{
    const QByteArray array = QJsonDocument(QJsonArray { text }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2)); // strip [ and ]
}

std::int64_t paramsOf(const LoadedModel& loaded, const model::GraphAnalysis& analysis)
{
    return loaded.declaredParams.value_or(analysis.totals.params);
}

void printText(
    const LoadedModel& loaded, const model::GraphSummary& summary, const model::GraphAnalysis& analysis, Io io)
{
    const model::GraphTotals& totals = analysis.totals;
    const model::LayerStructure& layers = analysis.layers;
    io.out << "Model: " << QString::fromStdString(summary.name) << " (" << loaded.source << ")\n"
           << "  ops: " << summary.opCount << " (" << summary.distinctExpressionCount << " distinct expressions)\n"
           << "  op kinds:";
    for (const model::OpKind kind : model::kAllOpKinds) {
        if (summary.opsOf(kind) > 0)
            io.out << " " << model::toString(kind) << " " << summary.opsOf(kind);
    }
    io.out << "\n"
           << "  layers: " << layers.layerCount << " × " << layers.opsPerLayer << " ops (prefix " << layers.prefixOps
           << ", suffix " << layers.suffixOps << ")\n"
           << "  params: " << exactAndScaled(paramsOf(loaded, analysis), QString());
    if (paramsOf(loaded, analysis) != totals.params)
        io.out << "; weight tensors hold " << scaled(totals.params, QString())
               << " elements (constants computed from weights at import)";
    io.out << "\n"
           << "  FLOPs/step: " << exactAndScaled(totals.flops, u"FLOP"_s) << "\n"
           << "  weight bytes: " << exactAndScaled(totals.weightBytes, u"B"_s) << "\n";
    if (totals.optimizerStateBytes > 0)
        io.out << "  optimizer state bytes: " << exactAndScaled(totals.optimizerStateBytes, u"B"_s)
               << " (read and rewritten each step; not parameters)\n";
    io.out << "  KV bytes: " << exactAndScaled(totals.kvBytes(), u"B"_s) << ": read "
           << scaled(totals.kvBytesRead, u"B"_s) << ", written " << scaled(totals.kvBytesWritten, u"B"_s) << "\n"
           << "  HBM bytes/step: " << exactAndScaled(totals.hbmBytesNoReuse, u"B"_s)
           << " if every op reads its inputs from HBM and writes its output back\n";
}

void printJson(
    const LoadedModel& loaded, const model::GraphSummary& summary, const model::GraphAnalysis& analysis, Io io)
{
    const model::GraphTotals& totals = analysis.totals;
    io.out << "{\n"
           << "  \"name\": " << jsonString(QString::fromStdString(summary.name)) << ",\n"
           << "  \"ops\": " << summary.opCount << ",\n"
           << "  \"layers\": " << analysis.layers.layerCount << ",\n"
           << "  \"ops_per_layer\": " << analysis.layers.opsPerLayer << ",\n"
           << "  \"params\": " << paramsOf(loaded, analysis) << ",\n"
           << "  \"flops_per_step\": " << totals.flops << ",\n"
           << "  \"weight_bytes\": " << totals.weightBytes << ",\n"
           << "  \"optimizer_state_bytes\": " << totals.optimizerStateBytes << ",\n"
           << "  \"kv_bytes\": " << totals.kvBytes() << ",\n"
           << "  \"hbm_bytes_per_step\": " << totals.hbmBytesNoReuse << ",\n"
           << "  \"op_kinds\": {";
    bool first = true;
    for (const model::OpKind kind : model::kAllOpKinds) {
        if (summary.opsOf(kind) == 0)
            continue;
        io.out << (first ? "" : ", ") << "\"" << model::toString(kind) << "\": " << summary.opsOf(kind);
        first = false;
    }
    io.out << "}\n}\n";
}

} // namespace

int runInspect(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Imports a model and prints what one step does: ops and op kinds, the repeated layers found, "
        "parameters, FLOPs, weight, optimizer-state and KV-cache bytes, and the HBM traffic if nothing stayed "
        "on chip."_s);
    parser.addPositionalArgument(u"MODEL"_s,
        u"A model file (.onnx, .elk.json, or an NNFusion einstein_v2 .json), or a bundled model: %1."_s.arg(
            bundledModelList()));
    const QCommandLineOption batch(u"batch"_s, u"Sequences per step (default 1)."_s, u"B"_s);
    const QCommandLineOption seq(u"seq"_s,
        u"Tokens per sequence (default 2048): prefill and train run S tokens; decode runs one new token "
        "over a KV cache of S tokens unless --kv is given."_s,
        u"S"_s);
    const QCommandLineOption kv(u"kv"_s, u"KV-cache length in tokens (decode; default: --seq)."_s, u"K"_s);
    const QCommandLineOption phase(u"phase"_s,
        u"decode (default), prefill or train: the step a bundled model builds, and how --seq binds a file's "
        "sequence dims."_s,
        u"PHASE"_s);
    const QCommandLineOption json(u"json"_s, u"Print the numbers as one JSON object."_s);
    const QCommandLineOption dim(u"dim"_s,
        u"Bind a free dim of the model file by name (e.g. p2o.DynamicDimension.0=1). Repeatable."_s, u"NAME=SIZE"_s);
    const QCommandLineOption inputShape(u"input-shape"_s,
        u"Give a graph input's whole shape, also where its dims have no name (e.g. x=1,3,640,640). Repeatable."_s,
        u"INPUT=d0,d1,..."_s);
    parser.addOptions({ batch, seq, kv, phase, json, dim, inputShape });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(command, positional.isEmpty() ? u"no MODEL given"_s : u"expected exactly one MODEL"_s, io);

    Shape shape;
    QStringList problems;
    const auto readCount = [&](const QCommandLineOption& option, std::int64_t min, std::int64_t max) {
        std::optional<std::int64_t> result;
        if (!parser.isSet(option))
            return result;
        const QString name = option.names().constFirst();
        bool ok = false;
        const qlonglong value = parser.value(option).toLongLong(&ok);
        if (!ok)
            problems << u"--%1: '%2' is not an integer"_s.arg(name, parser.value(option));
        else if (value < min || value > max)
            problems << u"--%1: %2 is out of range %3..%4"_s.arg(name).arg(value).arg(min).arg(max);
        else
            result = value;
        return result;
    };
    shape.batch = readCount(batch, 1, run::kMaxBatch);
    shape.seq = readCount(seq, 1, run::kMaxTokens);
    shape.kv = readCount(kv, 1, run::kMaxTokens);
    shape.dims = parseDimOptions(parser.values(dim), problems);
    shape.inputShapes = parseInputShapeOptions(parser.values(inputShape), problems);
    if (parser.isSet(phase)) {
        shape.phase = import::modelPhaseFromString(parser.value(phase).toStdString());
        if (!shape.phase)
            problems << u"--phase: '%1' is not decode, prefill or train"_s.arg(parser.value(phase));
        else if (*shape.phase == import::ModelPhase::Train && shape.kv)
            problems << u"--kv: a training step has no KV cache"_s;
    }
    if (!problems.isEmpty()) {
        for (const QString& problem : problems)
            io.err << command << ": " << problem << "\n";
        return int(ExitCode::BadInput);
    }

    const std::optional<LoadedModel> loaded = loadModel(positional.first(), shape, command, io);
    if (!loaded)
        return int(ExitCode::BadInput);
    const model::GraphSummary summary = model::summarizeGraph(loaded->graph);
    const model::GraphAnalysis analysis = model::analyzeGraph(loaded->graph);
    if (parser.isSet(json))
        printJson(*loaded, summary, analysis, io);
    else
        printText(*loaded, summary, analysis, io);
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
