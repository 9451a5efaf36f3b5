// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk hlo MODULE.mlir --system PRESET|FILE [--estimator roofline|icca:CHIP|table:CSV]... [--allow-unpriced] [--split
// linear|dependency]
//         [--json OUT] [--csv OUT] [--trace OUT] [--chakra DIR] ; elk hlo MODULE.mlir --check ; elk hlo --list
#include <chrono>
#include <memory>

#include <QCommandLineParser>
#include <QDir>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/hlo/hlo_chakra.h"
#include "engine/hlo/hlo_run.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString qs(const std::string& text)
    {
        return QString::fromStdString(text);
    }

    QString seconds(double value)
    {
        if (value >= 1)
            return QString::number(value, 'f', 3) + u" s"_s;
        if (value >= 1e-3)
            return QString::number(value * 1e3, 'f', 3) + u" ms"_s;
        return QString::number(value * 1e6, 'f', 2) + u" µs"_s;
    }

    int listPresets(Io io)
    {
        io.out << "devices:\n";
        for (const std::string& name : hlo::builtinDeviceNames()) {
            const auto device = hlo::findDevicePreset(name);
            io.out << "  " << qs(name).leftJustified(18) << qs(device->displayName) << ", "
                   << numberText(device->memoryBandwidthGBps) << " GB/s\n";
        }
        io.out << "systems:\n";
        for (const std::string& name : hlo::builtinSystemNames()) {
            const auto system = hlo::findSystemPreset(name);
            io.out << "  " << qs(name).leftJustified(22) << system->deviceCount() << " × " << qs(system->device) << ", "
                   << qs(hlo::toString(system->nodeTopology)) << " " << numberText(system->linkGBpsPerDevice) << " GB/s"
                   << (system->nodes > 1 ? u", %1 nodes"_s.arg(system->nodes) : QString()) << "\n";
        }
        return int(ExitCode::Ok);
    }

    int check(const QString& path, const QString& command, Io io)
    {
        const hlo::ReadResult read = hlo::readHloFile(path.toStdString());
        for (const std::string& warning : read.warnings)
            io.err << command << ": warning: " << qs(warning) << "\n";
        for (const hlo::ReadError& error : read.errors)
            io.err << qs(hlo::toString(error)) << "\n";
        if (read.onlyComments) { // valid, and nothing in it
            io.out << path << ": ok, 0 modules (only comments)\n";
            return int(ExitCode::Ok);
        }
        if (!read.ok())
            return int(ExitCode::BadInput);
        std::int64_t ops = 0;
        for (const hlo::Module& module : read.modules)
            for (const hlo::Function& function : module.functions)
                hlo::forEachOp(function.body, [&](const hlo::Op&, int) { ++ops; });
        io.out << path << ": ok, " << read.modules.size() << " module" << (read.modules.size() == 1 ? "" : "s") << ", "
               << ops << " ops\n";
        return int(ExitCode::Ok);
    }

    void printSummary(const hlo::HloRunResult& result, double wallSeconds, Io io)
    {
        int computeRegions = 0;
        int commRegions = 0;
        for (const hlo::RegionReport& region : result.regions)
            ++(region.kind == hlo::RegionKind::Compute ? computeRegions : commRegions);
        io.out << "module " << qs(result.moduleName) << " on " << qs(result.systemName) << " ("
               << result.system.deviceCount() << " × " << qs(result.device.displayName) << ")\n"
               << "  estimators      " << qs(result.estimators.empty() ? std::string() : result.estimators.front());
        for (std::size_t i = 1; i < result.estimators.size(); ++i)
            io.out << " → " << qs(result.estimators[i]);
        io.out << "\n  ops             " << result.opCount << " (" << numberText(result.totalFlops / 1e12, 4)
               << " TFLOP per device)\n"
               << "  regions         " << computeRegions << " compute, " << commRegions << " communication\n"
               << "  fusion          "
               << (result.fusionEnabled ? u"%1: memory traffic %2 GB → %3 GB"_s.arg(qs(result.fusionMode),
                       numberText(result.unfusedBytes / 1e9, 4), numberText(result.fusedBytes / 1e9, 4))
                                        : u"off: memory traffic %1 GB"_s.arg(numberText(result.unfusedBytes / 1e9, 4)))
               << "\n"
               << "  compute         " << seconds(result.computeSeconds) << "\n"
               << "  communication   " << seconds(result.commSeconds) << " (exposed "
               << seconds(result.exposedCommSeconds) << ")\n"
               << "  step            " << seconds(result.stepSeconds) << "\n"
               << "  region cache    " << result.cacheHits << " hits, " << result.cacheMisses << " misses\n"
               << (result.unpricedKernels > 0
                          ? u"  unpriced        %1 kernels counted as 0 s (--allow-unpriced)\n"_s.arg(
                              result.unpricedKernels)
                          : QString())
               << "  wall            " << seconds(wallSeconds) << "\n";
        if (!result.unknownOps.empty()) {
            QStringList names;
            for (const std::string& name : result.unknownOps)
                names << qs(name);
            io.out << "  unknown ops     " << names.join(u", "_s) << " (costed as memory traffic)\n";
        }
    }

} // namespace

int runHlo(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Predicts the step time of a StableHLO module (the per-device program of a JAX/XLA export) on a "
        "system: ops are costed, fused and sliced into compute and communication regions; compute regions "
        "are priced by a chain of estimators (the first that supports a kernel wins) and cached, collectives "
        "by an α–β network model, and a compute stream and a communication stream are simulated."_s);
    parser.addPositionalArgument(u"MODULE"_s, u"A StableHLO text file (.mlir)."_s);
    const QCommandLineOption system(u"system"_s,
        u"A system preset (see --list) or a system JSON file. Default 4x-a100-sxm-40gb."_s, u"PRESET|FILE"_s);
    const QCommandLineOption estimator(u"estimator"_s,
        u"roofline (the system's device), icca:CHIP[,design=D] (the Elk compiler + simulator on an ICCA chip "
        "preset or file) or table:CSV (measured seconds by kernel signature). Repeatable: an ordered fallback "
        "chain. Default roofline."_s,
        u"SPEC"_s);
    const QCommandLineOption split(u"split"_s, u"Slicing: linear (default) or dependency."_s, u"MODE"_s);
    const QCommandLineOption noMerge(u"no-merge"_s, u"Dependency split: keep one region per kernel."_s);
    const QCommandLineOption noFusion(u"no-fusion"_s, u"Charge every op's memory traffic (--fusion none)."_s);
    const QCommandLineOption fusionMode(u"fusion"_s,
        u"How ops form kernels: xla (the module's own fusion ops, boundary bytes only: XLA-optimised exports), "
        "elk (our XLA-like greedy pass over the ops) or none (one kernel per op). Default: xla when the module "
        "has fusions, else elk."_s,
        u"MODE"_s);
    const QCommandLineOption tripCount(
        u"trip-count"_s, u"Trip count of while loops whose count cannot be inferred (default 1)."_s, u"N"_s);
    const QCommandLineOption algorithm(u"algorithm"_s,
        u"Collective algorithm: auto (fastest, default), ring, direct, halving-doubling or tree."_s, u"NAME"_s);
    const QCommandLineOption part(u"part"_s, u"Which '// -----' part of a split file (default 0)."_s, u"N"_s);
    const QCommandLineOption json(u"json"_s, u"Write the JSON report to OUT ('-' for stdout)."_s, u"OUT"_s);
    const QCommandLineOption csv(u"csv"_s, u"Write one CSV row per region to OUT."_s, u"OUT"_s);
    const QCommandLineOption trace(u"trace"_s, u"Write the step timeline as a Perfetto trace (JSON)."_s, u"OUT"_s);
    const QCommandLineOption chakra(
        u"chakra"_s, u"Write Chakra execution traces (elk.<rank>.et) and comm_group.json into DIR."_s, u"DIR"_s);
    const QCommandLineOption cache(u"cache"_s, u"The result cache file (default as for elk run)."_s, u"PATH"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Neither read nor write the region cache."_s);
    const QCommandLineOption checkOnly(u"check"_s, u"Parse and verify only: exit 0, or 2 with the located error."_s);
    const QCommandLineOption list(u"list"_s, u"List the device and system presets."_s);
    const QCommandLineOption allowUnpriced(u"allow-unpriced"_s,
        u"Count kernels no estimator of the chain supports as 0 s, with a warning listing them (default: "
        "the run fails and names them)."_s);
    const QCommandLineOption dim(u"dim"_s,
        u"?=N: the size of every dynamic dimension ('?') without a bound (default: such a module is refused "
        "with the list of them)."_s,
        u"?=N"_s);
    parser.addOptions({ system, estimator, split, noMerge, noFusion, tripCount, algorithm, part, json, csv, trace,
        chakra, cache, noCache, checkOnly, list, allowUnpriced, dim, fusionMode });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    if (parser.isSet(list))
        return listPresets(io);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(command, positional.isEmpty() ? u"no MODULE given"_s : u"expected exactly one MODULE"_s, io);
    if (parser.isSet(checkOnly))
        return check(positional.first(), command, io);
    if (parser.isSet(cache) && parser.isSet(noCache))
        return usageError(command, u"--cache and --no-cache exclude each other"_s, io);

    hlo::HloRunOptions options;
    QStringList problems;
    if (parser.isSet(system))
        options.system = parser.value(system).toStdString();
    if (parser.isSet(estimator)) {
        options.estimators.clear();
        for (const QString& value : parser.values(estimator))
            options.estimators.push_back(value.toStdString());
    }
    if (parser.isSet(split)) {
        if (const auto mode = hlo::splitModeFromString(parser.value(split).toStdString()))
            options.slice.mode = *mode;
        else
            problems << u"--split: '%1' is not linear or dependency"_s.arg(parser.value(split));
    }
    options.slice.merge = !parser.isSet(noMerge);
    options.allowUnpriced = parser.isSet(allowUnpriced);
    if (parser.isSet(dim)) {
        const QString value = parser.value(dim);
        bool ok = false;
        const qint64 size = value.startsWith(u"?="_s) ? value.mid(2).toLongLong(&ok) : 0;
        if (!ok || size < 1)
            problems << u"--dim: '%1' is not ?=N with N ≥ 1 (StableHLO dims have no names: one size binds every "
                        "unbounded '?')"_s.arg(value);
        else
            options.dynamicDimSize = size;
    }
    options.fusion.enabled = !parser.isSet(noFusion);
    if (parser.isSet(fusionMode)) {
        if (const auto mode = hlo::fusionModeFromString(parser.value(fusionMode).toStdString()))
            options.fusion.mode = *mode;
        else
            problems << u"--fusion: '%1' is not xla, elk or none"_s.arg(parser.value(fusionMode));
    }
    if (parser.isSet(algorithm)) {
        if (const auto chosen = hlo::collectiveAlgorithmFromString(parser.value(algorithm).toStdString()))
            options.algorithm = *chosen;
        else
            problems << u"--algorithm: '%1' is not auto, ring, direct, halving-doubling or tree"_s.arg(
                parser.value(algorithm));
    }
    auto readCount = [&](const QCommandLineOption& option, const QString& name, qint64 minimum, qint64& out) {
        if (!parser.isSet(option))
            return;
        bool ok = false;
        out = parser.value(option).toLongLong(&ok);
        if (!ok || out < minimum)
            problems << u"--%1: '%2' is not an integer ≥ %3"_s.arg(name, parser.value(option)).arg(minimum);
    };
    qint64 trips = 1;
    qint64 partIndex = 0;
    readCount(tripCount, u"trip-count"_s, 0, trips);
    readCount(part, u"part"_s, 0, partIndex);
    options.defaultTripCount = trips;
    options.partIndex = int(partIndex);
    for (const QString& problem : problems)
        io.err << command << ": " << problem << "\n";
    if (!problems.isEmpty())
        return int(ExitCode::BadInput);

    const std::unique_ptr<store::ResultStore> resultStore
        = openCache(parser.isSet(noCache), parser.value(cache), command, io);
    const auto start = std::chrono::steady_clock::now();
    NullRunControl control;
    const hlo::HloRunResult result
        = hlo::runHloFile(positional.first().toStdString(), options, resultStore.get(), control);
    const double wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const std::string& warning : result.warnings)
        io.err << command << ": warning: " << qs(warning) << "\n";
    if (!result.ok()) {
        for (const std::string& error : result.errors)
            io.err << command << ": " << qs(error) << "\n";
        return int(ExitCode::BadInput);
    }
    const bool jsonToStdout = parser.value(json) == u"-"_s;
    if (jsonToStdout)
        io.out << qs(hlo::hloRunToJson(result));
    else
        printSummary(result, wallSeconds, io);
    if (parser.isSet(json) && !jsonToStdout && !writeFile(parser.value(json), hlo::hloRunToJson(result), command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(csv) && !writeFile(parser.value(csv), hlo::hloRegionsToCsv(result), command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(trace)
        && !writeFile(parser.value(trace),
            hlo::stepTimelineToPerfetto(
                result.stepNodes, result.timeline, result.moduleName + " on " + result.systemName),
            command, io))
        return int(ExitCode::BadInput);
    if (parser.isSet(chakra)) {
        const QString directory = parser.value(chakra);
        if (!QDir().mkpath(directory)) {
            io.err << command << ": cannot create " << directory << "\n";
            return int(ExitCode::BadInput);
        }
        const hlo::ChakraExport traces = hlo::buildChakraExport(result.stepNodes, result.system.deviceCount());
        const std::string error = hlo::writeChakraExport(traces, directory.toStdString());
        if (!error.empty()) {
            io.err << command << ": " << qs(error) << "\n";
            return int(ExitCode::BadInput);
        }
        (jsonToStdout ? io.err : io.out) << "  chakra          " << traces.traces.size()
                                         << " traces and comm_group.json in " << directory << "\n";
    }
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
