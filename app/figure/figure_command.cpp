// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk figure KIND (--run-spec FILE | MODEL --chip PRESET|FILE [run options]) --out FILE.{pdf,svg,png}
//            [--view-design NAME] [--compare-design NAME] [--op NAME|STEP] [--style column|wide|slide]
//            [--width-cm W] [--height-cm H] [--font-pt P] [--dpi N] [--vary field=...]... [--cache PATH | --no-cache]
// elk figure hlo-timeline|hlo-roofline --hlo MODULE.mlir [--system NAME|FILE]... [--estimator SPEC]...
//            [--split linear|dependency] [--no-fusion] --out FILE.{pdf,svg,png} [style options] [--cache PATH |
//            --no-cache]
#include "app/figure/figure_command.h"

#include <cmath>
#include <exception>

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>

#include "app/cli/cli_internal.h"
#include "app/cli/cli_run_request.h"
#include "app/figure/figure_views.h"
#include "engine/core/read_file.h"
#include "engine/hlo/hlo_run.h"
#include "engine/run/run_compile.h"
#include "engine/run/sweep.h"
#include "engine/store/result_store.h"
#include "widgets/hlo/hlo_plot_view.h"
#include "widgets/plots/diff_plot_view.h"
#include "widgets/plots/sweep_view.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app {

namespace {

    constexpr int kOk = 0, kFailed = 1, kBadInput = 2;

    struct FigureOptions {
        QCommandLineOption runSpec { u"run-spec"_s,
            u"Run spec JSON (elk.runspec/1), e.g. from 'elk runspec resolve'."_s, u"FILE"_s };
        QCommandLineOption out { u"out"_s, u"Output file; the format follows the suffix: .pdf, .svg or .png."_s,
            u"FILE"_s };
        QCommandLineOption design { u"view-design"_s,
            u"Design shown by single-design figures (default elk-full, else the first)."_s, u"NAME"_s };
        QCommandLineOption compareDesign { u"compare-design"_s,
            u"classroom: the design shown next to --view-design; diff, diff-timeline, diff-links: the second side's design."_s,
            u"NAME"_s };
        QCommandLineOption op { u"op"_s, u"pareto: the op, by execution step number or name (default: the longest)."_s,
            u"NAME|STEP"_s };
        QCommandLineOption style { u"style"_s,
            u"column (8.5 × 6 cm, 8 pt), wide (17.8 × 7 cm, 8 pt) or slide (25.4 × 14.3 cm, 16 pt)."_s, u"STYLE"_s,
            u"column"_s };
        QCommandLineOption widthCm { u"width-cm"_s, u"Figure width in cm (overrides the style)."_s, u"W"_s };
        QCommandLineOption heightCm { u"height-cm"_s, u"Figure height in cm."_s, u"H"_s };
        QCommandLineOption fontPt { u"font-pt"_s, u"Font size in points."_s, u"P"_s };
        QCommandLineOption dpi { u"dpi"_s, u"PNG resolution."_s, u"N"_s };
        QCommandLineOption againstChip { u"against-chip"_s,
            u"diff, diff-timeline, diff-links: the second side runs on this chip (preset or file; default: --chip)."_s,
            u"C2"_s };
        QCommandLineOption caption { u"caption"_s,
            u"Print a small 'Elk Studio run KEY' caption (the run's cache key is in the file's metadata anyway; "
            "'elk-studio FILE' reopens the run)."_s };
        QCommandLineOption vary { u"vary"_s, u"sweep: field=start:stop:step or field=a,b,c (once or twice)."_s,
            u"SPEC"_s };
        QCommandLineOption cache { u"cache"_s, u"Result cache file (default: the user cache)."_s, u"PATH"_s };
        QCommandLineOption noCache { u"no-cache"_s, u"Do not read or write the result cache."_s };
        QCommandLineOption hlo { u"hlo"_s, u"hlo-timeline, hlo-roofline: the StableHLO module (.mlir) to run."_s,
            u"MODULE"_s };
        QCommandLineOption system { u"system"_s,
            u"hlo-*: a system preset (see 'elk hlo --list') or system JSON file; repeat to compare (default 4x-a100-sxm-40gb)."_s,
            u"NAME|FILE"_s };
        QCommandLineOption estimator { u"estimator"_s,
            u"hlo-*: roofline, icca:CHIP or table:CSV; repeat to compare. icca: and table: fall back to the roofline "
            "for kernels they do not price. Every --system runs with every --estimator (default roofline)."_s,
            u"SPEC"_s };
        QCommandLineOption split { u"split"_s, u"hlo-*: linear (default) or dependency slicing."_s, u"MODE"_s };
        QCommandLineOption noFusion { u"no-fusion"_s,
            u"hlo-*: cost every op as its own kernel (no XLA-like fusion)."_s };
    };

    /// Runs the module on every system × estimator and shows the runs; an exit code, or -1 when the view
    /// has them. Errors of the input (a module that does not parse, an unknown system) give kBadInput.
    int showHloRuns(const QCommandLineParser& parser, const FigureOptions& options, store::ResultStore* store,
        widgets::HloPlotView& view, const QString& command, const cli::Io& io)
    {
        QStringList problems;
        if (!parser.isSet(options.hlo))
            problems << u"--hlo MODULE.mlir is required for the hlo-* figures"_s;
        if (parser.positionalArguments().size() > 1 || parser.isSet(options.runSpec))
            problems << u"the hlo-* figures take --hlo MODULE, not a MODEL or --run-spec"_s;
        hlo::HloRunOptions base;
        if (parser.isSet(options.split)) {
            const auto mode = hlo::splitModeFromString(parser.value(options.split).toStdString());
            if (!mode)
                problems << u"--split: '%1' is not linear or dependency"_s.arg(parser.value(options.split));
            else
                base.slice.mode = *mode;
        }
        if (!problems.isEmpty())
            return cli::usageError(command, problems.join(u"\n"_s), io);
        base.fusion.enabled = !parser.isSet(options.noFusion);
        QStringList systems = parser.values(options.system);
        if (systems.isEmpty())
            systems << u"4x-a100-sxm-40gb"_s;
        QStringList estimators = parser.values(options.estimator);
        if (estimators.isEmpty())
            estimators << u"roofline"_s;
        const std::string module = parser.value(options.hlo).toStdString();
        NullRunControl control;
        widgets::HloResults results;
        for (const QString& system : systems) {
            for (const QString& estimator : estimators) {
                hlo::HloRunOptions runOptions = base;
                runOptions.system = system.toStdString();
                runOptions.estimators = { estimator.toStdString() };
                if (estimator != u"roofline"_s)
                    runOptions.estimators.push_back("roofline");
                auto result = std::make_shared<hlo::HloRunResult>(hlo::runHloFile(module, runOptions, store, control));
                if (!result->ok()) {
                    for (const std::string& error : result->errors)
                        io.err << command << ": " << QString::fromStdString(error) << "\n";
                    return kBadInput;
                }
                io.out << QString::fromStdString(result->systemName) << " · " << estimator << ": step "
                       << QString::number(result->stepSeconds * 1e3, 'f', 3) << " ms (region cache "
                       << result->cacheHits << " hits, " << result->cacheMisses << " misses)\n";
                results.push_back(std::move(result));
            }
        }
        view.setHloResults(results);
        return -1;
    }

    bool readPositive(
        const QCommandLineParser& parser, const QCommandLineOption& option, double& value, QStringList& problems)
    {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const double parsed = parser.value(option).toDouble(&ok);
        if (!ok || !(parsed > 0) || !std::isfinite(parsed)) {
            problems << u"--%1: '%2' is not a positive number"_s.arg(option.names().front(), parser.value(option));
            return false;
        }
        value = parsed;
        return true;
    }

    std::unique_ptr<store::ResultStore> openStore(
        const QCommandLineParser& parser, const FigureOptions& options, QTextStream& err)
    {
        if (parser.isSet(options.noCache))
            return nullptr;
        const std::string path = parser.isSet(options.cache) ? parser.value(options.cache).toStdString()
                                                             : store::ResultStore::defaultPath();
        store::OpenResult opened = store::ResultStore::open(path);
        if (!opened.message.empty())
            err << "elk figure: " << QString::fromStdString(opened.message) << "\n";
        if (!opened.store)
            err << "elk figure: running without a cache: " << QString::fromStdString(opened.error) << "\n";
        return std::move(opened.store);
    }

    int findDesign(const run::RunResult& result, const QString& name)
    {
        for (std::size_t i = 0; i < result.designs.size(); ++i) {
            if (QLatin1String(schedule::toString(result.designs[i].design)) == name)
                return int(i);
        }
        return -1;
    }

    int findStep(const run::RunResult& result, const QString& nameOrNumber)
    {
        bool isNumber = false;
        const int number = nameOrNumber.toInt(&isNumber);
        if (isNumber)
            return number >= 0 && std::size_t(number) < result.problem.steps.size() ? number : -1;
        for (std::size_t i = 0; i < result.problem.steps.size(); ++i) {
            if (QString::fromStdString(result.problem.steps[i].name) == nameOrNumber)
                return int(i);
        }
        return -1;
    }

    int exportView(widgets::PlotView& view, const QString& kind, const QString& outPath,
        const widgets::FigureStyle& style, QTextStream& out, QTextStream& err, const QString& command)
    {
        if (!view.hasData()) {
            err << command << ": the " << kind << " figure has nothing to draw for this run\n";
            return kFailed;
        }
        prepareForExport(view);
        const QString error = view.exportFigure(outPath, style);
        if (!error.isEmpty()) {
            err << command << ": " << error << "\n";
            return kFailed;
        }
        out << "wrote " << outPath << " (" << kind << ", " << QString::number(style.widthCm) << " × "
            << QString::number(style.heightCm) << " cm, " << QString::number(style.fontPt) << " pt)\n";
        return kOk;
    }

} // namespace

int runFigureCommand(const QStringList& args, QTextStream& out, QTextStream& err)
{
    const QString command = u"elk figure"_s;
    const cli::Io io { out, err };
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Render one of elk-studio's figures headless: %1."_s.arg(figureKinds().join(u", "_s)));
    parser.addPositionalArgument(u"KIND"_s, u"The figure: %1."_s.arg(figureKinds().join(u", "_s)));
    parser.addPositionalArgument(
        u"MODEL"_s, u"Model file or bundled model (instead of --run-spec; hlo-*: --hlo MODULE)."_s, u"[MODEL]"_s);
    const FigureOptions options;
    const cli::RunRequestOptions requestOptions(cli::SeqMeaning::Context);
    requestOptions.addTo(parser);
    parser.addOption(options.caption);
    parser.addOption(options.againstChip);
    parser.addOptions({ options.runSpec, options.out, options.design, options.compareDesign, options.op, options.style,
        options.widthCm, options.heightCm, options.fontPt, options.dpi, options.vary, options.cache, options.noCache,
        options.hlo, options.system, options.estimator, options.split, options.noFusion });
    int exitCode = kOk;
    if (!cli::parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;

    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return cli::usageError(command, u"no figure KIND given (one of %1)"_s.arg(figureKinds().join(u", "_s)), io);
    const QString kind = positional.front();
    if (!figureKinds().contains(kind))
        return cli::usageError(
            command, u"unknown figure KIND '%1' (expected one of %2)"_s.arg(kind, figureKinds().join(u", "_s)), io);
    if (!parser.isSet(options.out))
        return cli::usageError(command, u"--out FILE is required"_s, io);
    const QString outPath = parser.value(options.out);
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    if (suffix != u"pdf"_s && suffix != u"svg"_s && suffix != u"png"_s)
        return cli::usageError(command, u"--out %1: the suffix must be .pdf, .svg or .png"_s.arg(outPath), io);

    QStringList problems;
    widgets::FigureStyle style = widgets::FigureStyle::column();
    const QString styleName = parser.value(options.style);
    if (styleName == u"wide"_s)
        style = widgets::FigureStyle::wide();
    else if (styleName == u"slide"_s)
        style = widgets::FigureStyle::slide();
    else if (styleName != u"column"_s)
        problems << u"--style: '%1' is not column, wide or slide"_s.arg(styleName);
    readPositive(parser, options.widthCm, style.widthCm, problems);
    readPositive(parser, options.heightCm, style.heightCm, problems);
    readPositive(parser, options.fontPt, style.fontPt, problems);
    double dpi = style.pngDpi;
    if (readPositive(parser, options.dpi, dpi, problems))
        style.pngDpi = int(dpi);
    style.runCaption = parser.isSet(options.caption);

    if (isHloFigure(kind)) {
        if (!problems.isEmpty())
            return cli::usageError(command, problems.join(u"\n"_s), io);
        std::unique_ptr<store::ResultStore> store = openStore(parser, options, err);
        std::unique_ptr<widgets::PlotView> view = createPlotView(kind);
        auto* hloView = qobject_cast<widgets::HloPlotView*>(view.get());
        if (!hloView) {
            err << command << ": no view for " << kind << "\n";
            return kFailed;
        }
        if (const int code = showHloRuns(parser, options, store.get(), *hloView, command, io); code >= 0)
            return code;
        return exportView(*view, kind, outPath, style, out, err, command);
    }
    run::RunRequest request = requestOptions.read(parser, problems);
    const bool fromSpecFile = parser.isSet(options.runSpec);
    if (fromSpecFile == (positional.size() >= 2))
        problems << u"give either --run-spec FILE or a MODEL (not both, not neither)"_s;
    if (!fromSpecFile && positional.size() >= 2)
        request.modelPath = positional[1].toStdString();
    if (!fromSpecFile && positional.size() >= 2 && !parser.isSet(requestOptions.chip()))
        problems << u"--chip PRESET|FILE is required with a MODEL"_s;
    if (kind == u"sweep"_s && fromSpecFile)
        problems << u"sweep: give MODEL --chip with --vary (a run spec fixes every field)"_s;
    if (kind == u"sweep"_s && (parser.values(options.vary).isEmpty() || parser.values(options.vary).size() > 2))
        problems << u"sweep: give --vary once or twice"_s;
    if (!problems.isEmpty())
        return cli::usageError(command, problems.join(u"\n"_s), io);

    std::unique_ptr<store::ResultStore> store = openStore(parser, options, err);
    std::unique_ptr<widgets::PlotView> view = createPlotView(kind);
    if (!view) {
        err << command << ": no view for " << kind << "\n";
        return kFailed;
    }
    NullRunControl control;
    QElapsedTimer timer;
    timer.start();

    if (kind == u"sweep"_s) {
        std::vector<run::SweepAxis> axes;
        for (const QString& text : parser.values(options.vary)) {
            run::SweepAxisParse parsed = run::parseSweepAxis(text.toStdString());
            if (!parsed.ok())
                return cli::usageError(command, QString::fromStdString(parsed.error), io);
            axes.push_back(std::move(parsed.axis));
        }
        auto sweep = std::make_shared<run::SweepResult>(run::runSweep(request, axes, store.get(), control));
        if (sweep->doneCount() == 0) {
            err << command << ": no sweep point has a result";
            if (!sweep->points.empty())
                err << ": " << QString::fromStdString(sweep->points.front().error);
            err << "\n";
            return kFailed;
        }
        auto* sweepView = qobject_cast<widgets::SweepView*>(view.get());
        if (!sweepView) {
            err << command << ": the sweep view is missing\n";
            return kFailed;
        }
        sweepView->setSweep(sweep);
    } else {
        run::RunSpec spec;
        if (fromSpecFile) {
            const QString specPath = parser.value(options.runSpec);
            std::string readError;
            const std::optional<std::string> text = readFileText(specPath.toStdString(), readError);
            if (!text) {
                err << command << ": " << QString::fromStdString(readError) << "\n";
                return kBadInput;
            }
            run::RunSpecParseResult parsed = run::runSpecFromJson(*text);
            std::vector<run::FieldError> errors = parsed.errors;
            if (errors.empty())
                errors = run::validateRunSpec(parsed.spec);
            if (!errors.empty()) {
                for (const run::FieldError& error : errors)
                    err << specPath << ": " << QString::fromStdString(error.field) << ": "
                        << QString::fromStdString(error.message) << "\n";
                return kBadInput;
            }
            spec = std::move(parsed.spec);
        } else {
            run::RunSpecResult resolved = run::resolveRunSpec(request);
            if (!resolved.ok()) {
                for (const run::FieldError& error : resolved.errors)
                    err << command << ": " << QString::fromStdString(error.field) << ": "
                        << QString::fromStdString(error.message) << "\n";
                return kBadInput;
            }
            spec = std::move(resolved.spec);
        }
        run::CacheOutcome outcome;
        auto result
            = std::make_shared<run::RunResult>(run::runCached(spec, store.get(), control, 0, nullptr, true, &outcome));
        if (!result->ok()) {
            for (const std::string& error : result->errors)
                err << command << ": " << QString::fromStdString(error) << "\n";
            return kFailed;
        }
        int designIndex
            = findDesign(*result, parser.isSet(options.design) ? parser.value(options.design) : u"elk-full"_s);
        if (designIndex < 0 && parser.isSet(options.design))
            return cli::usageError(
                command, u"--view-design %1: the run has no such design"_s.arg(parser.value(options.design)), io);
        view->setRun(result);
        view->setDesignIndex(std::max(designIndex, 0));
        if (parser.isSet(options.op)) {
            const int step = findStep(*result, parser.value(options.op));
            if (step < 0)
                return cli::usageError(command,
                    u"--op %1: no such op (a step number 0–%2 or an op name)"_s.arg(parser.value(options.op))
                        .arg(result->problem.steps.size() - 1),
                    io);
            view->setSelectedStep(step);
        }
        if (parser.isSet(options.compareDesign)) {
            const int second = findDesign(*result, parser.value(options.compareDesign));
            if (second < 0)
                return cli::usageError(command,
                    u"--compare-design %1: the run has no such design"_s.arg(parser.value(options.compareDesign)), io);
            if (!setSecondDesign(*view, second))
                return cli::usageError(
                    command, u"--compare-design applies to the classroom and diff figures only"_s, io);
        }
        if (isDiffFigure(kind)) {
            if (!parser.isSet(options.compareDesign) && !parser.isSet(options.againstChip))
                return cli::usageError(
                    command, u"%1: give --compare-design B, --against-chip C2, or both"_s.arg(kind), io);
            if (parser.isSet(options.againstChip)) {
                if (fromSpecFile)
                    return cli::usageError(command, u"--against-chip needs MODEL --chip C, not --run-spec"_s, io);
                run::RunRequest against = request;
                against.chip = parser.value(options.againstChip).toStdString();
                const run::RunSpecResult resolved = run::resolveRunSpec(against);
                if (!resolved.ok()) {
                    for (const run::FieldError& error : resolved.errors)
                        err << command << ": --against-chip: " << QString::fromStdString(error.field) << ": "
                            << QString::fromStdString(error.message) << "\n";
                    return kBadInput;
                }
                auto other = std::make_shared<run::RunResult>(
                    run::runCached(resolved.spec, store.get(), control, 0, nullptr, true));
                if (!other->ok()) {
                    for (const std::string& error : other->errors)
                        err << command << ": --against-chip: " << QString::fromStdString(error) << "\n";
                    return kFailed;
                }
                const QString designName = parser.isSet(options.compareDesign)
                    ? parser.value(options.compareDesign)
                    : QString::fromLatin1(
                        schedule::toString(result->designs[std::size_t(std::max(designIndex, 0))].design));
                const int second = findDesign(*other, designName);
                if (second < 0)
                    return cli::usageError(
                        command, u"%1: the --against-chip run has no such design"_s.arg(designName), io);
                if (auto* diffView = qobject_cast<widgets::DiffPlotView*>(view.get()))
                    diffView->setAgainst(other, second);
            }
        }
        out << "run " << (outcome.runHit ? "from cache" : "computed") << " in "
            << QString::number(timer.elapsed() / 1000.0, 'f', 2) << " s\n";
    }
    return exportView(*view, kind, outPath, style, out, err, command);
}

} // namespace elk::app
