// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk cache merge: the rows of other caches (sweep shards, MPI ranks, other machines) into this one.
#include "engine/store/result_store.h"
#include "engine/store/sqlite_statement.h"

#include <filesystem>

namespace elk::store {

namespace {

    constexpr std::int64_t kApplicationId = 0x454C4B53; // "ELKS", as result_store.cpp writes it

    std::int64_t pragmaInteger(sqlite3* db, const char* sql)
    {
        detail::Statement statement(db, sql);
        return statement.step() == SQLITE_ROW ? statement.integer(0) : -1;
    }

    /// Whether `source` is a result cache of this schema; why not, otherwise.
    std::string checkSource(const std::string& source)
    {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(source, ec))
            return source + ": no such cache file";
        sqlite3* db = nullptr;
        const int rc = sqlite3_open_v2(source.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
        std::string why;
        if (rc != SQLITE_OK) {
            why = source + ": cannot open: " + sqlite3_errstr(rc);
        } else {
            const std::int64_t application = pragmaInteger(db, "PRAGMA application_id");
            const std::int64_t version = pragmaInteger(db, "PRAGMA user_version");
            if (application != kApplicationId)
                why = source + ": not an Elk Studio result cache (application id " + std::to_string(application) + ")";
            else if (version != ResultStore::kSchemaVersion)
                why = source + ": cache schema version " + std::to_string(version) + ", this elk writes version "
                    + std::to_string(ResultStore::kSchemaVersion) + " (re-run the sweep with this elk)";
        }
        sqlite3_close(db);
        return why;
    }

    bool hasTable(sqlite3* db, const char* schema, const char* table)
    {
        detail::Statement statement(
            db, (std::string("SELECT 1 FROM ") + schema + ".sqlite_master WHERE type = 'table' AND name = ?1").c_str());
        statement.bind(1, std::string(table));
        return statement.step() == SQLITE_ROW;
    }

    /// The first key of `table` whose deterministic content differs between src and main, or "".
    std::string firstConflict(sqlite3* db, const std::string& sql)
    {
        detail::Statement statement(db, sql.c_str());
        return statement.step() == SQLITE_ROW ? statement.text(0) : std::string();
    }

    struct TableMerge {
        const char* table;
        const char* key; ///< what a conflict names
        std::string conflictSql; ///< a key present in both whose content differs
        std::string insertSql; ///< rows main lacks (or a detailed run over a summary)
    };

} // namespace

MergeReport ResultStore::mergeFrom(const std::string& sourcePath)
{
    MergeReport report;
    if (std::string why = checkSource(sourcePath); !why.empty()) {
        report.error = why;
        return report;
    }
    std::error_code ec;
    if (std::filesystem::equivalent(sourcePath, m_path, ec)) {
        report.error = sourcePath + ": is the cache merged into";
        return report;
    }
    const std::lock_guard lock(m_mutex);
    {
        detail::Statement attach(m_db, "ATTACH DATABASE ?1 AS src");
        attach.bind(1, sourcePath);
        if (const int rc = attach.step(); rc != SQLITE_DONE) {
            report.error = sourcePath + ": cannot attach: " + sqlite3_errmsg(m_db);
            return report;
        }
    }
    // Runs and searches are deterministic, so a key found twice must hold the same result. Wall times
    // inside payloads differ between processes: runs are compared by spec and latencies, the rest by
    // payload (which holds no time).
    const TableMerge tables[] = {
        { "runs", "run",
            "SELECT s.spec_hash FROM src.runs s JOIN main.runs m ON m.spec_hash = s.spec_hash "
            "WHERE s.spec_json != m.spec_json OR s.designs != m.designs OR s.latency_ms != m.latency_ms LIMIT 1",
            "INSERT OR REPLACE INTO main.runs SELECT s.* FROM src.runs s LEFT JOIN main.runs m ON m.spec_hash = "
            "s.spec_hash WHERE m.spec_hash IS NULL OR (s.has_detail = 1 AND m.has_detail = 0)" },
        { "partitions", "partition table",
            "SELECT s.partition_key FROM src.partitions s JOIN main.partitions m ON m.partition_key = s.partition_key "
            "WHERE s.payload != m.payload LIMIT 1",
            "INSERT OR IGNORE INTO main.partitions SELECT * FROM src.partitions" },
        { "hlo_regions", "StableHLO region",
            "SELECT s.region_hash FROM src.hlo_regions s JOIN main.hlo_regions m USING (hardware_hash, estimator, "
            "estimator_version, region_hash, engine_version) WHERE s.seconds != m.seconds OR s.breakdown != "
            "m.breakdown "
            "LIMIT 1",
            "INSERT OR IGNORE INTO main.hlo_regions SELECT * FROM src.hlo_regions" },
        { "parity_runs", "parity run",
            "SELECT s.key_hash FROM src.parity_runs s JOIN main.parity_runs m ON m.key_hash = s.key_hash AND "
            "m.engine_version = s.engine_version WHERE s.payload != m.payload OR s.key_json != m.key_json LIMIT 1",
            "INSERT OR IGNORE INTO main.parity_runs SELECT * FROM src.parity_runs" },
        { "sweeps", "sweep",
            "SELECT s.sweep_hash FROM src.sweeps s JOIN main.sweeps m USING (sweep_hash) "
            "WHERE s.definition_json != m.definition_json OR s.point_count != m.point_count LIMIT 1",
            "INSERT OR IGNORE INTO main.sweeps SELECT * FROM src.sweeps" },
        // The same point of one sweep names the same row in every shard (its key is the spec's hash).
        { "sweep_points", "sweep point",
            "SELECT s.sweep_hash || ' #' || s.point_index FROM src.sweep_points s JOIN main.sweep_points m "
            "USING (sweep_hash, point_index) WHERE s.kind != m.kind OR s.key != m.key LIMIT 1",
            "INSERT OR IGNORE INTO main.sweep_points SELECT * FROM src.sweep_points" },
        // When a row was last used is no result: the later time wins.
        { "row_usage", "usage", "SELECT '' WHERE 0",
            "INSERT INTO main.row_usage SELECT * FROM src.row_usage WHERE true "
            "ON CONFLICT(kind, key) DO UPDATE SET used_utc = max(used_utc, excluded.used_utc)" },
    };
    std::int64_t usageRows = 0, sweepRows = 0;
    std::int64_t* counts[] = { &report.runs, &report.partitions, &report.regions, &report.parityRuns, &sweepRows,
        &report.sweepPoints, &usageRows };
    std::string error;
    const bool written = writeTransaction(
        "merge",
        [&](sqlite3* db) {
            for (std::size_t t = 0; t < std::size(tables); ++t) {
                const TableMerge& merge = tables[t];
                if (!hasTable(db, "src", merge.table))
                    continue; // an older file without that (additive) table
                if (const std::string key = firstConflict(db, merge.conflictSql); !key.empty()) {
                    report.error = sourcePath + ": " + merge.key + " " + key + " differs from the one in " + m_path
                        + " (results are deterministic: one of the two files was written by another engine "
                          "version or was changed)";
                    return SQLITE_CONSTRAINT;
                }
                detail::Statement insert(db, merge.insertSql.c_str());
                if (const int rc = insert.step(); rc != SQLITE_DONE)
                    return rc;
                *counts[t] = sqlite3_changes64(db);
            }
            return SQLITE_DONE;
        },
        &error);
    {
        detail::Statement detach(m_db, "DETACH DATABASE src");
        detach.step();
    }
    if (!written && report.error.empty())
        report.error = error;
    if (!report.error.empty())
        report.runs = report.partitions = report.regions = report.parityRuns = report.sweepPoints = 0;
    return report;
}

CacheStats ResultStore::stats()
{
    {
        const std::lock_guard lock(m_mutex);
        flushUsageLocked();
    }
    CacheStats stats;
    std::error_code ec;
    for (const char* suffix : { "", "-wal" }) {
        const auto bytes = std::filesystem::file_size(m_path + suffix, ec);
        stats.fileBytes += ec ? 0 : std::int64_t(bytes);
    }
    const std::lock_guard lock(m_mutex);
    struct Query {
        const char* name;
        const char* table;
        const char* sql;
    };
    const Query queries[] = {
        { "runs (with detail)", "runs",
            "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(max(length(payload)), 0), "
            "coalesce(min(created_utc), '') FROM runs WHERE has_detail = 1" },
        { "runs (summaries)", "runs",
            "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(max(length(payload)), 0), "
            "coalesce(min(created_utc), '') FROM runs WHERE has_detail = 0" },
        { "partition tables", "partitions",
            "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(max(length(payload)), 0), "
            "coalesce(min(created_utc), '') FROM partitions" },
        { "StableHLO regions", "hlo_regions",
            "SELECT count(*), coalesce(sum(length(breakdown)), 0), coalesce(max(length(breakdown)), 0), '' FROM "
            "hlo_regions" },
        { "parity runs", "parity_runs",
            "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(max(length(payload)), 0), "
            "coalesce(min(created_utc), '') FROM parity_runs" },
        { "sweep records", "sweeps",
            "SELECT count(*), coalesce(sum(length(definition_json)), 0) + (SELECT coalesce(sum(length(key) + "
            "length(error) + 16), 0) FROM sweep_points), coalesce(max(length(definition_json)), 0), "
            "coalesce(min(created_utc), '') FROM sweeps" },
    };
    for (const Query& query : queries) {
        if (!hasTable(m_db, "main", query.table))
            continue;
        detail::Statement statement(m_db, query.sql);
        if (statement.step() != SQLITE_ROW)
            continue;
        stats.kinds.push_back(
            { query.name, statement.integer(0), statement.integer(1), statement.integer(2), statement.text(3) });
    }
    return stats;
}

} // namespace elk::store
