// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Classroom mode on a real run: big fonts, stepping and playing move the cursor and the captions,
// two designs advance together with their own captions, a click or a selection jumps to an op, and
// the view and its figure render. ELK_CLASSROOM_PNG_DIR=dir keeps the screenshots to look at.
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/classroom/classroom_view.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/compare_near.h"
#include "tests/widgets/classroom_fixture.h"
#include "widgets/classroom/sram_gauge.h"

using namespace elk;
using namespace elk::widgets;

namespace {

/// The player's tick at which `lane` reaches the ExecuteStart of `step` (−1: none).
int executeStartTick(const ClassroomView& view, int lane, int step)
{
    std::vector<std::vector<ClassroomEvent>> stories;
    for (int l = 0; l < view.laneCount(); ++l)
        stories.push_back(view.events(l));
    const std::vector<ClassroomTick> ticks = classroomTicks(stories);
    for (std::size_t t = 0; t < ticks.size(); ++t) {
        if (ticks[t].lane != lane)
            continue;
        const ClassroomEvent& event = stories[std::size_t(lane)][std::size_t(ticks[t].event)];
        if (event.kind == ClassroomEventKind::ExecuteStart && event.step == step)
            return int(t);
    }
    return -1;
}

} // namespace

class TestClassroom : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_run = classroomtest::smallRun();
        if (qEnvironmentVariableIsSet("ELK_CLASSROOM_PNG_DIR")) {
            m_pngDir = qEnvironmentVariable("ELK_CLASSROOM_PNG_DIR");
            QDir().mkpath(m_pngDir);
        } else {
            QVERIFY(m_tempDir.isValid());
            m_pngDir = m_tempDir.path();
        }
    }

    void emptyViewHasNoData()
    {
        ClassroomView view;
        QCOMPARE(view.figureKind(), QStringLiteral("classroom"));
        QVERIFY(!view.hasData());
        QCOMPARE(view.tickCount(), 0);
        view.play();
        QVERIFY(!view.isPlaying());
        view.setRun(m_run);
        QVERIFY(view.hasData());
        view.setRun(nullptr);
        QVERIFY(!view.hasData());
    }

    void fontsAreLargeOnScreen()
    {
        ClassroomView view;
        view.setRun(m_run);
        const QList<QLabel*> labels = view.findChildren<QLabel*>();
        QVERIFY(!labels.isEmpty());
        for (const QLabel* label : labels)
            QVERIFY2(label->font().pointSizeF() >= 16, qPrintable(label->text()));
        QVERIFY(view.plot()->axisRectCount() >= 1);
        const QCPAxis* x = view.plot()->axisRect(0)->axis(QCPAxis::atBottom);
        QVERIFY(x->tickLabelFont().pointSizeF() >= 16);
        QVERIFY(view.plot()->axisRect(0)->axis(QCPAxis::atLeft)->tickLabelFont().pointSizeF() >= 16);
    }

    void oneDesignWalksEveryEvent()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.setDesignIndex(1);
        QCOMPARE(view.laneCount(), 1);
        QCOMPARE(view.laneDesign(0), 1);
        const std::vector<ClassroomEvent> expected = classroomEvents(*m_run, 1);
        QCOMPARE(view.tickCount(), int(expected.size()));
        QCOMPARE(view.currentTick(), 0);
        QCOMPARE(view.caption(0), QString::fromStdString(expected.front().caption));
        for (int tick = 1; tick < view.tickCount(); ++tick) {
            view.stepForward();
            QCOMPARE(view.currentTick(), tick);
            QCOMPARE(view.cursorCycles(), expected[std::size_t(tick)].atCycles);
            QCOMPARE(view.caption(0), QString::fromStdString(expected[std::size_t(tick)].caption));
        }
        view.stepForward(); // at the end: stays
        QCOMPARE(view.currentTick(), view.tickCount() - 1);
    }

    void keysStepForwardAndBack()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Somewhere in the middle, where time moves between events.
        view.setCurrentTick(view.tickCount() / 2);
        const int start = view.currentTick();
        const QString before = view.caption(0);
        const double cursorBefore = view.cursorCycles();
        QSignalSpy moved(&view, &ClassroomView::currentTickChanged);

        int steps = 0;
        do { // forward until the time itself moves
            QTest::keyClick(&view, Qt::Key_Right);
            ++steps;
        } while (view.cursorCycles() == cursorBefore && view.currentTick() + 1 < view.tickCount());
        QCOMPARE(view.currentTick(), start + steps);
        QVERIFY(view.cursorCycles() > cursorBefore);
        QVERIFY(view.caption(0) != before);
        QCOMPARE(moved.count(), steps);

        for (int i = 0; i < steps; ++i)
            QTest::keyClick(&view, Qt::Key_Left);
        QCOMPARE(view.currentTick(), start);
        QCOMPARE(view.cursorCycles(), cursorBefore);
        QCOMPARE(view.caption(0), before);

        QTest::keyClick(&view, Qt::Key_End);
        QCOMPARE(view.currentTick(), view.tickCount() - 1);
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(view.currentTick(), 0);
    }

    void zoomFollowsTheCursor()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.setSecondDesignIndex(1);
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto [lower, upper] = view.visibleCycles();
        QCOMPARE(lower, 0.0);
        QVERIFY(upper >= m_run->designs[0].simulated->latencyCycles);
        view.setCurrentTick(view.tickCount() / 4);
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(&view, Qt::Key_Plus);
        const auto [zoomedLower, zoomedUpper] = view.visibleCycles();
        ELK_COMPARE_NEAR((zoomedUpper - zoomedLower), (upper - lower) / 8, 1e-6 * (upper - lower));
        QVERIFY(zoomedLower <= view.cursorCycles() && view.cursorCycles() <= zoomedUpper);
        // Both designs show the same window.
        QCOMPARE(view.plot()->axisRect(1)->axis(QCPAxis::atBottom)->range(),
            view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->range());
        QTest::keyClick(&view, Qt::Key_End); // far outside the window: the view follows
        const auto [followLower, followUpper] = view.visibleCycles();
        QVERIFY(followLower <= view.cursorCycles() && view.cursorCycles() <= followUpper);
        ELK_COMPARE_NEAR((followUpper - followLower), (zoomedUpper - zoomedLower), 1e-6 * (upper - lower));
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.visibleCycles(), std::make_pair(lower, upper));
    }

    void playAdvancesOnATimerAndPauses()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.show();
        view.setSpeed(16);
        QCOMPARE(view.speed(), 16.0);
        QSignalSpy playing(&view, &ClassroomView::playingChanged);
        QTest::keyClick(&view, Qt::Key_Space);
        QVERIFY(view.isPlaying());
        QTRY_VERIFY(view.currentTick() >= 3);
        QTest::keyClick(&view, Qt::Key_Space);
        QVERIFY(!view.isPlaying());
        const int stopped = view.currentTick();
        QTest::qWait(200); // several intervals at 16 events/s
        QCOMPARE(view.currentTick(), stopped);
        QCOMPARE(playing.count(), 2);
    }

    void playStopsAtTheEnd()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.setSpeed(16);
        view.setCurrentTick(view.tickCount() - 3);
        view.play();
        QTRY_VERIFY(!view.isPlaying());
        QCOMPARE(view.currentTick(), view.tickCount() - 1);
        QVERIFY(view.caption(0).contains(QStringLiteral("the run ends at")));
        view.play(); // from the end: starts over
        QVERIFY(view.isPlaying());
        QVERIFY(view.currentTick() <= 1);
        view.pause();
    }

    void twoDesignsAdvanceTogether()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.setDesignIndex(0);
        view.setSecondDesignIndex(1);
        QCOMPARE(view.laneCount(), 2);
        QCOMPARE(view.tickCount(), int(view.events(0).size() + view.events(1).size()));
        QCOMPARE(view.plot()->axisRectCount(), 2);
        // Before the first step neither gauge pretends to know the SRAM ("free 0 B of 0 B").
        view.setCurrentTick(0);
        int notStarted = 0;
        for (int lane = 0; lane < 2; ++lane) {
            if (view.currentEvent(lane) >= 0)
                continue;
            ++notStarted;
            QCOMPARE(view.gauge(lane)->legendText(), SramGauge::notStartedText());
        }
        QCOMPARE(notStarted, 1); // the first tick is one design's first event
        // One time scale: both designs' time axes show the same range.
        QCOMPARE(view.plot()->axisRect(0)->axis(QCPAxis::atBottom)->range(),
            view.plot()->axisRect(1)->axis(QCPAxis::atBottom)->range());

        // elk-full starts op 28 with op 29 already loaded and op 30 preloading; basic at that same
        // instant is elsewhere in its run.
        const int tick = executeStartTick(view, 1, 28);
        QVERIFY(tick >= 0);
        view.setCurrentTick(tick);
        QCOMPARE(view.caption(1),
            QStringLiteral("op 28 (attn_residual, elementwise) executes in < 1 % of SRAM while op 30 preloads; "
                           "op 29 is already loaded"));
        QVERIFY(!view.caption(0).isEmpty());
        QVERIFY(view.caption(0) != view.caption(1));
        // Each lane shows its own latest event at or before the shared cursor.
        for (int lane = 0; lane < 2; ++lane) {
            const int index = view.currentEvent(lane);
            QVERIFY(index >= 0);
            const ClassroomEvent& event = view.events(lane)[std::size_t(index)];
            QVERIFY(event.atCycles <= view.cursorCycles());
            QCOMPARE(view.caption(lane), QString::fromStdString(event.caption));
            const std::vector<GaugeSegment>& segments = view.gauge(lane)->segments();
            QCOMPARE(segments.size(), std::size_t(4));
            QCOMPARE(segments[0].bytes, event.sram.executeBytes);
            QCOMPARE(segments[1].bytes, event.sram.preloadBytes);
            QCOMPARE(segments[2].bytes, event.sram.reservedBytes);
            QCOMPARE(segments[3].bytes, event.sram.freeBytes());
        }

        // Somewhere the two differ at the same instant (not only at op 16).
        int differing = 0;
        for (int t = 0; t < view.tickCount(); ++t) {
            view.setCurrentTick(t);
            if (view.currentEvent(0) >= 0 && view.currentEvent(1) >= 0 && view.caption(0) != view.caption(1))
                ++differing;
        }
        QVERIFY(differing > 0);

        // Dropping the comparison keeps the instant: basic's last event at or before it.
        view.setCurrentTick(tick);
        const double kept = view.cursorCycles();
        view.setSecondDesignIndex(-1);
        QCOMPARE(view.laneCount(), 1);
        QCOMPARE(view.plot()->axisRectCount(), 1);
        QVERIFY(view.cursorCycles() <= kept);
        QVERIFY(view.currentTick() > 0);
        QVERIFY(view.currentTick() + 1 == view.tickCount()
            || view.events(0)[std::size_t(view.currentTick() + 1)].atCycles > kept);
        view.setSecondDesignIndex(0); // the first design again: nothing to compare
        QCOMPARE(view.laneCount(), 1);
    }

    void selectionAndClickJumpToTheOp()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Selections are steps of the run's reference list; lane 0 (basic) numbers its own steps.
        view.setSelectedStep(12);
        const ClassroomEvent& selected = view.events(0)[std::size_t(view.currentEvent(0))];
        QVERIFY(view.designStepOf(12) >= 0);
        QCOMPARE(selected.step, view.designStepOf(12));
        QCOMPARE(selected.kind, ClassroomEventKind::ExecuteStart);

        // Click the middle of op 19's execute bar (lane y = 0).
        const sim::StepTrace& trace = m_run->designs[0].simulated->steps[19];
        QCPAxisRect* rect = view.plot()->axisRect(0);
        const double unitCycles = m_run->designs[0].simulated->clockHz / 1e3; // the run lasts ms
        const double x = rect->axis(QCPAxis::atBottom)
                             ->coordToPixel((trace.execute.startCycles + trace.execute.endCycles) / 2 / unitCycles);
        const double y = rect->axis(QCPAxis::atLeft)->coordToPixel(0);
        QSignalSpy selectedSpy(&view, &PlotView::stepSelected);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, QPoint(int(x), int(y)));
        QCOMPARE(selectedSpy.count(), 1);
        QCOMPARE(selectedSpy.front().front().toInt(), view.referenceStepOf(19));
        QCOMPARE(view.events(0)[std::size_t(view.currentEvent(0))].step, view.designStepOf(view.referenceStepOf(19)));
    }

    void rendersForAClass()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.setDesignIndex(0);
        view.setSecondDesignIndex(1);
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int tick = executeStartTick(view, 1, 16);
        QVERIFY(tick >= 0);
        view.setCurrentTick(tick);
        const QImage screen = view.grab().toImage();
        QCOMPARE(screen.size(), QSize(1600, 900));
        const QString screenPath = QDir(m_pngDir).filePath(QStringLiteral("classroom_screen.png"));
        QVERIFY(screen.save(screenPath));
        // The plot is not blank: the lanes paint both colours.
        const QImage plotImage = view.plot()->grab().toImage();
        int preload = 0, execute = 0;
        for (int y = 0; y < plotImage.height(); y += 2) {
            for (int x = 0; x < plotImage.width(); x += 2) {
                const QRgb pixel = plotImage.pixel(x, y) & 0xFFFFFF;
                preload += pixel == 0x0072B2;
                execute += pixel == 0xE69F00;
            }
        }
        QVERIFY(preload > 50);
        QVERIFY(execute > 50);

        for (const auto& [name, style] :
            { std::pair { QStringLiteral("classroom_figure_slide.png"), FigureStyle::slide() },
                std::pair { QStringLiteral("classroom_figure_column.png"), FigureStyle::column() } }) {
            const QString path = QDir(m_pngDir).filePath(name);
            QCOMPARE(view.exportFigure(path, style), QString());
            QImage figure(path);
            QVERIFY(!figure.isNull());
            QVERIFY(figure.width() > 300);
        }
        const QString pdf = QDir(m_pngDir).filePath(QStringLiteral("classroom_figure.pdf"));
        QCOMPARE(view.exportFigure(pdf, FigureStyle::wide()), QString());
        QVERIFY(QFileInfo(pdf).size() > 1000);
        // Export leaves the screen as it was.
        QCOMPARE(view.plot()->axisRect(0)->axis(QCPAxis::atLeft)->tickLabelFont().pointSizeF(), 16.0);
        QCOMPARE(view.currentTick(), tick);
    }

    void rendersOneDesignFromTheStart()
    {
        ClassroomView view;
        view.setRun(m_run);
        view.setDesignIndex(1);
        view.resize(1600, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.currentTick(), 0);
        QVERIFY(view.caption(0).startsWith(QStringLiteral("op 0 (attn_norm, normalization) starts preloading")));
        QCOMPARE(view.plot()->axisRectCount(), 1);
        QVERIFY(view.grab().toImage().save(QDir(m_pngDir).filePath(QStringLiteral("classroom_screen_start.png"))));
        view.setCurrentTick(view.tickCount() / 3);
        QVERIFY(view.grab().toImage().save(QDir(m_pngDir).filePath(QStringLiteral("classroom_screen_one.png"))));
    }

private:
    std::shared_ptr<const run::RunResult> m_run;
    QTemporaryDir m_tempDir;
    QString m_pngDir;
};

QTEST_MAIN(TestClassroom)
#include "tst_classroom.moc"
