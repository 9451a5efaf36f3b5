// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps: axis parsing and its errors, the presets, a small grid that gives the same numbers on one
// and two threads and the same as single runs, a repeat served wholly from the cache, one search per
// partition key, fields that follow (mesh size, controller placement), CSV shape, stop.
#include "engine/run/sweep.h"

#include "engine/run/chips.h"
#include "engine/run/run_compile.h"
#include "engine/store/result_store.h"
#include "engine/store/store_test_hook.h"

#include <atomic>
#include <bit>
#include <cmath>
#include <set>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace elk;
using namespace Qt::Literals::StringLiterals;

namespace {

const char* const kSampleModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";

run::RunRequest sampleRequest(const std::string& chip = "ipu-mk2-hbm")
{
    run::RunRequest request;
    request.modelPath = kSampleModel;
    request.chip = chip;
    return request;
}

std::vector<run::SweepAxis> axesOf(const std::vector<std::string>& texts)
{
    std::vector<run::SweepAxis> axes;
    for (const std::string& text : texts) {
        run::SweepAxisParse parsed = run::parseSweepAxis(text);
        if (!parsed.ok())
            qFatal("%s", parsed.error.c_str());
        axes.push_back(parsed.axis);
    }
    return axes;
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]))
            return false;
    }
    return true;
}

std::atomic<int> g_partitionWrites { 0 };
void countPartitionWrites(const char* table)
{
    if (std::string(table) == "partitions")
        ++g_partitionWrites;
}

QStringList csvLines(const std::string& csv)
{
    return QString::fromStdString(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    run::SweepResult m_grid; ///< the 2 × 2 grid, run once without a cache

    static std::vector<std::string> gridAxes()
    {
        return { "hbm.bandwidthGBpsPerStack=250,500", "interconnect.linkBandwidthGBpsPerCore=4:8:4" };
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void parsesAxes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QStringList>("values");
        QTest::addRow("integer range, stop on the grid")
            << u"hbm.bandwidthGBpsPerStack=125:1125:125"_s << u"hbm.bandwidthGBpsPerStack"_s
            << QStringList { u"125"_s, u"250"_s, u"375"_s, u"500"_s, u"625"_s, u"750"_s, u"875"_s, u"1000"_s,
                   u"1125"_s };
        QTest::addRow("decimal range without rounding noise")
            << u"interconnect.linkBandwidthGBpsPerCore=0.1:0.5:0.1"_s << u"interconnect.linkBandwidthGBpsPerCore"_s
            << QStringList { u"0.1"_s, u"0.2"_s, u"0.3"_s, u"0.4"_s, u"0.5"_s };
        QTest::addRow("stop off the grid is left out")
            << u"x=1:10:4"_s << u"x"_s << QStringList { u"1"_s, u"5"_s, u"9"_s };
        QTest::addRow("one value") << u"coresPerChip=16:16:1"_s << u"coresPerChip"_s << QStringList { u"16"_s };
        QTest::addRow("bare words are strings")
            << u"interconnect.topology=all-to-all, mesh2d"_s << u"interconnect.topology"_s
            << QStringList { u"\"all-to-all\""_s, u"\"mesh2d\""_s };
        QTest::addRow("number list") << u"coresPerChip=16, 32,64"_s << u"coresPerChip"_s
                                     << QStringList { u"16"_s, u"32"_s, u"64"_s };
        QTest::addRow("JSON pointer field")
            << u"/hbm/stacksPerChip=1,2"_s << u"/hbm/stacksPerChip"_s << QStringList { u"1"_s, u"2"_s };
        QTest::addRow("JSON literals kept")
            << u"x=true,\"quoted\""_s << u"x"_s << QStringList { u"true"_s, u"\"quoted\""_s };
    }

    void parsesAxes()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QStringList, values);
        const run::SweepAxisParse parsed = run::parseSweepAxis(text.toStdString());
        QVERIFY2(parsed.ok(), parsed.error.c_str());
        QCOMPARE(QString::fromStdString(parsed.axis.field), field);
        QStringList got;
        for (const std::string& value : parsed.axis.values)
            got << QString::fromStdString(value);
        QCOMPARE(got, values);
        QVERIFY(!parsed.axis.label.empty());
    }

    void labelsSayTheUnit()
    {
        QCOMPARE(run::parseSweepAxis("hbm.bandwidthGBpsPerStack=1,2").axis.label,
            std::string("HBM bandwidth per stack (GB/s)"));
        QCOMPARE(run::parseSweepAxis("/interconnect/linkBandwidthGBpsPerCore=1,2").axis.label,
            std::string("NoC link bandwidth per core (GB/s)"));
        // Every numeric field's label comes from the chip field table (engine/chip/chip_fields.cpp).
        QCOMPARE(run::parseSweepAxis("interChip.latencyCycles=1,2").axis.label,
            std::string(elk::chip::findChipField("/interChip/latencyCycles")->axisLabel));
        QCOMPARE(
            run::parseSweepAxis("interChip.latencyCycles=1,2").axis.label, std::string("Inter-chip latency (cycles)"));
    }

    void rejectsBadAxes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::addRow("no '='") << u"hbm.bandwidthGBpsPerStack"_s << u"expected field=start:stop:step"_s;
        QTest::addRow("no field") << u"=1:2:1"_s << u"no field before '='"_s;
        QTest::addRow("no values") << u"x="_s << u"no values"_s;
        QTest::addRow("two parts") << u"x=1:2"_s << u"(three numbers), got 2 parts"_s;
        QTest::addRow("four parts") << u"x=1:2:3:4"_s << u"got 4 parts"_s;
        QTest::addRow("start not a number") << u"x=a:2:1"_s << u"start 'a' is not a number"_s;
        QTest::addRow("step not a number") << u"x=1:2:fast"_s << u"step 'fast' is not a number"_s;
        QTest::addRow("zero step") << u"x=1:2:0"_s << u"step must be positive"_s;
        QTest::addRow("negative step") << u"x=1:2:-1"_s << u"step must be positive"_s;
        QTest::addRow("stop below start") << u"hbm.bandwidthGBpsPerStack=2:1:1"_s << u"stop below start"_s;
        QTest::addRow("too many values") << u"x=1:5000:1"_s << u"at most 1000 per axis"_s;
        QTest::addRow("empty list entry") << u"x=1,,2"_s << u"an empty value"_s;
        QTest::addRow("value twice") << u"x=1,2,1"_s << u"listed twice"_s;
    }

    void rejectsBadAxes()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const run::SweepAxisParse parsed = run::parseSweepAxis(text.toStdString());
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.rfind("--vary " + text.toStdString() + ": ", 0) == 0, parsed.error.c_str());
        QVERIFY2(parsed.error.find(says.toStdString()) != std::string::npos, parsed.error.c_str());
    }

    void presetsAreThePaperStudies()
    {
        std::set<std::string> names;
        for (const run::SweepPreset& preset : run::sweepPresets()) {
            names.insert(preset.name);
            QVERIFY(!preset.title.empty());
            for (const std::string& text : preset.varySpecs)
                QVERIFY2(run::parseSweepAxis(text).ok(), text.c_str());
        }
        QCOMPARE(names, (std::set<std::string> { "hbm-bandwidth", "noc-bandwidth", "core-count", "topology" }));
        // hbm-bandwidth spans 2–18 TB/s on the paper's chip.
        const run::SweepAxis hbm = axesOf(run::sweepPresets().front().varySpecs).front();
        for (const auto& [value, totalGBps] :
            { std::pair { hbm.values.front(), 2000.0 }, { hbm.values.back(), 18000.0 } }) {
            const run::ChipResolveResult chip = run::resolveChip("ipu-pod4-hbm", { hbm.field + "=" + value });
            QVERIFY(chip.ok());
            QCOMPARE(chip.spec.totalHbmBandwidthGBps(), totalGBps);
        }
    }

    void smallGridIsDeterministic()
    {
        NullRunControl control;
        m_grid = run::runSweep(sampleRequest(), axesOf(gridAxes()), nullptr, control, 1);
        AtomicRunControl counting;
        std::vector<int> seen;
        const run::SweepResult twoThreads = run::runSweep(
            sampleRequest(), axesOf(gridAxes()), nullptr, counting, 2, [&](const run::SweepResult& partial, int point) {
                seen.push_back(point); // serialised: no lock needed
                QVERIFY(partial.points[std::size_t(point)].done);
            });
        QCOMPARE(m_grid.points.size(), std::size_t(4));
        QCOMPARE(m_grid.doneCount(), 4);
        QCOMPARE(twoThreads.doneCount(), 4);
        QCOMPARE(m_grid.designs, run::knownDesigns());
        std::sort(seen.begin(), seen.end());
        QCOMPARE(seen, (std::vector<int> { 0, 1, 2, 3 }));
        QCOMPARE(counting.lastDone(), std::int64_t(4));
        QCOMPARE(counting.lastTotal(), std::int64_t(4));
        QCOMPARE(counting.lastStage(), std::string("sweep"));
        for (std::size_t p = 0; p < 4; ++p) {
            const run::SweepPoint& a = m_grid.points[p];
            QVERIFY2(a.error.empty(), a.error.c_str());
            QCOMPARE(a.index, (std::vector<int> { int(p / 2), int(p % 2) })); // first axis slowest
            QCOMPARE(a.latencyMs.size(), std::size_t(5));
            QVERIFY(!a.fromCache);
            QVERIFY(sameBits(a.latencyMs, twoThreads.points[p].latencyMs));
        }
        // More HBM bandwidth never hurts basic's latency; the grid really varies.
        QVERIFY(m_grid.points[2].latencyMs[0] < m_grid.points[0].latencyMs[0]);
    }

    void pointsEqualSingleRuns()
    {
        QCOMPARE(m_grid.points.size(), std::size_t(4));
        // Point (1, 0): HBM 500 GB/s per stack, link 4 GB/s per core.
        run::RunRequest request = sampleRequest();
        request.chipOverrides = { "hbm.bandwidthGBpsPerStack=500", "interconnect.linkBandwidthGBpsPerCore=4" };
        const run::RunSpecResult spec = run::resolveRunSpec(request);
        QVERIFY(spec.ok());
        NullRunControl control;
        const run::RunResult single = run::executeRun(spec.spec, control, 2);
        QVERIFY(single.ok());
        std::vector<double> latencies;
        for (const run::DesignRun& design : single.designs)
            latencies.push_back(design.simulated->latencyCycles / spec.spec.chip.clockHz * 1e3);
        QVERIFY(sameBits(m_grid.points[2].latencyMs, latencies));
    }

    void repeatIsServedFromTheCache()
    {
        store::OpenResult opened
            = store::ResultStore::open(QDir(m_dir.path()).filePath(QStringLiteral("sweep.sqlite")).toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        NullRunControl control;
        g_partitionWrites = 0;
        store::detail::setWriteHookForTests(&countPartitionWrites);
        const run::SweepResult cold
            = run::runSweep(sampleRequest(), axesOf(gridAxes()), opened.store.get(), control, 2);
        store::detail::setWriteHookForTests(nullptr);
        // Two link bandwidths = two partition keys, each searched (and stored) once; HBM shares them.
        QCOMPARE(g_partitionWrites.load(), 2);
        QCOMPARE(opened.store->partitionCount(), std::int64_t(2));
        QCOMPARE(opened.store->runCount(), std::int64_t(4));
        for (const run::SweepPoint& point : cold.points)
            QVERIFY(!point.fromCache);

        const run::SweepResult warm
            = run::runSweep(sampleRequest(), axesOf(gridAxes()), opened.store.get(), control, 2);
        QCOMPARE(warm.doneCount(), 4);
        for (std::size_t p = 0; p < 4; ++p) {
            QVERIFY(warm.points[p].fromCache);
            QVERIFY(sameBits(warm.points[p].latencyMs, cold.points[p].latencyMs));
            QVERIFY(sameBits(warm.points[p].latencyMs, m_grid.points[p].latencyMs));
        }
        // Sweep records are summaries: history shows them without detail.
        for (const store::RunRecordInfo& record : opened.store->history())
            QVERIFY(!record.hasDetail);
    }

    void csvHasOneRowPerPointAndDesign()
    {
        QCOMPARE(m_grid.points.size(), std::size_t(4));
        const QStringList lines = csvLines(run::sweepCsv(m_grid));
        QCOMPARE(lines.size(), 1 + 4 * 5);
        QCOMPARE(lines.front(),
            QStringLiteral(
                "hbm.bandwidthGBpsPerStack,interconnect.linkBandwidthGBpsPerCore,design,latency_ms,from_cache,error"));
        QCOMPARE(lines[1].section(QLatin1Char(','), 0, 2), QStringLiteral("250,4,basic"));
        QCOMPARE(lines[5].section(QLatin1Char(','), 0, 2), QStringLiteral("250,4,ideal"));
        QCOMPARE(lines[6].section(QLatin1Char(','), 0, 2), QStringLiteral("250,8,basic"));
        QCOMPARE(lines.back().section(QLatin1Char(','), 0, 2), QStringLiteral("500,8,ideal"));
        for (const QString& line : lines.mid(1)) {
            QCOMPARE(line.count(QLatin1Char(',')), 5);
            bool ok = false;
            QVERIFY(line.section(QLatin1Char(','), 3, 3).toDouble(&ok) > 0 && ok);
            QCOMPARE(line.section(QLatin1Char(','), 4, 4), QStringLiteral("0"));
        }
        // The number printed is the number computed (shortest round-trip form).
        QCOMPARE(lines[1].section(QLatin1Char(','), 3, 3).toDouble(), m_grid.points[0].latencyMs[0]);
    }

    void fieldsThatMustChangeTogetherFollow_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::addColumn<QString>("vary");
        QTest::addRow("mesh on an all-to-all chip gets a mesh size")
            << u"ipu-mk2-hbm"_s << u"interconnect.topology=all-to-all,mesh2d"_s;
        QTest::addRow("all-to-all on a mesh drops edge controllers")
            << u"ipu-pod4-hbm-mesh-edge-fed"_s << u"interconnect.topology=all-to-all,mesh2d"_s;
        QTest::addRow("core count on a mesh resizes the mesh") << u"ipu-pod4-hbm-mesh"_s << u"coresPerChip=736,1472"_s;
    }

    void fieldsThatMustChangeTogetherFollow()
    {
        QFETCH(QString, chip);
        QFETCH(QString, vary);
        NullRunControl control;
        const run::SweepResult result
            = run::runSweep(sampleRequest(chip.toStdString()), axesOf({ vary.toStdString() }), nullptr, control, 2);
        QCOMPARE(result.doneCount(), 2);
        for (const run::SweepPoint& point : result.points) {
            QVERIFY2(point.error.empty(), point.error.c_str());
            QCOMPARE(point.latencyMs.size(), std::size_t(5));
        }
        QVERIFY(!sameBits(result.points[0].latencyMs, result.points[1].latencyMs));
    }

    void invalidPointsSayWhy()
    {
        NullRunControl control;
        const run::SweepResult result
            = run::runSweep(sampleRequest(), axesOf({ "hbm.bandwidthGBpsPerStack=-5,500" }), nullptr, control, 2);
        QCOMPARE(result.doneCount(), 2);
        QVERIFY2(result.points[0].error.find("/chip/hbm/bandwidthGBpsPerStack") != std::string::npos,
            result.points[0].error.c_str());
        QVERIFY(result.points[0].latencyMs.empty());
        QVERIFY(result.points[1].error.empty());
        const QStringList lines = csvLines(run::sweepCsv(result));
        QCOMPARE(lines.size(), 1 + 2 * 5);
        QVERIFY(lines[1].startsWith(QStringLiteral("-5,basic,,0,")));
        QVERIFY(lines[1].contains(QStringLiteral("bandwidthGBpsPerStack")));
        // An unknown field fails every point by name.
        const run::SweepResult unknown
            = run::runSweep(sampleRequest(), axesOf({ "hbm.bogus=1,2" }), nullptr, control, 1);
        QCOMPARE(unknown.doneCount(), 2);
        QVERIFY2(unknown.points[0].error.find("unknown chip field 'hbm.bogus'") != std::string::npos,
            unknown.points[0].error.c_str());
    }

    void stopEndsTheSweep()
    {
        AtomicRunControl control;
        control.requestStop();
        const run::SweepResult result = run::runSweep(sampleRequest(), axesOf(gridAxes()), nullptr, control, 2);
        QCOMPARE(result.points.size(), std::size_t(4));
        QCOMPARE(result.doneCount(), 0);
        QCOMPARE(csvLines(run::sweepCsv(result)).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
