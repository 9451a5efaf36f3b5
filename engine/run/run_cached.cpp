// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// runCached: the pipeline every front end uses, with the result cache in front of each stage.
#include "engine/run/run_cache.h"

namespace elk::run {

CompileResult compileCached(
    const RunSpec& spec, RunCache* resultCache, RunControl& control, int threads, bool* partitionHit)
{
    const std::string key = partitionKey(spec);
    const std::optional<PartitionTables> tables
        = resultCache != nullptr ? resultCache->loadPartitionTables(key) : std::nullopt;
    CompileResult result = compileModel(spec, control, threads, tables ? &*tables : nullptr);
    if (partitionHit != nullptr)
        *partitionHit = result.fromCache;
    if (result.ok() && !result.fromCache && resultCache != nullptr)
        resultCache->savePartitionTables(key, partitionTablesOf(*result.compiled));
    return result;
}

RunResult runCached(const RunSpec& spec, RunCache* resultCache, RunControl& control, int threads,
    std::shared_ptr<const CompiledModel> reuse, bool withDetail, CacheOutcome* outcome)
{
    CacheOutcome local;
    CacheOutcome& cache = outcome != nullptr ? *outcome : local;
    cache = CacheOutcome {};
    const std::string key = partitionKey(spec);

    std::optional<std::vector<DesignRun>> stored;
    if (resultCache != nullptr) {
        control.progress(0, 1, "cache lookup");
        stored = resultCache->loadDesigns(spec, withDetail);
    }

    // The compiled model: the one given, else import plus cached tables, else a full compile.
    std::shared_ptr<const CompiledModel> compiled;
    StageTimings compileTimings;
    if (reuse && reuse->partitionKey == key) {
        compiled = std::move(reuse);
        cache.reusedCompiled = true;
        cache.partitionHit = true;
    } else {
        CompileResult result = compileCached(spec, resultCache, control, threads, &cache.partitionHit);
        if (!result.ok())
            return failedRun(spec, std::move(result));
        compiled = std::move(result.compiled);
        compileTimings = result.timings;
    }

    RunResult result;
    if (stored) {
        result.spec = spec;
        result.compiled = compiled;
        result.designs = std::move(*stored);
        // A stored split choice that does not fit the compiled model is a miss: schedule again.
        if (attachProblems(result))
            cache.runHit = true;
        else
            stored.reset();
    }
    if (!stored) {
        result = scheduleRun(compiled, spec, control, threads);
        if (result.ok() && resultCache != nullptr)
            resultCache->saveRun(result, withDetail);
    }
    result.timings.importSeconds = compileTimings.importSeconds;
    result.timings.partitionSeconds = compileTimings.partitionSeconds;
    return result;
}

} // namespace elk::run
