// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where widget tests write exported figures: $ELK_FIGURE_DIR when set (to look at them), else a
// temporary folder removed at exit.
#include <QDir>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace elk::test {

inline QString figureDir()
{
    static QTemporaryDir temporary;
    const QString wanted = qEnvironmentVariable("ELK_FIGURE_DIR");
    if (!wanted.isEmpty()) {
        QDir().mkpath(wanted);
        return wanted;
    }
    return temporary.path();
}

inline QString figurePath(const QString& name)
{
    return figureDir() + QLatin1Char('/') + name;
}

} // namespace elk::test
