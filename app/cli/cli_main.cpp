// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <cstring>

#include <QCoreApplication>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "engine/core/version.h"

#ifdef ELK_HAS_FIGURE
#include <QApplication>

#include "app/cli/cli_reproduce.h"
#include "app/figure/figure_command.h"
#include "app/figure/paper_chart_export.h"

namespace {

// Figures need QtGui (fonts, painting); they render on the offscreen platform unless told otherwise,
// so `elk figure` works in scripts without a display.
int runFigure(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // Qt's own options (-style, -platform, ...) must not take the command's (--style wide).
    int qtArgc = 1;
    QApplication app(qtArgc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("elk"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(elk::kEngineVersion));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return elk::app::runFigureCommand(QStringList { QStringLiteral("elk figure") } + args.mid(2), out, err);
}

// elk reproduce writes its figures through the same views (offscreen unless told otherwise).
int runReproduceWithFigures(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("elk"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(elk::kEngineVersion));
    elk::app::cli::setChartWriter(&elk::app::writePaperChart);
    QTextStream out(stdout);
    QTextStream err(stderr);
    return elk::app::runCli(QCoreApplication::arguments(), out, err);
}

} // namespace
#endif

int main(int argc, char** argv)
{
#ifdef ELK_HAS_FIGURE
    if (argc >= 2 && std::strcmp(argv[1], "figure") == 0)
        return runFigure(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "reproduce") == 0)
        return runReproduceWithFigures(argc, argv);
#endif
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("elk"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(elk::kEngineVersion));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return elk::app::runCli(QCoreApplication::arguments(), out, err);
}
