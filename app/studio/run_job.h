// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "app/studio/job_slots.h"
#include "engine/run/run_compile.h"
#include "engine/store/result_store.h"

template <typename T> class QFutureWatcher;

namespace elk::app {

/// Runs one RunSpec through run::runCached on a worker thread (QtConcurrent + QPromise).
///
/// Contract:
///  - start() supersedes the running job: the old one is asked to stop and its outcome is dropped
///    without any signal, so only the latest job's finished/failed/cancelled ever arrives.
///  - cancel() asks the running job to stop; cancelled() follows once the worker has returned (the
///    engine polls every few milliseconds, so within ~100 ms).
///  - finished() hands out an immutable snapshot shared by every view.
///  - Progress arrives at most ~25 times per second (QFutureWatcher throttles) and at every new stage,
///    as a percent over the whole run and the engine's stage name ("import", "partition",
///    "schedule elk-full", …).
class RunJob : public QObject {
    Q_OBJECT
public:
    explicit RunJob(QObject* parent = nullptr);
    /// Stops every job still running and waits for it (they stop within ~100 ms).
    ~RunJob() override;

    /// The cache every run goes through (not owned, thread-safe; null: no cache).
    void setStore(elk::store::ResultStore* store) { m_store = store; }
    elk::store::ResultStore* store() const { return m_store; }
    /// Partition-search threads per run (0: all hardware threads).
    void setThreads(int threads) { m_threads = threads; }

    /// Starts `spec`; `reuse` (may be null) is an already compiled model, used when its partition
    /// key matches, so an HBM edit only reschedules.
    void start(const elk::run::RunSpec& spec, std::shared_ptr<const elk::run::CompiledModel> reuse = nullptr);
    /// The same, resolving the spec on the worker first (hashing a large model file takes a while);
    /// `resolve` runs on the worker thread, so it must only use what it captured. Its errors arrive
    /// through failed(), one "field: message" per line.
    using Resolver = std::function<elk::run::RunSpecResult()>;
    void start(Resolver resolve, std::shared_ptr<const elk::run::CompiledModel> reuse = nullptr);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

    /// The compiled model of the last finished run: what the next start() should pass as `reuse`.
    std::shared_ptr<const elk::run::CompiledModel> lastCompiled() const { return m_lastCompiled; }

    struct Outcome;

signals:
    void started();
    void progress(int percent, const QString& stage);
    void finished(std::shared_ptr<const elk::run::RunResult> result, elk::run::CacheOutcome cache, double wallSeconds);
    void failed(const QString& message);
    void cancelled();

private:
    struct JobState {
        int lastPermille = 0;
    };
    using Jobs = JobSlots<Outcome, std::atomic<bool>, JobState>;
    using Job = Jobs::Job;
    void onJobFinished(Job* job);
    void onJobProgress(Job* job);
    void reportProgress(Job* job, int permille, const QString& stage);

    elk::store::ResultStore* m_store = nullptr;
    int m_threads = 0;
    std::shared_ptr<const elk::run::CompiledModel> m_lastCompiled;
    Jobs m_jobs { this };
};

} // namespace elk::app

Q_DECLARE_METATYPE(std::shared_ptr<const elk::run::RunResult>)
Q_DECLARE_METATYPE(elk::run::CacheOutcome)
