// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk diff MODEL --chip C --design A --against-design B [--against-chip C2] [run options] [--json OUT]
//          [--top N] [--cache PATH | --no-cache]
// Two simulated runs aligned op by op: Δ execute, Δ preload, Δ wait, sorted by |Δ|; per-link Δ bytes.
#include <algorithm>
#include <cmath>

#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_run_request.h"
#include "engine/run/run_diff.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString fixed(double value, int decimals)
    {
        return QString::number(value, 'f', decimals);
    }

    QString signedMs(double ms)
    {
        return (ms >= 0 ? u"+"_s : QString()) + fixed(ms, 4);
    }

    /// The simulated run of `design` in `result`, or null.
    const sim::SimResult* simulatedDesign(const run::RunResult& result, const std::string& design)
    {
        for (const run::DesignRun& d : result.designs)
            if (schedule::toString(d.design) == design && d.simulated)
                return &*d.simulated;
        return nullptr;
    }

} // namespace

int runDiff(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"An aligned diff of two simulated runs: two designs of one run (--design A --against-design B), or one "
        "design on two chips (--against-chip C2, e.g. before and after an edit). Per op: Δ execute, Δ preload and "
        "Δ wait (the execute pipe idle before it), sorted by |Δ wait + Δ execute|, which add up to the latency "
        "difference; per link: Δ bytes when both runs have the same links."_s);
    parser.addPositionalArgument(u"MODEL"_s, u"A model file or a bundled model (as for 'elk run')."_s);
    const RunRequestOptions runOptions(SeqMeaning::Context);
    runOptions.addTo(parser); // --design A is the first side
    const QCommandLineOption againstDesign(
        u"against-design"_s, u"The design of the second side (default: --design)."_s, u"B"_s);
    const QCommandLineOption againstChip(u"against-chip"_s,
        u"The chip of the second side: a preset or chip file (default: --chip; --set applies to both)."_s, u"C2"_s);
    const QCommandLineOption json(u"json"_s, u"Write the diff as JSON to OUT ('-' for stdout)."_s, u"OUT"_s);
    const QCommandLineOption top(u"top"_s, u"Print only the N ops with the largest |Δ| (default: every op)."_s, u"N"_s);
    const QCommandLineOption cache(u"cache"_s, u"The result cache file (default: the user cache)."_s, u"PATH"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Neither read nor write the result cache."_s);
    parser.addOptions({ againstDesign, againstChip, json, top, cache, noCache });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(command, positional.isEmpty() ? u"no MODEL given"_s : u"expected exactly one MODEL"_s, io);
    if (!parser.isSet(runOptions.chip()))
        return usageError(command, u"--chip PRESET|FILE is required"_s, io);
    QStringList problems;
    run::RunRequest requestA = runOptions.read(parser, problems);
    requestA.modelPath = positional.first().toStdString();
    if (requestA.designs.size() != 1)
        problems << u"--design: name exactly one design (basic, static, elk-dyn, elk-full or ideal)"_s;
    if (!parser.isSet(againstDesign) && !parser.isSet(againstChip))
        problems << u"give --against-design B, --against-chip C2, or both"_s;
    int topCount = -1;
    if (parser.isSet(top)) {
        bool ok = false;
        topCount = parser.value(top).toInt(&ok);
        if (!ok || topCount < 1)
            problems << u"--top: '%1' is not an integer ≥ 1"_s.arg(parser.value(top));
    }
    for (const QString& problem : problems)
        io.err << command << ": " << problem << "\n";
    if (!problems.isEmpty())
        return int(ExitCode::BadInput);
    const std::string designA = requestA.designs.front();
    const std::string designB = parser.isSet(againstDesign) ? parser.value(againstDesign).toStdString() : designA;
    run::RunRequest requestB = requestA;
    if (parser.isSet(againstChip))
        requestB.chip = parser.value(againstChip).toStdString();
    requestB.designs = { designB };
    // One run for two designs on one chip (the same compile and cache entry).
    if (!parser.isSet(againstChip) && designB != designA)
        requestA.designs = { designA, designB };
    const std::optional<run::RunSpec> specA = resolveOrReport(requestA, command, io);
    const std::optional<run::RunSpec> specB = resolveOrReport(requestB, command, io);
    if (!specA || !specB)
        return int(ExitCode::BadInput);

    const std::unique_ptr<store::ResultStore> resultStore
        = openCache(parser.isSet(noCache), parser.value(cache), command, io);
    NullRunControl control;
    const run::RunResult runA = run::runCached(*specA, resultStore.get(), control, 0, nullptr, true);
    const bool oneRun = !parser.isSet(againstChip);
    const run::RunResult runB
        = oneRun ? run::RunResult {} : run::runCached(*specB, resultStore.get(), control, 0, nullptr, true);
    for (const run::RunResult* r : { &runA, &runB })
        for (const std::string& error : r->errors)
            io.err << command << ": " << QString::fromStdString(error) << "\n";
    if (!runA.ok() || (!oneRun && !runB.ok()))
        return int(ExitCode::BadInput);
    const sim::SimResult* a = simulatedDesign(runA, designA);
    const sim::SimResult* b = simulatedDesign(oneRun ? runA : runB, designB);
    if (!a || !b) {
        io.err << command << ": " << QString::fromStdString(!a ? designA : designB)
               << " has no simulated schedule on this run\n";
        return int(ExitCode::BadInput);
    }
    const run::RunDiff diff = run::diffRuns(*a, *b);
    const std::string labelA = designA + " on " + specA->chip.name;
    const std::string labelB = designB + " on " + specB->chip.name;
    const std::string text = parser.isSet(json) ? run::runDiffJson(diff, labelA, labelB) : std::string();
    const bool jsonToStdout = parser.isSet(json) && parser.value(json) == u"-"_s;
    if (parser.isSet(json) && !jsonToStdout && !writeFile(parser.value(json), text, command, io))
        return int(ExitCode::BadInput);
    if (jsonToStdout) {
        io.out << QString::fromStdString(text);
        return int(ExitCode::Ok);
    }
    io.out << "A: " << QString::fromStdString(labelA) << "  " << fixed(diff.latencyMsA, 4) << " ms\n"
           << "B: " << QString::fromStdString(labelB) << "  " << fixed(diff.latencyMsB, 4) << " ms\n"
           << "B − A: " << signedMs(diff.latencyMsB - diff.latencyMsA)
           << " ms = Σ over ops of (Δ wait + Δ execute)\n\n";
    io.out << u"%1 %2 %3 %4 %5  %6\n"_s.arg(u"#"_s, 5)
                  .arg(u"Δ ms"_s, 10)
                  .arg(u"Δ exec"_s, 10)
                  .arg(u"Δ wait"_s, 10)
                  .arg(u"Δ preload"_s, 10)
                  .arg(u"op (step A / B)"_s);
    const int shown = topCount > 0 ? std::min<int>(topCount, int(diff.ops.size())) : int(diff.ops.size());
    for (int k = 0; k < shown; ++k) {
        const run::OpDelta& op = diff.ops[std::size_t(k)];
        io.out << u"%1 %2 %3 %4 %5  %6 (%7 / %8)\n"_s.arg(k + 1, 5)
                      .arg(signedMs(op.deltaMs()), 10)
                      .arg(signedMs(op.deltaExecuteMs()), 10)
                      .arg(signedMs(op.deltaWaitMs()), 10)
                      .arg(signedMs(op.deltaPreloadMs()), 10)
                      .arg(QString::fromStdString(op.name))
                      .arg(op.stepA >= 0 ? QString::number(op.stepA) : u"-"_s)
                      .arg(op.stepB >= 0 ? QString::number(op.stepB) : u"-"_s);
    }
    if (shown < int(diff.ops.size()))
        io.out << "… " << diff.ops.size() - std::size_t(shown) << " more ops (without --top: every op)\n";
    if (diff.sameLinks && !diff.links.empty()) {
        io.out << "\nlinks with the largest |Δ bytes| (of " << diff.links.size() << "; --json lists all):\n";
        for (std::size_t k = 0; k < std::min<std::size_t>(5, diff.links.size()); ++k) {
            const run::LinkDelta& l = diff.links[k];
            io.out << "  " << QString::fromStdString(l.name) << ": " << numberText(l.bytesA) << " → "
                   << numberText(l.bytesB) << " B\n";
        }
    } else if (!diff.sameLinks) {
        io.out << "\nno per-link delta: the two runs have different links (another chip topology)\n";
    }
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
