// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk workspace FILE: what elk-studio opens, printed instead of shown.
#include <QCommandLineParser>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "app/cli/cli_internal.h"
#include "engine/run/model_load.h"
#include "engine/run/models.h"
#include "engine/run/run_spec.h"
#include "engine/run/workspace.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app::cli {

namespace {

    QString bytesText(std::int64_t bytes)
    {
        const double mebibytes = double(bytes) / double(1 << 20);
        if (mebibytes >= 1024.0)
            return u"%1 GiB"_s.arg(numberText(mebibytes / 1024.0, 4));
        return u"%1 MiB"_s.arg(numberText(mebibytes, 4));
    }

    void printModel(const QString& path, const model::GraphSummary& summary, Io io)
    {
        io.out << "Model: " << path << "\n"
               << "  name: " << QString::fromStdString(summary.name) << "\n"
               << "  " << summary.opCount << " ops, " << summary.distinctExpressionCount << " distinct expressions, "
               << summary.tensorCount << " tensors\n"
               << "  " << numberText(double(summary.flops) / 1e9, 5) << " GFLOP\n"
               << "  weights " << bytesText(summary.bytesOf(model::TensorRole::Weight)) << ", KV cache "
               << bytesText(summary.bytesOf(model::TensorRole::KvCache)) << ", activations "
               << bytesText(summary.bytesOf(model::TensorRole::Activation)) << ", outputs "
               << bytesText(summary.bytesOf(model::TensorRole::Output));
        if (summary.bytesOf(model::TensorRole::OptimizerState) > 0)
            io.out << ", optimizer state " << bytesText(summary.bytesOf(model::TensorRole::OptimizerState));
        io.out << "\n"
               << "  ops per kind:";
        for (const model::OpKind kind : model::kAllOpKinds) {
            if (summary.opsOf(kind) > 0)
                io.out << " " << model::toString(kind) << " " << summary.opsOf(kind);
        }
        io.out << "\n";
    }

    int reportErrors(const QString& prefix, const std::vector<chip::FieldError>& errors, Io io)
    {
        for (const chip::FieldError& error : errors)
            io.err << prefix << ": " << QString::fromStdString(error.field) << ": "
                   << QString::fromStdString(error.message) << "\n";
        return int(ExitCode::BadInput);
    }

} // namespace

int runWorkspace(const QStringList& args, Io io)
{
    const QString command = args.value(0);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Opens a workspace (.elkproj, elk.workspace/2 or /1: model, chip, run settings) the way elk-studio does "
        "and prints the model summary, the chip, and the resolved run spec's cache key."_s);
    parser.addPositionalArgument(u"FILE"_s, u"The workspace file (.elkproj or .json)."_s);
    int exitCode = 0;
    if (!parseOrExplain(parser, args, command, io, exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(command, u"expected exactly one workspace FILE"_s, io);
    const QString path = positional.first();

    const run::WorkspaceParseResult workspace = run::loadWorkspaceFile(path.toStdString());
    if (!workspace.ok())
        return reportErrors(path, workspace.errors, io);
    for (const std::string& warning : workspace.warnings)
        io.err << path << ": warning: " << QString::fromStdString(warning) << "\n";
    const QString modelPath = QString::fromStdString(workspace.workspace.modelPath);

    // Report the model's problems and the run's (chip, shape) together: one pass shows everything to fix.
    const run::RunSpecResult resolved = run::resolveWorkspaceRun(workspace.workspace);
    const run::RunRequest& request = workspace.workspace.run;
    const bool decode = request.phase == run::Phase::Decode;
    // Without a valid spec the model is still read, with resolveRunSpec's defaults, to report its problems too.
    const run::ModelStep step = resolved.ok()
        ? run::ModelStep { resolved.spec.phase, resolved.spec.batch, resolved.spec.seqLen, resolved.spec.kvLen,
              resolved.spec.dims, resolved.spec.inputShapes }
        : run::ModelStep { request.phase, request.batch.value_or(1), request.seqLen.value_or(decode ? 1 : 2048),
              request.kvLen.value_or(decode ? 2048 : 0), {}, {} };
    const run::ModelLoadResult loaded = run::loadModel(workspace.workspace.modelPath, step);
    for (const std::string& error : loaded.errors)
        io.err << QString::fromStdString(error) << "\n";
    bool failed = !loaded.ok();
    if (!resolved.ok()) {
        std::vector<chip::FieldError> errors;
        for (const chip::FieldError& error : resolved.errors) {
            if (loaded.ok() || error.field.rfind("/model/", 0) != 0)
                errors.push_back(error); // an unreadable model was reported just above
        }
        reportErrors(path, errors, io);
        failed = true;
    }
    if (failed)
        return int(ExitCode::BadInput);
    const run::RunSpec& spec = resolved.spec;
    const model::GraphSummary summary = model::summarizeGraph(loaded.model->graph);

    io.out << "Workspace: " << path << "\n";
    printModel(modelPath, summary, io);
    io.out << "Chip: " << chipSummary(spec.chip);
    if (workspace.workspace.embeddedChip)
        io.out << " (embedded in the workspace)";
    io.out << "\n";
    if (!workspace.workspace.compareChip.empty())
        io.out << "Compare against: " << QString::fromStdString(workspace.workspace.compareChip) << "\n";
    io.out << "Run: " << run::toString(spec.phase) << ", batch " << spec.batch << ", seq " << spec.seqLen
           << ", KV length " << spec.kvLen << ", designs";
    for (const std::string& design : spec.designs)
        io.out << " " << QString::fromStdString(design);
    // The one bound that needs no cost model: every byte held in HBM (weights, KV cache, optimizer
    // state) crosses HBM at least once.
    double hbmBytes = 0;
    for (const model::TensorRole role : model::kAllTensorRoles) {
        if (model::residesInHbm(role))
            hbmBytes += double(summary.bytesOf(role));
    }
    const double hbmBoundUs = hbmBytes / (spec.chip.totalHbmBandwidthGBps() * 1e9) * 1e6;
    io.out << "\n"
           << "HBM lower bound: " << numberText(hbmBytes / 1e9, 5) << " GB of weights and KV cache"
           << (summary.bytesOf(model::TensorRole::OptimizerState) > 0 ? " and optimizer state" : "") << " at "
           << numberText(spec.chip.totalHbmBandwidthGBps(), 6) << " GB/s = " << numberText(hbmBoundUs, 5)
           << " us per step\n"
           << "Cache key: " << QString::fromStdString(run::runSpecHash(spec)) << "\n";
    return int(ExitCode::Ok);
}

} // namespace elk::app::cli
