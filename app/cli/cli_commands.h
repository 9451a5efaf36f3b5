// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList> // a typedef in Qt 6, so it cannot be forward-declared

class QTextStream;

namespace elk::app {

/// Exit codes of every elk command.
enum class ExitCode { Ok = 0, InternalError = 1, BadInput = 2 };

/// Runs the elk command line. `args` are as QCoreApplication::arguments() gives them (args[0] is the
/// program). Results go to `out`; messages about bad input and errors go to `err`.
/// Returns 0 on success, 2 on bad input (usage errors included), 1 on an internal error.
/// Needs a QCoreApplication (for help texts).
int runCli(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace elk::app
