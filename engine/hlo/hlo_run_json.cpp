// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_run.h"

#include <nlohmann/json.hpp>

namespace elk::hlo {

std::string hloRunToJson(const HloRunResult& result)
{
    using nlohmann::ordered_json;
    ordered_json root;
    root["schema"] = "elk.hlo-run/1";
    root["module"] = result.moduleName;
    root["file"] = result.sourceFile;
    root["system"] = result.systemName;
    root["device"] = result.device.name;
    root["devices"] = result.system.deviceCount();
    root["estimators"] = result.estimators;
    root["ops"] = result.opCount;
    root["unknown_ops"] = result.unknownOps;
    root["unpriced_kernels"] = result.unpricedKernels;
    ordered_json regions = ordered_json::array();
    for (const RegionReport& region : result.regions) {
        ordered_json row;
        row["kind"] = region.kind == RegionKind::Compute ? "compute" : "comm";
        row["ops"] = region.ops;
        row["seconds"] = region.seconds;
        row["start_s"] = region.startSeconds;
        row["end_s"] = region.endSeconds;
        row["estimator"] = region.estimator;
        if (region.kind == RegionKind::Communication) {
            row["collective"] = region.collective;
            row["bytes"] = region.payloadBytes; // one execution
            row["executions"] = region.executions;
            row["wire_bytes"] = region.bytes;
            row["group_size"] = region.groupSize;
        } else {
            row["collective"] = nullptr;
            row["bytes"] = region.bytes;
            row["group_size"] = nullptr;
            row["flops"] = region.flops;
            row["cached"] = region.cached;
        }
        regions.push_back(std::move(row));
    }
    root["regions"] = std::move(regions);
    ordered_json kernels = ordered_json::array();
    for (const KernelPoint& kernel : result.kernels)
        kernels.push_back({ { "label", kernel.label }, { "executions", kernel.executions }, { "flops", kernel.flops },
            { "bytes", kernel.bytes }, { "seconds", kernel.seconds }, { "compute_bound", kernel.computeBound },
            { "estimator", kernel.estimator }, { "dtype", kernel.peakType } });
    root["kernels"] = std::move(kernels);
    root["compute_s"] = result.computeSeconds;
    root["comm_s"] = result.commSeconds;
    root["exposed_comm_s"] = result.exposedCommSeconds;
    root["step_s"] = result.stepSeconds;
    root["flops"] = result.totalFlops;
    root["fusion"] = { { "enabled", result.fusionEnabled }, { "mode", result.fusionMode },
        { "unfused_bytes", result.unfusedBytes }, { "fused_bytes", result.fusedBytes } };
    root["cache"] = { { "hits", result.cacheHits }, { "misses", result.cacheMisses } };
    root["assumptions"] = "all devices run the same SPMD program: one timeline with group sizes stands for all";
    root["warnings"] = result.warnings;
    root["errors"] = result.errors;
    return root.dump(2) + "\n";
}

} // namespace elk::hlo
