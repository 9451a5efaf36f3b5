// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the command implementations of the elk CLI; not used outside app/cli.
#pragma once

#include <memory>
#include <string>

#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace elk::chip {
struct ChipSpec;
}
namespace elk::store {
class ResultStore;
}
class QTextStream;

namespace elk::app::cli {

struct Io {
    QTextStream& out;
    QTextStream& err;
};

// Each command gets its own arguments: args[0] names the command ("elk presets"), then the rest.
int runPresets(const QStringList& args, Io io);
int runChip(const QStringList& args, Io io);
int runRunSpec(const QStringList& args, Io io);
int runWorkspace(const QStringList& args, Io io);
int runInspect(const QStringList& args, Io io);
int runFitCost(const QStringList& args, Io io);
int runRun(const QStringList& args, Io io);
int runExplain(const QStringList& args, Io io);
int runDiff(const QStringList& args, Io io);
int runSweep(const QStringList& args, Io io);
int runHlo(const QStringList& args, Io io);
int runValidate(const QStringList& args, Io io);
int runCache(const QStringList& args, Io io);

/// One line: name, chips × cores, SRAM per core, clock, interconnect, HBM bandwidth and capacity.
QString chipSummary(const chip::ChipSpec& spec);

/// Parses `args`; on a usage error prints it (naming `command`) and returns false with `exitCode`
/// set; on --help prints the help and returns false with `exitCode` 0.
bool parseOrExplain(QCommandLineParser& parser, const QStringList& args, const QString& command, Io io, int& exitCode);

/// Prints "<command>: <message>" and a pointer to --help on stderr; returns the bad-input exit code.
int usageError(const QString& command, const QString& message, Io io);

/// The bundled models' names, comma-separated ("llama2-13b, llama2-70b, ..."): from the model
/// builder's own list, so the help texts never go stale.
QString bundledModelList();
/// The MODEL positional argument's help: "A model file (.onnx, ...) or a bundled model: <list>."
QString modelArgumentHelp();

/// Compact number text: 16, 5.5, 1.325 (at most `digits` significant digits).
QString numberText(double value, int digits = 6);

/// Writes `text` to `path`; on failure prints "<command>: cannot write PATH: why" and returns false.
bool writeFile(const QString& path, const std::string& text, const QString& command, Io io);

/// The result cache for --cache PATH / --no-cache: null when disabled or when it cannot be opened
/// (then said on stderr); a damaged file moved aside is said too.
std::unique_ptr<store::ResultStore> openCache(
    bool disabled, const QString& explicitPath, const QString& command, Io io, QString* openedPath = nullptr);

} // namespace elk::app::cli
