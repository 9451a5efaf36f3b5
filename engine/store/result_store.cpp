// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/result_store.h"

#include "engine/core/build_fingerprint.h"
#include "engine/core/sha256.h"
#include "engine/core/version.h"
#include "engine/store/payload_codec.h"
#include "engine/store/sqlite_statement.h"
#include "engine/store/store_test_hook.h"

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <thread>

#include <cerrno>
#include <cstring>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

namespace elk::store {

namespace detail {

    namespace {
        std::atomic<WriteHook> g_writeHook { nullptr };
    }

    void setWriteHookForTests(WriteHook hook)
    {
        g_writeHook.store(hook);
    }

} // namespace detail

namespace {

    constexpr std::int64_t kApplicationId = 0x454C4B53; // "ELKS"
    /// Another process (a second app instance, a sweep) may hold the write lock this long.
    constexpr int kBusyTimeoutMs = 15000;

    // Added after schema version 1 shipped: created on open when missing (additive, so no version bump).
    // hlo_regions: the StableHLO flow's estimates; parity_runs: artifact-parity results (elk reproduce);
    // row_usage: when a row last served a lookup (elk cache trim evicts the least recently used);
    // sweeps and sweep_points: what each sweep ran, so a cache lists and reopens its sweeps alone.
    const char* const kAdditiveTablesSql = R"sql(
CREATE TABLE IF NOT EXISTS hlo_regions(
    hardware_hash TEXT NOT NULL,
    estimator TEXT NOT NULL,
    estimator_version TEXT NOT NULL,
    region_hash TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    seconds REAL NOT NULL,
    breakdown TEXT NOT NULL,
    PRIMARY KEY(hardware_hash, estimator, estimator_version, region_hash, engine_version)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parity_runs(
    key_hash TEXT PRIMARY KEY,
    key_json TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    created_utc TEXT NOT NULL,
    payload TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS row_usage(
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    used_utc TEXT NOT NULL,
    PRIMARY KEY(kind, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sweeps(
    sweep_hash TEXT PRIMARY KEY,
    definition_json TEXT NOT NULL,
    title TEXT NOT NULL,
    created_utc TEXT NOT NULL,
    point_count INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sweep_points(
    sweep_hash TEXT NOT NULL,
    point_index INTEGER NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    error TEXT NOT NULL,
    PRIMARY KEY(sweep_hash, point_index)) WITHOUT ROWID;
)sql";

    const char* const kSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS meta(
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs(
    spec_hash TEXT PRIMARY KEY,
    spec_json TEXT NOT NULL,
    created_utc TEXT NOT NULL,
    model_label TEXT NOT NULL,
    chip_name TEXT NOT NULL,
    phase TEXT NOT NULL,
    batch INTEGER NOT NULL,
    seq_len INTEGER NOT NULL,
    kv_len INTEGER NOT NULL,
    designs TEXT NOT NULL,
    latency_ms BLOB NOT NULL,
    has_detail INTEGER NOT NULL,
    payload BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_time ON runs(created_utc);
CREATE TABLE IF NOT EXISTS partitions(
    partition_key TEXT PRIMARY KEY,
    created_utc TEXT NOT NULL,
    payload BLOB NOT NULL);
)sql";

    std::string utcStamp(const char* format)
    {
        const std::time_t now = std::time(nullptr);
        std::tm utc {};
        gmtime_r(&now, &utc);
        char text[32];
        std::strftime(text, sizeof text, format, &utc);
        return text;
    }

    std::string nowUtc()
    {
        return utcStamp("%Y-%m-%dT%H:%M:%SZ");
    }

    int exec(sqlite3* db, const char* sql)
    {
        return sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    }

    /// Why a cache at `path` cannot be written, when the file system says so ("" when it does not):
    /// the hint that turns "unable to open database file" into something a user can act on.
    std::string unwritableHint(const std::string& path)
    {
        const std::filesystem::path file(path);
        const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
        std::error_code ec;
        for (std::filesystem::path up = folder; !up.empty(); up = up.parent_path()) {
            if (std::filesystem::exists(up, ec) && !std::filesystem::is_directory(up, ec))
                return "; " + up.string() + " is a file, not a folder: point ELK_CACHE_DIR elsewhere";
            if (up == up.parent_path())
                break;
        }
        if (access(folder.c_str(), F_OK) != 0 && errno == EACCES)
            return "; permission denied on the way to " + folder.string() + ": point ELK_CACHE_DIR elsewhere";
        if ((access(path.c_str(), F_OK) == 0 && access(path.c_str(), W_OK) != 0)
            || (access(folder.c_str(), F_OK) == 0 && access(folder.c_str(), W_OK | X_OK) != 0))
            return "; the cache file or its folder is read-only: make it writable, or point ELK_CACHE_DIR elsewhere";
        return {};
    }

    std::string errorText(sqlite3* db, int rc)
    {
        std::string text = sqlite3_errstr(rc);
        const char* message = sqlite3_errmsg(db);
        if (message != nullptr && text != message)
            text += std::string(" (") + message + ")";
        return text;
    }

    enum class FileState { Fresh, Ours, Corrupt, Foreign, OtherVersion, Unusable };

    struct Inspection {
        FileState state = FileState::Unusable;
        std::string detail;
        std::int64_t version = 0;
    };

    /// Reads one integer; sets `rc` to the first failing SQLite code.
    std::int64_t queryInteger(sqlite3* db, const char* sql, int& rc)
    {
        if (rc != SQLITE_OK)
            return 0;
        detail::Statement statement(db, sql);
        rc = statement.prepareCode();
        if (rc != SQLITE_OK)
            return 0;
        const int step = statement.step();
        if (step != SQLITE_ROW) {
            rc = step == SQLITE_DONE ? SQLITE_ERROR : step;
            return 0;
        }
        return statement.integer(0);
    }

    /// What the file at an open connection is: ours, empty, another application's, another schema
    /// version of ours, or not a database at all. Locks and I/O errors are "unusable", never a reason
    /// to move a file aside.
    Inspection inspect(sqlite3* db)
    {
        int rc = SQLITE_OK;
        // One read transaction: another process creating the cache commits its schema and application
        // id together, and reads in separate transactions could see the id before and the tables after
        // that commit ("another application's database", moved aside; 1 in ~20 racing opens did).
        const bool ownTransaction = sqlite3_get_autocommit(db) != 0;
        if (ownTransaction)
            rc = exec(db, "BEGIN");
        const std::int64_t appId = queryInteger(db, "PRAGMA application_id", rc);
        const std::int64_t version = queryInteger(db, "PRAGMA user_version", rc);
        const std::int64_t objects = queryInteger(db, "SELECT count(*) FROM sqlite_master", rc);
        const std::int64_t ourTables = queryInteger(db,
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'runs', 'partitions')", rc);
        if (ownTransaction)
            exec(db, "COMMIT");
        Inspection seen;
        seen.version = version;
        if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) {
            seen.state = FileState::Corrupt;
            seen.detail = "is not a valid SQLite database (" + errorText(db, rc) + ")";
        } else if (rc != SQLITE_OK) {
            seen.state = FileState::Unusable;
            seen.detail = errorText(db, rc);
        } else if (appId == kApplicationId) {
            if (version != ResultStore::kSchemaVersion) {
                seen.state = FileState::OtherVersion;
                seen.detail = "has schema version " + std::to_string(version) + " (this Elk Studio reads version "
                    + std::to_string(ResultStore::kSchemaVersion) + ")";
            } else if (ourTables != 3) {
                seen.state = FileState::Corrupt;
                seen.detail = "lacks some of its tables";
            } else {
                seen.state = FileState::Ours;
            }
        } else if (appId == 0 && version == 0 && objects == 0) {
            seen.state = FileState::Fresh;
        } else {
            seen.state = FileState::Foreign;
            char id[16];
            std::snprintf(id, sizeof id, "0x%08llx", static_cast<unsigned long long>(std::uint32_t(appId)));
            seen.detail = appId != 0 ? std::string("belongs to another application (application id ") + id + ")"
                                     : "is an SQLite database of another application";
        }
        return seen;
    }

    /// Renames `path` (and its WAL, shared-memory and journal files) to PATH.<kind>-YYYYMMDD-HHMMSS.
    std::optional<std::string> moveAside(const std::string& path, const std::string& kind, std::string& error)
    {
        namespace fs = std::filesystem;
        const std::string base = path + "." + kind + "-" + utcStamp("%Y%m%d-%H%M%S");
        std::string target = base;
        std::error_code ec;
        for (int n = 2; fs::exists(target, ec); ++n)
            target = base + "-" + std::to_string(n);
        fs::rename(path, target, ec);
        if (ec) {
            error = "cannot move " + path + " aside to " + target + ": " + ec.message();
            return std::nullopt;
        }
        for (const char* sidecar : { "-wal", "-shm", "-journal" }) {
            if (!fs::exists(path + sidecar, ec))
                continue;
            fs::rename(path + sidecar, target + sidecar, ec);
            if (ec) // a stale WAL next to a new database would be replayed into it
                fs::remove(path + sidecar, ec);
        }
        return target;
    }

    /// WAL mode (readers never wait for the writer; two processes may share the file), and on an
    /// empty file the schema, in one transaction so that a racing second process sees all or nothing.
    bool configure(sqlite3* db, bool fresh, std::string& error)
    {
        // Switching the journal mode takes an exclusive lock and SQLite does not wait for it through the
        // busy handler: two processes opening a new cache at once would otherwise see "database is
        // locked" and one would run without the cache. Retry for as long as the busy timeout.
        for (int waitedMs = 0;; waitedMs += 10) {
            detail::Statement wal(db, "PRAGMA journal_mode = WAL");
            const int rc = wal.step();
            if (rc == SQLITE_ROW)
                break;
            if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waitedMs >= kBusyTimeoutMs) {
                error = "cannot switch to WAL mode: " + errorText(db, rc);
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        exec(db, "PRAGMA synchronous = NORMAL"); // WAL + NORMAL: never corrupt, at worst the last commit lost
        if (!fresh) {
            const int rc = exec(db, kAdditiveTablesSql);
            if (rc != SQLITE_OK) {
                error = "cannot add the additive tables: " + errorText(db, rc);
                return false;
            }
            return true;
        }
        int rc = exec(db, "BEGIN IMMEDIATE");
        if (rc != SQLITE_OK) {
            error = "cannot initialise: " + errorText(db, rc);
            return false;
        }
        const Inspection again = inspect(db);
        if (again.state == FileState::Fresh) {
            const std::string meta = "INSERT OR REPLACE INTO meta(key, value) VALUES ('application', "
                                     "'Elk Studio result cache'), ('created_by_engine', '"
                + std::string(kEngineVersion) + "'), ('created_utc', '" + nowUtc() + "');";
            const std::string pragmas = "PRAGMA application_id = " + std::to_string(kApplicationId)
                + "; PRAGMA user_version = " + std::to_string(ResultStore::kSchemaVersion) + ";";
            rc = exec(db, kSchemaSql);
            if (rc == SQLITE_OK)
                rc = exec(db, kAdditiveTablesSql);
            if (rc == SQLITE_OK)
                rc = exec(db, meta.c_str());
            if (rc == SQLITE_OK)
                rc = exec(db, pragmas.c_str());
        } else if (again.state != FileState::Ours) {
            rc = SQLITE_ERROR;
        }
        if (rc == SQLITE_OK)
            rc = exec(db, "COMMIT");
        if (rc != SQLITE_OK) {
            error = "cannot initialise: " + errorText(db, rc);
            exec(db, "ROLLBACK");
            return false;
        }
        return true;
    }

    std::string joined(const std::vector<std::string>& names)
    {
        std::string text;
        for (const std::string& name : names)
            text += (text.empty() ? "" : ",") + name;
        return text;
    }

    std::vector<std::string> split(const std::string& text)
    {
        std::vector<std::string> names;
        std::size_t start = 0;
        while (start <= text.size() && !text.empty()) {
            const std::size_t comma = text.find(',', start);
            names.push_back(text.substr(start, comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        return names;
    }

    std::string latencyBlob(const std::vector<double>& values)
    {
        std::string bytes;
        for (double value : values) {
            const auto bits = std::bit_cast<std::uint64_t>(value);
            for (int i = 0; i < 8; ++i)
                bytes.push_back(char((bits >> (8 * i)) & 0xff));
        }
        return bytes;
    }

    std::optional<std::vector<double>> latenciesFromBlob(const std::string& bytes)
    {
        if (bytes.size() % 8 != 0)
            return std::nullopt;
        std::vector<double> values(bytes.size() / 8);
        for (std::size_t v = 0; v < values.size(); ++v) {
            std::uint64_t bits = 0;
            for (std::size_t i = 0; i < 8; ++i)
                bits |= std::uint64_t(std::uint8_t(bytes[8 * v + i])) << (8 * i);
            values[v] = std::bit_cast<double>(bits);
        }
        return values;
    }

    std::vector<double> latenciesMs(const run::RunResult& result)
    {
        std::vector<double> values;
        for (const run::DesignRun& design : result.designs) {
            values.push_back(design.simulated ? design.simulated->latencyCycles / result.spec.chip.clockHz * 1e3
                                              : std::numeric_limits<double>::quiet_NaN());
        }
        return values;
    }

    /// The canonical text of a spec, or nothing for a spec that has none (NaN, infinity).
    /// The key of a run: its canonical JSON with the engine identity of this build, whatever the
    /// spec says (a spec file written by another build runs, and is stored, as this one's).
    std::optional<std::string> canonicalOf(const run::RunSpec& spec)
    {
        try {
            run::RunSpec keyed = spec;
            keyed.engineVersion = engineBuildId();
            return run::runSpecToCanonicalJson(keyed);
        } catch (const std::invalid_argument&) {
            return std::nullopt;
        }
    }

    bool designsMatch(const std::vector<run::DesignRun>& designs, const run::RunSpec& spec)
    {
        if (designs.size() != spec.designs.size())
            return false;
        for (std::size_t d = 0; d < designs.size(); ++d) {
            if (spec.designs[d] != schedule::toString(designs[d].design))
                return false;
        }
        return true;
    }

    void setError(std::string* error, const std::string& text)
    {
        if (error != nullptr)
            *error = text;
    }

} // namespace

ResultStore::~ResultStore()
{
    {
        const std::lock_guard lock(m_mutex);
        flushUsageLocked();
    }
    sqlite3_close_v2(m_db);
}

std::string ResultStore::defaultPath()
{
    const auto nonEmpty = [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        return value != nullptr && *value != '\0' ? std::optional<std::string>(value) : std::nullopt;
    };
    std::string folder;
    if (auto dir = nonEmpty("ELK_CACHE_DIR"))
        folder = *dir;
    else if (auto xdg = nonEmpty("XDG_CACHE_HOME"))
        folder = *xdg + "/elk-studio";
    else if (auto home = nonEmpty("HOME"))
        folder = *home + "/.cache/elk-studio";
    else
        folder = (std::filesystem::temp_directory_path() / "elk-studio").string();
    return folder + "/results.sqlite";
}

OpenResult ResultStore::openExisting(const std::string& path)
{
    OpenResult result;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        result.error = path + ": no such result cache file";
        return result;
    }
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    if (rc != SQLITE_OK) {
        result.error = "cannot open the result cache " + path + ": "
            + (db != nullptr ? errorText(db, rc) : std::string(sqlite3_errstr(rc))) + unwritableHint(path);
        sqlite3_close_v2(db);
        return result;
    }
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    const Inspection seen = inspect(db);
    std::string error;
    if (seen.state != FileState::Ours) {
        result.error
            = path + " " + (seen.state == FileState::Fresh ? std::string("is empty, not a result cache") : seen.detail);
    } else if (!configure(db, false, error)) {
        result.error = "cannot use the result cache " + path + ": " + error + unwritableHint(path);
    } else {
        result.store.reset(new ResultStore);
        result.store->m_db = db;
        result.store->m_path = path;
        return result;
    }
    sqlite3_close_v2(db);
    return result;
}

OpenResult ResultStore::open(const std::string& path)
{
    OpenResult result;
    std::error_code ec;
    const std::filesystem::path file(path);
    if (file.has_parent_path())
        std::filesystem::create_directories(file.parent_path(), ec);
    // At most twice: a bad file is moved aside once, then a new one is created in its place.
    for (int attempt = 0; attempt < 2; ++attempt) {
        sqlite3* db = nullptr;
        const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
        if (rc != SQLITE_OK) {
            result.error = "cannot open the result cache " + path + ": "
                + (db != nullptr ? errorText(db, rc) : std::string(sqlite3_errstr(rc))) + unwritableHint(path);
            sqlite3_close_v2(db);
            return result;
        }
        sqlite3_busy_timeout(db, kBusyTimeoutMs);
        const Inspection seen = inspect(db);
        if (seen.state == FileState::Fresh || seen.state == FileState::Ours) {
            std::string error;
            if (!configure(db, seen.state == FileState::Fresh, error)) {
                sqlite3_close_v2(db);
                result.error = "cannot use the result cache " + path + ": " + error + unwritableHint(path);
                return result;
            }
            result.store.reset(new ResultStore);
            result.store->m_db = db;
            result.store->m_path = path;
            return result;
        }
        sqlite3_close_v2(db);
        if (seen.state == FileState::Unusable) {
            result.error = "cannot read the result cache " + path + ": " + seen.detail + unwritableHint(path);
            return result;
        }
        const std::string kind = seen.state == FileState::Corrupt ? "corrupt"
            : seen.state == FileState::Foreign                    ? "foreign"
                                                                  : "v" + std::to_string(seen.version);
        std::string error;
        const std::optional<std::string> target = moveAside(path, kind, error);
        if (!target) {
            result.error = "the result cache " + path + " " + seen.detail + ", and " + error;
            return result;
        }
        result.message += (result.message.empty() ? "" : " ") + std::string("The result cache ") + path + " "
            + seen.detail + "; it was moved to " + *target + " and a new cache was created.";
    }
    result.error = "cannot create a result cache at " + path;
    return result;
}

std::optional<std::vector<partition::OpPlans>> ResultStore::loadPartitions(const std::string& partitionKey)
{
    std::optional<run::PartitionTables> tables = loadPartitionTables(partitionKey);
    if (!tables)
        return std::nullopt;
    return std::move(tables->plans);
}

bool ResultStore::savePartitions(
    const std::string& partitionKey, const std::vector<partition::OpPlans>& plans, std::string* error)
{
    // One unsplit search per distinct operator.
    run::PartitionTables tables;
    tables.plans = plans;
    tables.splits.assign(plans.size(), run::InputSplit {});
    for (std::size_t i = 0; i < plans.size(); ++i)
        tables.inputOfPlanSet.push_back(std::uint32_t(i));
    return savePartitionTables(partitionKey, tables, error);
}

std::optional<run::PartitionTables> ResultStore::loadPartitionTables(const std::string& partitionKey)
{
    std::string payload;
    {
        const std::lock_guard lock(m_mutex);
        detail::Statement select(m_db, "SELECT payload FROM partitions WHERE partition_key = ?1");
        select.bind(1, partitionKey);
        if (select.step() != SQLITE_ROW)
            return std::nullopt;
        payload = select.blob(0);
        noteUseLocked("partition", partitionKey);
    }
    return detail::decodePartitionTables(payload);
}

bool ResultStore::savePartitionTables(
    const std::string& partitionKey, const run::PartitionTables& tables, std::string* error)
{
    std::string payload;
    try {
        payload = detail::encodePartitionTables(tables);
    } catch (const std::exception& e) {
        setError(error, e.what());
        return false;
    }
    const std::lock_guard lock(m_mutex);
    return writeTransaction(
        "partitions",
        [&](sqlite3* db) {
            detail::Statement insert(
                db, "INSERT OR REPLACE INTO partitions(partition_key, created_utc, payload) VALUES (?1, ?2, ?3)");
            insert.bind(1, partitionKey);
            insert.bind(2, nowUtc());
            insert.bindBlob(3, payload);
            return insert.step();
        },
        error);
}

std::optional<std::vector<run::DesignRun>> ResultStore::loadDesigns(const run::RunSpec& spec, bool needDetail)
{
    const std::optional<std::string> canonical = canonicalOf(spec);
    if (!canonical)
        return std::nullopt;
    std::string payload;
    {
        const std::lock_guard lock(m_mutex);
        detail::Statement select(m_db, "SELECT spec_json, has_detail, payload FROM runs WHERE spec_hash = ?1");
        const std::string hash = sha256Hex(*canonical);
        select.bind(1, hash);
        if (select.step() != SQLITE_ROW || select.text(0) != *canonical || (needDetail && select.integer(1) == 0))
            return std::nullopt;
        payload = select.blob(2);
        noteUseLocked("run", hash);
    }
    std::optional<std::vector<run::DesignRun>> designs = detail::decodeDesigns(payload);
    if (!designs || !designsMatch(*designs, spec))
        return std::nullopt;
    return designs;
}

std::optional<std::vector<double>> ResultStore::loadLatencies(const run::RunSpec& spec)
{
    const std::optional<std::string> canonical = canonicalOf(spec);
    if (!canonical)
        return std::nullopt;
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db, "SELECT spec_json, designs, latency_ms FROM runs WHERE spec_hash = ?1");
    const std::string hash = sha256Hex(*canonical);
    select.bind(1, hash);
    if (select.step() != SQLITE_ROW || select.text(0) != *canonical || split(select.text(1)) != spec.designs)
        return std::nullopt;
    std::optional<std::vector<double>> latencies = latenciesFromBlob(select.blob(2));
    if (!latencies || latencies->size() != spec.designs.size())
        return std::nullopt;
    noteUseLocked("run", hash);
    return latencies;
}

bool ResultStore::saveRun(const run::RunResult& result, bool withDetail, std::string* error)
{
    if (!result.ok() || result.designs.size() != result.spec.designs.size()) {
        setError(error, "only completed runs are stored");
        return false;
    }
    const std::optional<std::string> canonical = canonicalOf(result.spec);
    if (!canonical) {
        setError(error, "the run spec has no canonical form (NaN or infinity)");
        return false;
    }
    std::string payload;
    try {
        payload = detail::encodeDesigns(result.designs, withDetail);
    } catch (const std::exception& e) {
        setError(error, e.what());
        return false;
    }
    const std::string latencies = latencyBlob(latenciesMs(result));
    const run::RunSpec& spec = result.spec;
    const std::lock_guard lock(m_mutex);
    return writeTransaction(
        "runs",
        [&](sqlite3* db) {
            // A summary (sweep) never replaces the detail of the same run.
            detail::Statement insert(db, R"sql(
INSERT INTO runs(spec_hash, spec_json, created_utc, model_label, chip_name, phase, batch, seq_len, kv_len,
                 designs, latency_ms, has_detail, payload)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
ON CONFLICT(spec_hash) DO UPDATE SET
    spec_json = excluded.spec_json, created_utc = excluded.created_utc, model_label = excluded.model_label,
    chip_name = excluded.chip_name, phase = excluded.phase, batch = excluded.batch, seq_len = excluded.seq_len,
    kv_len = excluded.kv_len, designs = excluded.designs, latency_ms = excluded.latency_ms,
    has_detail = excluded.has_detail, payload = excluded.payload
WHERE excluded.has_detail >= runs.has_detail OR excluded.spec_json <> runs.spec_json)sql");
            insert.bind(1, sha256Hex(*canonical));
            insert.bind(2, *canonical);
            insert.bind(3, nowUtc());
            insert.bind(4, spec.model.path);
            insert.bind(5, spec.chip.name);
            insert.bind(6, std::string(run::toString(spec.phase)));
            insert.bind(7, spec.batch);
            insert.bind(8, spec.seqLen);
            insert.bind(9, spec.kvLen);
            insert.bind(10, joined(spec.designs));
            insert.bindBlob(11, latencies);
            insert.bind(12, std::int64_t(withDetail ? 1 : 0));
            insert.bindBlob(13, payload);
            return insert.step();
        },
        error);
}

std::optional<std::pair<std::vector<std::string>, std::vector<double>>> ResultStore::runLatencies(
    const std::string& specHash)
{
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db, "SELECT designs, latency_ms FROM runs WHERE spec_hash = ?1");
    select.bind(1, specHash);
    if (select.step() != SQLITE_ROW)
        return std::nullopt;
    std::vector<std::string> designs = split(select.text(0));
    std::optional<std::vector<double>> latencies = latenciesFromBlob(select.blob(1));
    if (!latencies || latencies->size() != designs.size())
        return std::nullopt;
    noteUseLocked("run", specHash);
    return std::pair { std::move(designs), std::move(*latencies) };
}

std::vector<RunRecordInfo> ResultStore::history(int limit)
{
    std::vector<RunRecordInfo> records;
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db, R"sql(
SELECT spec_hash, created_utc, model_label, chip_name, phase, batch, seq_len, kv_len, designs, latency_ms, has_detail
FROM runs ORDER BY created_utc DESC, rowid DESC LIMIT ?1)sql");
    select.bind(1, std::int64_t(limit));
    while (select.step() == SQLITE_ROW) {
        RunRecordInfo record;
        record.specHash = select.text(0);
        record.createdUtc = select.text(1);
        record.modelLabel = select.text(2);
        record.chipName = select.text(3);
        record.phase = select.text(4);
        record.batch = select.integer(5);
        record.seqLen = select.integer(6);
        record.kvLen = select.integer(7);
        record.designs = split(select.text(8));
        record.latencyMs = latenciesFromBlob(select.blob(9)).value_or(std::vector<double> {});
        record.hasDetail = select.integer(10) != 0;
        records.push_back(std::move(record));
    }
    return records;
}

std::optional<std::string> ResultStore::specJson(const std::string& specHash)
{
    const std::lock_guard lock(m_mutex);
    detail::Statement select(m_db, "SELECT spec_json FROM runs WHERE spec_hash = ?1");
    select.bind(1, specHash);
    if (select.step() != SQLITE_ROW)
        return std::nullopt;
    return select.text(0);
}

std::int64_t ResultStore::runCount()
{
    const std::lock_guard lock(m_mutex);
    int rc = SQLITE_OK;
    return queryInteger(m_db, "SELECT count(*) FROM runs", rc);
}

std::int64_t ResultStore::partitionCount()
{
    const std::lock_guard lock(m_mutex);
    int rc = SQLITE_OK;
    return queryInteger(m_db, "SELECT count(*) FROM partitions", rc);
}

bool ResultStore::writeTransaction(const char* table, const std::function<int(sqlite3*)>& writeRows, std::string* error)
{
    int rc = exec(m_db, "BEGIN IMMEDIATE");
    if (rc == SQLITE_OK) {
        rc = writeRows(m_db);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    if (rc == SQLITE_OK) {
        if (const detail::WriteHook hook = detail::g_writeHook.load())
            hook(table);
        rc = exec(m_db, "COMMIT");
    }
    if (rc != SQLITE_OK) {
        // SQLite does not always keep the errno of a failed write: name the likely causes ourselves.
        std::string hint;
        const int systemErrno = sqlite3_system_errno(m_db);
        const int extended = sqlite3_extended_errcode(m_db);
        if (systemErrno != 0)
            hint = std::string(" [") + std::strerror(systemErrno) + "]";
        rlimit sizeLimit {};
        const bool fileSizeLimited = getrlimit(RLIMIT_FSIZE, &sizeLimit) == 0 && sizeLimit.rlim_cur != RLIM_INFINITY;
        if ((rc & 0xff) == SQLITE_READONLY || systemErrno == EACCES || systemErrno == EROFS)
            hint += "; the cache file or its folder is read-only: make it writable, or point ELK_CACHE_DIR elsewhere";
        else if (fileSizeLimited
            && (extended == SQLITE_IOERR_WRITE || systemErrno == EFBIG || (rc & 0xff) == SQLITE_FULL))
            hint += "; the process's file-size limit (ulimit -f: " + std::to_string(sizeLimit.rlim_cur / 1024)
                + " KiB) was reached: raise it, or point ELK_CACHE_DIR at a smaller cache";
        else if ((rc & 0xff) == SQLITE_FULL || systemErrno == ENOSPC || extended == SQLITE_IOERR_WRITE)
            hint += "; the disk may be full: free space, or point ELK_CACHE_DIR elsewhere";
        setError(error,
            "cannot write to the result cache " + m_path + ": " + errorText(m_db, rc) + hint
                + " (nothing of this write was kept)");
        exec(m_db, "ROLLBACK");
        return false;
    }
    return true;
}

} // namespace elk::store
