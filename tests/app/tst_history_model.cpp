// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The history table over the result cache's records: what each column shows and sorts by, the spec
// hash a reopen needs, and a valid model through resets (QAbstractItemModelTester).
#include <QAbstractItemModelTester>
#include <QTest>

#include <cmath>
#include <limits>

#include "app/studio/history_model.h"

using elk::app::HistoryModel;
using elk::store::RunRecordInfo;

namespace {

RunRecordInfo record(const char* hash, const char* model, double elkFullMs)
{
    RunRecordInfo info;
    info.specHash = hash;
    info.createdUtc = "2026-11-30T00:41:12Z";
    info.modelLabel = model;
    info.chipName = "ipu-pod4-hbm";
    info.phase = "decode";
    info.batch = 32;
    info.seqLen = 1;
    info.kvLen = 2048;
    info.designs = { "basic", "static", "elk-dyn", "elk-full", "ideal" };
    info.latencyMs = { 2.0, 1.8, 1.6, elkFullMs, 1.2 };
    info.hasDetail = true;
    return info;
}

} // namespace

class TestHistoryModel : public QObject {
    Q_OBJECT
private slots:
    void columnsShowTheRecord_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("display");
        QTest::addRow("model: bundled prefix dropped")
            << int(HistoryModel::ModelColumn) << QStringLiteral("llama2-13b");
        QTest::addRow("chip") << int(HistoryModel::ChipColumn) << QStringLiteral("ipu-pod4-hbm");
        QTest::addRow("phase") << int(HistoryModel::PhaseColumn) << QStringLiteral("decode");
        QTest::addRow("batch") << int(HistoryModel::BatchColumn) << QStringLiteral("32");
        QTest::addRow("elk-full latency, 3 decimals") << int(HistoryModel::LatencyColumn) << QStringLiteral("1.457");
    }

    void columnsShowTheRecord()
    {
        QFETCH(int, column);
        QFETCH(QString, display);
        HistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecords({ record("aa", "bundled:llama2-13b", 1.4567) });
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(HistoryModel::ColumnCount));
        QCOMPARE(model.index(0, column).data().toString(), display);
        QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
    }

    void sortRoleCarriesRawValues()
    {
        HistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunRecordInfo failed = record("bb", "/tmp/models/tiny.onnx", std::numeric_limits<double>::quiet_NaN());
        model.setRecords({ record("aa", "bundled:llama2-13b", 1.25), failed });
        QCOMPARE(model.index(0, HistoryModel::LatencyColumn).data(HistoryModel::SortRole).toDouble(), 1.25);
        // A design that failed sorts after every latency and shows a dash.
        QVERIFY(std::isinf(model.index(1, HistoryModel::LatencyColumn).data(HistoryModel::SortRole).toDouble()));
        QCOMPARE(model.index(1, HistoryModel::LatencyColumn).data().toString(), QStringLiteral("–"));
        QCOMPARE(model.index(1, HistoryModel::ModelColumn).data().toString(), QStringLiteral("tiny.onnx"));
        QCOMPARE(model.index(1, HistoryModel::BatchColumn).data(HistoryModel::SortRole).toLongLong(), 32);
    }

    void specHashRoleNamesTheRunToReopen()
    {
        HistoryModel model;
        model.setRecords({ record("aa", "bundled:llama2-13b", 1.0), record("bb", "bundled:opt-30b", 2.0) });
        QCOMPARE(
            model.index(1, HistoryModel::ChipColumn).data(HistoryModel::SpecHashRole).toString(), QStringLiteral("bb"));
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("elk-full: 1.000 ms")));
    }

    void emptyingLeavesAValidModel()
    {
        HistoryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecords({ record("aa", "bundled:llama2-13b", 1.0) });
        model.setRecords({});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.index(0, 0).isValid());
    }
};

QTEST_MAIN(TestHistoryModel)
#include "tst_history_model.moc"
