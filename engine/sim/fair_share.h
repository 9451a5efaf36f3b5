// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/sim/traffic.h"

#include <map>
#include <span>
#include <utility>
#include <vector>

namespace elk::sim {

/// One transferring phase: its vector and the rate (fraction of the phase per cycle) it would get alone.
struct FlowDemand {
    int vector = 0;
    double soloRate = 0;
};

struct FairShareResult {
    std::vector<double> rates; ///< fraction of each phase per cycle, in the order given
    double maxUtilization = 0; ///< highest link load ÷ capacity under these rates
};

/// Max-min fair fluid sharing by progressive filling. A phase's level is the share of its own
/// bottleneck link it uses (rate × PhaseVector::minCycles; 1 = full speed on that link), so two
/// phases on one link get equal bytes per cycle there, as classic max-min does for single-link
/// flows. All unfrozen levels rise together; a phase freezes when it reaches its solo rate or when
/// a link it uses saturates. Ties: flows in the order given, links ascending. Results are memoised
/// per (flows, sharing) since layers repeat.
class FairShare {
public:
    FairShare(const Topology& topology, const TrafficBuilder& traffic);

    /// share == false: every flow at its solo rate (contention off); maxUtilization is still that
    /// of the summed loads.
    const FairShareResult& solve(std::span<const FlowDemand> flows, bool share);

private:
    FairShareResult compute(std::span<const FlowDemand> flows, bool share);

    const Topology& m_topology;
    const TrafficBuilder& m_traffic;
    std::map<std::pair<std::vector<std::pair<int, double>>, bool>, FairShareResult> m_memo;
    std::vector<double> m_frozen, m_weight, m_load; ///< dense scratch, by link
    std::vector<std::uint32_t> m_touched; ///< links the flows use, each once, in first-use order
    std::vector<std::uint32_t> m_touchStamp; ///< by link: the compute() call that last listed it
    std::uint32_t m_stamp = 0;
};

} // namespace elk::sim
