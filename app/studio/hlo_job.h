// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QMetaType>
#include <QObject>
#include <QString>

#include "app/studio/job_slots.h"
#include "engine/hlo/hlo_run.h"

namespace elk::store {
class ResultStore;
}

namespace elk::app {

/// One column of a comparison: a system preset (or system JSON file) and an estimator fallback chain.
struct HloConfiguration {
    std::string system;
    std::vector<std::string> estimators { "roofline" };
    bool operator==(const HloConfiguration&) const = default;
};

/// What an HloJob runs: one module file under several configurations with the same flow options.
struct HloJobRequest {
    QString path;
    std::vector<HloConfiguration> configurations;
    elk::hlo::HloRunOptions options; ///< slicing, fusion, part; system and estimators come from each configuration
};

/// The finished runs of one request, in configuration order: immutable, shared by the page's views.
struct HloRunSet {
    QString path;
    std::vector<HloConfiguration> configurations;
    std::vector<std::shared_ptr<const elk::hlo::HloRunResult>>
        results; ///< one per configuration, each ok() or with errors
    QStringList readErrors; ///< the file did not parse: "file:line:column: expected X, found Y" (results then empty)
    double wallSeconds = 0;
    bool ok() const { return readErrors.isEmpty(); }
};
using HloRunSetPtr = std::shared_ptr<const HloRunSet>;

/// Runs a StableHLO module through the engine's flow (read once, then runHloModule per configuration,
/// every compute region through the region cache) on a worker thread (QtConcurrent + QPromise).
///
/// Contract (as RunJob's):
///  - start() supersedes the running job: the old one is asked to stop and its outcome is dropped
///    without any signal, so only the latest job's finished/failed/cancelled ever arrives.
///  - cancel() asks the running job to stop; cancelled() follows once the worker has returned.
///  - finished() hands out an immutable snapshot; a file that does not parse or a configuration that
///    fails is reported inside it (HloRunSet::readErrors, HloRunResult::errors), not through failed(),
///    which is for what should not happen (an exception inside the engine).
///  - progress() carries a percent over all configurations and a stage text
///    ("4x-a100-sxm-40gb · roofline: estimate").
class HloJob : public QObject {
    Q_OBJECT
public:
    explicit HloJob(QObject* parent = nullptr);
    /// Stops every job still running and waits for it.
    ~HloJob() override;

    /// The region cache every run goes through (not owned, thread-safe; null: no cache).
    void setStore(elk::store::ResultStore* store) { m_store = store; }
    elk::store::ResultStore* store() const { return m_store; }

    void start(HloJobRequest request);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

    struct Outcome;

signals:
    void started();
    void progress(int percent, const QString& stage);
    void finished(elk::app::HloRunSetPtr runs);
    void failed(const QString& message);
    void cancelled();

private:
    struct JobState {
        int lastPercent = -1;
        QString lastStage;
    };
    using Jobs = JobSlots<Outcome, elk::AtomicRunControl, JobState>;
    using Job = Jobs::Job;
    void onJobFinished(Job* job);

    elk::store::ResultStore* m_store = nullptr;
    Jobs m_jobs { this };
};

/// "4x-a100-sxm-40gb · roofline", "4x-a100-sxm-40gb · icca:ipu-pod4-hbm → roofline".
QString configurationLabel(const HloConfiguration& configuration);

} // namespace elk::app

Q_DECLARE_METATYPE(elk::app::HloRunSetPtr)
