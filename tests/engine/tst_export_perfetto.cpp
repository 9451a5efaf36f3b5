// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Perfetto (Chrome Trace Event JSON) export, read back with QJsonDocument and checked against
// the conventions of ../shared/spec/formats-and-presets.md §3.1.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/export/perfetto_trace.h"
#include "tests/engine/export_fixtures.h"

using elk::exports::NamedSimResult;
using elk::exports::PerfettoOptions;
using elk::exports::perfettoTraceJson;

namespace {

QJsonObject parse(const std::string& text)
{
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("trace is not JSON: %s at offset %d", qPrintable(error.errorString()), int(error.offset));
    return document.object();
}

std::vector<QJsonObject> eventsOf(const QJsonObject& trace, const QString& phase)
{
    std::vector<QJsonObject> events;
    for (const QJsonValue& value : trace.value(QStringLiteral("traceEvents")).toArray())
        if (value.toObject().value(QStringLiteral("ph")).toString() == phase)
            events.push_back(value.toObject());
    return events;
}

/// Perfetto's own conversion of a µs value to its ns timestamps.
std::int64_t perfettoNs(const QJsonValue& us)
{
    return std::llround(us.toDouble() * 1000.0);
}

PerfettoOptions testOptions()
{
    PerfettoOptions options;
    options.designName = "elk";
    options.engineVersion = "test-version";
    return options;
}

QJsonObject threeOpTrace()
{
    return parse(perfettoTraceJson(elk::test::threeOpResult(), testOptions()));
}

/// Slices on one (pid, tid) must not overlap, in Perfetto's integer ns; returns the first offender.
QString firstOverlap(const QJsonObject& trace)
{
    std::map<std::pair<int, int>, std::vector<std::pair<std::int64_t, std::int64_t>>> lanes;
    for (const QJsonObject& slice : eventsOf(trace, QStringLiteral("X"))) {
        const std::int64_t start = perfettoNs(slice.value(QStringLiteral("ts")));
        lanes[{ slice.value(QStringLiteral("pid")).toInt(), slice.value(QStringLiteral("tid")).toInt() }].push_back(
            { start, start + perfettoNs(slice.value(QStringLiteral("dur"))) });
    }
    for (auto& [lane, slices] : lanes) {
        std::sort(slices.begin(), slices.end());
        for (std::size_t i = 1; i < slices.size(); ++i)
            if (slices[i].first < slices[i - 1].second)
                return QStringLiteral("pid %1 tid %2: slice at %3 ns starts before %4 ns")
                    .arg(lane.first)
                    .arg(lane.second)
                    .arg(slices[i].first)
                    .arg(slices[i - 1].second);
    }
    return {};
}

} // namespace

class TestExportPerfetto : public QObject {
    Q_OBJECT
private slots:
    void writesTheObjectFormWithMetadata()
    {
        const QJsonObject trace = threeOpTrace();
        QVERIFY(trace.value(QStringLiteral("traceEvents")).isArray());
        QCOMPARE(trace.value(QStringLiteral("displayTimeUnit")).toString(), QStringLiteral("ns"));
        const QJsonObject other = trace.value(QStringLiteral("otherData")).toObject();
        QCOMPARE(other.value(QStringLiteral("design")).toString(), QStringLiteral("elk"));
        QCOMPARE(other.value(QStringLiteral("latency_ms")).toDouble(), 6000.5e-6);
        QCOMPARE(other.value(QStringLiteral("engine_version")).toString(), QStringLiteral("test-version"));
        QCOMPARE(other.value(QStringLiteral("designs")).toArray().size(), 1);
    }

    void everySliceHasTimesAndSmallPositiveIds()
    {
        const auto slices = eventsOf(threeOpTrace(), QStringLiteral("X"));
        QVERIFY(slices.size() >= 5);
        for (const QJsonObject& slice : slices) {
            QVERIFY2(slice.value(QStringLiteral("ts")).isDouble(), "X without numeric ts");
            QVERIFY2(slice.value(QStringLiteral("dur")).isDouble(), "X without numeric dur (Perfetto drops it)");
            QVERIFY(slice.value(QStringLiteral("dur")).toDouble() >= 0);
            const int pid = slice.value(QStringLiteral("pid")).toInt(-1);
            const int tid = slice.value(QStringLiteral("tid")).toInt(-1);
            QVERIFY2(pid >= 1 && pid < 1000, "pid must be small and positive");
            QVERIFY2(tid >= 1 && tid < 1000, "tid must be small and positive");
            QVERIFY(!slice.value(QStringLiteral("name")).toString().isEmpty());
            QVERIFY(!slice.value(QStringLiteral("cat")).toString().isEmpty());
        }
    }

    // Perfetto's tokenizer refuses an event whose top level holds an array before it finds "ts"/"dur".
    void noEventHasATopLevelArray()
    {
        for (const QJsonValue& event : threeOpTrace().value(QStringLiteral("traceEvents")).toArray())
            for (const QJsonValue& field : event.toObject())
                QVERIFY(!field.isArray());
    }

    void timesAreMicroseconds_data()
    {
        QTest::addColumn<int>("tid");
        QTest::addColumn<QString>("cat");
        QTest::addColumn<int>("step");
        QTest::addColumn<double>("tsUs");
        QTest::addColumn<double>("durUs");
        QTest::addRow("op 0 execute: 1000..3000 cycles at 1 GHz") << 1 << QStringLiteral("exec") << 0 << 1.0 << 2.0;
        QTest::addRow("op 2 execute ends at 6000.5 cycles: rounded to whole ns")
            << 1 << QStringLiteral("exec") << 2 << 4.0 << 2.001;
        QTest::addRow("op 0 preload from 0") << 2 << QStringLiteral("preload") << 0 << 0.0 << 1.0;
        QTest::addRow("op 2 preload clamped to start at op 0's preload end")
            << 2 << QStringLiteral("preload") << 2 << 1.0 << 3.0;
        QTest::addRow("op 0 warm-up phase") << 3 << QStringLiteral("warmup") << 0 << 1.0 << 0.2;
        QTest::addRow("op 2 shift phase") << 3 << QStringLiteral("shift") << 2 << 5.0 << 1.001;
        QTest::addRow("stall lane: execute idle before op 2, waiting for its preload")
            << 4 << QStringLiteral("stall") << 2 << 3.5 << 0.5;
    }
    void timesAreMicroseconds()
    {
        QFETCH(int, tid);
        QFETCH(QString, cat);
        QFETCH(int, step);
        QFETCH(double, tsUs);
        QFETCH(double, durUs);
        int found = 0;
        for (const QJsonObject& slice : eventsOf(threeOpTrace(), QStringLiteral("X"))) {
            if (slice.value(QStringLiteral("tid")).toInt() != tid
                || slice.value(QStringLiteral("cat")).toString() != cat
                || slice.value(QStringLiteral("args")).toObject().value(QStringLiteral("step")).toInt(-1) != step)
                continue;
            ++found;
            QCOMPARE(perfettoNs(slice.value(QStringLiteral("ts"))), std::llround(tsUs * 1000));
            QCOMPARE(perfettoNs(slice.value(QStringLiteral("dur"))), std::llround(durUs * 1000));
        }
        QCOMPARE(found, 1);
    }

    void slicesOnOneLaneNeverOverlap()
    {
        const QJsonObject trace = threeOpTrace();
        const QString overlap = firstOverlap(trace);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    }

    // Overlapping, sub-ns, shuffled input: the clamping still leaves every lane free of overlaps.
    void clampsOverlappingInputOnEveryLane()
    {
        elk::sim::SimResult result = elk::test::threeOpResult();
        result.clockHz = 1.33e9; // cycles do not land on whole ns
        std::uint32_t state = 12345;
        const auto next = [&] { return (state = state * 1664525u + 1013904223u) >> 8; };
        result.steps.clear();
        result.stepNames.clear();
        for (int i = 0; i < 60; ++i) {
            elk::sim::StepTrace step;
            const double start = static_cast<double>(next() % 5000) / 7.0;
            const double length = 0.3 + static_cast<double>(next() % 900) / 3.0;
            step.execute = { start, start + length };
            step.compute = { start, start + length / 2 };
            step.shift = { start + length / 3, start + length }; // overlaps compute on purpose
            step.preload = { start / 2, start / 2 + length * 1.5 };
            result.steps.push_back(step);
            result.stepNames.push_back("op " + std::to_string(i));
        }
        const QString overlap = firstOverlap(parse(perfettoTraceJson(result, testOptions())));
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    }

    void everyOpAppearsOncePerLane_data()
    {
        QTest::addColumn<int>("tid");
        QTest::addColumn<QStringList>("expected");
        const QString op0 = QStringLiteral("matmul, \"qkv\"");
        QTest::addRow("execute lane: every op")
            << 1 << QStringList { op0, QStringLiteral("softmax"), QStringLiteral("ffn") };
        QTest::addRow("preload lane: only ops that load something") << 2 << QStringList { op0, QStringLiteral("ffn") };
    }
    void everyOpAppearsOncePerLane()
    {
        QFETCH(int, tid);
        QFETCH(QStringList, expected);
        QStringList names;
        for (const QJsonObject& slice : eventsOf(threeOpTrace(), QStringLiteral("X")))
            if (slice.value(QStringLiteral("tid")).toInt() == tid)
                names.push_back(slice.value(QStringLiteral("name")).toString());
        names.sort();
        expected.sort();
        QCOMPARE(names, expected);
    }

    void phasesStayInsideTheirExecution()
    {
        const auto slices = eventsOf(threeOpTrace(), QStringLiteral("X"));
        std::map<int, std::pair<std::int64_t, std::int64_t>> executeByStep;
        for (const QJsonObject& s : slices)
            if (s.value(QStringLiteral("tid")).toInt() == 1) {
                const std::int64_t start = perfettoNs(s.value(QStringLiteral("ts")));
                executeByStep[s.value(QStringLiteral("args")).toObject().value(QStringLiteral("step")).toInt()]
                    = { start, start + perfettoNs(s.value(QStringLiteral("dur"))) };
            }
        int phases = 0;
        for (const QJsonObject& s : slices) {
            if (s.value(QStringLiteral("tid")).toInt() != 3)
                continue;
            ++phases;
            const auto execute
                = executeByStep.at(s.value(QStringLiteral("args")).toObject().value(QStringLiteral("step")).toInt());
            const std::int64_t start = perfettoNs(s.value(QStringLiteral("ts")));
            QVERIFY(start >= execute.first);
            QVERIFY(start + perfettoNs(s.value(QStringLiteral("dur"))) <= execute.second);
        }
        QCOMPARE(phases, 4 + 1 + 2); // empty phases are left out
    }

    void sliceArgsCarryStepStallAndCause()
    {
        for (const QJsonObject& slice : eventsOf(threeOpTrace(), QStringLiteral("X"))) {
            if (slice.value(QStringLiteral("cat")).toString() != QStringLiteral("exec"))
                continue;
            const QJsonObject args = slice.value(QStringLiteral("args")).toObject();
            if (args.value(QStringLiteral("step")).toInt() == 0)
                QCOMPARE(args.value(QStringLiteral("stall_cycles")).toDouble(), 100.0);
            if (args.value(QStringLiteral("step")).toInt() == 2)
                QCOMPARE(args.value(QStringLiteral("waited_for")).toString(), QStringLiteral("preload"));
        }
    }

    void namesProcessAndThreads()
    {
        std::map<std::pair<QString, int>, QString> names; // (kind, tid) -> name
        for (const QJsonObject& m : eventsOf(threeOpTrace(), QStringLiteral("M")))
            names[{ m.value(QStringLiteral("name")).toString(), m.value(QStringLiteral("tid")).toInt(0) }]
                = m.value(QStringLiteral("args")).toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(names[std::make_pair(QStringLiteral("process_name"), 0)], QStringLiteral("elk"));
        QCOMPARE(names[std::make_pair(QStringLiteral("thread_name"), 1)], QStringLiteral("execute"));
        QCOMPARE(names[std::make_pair(QStringLiteral("thread_name"), 2)], QStringLiteral("preload"));
        QCOMPARE(names[std::make_pair(QStringLiteral("thread_name"), 3)], QStringLiteral("execute phases"));
        QCOMPARE(names[std::make_pair(QStringLiteral("thread_name"), 4)], QStringLiteral("stalls"));
    }

    void countersCarryNumericValues_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QList<double>>("values");
        QTest::addRow("HBM GB/s at 1 GHz; the repeated 32 is dropped")
            << QStringLiteral("HBM bandwidth") << QStringLiteral("GBps") << QList<double> { 64, 32, 0 };
        QTest::addRow("NoC GB/s") << QStringLiteral("NoC bandwidth") << QStringLiteral("GBps")
                                  << QList<double> { 0, 128, 0 };
        QTest::addRow("SRAM KiB per core")
            << QStringLiteral("SRAM per core") << QStringLiteral("KiB") << QList<double> { 1024, 512 };
    }
    void countersCarryNumericValues()
    {
        QFETCH(QString, name);
        QFETCH(QString, key);
        QFETCH(QList<double>, values);
        QList<double> seen;
        for (const QJsonObject& c : eventsOf(threeOpTrace(), QStringLiteral("C"))) {
            if (c.value(QStringLiteral("name")).toString() != name)
                continue;
            QCOMPARE(c.value(QStringLiteral("pid")).toInt(), 1);
            QVERIFY(c.value(QStringLiteral("ts")).isDouble());
            const QJsonValue value = c.value(QStringLiteral("args")).toObject().value(key);
            QVERIFY2(value.isDouble(), "counter values must be numbers");
            seen.push_back(value.toDouble());
        }
        QCOMPARE(seen, values);
    }

    void twoDesignsGetTwoProcesses()
    {
        const elk::sim::SimResult first = elk::test::threeOpResult();
        elk::sim::SimResult second = first;
        second.steps.pop_back();
        const std::vector<NamedSimResult> designs { { "basic", &first, {}, {} }, { "elk", &second, {}, {} } };
        const QJsonObject trace = parse(perfettoTraceJson(designs, testOptions()));

        std::map<int, QString> processNames;
        std::map<int, std::vector<int>> tidsByPid;
        for (const QJsonObject& m : eventsOf(trace, QStringLiteral("M")))
            if (m.value(QStringLiteral("name")).toString() == QStringLiteral("process_name"))
                processNames[m.value(QStringLiteral("pid")).toInt()]
                    = m.value(QStringLiteral("args")).toObject().value(QStringLiteral("name")).toString();
        for (const QJsonObject& x : eventsOf(trace, QStringLiteral("X")))
            tidsByPid[x.value(QStringLiteral("pid")).toInt()].push_back(x.value(QStringLiteral("tid")).toInt());
        QCOMPARE(processNames.size(), std::size_t(2));
        QCOMPARE(processNames[1], QStringLiteral("basic"));
        QCOMPARE(processNames[2], QStringLiteral("elk"));
        QCOMPARE(tidsByPid.size(), std::size_t(2));
        for (const int tid : tidsByPid[2])
            QVERIFY2(tid >= 11 && tid <= 14, "tids stay unique across processes");
        QCOMPARE(std::count(tidsByPid[2].begin(), tidsByPid[2].end(), 11), 2); // second design: 2 executions
        const QString overlap = firstOverlap(trace);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        QCOMPARE(
            trace.value(QStringLiteral("otherData")).toObject().value(QStringLiteral("designs")).toArray().size(), 2);
    }

    void optionsDropLanesAndCounters()
    {
        PerfettoOptions options = testOptions();
        options.phaseLane = false;
        options.stallLane = false;
        options.counters = false;
        options.displayTimeUnit.clear();
        const QJsonObject trace = parse(perfettoTraceJson(elk::test::threeOpResult(), options));
        QVERIFY(!trace.contains(QStringLiteral("displayTimeUnit")));
        QVERIFY(eventsOf(trace, QStringLiteral("C")).empty());
        QCOMPARE(eventsOf(trace, QStringLiteral("X")).size(), std::size_t(3 + 2));
    }

    void rejectsBadInput()
    {
        elk::sim::SimResult noClock = elk::test::threeOpResult();
        noClock.clockHz = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, perfettoTraceJson(noClock));
        elk::sim::SimResult infinite = elk::test::threeOpResult();
        infinite.steps[1].execute.endCycles = std::numeric_limits<double>::infinity();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, perfettoTraceJson(infinite));
        const std::vector<NamedSimResult> nullResult { { "x", nullptr, {}, {} } };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, perfettoTraceJson(nullResult));
    }

    void bytesAreDeterministicAndMatchTheGoldenFile()
    {
        const elk::sim::SimResult result = elk::test::threeOpResult();
        const std::vector<NamedSimResult> designs { { "elk", &result, { 4096, 0, 8192 }, { 1024, 512, 2048 } } };
        const std::string first = perfettoTraceJson(designs, testOptions());
        QCOMPARE(perfettoTraceJson(designs, testOptions()), first);
        QVERIFY(elk::test::matchesGolden(QStringLiteral("export/trace_three_ops.json"), first));
    }
};

QTEST_GUILESS_MAIN(TestExportPerfetto)
#include "tst_export_perfetto.moc"
