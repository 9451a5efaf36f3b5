// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline every front end uses (import → partition → schedule → simulate) with a result cache
// in front of its stages. The cache is an interface here; engine/store implements it with SQLite,
// so a run reads top to bottom in this layer and the store only stores.
#pragma once

#include "engine/core/run_control.h"
#include "engine/run/run_compile.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elk::run {

/// What the pipeline asks of a result cache. Implementations are thread-safe (sweeps run points in
/// parallel) and keep the cache consistent when a write fails (they return false and say why).
class RunCache {
public:
    virtual ~RunCache() = default;
    /// Partition tables of one partitionKey(), with how oversized operators were split.
    virtual std::optional<PartitionTables> loadPartitionTables(const std::string& partitionKey) = 0;
    virtual bool savePartitionTables(
        const std::string& partitionKey, const PartitionTables& tables, std::string* error = nullptr)
        = 0;
    /// The stored designs of the run whose canonical spec equals `spec` exactly. `needDetail`: a
    /// summary-only record (a sweep's) is a miss.
    virtual std::optional<std::vector<DesignRun>> loadDesigns(const RunSpec& spec, bool needDetail) = 0;
    /// Stores a completed run; `withDetail` false keeps no per-link detail or counter curves.
    virtual bool saveRun(const RunResult& result, bool withDetail, std::string* error = nullptr) = 0;
};

/// What the cache did for one run.
struct CacheOutcome {
    bool runHit = false; ///< designs came from the cache
    bool partitionHit = false; ///< partition tables came from the cache (or from `reuse`)
    bool reusedCompiled = false; ///< `reuse` was used as is (no import)
};

/// The compiled model of `spec`: import plus the cache's partition tables for its partitionKey when
/// it has them (*partitionHit set), else a search whose tables are then stored. `cache` may be null.
CompileResult compileCached(
    const RunSpec& spec, RunCache* cache, RunControl& control, int threads, bool* partitionHit = nullptr);

/// The cached pipeline: a run hit rebuilds the compiled model (import plus cached partition tables)
/// and returns the stored designs (bit-identical to the run that stored them); a partition hit skips
/// the partition search; otherwise compiles and stores the tables. Completed runs are stored.
/// `cache` may be null (no cache). `reuse`: an already compiled model, used when its partitionKey
/// matches. `withDetail` false: sweeps, which need only latencies (smaller rows).
RunResult runCached(const RunSpec& spec, RunCache* cache, RunControl& control, int threads,
    std::shared_ptr<const CompiledModel> reuse = nullptr, bool withDetail = true, CacheOutcome* outcome = nullptr);

} // namespace elk::run
