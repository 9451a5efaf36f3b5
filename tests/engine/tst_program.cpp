// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/schedule/program.h"
#include "tests/engine/schedule_test_support.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace elk;
using namespace elk::schedule;
using elk::schedule::test::TestProblem;

Q_DECLARE_METATYPE(elk::schedule::Design)

namespace {

/// The three-op chain of tst_schedule_designs (L = 100, 50, 200; execute 30, 200, 40 cycles).
void buildThreeOps(TestProblem& t, std::int64_t sram)
{
    t.problem.cores = 10;
    t.problem.sramBytesPerCore = sram;
    t.problem.hbmBytesPerCycle = 10;
    t.problem.preloadIngressBytesPerCycle = 1000;
    t.problem.preloadNocThreshold = 1;
    t.addStep(t.addPlans(test::makePlans(1000, { { 10, 20, 30, 0, 0 } })), 0, "embed");
    t.addStep(t.addPlans(test::makePlans(500, { { 10, 20, 200, 5, 0 } })), 0, "layers.0.q_proj");
    t.addStep(t.addPlans(test::makePlans(2000, { { 10, 20, 40, 0, 0 } })), 0, "lm_head");
    t.problem.layers = { 0, 1, 3, 0, 0 };
}

Program lower(const ScheduleProblem& problem, Design design)
{
    NullRunControl control;
    const ScheduleResult result = scheduleDesign(problem, design, control);
    return result.ok() ? lowerProgram(problem, *result.schedule) : Program {};
}

QString sequence(const Program& program)
{
    QStringList calls;
    for (const ProgramCall& c : program.calls)
        calls << QStringLiteral("%1%2")
                     .arg(c.kind == CallKind::PreloadAsync ? QLatin1Char('P') : QLatin1Char('E'))
                     .arg(c.step);
    return calls.join(QLatin1Char(' '));
}

} // namespace

class TestProgram : public QObject {
    Q_OBJECT

private slots:
    void callOrder_data()
    {
        QTest::addColumn<Design>("design");
        QTest::addColumn<qint64>("sram");
        QTest::addColumn<QString>("calls");
        // Op 1 runs while op 2 loads: preload_async(2) must be issued before execute(1) blocks.
        QTest::addRow("basic, overlapped") << Design::Basic << qint64(1000) << QStringLiteral("P0 P1 E0 P2 E1 E2");
        // Elk-Dyn's preload space is what the executing op leaves: with room for both preloads while op 0
        // runs, preload 2 is issued before execute(0) although the timeline starts it during op 1.
        QTest::addRow("elk-dyn, room for two ahead")
            << Design::ElkDyn << qint64(1000) << QStringLiteral("P0 P1 P2 E0 E1 E2");
        // 35 bytes: op 0 (20) with preload 1 (10) fits, with preload 2 as well (40) does not.
        QTest::addRow("elk-dyn, room for one ahead")
            << Design::ElkDyn << qint64(35) << QStringLiteral("P0 P1 E0 P2 E1 E2");
        QTest::addRow("elk-dyn, serial (no room to overlap)")
            << Design::ElkDyn << qint64(25) << QStringLiteral("P0 E0 P1 E1 P2 E2");
    }
    void callOrder()
    {
        QFETCH(Design, design);
        QFETCH(qint64, sram);
        QFETCH(QString, calls);
        TestProblem t;
        buildThreeOps(t, sram);
        QCOMPARE(sequence(lower(t.problem, design)), calls);
    }

    /// Whatever the timing, the SRAM holds: a preload issued before execute(j) may be resident from the
    /// end of execution j − 1 until its own execution starts, so during every execution m the execute
    /// and reserved bytes of m plus every preload of a later step issued before execute(m + 1) must
    /// fit. Ideal has unlimited preload space. Static's preloads stay within its preload space.
    void earlyIssuesFitTheSram_data()
    {
        QTest::addColumn<Design>("design");
        QTest::addColumn<qint64>("sram");
        for (Design d : kAllDesigns) {
            if (d == Design::Ideal)
                continue;
            for (qint64 sram : { qint64(40 * 1024), qint64(64 * 1024), qint64(160 * 1024) })
                QTest::addRow("%s %lld KiB", toString(d), static_cast<long long>(sram / 1024)) << d << sram;
        }
    }
    void earlyIssuesFitTheSram()
    {
        QFETCH(Design, design);
        QFETCH(qint64, sram);
        TestProblem t;
        test::buildRepeatedLayers(t, 4, sram, true, 0.9);
        NullRunControl control;
        const ScheduleResult r = scheduleDesign(t.problem, design, control);
        if (!r.ok())
            QSKIP(qPrintable(QStringLiteral("does not fit: %1").arg(QString::fromStdString(r.error))));
        const Schedule& s = *r.schedule;
        const Program program = lowerProgram(t.problem, s);
        const std::size_t n = t.problem.steps.size();
        std::vector<std::int64_t> issuedLater(n, 0); // preloads of steps > m issued before execute(m + 1)
        std::int64_t issued = 0;
        std::vector<char> executed(n, 0);
        std::size_t executes = 0;
        int hoisted = 0;
        for (const ProgramCall& c : program.calls) {
            if (c.kind == CallKind::PreloadAsync) {
                issued += s.steps[static_cast<std::size_t>(c.step)].preloadBytes;
                // Issued before execute(executes) although the timeline starts it after that execution ends.
                if (executes < n && c.startCycles >= s.steps[executes].execute.endCycles - 1e-6
                    && static_cast<std::size_t>(c.step) > executes)
                    ++hoisted;
                continue;
            }
            const auto m = static_cast<std::size_t>(c.step);
            issued -= s.steps[m].preloadBytes; // now part of its execute state
            const std::int64_t room = s.earlyPreloadRoomBytesPerCore >= 0 ? s.earlyPreloadRoomBytesPerCore : sram;
            const std::int64_t total = s.steps[m].executeBytes + t.problem.steps[m].reservedBytesPerCore + issued;
            QVERIFY2(total <= sram,
                qPrintable(QStringLiteral("execution %1: %2 bytes resident, SRAM %3").arg(m).arg(total).arg(sram)));
            QVERIFY2(issued <= room,
                qPrintable(QStringLiteral("execution %1: %2 preload bytes, room %3").arg(m).arg(issued).arg(room)));
            ++executes;
        }
        if (design == Design::Basic)
            QCOMPARE(hoisted, 0); // Basic preloads only the next op: issued as its timeline says
        if (design == Design::ElkDyn)
            QVERIFY(hoisted > 0); // the rule is exercised: every row has room to issue early
        qDebug("%d preloads issued before their timeline's execute", hoisted);
    }

    void text()
    {
        TestProblem t;
        buildThreeOps(t, 1000);
        const std::string text = programText(lower(t.problem, Design::ElkDyn));
        const QStringList lines = QString::fromStdString(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 7);
        QVERIFY(lines[0].startsWith(QStringLiteral("# elk.program/1  design elk-dyn  10 cores  6 calls")));
        QCOMPARE(
            lines[1], QStringLiteral("preload_async(op 0 \"embed\")  10 B/core  hbm 1000 B  plan 0 [1,1]  @0.0-100.0"));
        QVERIFY2(lines[5].startsWith(QStringLiteral(
                     "execute(op 1 \"layers.0.q_proj\")  wait done_preload(1); distribute_data 0 B/core 0.0 cycles; "
                     "local_execute plan 0 20 B/core spatial [1,1] rotate none x1: compute 195.0 shift 5.0 reduce 0.0 "
                     "cycles")),
            qPrintable(lines[5]));
    }

    void blockingRules_data()
    {
        QTest::addColumn<Design>("design");
        for (Design d : kAllDesigns)
            QTest::addRow("%s", toString(d)) << d;
    }
    void blockingRules()
    {
        QFETCH(Design, design);
        TestProblem t;
        test::buildRepeatedLayers(t, 4, 64 * 1024, true, 0.9);
        NullRunControl control;
        const ScheduleResult r = scheduleDesign(t.problem, design, control);
        QVERIFY(r.ok());
        const Schedule& s = *r.schedule;
        const Program program = lowerProgram(t.problem, s);
        const std::size_t n = t.problem.steps.size();
        QCOMPARE(program.calls.size(), 2 * n);
        std::vector<int> preloadIndex(n, -1), executeIndex(n, -1);
        std::vector<int> preloads, executes;
        for (std::size_t k = 0; k < program.calls.size(); ++k) {
            const ProgramCall& c = program.calls[k];
            auto& index = c.kind == CallKind::PreloadAsync ? preloadIndex : executeIndex;
            QCOMPARE(index[static_cast<std::size_t>(c.step)], -1); // each call once
            index[static_cast<std::size_t>(c.step)] = static_cast<int>(k);
            (c.kind == CallKind::PreloadAsync ? preloads : executes).push_back(c.step);
        }
        QCOMPARE(preloads, s.preloadOrder); // preload_async in preload order
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(executes[i], static_cast<int>(i)); // executions in order
            QVERIFY(preloadIndex[i] < executeIndex[i]); // preload_async(i) before execute(i)
        }
        // A preload issued after execute(j) cannot start before j completes; one issued before it
        // either is needed by an op <= j or starts while j runs.
        for (std::size_t k = 0; k < program.calls.size(); ++k) {
            const ProgramCall& c = program.calls[k];
            if (c.kind != CallKind::PreloadAsync)
                continue;
            for (std::size_t j = 0; j < n; ++j) {
                const StepSchedule& e = s.steps[j];
                if (executeIndex[j] < static_cast<int>(k))
                    QVERIFY(c.startCycles >= e.execute.endCycles - 1e-6);
            }
        }
    }

    void json()
    {
        TestProblem t;
        test::buildRepeatedLayers(t, 2, 64 * 1024, true, 0.9);
        const Program program = lower(t.problem, Design::ElkFull);
        const std::string text = programJson(program);
        QCOMPARE(programJson(lower(t.problem, Design::ElkFull)), text); // deterministic
        QCOMPARE(programText(lower(t.problem, Design::ElkFull)), programText(program));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject root = doc.object();
        QCOMPARE(root[QStringLiteral("schema")].toString(), QStringLiteral("elk.program/1"));
        QCOMPARE(root[QStringLiteral("design")].toString(), QStringLiteral("elk-full"));
        QCOMPARE(root[QStringLiteral("cores")].toInteger(), 1000);
        const QJsonArray calls = root[QStringLiteral("calls")].toArray();
        QCOMPARE(static_cast<std::size_t>(calls.size()), program.calls.size());
        const QJsonObject first = calls[0].toObject();
        QCOMPARE(first[QStringLiteral("call")].toString(), QStringLiteral("preload_async"));
        QCOMPARE(first[QStringLiteral("name")].toString(), QStringLiteral("embed"));
        QCOMPARE(first[QStringLiteral("bytes_per_core")].toInteger(), program.calls[0].preload.bytesPerCore);
        bool sawExecute = false;
        for (const auto& value : calls) {
            const QJsonObject call = value.toObject();
            if (call[QStringLiteral("call")].toString() != QStringLiteral("execute"))
                continue;
            sawExecute = true;
            QCOMPARE(call[QStringLiteral("wait")].toString(),
                QStringLiteral("done_preload(%1)").arg(call[QStringLiteral("op")].toInt()));
            const QJsonObject local = call[QStringLiteral("local_execute")].toObject();
            QVERIFY(local.contains(QStringLiteral("rotation")) && local.contains(QStringLiteral("iterations")));
            QVERIFY(call[QStringLiteral("distribute_data")].toObject().contains(QStringLiteral("bytes_per_core")));
        }
        QVERIFY(sawExecute);
    }
};

QTEST_GUILESS_MAIN(TestProgram)
#include "tst_program.moc"
