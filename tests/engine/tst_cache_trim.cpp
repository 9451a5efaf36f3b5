// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A bounded result cache: lookups record when a row was last used, and trim evicts in its order —
// rows of other engine versions, then the detail of runs (least recently used first; the run stays
// as a summary), partition tables, summaries — compacts the file under the limit, keeps what is
// left usable, and says so when a limit cannot be met.
#include "engine/store/result_store.h"

#include "engine/core/sha256.h"
#include "engine/run/sweep.h"
#include "engine/store/sweep_recorded.h"

#include <filesystem>

#include <sqlite3.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace elk;

namespace {

const char* const kSampleModel = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";

run::RunSpec sampleSpec(std::int64_t batch)
{
    run::RunRequest request;
    request.modelPath = kSampleModel;
    request.chip = "ipu-mk2-hbm";
    request.batch = batch;
    run::RunSpecResult resolved = run::resolveRunSpec(request);
    if (!resolved.ok())
        qFatal("%s", resolved.errors.front().message.c_str());
    return resolved.spec;
}

std::int64_t fileBytes(const std::string& path)
{
    std::int64_t bytes = 0;
    std::error_code ec;
    for (const char* suffix : { "", "-wal" }) {
        const auto size = std::filesystem::file_size(path + suffix, ec);
        bytes += ec ? 0 : std::int64_t(size);
    }
    return bytes;
}

/// Runs SQL on the file directly (what another engine version or an earlier day would have left).
void execOn(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    const std::string text = message != nullptr ? message : "";
    sqlite3_free(message);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, text.c_str());
}

std::string queryText(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* statement = nullptr;
    std::string value = "<none>";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK
        && sqlite3_step(statement) == SQLITE_ROW)
        value = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return value;
}

/// The file's size with its write-ahead log folded in (a trim under no real limit only checkpoints).
std::int64_t checkpointedBytes(store::ResultStore& cache)
{
    return cache.trim(std::int64_t(1) << 40).bytesAfter;
}

bool hasDetail(store::ResultStore& cache, const run::RunSpec& spec)
{
    return cache.loadDesigns(spec, true).has_value();
}

} // namespace

class TestCacheTrim : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_path;
    std::vector<run::RunSpec> m_specs; ///< batch 1, 2, 3: three detailed runs, one partition table

    std::unique_ptr<store::ResultStore> openStore()
    {
        store::OpenResult opened = store::ResultStore::open(m_path);
        if (!opened.store)
            qFatal("%s", opened.error.c_str());
        return std::move(opened.store);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = QDir(m_dir.path()).filePath(QStringLiteral("trim.sqlite")).toStdString();
        auto cache = openStore();
        NullRunControl control;
        for (std::int64_t batch : { 1, 2, 3 }) {
            m_specs.push_back(sampleSpec(batch));
            const run::RunResult result = run::runCached(m_specs.back(), cache.get(), control, 2);
            QVERIFY(result.ok());
        }
        QCOMPARE(cache->runCount(), std::int64_t(3));
    }

    void lookupsRecordTheirUse()
    {
        {
            auto cache = openStore();
            QVERIFY(hasDetail(*cache, m_specs[0]));
        } // written on close
        const std::string used = queryText(m_path,
            "SELECT used_utc FROM row_usage WHERE kind = 'run' AND key = '" + run::runSpecHash(m_specs[0]) + "'");
        QCOMPARE(used.size(), std::size_t(20)); // 2026-12-02T20:49:33Z
        QCOMPARE(
            queryText(m_path,
                "SELECT count(*) FROM row_usage WHERE kind = 'run' AND key = '" + run::runSpecHash(m_specs[1]) + "'"),
            std::string("0"));
    }

    void underTheLimitNothingGoes()
    {
        auto cache = openStore();
        const store::TrimReport report = cache->trim(std::int64_t(1) << 40);
        QVERIFY2(report.ok(), report.error.c_str());
        QCOMPARE(report.detailsDropped + report.runsRemoved + report.partitionsRemoved + report.staleRowsRemoved,
            std::int64_t(0));
        QCOMPARE(cache->runCount(), std::int64_t(3));
    }

    void detailGoesLeastRecentlyUsedFirst()
    {
        // Days apart, so the order does not depend on the clock's second: batch 2 is the oldest use.
        execOn(m_path,
            "INSERT OR REPLACE INTO row_usage(kind, key, used_utc) VALUES ('run', '" + run::runSpecHash(m_specs[0])
                + "', '2026-01-03T00:00:00Z'), ('run', '" + run::runSpecHash(m_specs[1])
                + "', '2026-01-01T00:00:00Z'), ('run', '" + run::runSpecHash(m_specs[2])
                + "', '2026-01-02T00:00:00Z')");
        auto cache = openStore();
        const std::int64_t before = checkpointedBytes(*cache);
        const store::TrimReport report = cache->trim(before - 1024);
        QVERIFY2(report.ok(), report.error.c_str());
        QCOMPARE(report.detailsDropped, std::int64_t(1));
        QVERIFY(report.bytesAfter <= before - 1024);
        QCOMPARE(report.bytesAfter, fileBytes(m_path));
        QVERIFY(hasDetail(*cache, m_specs[0]));
        QVERIFY(!hasDetail(*cache, m_specs[1]));
        QVERIFY(hasDetail(*cache, m_specs[2]));
        // The summary still serves sweeps and the history, with the same latencies.
        QVERIFY(cache->loadLatencies(m_specs[1]).has_value());
        QVERIFY(cache->loadDesigns(m_specs[1], false).has_value());
        QCOMPARE(cache->runCount(), std::int64_t(3));
    }

    void staleRowsGoBeforeAnyDetail()
    {
        // Batch 3's row as another engine version wrote it: no lookup of this engine can hit it.
        execOn(m_path,
            "UPDATE runs SET spec_json = json_set(spec_json, '$.engineVersion', '0.0.1-old') WHERE spec_hash = '"
                + run::runSpecHash(m_specs[2]) + "'");
        auto cache = openStore();
        const store::TrimReport report = cache->trim(checkpointedBytes(*cache) - 1024);
        QVERIFY2(report.ok(), report.error.c_str());
        QCOMPARE(report.staleRowsRemoved, std::int64_t(1));
        QCOMPARE(report.detailsDropped, std::int64_t(0));
        QCOMPARE(cache->runCount(), std::int64_t(2));
        QVERIFY(hasDetail(*cache, m_specs[0]));
    }

    void tightLimitsEvictDetailThenTablesThenSummaries()
    {
        auto cache = openStore();
        NullRunControl control;
        const std::int64_t before = checkpointedBytes(*cache);
        const store::TrimReport report = cache->trim(before / 2);
        QVERIFY2(report.ok(), report.error.c_str());
        QVERIFY(report.bytesAfter <= before / 2);
        QVERIFY(!hasDetail(*cache, m_specs[0])); // the last detail went before any table or summary
        QVERIFY(cache->loadLatencies(m_specs[0]).has_value() || report.partitionsRemoved > 0);
        // What is left still runs: a rerun is served or recomputed, with the same latencies.
        const std::vector<double> kept = cache->loadLatencies(m_specs[1]).value_or(std::vector<double> {});
        const run::RunResult again = run::runCached(m_specs[1], cache.get(), control, 2);
        QVERIFY(again.ok());
        if (!kept.empty())
            QCOMPARE(cache->loadLatencies(m_specs[1]).value(), kept);
    }

    void anImpossibleLimitSaysSo()
    {
        auto cache = openStore();
        const store::TrimReport report = cache->trim(1000);
        QVERIFY(!report.ok());
        QVERIFY2(report.error.find("nothing more to give up") != std::string::npos, report.error.c_str());
        QCOMPARE(cache->runCount(), std::int64_t(0));
        QCOMPARE(cache->partitionCount(), std::int64_t(0));
        // An emptied cache is still a cache.
        NullRunControl control;
        QVERIFY(run::runCached(m_specs[0], cache.get(), control, 2).ok());
        QCOMPARE(cache->runCount(), std::int64_t(1));
    }

    void trimmedSweepsReopenWhatIsLeft()
    {
        const std::string path = QDir(m_dir.path()).filePath(QStringLiteral("sweep.sqlite")).toStdString();
        store::OpenResult opened = store::ResultStore::open(path);
        QVERIFY(opened.store);
        run::RunRequest request;
        request.modelPath = kSampleModel;
        request.chip = "ipu-mk2-hbm";
        const run::SweepAxisParse axis = run::parseSweepAxis("hbm.bandwidthGBpsPerStack=250:1000:250");
        QVERIFY(axis.ok());
        NullRunControl control;
        run::runSweep(request, { axis.axis }, opened.store.get(), control, 2);
        const std::string hash = opened.store->sweeps().at(0).sweepHash;
        // Summaries are evicted oldest use first: two of the four go.
        for (int p = 0; p < 4; ++p) {
            execOn(path,
                "INSERT OR REPLACE INTO row_usage(kind, key, used_utc) SELECT 'run', key, '2026-01-0"
                    + std::to_string(p + 1) + "T00:00:00Z' FROM sweep_points WHERE point_index = " + std::to_string(p));
        }
        const std::int64_t perRun = std::stoll(queryText(path, "SELECT max(length(payload)) FROM runs"));
        const store::TrimReport report = opened.store->trim(checkpointedBytes(*opened.store) - perRun - perRun / 2);
        QVERIFY2(report.ok(), report.error.c_str());
        QVERIFY2(report.runsRemoved >= 1,
            qPrintable(QStringLiteral("%1 → %2 bytes, %3 tables, %4 runs removed, %5 per run")
                           .arg(report.bytesBefore)
                           .arg(report.bytesAfter)
                           .arg(report.partitionsRemoved)
                           .arg(report.runsRemoved)
                           .arg(perRun)));
        std::string error;
        const auto recorded = store::openRecordedSweep(*opened.store, hash, error);
        QVERIFY2(recorded, error.c_str());
        QCOMPARE(recorded->pointsWithResult, std::int64_t(4 - report.runsRemoved));
        QVERIFY(!recorded->result.points[0].done); // the oldest use went first
        QVERIFY(recorded->result.points[3].done);
    }
};

QTEST_GUILESS_MAIN(TestCacheTrim)
#include "tst_cache_trim.moc"
