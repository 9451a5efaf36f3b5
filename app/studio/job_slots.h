// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <QFutureWatcher>
#include <QObject>

#include "engine/core/run_control.h"

namespace elk::app {

inline void requestStop(std::atomic<bool>& flag)
{
    flag.store(true);
}
inline void requestStop(elk::AtomicRunControl& control)
{
    control.requestStop();
}

struct NoJobState { };

/// The lifetime every background job of the app shares (runs, sweeps, StableHLO runs, paper
/// figures), written once:
///  - at most one current job; begin() supersedes it: asked to stop, its future cancelled, and its
///    outcome later dropped without a signal (finish() says it was not current);
///  - cancel() asks the current job to stop; whether QFuture may drop its result is the caller's
///    choice (a sweep keeps its partial grid);
///  - finish() takes a job whose worker returned out of the books and hands back its outcome;
///  - stopAndWait() (and the destructor) stops every job still running and waits for its worker.
/// Jobs are plain heap objects owned here; their watchers are children of `owner`.
template <typename Outcome, typename Stop = std::atomic<bool>, typename State = NoJobState> class JobSlots {
public:
    struct Job : State {
        QFutureWatcher<Outcome>* watcher = nullptr;
        std::shared_ptr<Stop> stop = std::make_shared<Stop>();
        bool cancelRequested = false; ///< by cancel() (report cancelled()), not by a newer begin()
        quint64 id = 0;
    };

    struct Finished {
        bool current = false; ///< the latest job; false: superseded, to be dropped silently
        bool cancelRequested = false;
        std::optional<Outcome> outcome; ///< none when QFuture dropped it (cancelled)
    };

    explicit JobSlots(QObject* owner)
        : m_owner(owner)
    {
    }
    ~JobSlots() { stopAndWait(); }
    JobSlots(const JobSlots&) = delete;
    JobSlots& operator=(const JobSlots&) = delete;

    /// Supersedes the current job and makes a new current one; `onFinished(job)` runs on the owner's
    /// thread when its worker returns. Connect anything else, then set the watcher's future.
    template <typename OnFinished> Job* begin(OnFinished onFinished)
    {
        if (m_current) {
            requestStop(*m_current->stop);
            m_current->watcher->future().cancel();
            m_stopping.push_back(m_current);
            m_current = nullptr;
        }
        auto* job = new Job;
        job->id = ++m_lastId;
        job->watcher = new QFutureWatcher<Outcome>(m_owner);
        QObject::connect(job->watcher, &QFutureWatcherBase::finished, m_owner, [job, onFinished] { onFinished(job); });
        m_current = job;
        return job;
    }

    Job* current() const { return m_current; }
    bool isRunning() const { return m_current != nullptr; }
    /// True while job `id` is the current one and was not cancelled: what posted updates check.
    bool isLive(quint64 id) const { return m_current && m_current->id == id && !m_current->cancelRequested; }

    /// Asks the current job to stop; `dropResult`: also cancel its future (QFuture then drops the result).
    void cancel(bool dropResult)
    {
        if (!m_current)
            return;
        m_current->cancelRequested = true;
        requestStop(*m_current->stop);
        if (dropResult)
            m_current->watcher->future().cancel();
    }

    /// Retires a job whose worker has returned (the watcher goes later, from the event loop).
    Finished finish(Job* job)
    {
        Finished done;
        done.current = job == m_current;
        done.cancelRequested = job->cancelRequested;
        const QFuture<Outcome> future = job->watcher->future();
        if (future.resultCount() > 0)
            done.outcome = future.result();
        std::erase(m_stopping, job);
        job->watcher->disconnect(m_owner);
        job->watcher->deleteLater();
        delete job;
        if (done.current)
            m_current = nullptr;
        return done;
    }

    void stopAndWait()
    {
        std::vector<Job*> jobs = std::exchange(m_stopping, {});
        if (m_current)
            jobs.push_back(std::exchange(m_current, nullptr));
        for (Job* job : jobs) {
            job->watcher->disconnect(m_owner);
            requestStop(*job->stop);
            job->watcher->future().cancel();
        }
        for (Job* job : jobs) {
            job->watcher->future().waitForFinished();
            delete job->watcher;
            delete job;
        }
    }

private:
    QObject* m_owner = nullptr;
    Job* m_current = nullptr;
    std::vector<Job*> m_stopping; ///< superseded or cancelled jobs whose workers have not returned yet
    quint64 m_lastId = 0;
};

} // namespace elk::app
