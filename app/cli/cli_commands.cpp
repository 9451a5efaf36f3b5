// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_commands.h"

#include <exception>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#include "app/cli/cli_internal.h"
#include "app/cli/cli_reproduce.h"
#include "engine/core/version.h"
#include "engine/run/models.h"
#include "engine/store/result_store.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app {

namespace cli {

    bool parseOrExplain(
        QCommandLineParser& parser, const QStringList& args, const QString& command, Io io, int& exitCode)
    {
        const QCommandLineOption helpOption = parser.addHelpOption();
        if (!parser.parse(args)) {
            exitCode = usageError(command, parser.errorText(), io);
            return false;
        }
        if (parser.isSet(helpOption) || parser.isSet(u"help-all"_s)) {
            // helpText() names the program as started (maybe a full path); show the command instead.
            QString help = parser.helpText();
            const QString program = QCoreApplication::arguments().value(0);
            if (!program.isEmpty())
                help.replace(help.indexOf(program), program.size(), command);
            io.out << help;
            exitCode = int(ExitCode::Ok);
            return false;
        }
        return true;
    }

    int usageError(const QString& command, const QString& message, Io io)
    {
        io.err << command << ": " << message << "\n"
               << "Run '" << command << " --help' for usage.\n";
        return int(ExitCode::BadInput);
    }

    QString bundledModelList()
    {
        QStringList names;
        for (const std::string& name : import::bundledModelNames())
            names << QString::fromStdString(name);
        return names.join(u", "_s);
    }

    QString modelArgumentHelp()
    {
        return u"A model file (.onnx, .elk.json, einstein_v2 .json) or a bundled model: %1."_s.arg(bundledModelList());
    }

    QString numberText(double value, int digits)
    {
        return QString::number(value, 'g', digits);
    }

    bool writeFile(const QString& path, const std::string& text, const QString& command, Io io)
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(text.data(), qint64(text.size())) != qint64(text.size())) {
            io.err << command << ": cannot write " << path << ": " << file.errorString() << "\n";
            return false;
        }
        return true;
    }

    std::unique_ptr<store::ResultStore> openCache(
        bool disabled, const QString& explicitPath, const QString& command, Io io, QString* openedPath)
    {
        if (disabled)
            return nullptr;
        const std::string path
            = explicitPath.isEmpty() ? store::ResultStore::defaultPath() : explicitPath.toStdString();
        store::OpenResult opened = store::ResultStore::open(path);
        if (!opened.message.empty())
            io.err << command << ": " << QString::fromStdString(opened.message) << "\n";
        if (!opened.store) {
            io.err << command << ": " << QString::fromStdString(opened.error) << "; running without the cache\n";
            return nullptr;
        }
        if (openedPath != nullptr)
            *openedPath = QString::fromStdString(path);
        return std::move(opened.store);
    }

} // namespace cli

namespace {

    QString usageText()
    {
        QString text = uR"(Usage: elk <command> [options]

Elk Studio's headless command line: chip presets, chip files and run specs.

Commands:
  presets [--json | --show NAME]   list the built-in chip presets, or print one as JSON
  chip validate FILE...            check chip JSON files; one line per problem
  runspec resolve --model PATH --chip PRESET|FILE [options]
                                   print the fully resolved run spec and its cache key
  workspace FILE                   open a workspace (model + chip + run): model summary,
                                   chip summary, resolved run spec and its cache key
  inspect MODEL [--batch B] [--seq S] [--kv K] [--phase decode|prefill|train] [--json]
                                   a model file or bundled model (BUNDLED_MODELS):
                                   ops, layers, params, FLOPs, weight/KV/HBM bytes per step
  fit-cost SAMPLES.csv --out MODEL.json [--folds K] [--max-depth D] [--min-leaf N]
                                   fit the `fitted` tile cost model (a linear model tree
                                   per op kind) to measured cycles; prints samples,
                                   leaves and cross-validated error per kind
  run MODEL --chip PRESET|FILE [--set field=value]... [--batch B] [--seq S]
      [--phase decode|prefill|train] [--design NAME|all] [--json OUT]
      [--program OUT] [--trace OUT.json] [--csv OUT.csv]
      [--parity artifact [--layers L] [--split-factor F] [--quirk-off NAME]...]
                                   compile with each scheduling design: latency,
                                   execute/preload time, HBM/NoC utilisation, TFLOPS,
                                   speedup over basic; --parity artifact: as the
                                   published Elk artifact computes it
  explain MODEL --chip PRESET|FILE [run options] [--json OUT] [--cache PATH | --no-cache]
                                   why not faster: per design the physical floor (HBM,
                                   compute or the hottest link) and the measured losses
                                   that add up to the simulated latency
  diff MODEL --chip C --design A (--against-design B | --against-chip C2) [run options]
      [--json OUT] [--top N]       two simulated runs aligned op by op: Δ execute, Δ preload,
                                   Δ wait sorted by |Δ| (they add up to Δ latency); Δ link bytes
  sweep MODEL --chip C --vary field=start:stop:step [--vary ...] [--preset NAME]
      [run options] [--parity artifact ...] --csv OUT|- [--cache PATH | --no-cache] [--threads N]
      [--shard K/N]
                                   latency of every design over a grid of chip
                                   variants, in parallel, served from the result cache
  hlo MODULE.mlir [--system PRESET|FILE] [--estimator roofline|icca:CHIP|table:CSV]...
      [--split linear|dependency] [--json OUT] [--csv OUT] [--trace OUT] [--chakra DIR]
      | hlo MODULE.mlir --check | hlo --list
                                   step time of a StableHLO module on a GPU/TPU system or
                                   an ICCA chip: compute, communication, exposed comm.
  validate [--reference FILE.csv] [--module WORKLOAD=PATH]... [--fit-on SYSTEM]...
                                   predicted vs measured step times: per-row error, MAPE,
                                   cross-generation speedup error (default: hespas's table)
  reproduce fig17|...|fig24|all|ablation --out DIR [--parity artifact --einstein DIR]
      [--published FILE] [--quirk-off NAME]... [--cache PATH | --no-cache] [--threads N]
                                   the Elk paper's figures: CSV of every raw number, the
                                   headline ratios next to the paper's, PDF/SVG/PNG figures;
                                   ablation: the artifact's quirks switched off in turn
  cache merge A.sqlite B.sqlite ... --into C.sqlite | cache stats|trim --max-size 500M|sweeps|sweep HASH [--cache PATH]
                                   one result cache from several (sweep shards, ranks);
                                   a key with differing results is an error naming it;
                                   stats: size and rows per kind; trim: evict to a size;
                                   sweeps / sweep HASH: recorded sweeps, a CSV from one
  figure KIND (--run-spec FILE | MODEL --chip C) --out FILE.pdf|svg|png
      [--view-design NAME] [--op NAME|STEP] [--style column|wide|slide] [--vary ...]
                                   render one of elk-studio's figures headless: designs,
                                   waterfall, orders, diff, diff-timeline, diff-links
                                   (--compare-design B, --against-chip C2), pareto,
                                   gantt, bandwidth, heatmap, sweep, classroom

Options:
  -h, --help       show this help ('elk <command> --help' for a command's options)
  -v, --version    show the version

Exit codes: 0 success, 1 internal error, 2 bad input (message on stderr).
)"_s;
        return text.replace(u"BUNDLED_MODELS"_s, cli::bundledModelList());
    }

    int dispatch(const QStringList& args, cli::Io io)
    {
        const QString first = args.value(1);
        if (args.size() < 2) {
            io.err << "elk: no command given\n\n" << usageText();
            return int(ExitCode::BadInput);
        }
        if (first == u"-h"_s || first == u"--help"_s || first == u"help"_s) {
            io.out << usageText();
            return int(ExitCode::Ok);
        }
        if (first == u"-v"_s || first == u"--version"_s) {
            io.out << "elk " << kEngineVersion << " (" << kGitDescribe << ")\n";
            return int(ExitCode::Ok);
        }
        const QStringList rest = QStringList { u"elk "_s + first } + args.mid(2);
        if (first == u"presets"_s)
            return cli::runPresets(rest, io);
        if (first == u"chip"_s)
            return cli::runChip(rest, io);
        if (first == u"runspec"_s)
            return cli::runRunSpec(rest, io);
        if (first == u"workspace"_s)
            return cli::runWorkspace(rest, io);
        if (first == u"inspect"_s)
            return cli::runInspect(rest, io);
        if (first == u"fit-cost"_s)
            return cli::runFitCost(rest, io);
        if (first == u"run"_s)
            return cli::runRun(rest, io);
        if (first == u"explain"_s)
            return cli::runExplain(rest, io);
        if (first == u"diff"_s)
            return cli::runDiff(rest, io);
        if (first == u"sweep"_s)
            return cli::runSweep(rest, io);
        if (first == u"hlo"_s)
            return cli::runHlo(rest, io);
        if (first == u"validate"_s)
            return cli::runValidate(rest, io);
        if (first == u"reproduce"_s)
            return cli::runReproduce(rest, io);
        if (first == u"cache"_s)
            return cli::runCache(rest, io);
        if (first == u"figure"_s) {
            // Handled in main() when elk is built with the GUI libraries (it needs a QApplication).
            io.err << "elk figure: this elk was built without the GUI libraries (ELK_BUILD_GUI=OFF); "
                      "rebuild with them to render figures\n";
            return int(ExitCode::BadInput);
        }
        if (first.startsWith(u'-'))
            io.err << "elk: unknown option '" << first << "'\n\n" << usageText();
        else
            io.err << "elk: unknown command '" << first << "'\n\n" << usageText();
        return int(ExitCode::BadInput);
    }

} // namespace

int runCli(const QStringList& args, QTextStream& out, QTextStream& err)
{
    try {
        return dispatch(args, cli::Io { out, err });
    } catch (const std::exception& e) {
        err << "elk: internal error: " << e.what() << "\n";
        return int(ExitCode::InternalError);
    }
}

} // namespace elk::app
