// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_job.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>

#include <QFutureWatcher>
#include <QPromise>
#include <QStringList>
#include <QtConcurrent>

#include "engine/hlo/hlo_reader.h"
#include "engine/store/result_store.h"

namespace elk::app {

struct HloJob::Outcome {
    HloRunSetPtr runs;
    QString error; ///< non-empty: an exception escaped the engine
    bool stopped = false;
};

namespace {

    constexpr int kProgressMax = 1000; // permille
    constexpr int kReadPermille = 80; // reading the file: the first 8 %

    /// The engine's progress for configuration `index` of `count`, on the job's promise: one monotone
    /// permille over all configurations; stop when the job's control says so or the future is cancelled.
    class ConfigurationControl final : public elk::RunControl {
    public:
        ConfigurationControl(QPromise<HloJob::Outcome>& promise, const elk::AtomicRunControl& stop, int index,
            int count, QString label, int& last)
            : m_promise(promise)
            , m_stop(stop)
            , m_index(index)
            , m_count(std::max(1, count))
            , m_label(std::move(label))
            , m_last(last)
        {
        }

        bool stopRequested() const override { return m_stop.stopRequested() || m_promise.isCanceled(); }

        void progress(std::int64_t done, std::int64_t total, std::string_view stage) override
        {
            // Only "estimate" counts regions; the other stages keep the bar and show their name.
            double fraction = 0;
            if (stage == "estimate" && total > 0)
                fraction = std::clamp(double(done) / double(total), 0.0, 1.0);
            else if (stage == "simulate")
                fraction = 1;
            const int span = kProgressMax - kReadPermille;
            const int mapped = kReadPermille + int(span * (m_index + fraction * 0.98) / m_count);
            // QFuture ignores values that do not increase, even with a new text: always move by one.
            m_last = std::min(kProgressMax - 1, std::max(mapped, m_last + 1));
            m_promise.setProgressValueAndText(
                m_last, m_label + QStringLiteral(": ") + QString::fromUtf8(stage.data(), qsizetype(stage.size())));
        }

    private:
        QPromise<HloJob::Outcome>& m_promise;
        const elk::AtomicRunControl& m_stop;
        int m_index;
        int m_count;
        QString m_label;
        int& m_last;
    };

    /// runHloFile, with the file read once for every configuration.
    HloRunSet runAll(QPromise<HloJob::Outcome>& promise, const HloJobRequest& request, elk::store::ResultStore* store,
        const elk::AtomicRunControl& stop, bool& stopped)
    {
        HloRunSet set;
        set.path = request.path;
        set.configurations = request.configurations;
        int last = 0;
        promise.setProgressRange(0, kProgressMax);
        promise.setProgressValueAndText(++last, QStringLiteral("read"));
        const std::string path = request.path.toStdString();
        const elk::hlo::ReadResult read = elk::hlo::readHloFile(path);
        const int parts = int(read.modules.size());
        const int part = request.options.partIndex;
        if (parts == 0 || part < 0 || part >= parts) {
            for (const elk::hlo::ReadError& error : read.errors)
                set.readErrors << QString::fromStdString(elk::hlo::toString(error));
            if (parts > 0)
                set.readErrors
                    << QObject::tr("%1: part %2 not found (%3 parsed)").arg(request.path).arg(part).arg(parts);
            else if (read.onlyComments)
                set.readErrors
                    << QObject::tr("%1: holds only comments: no module or function to cost").arg(request.path);
            else if (set.readErrors.isEmpty())
                set.readErrors << QObject::tr("%1: expected a module or a function, found none").arg(request.path);
            return set;
        }
        last = std::max(last, kReadPermille);
        const int count = int(request.configurations.size());
        for (int i = 0; i < count; ++i) {
            const HloConfiguration& configuration = request.configurations[std::size_t(i)];
            ConfigurationControl control(promise, stop, i, count, configurationLabel(configuration), last);
            elk::hlo::HloRunOptions options = request.options;
            options.system = configuration.system;
            options.estimators = configuration.estimators;
            elk::hlo::HloRunResult result
                = elk::hlo::runHloModule(read.modules[std::size_t(part)], options, store, control);
            if (result.status == elk::RunStatus::Stopped || control.stopRequested()) {
                stopped = true;
                return set;
            }
            // As runHloFile reports them: the reader's warnings first, parts that did not parse last.
            result.warnings.insert(result.warnings.begin(), read.warnings.begin(), read.warnings.end());
            for (const elk::hlo::ReadError& error : read.errors)
                result.warnings.push_back("skipped a part that does not parse: " + elk::hlo::toString(error));
            if (result.sourceFile.empty())
                result.sourceFile = path;
            set.results.push_back(std::make_shared<const elk::hlo::HloRunResult>(std::move(result)));
        }
        return set;
    }

    void runOnWorker(QPromise<HloJob::Outcome>& promise, const HloJobRequest& request, elk::store::ResultStore* store,
        const std::shared_ptr<elk::AtomicRunControl>& stop)
    {
        // Nothing may escape the worker: every failure becomes an Outcome with an error text.
        const auto start = std::chrono::steady_clock::now();
        HloJob::Outcome outcome;
        try {
            HloRunSet set = runAll(promise, request, store, *stop, outcome.stopped);
            set.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!outcome.stopped)
                outcome.runs = std::make_shared<const HloRunSet>(std::move(set));
        } catch (const std::exception& error) {
            outcome.error = QObject::tr("internal error while running: %1").arg(QString::fromLocal8Bit(error.what()));
        } catch (...) {
            outcome.error = QObject::tr("internal error while running: unknown exception");
        }
        promise.setProgressValueAndText(
            kProgressMax, outcome.stopped ? QStringLiteral("stopped") : QStringLiteral("done"));
        promise.addResult(std::move(outcome)); // dropped by QFuture when the job was cancelled
    }

} // namespace

QString configurationLabel(const HloConfiguration& configuration)
{
    QStringList names;
    for (const std::string& name : configuration.estimators)
        names << QString::fromStdString(name);
    if (names.isEmpty())
        names << QStringLiteral("roofline");
    return QString::fromStdString(configuration.system) + QStringLiteral(" · ") + names.join(QStringLiteral(" → "));
}

HloJob::HloJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<HloRunSetPtr>();
}

HloJob::~HloJob() = default; // m_jobs stops every job and waits for its worker

void HloJob::start(HloJobRequest request)
{
    Job* job = m_jobs.begin([this](Job* finished) { onJobFinished(finished); });
    connect(job->watcher, &QFutureWatcherBase::progressValueChanged, this, [this, job] {
        if (job != m_jobs.current() || job->cancelRequested)
            return;
        const QString stage = job->watcher->progressText();
        if (stage.isEmpty())
            return; // the watcher's initial state
        const int percent = std::clamp(job->watcher->progressValue() / 10, 0, 100);
        if (percent == job->lastPercent && stage == job->lastStage)
            return;
        job->lastPercent = std::max(job->lastPercent, percent);
        job->lastStage = stage;
        emit progress(job->lastPercent, stage);
    });
    job->watcher->setFuture(
        QtConcurrent::run([request = std::move(request), store = m_store, stop = job->stop](
                              QPromise<Outcome>& promise) { runOnWorker(promise, request, store, stop); }));
    emit started();
}

void HloJob::cancel()
{
    m_jobs.cancel(true);
}

void HloJob::onJobFinished(Job* job)
{
    const Jobs::Finished done = m_jobs.finish(job);
    if (!done.current)
        return; // superseded: dropped without a signal
    if (done.cancelRequested || !done.outcome || done.outcome->stopped)
        emit cancelled();
    else if (!done.outcome->error.isEmpty())
        emit failed(done.outcome->error);
    else
        emit finished(done.outcome->runs);
}

} // namespace elk::app
