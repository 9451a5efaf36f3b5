// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>

#include "app/studio/job_slots.h"
#include "engine/run/chips.h"
#include "engine/run/sweep.h"

namespace elk::store {
class ResultStore;
}

namespace elk::app {

using SweepSnapshotPtr = std::shared_ptr<const elk::run::SweepResult>;

/// Runs run::runSweep on worker threads (QtConcurrent + QPromise). Points arrive progressively as
/// snapshots of the whole grid (at most ~10 per second, and always the last), queued to the GUI
/// thread. A newer start() supersedes the running sweep (its snapshots stop at once); cancel()
/// stops it and cancelled() carries the points finished so far.
class SweepJob : public QObject {
    Q_OBJECT
public:
    explicit SweepJob(QObject* parent = nullptr);
    /// Stops a running sweep and waits for its workers.
    ~SweepJob() override;

    void setStore(elk::store::ResultStore* store) { m_store = store; }
    /// Worker threads of a sweep (0: all hardware threads).
    void setThreads(int threads) { m_threads = threads; }

    /// `chip`: a chip edited in memory, which takes the place of base.chip and its overrides (it
    /// is written to a temporary chip file the sweep resolves, so the points are the same RunSpecs
    /// the chip would give anywhere).
    void start(elk::run::RunRequest base, std::vector<elk::run::SweepAxis> axes,
        std::optional<elk::chip::ChipSpec> chip = std::nullopt);
    void cancel();
    /// Stops every sweep and waits for its workers, without any signal (before what they use goes).
    void stopAndWait();
    bool isRunning() const { return m_jobs.isRunning(); }

    struct Outcome;

signals:
    void started(int pointCount);
    /// A snapshot with at least one more point done.
    void updated(elk::app::SweepSnapshotPtr sweep);
    void finished(elk::app::SweepSnapshotPtr sweep, double wallSeconds);
    void cancelled(elk::app::SweepSnapshotPtr partial);
    void failed(const QString& message);

private:
    using Jobs = JobSlots<Outcome>;
    using Job = Jobs::Job;
    void onJobFinished(Job* job);

    elk::store::ResultStore* m_store = nullptr;
    int m_threads = 0;
    SweepSnapshotPtr m_lastSnapshot;
    Jobs m_jobs { this };
};

} // namespace elk::app

Q_DECLARE_METATYPE(elk::app::SweepSnapshotPtr)
