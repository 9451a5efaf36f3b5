// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Runs on a worker thread: the GUI thread keeps ticking during a long job, Cancel stops every stage
// (cancelled() arrives, no result; how fast is measured by tests/bench/bench_cancel, and that every
// stage polls the flag by tst_run_stop), a newer start supersedes an older one (only its result
// arrives), a rerun through the result store is a cache hit with the same latencies, and an HBM edit
// reuses the compiled model.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <optional>

#include "app/studio/run_job.h"
#include "engine/run/run_spec.h"

using namespace elk;
using elk::app::RunJob;

namespace {

constexpr int kRunTimeoutMs = 240000; // Debug builds of the long job take a while
constexpr qint64 kMaxTickGapMs = 100;
/// How long a cancelled job may take to say so before the test calls it stuck: a liveness bound for
/// slow (sanitizer) builds, not a speed limit.
constexpr int kCancelLivenessMs = 60000;

/// A long job: Llama-2-70B decode, batch 16, on four IPUs (≈ 2 s in Release, more in Debug), so
/// every stage lasts long enough to be cancelled in, whatever the build type.
const char* const kLongModel = "llama2-70b";
const char* const kLongChip = "ipu-pod4-hbm";
/// A short job: one decoder layer (fixed shapes) on one IPU.
const char* const kSmallModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
const char* const kSmallChip = "ipu-mk2-hbm";

run::RunSpec resolved(
    const std::string& model, const std::string& chip, std::int64_t batch, std::vector<std::string> overrides = {})
{
    run::RunRequest request;
    request.modelPath = model;
    request.chip = chip;
    request.batch = batch;
    request.kvLen = 2048;
    request.chipOverrides = std::move(overrides);
    run::RunSpecResult result = run::resolveRunSpec(request);
    if (!result.ok())
        qFatal("cannot resolve: %s: %s", result.errors.front().field.c_str(), result.errors.front().message.c_str());
    return result.spec;
}

run::RunSpec longSpec()
{
    return resolved(kLongModel, kLongChip, 16);
}
run::RunSpec smallSpec(std::vector<std::string> overrides = {})
{
    return resolved(kSmallModel, kSmallChip, 1, std::move(overrides));
}

/// Everything one job reported, in order.
struct Recorder {
    std::vector<std::pair<int, QString>> progress;
    std::vector<std::shared_ptr<const run::RunResult>> results;
    std::vector<run::CacheOutcome> cache;
    std::vector<double> wallSeconds;
    QStringList failures;
    int cancelledCount = 0;
    QElapsedTimer sinceCancel;
    std::optional<qint64> cancelMs;

    explicit Recorder(RunJob& job)
    {
        QObject::connect(&job, &RunJob::progress, &job,
            [this](int percent, const QString& stage) { progress.emplace_back(percent, stage); });
        QObject::connect(&job, &RunJob::finished, &job,
            [this](std::shared_ptr<const run::RunResult> result, run::CacheOutcome outcome, double wall) {
                results.push_back(std::move(result));
                cache.push_back(outcome);
                wallSeconds.push_back(wall);
            });
        QObject::connect(&job, &RunJob::failed, &job, [this](const QString& message) { failures << message; });
        QObject::connect(&job, &RunJob::cancelled, &job, [this] {
            ++cancelledCount;
            if (sinceCancel.isValid())
                cancelMs = sinceCancel.elapsed();
        });
    }
    int outcomes() const { return int(results.size()) + int(failures.size()) + cancelledCount; }
    bool sawStage(const QString& prefix) const
    {
        return std::any_of(
            progress.begin(), progress.end(), [&](const auto& p) { return p.second.startsWith(prefix); });
    }
};

std::vector<double> simulatedLatencies(const run::RunResult& result)
{
    std::vector<double> latencies;
    for (const run::DesignRun& design : result.designs)
        latencies.push_back(design.simulated ? design.simulated->latencyCycles : std::nan(""));
    return latencies;
}

} // namespace

class TestRunJob : public QObject {
    Q_OBJECT
private slots:
    void guiThreadKeepsTickingDuringALongJob()
    {
        RunJob job;
        Recorder recorder(job);
        QElapsedTimer sinceTick;
        qint64 maxGapMs = 0;
        int ticks = 0;
        QTimer timer;
        timer.setInterval(10);
        connect(&timer, &QTimer::timeout, this, [&] {
            if (sinceTick.isValid())
                maxGapMs = std::max(maxGapMs, sinceTick.elapsed());
            sinceTick.restart();
            ++ticks;
        });
        timer.start();
        job.start(longSpec());
        QElapsedTimer running;
        running.start();
        // At least 1.5 s of the job (or all of it when shorter), then cancel.
        QTRY_VERIFY_WITH_TIMEOUT(running.elapsed() >= 1500 || recorder.outcomes() > 0, kRunTimeoutMs);
        const bool stillRunning = recorder.outcomes() == 0;
        if (stillRunning) {
            recorder.sinceCancel.start();
            job.cancel();
        }
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 1, kRunTimeoutMs);
        timer.stop();
        // A 10 ms timer on a free GUI thread ticks ~100 times a second; half of that is the floor.
        QVERIFY2(ticks >= running.elapsed() / 20,
            qPrintable(QStringLiteral("only %1 ticks in %2 ms").arg(ticks).arg(running.elapsed())));
        QVERIFY2(maxGapMs <= kMaxTickGapMs, qPrintable(QStringLiteral("GUI thread blocked for %1 ms").arg(maxGapMs)));
        QVERIFY(!recorder.progress.empty());
        if (stillRunning)
            QCOMPARE(recorder.cancelledCount, 1);
    }

    void cancelStopsEveryStage_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addRow("while importing") << QStringLiteral("import");
        QTest::addRow("while searching partitions") << QStringLiteral("partition");
        QTest::addRow("while scheduling") << QStringLiteral("schedule ");
        QTest::addRow("while simulating") << QStringLiteral("simulate ");
    }

    void cancelStopsEveryStage()
    {
        QFETCH(QString, stage);
        RunJob job;
        Recorder recorder(job);
        job.start(longSpec());
        QTRY_VERIFY_WITH_TIMEOUT(recorder.sawStage(stage) || recorder.outcomes() > 0, kRunTimeoutMs);
        QVERIFY2(recorder.outcomes() == 0, "the job ended before reaching the stage");
        recorder.sinceCancel.start();
        job.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(recorder.cancelledCount, 1, kCancelLivenessMs);
        QVERIFY(recorder.cancelMs.has_value());
        qInfo("cancelled() %lld ms after cancel() during '%s'", *recorder.cancelMs,
            qPrintable(recorder.progress.back().second));
        QVERIFY(recorder.results.empty());
        QVERIFY(recorder.failures.empty());
        QVERIFY(!job.isRunning());
    }

    void newerStartSupersedesTheOlder_data()
    {
        QTest::addColumn<bool>("longFirst");
        QTest::addRow("long job replaced by a short one") << true;
        QTest::addRow("short job replaced by another short one") << false;
    }

    void newerStartSupersedesTheOlder()
    {
        QFETCH(bool, longFirst);
        RunJob job;
        Recorder recorder(job);
        const run::RunSpec first = longFirst ? longSpec() : smallSpec();
        const run::RunSpec second = smallSpec({ "hbm.bandwidthGBpsPerStack=100" });
        job.start(first);
        job.start(second);
        QTRY_VERIFY_WITH_TIMEOUT(recorder.outcomes() > 0, kRunTimeoutMs);
        QVERIFY2(recorder.failures.isEmpty(), qPrintable(recorder.failures.join(QLatin1Char('\n'))));
        QCOMPARE(recorder.results.size(), std::size_t(1));
        QCOMPARE(recorder.results.front()->spec, second);
        // The first job's worker has stopped by now; nothing of it may arrive later.
        QTest::qWait(300);
        QCOMPARE(recorder.outcomes(), 1);
        QCOMPARE(recorder.cancelledCount, 0);
    }

    void rerunThroughTheStoreIsACacheHit()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        store::OpenResult opened
            = store::ResultStore::open(folder.filePath(QStringLiteral("results.sqlite")).toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        RunJob job;
        job.setStore(opened.store.get());
        Recorder recorder(job);
        const run::RunSpec spec = smallSpec();

        job.start(spec);
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 1, kRunTimeoutMs);
        QVERIFY2(recorder.failures.isEmpty(), qPrintable(recorder.failures.join(QLatin1Char('\n'))));
        QVERIFY(!recorder.cache[0].runHit);

        job.start(spec);
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 2, kRunTimeoutMs);
        QCOMPARE(recorder.results.size(), std::size_t(2));
        QVERIFY(recorder.cache[1].runHit);
        QVERIFY2(recorder.wallSeconds[1] < recorder.wallSeconds[0],
            qPrintable(
                QStringLiteral("cold %1 s, cached %2 s").arg(recorder.wallSeconds[0]).arg(recorder.wallSeconds[1])));
        QCOMPARE(recorder.results[1]->spec, spec);
        QCOMPARE(simulatedLatencies(*recorder.results[1]), simulatedLatencies(*recorder.results[0]));
    }

    void hbmEditReusesTheCompiledModel()
    {
        RunJob job;
        Recorder recorder(job);
        job.start(smallSpec());
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 1, kRunTimeoutMs);
        QCOMPARE(recorder.results.size(), std::size_t(1));
        QCOMPARE(job.lastCompiled(), recorder.results[0]->compiled);

        job.start(smallSpec({ "hbm.bandwidthGBpsPerStack=100" }), job.lastCompiled());
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 2, kRunTimeoutMs);
        QCOMPARE(recorder.results.size(), std::size_t(2));
        QVERIFY(recorder.cache[1].reusedCompiled);
        QCOMPARE(recorder.results[1]->compiled, recorder.results[0]->compiled);
        // Less HBM bandwidth: the HBM-bound decode layer gets slower with every design.
        const auto before = simulatedLatencies(*recorder.results[0]);
        const auto after = simulatedLatencies(*recorder.results[1]);
        QCOMPARE(after.size(), before.size());
        for (std::size_t d = 0; d < before.size(); ++d)
            QVERIFY2(after[d] > before[d], recorder.results[1]->spec.designs[d].c_str());
    }

    void progressNamesTheEngineStages()
    {
        RunJob job;
        Recorder recorder(job);
        job.start(smallSpec());
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 1, kRunTimeoutMs);
        QCOMPARE(recorder.results.size(), std::size_t(1));
        QVERIFY(!recorder.progress.empty());
        int last = -1;
        for (const auto& [percent, stage] : recorder.progress) {
            QVERIFY2(percent >= last, qPrintable(QStringLiteral("%1 % after %2 %").arg(percent).arg(last)));
            QVERIFY(percent <= 100);
            QVERIFY(!stage.isEmpty());
            last = percent;
        }
    }

    void failedRunSaysWhy()
    {
        RunJob job;
        Recorder recorder(job);
        // Llama-2-70B's FFN weight does not fit the 16-core teaching chip's SRAM, even split.
        run::RunRequest request;
        request.modelPath = "llama2-70b";
        request.chip = "teaching-mesh-4x4";
        request.kvLen = 128;
        const run::RunSpecResult spec = run::resolveRunSpec(request);
        QVERIFY(spec.ok());
        job.start(spec.spec);
        QTRY_COMPARE_WITH_TIMEOUT(recorder.outcomes(), 1, kRunTimeoutMs);
        QCOMPARE(recorder.failures.size(), 1);
        QVERIFY2(recorder.failures.front().contains(QStringLiteral("op '")), qPrintable(recorder.failures.front()));
        QVERIFY(recorder.results.empty());
    }
};

QTEST_MAIN(TestRunJob)
#include "tst_run_job.moc"
