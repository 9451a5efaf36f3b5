// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The operator table over a loaded model: one row per op with formatted figures, raw numbers for
// numeric sorting, roles of the HBM-resident tensors it touches, layers, and a name/kind filter;
// the model and its proxy pass QAbstractItemModelTester.
#include <memory>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "engine/model/graph_analysis.h"
#include "engine/model/graph_json.h"
#include "engine/model/graph_summary.h"
#include "widgets/model/op_table_model.h"
#include "widgets/model/quantity_format.h"

using elk::widgets::ModelSnapshot;
using elk::widgets::OpTableModel;

namespace {

const char* const kSample = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
const QString kThinSpace = QString(QChar(0x2009));

/// The 18-op Llama-2-13B decode layer, as the model loader builds it; `layers` replaces the analysis'.
std::shared_ptr<ModelSnapshot> sampleSnapshot(std::optional<elk::model::LayerStructure> layers = std::nullopt)
{
    auto parsed = elk::model::loadGraphFile(kSample);
    if (!parsed.ok())
        qFatal("cannot read %s", kSample);
    auto snapshot = std::make_shared<ModelSnapshot>();
    snapshot->filePath = QString::fromLatin1(kSample);
    auto graph = std::make_shared<const elk::model::Graph>(std::move(parsed.graph));
    snapshot->summary = elk::model::summarizeGraph(*graph);
    auto analysis = elk::model::analyzeGraph(*graph);
    if (layers)
        analysis.layers = *layers;
    snapshot->analysis = std::make_shared<const elk::model::GraphAnalysis>(std::move(analysis));
    snapshot->graph = std::move(graph);
    return snapshot;
}

QString cell(const QAbstractItemModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

} // namespace

class TestOpTableModel : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTesterThroughResets()
    {
        OpTableModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(OpTableModel::SortRole);
        proxy.setFilterRole(OpTableModel::FilterRole);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.setSnapshot(sampleSnapshot());
        QCOMPARE(model.rowCount(), 18);
        QCOMPARE(model.columnCount(), int(OpTableModel::ColumnCount));
        proxy.sort(OpTableModel::FlopsColumn, Qt::DescendingOrder);
        proxy.setFilterFixedString(QStringLiteral("proj"));
        QCOMPARE(proxy.rowCount(), 7);
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(proxy.rowCount(), 0);

        auto failed = std::make_shared<ModelSnapshot>();
        failed->error = QStringLiteral("m.onnx: broken");
        model.setSnapshot(failed);
        QCOMPARE(model.rowCount(), 0); // a model that did not load has no ops
    }

    void rowsDescribeEachOp_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("expected");
        QTest::addRow("program order") << 6 << int(OpTableModel::IndexColumn) << QStringLiteral("6");
        QTest::addRow("name") << 6 << int(OpTableModel::NameColumn) << QStringLiteral("attn_scores");
        QTest::addRow("kind") << 6 << int(OpTableModel::KindColumn) << QStringLiteral("matmul");
        QTest::addRow("dims with extents, long ones grouped")
            << 12 << int(OpTableModel::DimsColumn)
            << QString(QStringLiteral("b=16, f=13") + kThinSpace + QStringLiteral("824, k=5120"));
        QTest::addRow("FLOPs with units") // 2 · 16 · 40 · 2048 · 128
            << 6 << int(OpTableModel::FlopsColumn) << QStringLiteral("336 MFLOP");
        QTest::addRow("small FLOPs in kFLOP") << 14 << int(OpTableModel::FlopsColumn) << QStringLiteral("221 kFLOP");
        QTest::addRow("a copy computes nothing") << 4 << int(OpTableModel::FlopsColumn) << QStringLiteral("0 FLOP");
        QTest::addRow("bytes with units") // q + K cache + scores, fp16
            << 6 << int(OpTableModel::BytesColumn) << QStringLiteral("323 MiB");
        QTest::addRow("small bytes") << 4 << int(OpTableModel::BytesColumn) << QStringLiteral("320 KiB");
        QTest::addRow("reads weights") << 1 << int(OpTableModel::RoleColumn) << QStringLiteral("weights");
        QTest::addRow("reads the KV cache") << 6 << int(OpTableModel::RoleColumn) << QStringLiteral("KV cache");
        QTest::addRow("appends to the KV cache") << 4 << int(OpTableModel::RoleColumn) << QStringLiteral("KV cache");
        QTest::addRow("activations only") << 7 << int(OpTableModel::RoleColumn) << QStringLiteral("activations");
        QTest::addRow("one repeated layer") << 17 << int(OpTableModel::LayerColumn) << QStringLiteral("0");
    }
    void rowsDescribeEachOp()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, expected);
        OpTableModel model;
        model.setSnapshot(sampleSnapshot());
        QCOMPARE(cell(model, row, column), expected);
        QCOMPARE(model.index(row, column).data(OpTableModel::GraphOpRole).toInt(), row);
        QCOMPARE(model.rowOfOp(row), row);
    }

    void sortRoleCarriesRawNumbers_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<qint64>("expected");
        QTest::addRow("FLOPs of attn_scores") << int(OpTableModel::FlopsColumn) << qint64(2LL * 16 * 40 * 2048 * 128);
        QTest::addRow("bytes of attn_scores")
            << int(OpTableModel::BytesColumn) << qint64(2LL * (16 * 40 * 128 + 16 * 40 * 2048 * 128 + 16 * 40 * 2048));
        QTest::addRow("dims sort by loop iterations")
            << int(OpTableModel::DimsColumn) << qint64(16LL * 40 * 2048 * 128);
    }
    void sortRoleCarriesRawNumbers()
    {
        QFETCH(int, column);
        QFETCH(qint64, expected);
        OpTableModel model;
        model.setSnapshot(sampleSnapshot());
        QCOMPARE(model.index(6, column).data(OpTableModel::SortRole).toLongLong(), expected);
    }

    void sortsByFlopsNumerically()
    {
        OpTableModel model;
        model.setSnapshot(sampleSnapshot());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(OpTableModel::SortRole);
        proxy.sort(OpTableModel::FlopsColumn, Qt::DescendingOrder);

        QCOMPARE(proxy.rowCount(), 18);
        // The three 5120 × 13824 projections lead; as text, softmax's "6.55 MFLOP" would sort above "2.26 GFLOP".
        QCOMPARE(cell(proxy, 0, OpTableModel::FlopsColumn), QStringLiteral("2.26 GFLOP"));
        for (int row = 1; row < proxy.rowCount(); ++row) {
            const qint64 above
                = proxy.index(row - 1, OpTableModel::FlopsColumn).data(OpTableModel::SortRole).toLongLong();
            const qint64 here = proxy.index(row, OpTableModel::FlopsColumn).data(OpTableModel::SortRole).toLongLong();
            QVERIFY2(above >= here, qPrintable(QStringLiteral("row %1: %2 < %3").arg(row).arg(above).arg(here)));
        }
        QCOMPARE(cell(proxy, 17, OpTableModel::KindColumn), QStringLiteral("slice")); // a KV append copies, no FLOPs
    }

    void filterMatchesNameOrKind_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("rows");
        QTest::addRow("kind, any case") << QStringLiteral("MatMul") << 9;
        QTest::addRow("part of names") << QStringLiteral("proj") << 7;
        QTest::addRow("name and kind both match") << QStringLiteral("norm") << 2;
        QTest::addRow("not the dims column") << QStringLiteral("5120") << 0;
        QTest::addRow("not the role column") << QStringLiteral("weights") << 0;
        QTest::addRow("empty shows all") << QString() << 18;
    }
    void filterMatchesNameOrKind()
    {
        QFETCH(QString, filter);
        QFETCH(int, rows);
        OpTableModel model;
        model.setSnapshot(sampleSnapshot());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setFilterRole(OpTableModel::FilterRole);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setFilterFixedString(filter);
        QCOMPARE(proxy.rowCount(), rows);
    }

    void layersPrefixAndSuffix()
    {
        elk::model::LayerStructure layers;
        layers.prefixOps = 2;
        layers.layerCount = 2;
        layers.opsPerLayer = 7;
        layers.suffixOps = 2;
        layers.firstLayerStart = 2;
        OpTableModel model;
        model.setSnapshot(sampleSnapshot(layers));
        QCOMPARE(cell(model, 1, OpTableModel::LayerColumn), QStringLiteral("prefix"));
        QCOMPARE(cell(model, 2, OpTableModel::LayerColumn), QStringLiteral("0"));
        QCOMPARE(cell(model, 9, OpTableModel::LayerColumn), QStringLiteral("1"));
        QCOMPARE(cell(model, 16, OpTableModel::LayerColumn), QStringLiteral("suffix"));
        // Sorting by layer keeps the prefix first and the suffix last.
        QVERIFY(model.index(1, OpTableModel::LayerColumn).data(OpTableModel::SortRole).toLongLong()
            < model.index(2, OpTableModel::LayerColumn).data(OpTableModel::SortRole).toLongLong());
        QVERIFY(model.index(16, OpTableModel::LayerColumn).data(OpTableModel::SortRole).toLongLong()
            > model.index(15, OpTableModel::LayerColumn).data(OpTableModel::SortRole).toLongLong());
    }

    void opFlopsKeepThreeSignificantDigits_data()
    {
        QTest::addColumn<qint64>("flops");
        QTest::addColumn<QString>("expected");
        QTest::addRow("none") << qint64(0) << QStringLiteral("0 FLOP");
        QTest::addRow("a few") << qint64(48) << QStringLiteral("48 FLOP");
        QTest::addRow("kilo") << qint64(81'920) << QStringLiteral("81.9 kFLOP");
        QTest::addRow("rounds up into the next prefix") << qint64(999'960) << QStringLiteral("1.00 MFLOP");
        QTest::addRow("giga") << qint64(2'264'924'160) << QStringLiteral("2.26 GFLOP");
        QTest::addRow("tera") << qint64(1'052'000'000'000) << QStringLiteral("1.05 TFLOP");
    }
    void opFlopsKeepThreeSignificantDigits()
    {
        QFETCH(qint64, flops);
        QFETCH(QString, expected);
        QCOMPARE(elk::widgets::formatOpFlops(flops), expected);
    }

    void opBytesKeepThreeSignificantDigits_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::addRow("bytes") << qint64(128) << QStringLiteral("128 B");
        QTest::addRow("below a KiB stays in bytes") << qint64(1000) << QStringLiteral("1000 B");
        QTest::addRow("KiB") << qint64(83'886) << QStringLiteral("81.9 KiB");
        QTest::addRow("rounds up into the next unit") << qint64(1023LL * 1024 + 1000) << QStringLiteral("1.00 MiB");
        QTest::addRow("GiB") << qint64(26'031'728'640) << QStringLiteral("24.2 GiB");
    }
    void opBytesKeepThreeSignificantDigits()
    {
        QFETCH(qint64, bytes);
        QFETCH(QString, expected);
        QCOMPARE(elk::widgets::formatOpBytes(bytes), expected);
    }

    void headersNameColumnsAndToolTipsExplainUnits()
    {
        OpTableModel model;
        QCOMPARE(model.headerData(OpTableModel::FlopsColumn, Qt::Horizontal).toString(), QStringLiteral("FLOPs"));
        QCOMPARE(model.headerData(OpTableModel::RoleColumn, Qt::Horizontal).toString(), QStringLiteral("Role"));
        QVERIFY(model.headerData(OpTableModel::BytesColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("MiB")));
        model.setSnapshot(sampleSnapshot());
        QVERIFY(
            cell(model, 6, OpTableModel::RoleColumn, Qt::ToolTipRole).contains(QStringLiteral("k_cache (kv_cache)")));
        QVERIFY(cell(model, 6, OpTableModel::DimsColumn, Qt::ToolTipRole).contains(QStringLiteral("reduced over d")));
    }
};

QTEST_MAIN(TestOpTableModel)
#include "tst_op_table_model.moc"
