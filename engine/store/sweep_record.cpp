// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps recorded in the result cache: a definition and, per point, the row its result is in, so
// that a cache merged from shards lists its sweeps and reopens them without the model file.
#include "engine/core/build_fingerprint.h"
#include "engine/core/sha256.h"
#include "engine/store/result_store.h"
#include "engine/store/sqlite_statement.h"

namespace elk::store {

bool ResultStore::saveSweep(const std::string& definitionJson, const std::string& title, std::int64_t gridPoints,
    const std::vector<SweepRecordPoint>& points, std::string* error)
{
    const std::string hash = sha256Hex(definitionJson);
    const std::lock_guard lock(m_mutex);
    return writeTransaction(
        "sweeps",
        [&](sqlite3* db) {
            detail::Statement sweep(db,
                "INSERT OR IGNORE INTO sweeps(sweep_hash, definition_json, title, created_utc, point_count) "
                "VALUES (?1, ?2, ?3, ?4, ?5)");
            sweep.bind(1, hash);
            sweep.bind(2, definitionJson);
            sweep.bind(3, title);
            sweep.bind(4, detail::utcNowText());
            sweep.bind(5, gridPoints);
            if (const int rc = sweep.step(); rc != SQLITE_DONE)
                return rc;
            detail::Statement point(db,
                "INSERT OR REPLACE INTO sweep_points(sweep_hash, point_index, kind, key, error) "
                "VALUES (?1, ?2, ?3, ?4, ?5)");
            for (const SweepRecordPoint& p : points) {
                sqlite3_reset(point.raw());
                point.bind(1, hash);
                point.bind(2, p.index);
                point.bind(3, std::string(p.parity ? "parity" : "run"));
                point.bind(4, p.key);
                point.bind(5, p.error);
                if (const int rc = point.step(); rc != SQLITE_DONE)
                    return rc;
            }
            return SQLITE_DONE;
        },
        error);
}

std::vector<SweepRecordInfo> ResultStore::sweeps()
{
    std::vector<SweepRecordInfo> list;
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db, R"sql(
SELECT s.sweep_hash, s.title, s.created_utc, s.point_count,
       (SELECT count(*) FROM sweep_points p WHERE p.sweep_hash = s.sweep_hash)
FROM sweeps s ORDER BY s.created_utc DESC, s.sweep_hash)sql");
    while (select.step() == SQLITE_ROW) {
        SweepRecordInfo info;
        info.sweepHash = select.text(0);
        info.title = select.text(1);
        info.createdUtc = select.text(2);
        info.gridPoints = select.integer(3);
        info.recordedPoints = select.integer(4);
        list.push_back(std::move(info));
    }
    return list;
}

std::optional<ResultStore::StoredSweep> ResultStore::storedSweep(const std::string& hashOrPrefix, std::string* error)
{
    const auto fail = [&](const std::string& why) -> std::optional<StoredSweep> {
        if (error != nullptr)
            *error = why;
        return std::nullopt;
    };
    if (hashOrPrefix.empty() || hashOrPrefix.find_first_not_of("0123456789abcdef") != std::string::npos)
        return fail("'" + hashOrPrefix + "' is not a sweep hash (lower-case hex; elk cache sweeps lists them)");
    const std::lock_guard lock(m_mutex);
    StoredSweep stored;
    {
        detail::Statement select(m_db,
            "SELECT sweep_hash, title, created_utc, point_count, definition_json FROM sweeps "
            "WHERE substr(sweep_hash, 1, length(?1)) = ?1 ORDER BY sweep_hash LIMIT 2");
        select.bind(1, hashOrPrefix);
        int found = 0;
        while (select.step() == SQLITE_ROW) {
            if (++found > 1)
                return fail("'" + hashOrPrefix + "' names more than one sweep: give more of the hash");
            stored.info.sweepHash = select.text(0);
            stored.info.title = select.text(1);
            stored.info.createdUtc = select.text(2);
            stored.info.gridPoints = select.integer(3);
            stored.definitionJson = select.text(4);
        }
        if (found == 0)
            return fail("no sweep " + hashOrPrefix + " in " + m_path + " (elk cache sweeps lists them)");
    }
    detail::Statement points(
        m_db, "SELECT point_index, kind, key, error FROM sweep_points WHERE sweep_hash = ?1 ORDER BY point_index");
    points.bind(1, stored.info.sweepHash);
    while (points.step() == SQLITE_ROW) {
        SweepRecordPoint point;
        point.index = points.integer(0);
        point.parity = points.text(1) == "parity";
        point.key = points.text(2);
        point.error = points.text(3);
        stored.points.push_back(std::move(point));
    }
    stored.info.recordedPoints = std::int64_t(stored.points.size());
    return stored;
}

std::optional<std::string> ResultStore::parityPayload(const std::string& keyHash)
{
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db, "SELECT payload FROM parity_runs WHERE key_hash = ?1 AND engine_version = ?2");
    select.bind(1, keyHash);
    select.bind(2, engineBuildId());
    if (select.step() != SQLITE_ROW)
        return std::nullopt;
    noteUseLocked("parity", keyHash);
    return select.text(0);
}

} // namespace elk::store
