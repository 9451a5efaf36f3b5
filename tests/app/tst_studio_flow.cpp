// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk-studio end to end, offscreen, with the result cache in a temporary folder: a workspace opens
// and runs, a chip edit re-runs by itself reusing the compiled model, Cancel stops a run, a rerun comes
// from the cache (faster, same latencies), every view has data and exports valid PDF, SVG and PNG,
// a sweep fills in, the whole run exports, the history reopens a run, a saved workspace reopens the
// same state, and classroom mode switches on and off.
#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

#include "app/studio/classroom_mode.h"
#include "app/studio/diff_page.h"
#include "app/studio/history_diff.h"
#include "app/studio/history_dock.h"
#include "app/studio/history_model.h"
#include "app/studio/main_window.h"
#include "app/studio/run_folder_export.h"
#include "app/studio/run_job.h"
#include "app/studio/run_progress.h"
#include "app/studio/run_views.h"
#include "app/studio/sweep_panel.h"
#include "engine/run/run_compile.h"
#include "widgets/chip_editor/chip_compare_picker.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/op_table_model.h"
#include "widgets/plots/designs_view.h"
#include "widgets/plots/diff_view.h"
#include "widgets/plots/figure_metadata.h"
#include "widgets/plots/pareto_view.h"
#include "widgets/plots/sweep_view.h"
#include "widgets/plots/waterfall_view.h"
#include "widgets/timeline/diff_links_view.h"
#include "widgets/timeline/diff_timeline_view.h"
#include "widgets/timeline/gantt_view.h"

using elk::app::MainWindow;

namespace {

const char* const kModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
constexpr int kRunTimeoutMs = 120000; // Debug build on a busy machine
const char* const kHbmField = "/hbm/bandwidthGBpsPerStack";

std::vector<double> latencies(const elk::run::RunResult& run)
{
    std::vector<double> out;
    for (const elk::run::DesignRun& design : run.designs)
        out.push_back(design.simulated ? design.simulated->latencyCycles : std::nan(""));
    return out;
}

QByteArray head(const QString& path, int bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(bytes);
}

} // namespace

class TestStudioFlow : public QObject {
    Q_OBJECT

    QTemporaryDir m_folder;
    std::unique_ptr<MainWindow> m_window;
    elk::widgets::RunSnapshotPtr m_firstRun;
    double m_firstSeconds = 0;

    /// Waits until the window shows a run other than `previous`.
    bool waitForNewRun(const elk::widgets::RunSnapshotPtr& previous)
    {
        return QTest::qWaitFor([&] { return m_window->lastRun() && m_window->lastRun() != previous; }, kRunTimeoutMs);
    }

    QDoubleSpinBox* hbmField() const
    {
        return m_window->chipEditor()->findChild<QDoubleSpinBox*>(QLatin1String(kHbmField));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_folder.isValid());
        // Never the user's cache, settings or window state.
        qputenv("ELK_CACHE_DIR", m_folder.filePath(QStringLiteral("cache")).toLocal8Bit());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("Elk Studio Tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_studio_flow"));

        // One decoder layer (fixed shapes) on one IPU: a few seconds per run in a Debug build.
        const QString workspace = m_folder.filePath(QStringLiteral("small.elkproj"));
        QFile file(workspace);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"schema": "elk.workspace/2", "model": {"path": "%1"},
            "chip": {"preset": "ipu-mk2-hbm"}, "run": {"phase": "decode", "batch": 1, "kvLen": 2048},
            "views": {"open": ["chip", "designs", "pareto", "gantt", "heatmap", "sweep", "classroom"],
                      "current": "designs"}})")
                       .arg(QLatin1String(kModel))
                       .toUtf8());
        file.close();

        m_window = std::make_unique<MainWindow>();
        QVERIFY2(m_window->store(), qPrintable(m_window->storeMessage()));
        QVERIFY(m_window->store()->path().find(m_folder.path().toStdString()) == 0);
        m_window->show();
        QCOMPARE(m_window->openWorkspaceFile(workspace), QString());
    }

    void workspaceOpensAndRunsByItself()
    {
        QVERIFY2(waitForNewRun(nullptr), qPrintable(m_window->runProgress()->stageLabel()->text()));
        m_firstRun = m_window->lastRun();
        m_firstSeconds = m_window->lastRunSeconds();
        QCOMPARE(m_firstRun->spec.chip.name, std::string("ipu-mk2-hbm"));
        QCOMPARE(m_firstRun->designs.size(), std::size_t(5));
        QVERIFY(!m_window->lastCacheOutcome().runHit); // a fresh cache
        QCOMPARE(m_window->views()->currentKind(), QStringLiteral("designs"));
        QCOMPARE(m_window->designSelector()->count(), 5);
        QCOMPARE(m_window->designSelector()->currentText(), QStringLiteral("elk-full"));
        QCOMPARE(m_window->views()->designIndex(), 3);
        QVERIFY(!m_window->runProgress()->isBusy());
    }

    void chipEditReRunsReusingTheCompiledModel()
    {
        QDoubleSpinBox* hbm = hbmField();
        QVERIFY(hbm);
        const double before = hbm->value();
        hbm->setValue(before / 4);
        QVERIFY(waitForNewRun(m_firstRun));
        const auto edited = m_window->lastRun();
        QCOMPARE(edited->spec.chip.hbm.bandwidthGBpsPerStack, before / 4);
        QVERIFY(m_window->lastCacheOutcome().reusedCompiled);
        QCOMPARE(edited->compiled, m_firstRun->compiled); // only scheduling and simulation ran again
        // A quarter of the HBM bandwidth: the HBM-bound decode layer is slower for every design.
        const auto slow = latencies(*edited), fast = latencies(*m_firstRun);
        for (std::size_t d = 0; d < slow.size(); ++d)
            QVERIFY2(slow[d] > fast[d], edited->spec.designs[d].c_str());
    }

    void cancelStopsARun()
    {
        const auto shown = m_window->lastRun();
        QSignalSpy cancelled(m_window->runJob(), &elk::app::RunJob::cancelled);
        m_window->startRun();
        QVERIFY(m_window->runProgress()->isBusy());
        QVERIFY(m_window->cancelAction()->isEnabled());
        m_window->cancelAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 2000);
        QVERIFY(!m_window->runProgress()->isBusy());
        QCOMPARE(m_window->runProgress()->stageLabel()->text(), QStringLiteral("Run cancelled"));
        QCOMPARE(m_window->lastRun(), shown); // the views keep what they showed
    }

    void undoRerunsFromTheCache()
    {
        const auto shown = m_window->lastRun();
        m_window->chipEditor()->undoAction()->trigger(); // back to the preset's HBM bandwidth
        QVERIFY(waitForNewRun(shown));
        const auto rerun = m_window->lastRun();
        QVERIFY(m_window->lastCacheOutcome().runHit);
        QCOMPARE(rerun->spec, m_firstRun->spec);
        QCOMPARE(latencies(*rerun), latencies(*m_firstRun));
        QVERIFY2(m_window->lastRunSeconds() < m_firstSeconds,
            qPrintable(QStringLiteral("cold %1 s, cached %2 s").arg(m_firstSeconds).arg(m_window->lastRunSeconds())));
    }

    void compareChipRunsBeside()
    {
        elk::widgets::DesignsView* designs = m_window->views()->designsView();
        QVERIFY(!designs->compareRun());
        m_window->comparePicker()->setCompareChip(QStringLiteral("ipu-pod4-hbm")); // re-runs by itself
        QVERIFY(QTest::qWaitFor([&] { return designs->compareRun() != nullptr; }, kRunTimeoutMs));
        QCOMPARE(designs->compareRun()->spec.chip.name, std::string("ipu-pod4-hbm"));
        QCOMPARE(designs->compareRun()->spec.model, m_firstRun->spec.model);
        QCOMPARE(designs->rowNames().size(), 5);
        QCOMPARE(designs->speedupLabels().size(), 10); // both runs' rows
        // The Diff tab offers (and shows) the chosen design on the compare chip.
        elk::app::DiffPage* page = m_window->views()->diffPage();
        elk::widgets::DiffView* diff = page->opsView();
        QVERIFY(page->againstBox()->currentText().contains(QStringLiteral("compare chip")));
        QVERIFY(diff->hasData());
        QVERIFY(diff->title().contains(QStringLiteral("ipu-pod4-hbm")));
        QVERIFY(!page->linksView()->hasData()); // one IPU against four: other links
        const auto shown = m_window->lastRun();
        m_window->comparePicker()->setCompareChip(QString());
        QVERIFY(waitForNewRun(shown));
        QVERIFY(!designs->compareRun());
        QCOMPARE(page->againstBox()->findText(QStringLiteral("compare chip"), Qt::MatchContains), -1);
        QVERIFY(!diff->title().contains(QStringLiteral("ipu-pod4-hbm"))); // back to a design of this run
    }

    void diffTabComparesTwoDesignsOfTheRun()
    {
        elk::app::RunViews* views = m_window->views();
        QVERIFY(views->setCurrentKind(QStringLiteral("diff-timeline")));
        QCOMPARE(views->currentKind(), QStringLiteral("diff"));
        elk::app::DiffPage* page = views->diffPage();
        QVERIFY(page->chooseAgainst(QStringLiteral("static — this run")));
        const elk::run::RunDiff& diff = page->opsView()->diff();
        QVERIFY(page->opsView()->hasData());
        QCOMPARE(page->opTable()->rowCount(), int(diff.ops.size()));
        QCOMPARE(page->timelineView()->ops().size(), diff.ops.size());
        QVERIFY(page->linksView()->hasData()); // the same chip: a Δ link map
        QVERIFY(page->opsView()->title().contains(QStringLiteral("B: static on ipu-mk2-hbm")));
        // The table's first row is the op with the largest |Δ|; a click selects A's step everywhere.
        const double first = std::abs(page->opTable()->item(0, 1)->data(Qt::UserRole).toDouble());
        for (const elk::run::OpDelta& op : diff.ops)
            QVERIFY(std::abs(op.deltaMs()) <= first + 1e-12);
        const int step = int(page->opTable()->item(0, 5)->data(Qt::UserRole).toDouble());
        QVERIFY(step >= 0);
        emit page->opTable()->cellClicked(0, 0);
        QCOMPARE(views->selectedStep(), step);
        QCOMPARE(views->ganttView()->selectedStep(), step);
        // Another design above becomes side A; B stays static.
        m_window->designSelector()->setCurrentIndex(m_window->designSelector()->findText(QStringLiteral("elk-dyn")));
        QVERIFY(page->opsView()->title().contains(QStringLiteral("A: elk-dyn")));
        QCOMPARE(page->againstBox()->currentText(), QStringLiteral("static — this run"));
        m_window->designSelector()->setCurrentIndex(m_window->designSelector()->findText(QStringLiteral("elk-full")));
    }

    void everyViewHasData()
    {
        for (elk::widgets::PlotView* view : m_window->views()->runViews())
            QVERIFY2(view->hasData(), qPrintable(view->figureKind()));
    }

    void stepSelectionReachesEveryView()
    {
        elk::app::RunViews* views = m_window->views();
        emit views->ganttView()->stepSelected(4);
        for (elk::widgets::PlotView* view : views->runViews())
            QCOMPARE(view->selectedStep(), 4);
        // The model pane's op table follows: execution step → graph step → graph op.
        const auto& compiled = *m_window->lastRun()->compiled;
        const auto& steps = m_window->lastRun()->problem.steps;
        const int graphOp = int(compiled.analysis.order[std::size_t(steps[4].graphStep)]);
        auto* table = m_window->modelPane()->findChild<QTableView*>(QStringLiteral("opTable"));
        QVERIFY(table);
        QCOMPARE(table->currentIndex().data(elk::widgets::OpTableModel::GraphOpRole).toInt(), graphOp);

        // And back: an op picked in the table selects its first execution step everywhere.
        const int otherOp = int(compiled.analysis.order[std::size_t(steps[7].graphStep)]);
        emit m_window->modelPane()->opActivated(otherOp);
        QCOMPARE(views->selectedStep(), 7);
        QCOMPARE(views->paretoView()->selectedStep(), 7);
        views->setSelectedStep(-1);
    }

    void waterfallPartShadesTheTimeline()
    {
        // Click a part of basic's waterfall: the design selector and every view switch to basic, the
        // Timeline tab opens and its Gantt chart shades the part's intervals.
        elk::app::RunViews* views = m_window->views();
        auto* selector = m_window->findChild<QComboBox*>(QStringLiteral("designSelector"));
        QVERIFY(selector);
        const int before = selector->currentIndex();
        const auto run = m_window->lastRun();
        const elk::sim::BoundGap& gap = run->designs[0].simulated->boundGap;
        int cause = 0;
        for (int c = 1; c < elk::sim::kGapCauseCount; ++c)
            if (gap.parts[std::size_t(c)].lossCycles > gap.parts[std::size_t(cause)].lossCycles)
                cause = c;
        emit views->waterfallView()->partSelected(0, cause);
        QCOMPARE(selector->currentIndex(), 0);
        QCOMPARE(views->designIndex(), 0);
        QCOMPARE(views->currentKind(), QStringLiteral("gantt"));
        QVERIFY(views->ganttView()->highlightCount() > 0);
        QVERIFY(views->ganttView()->highlightLabel().startsWith(QStringLiteral("basic")));
        selector->setCurrentIndex(before);
        QCOMPARE(views->ganttView()->highlightCount(), 0); // another design: nothing stale stays shaded
        views->setCurrentKind(QStringLiteral("designs"));
    }

    void exportedFigureReopensItsRun()
    {
        // What `elk-studio FIGURE.pdf` does: the file names the run, the cache serves it.
        const QString hash = QString::fromStdString(elk::run::runSpecHash(m_window->lastRun()->spec));
        const QString path = m_folder.filePath(QStringLiteral("reopen.pdf"));
        QVERIFY(m_window->views()->designsView()->exportFigure(path).isEmpty());
        const elk::widgets::FigureMetadata figure = elk::widgets::readFigureMetadata(path);
        QVERIFY2(figure.ok(), qPrintable(figure.error));
        QCOMPARE(figure.specHash, hash);
        QCOMPARE(figure.kind, QStringLiteral("designs"));
        const auto shown = m_window->lastRun();
        QVERIFY(m_window->reopenRun(figure.specHash).isEmpty());
        QVERIFY(waitForNewRun(shown));
        QVERIFY(m_window->lastCacheOutcome().runHit);
        QCOMPARE(QString::fromStdString(elk::run::runSpecHash(m_window->lastRun()->spec)), hash);
        // A key the cache does not hold: an error naming it, nothing lost.
        const QString missing(64, QLatin1Char('0'));
        QVERIFY(m_window->reopenRun(missing).contains(QStringLiteral("not in the result cache")));
        QCOMPARE(QString::fromStdString(elk::run::runSpecHash(m_window->lastRun()->spec)), hash);
    }

    void sweepFillsInFromTheBackground()
    {
        elk::app::SweepPanel* panel = m_window->sweepPanel();
        QSignalSpy finished(panel->job(), &elk::app::SweepJob::finished);
        const double hbm = m_firstRun->spec.chip.hbm.bandwidthGBpsPerStack;
        panel->setSecondAxisEnabled(false);
        panel->setAxis(0, QStringLiteral("hbm.bandwidthGBpsPerStack"), hbm / 2, hbm, hbm / 2);
        panel->runSweep();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        const auto sweep = finished.front().front().value<elk::app::SweepSnapshotPtr>();
        QCOMPARE(sweep->points.size(), std::size_t(2));
        QCOMPARE(sweep->doneCount(), 2);
        for (const elk::run::SweepPoint& point : sweep->points)
            QVERIFY2(point.error.empty(), point.error.c_str());
        QVERIFY(panel->sweepView()->hasData());
    }

    void recordedSweepReopensFromTheCache()
    {
        elk::app::SweepPanel* panel = m_window->sweepPanel();
        const auto shown = panel->sweepView()->sweep();
        QVERIFY(shown);
        QVERIFY(!panel->openRecorded(QStringLiteral("ffffffffffff")));
        QVERIFY(panel->sweepView()->sweep() == shown); // a failed open leaves the plot
        QVERIFY(m_window->findChild<QPushButton*>(QStringLiteral("openRecordedSweep")));
        elk::store::ResultStore* cache = m_window->store();
        QVERIFY(cache);
        const std::vector<elk::store::SweepRecordInfo> sweeps = cache->sweeps();
        QVERIFY(!sweeps.empty());
        QVERIFY(panel->openRecorded(QString::fromStdString(sweeps.front().sweepHash.substr(0, 12))));
        const auto reopened = panel->sweepView()->sweep();
        QVERIFY(reopened && reopened != shown);
        QCOMPARE(reopened->points.size(), shown->points.size());
        QCOMPARE(reopened->doneCount(), shown->doneCount());
        for (std::size_t p = 0; p < shown->points.size(); ++p)
            QCOMPARE(reopened->points[p].latencyMs, shown->points[p].latencyMs);
        // From another cache file (here the app's own, by path): read, never created.
        QVERIFY(panel->openRecordedFrom(
            QString::fromStdString(cache->path()), QString::fromStdString(sweeps.front().sweepHash.substr(0, 12))));
        QCOMPARE(panel->sweepView()->sweep()->doneCount(), shown->doneCount());
        const QString missing = QDir::temp().filePath(QStringLiteral("elk-no-such-cache.sqlite"));
        QVERIFY(!panel->openRecordedFrom(missing, QStringLiteral("abc")));
        QVERIFY(!QFile::exists(missing));
    }

    void everyViewExports_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::addRow("PDF") << QStringLiteral("pdf") << QByteArray("%PDF");
        QTest::addRow("SVG") << QStringLiteral("svg") << QByteArray("<svg");
        QTest::addRow("PNG") << QStringLiteral("png") << QByteArray("\x89PNG", 4);
    }

    void everyViewExports()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        for (elk::widgets::PlotView* view : m_window->views()->plotViews()) {
            const QString path = m_folder.filePath(view->figureKind() + QLatin1Char('.') + suffix);
            const QString error = view->exportFigure(path, elk::widgets::FigureStyle::column());
            QVERIFY2(error.isEmpty(), qPrintable(view->figureKind() + QStringLiteral(": ") + error));
            QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
            const QByteArray start = head(path, 4096);
            QVERIFY2(
                suffix == QLatin1String("svg") ? start.contains(magic) : start.startsWith(magic), qPrintable(path));
        }
    }

    void wholeRunExports()
    {
        const QString folder = m_folder.filePath(QStringLiteral("run-export"));
        const elk::app::RunFolderExport written = elk::app::exportRunFolder(*m_window->lastRun(), folder);
        QVERIFY2(written.ok(), qPrintable(written.error));
        for (const char* name : { "runspec.json", "run.json", "trace.perfetto.json", "intervals.csv",
                 "links-elk-full.csv", "program-elk-full.json", "program-elk-full.txt" })
            QVERIFY2(written.files.contains(QLatin1String(name)), name);
        QVERIFY(!written.files.contains(QStringLiteral("program-ideal.json"))); // ideal has no SRAM-bounded program
        for (const char* json : { "runspec.json", "run.json", "trace.perfetto.json", "program-basic.json" }) {
            QFile file(QDir(folder).filePath(QLatin1String(json)));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QJsonParseError error;
            QVERIFY2(!QJsonDocument::fromJson(file.readAll(), &error).isNull(),
                qPrintable(QLatin1String(json) + QStringLiteral(": ") + error.errorString()));
        }
        QVERIFY(head(QDir(folder).filePath(QStringLiteral("intervals.csv")), 16).startsWith("design,step,op"));
    }

    void historyReopensARunFromTheCache()
    {
        elk::app::HistoryModel* history = m_window->historyDock()->model();
        QVERIFY(history->rowCount() >= 2); // the preset's and the edited HBM bandwidth
        int edited = -1;
        for (int row = 0; row < history->rowCount(); ++row) {
            const elk::store::RunRecordInfo& record = history->records()[std::size_t(row)];
            // Sweep points keep summaries only; the edited run kept everything.
            if (record.hasDetail && record.specHash != elk::run::runSpecHash(m_firstRun->spec))
                edited = row;
        }
        QVERIFY(edited >= 0);
        const auto shown = m_window->lastRun();
        m_window->reopenRun(history->index(edited, 0).data(elk::app::HistoryModel::SpecHashRole).toString());
        QVERIFY(waitForNewRun(shown));
        QVERIFY(m_window->lastCacheOutcome().runHit);
        QCOMPARE(m_window->chipEditor()->spec(), m_window->lastRun()->spec.chip); // the controls follow
        QVERIFY(
            m_window->lastRun()->spec.chip.hbm.bandwidthGBpsPerStack < m_firstRun->spec.chip.hbm.bandwidthGBpsPerStack);
        QTest::qWait(MainWindow::kRerunDelayMs * 2);
        QVERIFY(!m_window->runJob()->isRunning()); // showing the reopened run is not an edit
    }

    void historyDiffsAPastRunAgainstTheCurrentOne()
    {
        elk::app::HistoryDock* dock = m_window->historyDock();
        dock->refresh(m_window->store());
        const std::string current = elk::run::runSpecHash(m_window->lastRun()->spec);
        int other = -1;
        for (int row = 0; row < dock->model()->rowCount(); ++row) {
            const elk::store::RunRecordInfo& record = dock->model()->records()[std::size_t(row)];
            if (record.hasDetail && record.specHash != current)
                other = row;
        }
        QVERIFY(other >= 0);
        const QString hash = dock->model()->index(other, 0).data(elk::app::HistoryModel::SpecHashRole).toString();
        auto* proxy = dock->view()->model();
        for (int row = 0; row < proxy->rowCount(); ++row)
            if (proxy->index(row, 0).data(elk::app::HistoryModel::SpecHashRole).toString() == hash)
                dock->view()->setCurrentIndex(proxy->index(row, 0));
        QCOMPARE(dock->selectedHash(), hash);
        auto* action = dock->view()->findChild<QAction*>(QStringLiteral("historyDiffAction"));
        QVERIFY(action);
        const auto shown = m_window->lastRun();
        elk::app::DiffPage* page = m_window->views()->diffPage();
        action->trigger();
        QVERIFY(QTest::qWaitFor(
            [&] { return page->againstBox()->currentText().contains(QStringLiteral("history")); }, kRunTimeoutMs));
        QCOMPARE(m_window->views()->currentKind(), QStringLiteral("diff"));
        QCOMPARE(m_window->lastRun(), shown); // the current run and the controls stay
        QVERIFY(page->opsView()->hasData());
        QCOMPARE(elk::run::runSpecHash(page->opsView()->against()->spec), hash.toStdString());
        QVERIFY(page->timelineView()->hasData());
        // A run that is gone from the cache says so.
        QVERIFY(!m_window->historyDiff()->load(QStringLiteral("0123456789abcdef")).isEmpty());
    }

    void savedWorkspaceReopensTheSameState()
    {
        m_window->views()->setCurrentKind(QStringLiteral("heatmap"));
        m_window->designSelector()->setCurrentIndex(2);
        const QString path = m_folder.filePath(QStringLiteral("saved.elkproj"));
        QCOMPARE(m_window->saveWorkspaceFile(path), QString());

        MainWindow reopened;
        QCOMPARE(reopened.openWorkspaceFile(path), QString());
        QCOMPARE(reopened.chipEditor()->spec(), m_window->chipEditor()->spec()); // the edited chip, embedded
        QCOMPARE(reopened.views()->currentKind(), QStringLiteral("heatmap"));
        QCOMPARE(reopened.modelPane()->runParameters(), m_window->modelPane()->runParameters());
        QVERIFY(QTest::qWaitFor([&] { return reopened.lastRun() != nullptr; }, kRunTimeoutMs));
        QVERIFY(reopened.lastCacheOutcome().runHit); // the same run, from the shared cache
        QCOMPARE(reopened.designSelector()->currentText(), m_window->designSelector()->currentText());
        QCOMPARE(latencies(*reopened.lastRun()), latencies(*m_window->lastRun()));
    }

    void classroomModeEnlargesAndRestores()
    {
        const QFont font = QApplication::font();
        const QString kind = m_window->views()->currentKind();
        auto* action = m_window->findChild<QAction*>(QStringLiteral("classroomModeAction"));
        QVERIFY(action);
        action->trigger();
        QVERIFY(m_window->classroomMode()->isOn());
        QCOMPARE(m_window->views()->currentKind(), QStringLiteral("classroom"));
        QVERIFY(QApplication::font().pointSizeF() > font.pointSizeF() * 1.5);
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            QVERIFY(!dock->isVisible());
        action->trigger();
        QVERIFY(!m_window->classroomMode()->isOn());
        QCOMPARE(QApplication::font(), font);
        QCOMPARE(m_window->views()->currentKind(), kind);
        QVERIFY(m_window->modelPane()->isVisible());
    }

    void corruptCacheIsMovedAsideWithAMessage()
    {
        const QString path = m_folder.filePath(QStringLiteral("corrupt/results.sqlite"));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x')); // not an SQLite database
        file.close();
        MainWindow window(path);
        QVERIFY(window.store()); // a fresh cache in its place
        QVERIFY2(window.storeMessage().contains(QStringLiteral("corrupt")), qPrintable(window.storeMessage()));
        QVERIFY(
            !QDir(QFileInfo(path).absolutePath()).entryList({ QStringLiteral("results.sqlite.corrupt-*") }).isEmpty());
    }

    void cleanupTestCase()
    {
        m_window.reset(); // stops anything still running before the cache folder goes
    }
};

QTEST_MAIN(TestStudioFlow)
#include "tst_studio_flow.moc"
