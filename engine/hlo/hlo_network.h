// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// α–β cost of collectives on a system (hlo-design §7). Sizes follow the collectives' semantics
// (per device, ring: all_reduce 2(N−1)/N·S, all_gather (N−1)/N·S_out, reduce_scatter (N−1)/N·S_in,
// all_to_all (N−1)/N·S, collective_permute S per pair). Groups spanning nodes use a hierarchical
// collective: an intra-node phase on NVLink and an inter-node phase on the dragonfly.

#include "engine/hlo/hlo_presets.h"
#include "engine/hlo/hlo_program.h"

#include <optional>
#include <string>
#include <string_view>

namespace elk::hlo {

enum class CollectiveAlgorithm { Auto, Ring, Direct, HalvingDoubling, Tree };
const char* toString(CollectiveAlgorithm algorithm); ///< "auto", "ring", "direct", "halving-doubling", "tree"
std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text);

struct CollectiveTime {
    double seconds = 0;
    double bytesSentPerDevice = 0; ///< on the wire, per device, all phases
    int steps = 0; ///< latency terms (α count) over all phases
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring; ///< the one used (Auto resolved)
    std::string path; ///< "nvlink", "torus", "nvlink+dragonfly", "local" (group of 1)
};

/// Time of one execution of the collective. Auto picks the fastest algorithm for the topology.
/// Device ids in groups are global ranks; consecutive ranks share a node (devicesPerNode per node).
CollectiveTime collectiveTime(const CollectiveInfo& collective, const SystemPreset& system,
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto);

} // namespace elk::hlo
