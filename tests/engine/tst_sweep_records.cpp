// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps recorded in the result cache: one record per sweep (a repeat adds none), reopened from the
// cache alone with the latencies bit for bit and failed points with their errors, shards merged into
// one record whose CSV equals a single-process sweep's, and lookups by hash prefix with their errors.
#include "engine/run/sweep.h"

#include "engine/store/result_store.h"
#include "engine/store/sweep_recorded.h"

#include <bit>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace elk;

namespace {

const char* const kSampleModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";

run::RunRequest sampleRequest()
{
    run::RunRequest request;
    request.modelPath = kSampleModel;
    request.chip = "ipu-mk2-hbm";
    return request;
}

/// 3 × 2 points; HBM −5 is no valid chip, so two points fail before they run.
std::vector<run::SweepAxis> gridAxes()
{
    std::vector<run::SweepAxis> axes;
    for (const char* text : { "hbm.bandwidthGBpsPerStack=-5,250,500", "interconnect.linkBandwidthGBpsPerCore=4:8:4" }) {
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

} // namespace

class TestSweepRecords : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_warmCsv; ///< the grid's CSV as a sweep served wholly from the cache writes it
    run::SweepResult m_cold;

    std::unique_ptr<store::ResultStore> openStore(const QString& name)
    {
        store::OpenResult opened = store::ResultStore::open(QDir(m_dir.path()).filePath(name).toStdString());
        if (!opened.store)
            qFatal("%s", opened.error.c_str());
        return std::move(opened.store);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void sweepIsRecordedOnce()
    {
        auto cache = openStore(QStringLiteral("one.sqlite"));
        NullRunControl control;
        m_cold = run::runSweep(sampleRequest(), gridAxes(), cache.get(), control, 2);
        QCOMPARE(m_cold.doneCount(), 6);
        const run::SweepResult warm = run::runSweep(sampleRequest(), gridAxes(), cache.get(), control, 2);
        m_warmCsv = run::sweepCsv(warm);
        const std::vector<store::SweepRecordInfo> sweeps = cache->sweeps();
        QCOMPARE(sweeps.size(), std::size_t(1));
        QCOMPARE(sweeps[0].gridPoints, std::int64_t(6));
        QCOMPARE(sweeps[0].recordedPoints, std::int64_t(6));
        QCOMPARE(sweeps[0].sweepHash.size(), std::size_t(64));
        QVERIFY2(sweeps[0].title.find("llama2-13b-layer-decode.elk.json decode b1 on ipu-mk2-hbm: HBM bandwidth per "
                                      "stack (GB/s) × NoC link bandwidth per core (GB/s)")
                != std::string::npos,
            sweeps[0].title.c_str());
        // Another grid is another sweep.
        run::runSweep(sampleRequest(), { gridAxes()[1] }, cache.get(), control, 2);
        QCOMPARE(cache->sweeps().size(), std::size_t(2));
    }

    void reopensFromTheCacheAlone()
    {
        auto cache = openStore(QStringLiteral("one.sqlite"));
        std::string hash;
        for (const store::SweepRecordInfo& info : cache->sweeps())
            hash = info.gridPoints == 6 ? info.sweepHash : hash;
        std::string error;
        const auto recorded = store::openRecordedSweep(*cache, hash.substr(0, 10), error);
        QVERIFY2(recorded, error.c_str());
        QCOMPARE(recorded->pointsWithResult, std::int64_t(4));
        QVERIFY(!recorded->parity);
        const run::SweepResult& result = recorded->result;
        QCOMPARE(result.designs, m_cold.designs);
        QCOMPARE(result.axes.size(), std::size_t(2));
        QCOMPARE(result.axes[0].values, m_cold.axes[0].values);
        for (std::size_t p = 0; p < 6; ++p) {
            QVERIFY(result.points[p].done);
            QCOMPARE(result.points[p].index, m_cold.points[p].index);
            QCOMPARE(result.points[p].error, m_cold.points[p].error);
            QVERIFY(sameBits(result.points[p].latencyMs, m_cold.points[p].latencyMs));
        }
        QVERIFY(result.points[0].error.find("bandwidthGBpsPerStack") != std::string::npos);
        QCOMPARE(run::sweepCsv(result), m_warmCsv);
    }

    void shardsMergeIntoOneRecord()
    {
        NullRunControl control;
        for (int k = 0; k < 2; ++k) {
            auto shard = openStore(QStringLiteral("shard%1.sqlite").arg(k));
            const run::SweepResult part
                = run::runSweep(sampleRequest(), gridAxes(), shard.get(), control, 1, {}, nullptr, { k, 2 });
            QCOMPARE(part.doneCount(), 3);
            QCOMPARE(shard->sweeps().at(0).recordedPoints, std::int64_t(3));
        }
        auto merged = openStore(QStringLiteral("merged.sqlite"));
        for (int k = 0; k < 2; ++k) {
            const store::MergeReport report
                = merged->mergeFrom(QDir(m_dir.path()).filePath(QStringLiteral("shard%1.sqlite").arg(k)).toStdString());
            QVERIFY2(report.ok(), report.error.c_str());
            QCOMPARE(report.sweepPoints, std::int64_t(3));
        }
        const std::vector<store::SweepRecordInfo> sweeps = merged->sweeps();
        QCOMPARE(sweeps.size(), std::size_t(1));
        QCOMPARE(sweeps[0].recordedPoints, std::int64_t(6));
        std::string error;
        const auto recorded = store::openRecordedSweep(*merged, sweeps[0].sweepHash, error);
        QVERIFY2(recorded, error.c_str());
        QCOMPARE(run::sweepCsv(recorded->result), m_warmCsv);
    }

    void badLookupsSayWhy()
    {
        auto cache = openStore(QStringLiteral("one.sqlite"));
        std::string error;
        QVERIFY(!store::openRecordedSweep(*cache, "ffffffffffff", error));
        QVERIFY2(error.find("no sweep ffffffffffff") != std::string::npos, error.c_str());
        QVERIFY(!store::openRecordedSweep(*cache, "XYZ", error));
        QVERIFY2(error.find("not a sweep hash") != std::string::npos, error.c_str());
        // Two sweeps: the empty-ish prefix of one hex digit may name both or one, never silently the wrong one.
        const std::vector<store::SweepRecordInfo> sweeps = cache->sweeps();
        QCOMPARE(sweeps.size(), std::size_t(2));
        std::size_t common = 0;
        while (sweeps[0].sweepHash[common] == sweeps[1].sweepHash[common])
            ++common;
        if (common > 0) {
            QVERIFY(!store::openRecordedSweep(*cache, sweeps[0].sweepHash.substr(0, common), error));
            QVERIFY2(error.find("more than one sweep") != std::string::npos, error.c_str());
        }
        const auto one = store::openRecordedSweep(*cache, sweeps[0].sweepHash.substr(0, common + 1), error);
        QVERIFY2(one, error.c_str());
        QCOMPARE(one->info.sweepHash, sweeps[0].sweepHash);
    }
};

QTEST_GUILESS_MAIN(TestSweepRecords)
#include "tst_sweep_records.moc"
