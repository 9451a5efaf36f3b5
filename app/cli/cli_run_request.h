// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The options that build a run::RunRequest, shared by `elk runspec resolve` and `elk run`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <QCommandLineOption>
#include <QStringList>

#include "app/cli/cli_internal.h"
#include "engine/run/run_spec.h"

class QCommandLineParser;

namespace elk::app::cli {

/// How --seq binds: `runspec resolve` takes it as new tokens per sequence; `run` (like `inspect`)
/// takes it as the context length, so a decode step runs one token over a KV cache of --seq tokens.
enum class SeqMeaning { NewTokens, Context };

/// --dim NAME=VALUE values (repeatable): free dims of a model file bound by name. Bad values are
/// appended to `problems` as "--dim: 'x' is not NAME=SIZE".
std::map<std::string, std::int64_t> parseDimOptions(const QStringList& values, QStringList& problems);
/// --input-shape INPUT=d0,d1,... values (repeatable): whole shapes of graph inputs, for unnamed dims too.
std::map<std::string, std::vector<std::int64_t>> parseInputShapeOptions(
    const QStringList& values, QStringList& problems);

/// resolveRunSpec(request), printing each field error as "<command>: field: message"; nothing on errors.
std::optional<run::RunSpec> resolveOrReport(const run::RunRequest& request, const QString& command, Io io);

class RunRequestOptions {
public:
    explicit RunRequestOptions(SeqMeaning seqMeaning);

    /// Adds --chip, --set, --batch, --seq, --kv, --phase, --design and the run option flags.
    void addTo(QCommandLineParser& parser) const;

    /// Reads them into a request (modelPath left empty); every bad value is appended to `problems`
    /// as "--option: 'value' is not ...". --design accepts names, comma lists and "all".
    run::RunRequest read(const QCommandLineParser& parser, QStringList& problems) const;

    const QCommandLineOption& chip() const { return m_chip; }

private:
    SeqMeaning m_seqMeaning;
    QCommandLineOption m_chip;
    QCommandLineOption m_set;
    QCommandLineOption m_batch;
    QCommandLineOption m_seq;
    QCommandLineOption m_kv;
    QCommandLineOption m_phase;
    QCommandLineOption m_design;
    QCommandLineOption m_threshold;
    QCommandLineOption m_ingress;
    QCommandLineOption m_delayCompute;
    QCommandLineOption m_seed;
    QCommandLineOption m_dim;
    QCommandLineOption m_inputShape;
};

} // namespace elk::app::cli
