// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Artifact parity on the two points the published artifact was measured at (issue 14): each design's
// latency within 5 % of the artifact's. Needs the artifact's llama2-13.json (../shared/corpus/einstein;
// it has no licence, so it is not in tests/data): skipped without it.
#include <QTest>

#include <cmath>

#include "engine/run/artifact_parity.h"
#include "engine/run/run_spec.h"
#include "tests/support/corpus_main.h"

using namespace elk;

class TestArtifactParityPoints : public QObject
{
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
            within = within && design.schedule && std::abs(error) <= 0.05;
        }
        qInfo("%s", qPrintable(report));
        QVERIFY2(within, qPrintable(report));
    }
};

ELK_CORPUS_TEST_MAIN(TestArtifactParityPoints, ELK_SHARED_DIR "/corpus/einstein")
#include "tst_artifact_parity_points.moc"
