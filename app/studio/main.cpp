// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk-studio [--workspace FILE] [--chip PRESET|FILE] [--model FILE|NAME] [--view KIND] [--sweep STUDY] [--classroom]
//            [--hlo MODULE.mlir [--hlo-system NAME|FILE]... [--hlo-split linear|dependency]]
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include <memory>
#include <string_view>

#include "app/studio/classroom_mode.h"
#include "app/studio/hlo_page.h"
#include "app/studio/main_window.h"
#include "app/studio/run_views.h"
#include "app/studio/sweep_panel.h"
#include "engine/core/version.h"
#include "engine/hlo/hlo_presets.h"
#include "engine/run/chips.h"
#include "engine/run/sweep.h"
#include "widgets/plots/figure_metadata.h"

namespace {

constexpr int kExitBadInput = 2;
const QString kDefaultChip = QStringLiteral("ipu-pod4-hbm");

int fail(const QString& message)
{
    QTextStream(stderr) << "elk-studio: " << message << '\n';
    return kExitBadInput;
}

} // namespace

/// --help and --version print and exit: they must work without a display (a QCoreApplication).
bool onlyPrints(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

int main(int argc, char* argv[])
{
    const std::unique_ptr<QCoreApplication> application = onlyPrints(argc, argv)
        ? std::make_unique<QCoreApplication>(argc, argv)
        : std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("elk-studio"));
    QCoreApplication::setOrganizationName(QStringLiteral("Elk Studio"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(elk::kEngineVersion));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Elk Studio: explore inter-core connected AI chips."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption chipOption(QStringLiteral("chip"),
        QStringLiteral("Chip to open: a built-in preset name or an elk.chip/1 JSON file "
                       "(default: the workspace's chip, else %1).")
            .arg(kDefaultChip),
        QStringLiteral("PRESET|FILE"));
    const QCommandLineOption workspaceOption(QStringLiteral("workspace"),
        QStringLiteral("Workspace file (.elkproj, elk.workspace/2; or an older "
                       "elk.workspace/1 .json) naming model, chip, run "
                       "settings and views. It runs once its model has loaded."),
        QStringLiteral("FILE"));
    const QCommandLineOption modelOption(QStringLiteral("model"),
        QStringLiteral("Model to open (.onnx, einstein_v2 .json, .elk.json, or a "
                       "bundled model name such as llama2-13b); overrides the "
                       "workspace's."),
        QStringLiteral("FILE"));
    parser.addOption(chipOption);
    parser.addOption(workspaceOption);
    const QCommandLineOption viewOption(QStringLiteral("view"),
        QStringLiteral("Tab to show first: %1 (default: the workspace's).")
            .arg(elk::app::RunViews::tabKinds().join(QStringLiteral(", "))),
        QStringLiteral("KIND"));
    QStringList studies;
    for (const elk::run::SweepPreset& preset : elk::run::sweepPresets())
        studies << QString::fromStdString(preset.name);
    const QCommandLineOption sweepOption(QStringLiteral("sweep"),
        QStringLiteral("Run one of the paper's studies as a sweep on start: %1.")
            .arg(studies.join(QStringLiteral(", "))),
        QStringLiteral("STUDY"));
    parser.addOption(modelOption);
    parser.addOption(viewOption);
    const QCommandLineOption classroomOption(QStringLiteral("classroom"),
        QStringLiteral("Start in classroom mode (large fonts, the step-by-step "
                       "timeline, no docks)."));
    parser.addOption(sweepOption);
    parser.addOption(classroomOption);
    const QCommandLineOption hloOption(QStringLiteral("hlo"),
        QStringLiteral("Open a StableHLO module (.mlir) on the StableHLO page and run it."), QStringLiteral("FILE"));
    const QCommandLineOption hloSystemOption(QStringLiteral("hlo-system"),
        QStringLiteral("System the --hlo module runs on: a built-in system preset (see 'elk hlo --list') or a "
                       "system JSON file (default 4x-a100-sxm-40gb); repeat to compare systems side by side."),
        QStringLiteral("NAME|FILE"));
    const QCommandLineOption hloSplitOption(QStringLiteral("hlo-split"),
        QStringLiteral("Slicing of the --hlo module: linear (default) or dependency."), QStringLiteral("MODE"));
    parser.addOption(hloOption);
    parser.addOption(hloSystemOption);
    parser.addOption(hloSplitOption);
    parser.addPositionalArgument(QStringLiteral("FIGURE"),
        QStringLiteral("An exported figure (.pdf, .svg, .png): reopens the run it shows from the result cache."),
        QStringLiteral("[FIGURE]"));
    parser.process(app);
    if (parser.positionalArguments().size() > 1)
        return fail(
            QStringLiteral("expected at most one FIGURE file, got %1").arg(parser.positionalArguments().size()));

    elk::app::MainWindow window;
    const bool haveWorkspace = parser.isSet(workspaceOption);
    if (haveWorkspace) {
        const QString path = QDir::current().absoluteFilePath(parser.value(workspaceOption));
        if (const QString error = window.openWorkspaceFile(path); !error.isEmpty() && !parser.isSet(chipOption))
            return fail(error);
    }
    if (parser.isSet(chipOption) || !haveWorkspace) {
        const QString chip = parser.isSet(chipOption) ? parser.value(chipOption) : kDefaultChip;
        // A chip file given on the command line is relative to the current folder.
        const bool isPreset = elk::chip::findBuiltinPreset(chip.toStdString()).has_value();
        const QString chipPath = QDir::current().absoluteFilePath(chip);
        const QString error = window.openChip(isPreset || !QFileInfo::exists(chipPath) ? chip : chipPath);
        if (!error.isEmpty())
            return fail(QStringLiteral("--chip %1").arg(error));
    }
    if (parser.isSet(modelOption)) {
        const QString model = parser.value(modelOption);
        const QString modelPath = QDir::current().absoluteFilePath(model);
        window.openModel(QFileInfo::exists(modelPath) ? modelPath : model); // else a bundled model's name
    }
    if (parser.isSet(viewOption) && !window.views()->setCurrentKind(parser.value(viewOption)))
        return fail(QStringLiteral("--view %1: no such view (views: %2)")
                        .arg(parser.value(viewOption), elk::app::RunViews::tabKinds().join(QStringLiteral(", "))));
    if (parser.isSet(sweepOption)) {
        if (!studies.contains(parser.value(sweepOption)))
            return fail(QStringLiteral("--sweep %1: no such study (studies: %2)")
                            .arg(parser.value(sweepOption), studies.join(QStringLiteral(", "))));
        if (!parser.isSet(viewOption))
            window.views()->setCurrentKind(QStringLiteral("sweep"));
        window.sweepPanel()->runPreset(parser.value(sweepOption));
    }
    if (parser.isSet(classroomOption))
        window.classroomMode()->setOn(true);
    if ((parser.isSet(hloSystemOption) || parser.isSet(hloSplitOption)) && !parser.isSet(hloOption))
        return fail(QStringLiteral("--hlo-system and --hlo-split need --hlo FILE"));
    if (parser.isSet(hloOption)) {
        const QString module = QDir::current().absoluteFilePath(parser.value(hloOption));
        if (!QFileInfo::exists(module))
            return fail(QStringLiteral("--hlo %1: no such file").arg(parser.value(hloOption)));
        if (parser.isSet(hloSplitOption)) {
            const auto mode = elk::hlo::splitModeFromString(parser.value(hloSplitOption).toStdString());
            if (!mode)
                return fail(
                    QStringLiteral("--hlo-split %1: expected linear or dependency").arg(parser.value(hloSplitOption)));
            window.hloPage()->setSplitMode(*mode);
        }
        const QStringList systems = parser.values(hloSystemOption);
        for (qsizetype i = 0; i < systems.size(); ++i) {
            // A system file given on the command line is relative to the current folder; an unknown name
            // is kept, and the page shows the engine's error for it.
            const bool isPreset = elk::hlo::findSystemPreset(systems[i].toStdString()).has_value();
            const QString systemPath = QDir::current().absoluteFilePath(systems[i]);
            const QString system = isPreset || !QFileInfo::exists(systemPath) ? systems[i] : systemPath;
            if (i == 0)
                window.hloPage()->setSystem(system);
            else
                window.hloPage()->addComparison({ system.toStdString(), { "roofline" } });
        }
        window.openHloModule(module, true);
    }

    if (!parser.positionalArguments().isEmpty()) {
        const elk::widgets::FigureMetadata figure
            = elk::widgets::readFigureMetadata(parser.positionalArguments().front());
        if (!figure.ok())
            return fail(figure.error);
        if (const QString error = window.reopenRun(figure.specHash); !error.isEmpty())
            return fail(QStringLiteral("%1: %2").arg(parser.positionalArguments().front(), error));
        // The tab that drew it (a figure kind of a tab's own view, or its tab's kind).
        const QString kind = figure.kind == QLatin1String("waterfall") || figure.kind == QLatin1String("orders")
            ? QStringLiteral("designs")
            : figure.kind == QLatin1String("bandwidth") ? QStringLiteral("gantt")
                                                        : figure.kind;
        if (!parser.isSet(viewOption))
            window.views()->setCurrentKind(kind);
    }

    window.show();
    return app.exec();
}
