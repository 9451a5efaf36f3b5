// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Validation arithmetic: reference CSV parsing (and its errors), per-row error, MAPE, the
// cross-generation speedup error, and the fit judged on systems not used for fitting.
#include <cmath>

#include <QTest>

#include "engine/hlo/hlo_validate.h"
#include "tests/support/compare_near.h"

using namespace elk::hlo;

class TestHloValidate : public QObject {
    Q_OBJECT

private slots:
    void bundledReferenceParses()
    {
        const ReferenceTable table = parseReferenceCsv(bundledReferenceCsv(), "bundled");
        QVERIFY2(table.ok(), table.errors.empty() ? "" : table.errors.front().c_str());
        QCOMPARE(int(table.rows.size()), 6 * 4 + 5 + 5);
        // hlo-reference.md §6.2(a): ResNet-50 train on 4 × A100 40 GB took 0.10 s.
        bool found = false;
        for (const ReferenceRow& row : table.rows)
            if (row.workload == "resnet50-train") {
                QCOMPARE(row.system, std::string("4x-a100-sxm-40gb"));
                QCOMPARE(row.measuredSeconds, 0.10);
                QVERIFY(!row.source.empty());
                found = true;
            }
        QVERIFY(found);
    }

    void badReferences_data()
    {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no header column") << "workload,system\nx,y\n"
                                          << "t.csv: line 1: expected a header with a 'measured_s' column";
        QTest::addRow("not a number") << "workload,system,measured_s\na,b,fast\n"
                                      << "t.csv: line 2: measured_s: expected seconds > 0, found 'fast'";
        QTest::addRow("zero seconds") << "# c\nworkload,system,measured_s\na,b,0\n"
                                      << "t.csv: line 3: measured_s: expected seconds > 0, found '0'";
        QTest::addRow("missing system") << "workload,system,measured_s\na,,1\n"
                                        << "t.csv: line 2: expected a workload and a system";
        QTest::addRow("empty file") << ""
                                    << "t.csv: expected a header row";
    }

    void badReferences()
    {
        QFETCH(QString, csv);
        QFETCH(QString, expected);
        const ReferenceTable table = parseReferenceCsv(csv.toStdString(), "t.csv");
        QVERIFY(!table.ok());
        QVERIFY2(QString::fromStdString(table.errors.front()).startsWith(expected), table.errors.front().c_str());
    }

    void errorsMapeAndSpeedups()
    {
        const ReferenceTable table = parseReferenceCsv("workload,system,measured_s\n"
                                                       "w,old,2.0\n"
                                                       "w,new,1.0\n"
                                                       "v,old,4.0\n"
                                                       "u,old,1.0\n",
            "t.csv");
        QVERIFY(table.ok());
        // Predictions: w: 2.2 on old (+10 %), 0.8 on new (−20 %); v: 3.0 (−25 %); u: none.
        const Predictor predict = [](const ReferenceRow& row, double scale) -> Prediction {
            if (row.workload == "u")
                return { std::nullopt, "no module" };
            const double base = row.workload == "v" ? 3.0 : row.system == "old" ? 2.2 : 0.8;
            return { base * scale, "" };
        };
        const LineageOf lineage = [](const std::string& system) -> std::optional<SystemLineage> {
            return SystemLineage { "vendor", system == "old" ? 1 : 2 };
        };
        const ValidationReport report = validateAgainst(table, predict, {}, lineage);
        QCOMPARE(report.predictedRows, 3);
        ELK_COMPARE_NEAR(report.rows[0].errorPercent, 10, 1e-9);
        ELK_COMPARE_NEAR(report.rows[1].errorPercent, -20, 1e-9);
        ELK_COMPARE_NEAR(*report.mapePercent, (10 + 20 + 25) / 3.0, 1e-9);
        QCOMPARE(int(report.speedups.size()), 1);
        // S_ref = 2, S_sim = 2.2 / 0.8 = 2.75: ε = (2 − 2.75) / 2 = −37.5 %.
        ELK_COMPARE_NEAR(report.speedups[0].errorPercent, -37.5, 1e-9);
        QCOMPARE(report.rows[3].prediction.note, std::string("no module"));
        const QString text = QString::fromStdString(validationReportText(report));
        QVERIFY(text.contains(u"MAPE 18.3 %"));
        QVERIFY2(text.contains(u"not predicted: no module"), qPrintable(text));
        QVERIFY2(text.contains(u"3 of 4 rows predicted (1 not predicted, left out)"), qPrintable(text));
        // Without lineage there is no pair to compare.
        QVERIFY(validateAgainst(table, predict).speedups.empty());
    }

    // Table V's pairs: consecutive generations of one vendor, in generation order whatever the
    // table's row order; never across vendors (no B200 → TPU pair).
    void speedupPairsFollowGenerations()
    {
        const ReferenceTable table = parseReferenceCsv("workload,system,measured_s\n"
                                                       "w,b200,0.25\n"
                                                       "w,a100,1.0\n"
                                                       "w,tpu,3.0\n"
                                                       "w,h100,0.5\n"
                                                       "w,h200,0.4\n",
            "t.csv");
        const Predictor predict = [](const ReferenceRow& row, double) -> Prediction {
            return { row.measuredSeconds, "" };
        };
        const LineageOf lineage = [](const std::string& system) -> std::optional<SystemLineage> {
            if (system == "tpu")
                return SystemLineage { "Google TPU", 3 };
            const int generation = system == "a100" ? 1 : system == "h100" ? 2 : system == "h200" ? 3 : 4;
            return SystemLineage { "NVIDIA", generation };
        };
        const ValidationReport report = validateAgainst(table, predict, {}, lineage);
        QCOMPARE(int(report.speedups.size()), 3);
        QCOMPARE(report.speedups[0].fromSystem + ">" + report.speedups[0].toSystem, std::string("a100>h100"));
        QCOMPARE(report.speedups[1].fromSystem + ">" + report.speedups[1].toSystem, std::string("h100>h200"));
        QCOMPARE(report.speedups[2].fromSystem + ">" + report.speedups[2].toSystem, std::string("h200>b200"));
        QCOMPARE(report.speedups[0].referenceSpeedup, 2.0);
    }

    // Nothing predicted: no MAPE rather than "0.0 %"; a fit on one row is refused; a fit that would
    // need an efficiency above 1 is clamped.
    void noRowsNoMapeAndFitLimits()
    {
        const ReferenceTable table
            = parseReferenceCsv("workload,system,measured_s\na,fit,2.0\nb,fit,8.0\nc,other,1.0\n", "t.csv");
        const Predictor none = [](const ReferenceRow&, double) -> Prediction { return { std::nullopt, "no module" }; };
        const ValidationReport empty = validateAgainst(table, none);
        QVERIFY(!empty.mapePercent.has_value());
        QVERIFY(QString::fromStdString(validationReportText(empty)).contains(u"MAPE n/a (no predicted rows)"));
        const Predictor onlyA = [](const ReferenceRow& row, double scale) -> Prediction {
            if (row.workload != "a")
                return { std::nullopt, "no module" };
            return { row.measuredSeconds * scale, "" };
        };
        const ValidationReport oneRow = validateAgainst(table, onlyA, { "fit" });
        QVERIFY(!oneRow.ok());
        QVERIFY2(oneRow.error.find("at least 2 predicted rows") != std::string::npos, oneRow.error.c_str());
        // A model 10 % pessimistic everywhere asks for efficiency 1.1: clamped to 1 (scale 1).
        const Predictor slow = [](const ReferenceRow& row, double scale) -> Prediction {
            return { row.measuredSeconds * 1.1 * scale, "" };
        };
        const ValidationReport clamped = validateAgainst(table, slow, { "fit" });
        QVERIFY(clamped.ok());
        QCOMPARE(*clamped.fittedScale, 1.0);
        QVERIFY2(clamped.fitNote.find("clamped to 1") != std::string::npos, clamped.fitNote.c_str());
    }

    void fitIsJudgedOnOtherSystems()
    {
        const ReferenceTable table = parseReferenceCsv("workload,system,measured_s\n"
                                                       "a,fit,2.0\n"
                                                       "b,fit,8.0\n"
                                                       "a,held-out,3.0\n",
            "t.csv");
        // The model is 2× optimistic everywhere, except 1.5× on the held-out system.
        const Predictor predict = [](const ReferenceRow& row, double scale) -> Prediction {
            const double measured = row.measuredSeconds;
            const double optimism = row.system == "fit" ? 2.0 : 1.5;
            return { measured / optimism * scale, "" };
        };
        const ValidationReport report = validateAgainst(table, predict, { "fit" });
        QVERIFY(report.fittedScale.has_value());
        ELK_COMPARE_NEAR(*report.fittedScale, 2.0, 1e-9);
        QVERIFY(report.fitMapePercent < 1e-9);
        // Judged only on the held-out row: 3/1.5·2 = 4 vs 3 → +33.3 %.
        ELK_COMPARE_NEAR(*report.mapePercent, 100.0 / 3, 1e-6);
        QVERIFY(report.rows[0].usedForFit && !report.rows[2].usedForFit);
    }
};

QTEST_GUILESS_MAIN(TestHloValidate)
#include "tst_hlo_validate.moc"
