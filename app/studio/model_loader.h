// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include "widgets/model/model_snapshot.h"

namespace elk::app {

/// Loads a model for the panel: a file in any format the engine reads (ONNX, einstein_v2 JSON,
/// elk.graph JSON; run::loadModel) or a bundled model ("llama2-13b" or "bundled:llama2-13b", whose
/// snapshot filePath is then "bundled:NAME"), with symbolic dims bound to `run`. Validates, summarizes
/// and analyses it (the snapshot holds the graph for the op table). Never throws: every failure
/// (unreadable file, bad JSON with line/column, field errors, graph check problems, exceptions)
/// comes back as a snapshot whose `error` names the file and lists the first few problems.
std::shared_ptr<const elk::widgets::ModelSnapshot> loadModelSnapshot(
    const QString& pathOrBundledName, const elk::widgets::RunParameters& run);

/// Runs loadModelSnapshot() on a worker thread. A new start() replaces the running job: the old
/// job's result is dropped, so the last model asked for is the one that arrives.
class ModelLoader : public QObject {
    Q_OBJECT
public:
    explicit ModelLoader(QObject* parent = nullptr);
    ~ModelLoader() override;

    void start(const QString& pathOrBundledName, const elk::widgets::RunParameters& run);
    bool isRunning() const { return m_watcher.isRunning(); }

signals:
    void modelLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot);

private:
    QFutureWatcher<std::shared_ptr<const elk::widgets::ModelSnapshot>> m_watcher;
};

} // namespace elk::app
