// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Cancel reaches every stage of a run, counted rather than timed: each stage (import, partition,
// schedule, simulate) polls RunControl::stopRequested(), and a stop requested at a stage's first poll
// ends the run there, as Stopped, without starting a later stage. How fast a cancel is on a given
// machine is a benchmark's business (tests/bench/bench_cancel.cpp), not a test's.
#include "engine/core/run_control.h"
#include "engine/run/model_load.h"
#include "engine/run/run_compile.h"
#include "engine/run/run_spec.h"

#include <map>
#include <string>
#include <vector>

#include <QTest>

using namespace elk;

namespace {

/// The family of a progress stage: "schedule elk-full" → "schedule".
std::string familyOf(std::string_view stage)
{
    return std::string(stage.substr(0, stage.find(' ')));
}

/// Counts polls per stage family; asks to stop at the first poll in `stopIn` (empty: never).
class StageCounter final : public RunControl {
public:
    explicit StageCounter(std::string stopIn = {})
        : m_stopIn(std::move(stopIn))
    {
    }

    bool stopRequested() const override
    {
        ++m_polls[m_family];
        if (!m_stopped && !m_stopIn.empty() && m_family == m_stopIn)
            m_stopped = true;
        return m_stopped;
    }
    void progress(std::int64_t, std::int64_t, std::string_view stage) override
    {
        m_family = familyOf(stage);
        if (m_stopped && m_family != m_stopIn)
            m_startedAfterStop.push_back(std::string(stage));
    }

    int polls(const std::string& family) const { return m_polls.count(family) ? m_polls.at(family) : 0; }
    bool stopped() const { return m_stopped; }
    const std::vector<std::string>& startedAfterStop() const { return m_startedAfterStop; }

private:
    std::string m_stopIn;
    std::string m_family = "before";
    mutable std::map<std::string, int> m_polls;
    mutable bool m_stopped = false;
    std::vector<std::string> m_startedAfterStop;
};

run::RunSpec bundledSpec()
{
    run::RunRequest request;
    request.modelPath = "llama2-13b";
    request.chip = "ipu-mk2-hbm";
    request.batch = 4;
    request.kvLen = 512;
    request.designs = { "basic", "elk-full" };
    run::RunSpecResult result = run::resolveRunSpec(request);
    if (!result.ok())
        qFatal("cannot resolve: %s: %s", result.errors.front().field.c_str(), result.errors.front().message.c_str());
    return result.spec;
}

} // namespace

class TestRunStop : public QObject {
    Q_OBJECT
private slots:
    // A run that is never stopped: every stage asks, the import more than once (between its passes
    // and every 256 nodes), so a cancel never waits for a whole stage.
    void everyStagePollsTheStopFlag()
    {
        StageCounter counter;
        const run::RunResult result = run::executeRun(bundledSpec(), counter, 1);
        QVERIFY2(result.ok(), result.errors.empty() ? "not completed" : result.errors.front().c_str());
        for (const char* family : { "import", "partition", "schedule", "simulate" }) {
            qInfo("%s: %d polls", family, counter.polls(family));
            QVERIFY2(counter.polls(family) >= 1, family);
        }
        QVERIFY2(counter.polls("import") >= 4, qPrintable(QString::number(counter.polls("import"))));
    }

    void stopAtAStageEndsTheRunThere_data()
    {
        QTest::addColumn<QString>("family");
        for (const char* family : { "import", "partition", "schedule", "simulate" })
            QTest::addRow("%s", family) << QString::fromLatin1(family);
    }

    void stopAtAStageEndsTheRunThere()
    {
        QFETCH(QString, family);
        StageCounter counter(family.toStdString());
        const run::RunResult result = run::executeRun(bundledSpec(), counter, 1);
        QVERIFY(counter.stopped());
        QCOMPARE(result.status, RunStatus::Stopped);
        QVERIFY2(result.errors.empty(), result.errors.empty() ? "" : result.errors.front().c_str());
        QVERIFY2(counter.startedAfterStop().empty(),
            counter.startedAfterStop().empty() ? "" : counter.startedAfterStop().front().c_str());
        if (family != QLatin1String("simulate")) {
            for (const run::DesignRun& design : result.designs)
                QVERIFY(!design.simulated.has_value());
        }
    }

    // The importers themselves stop: a stop at the first poll leaves no graph and says why.
    void importStopsBetweenPasses_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addRow("bundled ONNX") << QStringLiteral("llama2-13b");
        QTest::addRow("einstein_v2") << QStringLiteral(ELK_TEST_DATA_DIR "/einstein/attention.json");
    }

    void importStopsBetweenPasses()
    {
        QFETCH(QString, model);
        StageCounter counter(QStringLiteral("before").toStdString()); // its first stage: no progress yet
        run::ModelStep step;
        step.batch = 1;
        step.kvLen = 16;
        step.control = &counter;
        const run::ModelLoadResult loaded = run::loadModel(model.toStdString(), step);
        QVERIFY(loaded.stopped);
        QVERIFY(!loaded.ok());
        QVERIFY(!loaded.errors.empty());
        QVERIFY2(loaded.errors.front().find("stopped") != std::string::npos, loaded.errors.front().c_str());

        run::ModelStep free = step;
        free.control = nullptr;
        const run::ModelLoadResult whole = run::loadModel(model.toStdString(), free);
        QVERIFY2(whole.ok(), whole.errors.empty() ? "" : whole.errors.front().c_str());
        QVERIFY(!whole.stopped);
    }
};

QTEST_GUILESS_MAIN(TestRunStop)
#include "tst_run_stop.moc"
