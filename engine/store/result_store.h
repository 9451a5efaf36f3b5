// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/partition/partition.h"
#include "engine/run/run_cache.h"
#include "engine/run/run_compile.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace elk::store {

/// One row of the history list (newest first): enough to show and reopen a past run.
struct RunRecordInfo {
    std::string specHash;
    std::string createdUtc; ///< ISO 8601, e.g. "2026-11-30T00:41:12Z"
    std::string modelLabel; ///< model path or "bundled:NAME"
    std::string chipName;
    std::string phase;
    std::int64_t batch = 0, seqLen = 0, kvLen = 0;
    std::vector<std::string> designs;
    std::vector<double> latencyMs; ///< by design (simulated; NaN when the design failed)
    bool hasDetail = false; ///< link bins and counter curves stored (sweep points store summaries only)
};

struct OpenResult;

/// What a cache holds (elk cache stats): its size and, per kind of row, how many, the oldest and the
/// largest.
struct CacheStats {
    std::int64_t fileBytes = 0; ///< the database file with its write-ahead log
    struct Kind {
        std::string name; ///< "runs (with detail)", "runs (summaries)", "partition tables", …
        std::int64_t rows = 0;
        std::int64_t payloadBytes = 0;
        std::int64_t largestBytes = 0;
        std::string oldestUtc; ///< "" when the kind keeps no time or has no rows
    };
    std::vector<Kind> kinds;
};

/// What ResultStore::trim did: the file's size before and after, and what it gave up, in eviction
/// order (rows this engine can never hit, then the least recently used: the detail of runs, which
/// are kept as summaries, then partition tables, then summaries and the rest).
struct TrimReport {
    std::int64_t bytesBefore = 0, bytesAfter = 0;
    std::int64_t staleRowsRemoved = 0; ///< rows of other engine versions (no lookup can hit them)
    std::int64_t detailsDropped = 0; ///< detailed runs now kept as summaries
    std::int64_t runsRemoved = 0, partitionsRemoved = 0, parityRunsRemoved = 0, regionsRemoved = 0;
    std::int64_t sweepsRemoved = 0; ///< sweep records none of whose points is left
    std::string error; ///< the limit could not be met, or a write failed (what was done stays done)
    bool ok() const { return error.empty(); }
};

/// A sweep the cache recorded (elk sweep, the app's Sweep page, shards and MPI ranks merged): enough
/// to list it and reopen it from the cache alone, without the model file.
struct SweepRecordInfo {
    std::string sweepHash; ///< SHA-256 of its definition (base spec, axes, designs, parity)
    std::string title; ///< "llama2-13b on ipu-pod4-hbm: HBM bandwidth per stack (GB/s) × …"
    std::string createdUtc; ///< when it was first recorded
    std::int64_t gridPoints = 0;
    std::int64_t recordedPoints = 0; ///< points some shard ran (all of them once the shards are merged)
};

/// One point of a recorded sweep: the row its result is in, or why it has none.
struct SweepRecordPoint {
    std::int64_t index = 0; ///< in the sweep's canonical order
    bool parity = false; ///< key names a parity_runs row, else a runs row
    std::string key; ///< "" when the point failed before anything ran
    std::string error;
};

/// What ResultStore::mergeFrom copied (rows new to the target), or why it copied nothing.
struct MergeReport {
    std::int64_t runs = 0, partitions = 0, regions = 0, parityRuns = 0, sweepPoints = 0;
    std::string error;
    bool ok() const { return error.empty(); }
};

/// Key of a compute region's estimate (hlo-design §6): the hardware the estimator sees, the
/// estimator and its version, and the region's content hash.
struct RegionCacheKey {
    std::string hardwareHash;
    std::string estimator; ///< name, e.g. "roofline", "icca:ipu-mk2-hbm"
    std::string estimatorVersion;
    std::string regionHash;
};

struct CachedRegion {
    double seconds = 0;
    std::string breakdown; ///< the estimator's per-kernel detail, text it wrote and reads back
};

/// The SQLite result cache (elk-design §store): runs keyed by the RunSpec hash with the full
/// canonical spec stored and compared on hit, partition tables keyed by run::partitionKey(), a history.
/// WAL mode, a schema version (PRAGMA user_version) and an application id; every write is one
/// transaction, so a process killed mid-write leaves no partial rows. Thread-safe (one connection,
/// a mutex); two processes may share the file (busy timeout).
class ResultStore final : public run::RunCache {
public:
    static constexpr int kSchemaVersion = 1;

    ~ResultStore() override;
    ResultStore(const ResultStore&) = delete;
    ResultStore& operator=(const ResultStore&) = delete;

    /// Opens or creates the cache at `path` (its folder is created). A corrupt file, a file of
    /// another application or of another schema version is renamed to "PATH.corrupt-YYYYMMDD-HHMMSS"
    /// (or ".foreign-", ".v<N>-"), a new one is created, and OpenResult::message says what happened.
    /// Fails (store null, error set) only when no database can be created at all.
    static OpenResult open(const std::string& path);
    /// Opens an existing result cache of this schema and nothing else: a missing, foreign, corrupt or
    /// other-version file is an error and is left as it is (a file the user picked to look at).
    static OpenResult openExisting(const std::string& path);
    /// $ELK_CACHE_DIR, else $XDG_CACHE_HOME/elk-studio, else ~/.cache/elk-studio; plus "/results.sqlite".
    static std::string defaultPath();

    const std::string& path() const { return m_path; }

    /// Partition tables of one run::partitionKey(), in StepInputs::distinctInputs order.
    std::optional<std::vector<partition::OpPlans>> loadPartitions(const std::string& partitionKey);
    /// Returns false (and sets *error) when the write failed; the cache stays consistent.
    /// Stores the plans as of a compile that split no operator (use savePartitionTables otherwise).
    bool savePartitions(
        const std::string& partitionKey, const std::vector<partition::OpPlans>& plans, std::string* error = nullptr);
    /// The same with how oversized operators were split (what compileModel needs to rebuild a model).
    std::optional<run::PartitionTables> loadPartitionTables(const std::string& partitionKey) override;
    bool savePartitionTables(
        const std::string& partitionKey, const run::PartitionTables& tables, std::string* error = nullptr) override;

    /// The stored designs of the run whose canonical spec equals `spec` exactly (hash hit with a
    /// different stored spec text counts as a miss). `needDetail`: a summary-only record is a miss.
    std::optional<std::vector<run::DesignRun>> loadDesigns(const run::RunSpec& spec, bool needDetail) override;
    /// The simulated latencies (ms, by design; NaN where a design failed) of the stored run whose
    /// canonical spec equals `spec`, from the summary columns only (no payload decoded: sweeps).
    std::optional<std::vector<double>> loadLatencies(const run::RunSpec& spec);
    /// Stores (or replaces) the run's designs in one transaction. Only completed runs are stored.
    /// A summary never replaces a stored record with detail of the same spec.
    bool saveRun(const run::RunResult& result, bool withDetail, std::string* error = nullptr) override;

    std::vector<RunRecordInfo> history(int limit = 200);
    /// The canonical spec JSON of a stored run, to reopen it.
    std::optional<std::string> specJson(const std::string& specHash);

    /// Compute-region estimates of the StableHLO flow; an engine or estimator version change
    /// misses (the version is part of the key).
    std::optional<CachedRegion> loadRegion(const RegionCacheKey& key);
    /// All rows in one transaction.
    bool saveRegions(const std::vector<std::pair<RegionCacheKey, CachedRegion>>& rows, std::string* error = nullptr);
    std::int64_t regionCount();

    /// Artifact-parity results (elk reproduce --parity artifact), keyed by the canonical JSON of
    /// everything they depend on; an engine version change misses. The payload is JSON text.
    std::optional<std::string> loadParityRun(const std::string& keyJson);
    bool saveParityRun(const std::string& keyJson, const std::string& payloadJson, std::string* error = nullptr);

    /// Copies the rows of another result cache of this schema (sweep shards, MPI ranks) into this one,
    /// in one transaction: rows keyed alike are kept once, a detailed run replaces a summary of the
    /// same spec; a key whose deterministic content differs is an error naming it, and nothing is
    /// copied. Safe while nothing else writes this cache.
    MergeReport mergeFrom(const std::string& sourcePath);
    CacheStats stats();
    /// Evicts rows until the file (with its write-ahead log) is at most `maxBytes`, then compacts it
    /// (VACUUM). Order: rows of other engine versions; the detail of runs, least recently used first
    /// (the run stays as a summary, so sweeps and the history still find it); partition tables; then
    /// run summaries, parity runs and StableHLO regions, least recently used first. Another process
    /// reading the cache may delay the compaction (busy timeout).
    TrimReport trim(std::int64_t maxBytes);

    /// Records a sweep's definition (canonical JSON; its hash is the sweep's key) and the points this
    /// process ran, in one transaction. Shards of one sweep record one definition and their own points.
    bool saveSweep(const std::string& definitionJson, const std::string& title, std::int64_t gridPoints,
        const std::vector<SweepRecordPoint>& points, std::string* error = nullptr);
    /// Newest first.
    std::vector<SweepRecordInfo> sweeps();
    /// The definition JSON of a recorded sweep and its points (hash or a unique prefix of it).
    struct StoredSweep {
        SweepRecordInfo info;
        std::string definitionJson;
        std::vector<SweepRecordPoint> points;
    };
    std::optional<StoredSweep> storedSweep(const std::string& hashOrPrefix, std::string* error = nullptr);
    /// The stored latencies (ms) of a run row by spec hash, with the designs they are for.
    std::optional<std::pair<std::vector<std::string>, std::vector<double>>> runLatencies(const std::string& specHash);
    /// The payload of a parity row of this engine version by key hash.
    std::optional<std::string> parityPayload(const std::string& keyHash);

    std::int64_t runCount();
    std::int64_t partitionCount();

private:
    ResultStore() = default;
    /// Notes that a row served a lookup; written in batches (row_usage), at the latest on close.
    /// Contract: m_mutex is held.
    void noteUseLocked(const char* kind, const std::string& key);
    void flushUsageLocked();
    /// BEGIN IMMEDIATE, `writeRows` (returns an SQLite code), COMMIT; ROLLBACK on any failure.
    /// Contract: m_mutex is held.
    bool writeTransaction(const char* table, const std::function<int(sqlite3*)>& writeRows, std::string* error);
    sqlite3* m_db = nullptr;
    std::string m_path;
    std::mutex m_mutex;
    std::map<std::pair<std::string, std::string>, std::string> m_usage; ///< (kind, key) → last use, unwritten
    friend struct OpenResult;
};

/// The row_usage key of a StableHLO region estimate.
std::string regionUsageKey(const std::string& hardwareHash, const std::string& estimator,
    const std::string& estimatorVersion, const std::string& regionHash);

struct OpenResult {
    std::unique_ptr<ResultStore> store;
    std::string message; ///< non-empty when a bad file was moved aside (say it to the user)
    std::string error; ///< non-empty when no store could be opened
};

} // namespace elk::store
