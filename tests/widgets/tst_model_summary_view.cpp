// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The model panel offscreen: figures formatted with units, ops per kind, run parameters, the error
// and empty states, and long paths that wrap instead of being clipped.
#include <algorithm>
#include <memory>

#include <QLabel>
#include <QTableWidget>
#include <QTest>
#include <QTextDocument>
#include <QTextOption>

#include "widgets/model/model_summary_view.h"
#include "widgets/model/quantity_format.h"

using elk::model::GraphSummary;
using elk::model::OpKind;
using elk::model::TensorRole;
using elk::widgets::ModelSnapshot;
using elk::widgets::ModelSummaryView;

namespace {

const QString kThinSpace = QString(QChar(0x2009));

std::size_t indexOf(TensorRole role)
{
    return std::size_t(std::find(elk::model::kAllTensorRoles.begin(), elk::model::kAllTensorRoles.end(), role)
        - elk::model::kAllTensorRoles.begin());
}

std::size_t indexOf(OpKind kind)
{
    return std::size_t(std::find(elk::model::kAllOpKinds.begin(), elk::model::kAllOpKinds.end(), kind)
        - elk::model::kAllOpKinds.begin());
}

std::shared_ptr<ModelSnapshot> loadedSnapshot()
{
    auto snapshot = std::make_shared<ModelSnapshot>();
    snapshot->filePath = QStringLiteral("/models/tiny-net.elk.json");
    GraphSummary& summary = snapshot->summary;
    summary.name = "tiny-net";
    summary.opCount = 123456;
    summary.distinctExpressionCount = 12;
    summary.tensorCount = 30;
    summary.flops = 10'829'119'488;
    summary.bytesPerRole[indexOf(TensorRole::Weight)] = 3LL << 30;
    summary.bytesPerRole[indexOf(TensorRole::KvCache)] = 671'416'320;
    summary.bytesPerRole[indexOf(TensorRole::Activation)] = 1536;
    summary.bytesPerRole[indexOf(TensorRole::Output)] = 512;
    summary.bytesPerRole[indexOf(TensorRole::OptimizerState)] = 6LL << 30;
    summary.opsPerKind[indexOf(OpKind::MatMul)] = 9;
    summary.opsPerKind[indexOf(OpKind::Softmax)] = 1;
    summary.opsPerKind[indexOf(OpKind::Elementwise)] = 3;
    snapshot->run.phase = elk::run::Phase::Prefill;
    snapshot->run.batch = 8;
    snapshot->run.seqLen = 4096;
    snapshot->run.kvLen = 0;
    return snapshot;
}

std::shared_ptr<ModelSnapshot> errorSnapshot(const QString& error)
{
    auto snapshot = std::make_shared<ModelSnapshot>();
    snapshot->filePath = QStringLiteral("/models/broken.elk.json");
    snapshot->error = error;
    snapshot->run.batch = 16;
    return snapshot;
}

QLabel* label(const QWidget& view, const char* name)
{
    auto* found = view.findChild<QLabel*>(QLatin1String(name));
    if (!found)
        qFatal("no label %s", name);
    return found;
}

} // namespace

class TestModelSummaryView : public QObject {
    Q_OBJECT
private slots:
    void formatsBytes_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::addRow("zero") << qint64(0) << "0 B";
        QTest::addRow("just under 1 KiB stays in bytes") << qint64(1023) << "1023 B";
        QTest::addRow("1 KiB") << qint64(1024) << "1.00 KiB";
        QTest::addRow("1.5 KiB") << qint64(1536) << "1.50 KiB";
        QTest::addRow("just under 1 MiB rounds to the next unit") << qint64((1 << 20) - 1) << "1.00 MiB";
        QTest::addRow("Llama-2-13B layer weights") << qint64(634'408'960) << "605.02 MiB";
        QTest::addRow("3 GiB") << qint64(3LL << 30) << "3.00 GiB";
        QTest::addRow("2 TiB") << qint64(2LL << 40) << "2.00 TiB";
    }
    void formatsBytes()
    {
        QFETCH(qint64, bytes);
        QFETCH(QString, expected);
        QCOMPARE(elk::widgets::formatBytes(bytes), expected);
    }

    void formatsFlopsAndCounts_data()
    {
        QTest::addColumn<QString>("actual");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no work") << elk::widgets::formatFlops(0) << "0.00 GFLOP";
        QTest::addRow("one GFLOP") << elk::widgets::formatFlops(1'000'000'000) << "1.00 GFLOP";
        QTest::addRow("Llama-2-13B layer") << elk::widgets::formatFlops(10'829'119'488) << "10.83 GFLOP";
        QTest::addRow("tiny graphs in MFLOP") << elk::widgets::formatFlops(48) << "0.000 MFLOP";
        QTest::addRow("five MFLOP") << elk::widgets::formatFlops(5'000'000) << "5.000 MFLOP";
        QTest::addRow("short count ungrouped") << elk::widgets::formatCount(2048) << "2048";
        QTest::addRow("long count grouped by thin spaces")
            << elk::widgets::formatCount(1'048'576)
            << QStringList({ QStringLiteral("1"), QStringLiteral("048"), QStringLiteral("576") }).join(kThinSpace);
    }
    void formatsFlopsAndCounts()
    {
        QFETCH(QString, actual);
        QFETCH(QString, expected);
        QCOMPARE(actual, expected);
    }

    void showsFiguresWithUnits_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        QTest::addRow("ops, grouped") << "opCount" << QStringLiteral("123") + kThinSpace + QStringLiteral("456");
        QTest::addRow("distinct expressions") << "distinctExpressionCount"
                                              << "12";
        QTest::addRow("tensors") << "tensorCount"
                                 << "30";
        QTest::addRow("GFLOP") << "flops"
                               << "10.83 GFLOP";
        QTest::addRow("weights in GiB") << "weightBytes"
                                        << "3.00 GiB";
        QTest::addRow("KV cache in MiB") << "kvCacheBytes"
                                         << "640.31 MiB";
        QTest::addRow("activations in KiB") << "activationBytes"
                                            << "1.50 KiB";
        QTest::addRow("outputs in bytes") << "outputBytes"
                                          << "512 B";
        QTest::addRow("optimizer state in GiB") << "optimizerStateBytes"
                                                << "6.00 GiB";
        QTest::addRow("phase") << "phase"
                               << "prefill";
        QTest::addRow("batch") << "batch"
                               << "8";
        QTest::addRow("sequence length") << "seqLen"
                                         << "4096";
        QTest::addRow("KV length") << "kvLen"
                                   << "0";
        QTest::addRow("title is the model name") << "modelTitle"
                                                 << "tiny-net";
        QTest::addRow("file name without folders") << "modelFile"
                                                   << "tiny-net.elk.json";
    }
    void showsFiguresWithUnits()
    {
        QFETCH(QString, field);
        QFETCH(QString, expected);
        ModelSummaryView view;
        view.setSummary(loadedSnapshot());
        QLabel* value = label(view, field.toLatin1().constData());
        QCOMPARE(value->text(), expected);
        QVERIFY(value->isVisibleTo(&view));
        QVERIFY(!label(view, "modelError")->isVisibleTo(&view));
    }

    void opsPerKindListsOnlyKindsPresent()
    {
        ModelSummaryView view;
        view.setSummary(loadedSnapshot());
        auto* table = view.findChild<QTableWidget*>(QStringLiteral("opsPerKind"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 3); // in kAllOpKinds order: elementwise, matmul, softmax
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("elementwise"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("3"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("matmul"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("9"));
        QCOMPARE(table->item(2, 0)->text(), QStringLiteral("softmax"));
        QCOMPARE(table->item(2, 1)->text(), QStringLiteral("1"));
    }

    void errorSnapshotShowsErrorNotFigures()
    {
        ModelSummaryView view;
        view.setSummary(loadedSnapshot());
        const QString error = QStringLiteral("/models/broken.elk.json: line 3, column 7: invalid JSON");
        view.setSummary(errorSnapshot(error));

        QLabel* shown = label(view, "modelError");
        QVERIFY(shown->isVisibleTo(&view));
        QCOMPARE(shown->text(), error);
        QCOMPARE(label(view, "modelTitle")->text(), QStringLiteral("Model not loaded"));
        QCOMPARE(label(view, "modelFile")->text(), QStringLiteral("broken.elk.json"));
        QVERIFY(!label(view, "opCount")->isVisibleTo(&view)); // the previous model's figures are gone
        QVERIFY(label(view, "batch")->isVisibleTo(&view)); // the workspace's run still applies
        QCOMPARE(label(view, "batch")->text(), QStringLiteral("16"));
        QVERIFY(!view.summary()->ok());
    }

    void loadedAfterErrorHidesError()
    {
        ModelSummaryView view;
        view.setSummary(errorSnapshot(QStringLiteral("broken")));
        view.setSummary(loadedSnapshot());
        QVERIFY(!label(view, "modelError")->isVisibleTo(&view));
        QVERIFY(label(view, "opCount")->isVisibleTo(&view));
    }

    void emptyState_data()
    {
        QTest::addColumn<bool>("afterModel");
        QTest::addRow("new view") << false;
        QTest::addRow("model cleared") << true;
    }
    void emptyState()
    {
        QFETCH(bool, afterModel);
        ModelSummaryView view;
        if (afterModel)
            view.setSummary(loadedSnapshot());
        view.setSummary(nullptr);
        QCOMPARE(label(view, "modelTitle")->text(), QStringLiteral("No model loaded"));
        QVERIFY(label(view, "modelFile")->text().contains(QStringLiteral("Open model")));
        QVERIFY(!label(view, "modelError")->isVisibleTo(&view));
        QVERIFY(!label(view, "opCount")->isVisibleTo(&view));
        QVERIFY(!label(view, "phase")->isVisibleTo(&view));
        QVERIFY(!view.summary());
    }

    void loadingStateHidesOldFigures()
    {
        ModelSummaryView view;
        view.setSummary(loadedSnapshot());
        view.showLoading(QStringLiteral("/models/next.elk.json"));
        QVERIFY(label(view, "modelTitle")->text().startsWith(QStringLiteral("Loading")));
        QCOMPARE(label(view, "modelFile")->text(), QStringLiteral("next.elk.json"));
        QVERIFY(!label(view, "opCount")->isVisibleTo(&view));
        QVERIFY(!view.summary());
    }

    void longPathsWrapWithinThePanel()
    {
        ModelSummaryView view;
        QString path;
        for (int i = 0; i < 30; ++i)
            path += QStringLiteral("/folder%1").arg(i);
        view.setSummary(errorSnapshot(path + QStringLiteral("/model.elk.json: cannot open the file for reading")));

        // Lay the label's text out as the label does (selectable text: a QTextDocument) in a narrow
        // panel: without break opportunities the path would stick out and be clipped.
        QLabel* error = label(view, "modelError");
        QTextDocument layout;
        layout.setDefaultFont(error->font());
        layout.setDocumentMargin(0);
        QTextOption wrapping;
        wrapping.setWrapMode(QTextOption::WordWrap); // what a word-wrapping QLabel uses
        layout.setDefaultTextOption(wrapping);
        layout.setPlainText(error->text());
        constexpr int kPanelWidth = 400;
        layout.setTextWidth(kPanelWidth);
        QVERIFY2(layout.idealWidth() <= kPanelWidth, qPrintable(QString::number(layout.idealWidth())));
        QVERIFY(view.fontMetrics().horizontalAdvance(path) > 3 * kPanelWidth); // the case is real
        QVERIFY2(view.minimumSizeHint().width() <= kPanelWidth, // the panel does not grow to the path's width
            qPrintable(QString::number(view.minimumSizeHint().width())));
    }
};

QTEST_MAIN(TestModelSummaryView)
#include "tst_model_summary_view.moc"
