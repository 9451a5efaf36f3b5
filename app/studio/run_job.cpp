// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/run_job.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent>

namespace elk::app {

struct RunJob::Outcome {
    std::shared_ptr<const elk::run::RunResult> result;
    elk::run::CacheOutcome cache;
    double wallSeconds = 0;
    QString error; ///< non-empty: the run failed
    bool stopped = false;
};

namespace {

    constexpr int kProgressMax = 1000; // permille: fine enough for a bar, int-safe for any total

    /// Maps the engine's per-stage progress onto one monotone permille over the whole run: import
    /// 0–5 %, partition 5–60 %, then each design's schedule and simulation share the rest.
    int overallPermille(std::int64_t done, std::int64_t total, std::string_view stage)
    {
        const double fraction = total > 0 ? std::clamp(double(done) / double(total), 0.0, 1.0) : 0.0;
        if (stage == "import")
            return int(50 * fraction);
        if (stage == "partition")
            return 50 + int(550 * fraction);
        if (stage.starts_with("schedule "))
            return 600 + int(400 * fraction); // done = designs before this one
        if (stage.starts_with("simulate ") && total > 0) // done = designs including this one
            return 600 + int(400 * (double(done) - 0.5) / double(total));
        return -1; // a sub-stage ("elk-full orders", cache look-ups): keep the bar, show the name
    }

    /// RunControl over the job's QPromise: stop when the future is cancelled or the job's flag is set.
    class PromiseRunControl final : public elk::RunControl {
    public:
        using StageChanged = std::function<void(int permille, const QString& stage)>;
        PromiseRunControl(
            QPromise<RunJob::Outcome>& promise, std::shared_ptr<std::atomic<bool>> stop, StageChanged stageChanged)
            : m_promise(promise)
            , m_stop(std::move(stop))
            , m_stageChanged(std::move(stageChanged))
        {
            m_promise.setProgressRange(0, kProgressMax);
        }

        bool stopRequested() const override
        {
            return m_stop->load(std::memory_order_relaxed) || m_promise.isCanceled();
        }

        void progress(std::int64_t done, std::int64_t total, std::string_view stage) override
        {
            // QFuture ignores values that do not increase, even with a new text, so every report
            // moves the bar by at least one permille (never past the end before the run ends).
            const int mapped = overallPermille(done, total, stage);
            m_last = std::min(kProgressMax - 1, std::max(mapped, m_last + 1));
            const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
            m_promise.setProgressValueAndText(m_last, text);
            // QFuture drops reports closer than 40 ms to the previous one; a new stage must still show
            // (a simulation may run for a second without another report), so it also goes directly.
            if (text != m_stage) {
                m_stage = text;
                m_stageChanged(m_last, text);
            }
        }

    private:
        QPromise<RunJob::Outcome>& m_promise;
        std::shared_ptr<std::atomic<bool>> m_stop;
        StageChanged m_stageChanged;
        int m_last = 0;
        QString m_stage;
    };

    QString joinedErrors(const std::vector<std::string>& errors)
    {
        QStringList lines;
        for (const std::string& error : errors)
            lines << QString::fromStdString(error);
        return lines.join(QLatin1Char('\n'));
    }

    void runOnWorker(QPromise<RunJob::Outcome>& promise, const RunJob::Resolver& resolve,
        const std::shared_ptr<const elk::run::CompiledModel>& reuse, elk::store::ResultStore* store, int threads,
        const std::shared_ptr<std::atomic<bool>>& stop, const PromiseRunControl::StageChanged& stageChanged)
    {
        // Nothing may escape the worker: every failure becomes an Outcome with an error text.
        const auto start = std::chrono::steady_clock::now();
        RunJob::Outcome outcome;
        try {
            PromiseRunControl control(promise, stop, stageChanged);
            const elk::run::RunSpecResult resolved = resolve();
            if (!resolved.ok()) {
                QStringList lines;
                for (const elk::chip::FieldError& error : resolved.errors)
                    lines << QString::fromStdString(error.field + ": " + error.message);
                outcome.error = lines.join(QLatin1Char('\n'));
                promise.addResult(std::move(outcome));
                return;
            }
            const elk::run::RunSpec& spec = resolved.spec;
            elk::run::RunResult result
                = elk::run::runCached(spec, store, control, threads, reuse, true, &outcome.cache);
            if (result.status == elk::RunStatus::Stopped || control.stopRequested()) {
                outcome.stopped = true;
            } else if (!result.ok()) {
                outcome.error = result.errors.empty() ? QObject::tr("the run failed without saying why")
                                                      : joinedErrors(result.errors);
            } else {
                outcome.result = std::make_shared<const elk::run::RunResult>(std::move(result));
            }
        } catch (const std::exception& error) {
            outcome.error = QObject::tr("internal error while running: %1").arg(QString::fromLocal8Bit(error.what()));
        } catch (...) {
            outcome.error = QObject::tr("internal error while running: unknown exception");
        }
        outcome.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        promise.setProgressValueAndText(
            kProgressMax, outcome.stopped ? QStringLiteral("stopped") : QStringLiteral("done"));
        promise.addResult(std::move(outcome)); // dropped by QFuture when the job was cancelled
    }

} // namespace

RunJob::RunJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const elk::run::RunResult>>();
    qRegisterMetaType<elk::run::CacheOutcome>();
}

RunJob::~RunJob() = default; // m_jobs stops every job and waits for its worker

void RunJob::start(const elk::run::RunSpec& spec, std::shared_ptr<const elk::run::CompiledModel> reuse)
{
    start([spec] { return elk::run::RunSpecResult { spec, {} }; }, std::move(reuse));
}

void RunJob::start(Resolver resolve, std::shared_ptr<const elk::run::CompiledModel> reuse)
{
    Job* job = m_jobs.begin([this](Job* finished) { onJobFinished(finished); });
    connect(job->watcher, &QFutureWatcherBase::progressValueChanged, this, [this, job] { onJobProgress(job); });
    // Posted to this object; the id check drops what a superseded or cancelled job still sends.
    auto stageChanged = [this, id = job->id](int permille, const QString& stage) {
        QMetaObject::invokeMethod(
            this,
            [this, id, permille, stage] {
                if (Job* current = m_jobs.current(); current && current->id == id)
                    reportProgress(current, permille, stage);
            },
            Qt::QueuedConnection);
    };
    job->watcher->setFuture(
        QtConcurrent::run([resolve = std::move(resolve), reuse = std::move(reuse), store = m_store, threads = m_threads,
                              stop = job->stop, stageChanged](QPromise<Outcome>& promise) {
            runOnWorker(promise, resolve, reuse, store, threads, stop, stageChanged);
        }));
    emit started();
}

void RunJob::cancel()
{
    m_jobs.cancel(true);
}

void RunJob::onJobProgress(Job* job)
{
    if (job != m_jobs.current())
        return;
    const QString stage = job->watcher->progressText();
    if (stage.isEmpty())
        return; // the watcher's initial state, before the worker reported anything
    reportProgress(job, job->watcher->progressValue(), stage);
}

void RunJob::reportProgress(Job* job, int permille, const QString& stage)
{
    // Two channels (the watcher and stage changes) may arrive out of order: the bar never goes back.
    if (job->cancelRequested)
        return;
    job->lastPermille = std::max(job->lastPermille, permille);
    emit progress(std::clamp(job->lastPermille / 10, 0, 100), stage);
}

void RunJob::onJobFinished(Job* job)
{
    const Jobs::Finished done = m_jobs.finish(job);
    if (!done.current)
        return; // superseded: dropped without a signal
    if (done.cancelRequested || !done.outcome || done.outcome->stopped) {
        emit cancelled();
    } else if (!done.outcome->error.isEmpty()) {
        emit failed(done.outcome->error);
    } else {
        m_lastCompiled = done.outcome->result->compiled;
        emit finished(done.outcome->result, done.outcome->cache, done.outcome->wallSeconds);
    }
}

} // namespace elk::app
