// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <QTest>

#include "engine/core/run_control.h"

namespace {

/// A toy "long engine call" that follows the RunControl contract: poll every 1024 steps.
elk::RunStatus countTo(std::int64_t total, elk::RunControl& control, std::int64_t& done)
{
    volatile std::uint64_t sink = 0; // keeps the loop from being optimised away
    for (done = 0; done < total; ++done) {
        if (done % 1024 == 0) {
            if (control.stopRequested())
                return elk::RunStatus::Stopped;
            control.progress(done, total, "count");
        }
        sink = sink + std::uint64_t(done) * 2654435761u;
    }
    control.progress(total, total, "count");
    return elk::RunStatus::Completed;
}

struct ProgressCall {
    std::int64_t done;
    std::int64_t total;
    std::string stage;
};

} // namespace

class TestRunControl : public QObject {
    Q_OBJECT

private slots:
    void nullControlRunsToCompletion()
    {
        elk::NullRunControl control;
        std::int64_t done = -1;
        QCOMPARE(countTo(100000, control, done), elk::RunStatus::Completed);
        QCOMPARE(done, std::int64_t(100000));
        QVERIFY(!control.stopRequested());
    }

    void progressReachesCallbackAndIsRemembered_data()
    {
        QTest::addColumn<qint64>("done");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<QString>("stage");
        QTest::addRow("start of a stage") << qint64(0) << qint64(10) << QStringLiteral("partition");
        QTest::addRow("middle") << qint64(3) << qint64(10) << QStringLiteral("schedule");
        QTest::addRow("end") << qint64(10) << qint64(10) << QStringLiteral("simulate");
        QTest::addRow("beyond 32 bits") << qint64(5000000000) << qint64(6000000000) << QStringLiteral("sweep");
    }

    void progressReachesCallbackAndIsRemembered()
    {
        QFETCH(qint64, done);
        QFETCH(qint64, total);
        QFETCH(QString, stage);
        std::vector<ProgressCall> calls;
        elk::AtomicRunControl control([&calls](std::int64_t d, std::int64_t t, std::string_view s) {
            calls.push_back({ d, t, std::string(s) });
        });
        control.progress(1, 2, "earlier");
        control.progress(done, total, stage.toStdString());

        QCOMPARE(calls.size(), std::size_t(2));
        QCOMPARE(calls.back().done, std::int64_t(done));
        QCOMPARE(calls.back().total, std::int64_t(total));
        QCOMPARE(calls.back().stage, stage.toStdString());
        QCOMPARE(control.lastDone(), std::int64_t(done));
        QCOMPARE(control.lastTotal(), std::int64_t(total));
        QCOMPARE(control.lastStage(), stage.toStdString());
    }

    void progressWithoutCallbackIsStillRemembered()
    {
        elk::AtomicRunControl control;
        control.progress(7, 9, "import");
        QCOMPARE(control.lastDone(), std::int64_t(7));
        QCOMPARE(control.lastTotal(), std::int64_t(9));
        QCOMPARE(control.lastStage(), std::string("import"));
    }

    void stopSetOnAnotherThreadIsSeen()
    {
        elk::AtomicRunControl control;
        QVERIFY(!control.stopRequested());
        std::thread stopper([&control] { control.requestStop(); });
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!control.stopRequested() && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
        stopper.join();
        QVERIFY(control.stopRequested());
    }

    void stopBeforeStartReturnsAtOnce()
    {
        elk::AtomicRunControl control;
        control.requestStop();
        std::int64_t done = -1;
        QCOMPARE(countTo(1000000, control, done), elk::RunStatus::Stopped);
        QCOMPARE(done, std::int64_t(0));
    }

    void longLoopOnWorkerStopsPromptly()
    {
        std::atomic<std::int64_t> reported { 0 };
        elk::AtomicRunControl control([&reported](std::int64_t done, std::int64_t, std::string_view) {
            reported.store(done, std::memory_order_relaxed);
        });
        const std::int64_t total = std::numeric_limits<std::int64_t>::max(); // never finishes on its own
        std::int64_t done = 0;
        elk::RunStatus status = elk::RunStatus::Failed;
        std::thread worker([&] { status = countTo(total, control, done); });

        // Wait until the worker is demonstrably running, then stop it from this thread.
        const auto startDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (reported.load(std::memory_order_relaxed) < 1024 * 16 && std::chrono::steady_clock::now() < startDeadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        QVERIFY(reported.load() >= 1024 * 16);

        const auto stopAt = std::chrono::steady_clock::now();
        control.requestStop();
        worker.join();
        const auto stopLatency = std::chrono::steady_clock::now() - stopAt;

        QCOMPARE(status, elk::RunStatus::Stopped);
        QVERIFY(done < total);
        QVERIFY(done >= reported.load());
        QVERIFY2(stopLatency < std::chrono::milliseconds(500),
            qPrintable(QStringLiteral("stop took %1 ms")
                           .arg(std::chrono::duration_cast<std::chrono::milliseconds>(stopLatency).count())));
    }
};

QTEST_GUILESS_MAIN(TestRunControl)
#include "tst_run_control.moc"
