// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/sweep_job.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <fstream>

#include <QFutureWatcher>
#include <QPromise>
#include <QTemporaryDir>
#include <QtConcurrent>

#include "engine/run/chips.h"

namespace elk::app {

struct SweepJob::Outcome {
    SweepSnapshotPtr sweep;
    double wallSeconds = 0;
    QString error;
};

namespace {

    constexpr auto kSnapshotInterval = std::chrono::milliseconds(100);

    class SweepControl final : public elk::RunControl {
    public:
        SweepControl(QPromise<SweepJob::Outcome>& promise, std::shared_ptr<std::atomic<bool>> stop)
            : m_promise(promise)
            , m_stop(std::move(stop))
        {
        }
        bool stopRequested() const override
        {
            return m_stop->load(std::memory_order_relaxed) || m_promise.isCanceled();
        }
        void progress(std::int64_t done, std::int64_t total, std::string_view) override
        {
            if (total > 0)
                m_promise.setProgressValue(int(1000 * done / total));
        }

    private:
        QPromise<SweepJob::Outcome>& m_promise;
        std::shared_ptr<std::atomic<bool>> m_stop;
    };

} // namespace

SweepJob::SweepJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<SweepSnapshotPtr>();
}

SweepJob::~SweepJob()
{
    stopAndWait();
}

void SweepJob::stopAndWait()
{
    m_jobs.stopAndWait();
}

void SweepJob::start(
    elk::run::RunRequest base, std::vector<elk::run::SweepAxis> axes, std::optional<elk::chip::ChipSpec> chip)
{
    std::size_t points = axes.empty() ? 0 : 1;
    for (const elk::run::SweepAxis& axis : axes)
        points *= axis.values.size();
    // An edited chip goes to a chip file of this sweep's own, removed when its worker is done.
    std::shared_ptr<QTemporaryDir> chipFolder;
    if (chip) {
        chipFolder = std::make_shared<QTemporaryDir>();
        const std::string path = chipFolder->filePath(QStringLiteral("chip.json")).toStdString();
        std::ofstream(path) << elk::chip::chipSpecToJson(*chip);
        base.chip = path;
        base.chipOverrides.clear();
    }

    Job* job = m_jobs.begin([this](Job* finished) { onJobFinished(finished); });
    m_lastSnapshot.reset();
    // Snapshots go through the event loop to `this`; a superseded job's are dropped by the id check.
    auto post = [this, id = job->id](SweepSnapshotPtr snapshot) {
        QMetaObject::invokeMethod(
            this,
            [this, id, snapshot = std::move(snapshot)] {
                if (m_jobs.isLive(id)) {
                    m_lastSnapshot = snapshot;
                    emit updated(snapshot);
                }
            },
            Qt::QueuedConnection);
    };
    job->watcher->setFuture(QtConcurrent::run([base = std::move(base), axes = std::move(axes), store = m_store,
                                                  threads = m_threads, stop = job->stop, post,
                                                  chipFolder](QPromise<Outcome>& promise) {
        const auto start = std::chrono::steady_clock::now();
        auto lastPost = start - kSnapshotInterval;
        Outcome outcome;
        try {
            SweepControl control(promise, stop);
            elk::run::SweepResult result = elk::run::runSweep(
                base, axes, store, control, threads, [&](const elk::run::SweepResult& partial, int) {
                    const auto now = std::chrono::steady_clock::now();
                    if (now - lastPost < kSnapshotInterval || control.stopRequested())
                        return;
                    lastPost = now;
                    post(std::make_shared<const elk::run::SweepResult>(partial));
                });
            outcome.sweep = std::make_shared<const elk::run::SweepResult>(std::move(result));
        } catch (const std::exception& error) {
            outcome.error = QObject::tr("internal error in the sweep: %1").arg(QString::fromLocal8Bit(error.what()));
        } catch (...) {
            outcome.error = QObject::tr("internal error in the sweep: unknown exception");
        }
        outcome.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // Kept even when cancelled (QFuture would drop it): the finished points are still worth showing.
        promise.addResult(std::move(outcome));
    }));
    emit started(int(points));
}

void SweepJob::cancel()
{
    m_jobs.cancel(false); // not QFuture::cancel(): the partial grid should still arrive
}

void SweepJob::onJobFinished(Job* job)
{
    const Jobs::Finished done = m_jobs.finish(job);
    if (!done.current)
        return; // superseded: dropped without a signal
    const bool cancelRequested = done.cancelRequested;
    const std::optional<Outcome>& outcome = done.outcome;
    if (!outcome) {
        emit cancelled(m_lastSnapshot);
    } else if (!outcome->error.isEmpty()) {
        emit failed(outcome->error);
    } else if (cancelRequested) {
        emit cancelled(outcome->sweep);
    } else {
        emit finished(outcome->sweep, outcome->wallSeconds);
    }
}

} // namespace elk::app
