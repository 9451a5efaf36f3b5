// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Step simulation (hlo-design §7): per device one compute stream and one communication stream;
// a region starts when its dependencies have ended and its stream is free. All devices run the same
// SPMD program, so one timeline with group sizes stands for all of them.

#include "engine/hlo/hlo_program.h"
#include "engine/hlo/hlo_slice.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elk::hlo {

struct StepNode {
    RegionKind kind = RegionKind::Compute;
    double seconds = 0; ///< all executions of the region together
    std::vector<std::uint32_t> dependencies; ///< earlier nodes, ascending
    std::string label; ///< "compute 12 (38 ops)", "all_reduce 4×1.6 MB"
    std::optional<CollectiveInfo> collective; ///< communication nodes
    double commBytesPerDevice
        = 0; ///< communication: the collective's payload per device, one execution (Chakra comm_size)
    double executions = 1; ///< communication: times the collective runs (a loop's trip count); `seconds` covers all
    double flops = 0; ///< compute: all executions
    double bytes = 0; ///< compute: memory traffic, all executions
};

struct StepTimeline {
    std::vector<double> startSeconds; ///< by node
    std::vector<double> endSeconds;
    double stepSeconds = 0; ///< makespan
    double computeSeconds = 0; ///< Σ compute node time (busy time of the compute stream)
    double commSeconds = 0; ///< Σ communication node time
    double exposedCommSeconds = 0; ///< stepSeconds − computeSeconds: communication not hidden by compute
};

/// Nodes must be in topological order (dependencies point to earlier nodes).
StepTimeline simulateStep(const std::vector<StepNode>& nodes);

/// Chrome trace JSON for Perfetto: a "compute" and a "communication" track, one slice per node
/// (microseconds, args with label, flops, bytes, collective and group size).
std::string stepTimelineToPerfetto(
    const std::vector<StepNode>& nodes, const StepTimeline& timeline, const std::string& title);

} // namespace elk::hlo
