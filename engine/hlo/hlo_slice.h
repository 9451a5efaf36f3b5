// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Slicing the kernel list into compute and communication regions (hlo-design §4).

#include "engine/hlo/hlo_fusion.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elk::hlo {

enum class SplitMode {
    Linear, ///< consecutive compute kernels between collectives form one region; a chain, program order
    Dependency, ///< one region per kernel with data edges, then (optionally) a greedy merge
};
const char* toString(SplitMode mode); ///< "linear" | "dependency"
std::optional<SplitMode> splitModeFromString(std::string_view text);

enum class RegionKind { Compute, Communication };

struct SliceRegion {
    RegionKind kind = RegionKind::Compute;
    std::vector<std::uint32_t> kernels; ///< indices into FusionResult::kernels, ascending
    std::vector<std::uint32_t> dependencies; ///< earlier regions it waits for, ascending, unique
    /// Stable hash of the region's content (kernel signatures and execution counts, not positions):
    /// repeated layers give equal hashes. Lower-case hex.
    std::string contentHash;
};

struct SliceOptions {
    SplitMode mode = SplitMode::Linear;
    bool merge = true; ///< Dependency: greedily merge compute regions while the graph stays acyclic
    std::int64_t maxKernelsPerRegion = 1024; ///< Linear: flush a compute region at this size
};

struct SliceResult {
    std::vector<SliceRegion> regions; ///< topological order (every dependency comes earlier)
};

SliceResult sliceProgram(const HloProgram& program, const FusionResult& fusion, const SliceOptions& options = {});

/// Σ flops × executions over the compute regions (tests: equal for both modes and the whole program).
double computeFlopsOf(const SliceResult& slices, const FusionResult& fusion);

} // namespace elk::hlo
