// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// store::runCached: the pipeline every front end uses, with the result cache in front of each stage.
#include "engine/store/result_store.h"

namespace elk::store {

run::CompileResult compileCached(
    const run::RunSpec& spec, ResultStore* store, RunControl& control, int threads, bool* partitionHit)
{
    const std::string key = run::partitionKey(spec);
    const std::optional<run::PartitionTables> tables
        = store != nullptr ? store->loadPartitionTables(key) : std::nullopt;
    run::CompileResult result = run::compileModel(spec, control, threads, tables ? &*tables : nullptr);
    if (partitionHit != nullptr)
        *partitionHit = result.fromCache;
    if (result.ok() && !result.fromCache && store != nullptr)
        store->savePartitionTables(key, run::partitionTablesOf(*result.compiled));
    return result;
}

run::RunResult runCached(const run::RunSpec& spec, ResultStore* store, RunControl& control, int threads,
    std::shared_ptr<const run::CompiledModel> reuse, bool withDetail, CacheOutcome* outcome)
{
    CacheOutcome local;
    CacheOutcome& cache = outcome != nullptr ? *outcome : local;
    cache = CacheOutcome {};
    const std::string key = run::partitionKey(spec);

    std::optional<std::vector<run::DesignRun>> stored;
    if (store != nullptr) {
        control.progress(0, 1, "cache lookup");
        stored = store->loadDesigns(spec, withDetail);
    }

    // The compiled model: the one given, else import plus cached tables, else a full compile.
    std::shared_ptr<const run::CompiledModel> compiled;
    run::StageTimings compileTimings;
    if (reuse && reuse->partitionKey == key) {
        compiled = std::move(reuse);
        cache.reusedCompiled = true;
        cache.partitionHit = true;
    } else {
        run::CompileResult result = compileCached(spec, store, control, threads, &cache.partitionHit);
        if (!result.ok()) {
            run::RunResult failed;
            failed.spec = spec;
            failed.errors = std::move(result.errors);
            failed.status = result.status;
            failed.timings = result.timings;
            return failed;
        }
        compiled = std::move(result.compiled);
        compileTimings = result.timings;
    }

    run::RunResult result;
    if (stored) {
        cache.runHit = true;
        result.spec = spec;
        result.compiled = compiled;
        result.problem = run::scheduleProblemFor(*compiled, spec);
        result.designs = std::move(*stored);
    } else {
        result = run::scheduleRun(compiled, spec, control, threads);
        if (result.ok() && store != nullptr)
            store->saveRun(result, withDetail);
    }
    result.timings.importSeconds = compileTimings.importSeconds;
    result.timings.partitionSeconds = compileTimings.partitionSeconds;
    return result;
}

} // namespace elk::store
