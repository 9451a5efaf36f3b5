// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk fit-cost SAMPLES.csv --out MODEL.json [--folds K] [--max-depth D] [--min-leaf N]
#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/core/sha256.h"
#include "engine/run/cost_fit.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

int runFitCost(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Fits the `fitted` tile cost model: one linear model tree per op kind, from measured cycles of one "
        "core running one tile. Prints per kind the samples, the leaves and the k-fold cross-validated mean "
        "absolute error, and writes the model as elk.fitted-cost/1 JSON for a chip's tileCost.fitted.modelPath. "
        "CSV header: kind,extents,dtype,cycles (extent layouts: engine/cost/fitted_cost.h)."_s);
    parser.addPositionalArgument(u"SAMPLES.csv"_s, u"The measured samples."_s);
    const QCommandLineOption out(u"out"_s, u"Where to write the fitted model JSON (required)."_s, u"MODEL.json"_s);
    const QCommandLineOption folds(u"folds"_s, u"Cross-validation folds, 2..1000 (default 5)."_s, u"K"_s);
    const QCommandLineOption maxDepth(u"max-depth"_s, u"Deepest split level, 0..32 (default 6)."_s, u"D"_s);
    const QCommandLineOption minLeaf(u"min-leaf"_s, u"Fewest samples in a leaf, 1..100000 (default 5)."_s, u"N"_s);
    parser.addOptions({ out, folds, maxDepth, minLeaf });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(
            command, positional.isEmpty() ? u"no SAMPLES.csv given"_s : u"expected exactly one SAMPLES.csv"_s, io);
    if (!parser.isSet(out) || parser.value(out).isEmpty())
        return usageError(command, u"--out MODEL.json is required"_s, io);

    QStringList problems;
    const auto readInt = [&](const QCommandLineOption& option, int fallback, int min, int max) {
        if (!parser.isSet(option))
            return fallback;
        const QString name = option.names().constFirst();
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok)
            problems << u"--%1: '%2' is not an integer"_s.arg(name, parser.value(option));
        else if (value < min || value > max)
            problems << u"--%1: %2 is out of range %3..%4"_s.arg(name).arg(value).arg(min).arg(max);
        return value;
    };
    cost::FitOptions options;
    options.folds = readInt(folds, options.folds, 2, 1000);
    options.tree.maxDepth = readInt(maxDepth, options.tree.maxDepth, 0, 32);
    options.tree.minSamplesPerLeaf = readInt(minLeaf, options.tree.minSamplesPerLeaf, 1, 100000);
    if (!problems.isEmpty())
        return usageError(command, problems.join(u"; "_s), io);

    const cost::CostSamplesResult samples = cost::readCostSamplesCsv(positional.constFirst().toStdString());
    if (!samples.ok()) {
        io.err << QString::fromStdString(samples.error) << "\n";
        return int(ExitCode::BadInput);
    }
    const cost::FittedCostData data = cost::fitCostModel(samples.samples, options);
    const std::string json = cost::fittedCostToJson(data);
    const QString outPath = parser.value(out);
    QFile file(outPath);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(json.data(), qint64(json.size())) != qint64(json.size()) || !file.flush()) {
        io.err << outPath << ": cannot write: " << file.errorString() << "\n";
        return int(ExitCode::BadInput);
    }

    io.out << u"KIND"_s.leftJustified(15) << u"SAMPLES"_s.rightJustified(8) << u"LEAVES"_s.rightJustified(8)
           << "  CV MEAN ABS ERROR (" << options.folds << "-fold)\n";
    for (const auto& [kind, fitted] : data.kinds) {
        const QString error = fitted.cvMeanAbsPercentError
            ? QString::number(*fitted.cvMeanAbsPercentError, 'f', 3) + u" %"_s
            : u"n/a (fewer than 2 samples)"_s;
        io.out << QString::fromLatin1(model::toString(kind)).leftJustified(15)
               << QString::number(fitted.trainingSamples).rightJustified(8)
               << QString::number(fitted.tree.leafCount()).rightJustified(8) << "  " << error << "\n";
    }
    io.out << "wrote " << outPath << " (sha256 " << QString::fromStdString(sha256Hex(json)) << ")\n";
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
