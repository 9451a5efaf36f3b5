// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The whole StableHLO flow (hlo-design §1): read → flatten and cost → fuse → slice → estimate compute
// regions (fallback chain, region cache) → price collectives → simulate the step.

#include "engine/core/run_control.h"
#include "engine/hlo/hlo_estimator.h"
#include "engine/hlo/hlo_network.h"
#include "engine/hlo/hlo_presets.h"
#include "engine/hlo/hlo_reader.h"
#include "engine/hlo/hlo_slice.h"
#include "engine/hlo/hlo_step.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elk::store {
class ResultStore;
}

namespace elk::hlo {

struct HloRunOptions {
    std::string system = "4x-a100-sxm-40gb"; ///< a system preset name or JSON file
    std::vector<std::string> estimators { "roofline" }; ///< fallback chain, first that supports a kernel wins
    SliceOptions slice;
    FusionOptions fusion;
    std::int64_t defaultTripCount = 1;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto;
    int partIndex = 0; ///< which `// -----` part of a split file
    /// Validation fits: predicted compute times are multiplied by this (the device's compute and
    /// memory efficiencies are divided by it). 1: the preset as it is.
    double efficiencyScale = 1;
    /// A kernel no estimator of the chain supports fails the run (with the kernels named); true: it
    /// is priced at 0 s, listed in a warning and counted in HloRunResult::unpricedKernels.
    bool allowUnpriced = false;
    /// The size of every `?` dimension without a bound (`--dim ?=N`); none: a module that has such
    /// dims is refused with the list of them (never silently 1).
    std::optional<std::int64_t> dynamicDimSize;
};

struct RegionReport {
    RegionKind kind = RegionKind::Compute;
    std::int64_t ops = 0; ///< costed ops in it (all executions counted once)
    std::int64_t kernels = 0;
    double seconds = 0; ///< all executions
    double startSeconds = 0, endSeconds = 0; ///< in the step timeline
    std::string estimator; ///< compute: the estimators that priced it ("roofline", "icca:x+roofline"); comm: the
                           ///< algorithm and path
    double flops = 0; ///< all executions
    double bytes = 0; ///< compute: memory traffic; comm: bytes per device on the wire
    bool cached = false;
    // communication
    std::string collective; ///< "all_reduce", ...; empty for compute
    double executions = 1; ///< comm: times the collective runs (a loop's trip count)
    double payloadBytes = 0; ///< the collective's per-device operand bytes
    std::int64_t groupSize = 0;
};

/// One point per kernel (roofline chart): arithmetic intensity vs attained FLOP/s.
struct KernelPoint {
    std::uint32_t kernel = 0;
    std::string label; ///< first op name and count, "stablehlo.dot_general ×3"
    double flops = 0; ///< per execution
    double bytes = 0;
    double seconds = 0; ///< per execution
    double executions = 1;
    bool computeBound = false;
    std::string estimator;
    std::string peakType;
    std::string signature; ///< the kernel's signature (table estimator key)
};

struct HloRunResult {
    std::string moduleName;
    std::string sourceFile;
    std::string systemName;
    DevicePreset device;
    SystemPreset system;
    std::vector<std::string> estimators; ///< the chain as used
    std::int64_t opCount = 0; ///< flattened costed ops (Compute + Collective)
    std::vector<std::string> unknownOps;
    std::vector<RegionReport> regions; ///< in step order
    std::vector<KernelPoint> kernels;
    std::vector<StepNode> stepNodes;
    StepTimeline timeline;
    double computeSeconds = 0, commSeconds = 0, exposedCommSeconds = 0, stepSeconds = 0;
    double totalFlops = 0;
    double unfusedBytes = 0, fusedBytes = 0; ///< the fusion pass's effect (all executions)
    bool fusionEnabled = true;
    std::string fusionMode; ///< "xla", "elk" or "none": how kernels were formed
    /// Region estimates served from the cache or from an identical region earlier in this run
    /// (repeated layers), and those computed.
    std::int64_t cacheHits = 0, cacheMisses = 0;
    /// Kernels no estimator priced (only with HloRunOptions::allowUnpriced; they count 0 s).
    std::int64_t unpricedKernels = 0;
    std::vector<std::string> warnings;
    std::vector<std::string> errors; ///< fatal
    RunStatus status = RunStatus::Completed;
    bool ok() const { return errors.empty() && status == RunStatus::Completed; }
};

/// Runs the flow on a parsed module. `cache` may be null. Deterministic.
HloRunResult runHloModule(
    const Module& module, const HloRunOptions& options, store::ResultStore* cache, RunControl& control);
/// Reads the file (errors located) and runs part `options.partIndex`.
HloRunResult runHloFile(
    const std::string& path, const HloRunOptions& options, store::ResultStore* cache, RunControl& control);

/// The `--json` report of the issue: {"module","ops","unknown_ops","regions":[...],"compute_s","comm_s",
/// "exposed_comm_s","step_s","cache":{"hits","misses"}} plus system, estimators, fusion and warnings.
std::string hloRunToJson(const HloRunResult& result);
/// One row per region: index,kind,ops,kernels,seconds,start_s,end_s,estimator,collective,bytes,group_size.
std::string hloRegionsToCsv(const HloRunResult& result);

} // namespace elk::hlo
