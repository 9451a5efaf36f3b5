// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk reproduce fig17|…|fig24|all|ablation --out DIR [--parity artifact --einstein DIR] [--published FILE]
//               [--quirk-off NAME]... [--cache PATH | --no-cache] [--threads N]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>

#include <unistd.h>

#include <QCommandLineParser>
#include <QDir>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "app/cli/cli_parity.h"
#include "app/cli/cli_reproduce.h"
#include "engine/export/paper_report.h"
#include "engine/store/reproduce.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    ChartWriter& chartWriterSlot()
    {
        static ChartWriter writer;
        return writer;
    }

} // namespace

void setChartWriter(ChartWriter writer)
{
    chartWriterSlot() = std::move(writer);
}

QString writeChart(const run::PaperChart& chart, const QString& basePath)
{
    if (!chartWriterSlot())
        return u"figures need the GUI libraries (this elk was built with ELK_BUILD_GUI=OFF); the CSV and summaries are written"_s;
    return chartWriterSlot()(chart, basePath);
}

TerminalProgress::TerminalProgress(QTextStream& err)
    : m_err(err)
    , m_start(std::chrono::steady_clock::now())
{
}

void TerminalProgress::progress(std::int64_t done, std::int64_t total, std::string_view)
{
    const std::lock_guard lock(m_mutex);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    // A terminal gets one line rewritten every second; a log file a new line every 10 s.
    static const bool terminal = isatty(fileno(stderr)) != 0;
    if (done < total && elapsed - m_lastPrinted < (terminal ? 1.0 : 10.0))
        return;
    m_lastPrinted = elapsed;
    QString line = u"%1/%2 points, %3 s"_s.arg(done).arg(total).arg(elapsed, 0, 'f', 1);
    if (done > 0 && done < total)
        line += u", about %1 s left"_s.arg(elapsed / double(done) * double(total - done), 0, 'f', 0);
    if (terminal)
        m_err << "\r" << line << (done == total ? "\n" : "") << Qt::flush;
    else
        m_err << line << "\n" << Qt::flush;
}

int runReproduce(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Reproduces the Elk paper's Figures 17-24 (the experiments of the artifact's generate_data_from_sim.py): "
        "per figure a CSV with every raw number per point and design, a summary of the headline ratios next to "
        "the paper's (JSON and Markdown) and, with the GUI libraries, the figure as PDF, SVG and PNG with the "
        "published values drawn beside ours. 'ablation' switches the artifact's quirks off one at a time and "
        "cumulatively at the Fig. 17 point (b32, KV 2048, 5888 cores, 16 TB/s) for the four LLMs. Points run in "
        "parallel through the result cache."_s);
    parser.addPositionalArgument(u"FIGURE"_s, u"fig17 … fig24, all, or ablation."_s);
    const QCommandLineOption out(u"out"_s, u"Output folder (created). Required."_s, u"DIR"_s);
    const QCommandLineOption parity(u"parity"_s,
        u"'artifact': run as the published artifact does, on its model files (--einstein). Default: Elk Studio's "
        "equal-terms pipeline and simulator on the bundled models."_s,
        u"MODE"_s);
    const QCommandLineOption einstein(u"einstein"_s,
        u"Artifact parity: the folder of the artifact's model files (llama2-13.json, …; e.g. "
        "../shared/corpus/einstein). Default: $ELK_EINSTEIN_DIR."_s,
        u"DIR"_s);
    const QCommandLineOption published(u"published"_s,
        u"Published values to draw and compare (schema elk.published/1) instead of the bundled "
        "resources/paper/elk-micro25-published.json."_s,
        u"FILE"_s);
    const QCommandLineOption quirkOff(u"quirk-off"_s,
        u"Artifact parity: switch one of the artifact's behaviours off (repeatable): %1."_s.arg(parityQuirkList()),
        u"NAME"_s);
    const QCommandLineOption cache(u"cache"_s, u"The result cache file (default: the user cache)."_s, u"PATH"_s);
    const QCommandLineOption noCache(u"no-cache"_s, u"Neither read nor write the result cache."_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Points run at once (default 0: all cores)."_s, u"N"_s);
    parser.addOptions({ out, parity, einstein, published, quirkOff, cache, noCache, threadsOption });
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;

    QStringList problems;
    const QStringList positional = parser.positionalArguments();
    const QString target = positional.value(0);
    QStringList figures;
    const bool ablation = target == u"ablation"_s;
    if (positional.size() != 1) {
        problems << (positional.isEmpty() ? u"no FIGURE given (fig17 … fig24, all or ablation)"_s
                                          : u"expected exactly one FIGURE"_s);
    } else if (target == u"all"_s) {
        for (const std::string& name : run::paperFigureNames())
            figures << QString::fromStdString(name);
    } else if (!ablation) {
        if (!run::paperFigure(target.toStdString()))
            problems << u"unknown FIGURE '%1': expected fig17 … fig24, all or ablation"_s.arg(target);
        figures << target;
    }
    if (!parser.isSet(out))
        problems << u"--out DIR is required"_s;
    store::ReproduceOptions options;
    if (parser.isSet(parity)) {
        if (parser.value(parity) != u"artifact"_s)
            problems << u"--parity: '%1' is not a parity mode (the one there is: artifact)"_s.arg(parser.value(parity));
        options.mode = run::ReproduceMode::ArtifactParity;
    }
    for (const QString& name : parser.values(quirkOff)) {
        if (options.mode != run::ReproduceMode::ArtifactParity && !ablation)
            problems << u"--quirk-off needs --parity artifact"_s;
        else if (!run::setParityQuirk(options.quirks, name.toStdString(), false))
            problems << u"--quirk-off: unknown quirk '%1'"_s.arg(name);
    }
    const bool needsModels = options.mode == run::ReproduceMode::ArtifactParity || ablation;
    QString einsteinDir = parser.isSet(einstein) ? parser.value(einstein) : qEnvironmentVariable("ELK_EINSTEIN_DIR");
    if (needsModels && einsteinDir.isEmpty())
        problems << u"artifact parity needs the artifact's model files: give --einstein DIR (the folder with "
                    "llama2-13.json, e.g. ../shared/corpus/einstein) or set ELK_EINSTEIN_DIR"_s;
    else if (needsModels && !QDir(einsteinDir).exists(u"llama2-13.json"_s))
        problems << u"--einstein %1: no llama2-13.json there (expected the artifact's models/original folder)"_s.arg(
            einsteinDir);
    options.einsteinDir = einsteinDir.toStdString();
    if (parser.isSet(threadsOption)) {
        bool ok = false;
        options.threads = parser.value(threadsOption).toInt(&ok);
        if (!ok || options.threads < 0)
            problems << u"--threads: '%1' is not a count of 0 or more"_s.arg(parser.value(threadsOption));
    }
    const exports::PublishedValues values = parser.isSet(published)
        ? exports::readPublishedValues(parser.value(published).toStdString())
        : exports::bundledPublishedValues();
    if (!values.ok())
        problems << QString::fromStdString(values.error);
    if (!problems.isEmpty())
        return usageError(command, problems.join(u"\n"_s), io);

    const QString outDir = parser.value(out);
    if (!QDir().mkpath(outDir)) {
        io.err << command << ": cannot create the folder " << outDir << "\n";
        return int(ExitCode::BadInput);
    }
    const std::unique_ptr<store::ResultStore> store
        = openCache(parser.isSet(noCache), parser.value(cache), command, io);
    if (ablation)
        return runAblation(options, store.get(), outDir, command, io);

    std::vector<run::PaperPoint> points;
    std::vector<std::pair<std::size_t, std::size_t>> ranges; // per figure: [first, end) into points
    for (const QString& figure : figures) {
        const auto known = run::paperFigure(figure.toStdString());
        ranges.push_back({ points.size(), points.size() + known->points.size() });
        points.insert(points.end(), known->points.begin(), known->points.end());
    }
    io.err << command << ": " << figures.join(u", "_s) << ": " << points.size() << " points ("
           << run::toString(options.mode) << ")\n";
    const auto start = std::chrono::steady_clock::now();
    TerminalProgress progress(io.err);
    const store::ReproduceRun run = store::reproducePoints(points, options, store.get(), progress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    QString index = u"# elk reproduce: %1 (%2)\n\n%3 points in %4 s, %5 from the result cache.\n\n"_s
                        .arg(figures.join(u", "_s), QString::fromLatin1(run::toString(options.mode)))
                        .arg(points.size())
                        .arg(seconds, 0, 'f', 1)
                        .arg(run.fromCache);
    bool figuresOk = true;
    for (qsizetype f = 0; f < figures.size(); ++f) {
        const std::string figure = figures[f].toStdString();
        const auto& range = ranges[std::size_t(f)];
        const std::vector<run::PaperPointResult> results(
            run.points.begin() + std::ptrdiff_t(range.first), run.points.begin() + std::ptrdiff_t(range.second));
        const QString base = outDir + u"/"_s + figures[f];
        if (!writeFile(base + u".csv"_s, exports::reproduceCsv(figure, results), command, io)
            || !writeFile(
                base + u"-summary.json"_s, exports::summaryJson(figure, options.mode, results, values), command, io))
            return int(ExitCode::InternalError);
        const std::string markdown = exports::summaryMarkdown(figure, options.mode, results, values);
        if (!writeFile(base + u"-summary.md"_s, markdown, command, io))
            return int(ExitCode::InternalError);
        index += QString::fromStdString(markdown) + u"\n"_s;
        const QString chartError = writeChart(exports::paperChart(figure, options.mode, results, values), base);
        if (!chartError.isEmpty()) {
            if (figuresOk)
                io.err << command << ": " << chartError << "\n";
            figuresOk = false;
        }
    }
    if (!writeFile(outDir + u"/summary.md"_s, index.toStdString(), command, io))
        return int(ExitCode::InternalError);
    io.out << "wrote " << outDir << ": " << figures.size() << " figure(s), " << points.size() << " points in "
           << QString::number(seconds, 'f', 1) << " s (" << run.fromCache << " from the cache)\n";
    return run.status == RunStatus::Completed ? int(ExitCode::Ok) : int(ExitCode::InternalError);
}

} // namespace elk::app::cli
