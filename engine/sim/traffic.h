// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/sim/topology.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace elk::sim {

/// Bytes one phase moves over each link it uses (sparse, links ascending).
struct PhaseVector {
    std::vector<std::uint32_t> links;
    std::vector<double> bytes; ///< parallel to links
    double hbmBytes = 0; ///< on HBM stack channels
    double nocBytes = 0; ///< on on-chip links (ports or mesh links)
    double interChipBytes = 0;
    double minCycles = 0; ///< max over links of bytes ÷ capacity: the phase cannot finish faster
    int maxHops = 0; ///< longest route (fixed latency on a mesh)
};

/// Builds and memoises phase vectors: identical (plan, phase) pairs, which repeat in every layer,
/// share one vector. Traffic patterns (elk-design.md §6):
/// - preload: each stack reads its share of the op's HBM bytes once (hbmBytes ÷ all stacks); every
///   core receives its preload bytes per core, an equal part from each stack of its own chip, through
///   the router where that stack's data enters the mesh
///   (Topology::injectionRouter). Replicas are broadcast by the controllers, so HBM
///   is read once; on the NoC each replica is counted along its own route (a unicast upper bound for
///   a multicast tree).
/// - rotation shifts, distribute_data, reduction/shuffle: neighbour exchange in rings of
///   consecutive core ids (ring r = cores [r·R, (r+1)·R), each core sends its bytes to the next one,
///   the last to the first); rotation and warm-up use the largest rotation (or layout) factor as R,
///   reduction pairs cores (R = 2).
class TrafficBuilder {
public:
    explicit TrafficBuilder(const Topology& topology);

    /// Vector id of a preload of `hbmBytes` (whole op) with `bytesPerCore` delivered to every core.
    int preload(std::int64_t hbmBytes, std::int64_t bytesPerCore);
    /// Vector id of a neighbour exchange of `bytesPerCore` in rings of `ringSize` consecutive cores;
    /// -1 when nothing moves.
    int ring(int ringSize, double bytesPerCore);
    const PhaseVector& vector(int id) const { return m_vectors[static_cast<std::size_t>(id)]; }
    int count() const { return static_cast<int>(m_vectors.size()); }

private:
    struct Pattern {
        std::vector<std::uint32_t> links;
        std::vector<double> bytes;
        int maxHops = 0;
    };
    const Pattern& ringPattern(int ringSize);
    const Pattern& preloadPattern();
    Pattern compress(std::vector<double>& dense, int maxHops) const;
    int finish(PhaseVector vector);

    const Topology& m_topology;
    std::map<int, Pattern> m_rings;
    std::vector<Pattern> m_preload; ///< empty or one
    std::map<std::tuple<int, std::int64_t, double>, int> m_memo;
    std::vector<PhaseVector> m_vectors;
    std::vector<int> m_route; ///< scratch
};

} // namespace elk::sim
