// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The StableHLO region cache and the artifact-parity tables of the result store.
#include "engine/core/build_fingerprint.h"
#include "engine/core/sha256.h"
#include "engine/store/result_store.h"
#include "engine/store/sqlite_statement.h"

namespace elk::store {

std::optional<CachedRegion> ResultStore::loadRegion(const RegionCacheKey& key)
{
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db,
        "SELECT seconds, breakdown FROM hlo_regions WHERE hardware_hash = ?1 AND estimator = ?2 AND "
        "estimator_version = ?3 AND region_hash = ?4 AND engine_version = ?5");
    select.bind(1, key.hardwareHash);
    select.bind(2, key.estimator);
    select.bind(3, key.estimatorVersion);
    select.bind(4, key.regionHash);
    select.bind(5, engineBuildId());
    if (select.step() != SQLITE_ROW)
        return std::nullopt;
    CachedRegion region;
    region.seconds = sqlite3_column_double(select.raw(), 0);
    region.breakdown = select.text(1);
    noteUseLocked("region", regionUsageKey(key.hardwareHash, key.estimator, key.estimatorVersion, key.regionHash));
    return region;
}

bool ResultStore::saveRegions(const std::vector<std::pair<RegionCacheKey, CachedRegion>>& rows, std::string* error)
{
    if (rows.empty())
        return true;
    const std::lock_guard lock(m_mutex);
    return writeTransaction(
        "hlo_regions",
        [&](sqlite3* db) {
            detail::Statement insert(db,
                "INSERT OR REPLACE INTO hlo_regions(hardware_hash, estimator, estimator_version, region_hash, "
                "engine_version, seconds, breakdown) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
            for (const auto& [key, region] : rows) {
                sqlite3_reset(insert.raw());
                insert.bind(1, key.hardwareHash);
                insert.bind(2, key.estimator);
                insert.bind(3, key.estimatorVersion);
                insert.bind(4, key.regionHash);
                insert.bind(5, engineBuildId());
                sqlite3_bind_double(insert.raw(), 6, region.seconds);
                insert.bind(7, region.breakdown);
                const int rc = insert.step();
                if (rc != SQLITE_DONE)
                    return rc;
            }
            return SQLITE_DONE;
        },
        error);
}

std::int64_t ResultStore::regionCount()
{
    const std::lock_guard lock(m_mutex);
    detail::Statement count(m_db, "SELECT count(*) FROM hlo_regions");
    return count.step() == SQLITE_ROW ? count.integer(0) : 0;
}

std::optional<std::string> ResultStore::loadParityRun(const std::string& keyJson)
{
    const std::lock_guard lock(m_mutex);
    detail::Statement select(
        m_db, "SELECT key_json, payload FROM parity_runs WHERE key_hash = ?1 AND engine_version = ?2");
    const std::string hash = sha256Hex(keyJson);
    select.bind(1, hash);
    select.bind(2, engineBuildId());
    if (select.step() != SQLITE_ROW || select.text(0) != keyJson)
        return std::nullopt;
    noteUseLocked("parity", hash);
    return select.text(1);
}

bool ResultStore::saveParityRun(const std::string& keyJson, const std::string& payloadJson, std::string* error)
{
    const std::lock_guard lock(m_mutex);
    return writeTransaction(
        "parity_runs",
        [&](sqlite3* db) {
            detail::Statement insert(db,
                "INSERT OR REPLACE INTO parity_runs(key_hash, key_json, engine_version, created_utc, payload) "
                "VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?4)");
            insert.bind(1, sha256Hex(keyJson));
            insert.bind(2, keyJson);
            insert.bind(3, engineBuildId());
            insert.bind(4, payloadJson);
            return insert.step();
        },
        error);
}

} // namespace elk::store
