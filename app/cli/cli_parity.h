// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// `--parity artifact` on `elk run`: the options and the run (engine/run/artifact_parity.h).
#pragma once

#include <QCommandLineOption>
#include <QStringList>

#include "app/cli/cli_internal.h"
#include "engine/run/artifact_parity.h"
#include "engine/run/run_spec.h"

class QCommandLineParser;

namespace elk::app::cli {

/// The quirk names, comma-separated, for help texts.
QString parityQuirkList();

class ParityCliOptions {
public:
    ParityCliOptions();
    void addTo(QCommandLineParser& parser) const;
    /// Whether --parity was given (its value checked into `problems`).
    bool requested(const QCommandLineParser& parser, QStringList& problems) const;
    run::ParityOptions read(const QCommandLineParser& parser, QStringList& problems) const;

private:
    QCommandLineOption m_parity;
    QCommandLineOption m_layers;
    QCommandLineOption m_splitFactor;
    QCommandLineOption m_meshRatio;
    QCommandLineOption m_commScale;
    QCommandLineOption m_compScale;
    QCommandLineOption m_quirkOff;
};

/// Runs `spec` in artifact parity and prints the table (or JSON to `jsonPath`, "-" = stdout).
int runParity(const run::RunSpec& spec, const run::ParityOptions& options, const QString& jsonPath,
    const QString& command, Io io);

} // namespace elk::app::cli
