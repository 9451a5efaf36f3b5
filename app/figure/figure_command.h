// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

class QTextStream;

namespace elk::app {

/// `elk figure KIND ...`: renders one of the app's figures headless (needs a QApplication, e.g. on the
/// offscreen platform). Returns the exit code (0 ok, 1 failure, 2 bad input).
int runFigureCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace elk::app
