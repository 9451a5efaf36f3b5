// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The classroom story of a real run: every preload/execute start and end once, in time order, with
// the simulator's own SRAM count, and captions whose numbers come from the snapshot.
#include "widgets/classroom/classroom_events.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include <QRegularExpression>
#include <QTest>

#include "tests/widgets/classroom_fixture.h"

using namespace elk;
using namespace elk::widgets;

namespace {

QString captionOf(const ClassroomEvent& event)
{
    return QString::fromStdString(event.caption);
}

/// The simulator's SRAM counter at `atCycles` (the step function's value from that instant on).
double simSramAt(const sim::SimResult& sim, double atCycles)
{
    double value = 0;
    for (const sim::CounterSample& sample : sim.sramBytesPerCore) {
        if (sample.atCycles > atCycles)
            break;
        value = sample.value;
    }
    return value;
}

/// Parses "3.42 µs" / "850 ns" / "25.2 ms" at the start of `text` into µs; also returns the unit's
/// half last digit (the rounding the caption allows).
std::pair<double, double> parseDuration(const QString& number, const QString& unit)
{
    const double value = number.toDouble();
    const int dot = int(number.indexOf(QLatin1Char('.')));
    const int decimals = dot < 0 ? 0 : int(number.size()) - dot - 1;
    double scale = 1;
    if (unit == QStringLiteral("ns"))
        scale = 1e-3;
    else if (unit == QStringLiteral("ms"))
        scale = 1e3;
    else if (unit == QStringLiteral("s"))
        scale = 1e6;
    return { value * scale, 0.5 * std::pow(10.0, -decimals) * scale };
}

} // namespace

class TestClassroomEvents : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_run = classroomtest::smallRun();
        QCOMPARE(m_run->designs.size(), std::size_t(2));
        if (qEnvironmentVariableIsSet("ELK_CLASSROOM_DUMP")) {
            for (int d = 0; d < 2; ++d)
                for (const ClassroomEvent& e : classroomEvents(*m_run, d))
                    qInfo("%d %12.1f %s", d, e.atCycles, e.caption.c_str());
        }
    }

    void eventsAreInTimeOrder_data() { designRows(); }
    void eventsAreInTimeOrder()
    {
        QFETCH(int, design);
        const std::vector<ClassroomEvent> events = classroomEvents(*m_run, design);
        QVERIFY(!events.empty());
        const double clockHz = m_run->designs[std::size_t(design)].simulated->clockHz;
        for (std::size_t i = 0; i < events.size(); ++i) {
            QVERIFY2(i == 0 || events[i - 1].atCycles <= events[i].atCycles, qPrintable(captionOf(events[i])));
            QCOMPARE(events[i].atMicroseconds, events[i].atCycles / clockHz * 1e6);
            QVERIFY(!events[i].caption.empty());
        }
        QCOMPARE(events.back().kind, ClassroomEventKind::ExecuteEnd);
        QCOMPARE(events.back().atCycles, m_run->designs[std::size_t(design)].simulated->latencyCycles);
    }

    void everyStartAndEndOnce_data() { designRows(); }
    void everyStartAndEndOnce()
    {
        QFETCH(int, design);
        const run::DesignRun& run = m_run->designs[std::size_t(design)];
        const sim::SimResult& sim = *run.simulated;
        std::size_t preloads = 0;
        for (int step : sim.preloadOrder) {
            if (sim.steps[std::size_t(step)].preload.length() > 0
                || run.schedule->steps[std::size_t(step)].preloadBytes > 0)
                ++preloads;
        }
        QVERIFY(preloads > 0);
        const std::vector<ClassroomEvent> events = classroomEvents(*m_run, design);
        QCOMPARE(events.size(), 2 * sim.steps.size() + 2 * preloads);

        std::map<std::pair<int, int>, std::size_t> position; // (kind, step) → index
        for (std::size_t i = 0; i < events.size(); ++i) {
            const auto key = std::make_pair(int(events[i].kind), events[i].step);
            QVERIFY2(!position.count(key), qPrintable(captionOf(events[i])));
            position[key] = i;
            const sim::StepTrace& trace = sim.steps[std::size_t(events[i].step)];
            switch (events[i].kind) {
            case ClassroomEventKind::PreloadStart:
                QCOMPARE(events[i].atCycles, trace.preload.startCycles);
                break;
            case ClassroomEventKind::PreloadEnd:
                QCOMPARE(events[i].atCycles, trace.preload.endCycles);
                break;
            case ClassroomEventKind::ExecuteStart:
                QCOMPARE(events[i].atCycles, trace.execute.startCycles);
                break;
            case ClassroomEventKind::ExecuteEnd:
                QCOMPARE(events[i].atCycles, trace.execute.endCycles);
                break;
            }
        }
        // Causality on ties: a step's start before its end, its preload's end before its execution.
        for (int step = 0; step < int(sim.steps.size()); ++step) {
            const auto start = position.at({ int(ClassroomEventKind::ExecuteStart), step });
            QVERIFY(start < position.at({ int(ClassroomEventKind::ExecuteEnd), step }));
            if (step > 0)
                QVERIFY(position.at({ int(ClassroomEventKind::ExecuteEnd), step - 1 }) < start);
            const auto preloadEnd = position.find({ int(ClassroomEventKind::PreloadEnd), step });
            if (preloadEnd != position.end()) {
                QVERIFY(position.at({ int(ClassroomEventKind::PreloadStart), step }) < preloadEnd->second);
                QVERIFY(preloadEnd->second < start);
            }
        }
    }

    void sramMatchesTheSimulator_data() { designRows(); }
    void sramMatchesTheSimulator()
    {
        QFETCH(int, design);
        const sim::SimResult& sim = *m_run->designs[std::size_t(design)].simulated;
        const std::vector<ClassroomEvent> events = classroomEvents(*m_run, design);
        bool sawPreloadAndExecute = false;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const ClassroomEvent& event = events[i];
            QCOMPARE(event.sram.capacityBytes, m_run->problem.sramBytesPerCore);
            QVERIFY2(event.sram.usedBytes() <= event.sram.capacityBytes, qPrintable(captionOf(event)));
            sawPreloadAndExecute |= event.sram.preloadBytes > 0 && event.sram.executeBytes > 0;
            // The simulator records the state after everything that happens at one instant.
            if (i + 1 < events.size() && events[i + 1].atCycles == event.atCycles)
                continue;
            QCOMPARE(double(event.sram.usedBytes()), simSramAt(sim, event.atCycles));
        }
        QVERIFY(sawPreloadAndExecute);
    }

    void executeCaptionNumbersComeFromTheSnapshot_data() { designRows(); }
    void executeCaptionNumbersComeFromTheSnapshot()
    {
        QFETCH(int, design);
        const run::DesignRun& run = m_run->designs[std::size_t(design)];
        const std::vector<ClassroomEvent> events = classroomEvents(*m_run, design);
        static const QRegularExpression pattern(
            QStringLiteral("^op (\\d+) \\(([^,]+), (\\w+)\\) executes in (< 1|\\d+) % of SRAM"));
        int checked = 0;
        for (const ClassroomEvent& event : events) {
            if (event.kind != ClassroomEventKind::ExecuteStart)
                continue;
            const QRegularExpressionMatch match = pattern.match(captionOf(event));
            QVERIFY2(match.hasMatch(), qPrintable(captionOf(event)));
            QCOMPARE(match.captured(1).toInt(), event.step);
            QCOMPARE(match.captured(2).toStdString(), run.simulated->stepNames[std::size_t(event.step)]);
            const double percent = 100.0 * double(run.schedule->steps[std::size_t(event.step)].executeBytes)
                / double(m_run->problem.sramBytesPerCore);
            if (match.captured(4) == QStringLiteral("< 1"))
                QVERIFY2(percent > 0 && percent < 0.5, qPrintable(captionOf(event)));
            else
                QVERIFY2(std::abs(match.captured(4).toDouble() - percent) <= 0.5, qPrintable(captionOf(event)));
            if (!event.preloading.empty()) {
                QVERIFY2(captionOf(event).contains(QStringLiteral(" while op")), qPrintable(captionOf(event)));
                for (int step : event.preloading)
                    QVERIFY(captionOf(event).contains(QString::number(step)));
            }
            ++checked;
        }
        QCOMPARE(checked, int(run.simulated->steps.size()));
    }

    /// elk-full preloads ahead where basic does not: "op 28 (attn_residual, elementwise) executes
    /// in < 1 % of SRAM while op 30 preloads; op 29 is already loaded". Checked against the raw traces.
    void knownEventOfTheSnapshot()
    {
        const run::DesignRun& run = m_run->designs[1]; // elk-full
        const std::vector<ClassroomEvent> events = classroomEvents(*m_run, 1);
        const auto it = std::find_if(events.begin(), events.end(), [](const ClassroomEvent& e) {
            return e.kind == ClassroomEventKind::ExecuteStart && !e.preloading.empty() && !e.preloaded.empty();
        });
        QVERIFY(it != events.end());
        QCOMPARE(it->step, 28);
        QCOMPARE(it->preloading, std::vector<int> { 30 });
        QCOMPARE(it->preloaded, std::vector<int> { 29 });
        QCOMPARE(it->executing, std::vector<int> { 28 });
        const auto& steps = run.simulated->steps;
        QCOMPARE(it->atCycles, steps[28].execute.startCycles);
        QVERIFY(steps[29].preload.endCycles <= it->atCycles && it->atCycles < steps[29].execute.startCycles);
        QVERIFY(steps[30].preload.startCycles <= it->atCycles && it->atCycles < steps[30].preload.endCycles);
        QCOMPARE(it->sram.executeBytes, run.schedule->steps[28].executeBytes);
        QCOMPARE(it->sram.preloadBytes, run.schedule->steps[29].preloadBytes + run.schedule->steps[30].preloadBytes);
        QCOMPARE(it->sram.reservedBytes, m_run->problem.steps[28].reservedBytesPerCore);
        QCOMPARE(QString::fromStdString(it->caption),
            QStringLiteral("op 28 (attn_residual, elementwise) executes in < 1 % of SRAM while op 30 preloads; "
                           "op 29 is already loaded"));
        // basic has nothing loaded ahead at its op 28.
        const std::vector<ClassroomEvent> basic = classroomEvents(*m_run, 0);
        const auto same = std::find_if(basic.begin(), basic.end(),
            [](const ClassroomEvent& e) { return e.kind == ClassroomEventKind::ExecuteStart && e.step == 28; });
        QVERIFY(same != basic.end());
        QVERIFY(same->preloaded.empty() && same->preloading.empty());
    }

    void preloadEndCaptionsCarryBytesAndDuration_data() { designRows(); }
    void preloadEndCaptionsCarryBytesAndDuration()
    {
        QFETCH(int, design);
        const run::DesignRun& run = m_run->designs[std::size_t(design)];
        const double clockHz = run.simulated->clockHz;
        static const QRegularExpression pattern(
            QStringLiteral("^op (\\d+) finishes preloading ([\\d.]+) (B|KiB|MiB|GiB) per core from HBM in ([\\d.]+) "
                           "(ns|µs|ms|s); it (can execute now|waits for ops? [\\d–, and]+)$"));
        int checked = 0;
        for (const ClassroomEvent& event : classroomEvents(*m_run, design)) {
            if (event.kind != ClassroomEventKind::PreloadEnd)
                continue;
            const QRegularExpressionMatch match = pattern.match(captionOf(event));
            QVERIFY2(match.hasMatch(), qPrintable(captionOf(event)));
            const double bytes = double(run.schedule->steps[std::size_t(event.step)].preloadBytes);
            const QString unit = match.captured(3);
            const double unitBytes = unit == QStringLiteral("B") ? 1
                : unit == QStringLiteral("KiB")                  ? 1024
                : unit == QStringLiteral("MiB")                  ? 1024 * 1024
                                                                 : 1024.0 * 1024 * 1024;
            QVERIFY2(std::abs(match.captured(2).toDouble() * unitBytes - bytes) <= 0.05 * unitBytes + 0.5,
                qPrintable(captionOf(event)));
            const auto [us, tolerance] = parseDuration(match.captured(4), match.captured(5));
            const double lengthUs = run.simulated->steps[std::size_t(event.step)].preload.length() / clockHz * 1e6;
            QVERIFY2(std::abs(us - lengthUs) <= tolerance * 1.0001, qPrintable(captionOf(event)));
            // "waits for" names exactly the ops still to finish before it.
            const bool waits = match.captured(6).startsWith(QStringLiteral("waits"));
            QCOMPARE(waits, run.simulated->steps[std::size_t(event.step)].execute.startCycles > event.atCycles);
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    void stallsAreTimedFromTheSnapshot_data() { designRows(); }
    void stallsAreTimedFromTheSnapshot()
    {
        QFETCH(int, design);
        const sim::SimResult& sim = *m_run->designs[std::size_t(design)].simulated;
        static const QRegularExpression endPattern(
            QStringLiteral("; op (\\d+) waits ([\\d.]+) (ns|µs|ms|s) for its preload \\(stall\\)$"));
        static const QRegularExpression startPattern(
            QStringLiteral(" after waiting ([\\d.]+) (ns|µs|ms|s) for its preload \\(stall\\)"));
        int stalls = 0;
        for (const ClassroomEvent& event : classroomEvents(*m_run, design)) {
            if (event.kind == ClassroomEventKind::ExecuteEnd) {
                const QRegularExpressionMatch match = endPattern.match(captionOf(event));
                const int next = event.step + 1;
                const bool stalled = next < int(sim.steps.size()) && sim.steps[std::size_t(next)].waitedFor == "preload"
                    && sim.steps[std::size_t(next)].execute.startCycles > event.atCycles;
                QCOMPARE(match.hasMatch(), stalled);
                if (!stalled)
                    continue;
                QCOMPARE(match.captured(1).toInt(), next);
                const double gapUs
                    = (sim.steps[std::size_t(next)].execute.startCycles - event.atCycles) / sim.clockHz * 1e6;
                const auto [us, tolerance] = parseDuration(match.captured(2), match.captured(3));
                QVERIFY2(std::abs(us - gapUs) <= tolerance * 1.0001, qPrintable(captionOf(event)));
                QCOMPARE(event.stallMicroseconds, gapUs);
                ++stalls;
            } else if (event.kind == ClassroomEventKind::ExecuteStart && event.stallMicroseconds > 0) {
                const QRegularExpressionMatch match = startPattern.match(captionOf(event));
                QVERIFY2(match.hasMatch(), qPrintable(captionOf(event)));
                const auto [us, tolerance] = parseDuration(match.captured(1), match.captured(2));
                QVERIFY2(std::abs(us - event.stallMicroseconds) <= tolerance * 1.0001, qPrintable(captionOf(event)));
            }
        }
        QVERIFY2(stalls > 0, "the teaching run is HBM-bound: some op must wait for its preload");
    }

    void badDesignIndexGivesNoEvents()
    {
        QVERIFY(classroomEvents(*m_run, -1).empty());
        QVERIFY(classroomEvents(*m_run, 2).empty());
        run::RunResult unsimulated = *m_run;
        unsimulated.designs[0].simulated.reset();
        QVERIFY(classroomEvents(unsimulated, 0).empty());
    }

    void ticksMergeTwoDesignsByTime()
    {
        const std::vector<std::vector<ClassroomEvent>> designs
            = { classroomEvents(*m_run, 0), classroomEvents(*m_run, 1) };
        const std::vector<ClassroomTick> ticks = classroomTicks(designs);
        QCOMPARE(ticks.size(), designs[0].size() + designs[1].size());
        std::vector<int> next(2, 0);
        for (std::size_t t = 0; t < ticks.size(); ++t) {
            QVERIFY(t == 0 || ticks[t - 1].atCycles <= ticks[t].atCycles);
            // Each design's own events appear in their order.
            QCOMPARE(ticks[t].event, next[std::size_t(ticks[t].lane)]++);
            const std::vector<int> at = classroomEventsAtTick(ticks, int(t), 2);
            QCOMPARE(at[std::size_t(ticks[t].lane)], ticks[t].event);
            QCOMPARE(at[std::size_t(1 - ticks[t].lane)], next[std::size_t(1 - ticks[t].lane)] - 1);
        }
        QCOMPARE(classroomEventsAtTick(ticks, -1, 2), (std::vector<int> { -1, -1 }));
    }

    void describeSteps_data()
    {
        QTest::addColumn<QList<int>>("steps");
        QTest::addColumn<QString>("expected");
        QTest::addRow("none") << QList<int> {} << QStringLiteral("no op");
        QTest::addRow("one") << QList<int> { 3 } << QStringLiteral("op 3");
        QTest::addRow("two neighbours") << QList<int> { 4, 3 } << QStringLiteral("ops 3 and 4");
        QTest::addRow("a run") << QList<int> { 13, 14, 15 } << QStringLiteral("ops 13–15");
        QTest::addRow("mixed") << QList<int> { 9, 2, 5, 7, 8 } << QStringLiteral("ops 2, 5 and 7–9");
        QTest::addRow("duplicates") << QList<int> { 1, 1, 2 } << QStringLiteral("ops 1 and 2");
    }
    void describeSteps()
    {
        QFETCH(QList<int>, steps);
        QFETCH(QString, expected);
        QCOMPARE(
            QString::fromStdString(widgets::describeSteps(std::vector<int>(steps.begin(), steps.end()))), expected);
    }

    void formatBytes_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::addRow("bytes") << qint64(512) << QStringLiteral("512 B");
        QTest::addRow("KiB") << qint64(1536) << QStringLiteral("1.5 KiB");
        QTest::addRow("hundreds of KiB") << qint64(624 * 1024) << QStringLiteral("624 KiB");
        QTest::addRow("MiB") << qint64(1258291) << QStringLiteral("1.2 MiB");
        QTest::addRow("rounds up a unit") << qint64(1024 * 1024 - 10) << QStringLiteral("1.0 MiB");
    }
    void formatBytes()
    {
        QFETCH(qint64, bytes);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(widgets::formatBytes(bytes)), expected);
    }

    void formatMicroseconds_data()
    {
        QTest::addColumn<double>("us");
        QTest::addColumn<QString>("expected");
        QTest::addRow("zero") << 0.0 << QStringLiteral("0 µs");
        QTest::addRow("ns") << 0.85 << QStringLiteral("850 ns");
        QTest::addRow("a few µs") << 3.4167 << QStringLiteral("3.42 µs");
        QTest::addRow("tens of µs") << 61.26 << QStringLiteral("61.3 µs");
        QTest::addRow("9.996 rounds to 10.0") << 9.996 << QStringLiteral("10.0 µs");
        QTest::addRow("ms") << 25230.0 << QStringLiteral("25.2 ms");
        QTest::addRow("s") << 2.5e6 << QStringLiteral("2.50 s");
    }
    void formatMicroseconds()
    {
        QFETCH(double, us);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(widgets::formatMicroseconds(us)), expected);
    }

private:
    void designRows()
    {
        QTest::addColumn<int>("design");
        QTest::addRow("basic") << 0;
        QTest::addRow("elk-full") << 1;
    }

    std::shared_ptr<const run::RunResult> m_run;
};

QTEST_GUILESS_MAIN(TestClassroomEvents)
#include "tst_classroom_events.moc"
