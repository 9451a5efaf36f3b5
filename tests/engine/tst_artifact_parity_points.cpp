// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Artifact parity on the two points the published artifact was measured at (issue 14): each design's
// latency within 1 % of the artifact's. Needs the artifact's llama2-13.json (../shared/corpus/einstein;
// it has no licence, so it is not in tests/data): skipped without it.
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "engine/run/artifact_parity.h"
#include "engine/run/run_spec.h"
#include "engine/store/reproduce.h"
#include "engine/store/result_store.h"
#include "tests/support/corpus_main.h"

using namespace elk;

class TestArtifactParityPoints : public QObject {
    Q_OBJECT

private slots:
    void measuredPoints_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::addColumn<QList<double>>("published"); // basic, static, elk-dyn, elk-full, ideal (ms)
        // Issue 14: artifact commit 8c6e814, launch.py llama2-13 CORES HBM --core_mem_kb 624 --layers 40
        // --batch_size 32 --sequence_length 2048 --split_factor 3.
        QTest::newRow("ipu-mk2-hbm") << u"ipu-mk2-hbm"_qs << QList<double> { 32.498, 32.415, 19.373, 19.270, 19.249 };
        QTest::newRow("ipu-pod4-hbm") << u"ipu-pod4-hbm"_qs << QList<double> { 12.498, 9.210, 8.267, 6.72, 6.699 };
    }

    void measuredPoints()
    {
        // Issue 42: 1 %, close to the 0.4 % achieved (a 5 % bound would hide a real regression).
        constexpr double kTolerance = 0.01;
        QFETCH(QString, chip);
        QFETCH(QList<double>, published);
        const std::string model = ELK_SHARED_DIR "/corpus/einstein/llama2-13.json";
        run::RunRequest request;
        request.modelPath = model;
        request.chip = chip.toStdString();
        request.batch = 32;
        request.kvLen = 2048;
        const run::RunSpecResult resolved = run::resolveRunSpec(request);
        QVERIFY(resolved.ok());
        NullRunControl control;
        const run::ParityRun result = run::runArtifactParity(resolved.spec, {}, control);
        QVERIFY2(result.ok(), result.errors.empty() ? "" : result.errors.front().c_str());
        QCOMPARE(int(result.designs.size()), 5);
        QString report;
        bool within = true;
        for (std::size_t d = 0; d < 5; ++d) {
            const run::ParityDesign& design = result.designs[d];
            const double error = design.latencyMs / published[qsizetype(d)] - 1;
            report += u"%1 %2 ms (artifact %3, %4 %) "_qs.arg(QString::fromLatin1(schedule::toString(design.design)))
                          .arg(design.latencyMs, 0, 'f', 3)
                          .arg(published[qsizetype(d)])
                          .arg(error * 100, 0, 'f', 1);
            within = within && design.schedule && std::abs(error) <= kTolerance;
        }
        qInfo("%s", qPrintable(report));
        QVERIFY2(within, qPrintable(report));
        // The figure scripts' metrics (§5.4), each against a sum computed another way. "Interconnect" is
        // the latency minus the other three parts by definition, so the parts are checked one by one:
        // every segment in a preload adds h·d, so overlap + preload-only is Σ Lh over the preloads (the
        // numerator of the HBM utilisation); every segment in an execution adds a·d, so overlap +
        // execute-only is Σ (comp + comm) of the executions. Both fail if two intervals of one list
        // overlap or a segment is missed.
        for (const run::ParityDesign& design : result.designs) {
            const auto& m = design.metrics;
            const auto& s = *design.schedule;
            const double cyclesPerMs = s.latencyCycles / design.latencyMs;
            const QString name = QString::fromLatin1(schedule::toString(design.design));
            const double inPreload = m.overlapMs + m.preloadOnlyMs;
            QVERIFY2(std::abs(inPreload - m.hbmUtilization * design.latencyMs) <= 1e-9 * design.latencyMs,
                qPrintable(u"%1: overlap + preload-only %2 ms, Σ Lh %3 ms"_qs.arg(name).arg(inPreload).arg(
                    m.hbmUtilization * design.latencyMs)));
            double busyCycles = 0;
            for (std::size_t i = 0; i < s.execute.size(); ++i)
                if (s.execute[i].length() > 0)
                    busyCycles += s.compComm[i].first + s.compComm[i].second;
            const double inExecution = m.overlapMs + m.executeOnlyMs;
            QVERIFY2(std::abs(inExecution - busyCycles / cyclesPerMs) <= 1e-9 * design.latencyMs,
                qPrintable(u"%1: overlap + execute-only %2 ms, Σ (comp + comm) %3 ms"_qs.arg(name)
                               .arg(inExecution)
                               .arg(busyCycles / cyclesPerMs)));
            QVERIFY(m.overlapMs >= 0 && m.preloadOnlyMs >= 0 && m.executeOnlyMs >= 0);
            QVERIFY2(m.interconnectMs >= -1e-9 * design.latencyMs, qPrintable(name)); // the parts fit the latency
            QVERIFY(m.hbmUtilization > 0 && m.hbmUtilization <= 1 + 1e-9);
            QVERIFY(m.nocLoadUtilization >= 0 && m.nocShiftUtilization >= 0);
            QVERIFY(m.tflops > 0);
            // The latency is the span of the schedule (T = −start of the first preload, §5.4): every
            // interval lies in [−T, 0] and one starts at −T.
            double earliest = 0, latest = -s.latencyCycles;
            for (const auto* list : { &s.execute, &s.preload })
                for (const schedule::Interval& interval : *list)
                    if (interval.length() > 0) {
                        earliest = std::min(earliest, interval.startCycles);
                        latest = std::max(latest, interval.endCycles);
                    }
            QVERIFY2(std::abs(-earliest - s.latencyCycles) <= 1e-9 * s.latencyCycles,
                qPrintable(u"%1: earliest interval at %2 cycles, latency %3 cycles"_qs.arg(name).arg(earliest).arg(
                    s.latencyCycles)));
            QVERIFY2(latest <= 1e-9 * s.latencyCycles, qPrintable(name));
        }
        QVERIFY(result.designs[4].metrics.hbmUtilization >= result.designs[0].metrics.hbmUtilization);
    }

    /// elk reproduce --parity artifact: the Fig. 17 point gives the measured latencies, and a second run
    /// comes from the cache's parity table with the same numbers.
    void reproduceThroughTheCache()
    {
        QTemporaryDir folder;
        const store::OpenResult opened = store::ResultStore::open(folder.filePath(u"cache.sqlite"_qs).toStdString());
        QVERIFY(opened.store != nullptr);
        run::PaperPoint point; // b32, KV 2048, 5888 cores, 16000: ipu-pod4-hbm
        point.model = "llama2-13";
        store::ReproduceOptions options;
        options.mode = run::ReproduceMode::ArtifactParity;
        options.einsteinDir = ELK_SHARED_DIR "/corpus/einstein";
        NullRunControl control;
        const store::ReproduceRun cold = store::reproducePoints({ point }, options, opened.store.get(), control);
        QCOMPARE(cold.fromCache, 0);
        QVERIFY2(cold.points.front().error.empty(), cold.points.front().error.c_str());
        QCOMPARE(int(cold.points.front().designs.size()), 5);
        QVERIFY(std::abs(cold.points.front().designs[3].latencyMs / 6.72 - 1) <= 0.01);
        const store::ReproduceRun warm = store::reproducePoints({ point }, options, opened.store.get(), control);
        QCOMPARE(warm.fromCache, 1);
        for (std::size_t d = 0; d < 5; ++d)
            QCOMPARE(warm.points.front().designs[d].latencyMs, cold.points.front().designs[d].latencyMs);
        // Another quirk set is another key.
        run::setParityQuirk(options.quirks, "hbm-mib-per-ms", false);
        const store::ReproduceRun other = store::reproducePoints({ point }, options, opened.store.get(), control);
        QCOMPARE(other.fromCache, 0);
        QVERIFY(other.points.front().designs[3].latencyMs != cold.points.front().designs[3].latencyMs);
    }
};

ELK_CORPUS_TEST_MAIN(TestArtifactParityPoints, ELK_SHARED_DIR "/corpus/einstein")
#include "tst_artifact_parity_points.moc"
