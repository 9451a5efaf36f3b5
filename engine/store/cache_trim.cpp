// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A bounded result cache: when each row last served a lookup (row_usage), and elk cache trim, which
// evicts what can never hit, then the least recently used, and compacts the file.
#include "engine/core/build_fingerprint.h"
#include "engine/store/payload_codec.h"
#include "engine/store/result_store.h"
#include "engine/store/sqlite_statement.h"

#include <algorithm>
#include <ctime>
#include <filesystem>

namespace elk::store {

namespace {

    /// Lookups are batched: a sweep served from the cache looks up a row per point.
    constexpr std::size_t kUsageBatch = 256;
    constexpr int kMaxTrimRounds = 8;

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

    int exec(sqlite3* db, const char* sql)
    {
        return sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    }

    /// A row trim may give up, in eviction order.
    struct Candidate {
        int stage = 0; ///< 1 detail of a run, 2 partition table, 3 summary / parity run / region
        std::string usedUtc;
        std::string kind; ///< "run" (detail), "partition", "summary", "parity", "region"
        std::string key[4]; ///< the row's key (a region's has four parts)
        std::int64_t bytes = 0;
    };

    const char* const kCandidatesSql = R"sql(
SELECT 1, coalesce(u.used_utc, r.created_utc), 'run', r.spec_hash, '', '', '', length(r.payload)
  FROM runs r LEFT JOIN row_usage u ON u.kind = 'run' AND u.key = r.spec_hash WHERE r.has_detail = 1
UNION ALL
SELECT 2, coalesce(u.used_utc, p.created_utc), 'partition', p.partition_key, '', '', '',
       length(p.payload) + length(p.partition_key)
  FROM partitions p LEFT JOIN row_usage u ON u.kind = 'partition' AND u.key = p.partition_key
UNION ALL
SELECT 3, coalesce(u.used_utc, r.created_utc), 'summary', r.spec_hash, '', '', '',
       length(r.payload) + length(r.spec_json) + length(r.latency_ms)
  FROM runs r LEFT JOIN row_usage u ON u.kind = 'run' AND u.key = r.spec_hash WHERE r.has_detail = 0
UNION ALL
SELECT 3, coalesce(u.used_utc, p.created_utc), 'parity', p.key_hash, '', '', '', length(p.payload) + length(p.key_json)
  FROM parity_runs p LEFT JOIN row_usage u ON u.kind = 'parity' AND u.key = p.key_hash
UNION ALL
SELECT 3, coalesce(u.used_utc, ''), 'region', h.hardware_hash, h.estimator, h.estimator_version, h.region_hash,
       length(h.breakdown) + length(h.hardware_hash) + length(h.region_hash) + 16
  FROM hlo_regions h LEFT JOIN row_usage u ON u.kind = 'region'
       AND u.key = h.hardware_hash || '|' || h.estimator || '|' || h.estimator_version || '|' || h.region_hash
ORDER BY 1, 2, 4, 5, 6, 7)sql";

    /// Deletes rows no lookup of this engine can hit (another engine version is part of every key).
    int removeStale(sqlite3* db, TrimReport& report)
    {
        const std::string version = engineBuildId();
        const char* const statements[] = {
            "DELETE FROM runs WHERE coalesce(json_extract(spec_json, '$.engineVersion'), '') != ?1",
            "DELETE FROM parity_runs WHERE engine_version != ?1",
            "DELETE FROM hlo_regions WHERE engine_version != ?1",
        };
        for (const char* sql : statements) {
            detail::Statement remove(db, sql);
            remove.bind(1, version);
            if (const int rc = remove.step(); rc != SQLITE_DONE)
                return rc;
            report.staleRowsRemoved += sqlite3_changes64(db);
        }
        return SQLITE_DONE;
    }

    /// Gives up one candidate; returns the SQLite code and adds the bytes it freed.
    int evict(sqlite3* db, const Candidate& row, TrimReport& report, std::int64_t& freed)
    {
        if (row.kind == "run") {
            // The detail goes, the run stays as the summary a sweep or the history list still uses.
            detail::Statement select(db, "SELECT payload FROM runs WHERE spec_hash = ?1");
            select.bind(1, row.key[0]);
            if (select.step() != SQLITE_ROW)
                return SQLITE_DONE;
            const std::string payload = select.blob(0);
            const auto designs = detail::decodeDesigns(payload);
            detail::Statement update(db,
                designs ? "UPDATE runs SET payload = ?2, has_detail = 0 WHERE spec_hash = ?1"
                        : "DELETE FROM runs WHERE spec_hash = ?1"); // unreadable: a miss anyway
            update.bind(1, row.key[0]);
            std::string summary;
            if (designs) {
                summary = detail::encodeDesigns(*designs, false);
                update.bindBlob(2, summary);
            }
            const int rc = update.step();
            if (rc == SQLITE_DONE) {
                freed += std::int64_t(payload.size()) - std::int64_t(summary.size());
                (designs ? report.detailsDropped : report.runsRemoved) += 1;
            }
            return rc;
        }
        const char* sql = row.kind == "partition" ? "DELETE FROM partitions WHERE partition_key = ?1"
            : row.kind == "summary"               ? "DELETE FROM runs WHERE spec_hash = ?1"
            : row.kind == "parity"                ? "DELETE FROM parity_runs WHERE key_hash = ?1"
                                   : "DELETE FROM hlo_regions WHERE hardware_hash = ?1 AND estimator = ?2 "
                                     "AND estimator_version = ?3 AND region_hash = ?4";
        detail::Statement remove(db, sql);
        const int parts = row.kind == "region" ? 4 : 1;
        for (int p = 0; p < parts; ++p)
            remove.bind(p + 1, row.key[p]);
        const int rc = remove.step();
        if (rc == SQLITE_DONE && sqlite3_changes64(db) > 0) {
            freed += row.bytes;
            std::int64_t& count = row.kind == "partition" ? report.partitionsRemoved
                : row.kind == "summary"                   ? report.runsRemoved
                : row.kind == "parity"                    ? report.parityRunsRemoved
                                                          : report.regionsRemoved;
            ++count;
        }
        return rc;
    }

    /// Sweep points whose result went, sweeps with no point left, usage of rows that went.
    int removeOrphans(sqlite3* db, TrimReport& report)
    {
        int rc = exec(db,
            "DELETE FROM sweep_points WHERE key != '' AND NOT EXISTS (SELECT 1 FROM runs WHERE spec_hash = key) "
            "AND NOT EXISTS (SELECT 1 FROM parity_runs WHERE key_hash = key)");
        if (rc != SQLITE_OK)
            return rc;
        rc = exec(db,
            "DELETE FROM sweep_points WHERE sweep_hash NOT IN (SELECT sweep_hash FROM sweep_points WHERE key != '')");
        if (rc != SQLITE_OK)
            return rc;
        rc = exec(db, "DELETE FROM sweeps WHERE sweep_hash NOT IN (SELECT sweep_hash FROM sweep_points)");
        if (rc != SQLITE_OK)
            return rc;
        report.sweepsRemoved += sqlite3_changes64(db);
        return exec(db,
            "DELETE FROM row_usage WHERE (kind = 'run' AND key NOT IN (SELECT spec_hash FROM runs)) "
            "OR (kind = 'partition' AND key NOT IN (SELECT partition_key FROM partitions)) "
            "OR (kind = 'parity' AND key NOT IN (SELECT key_hash FROM parity_runs))");
    }

} // namespace

std::string regionUsageKey(const std::string& hardwareHash, const std::string& estimator,
    const std::string& estimatorVersion, const std::string& regionHash)
{
    return hardwareHash + "|" + estimator + "|" + estimatorVersion + "|" + regionHash;
}

void ResultStore::noteUseLocked(const char* kind, const std::string& key)
{
    m_usage[{ kind, key }] = detail::utcNowText();
    if (m_usage.size() >= kUsageBatch)
        flushUsageLocked();
}

void ResultStore::flushUsageLocked()
{
    if (m_usage.empty() || m_db == nullptr)
        return;
    // Best effort: a read-only or busy cache keeps its older times (trim then evicts a little early).
    writeTransaction(
        "row_usage",
        [&](sqlite3* db) {
            detail::Statement upsert(db,
                "INSERT INTO row_usage(kind, key, used_utc) VALUES (?1, ?2, ?3) "
                "ON CONFLICT(kind, key) DO UPDATE SET used_utc = max(used_utc, excluded.used_utc)");
            for (const auto& [row, usedUtc] : m_usage) {
                sqlite3_reset(upsert.raw());
                upsert.bind(1, row.first);
                upsert.bind(2, row.second);
                upsert.bind(3, usedUtc);
                if (const int rc = upsert.step(); rc != SQLITE_DONE)
                    return rc;
            }
            return SQLITE_DONE;
        },
        nullptr);
    m_usage.clear();
}

TrimReport ResultStore::trim(std::int64_t maxBytes)
{
    TrimReport report;
    const std::lock_guard lock(m_mutex);
    flushUsageLocked();
    exec(m_db, "PRAGMA wal_checkpoint(TRUNCATE)");
    report.bytesBefore = report.bytesAfter = fileBytes(m_path);
    bool staleDone = false;
    for (int round = 0; round < kMaxTrimRounds && report.bytesAfter > maxBytes; ++round) {
        bool exhausted = false;
        std::string error;
        const bool written = writeTransaction(
            "trim",
            [&](sqlite3* db) {
                int rc = SQLITE_DONE;
                if (!staleDone) {
                    // A round of its own: after compaction the next round measures what is still over.
                    staleDone = true;
                    const std::int64_t before = report.staleRowsRemoved;
                    if ((rc = removeStale(db, report)) != SQLITE_DONE)
                        return rc;
                    if (report.staleRowsRemoved > before) {
                        const int orphans = removeOrphans(db, report);
                        return orphans == SQLITE_OK ? SQLITE_DONE : orphans;
                    }
                }
                std::vector<Candidate> candidates;
                {
                    detail::Statement select(db, kCandidatesSql);
                    while ((rc = select.step()) == SQLITE_ROW) {
                        Candidate row;
                        row.stage = int(select.integer(0));
                        row.usedUtc = select.text(1);
                        row.kind = select.text(2);
                        for (int p = 0; p < 4; ++p)
                            row.key[p] = select.text(3 + p);
                        row.bytes = select.integer(7);
                        candidates.push_back(std::move(row));
                    }
                    if (rc != SQLITE_DONE)
                        return rc;
                }
                // Payload bytes are most of the file; a round frees a little more than the excess, and
                // the next round (after compaction) measures again.
                const std::int64_t need = (report.bytesAfter - maxBytes) + (report.bytesAfter - maxBytes) / 20;
                std::int64_t freed = 0;
                std::size_t next = 0;
                for (; next < candidates.size() && freed < need; ++next) {
                    if ((rc = evict(db, candidates[next], report, freed)) != SQLITE_DONE)
                        return rc;
                }
                // Nothing left to give up; a detail dropped this round can still go as a summary next round.
                exhausted = candidates.empty();
                const int orphans = removeOrphans(db, report);
                return orphans == SQLITE_OK ? SQLITE_DONE : orphans;
            },
            &error);
        if (!written) {
            report.error = error;
            break;
        }
        if (const int rc = exec(m_db, "VACUUM"); rc != SQLITE_OK) {
            report.error = "rows were removed but the file could not be compacted (" + std::string(sqlite3_errmsg(m_db))
                + "); run elk cache trim again when nothing else uses the cache";
            break;
        }
        exec(m_db, "PRAGMA wal_checkpoint(TRUNCATE)");
        report.bytesAfter = fileBytes(m_path);
        if (exhausted && report.bytesAfter > maxBytes) {
            report.error = "the cache holds nothing more to give up: its empty tables take "
                + std::to_string(report.bytesAfter) + " bytes, more than the limit";
            break;
        }
    }
    if (report.ok() && report.bytesAfter > maxBytes)
        report.error = "still " + std::to_string(report.bytesAfter) + " bytes after " + std::to_string(kMaxTrimRounds)
            + " rounds; run elk cache trim again";
    return report;
}

} // namespace elk::store
