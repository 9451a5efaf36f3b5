// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/paper_job.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <optional>

#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent>

using namespace Qt::Literals::StringLiterals;

namespace elk::app {

struct PaperJob::Result {
    PaperOutcomePtr outcome;
    bool stopped = false;
    QString error;
};

namespace {

    /// reproducePoints' RunControl: polls the job's stop flag and posts progress to the GUI thread.
    class PaperControl final : public elk::RunControl {
    public:
        using Post = std::function<void(int done, int total)>;
        PaperControl(QPromise<PaperJob::Result>& promise, std::shared_ptr<std::atomic<bool>> stop, Post post)
            : m_promise(promise)
            , m_stop(std::move(stop))
            , m_post(std::move(post))
        {
        }
        bool stopRequested() const override
        {
            return m_stop->load(std::memory_order_relaxed) || m_promise.isCanceled();
        }
        void progress(std::int64_t done, std::int64_t total, std::string_view) override
        {
            // Called once per point at most: few enough to queue each one.
            if (done != m_lastDone && !stopRequested()) {
                m_lastDone = done;
                m_post(int(done), int(total));
            }
        }

    private:
        QPromise<PaperJob::Result>& m_promise;
        std::shared_ptr<std::atomic<bool>> m_stop;
        Post m_post;
        std::int64_t m_lastDone = -1;
    };

} // namespace

PaperJob::PaperJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<PaperOutcomePtr>();
}

PaperJob::~PaperJob()
{
    stopAndWait();
}

void PaperJob::stopAndWait()
{
    m_jobs.stopAndWait();
}

void PaperJob::start(const QString& figure, const elk::store::ReproduceOptions& options)
{
    const std::optional<elk::run::PaperFigure> known = elk::run::paperFigure(figure.toStdString());
    if (!known) {
        emit failed(tr("no paper figure '%1'").arg(figure));
        return;
    }

    Job* job = m_jobs.begin([this](Job* finished) { onJobFinished(finished); });
    // Progress goes through the event loop to `this`; a superseded or cancelled job's is dropped.
    auto post = [this, id = job->id](int done, int total) {
        QMetaObject::invokeMethod(
            this,
            [this, id, done, total] {
                if (m_jobs.isLive(id))
                    emit progress(done, total);
            },
            Qt::QueuedConnection);
    };
    job->watcher->setFuture(QtConcurrent::run(
        [figure = *known, options, store = m_store, stop = job->stop, post](QPromise<Result>& promise) {
            const auto start = std::chrono::steady_clock::now();
            Result result;
            try {
                PaperControl control(promise, stop, post);
                elk::store::ReproduceRun run = elk::store::reproducePoints(figure.points, options, store, control);
                result.stopped = run.status == elk::RunStatus::Stopped;
                auto outcome = std::make_shared<PaperOutcome>();
                outcome->figure = figure.name;
                outcome->mode = options.mode;
                outcome->points = std::move(run.points);
                outcome->fromCache = run.fromCache;
                outcome->wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                result.outcome = std::move(outcome);
            } catch (const std::exception& error) {
                result.error = QObject::tr("internal error while reproducing %1: %2")
                                   .arg(QString::fromStdString(figure.name), QString::fromLocal8Bit(error.what()));
            } catch (...) {
                result.error = QObject::tr("internal error while reproducing %1: unknown exception")
                                   .arg(QString::fromStdString(figure.name));
            }
            promise.addResult(std::move(result));
        }));
    emit started(int(known->points.size()));
}

void PaperJob::cancel()
{
    m_jobs.cancel(false); // the worker stops at its next point and reports stopped
}

void PaperJob::onJobFinished(Job* job)
{
    const Jobs::Finished done = m_jobs.finish(job);
    if (!done.current)
        return; // superseded: dropped without a signal
    const bool cancelRequested = done.cancelRequested;
    const std::optional<Result>& result = done.outcome;
    if (cancelRequested || !result || result->stopped)
        emit cancelled(); // a stopped run's points are partial: not worth keeping as the figure
    else if (!result->error.isEmpty())
        emit failed(result->error);
    else
        emit finished(result->outcome);
}

} // namespace elk::app
