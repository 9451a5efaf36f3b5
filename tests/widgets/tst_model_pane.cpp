// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The model pane offscreen: a bundled model is one activation away, a dropped model file is asked
// for, recent files are kept (capped, newest first), the run parameter controls emit what they show
// within the engine's bounds, and the op table follows selections both ways.
#include <memory>

#include <QAction>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

#include "engine/model/graph_analysis.h"
#include "engine/model/graph_json.h"
#include "engine/model/graph_summary.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/op_table_model.h"

using elk::run::Phase;
using elk::widgets::ModelPane;
using elk::widgets::ModelSnapshot;
using elk::widgets::OpTableModel;
using elk::widgets::RunParameters;

namespace {

const char* const kSample = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";

template <typename T> T* child(const QWidget& pane, const char* name)
{
    auto* found = pane.findChild<T*>(QLatin1String(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

std::shared_ptr<ModelSnapshot> loadedFile(const QString& path)
{
    auto snapshot = std::make_shared<ModelSnapshot>();
    snapshot->filePath = path;
    snapshot->summary.name = "m";
    return snapshot;
}

std::shared_ptr<ModelSnapshot> sampleSnapshot()
{
    auto parsed = elk::model::loadGraphFile(kSample);
    if (!parsed.ok())
        qFatal("cannot read %s", kSample);
    auto snapshot = loadedFile(QString::fromLatin1(kSample));
    auto graph = std::make_shared<const elk::model::Graph>(std::move(parsed.graph));
    snapshot->summary = elk::model::summarizeGraph(*graph);
    snapshot->analysis = std::make_shared<const elk::model::GraphAnalysis>(elk::model::analyzeGraph(*graph));
    snapshot->graph = std::move(graph);
    return snapshot;
}

RunParameters lastRun(const QSignalSpy& spy)
{
    return spy.last().at(0).value<RunParameters>();
}

/// Sends a drag-enter and, when it was accepted, a drop; returns whether the enter was accepted.
bool dragAndDrop(ModelPane& pane, QMimeData& mime)
{
    const QPoint centre = pane.rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    enter.ignore();
    QCoreApplication::sendEvent(&pane, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(centre), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&pane, &drop);
    return true;
}

} // namespace

class TestModelPane : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Recent files go to a scratch settings file, never the user's.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("elk-studio-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_model_pane"));
    }

    void init() { QSettings().remove(QLatin1String(ModelPane::kRecentFilesKey)); }

    void bundledChoiceEmitsTheRequest()
    {
        ModelPane pane;
        auto* bundled = child<QComboBox>(pane, "bundledModels");
        QSignalSpy requests(&pane, &ModelPane::modelRequested);
        QSignalSpy runs(&pane, &ModelPane::runParametersChanged);
        const int llama = bundled->findData(QStringLiteral("bundled:llama2-13b"));
        QVERIFY(llama > 0); // below the "Bundled model…" prompt
        QCOMPARE(bundled->itemText(llama), QStringLiteral("Llama-2-13B"));

        emit bundled->activated(llama);
        QCOMPARE(requests.count(), 1);
        QCOMPARE(requests.at(0).at(0).toString(), QStringLiteral("bundled:llama2-13b"));
        QCOMPARE(runs.count(), 0); // decode is a phase Llama has: nothing to change

        // DiT has no decode step: the pane switches to a phase it has before asking.
        emit bundled->activated(bundled->findData(QStringLiteral("bundled:dit-xl")));
        QCOMPARE(requests.count(), 2);
        QCOMPARE(requests.at(1).at(0).toString(), QStringLiteral("bundled:dit-xl"));
        QCOMPARE(runs.count(), 1);
        QCOMPARE(lastRun(runs).phase, Phase::Prefill);
        auto* phases = qobject_cast<QStandardItemModel*>(child<QComboBox>(pane, "phase")->model());
        QVERIFY(!phases->item(0)->isEnabled()); // decode greyed out for DiT
    }

    void theCurrentBundledModelIsShown()
    {
        ModelPane pane;
        auto* bundled = child<QComboBox>(pane, "bundledModels");
        pane.setSnapshot(loadedFile(QStringLiteral("bundled:opt-30b")));
        QCOMPARE(bundled->currentData().toString(), QStringLiteral("bundled:opt-30b"));
        pane.setSnapshot(loadedFile(QStringLiteral("/models/m.onnx")));
        QCOMPARE(bundled->currentIndex(), 0); // the prompt again: the model is a file
    }

    void dropOfAModelFileEmitsItsPath_data()
    {
        QTest::addColumn<QList<QUrl>>("urls");
        QTest::addColumn<bool>("accepted");
        QTest::addRow("ONNX file") << QList<QUrl> { QUrl::fromLocalFile(QStringLiteral("/models/llama.onnx")) } << true;
        QTest::addRow("einstein JSON") << QList<QUrl> { QUrl::fromLocalFile(QStringLiteral("/models/net.json")) }
                                       << true;
        QTest::addRow("StableHLO, upper case")
            << QList<QUrl> { QUrl::fromLocalFile(QStringLiteral("/m/JAX.MLIR")) } << true;
        QTest::addRow("not a model") << QList<QUrl> { QUrl::fromLocalFile(QStringLiteral("/models/notes.txt")) }
                                     << false;
        QTest::addRow("two files at once") << QList<QUrl> { QUrl::fromLocalFile(QStringLiteral("/a.onnx")),
            QUrl::fromLocalFile(QStringLiteral("/b.onnx")) }
                                           << false;
        QTest::addRow("a web address") << QList<QUrl> { QUrl(QStringLiteral("https://example.org/m.onnx")) } << false;
    }
    void dropOfAModelFileEmitsItsPath()
    {
        QFETCH(QList<QUrl>, urls);
        QFETCH(bool, accepted);
        ModelPane pane;
        pane.resize(400, 600);
        QVERIFY(pane.acceptDrops());
        QSignalSpy requests(&pane, &ModelPane::modelRequested);
        QMimeData mime;
        mime.setUrls(urls);
        QCOMPARE(dragAndDrop(pane, mime), accepted);
        QCOMPARE(requests.count(), accepted ? 1 : 0);
        if (accepted)
            QCOMPARE(requests.at(0).at(0).toString(), urls.front().toLocalFile());
    }

    void recentFilesAreUpdatedAndCapped()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        QStringList paths;
        for (int i = 0; i < ModelPane::kMaxRecentFiles + 2; ++i) {
            paths << folder.filePath(QStringLiteral("m%1.onnx").arg(i));
            QFile file(paths.back());
            QVERIFY(file.open(QIODevice::WriteOnly));
        }

        ModelPane pane;
        auto* recent = child<QToolButton>(pane, "recentModels");
        QVERIFY(!recent->isEnabled()); // nothing yet
        for (const QString& path : paths)
            pane.setSnapshot(loadedFile(path)); // each model that loads goes to the top
        QStringList expected;
        for (int i = int(paths.size()) - 1; expected.size() < ModelPane::kMaxRecentFiles; --i)
            expected << paths[i];
        QCOMPARE(pane.recentFiles(), expected);

        pane.setSnapshot(loadedFile(paths[5])); // again: moves up, not in twice
        QCOMPARE(pane.recentFiles().front(), paths[5]);
        QCOMPARE(pane.recentFiles().count(paths[5]), 1);
        QCOMPARE(pane.recentFiles().size(), ModelPane::kMaxRecentFiles);

        auto failed = loadedFile(folder.filePath(QStringLiteral("broken.onnx")));
        failed->error = QStringLiteral("broken.onnx: not a model");
        pane.setSnapshot(failed);
        pane.setSnapshot(loadedFile(QStringLiteral("bundled:llama2-13b")));
        QCOMPARE(pane.recentFiles().front(), paths[5]); // neither a failed load nor a bundled model

        // The menu offers them, newest first, and asks for the one picked; a new pane sees the same list.
        QVERIFY(recent->isEnabled());
        QSignalSpy requests(&pane, &ModelPane::modelRequested);
        const QList<QAction*> actions = recent->menu()->actions();
        QCOMPARE(actions.front()->data().toString(), paths[5]);
        actions.at(1)->trigger();
        QCOMPARE(requests.count(), 1);
        QCOMPARE(requests.at(0).at(0).toString(), pane.recentFiles().at(1));
        QCOMPARE(ModelPane().recentFiles(), pane.recentFiles());
    }

    void parameterControlsHaveTheEngineBounds()
    {
        ModelPane pane;
        auto* batch = child<QSpinBox>(pane, "batch");
        auto* seqLen = child<QSpinBox>(pane, "seqLen");
        auto* kvLen = child<QSpinBox>(pane, "kvLen");
        QCOMPARE(batch->minimum(), 1);
        QCOMPARE(batch->maximum(), int(elk::run::kMaxBatch));
        QCOMPARE(seqLen->minimum(), 1);
        QCOMPARE(seqLen->maximum(), int(elk::run::kMaxTokens));
        QCOMPARE(kvLen->maximum(), int(elk::run::kMaxTokens));
        QCOMPARE(kvLen->minimum(), 1); // decode needs a KV cache
        QVERIFY(!batch->keyboardTracking()); // a run per finished edit, not per keystroke
    }

    void parameterControlsEmitWhatTheyShow()
    {
        ModelPane pane;
        auto* phase = child<QComboBox>(pane, "phase");
        auto* batch = child<QSpinBox>(pane, "batch");
        auto* seqLen = child<QSpinBox>(pane, "seqLen");
        auto* kvLen = child<QSpinBox>(pane, "kvLen");
        QSignalSpy runs(&pane, &ModelPane::runParametersChanged);

        batch->setValue(32);
        QCOMPARE(runs.count(), 1);
        QCOMPARE(lastRun(runs).batch, 32);
        QCOMPARE(lastRun(runs).kvLen, 2048);
        QCOMPARE(lastRun(runs), pane.runParameters());

        phase->setCurrentIndex(phase->findData(int(Phase::Prefill)));
        QCOMPARE(runs.count(), 2); // one signal for the whole phase change
        QCOMPARE(lastRun(runs).phase, Phase::Prefill);
        QCOMPARE(lastRun(runs).seqLen, 2048); // defaults of the new phase replace the old phase's defaults
        QCOMPARE(lastRun(runs).kvLen, 0);
        QCOMPARE(kvLen->minimum(), 0);
        QVERIFY(kvLen->isEnabled());

        seqLen->setValue(300);
        phase->setCurrentIndex(phase->findData(int(Phase::Train)));
        QCOMPARE(lastRun(runs).seqLen, 300); // an edited value stays
        QCOMPARE(lastRun(runs).kvLen, 0);
        QVERIFY(!kvLen->isEnabled()); // a training pass has no KV cache
        QCOMPARE(lastRun(runs).batch, 32);

        phase->setCurrentIndex(phase->findData(int(Phase::Decode)));
        QCOMPARE(lastRun(runs).kvLen, 2048);
        QVERIFY(kvLen->isEnabled());

        kvLen->setValue(0); // below decode's minimum: clamped, never emitted as 0
        QCOMPARE(lastRun(runs).kvLen, 1);
    }

    void setRunParametersShowsWithoutEmitting()
    {
        ModelPane pane;
        QSignalSpy runs(&pane, &ModelPane::runParametersChanged);
        RunParameters run;
        run.phase = Phase::Train;
        run.batch = 8;
        run.seqLen = 4096;
        run.kvLen = 0;
        pane.setRunParameters(run);
        QCOMPARE(runs.count(), 0);
        QCOMPARE(pane.runParameters(), run);
        QVERIFY(!child<QSpinBox>(pane, "kvLen")->isEnabled());
    }

    void opTableFollowsSelectionsBothWays()
    {
        ModelPane pane;
        pane.setSnapshot(sampleSnapshot());
        auto* table = child<QTableView>(pane, "opTable");
        auto* filter = child<QLineEdit>(pane, "opFilter");
        auto* count = child<QLabel>(pane, "opCount");
        QCOMPARE(table->model()->rowCount(), 18);
        QCOMPARE(count->text(), QStringLiteral("18 ops"));
        QSignalSpy activated(&pane, &ModelPane::opActivated);

        filter->setText(QStringLiteral("matmul"));
        QCOMPARE(count->text(), QStringLiteral("9 of 18 ops"));

        // A selection made elsewhere shows here, even through the filter, without echoing back.
        pane.selectOp(7); // attn_softmax: not a matmul
        QCOMPARE(activated.count(), 0);
        QVERIFY(filter->text().isEmpty());
        QCOMPARE(table->currentIndex().data(OpTableModel::GraphOpRole).toInt(), 7);

        // The user's selection goes out as the graph op, whatever the sort order.
        table->sortByColumn(OpTableModel::FlopsColumn, Qt::DescendingOrder);
        table->setCurrentIndex(table->model()->index(0, OpTableModel::NameColumn));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 12); // gate_proj: first of the largest
    }

    void fileFiltersNameEveryFormat()
    {
        const QString filter = ModelPane::fileDialogFilter();
        for (const char* pattern :
            { "ONNX (*.onnx)", "einstein JSON (*.json)", "Elk graph (*.elk.json)", "StableHLO (*.mlir)" })
            QVERIFY2(filter.contains(QLatin1String(pattern)), pattern);
        QVERIFY(ModelPane::isModelFileName(QStringLiteral("a/b.elk.json")));
        QVERIFY(!ModelPane::isModelFileName(QStringLiteral("a/b.onnx.txt")));
    }
};

QTEST_MAIN(TestModelPane)
#include "tst_model_pane.moc"
