// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>

#include <QCoreApplication>
#include <QTextStream>

#include "app/cli/cli_commands.h"
#include "engine/core/version.h"

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("elk"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(elk::kEngineVersion));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return elk::app::runCli(QCoreApplication::arguments(), out, err);
}
