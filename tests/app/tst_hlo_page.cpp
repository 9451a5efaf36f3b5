// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The StableHLO page: a module runs on a worker and its summary shows the step time runHloFile
// computes; two configurations run side by side; a rerun is served by the region cache; a module that
// does not parse or an unknown system shows a located error and the page stays usable; Cancel and a
// newer run stop the old one; exports write the engine's files; the main window routes .mlir files here.
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "app/studio/hlo_page.h"
#include "app/studio/main_window.h"
#include "app/studio/model_loader.h"
#include "app/studio/run_views.h"
#include "engine/hlo/hlo_run.h"
#include "engine/store/result_store.h"
#include "widgets/hlo/hlo_region_table_model.h"
#include "widgets/hlo/hlo_roofline_view.h"
#include "widgets/hlo/hlo_step_timeline_view.h"

using namespace elk;
using elk::app::HloJob;
using elk::app::HloPage;

namespace {

constexpr int kRunTimeoutMs = 120000; // Debug builds
const QString kCorpus = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas");

QString corpusFile(const char* name)
{
    return kCorpus + QLatin1Char('/') + QLatin1String(name);
}

int columnOf(const QTableWidget* table, const QString& header)
{
    for (int c = 0; c < table->columnCount(); ++c) {
        if (table->horizontalHeaderItem(c) && table->horizontalHeaderItem(c)->text() == header)
            return c;
    }
    return -1;
}

} // namespace

class TestHloPage : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<store::ResultStore> m_store;
    std::unique_ptr<HloPage> m_page;

    /// Runs the page and waits for its job's finished(); false when it did not come.
    bool runAndWait()
    {
        QSignalSpy finished(m_page->job(), &HloJob::finished);
        m_page->run();
        return finished.wait(kRunTimeoutMs) || finished.count() == 1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("ELK_CACHE_DIR", m_dir.filePath(QStringLiteral("cache")).toLocal8Bit());
        QStandardPaths::setTestModeEnabled(true);
        store::OpenResult opened
            = store::ResultStore::open(m_dir.filePath(QStringLiteral("regions.sqlite")).toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
    }

    void init()
    {
        m_page = std::make_unique<HloPage>();
        m_page->setStore(m_store.get());
        m_page->resize(1200, 800);
    }

    void cleanup() { m_page.reset(); }

    void runShowsTheEnginesStepTime()
    {
        const QString module = corpusFile("jax_example.mlir");
        m_page->openFile(module);
        m_page->setSystem(QStringLiteral("4x-a100-sxm-40gb"));
        QCOMPARE(m_page->configurations().size(), std::size_t(1));
        QSignalSpy progress(m_page->job(), &HloJob::progress);
        QVERIFY(runAndWait());

        hlo::HloRunOptions options;
        options.system = "4x-a100-sxm-40gb";
        NullRunControl control;
        const hlo::HloRunResult expected = hlo::runHloFile(module.toStdString(), options, nullptr, control);
        QVERIFY(expected.ok());

        QTableWidget* summary = m_page->summaryTable();
        QCOMPARE(summary->rowCount(), 1);
        const int step = columnOf(summary, QStringLiteral("Step"));
        QVERIFY(step >= 0);
        QCOMPARE(summary->item(0, step)->data(Qt::UserRole).toDouble(), expected.stepSeconds);
        QCOMPARE(summary->item(0, step)->text(), widgets::hloSecondsText(expected.stepSeconds));
        QCOMPARE(summary->item(0, 0)->text(), QStringLiteral("4x-a100-sxm-40gb · roofline"));
        QVERIFY(m_page->errorText().isEmpty());
        QCOMPARE(m_page->regionModel()->rowCount(), int(expected.regions.size()));
        QVERIFY(m_page->timelineView()->hasData());
        QVERIFY(m_page->rooflineView()->hasData());
        QVERIFY(!progress.isEmpty());
        QVERIFY(!m_page->job()->isRunning());
        QVERIFY(!m_page->cancelButton()->isEnabled());
    }

    void twoConfigurationsSideBySideAndTheCache()
    {
        m_page->openFile(corpusFile("test_split_replica_groups.mlir"));
        m_page->addComparison({ "4x-h100-sxm", { "roofline" } });
        m_page->addComparison({ "4x-h100-sxm", { "roofline" } }); // twice: kept once
        QCOMPARE(m_page->configurations().size(), std::size_t(2));
        QVERIFY(runAndWait());
        QVERIFY(m_page->runs());
        QCOMPARE(m_page->runs()->results.size(), std::size_t(2));
        QCOMPARE(m_page->summaryTable()->rowCount(), 2);
        QCOMPARE(m_page->timelineView()->data().groups.size(), std::size_t(2));
        QCOMPARE(m_page->rooflineView()->data().groups.size(), std::size_t(2));
        const auto first = m_page->runs()->results[0];
        const auto second = m_page->runs()->results[1];
        QCOMPARE(first->systemName, std::string("4x-a100-sxm-40gb"));
        QCOMPARE(second->systemName, std::string("4x-h100-sxm"));
        QVERIFY(second->stepSeconds < first->stepSeconds);
        // The table and warnings follow the selected configuration.
        QCOMPARE(m_page->regionModel()->result(), first);
        m_page->summaryTable()->selectRow(1);
        QCOMPARE(m_page->selectedConfiguration(), 1);
        QCOMPARE(m_page->regionModel()->result(), second);

        // The same again: every compute region from the cache.
        QVERIFY(runAndWait());
        for (const auto& result : m_page->runs()->results) {
            QVERIFY(result->cacheHits > 0);
            QCOMPARE(result->cacheMisses, std::int64_t(0));
        }
        QVERIFY2(m_page->progressText().contains(QStringLiteral("0 misses")), qPrintable(m_page->progressText()));
    }

    void malformedModuleShowsALocatedError()
    {
        const QString path = m_dir.filePath(QStringLiteral("bad.mlir"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                   "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32\n"
                   "  return %0 : tensor<4xf32>\n");
        file.close();
        m_page->openFile(corpusFile("jax_example.mlir"));
        QVERIFY(runAndWait());
        const elk::app::HloRunSetPtr good = m_page->runs();
        QVERIFY(good && good->ok());
        const int regions = m_page->regionModel()->rowCount();
        QVERIFY(regions > 0);

        // A module that does not parse: a located error, and nothing lost: the last good run stays.
        m_page->openFile(path);
        QVERIFY(runAndWait());
        const QString error = m_page->errorText();
        QVERIFY2(error.contains(QRegularExpression(QStringLiteral(R"(bad\.mlir:\d+:\d+: )"))), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("still show jax_example.mlir")), qPrintable(error));
        QCOMPARE(m_page->runs(), good);
        QVERIFY(m_page->timelineView()->hasData());
        QCOMPARE(m_page->regionModel()->rowCount(), regions);

        // Still usable: a good module runs and the error goes.
        m_page->openFile(corpusFile("jax_example.mlir"));
        QVERIFY(runAndWait());
        QVERIFY(m_page->runs()->ok());
        QVERIFY2(m_page->errorText().isEmpty(), qPrintable(m_page->errorText()));
        QVERIFY(m_page->timelineView()->hasData());
    }

    void unknownSystemShowsItsError()
    {
        m_page->openFile(corpusFile("jax_example.mlir"));
        m_page->setSystem(QStringLiteral("no-such-system"));
        m_page->addComparison({ "4x-h100-sxm", { "roofline" } });
        QVERIFY(runAndWait());
        const QString error = m_page->errorText();
        QVERIFY2(error.contains(QStringLiteral("no-such-system")), qPrintable(error));
        // The other configuration still ran and is drawn; the failed one says so in its row.
        QCOMPARE(m_page->summaryTable()->rowCount(), 2);
        QVERIFY(m_page->summaryTable()->item(0, 1)->text().startsWith(QStringLiteral("failed")));
        QCOMPARE(m_page->timelineView()->data().groups.size(), std::size_t(1));
    }

    void noModuleNoRun()
    {
        QVERIFY(!m_page->runButton()->isEnabled());
        QSignalSpy started(m_page->job(), &HloJob::started);
        m_page->run();
        QCOMPARE(started.count(), 0);
        QVERIFY(!m_page->errorText().isEmpty());
    }

    void cancelStopsTheRun()
    {
        // ResNet-50's training step without the cache on two systems: long enough to cancel in.
        m_page->setStore(nullptr);
        m_page->openFile(corpusFile("resnet_50_train_step_4_devices_1024_batch.mlir"));
        m_page->setSplitMode(hlo::SplitMode::Dependency);
        m_page->addComparison({ "4x-h100-sxm", { "roofline" } });
        QSignalSpy finished(m_page->job(), &HloJob::finished);
        QSignalSpy cancelled(m_page->job(), &HloJob::cancelled);
        m_page->run();
        QVERIFY(m_page->job()->isRunning());
        QVERIFY(m_page->cancelButton()->isEnabled());
        m_page->cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 10000);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!m_page->job()->isRunning());
        QVERIFY(m_page->progressText().contains(QStringLiteral("cancelled")));
        QVERIFY(!m_page->cancelButton()->isEnabled());
    }

    void aNewerRunSupersedesTheOlder()
    {
        m_page->setStore(nullptr);
        m_page->openFile(corpusFile("resnet_50_train_step_4_devices_1024_batch.mlir"));
        QSignalSpy finished(m_page->job(), &HloJob::finished);
        QSignalSpy cancelled(m_page->job(), &HloJob::cancelled);
        m_page->run();
        m_page->openFile(corpusFile("jax_example.mlir"));
        m_page->run();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QTest::qWait(200); // nothing else may arrive from the superseded job
        QCOMPARE(finished.count(), 1);
        QCOMPARE(cancelled.count(), 0);
        QCOMPARE(m_page->runs()->path, corpusFile("jax_example.mlir"));
    }

    void exportsWriteTheEnginesFiles()
    {
        m_page->openFile(corpusFile("test_split_replica_groups.mlir"));
        QVERIFY(runAndWait());
        const QDir out(m_dir.filePath(QStringLiteral("export")));
        QVERIFY(QDir().mkpath(out.path()));
        const struct {
            app::HloDataFormat format;
            const char* name;
            const char* contains;
        } files[] = {
            { app::HloDataFormat::Json, "run.json", "\"step_s\"" },
            { app::HloDataFormat::Csv, "regions.csv", "index,kind,ops" },
            { app::HloDataFormat::Perfetto, "trace.json", "traceEvents" },
        };
        for (const auto& file : files) {
            const QString path = out.filePath(QLatin1String(file.name));
            const QString error = m_page->exportData(file.format, path);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QFile written(path);
            QVERIFY(written.open(QIODevice::ReadOnly));
            QVERIFY2(written.readAll().contains(file.contains), file.name);
        }
        const QString chakra = out.filePath(QStringLiteral("chakra"));
        QVERIFY(m_page->exportData(app::HloDataFormat::Chakra, chakra).isEmpty());
        QVERIFY(QFile::exists(chakra + QStringLiteral("/comm_group.json")));
        QCOMPARE(QDir(chakra).entryList({ QStringLiteral("*.et") }).size(), 4); // one trace per device
        // And the figures, through the page's plots.
        for (const QString& kind : { QStringLiteral("hlo-timeline"), QStringLiteral("hlo-roofline") }) {
            QVERIFY(m_page->showPlot(kind));
            QCOMPARE(m_page->currentPlotView()->figureKind(), kind);
            const QString path = out.filePath(kind + QStringLiteral(".svg"));
            QVERIFY(m_page->currentPlotView()->exportFigure(path).isEmpty());
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }

    void mainWindowRoutesMlirToThePage()
    {
        // The model loader says where a StableHLO module belongs, instead of "unknown model format".
        const auto snapshot = app::loadModelSnapshot(corpusFile("jax_example.mlir"), {});
        QVERIFY(!snapshot->ok());
        QVERIFY2(snapshot->error.contains(QStringLiteral("StableHLO page")), qPrintable(snapshot->error));

        app::MainWindow window(m_dir.filePath(QStringLiteral("window.sqlite")));
        QCOMPARE(window.views()->indexOf(window.hloPage()), window.views()->indexOfKind(QStringLiteral("hlo")));
        window.openModel(corpusFile("jax_example.mlir"));
        QCOMPARE(window.views()->currentKind(), QStringLiteral("hlo"));
        QCOMPARE(window.hloPage()->filePath(), corpusFile("jax_example.mlir"));
        // The figure kinds select the page's plots (elk-studio --view hlo-roofline).
        QVERIFY(window.views()->setCurrentKind(QStringLiteral("hlo-roofline")));
        QCOMPARE(window.views()->currentPlotView(), window.hloPage()->rooflineView());
        QVERIFY(!window.views()->setCurrentKind(QStringLiteral("hlo-pie")));
        QSignalSpy finished(window.hloPage()->job(), &HloJob::finished);
        window.openHloModule(corpusFile("jax_example.mlir"), true);
        QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 1);
        QVERIFY(window.hloPage()->rooflineView()->hasData());
    }
};

QTEST_MAIN(TestHloPage)
#include "tst_hlo_page.moc"
