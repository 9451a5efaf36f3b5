// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Step simulation (one compute and one communication stream, list scheduling in node order) and its
// Perfetto export, read back with QJsonDocument.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

#include "engine/hlo/hlo_step.h"
#include "tests/support/compare_near.h"

using namespace elk::hlo;

namespace {

StepNode compute(double seconds, std::vector<std::uint32_t> dependencies = {})
{
    StepNode node;
    node.kind = RegionKind::Compute;
    node.seconds = seconds;
    node.dependencies = std::move(dependencies);
    node.flops = seconds * 1e12;
    node.bytes = seconds * 1e9;
    return node;
}

StepNode comm(double seconds, std::vector<std::uint32_t> dependencies = {})
{
    StepNode node;
    node.kind = RegionKind::Communication;
    node.seconds = seconds;
    node.dependencies = std::move(dependencies);
    CollectiveInfo info;
    info.kind = CollectiveKind::AllReduce;
    info.groups = { { 0, 1 }, { 2, 3 } };
    info.groupSize = 2;
    info.operandBytes = 4096;
    info.resultBytes = 4096;
    node.collective = info;
    node.commBytesPerDevice = 4096;
    return node;
}

QJsonObject parse(const std::string& text)
{
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s at offset %d", qPrintable(error.errorString()), int(error.offset));
    return document.object();
}

std::vector<QJsonObject> eventsOf(const QJsonObject& trace, const QString& phase)
{
    std::vector<QJsonObject> events;
    const QJsonArray all = trace.value(QStringLiteral("traceEvents")).toArray();
    for (const QJsonValue& value : all)
        if (value.toObject().value(QStringLiteral("ph")).toString() == phase)
            events.push_back(value.toObject());
    return events;
}

} // namespace

class TestHloStep : public QObject {
    Q_OBJECT

private slots:
    void chain()
    {
        const StepTimeline timeline = simulateStep({ compute(1), compute(2, { 0 }), compute(3, { 1 }) });
        QCOMPARE(timeline.startSeconds, (std::vector<double> { 0, 1, 3 }));
        QCOMPARE(timeline.endSeconds, (std::vector<double> { 1, 3, 6 }));
        QCOMPARE(timeline.stepSeconds, 6.0);
        QCOMPARE(timeline.computeSeconds, 6.0);
        QCOMPARE(timeline.commSeconds, 0.0);
        QCOMPARE(timeline.exposedCommSeconds, 0.0);
    }

    void scenarios_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<double>("step");
        QTest::addColumn<double>("compute");
        QTest::addColumn<double>("comm");
        QTest::addColumn<double>("exposed");
        QTest::addRow("independent comm hidden under compute") << QStringLiteral("hidden") << 5.0 << 5.0 << 1.0 << 0.0;
        QTest::addRow("comm after the last compute is exposed") << QStringLiteral("tail") << 6.0 << 5.0 << 2.0 << 1.0;
        QTest::addRow("comm between computes is exposed") << QStringLiteral("between") << 6.0 << 4.0 << 2.0 << 2.0;
        QTest::addRow("two comms serialise on their stream") << QStringLiteral("serial") << 4.0 << 1.0 << 4.0 << 3.0;
        QTest::addRow("comm longer than the compute it overlaps")
            << QStringLiteral("longer") << 4.0 << 2.0 << 4.0 << 2.0;
        QTest::addRow("only communication") << QStringLiteral("commOnly") << 3.0 << 0.0 << 3.0 << 3.0;
        QTest::addRow("empty") << QStringLiteral("empty") << 0.0 << 0.0 << 0.0 << 0.0;
    }
    void scenarios()
    {
        QFETCH(QString, scenario);
        QFETCH(double, step);
        QFETCH(double, compute);
        QFETCH(double, comm);
        QFETCH(double, exposed);
        std::vector<StepNode> nodes;
        if (scenario == QLatin1String("hidden")) // A(2) ‖ B comm(1); C(3) after A
            nodes = { ::compute(2), ::comm(1), ::compute(3, { 0 }) };
        else if (scenario == QLatin1String("tail")) // as above plus a comm(1) after C
            nodes = { ::compute(2), ::comm(1), ::compute(3, { 0 }), ::comm(1, { 2 }) };
        else if (scenario == QLatin1String("between")) // A(2) → comm(2) → C(2)
            nodes = { ::compute(2), ::comm(2, { 0 }), ::compute(2, { 1 }) };
        else if (scenario == QLatin1String("serial")) // A(1) ‖ comm(2), comm(2); both comms independent
            nodes = { ::compute(1), ::comm(2), ::comm(2) };
        else if (scenario == QLatin1String("longer")) // comm(4) ‖ A(2)
            nodes = { ::comm(4), ::compute(2) };
        else if (scenario == QLatin1String("commOnly"))
            nodes = { ::comm(1), ::comm(2, { 0 }) };
        const StepTimeline timeline = simulateStep(nodes);
        QCOMPARE(timeline.stepSeconds, step);
        QCOMPARE(timeline.computeSeconds, compute);
        QCOMPARE(timeline.commSeconds, comm);
        QCOMPARE(timeline.exposedCommSeconds, exposed);
        QCOMPARE(timeline.startSeconds.size(), nodes.size());
    }

    void startTimes()
    {
        // compute stream: A [0,2), C [2,5); comm stream: B [0,1), D waits for C: [5,6).
        const StepTimeline timeline = simulateStep({ compute(2), comm(1), compute(3, { 0 }), comm(1, { 2 }) });
        QCOMPARE(timeline.startSeconds, (std::vector<double> { 0, 0, 2, 5 }));
        QCOMPARE(timeline.endSeconds, (std::vector<double> { 2, 1, 5, 6 }));
        // A compute that waits for a comm starts after it even though its stream is free.
        const StepTimeline waits = simulateStep({ comm(3), compute(1, { 0 }) });
        QCOMPARE(waits.startSeconds[1], 3.0);
    }

    void contractViolations()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateStep({ compute(1, { 0 }) }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateStep({ compute(1), compute(1, { 5 }) }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateStep({ compute(-1) }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateStep({ compute(std::nan("")) }));
    }

    void perfetto()
    {
        std::vector<StepNode> nodes { compute(2e-3), comm(1e-3), compute(3e-3, { 0 }), comm(1.5e-3, { 2 }) };
        nodes[0].label = "compute 0 (\"quoted\" \\ label)";
        nodes[1].label = "all_reduce 2x4 KB";
        const StepTimeline timeline = simulateStep(nodes);
        const QJsonObject trace = parse(stepTimelineToPerfetto(nodes, timeline, "llama \"100m\" on 4x-a100"));
        QVERIFY(!trace.isEmpty());
        QCOMPARE(trace.value(QStringLiteral("displayTimeUnit")).toString(), QStringLiteral("ms"));
        QCOMPARE(trace.value(QStringLiteral("otherData")).toObject().value(QStringLiteral("title")).toString(),
            QStringLiteral("llama \"100m\" on 4x-a100"));
        QCOMPARE(
            trace.value(QStringLiteral("otherData")).toObject().value(QStringLiteral("exposedCommSeconds")).toDouble(),
            timeline.exposedCommSeconds);

        const std::vector<QJsonObject> metadata = eventsOf(trace, QStringLiteral("M"));
        QCOMPARE(int(metadata.size()), 3);
        std::map<int, QString> threadNames;
        for (const QJsonObject& event : metadata) {
            if (event.value(QStringLiteral("name")).toString() == QLatin1String("thread_name"))
                threadNames[event.value(QStringLiteral("tid")).toInt()]
                    = event.value(QStringLiteral("args")).toObject().value(QStringLiteral("name")).toString();
        }
        QCOMPARE(threadNames.size(), std::size_t(2));
        QVERIFY(threadNames.count(0) == 0); // ids start at 1 (old Perfetto tid 0 bug)

        const std::vector<QJsonObject> slices = eventsOf(trace, QStringLiteral("X"));
        QCOMPARE(int(slices.size()), int(nodes.size()));
        std::map<int, std::vector<std::pair<double, double>>> lanes;
        for (const QJsonObject& slice : slices) {
            const int node = slice.value(QStringLiteral("args")).toObject().value(QStringLiteral("node")).toInt();
            const bool isCompute = nodes[std::size_t(node)].kind == RegionKind::Compute;
            QCOMPARE(threadNames[slice.value(QStringLiteral("tid")).toInt()],
                isCompute ? QStringLiteral("compute") : QStringLiteral("communication"));
            QCOMPARE(slice.value(QStringLiteral("pid")).toInt(), 1);
            const double ts = slice.value(QStringLiteral("ts")).toDouble();
            const double dur = slice.value(QStringLiteral("dur")).toDouble();
            ELK_COMPARE_NEAR(ts, timeline.startSeconds[std::size_t(node)] * 1e6, 1e-3);
            ELK_COMPARE_NEAR(dur, nodes[std::size_t(node)].seconds * 1e6, 2e-3);
            lanes[slice.value(QStringLiteral("tid")).toInt()].push_back({ ts, ts + dur });
            const QJsonObject args = slice.value(QStringLiteral("args")).toObject();
            if (isCompute) {
                QCOMPARE(args.value(QStringLiteral("flops")).toDouble(), nodes[std::size_t(node)].flops);
            } else {
                QCOMPARE(args.value(QStringLiteral("collective")).toString(), QStringLiteral("all_reduce"));
                QCOMPARE(args.value(QStringLiteral("groupSize")).toInt(), 2);
                QCOMPARE(args.value(QStringLiteral("commBytesPerDevice")).toDouble(), 4096.0);
            }
        }
        QCOMPARE(slices[0].value(QStringLiteral("name")).toString(), QStringLiteral("compute 0 (\"quoted\" \\ label)"));
        for (auto& [tid, intervals] : lanes) {
            std::sort(intervals.begin(), intervals.end());
            for (std::size_t i = 1; i < intervals.size(); ++i)
                QVERIFY2(intervals[i].first >= intervals[i - 1].second, "slices of one lane overlap");
        }
    }

    void perfettoRejectsMismatchedTimeline()
    {
        const std::vector<StepNode> nodes { compute(1) };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stepTimelineToPerfetto(nodes, StepTimeline {}, "x"));
    }
};

QTEST_GUILESS_MAIN(TestHloStep)
#include "tst_hlo_step.moc"
