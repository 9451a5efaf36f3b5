// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Paper page: before any figure is computed it shows a hint, not empty axes; fig18 in equal terms
// computes on a worker and draws its chart and summary; a recompute comes from the result cache;
// a computed figure shows again at once when reselected; Cancel stops a figure and the page stays
// usable; artifact parity without the artifact's models says so and does not start; the main
// window has the page as its "paper" tab. With ELK_SCREENSHOT_DIR set, the page is grabbed at
// 1600×1000 once fig18 has arrived.
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include "app/studio/main_window.h"
#include "app/studio/paper_page.h"
#include "app/studio/run_views.h"
#include "engine/store/result_store.h"
#include "widgets/plots/paper_figure_view.h"

using namespace Qt::Literals::StringLiterals;
using elk::app::PaperJob;
using elk::app::PaperPage;
using elk::run::ReproduceMode;

namespace {
constexpr int kComputeTimeoutMs = 60000;
}

class TestPaperPage : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<elk::store::ResultStore> m_store;
    std::unique_ptr<PaperPage> m_page;

    /// Presses Compute on `figure` in equal terms and waits for finished(); false when it did not come.
    bool computeAndWait(const QString& figure)
    {
        if (!m_page->selectFigure(figure))
            return false;
        m_page->setMode(ReproduceMode::EqualTerms);
        QSignalSpy finished(m_page->job(), &PaperJob::finished);
        QTest::mouseClick(m_page->computeButton(), Qt::LeftButton);
        return finished.wait(kComputeTimeoutMs) || finished.count() == 1;
    }

    QString summaryText() const { return m_page->findChild<QTextBrowser*>(u"paperSummary"_s)->toPlainText(); }
    QString labelText(const QString& name) const { return m_page->findChild<QLabel*>(name)->text(); }
    QString hintText() const { return labelText(u"paperHint"_s); }
    QString statusText() const { return labelText(u"paperStatus"_s); }
    /// The inline message under the controls, empty while hidden.
    QString messageText() const
    {
        const QLabel* message = m_page->findChild<QLabel*>(u"paperMessage"_s);
        return message->isVisibleTo(m_page.get()) ? message->text() : QString();
    }

    void grabInto(const QString& fileName)
    {
        const QString screenshots = qEnvironmentVariable("ELK_SCREENSHOT_DIR");
        if (screenshots.isEmpty())
            return;
        QTest::qWait(200); // the plot's layout settles after the first paint
        QVERIFY(QDir().mkpath(screenshots));
        QVERIFY(m_page->grab().save(QDir(screenshots).filePath(fileName)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"Elk Studio Tests"_s);
        QCoreApplication::setApplicationName(u"tst_paper_page"_s);
        elk::store::OpenResult opened = elk::store::ResultStore::open(m_dir.filePath(u"paper.sqlite"_s).toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
    }

    void init()
    {
        m_page = std::make_unique<PaperPage>();
        m_page->setStore(m_store.get());
        m_page->resize(1600, 1000);
        m_page->show();
    }

    void cleanup() { m_page.reset(); }

    void hintBeforeAnyFigure()
    {
        QVERIFY(m_page->showsHint());
        QVERIFY2(hintText().startsWith(u"Pick a figure and press Compute:"_s), qPrintable(hintText()));
        QVERIFY(!m_page->figureView()->hasData());
        QVERIFY(!m_page->exportButton()->isEnabled());
        QVERIFY(!m_page->cancelButton()->isEnabled());
        QCOMPARE(m_page->figureList()->count(), int(elk::run::paperFigureNames().size()));
        grabInto(u"paper-page-hint.png"_s);
    }

    void fig18ComputesItsChartAndSummary()
    {
        QSignalSpy started(m_page->job(), &PaperJob::started);
        QVERIFY(computeAndWait(u"fig18"_s));
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.first().first().toInt(), 4);
        const elk::app::PaperOutcomePtr outcome = m_page->outcome(u"fig18"_s, ReproduceMode::EqualTerms);
        QVERIFY(outcome);
        QCOMPARE(outcome->figure, std::string("fig18"));
        QCOMPARE(outcome->points.size(), std::size_t(4));
        QVERIFY(!m_page->showsHint());
        QVERIFY(m_page->figureView()->hasData());
        QVERIFY(m_page->figureView()->panelCount() > 0);
        QVERIFY2(m_page->summaryMarkdown().contains(u"speedup"_s), qPrintable(m_page->summaryMarkdown()));
        QVERIFY(summaryText().contains(u"speedup"_s));
        QVERIFY(summaryText().contains(u"Per-design means"_s)); // Fig. 18 (b)-(d): ours beside the paper's
        QVERIFY(m_page->exportButton()->isEnabled());
        QVERIFY2(statusText().contains(u"4 points"_s), qPrintable(statusText()));
        grabInto(u"paper-page-fig18.png"_s);
    }

    void recomputeComesFromTheCache()
    {
        QVERIFY(computeAndWait(u"fig18"_s)); // cold or already warm from the test before
        QVERIFY(computeAndWait(u"fig18"_s));
        QCOMPARE(m_page->outcome(u"fig18"_s, ReproduceMode::EqualTerms)->fromCache, 4);
        QVERIFY2(statusText().contains(u"4 from the cache"_s), qPrintable(statusText()));
    }

    void computedFigureShowsAgainAtOnce()
    {
        QVERIFY(computeAndWait(u"fig18"_s));
        QSignalSpy started(m_page->job(), &PaperJob::started);
        QVERIFY(m_page->selectFigure(u"fig20"_s));
        QVERIFY(m_page->showsHint());
        QVERIFY(hintText().contains(u"fig20"_s));
        QVERIFY(m_page->summaryMarkdown().isEmpty());
        m_page->setMode(ReproduceMode::ArtifactParity); // fig18 has no parity result
        QVERIFY(m_page->selectFigure(u"fig18"_s));
        QVERIFY(m_page->showsHint());
        m_page->setMode(ReproduceMode::EqualTerms);
        QVERIFY(!m_page->showsHint());
        QVERIFY(m_page->figureView()->hasData());
        QVERIFY(m_page->summaryMarkdown().contains(u"speedup"_s));
        QCOMPARE(started.count(), 0);
    }

    void cancelStopsAndThePageStaysUsable()
    {
        QSignalSpy cancelled(m_page->job(), &PaperJob::cancelled);
        QSignalSpy finished(m_page->job(), &PaperJob::finished);
        QVERIFY(m_page->selectFigure(u"fig19"_s));
        QTest::mouseClick(m_page->computeButton(), Qt::LeftButton);
        QVERIFY(m_page->job()->isRunning());
        QVERIFY(m_page->cancelButton()->isEnabled());
        QTest::mouseClick(m_page->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kComputeTimeoutMs);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!m_page->job()->isRunning());
        QVERIFY(!m_page->cancelButton()->isEnabled());
        QVERIFY(m_page->showsHint()); // a cancelled figure is not kept
        QVERIFY(!m_page->outcome(u"fig19"_s, ReproduceMode::EqualTerms));
        QVERIFY2(statusText().startsWith(u"Cancelled"_s), qPrintable(statusText()));
        // Still answering: another figure computes.
        QVERIFY(computeAndWait(u"fig18"_s));
        QVERIFY(m_page->figureView()->hasData());
    }

    void parityWithoutTheModelsDoesNotStart()
    {
        QTemporaryDir empty;
        QVERIFY(empty.isValid());
        QLineEdit* folder = m_page->findChild<QLineEdit*>(u"paperEinsteinDir"_s);
        QVERIFY(folder);
        QVERIFY(!folder->isEnabled()); // equal terms need no model folder
        QVERIFY(messageText().isEmpty());
        m_page->setMode(ReproduceMode::ArtifactParity);
        QVERIFY(folder->isEnabled());
        m_page->setEinsteinDir(empty.path());
        QSignalSpy started(m_page->job(), &PaperJob::started);
        QVERIFY(m_page->selectFigure(u"fig18"_s));
        QTest::mouseClick(m_page->computeButton(), Qt::LeftButton);
        QCOMPARE(started.count(), 0);
        QVERIFY(!m_page->job()->isRunning());
        QVERIFY2(messageText().contains(u"llama2-13.json"_s), qPrintable(messageText()));
        grabInto(u"paper-page-parity.png"_s);
        m_page->setEinsteinDir({});
        QVERIFY2(messageText().contains(u"models folder"_s), qPrintable(messageText()));
        m_page->setMode(ReproduceMode::EqualTerms); // the problem goes with the mode
        QVERIFY(messageText().isEmpty());
    }

    void mainWindowHasThePaperTab()
    {
        elk::app::MainWindow window(m_dir.filePath(u"window.sqlite"_s));
        elk::app::RunViews* views = window.views();
        QVERIFY(views->paperPage());
        QCOMPARE(views->indexOf(views->paperPage()), views->indexOfKind(u"paper"_s));
        QVERIFY(elk::app::RunViews::tabKinds().contains(u"paper"_s));
        QVERIFY(views->setCurrentKind(u"paper"_s));
        QCOMPARE(views->currentKind(), u"paper"_s);
        QCOMPARE(views->currentPlotView(), views->paperPage()->figureView());
        // Closing while a figure computes stops it first (the job uses the window's result cache).
        views->paperPage()->selectFigure(u"fig19"_s);
        views->paperPage()->compute();
        QVERIFY(views->paperPage()->job()->isRunning());
    }
};

QTEST_MAIN(TestPaperPage)
#include "tst_paper_page.moc"
