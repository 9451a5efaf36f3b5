// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/model_loader.h"

#include <exception>
#include <string>

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/run/model_load.h"
#include "engine/run/models.h"

namespace elk::app {

using elk::widgets::ModelSnapshot;
using elk::widgets::RunParameters;

namespace {

    constexpr std::size_t kProblemsShown = 5; // enough to see the pattern; the rest is counted

    QString tr(const char* text)
    {
        return QCoreApplication::translate("ModelLoader", text);
    }

    QString text(const std::string& value)
    {
        return QString::fromStdString(value);
    }

    template <typename Problems, typename Describe>
    void appendFirstProblems(QStringList& lines, const Problems& problems, Describe describe)
    {
        for (std::size_t i = 0; i < problems.size() && i < kProblemsShown; ++i)
            lines << describe(problems[i]);
        if (problems.size() > kProblemsShown)
            lines << tr("… and %1 more").arg(qulonglong(problems.size() - kProblemsShown));
    }

    void fillLoaded(ModelSnapshot& snapshot, elk::model::Graph&& graph)
    {
        auto shared = std::make_shared<const elk::model::Graph>(std::move(graph));
        snapshot.summary = elk::model::summarizeGraph(*shared);
        snapshot.analysis = std::make_shared<const elk::model::GraphAnalysis>(elk::model::analyzeGraph(*shared));
        snapshot.graph = std::move(shared);
    }

    /// An elk.graph file: its own parse and check, so the panel can say how many graph checks failed.
    void loadElkGraph(const QString& path, ModelSnapshot& snapshot)
    {
        const std::string file = path.toStdString();
        elk::model::GraphParseResult parsed = elk::model::loadGraphFile(file);
        if (!parsed.ok()) {
            QStringList lines;
            appendFirstProblems(lines, parsed.errors, [&](const elk::model::GraphParseError& error) {
                // An I/O error's location is the path itself; the rest get "FILE: location: message".
                return error.location == file ? text(toString(error))
                                              : path + QStringLiteral(": ") + text(toString(error));
            });
            snapshot.error = lines.join(QLatin1Char('\n'));
            return;
        }

        const std::vector<elk::model::GraphError> problems = parsed.graph.validate();
        if (!problems.empty()) {
            snapshot.validationProblemCount = int(problems.size());
            QStringList lines { problems.size() == 1
                    ? tr("%1: the graph checks found 1 problem:").arg(path)
                    : tr("%1: the graph checks found %2 problems:").arg(path).arg(problems.size()) };
            appendFirstProblems(
                lines, problems, [](const elk::model::GraphError& error) { return text(toString(error)); });
            snapshot.error = lines.join(QLatin1Char('\n'));
            return;
        }
        snapshot.description = tr("%1 (fixed shapes)").arg(path);
        fillLoaded(snapshot, std::move(parsed.graph));
    }

    std::shared_ptr<const ModelSnapshot> loadOrThrow(const QString& pathOrName, const RunParameters& run)
    {
        auto snapshot = std::make_shared<ModelSnapshot>();
        snapshot->run = run;
        const std::string requested = pathOrName.toStdString();
        // A bundled model is named "bundled:NAME" whichever way it was asked for, as in a RunSpec.
        const bool isFile = QFileInfo::exists(pathOrName);
        const auto bundled = isFile ? std::nullopt : elk::run::bundledModelName(requested);
        snapshot->filePath
            = bundled ? QString::fromStdString(std::string(elk::run::kBundledPrefix) + *bundled) : pathOrName;
        if (isFile && pathOrName.endsWith(QLatin1String(".elk.json"))) {
            loadElkGraph(pathOrName, *snapshot);
            return snapshot;
        }
        if (pathOrName.endsWith(QLatin1String(".mlir"), Qt::CaseInsensitive)) {
            // StableHLO runs through its own flow (the main window routes it to the StableHLO page).
            snapshot->error
                = tr("%1: a StableHLO module; it opens on the StableHLO page, not as an ICCA model").arg(pathOrName);
            return snapshot;
        }

        // Every other format goes through the engine's loader, bound to the run's phase and sizes.
        const bool train = run.phase == elk::run::Phase::Train;
        const elk::run::ModelStep step { run.phase, run.batch, run.seqLen, train ? 0 : run.kvLen, run.dims,
            run.inputShapes };
        elk::run::ModelLoadResult loaded = elk::run::loadModel(requested, step);
        if (!loaded.ok()) {
            QStringList lines;
            appendFirstProblems(lines, loaded.errors, [](const std::string& error) { return text(error); });
            snapshot->error = lines.join(QLatin1Char('\n'));
            snapshot->freeDims = std::move(loaded.freeDims); // the pane asks for their sizes
            return snapshot;
        }
        snapshot->description = text(loaded.model->description);
        for (const std::string& warning : loaded.model->warnings)
            snapshot->warnings << text(warning);
        fillLoaded(*snapshot, std::move(loaded.model->graph));
        return snapshot;
    }

} // namespace

std::shared_ptr<const ModelSnapshot> loadModelSnapshot(const QString& path, const RunParameters& run)
{
    // Runs on a worker thread: nothing may escape it, so every failure becomes an error value.
    auto failed = [&](const QString& why) {
        auto snapshot = std::make_shared<ModelSnapshot>();
        snapshot->filePath = path;
        snapshot->run = run;
        snapshot->error = tr("%1: internal error while loading: %2").arg(path, why);
        return std::shared_ptr<const ModelSnapshot>(std::move(snapshot));
    };
    try {
        return loadOrThrow(path, run);
    } catch (const std::exception& error) {
        return failed(QString::fromLocal8Bit(error.what()));
    } catch (...) {
        return failed(tr("unknown exception"));
    }
}

ModelLoader::ModelLoader(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        const auto future = m_watcher.future();
        if (future.resultCount() > 0)
            emit modelLoaded(future.result());
    });
}

ModelLoader::~ModelLoader() = default;

void ModelLoader::start(const QString& path, const RunParameters& run)
{
    // setFuture() detaches the previous job, whose result is then never delivered.
    m_watcher.setFuture(QtConcurrent::run([path, run] { return loadModelSnapshot(path, run); }));
}

} // namespace elk::app
