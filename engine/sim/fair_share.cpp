// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/fair_share.h"

#include <algorithm>
#include <limits>

namespace elk::sim {

FairShare::FairShare(const Topology& topology, const TrafficBuilder& traffic)
    : m_topology(topology)
    , m_traffic(traffic)
{
    const auto n = static_cast<std::size_t>(topology.linkCount());
    m_frozen.assign(n, 0.0);
    m_weight.assign(n, 0.0);
    m_load.assign(n, 0.0);
    m_touchStamp.assign(n, 0u);
}

const FairShareResult& FairShare::solve(std::span<const FlowDemand> flows, bool share)
{
    std::vector<std::pair<int, double>> key;
    key.reserve(flows.size());
    for (const FlowDemand& flow : flows)
        key.emplace_back(flow.vector, flow.soloRate);
    auto found = m_memo.find({ key, share });
    if (found == m_memo.end())
        found = m_memo.emplace(std::make_pair(std::move(key), share), compute(flows, share)).first;
    return found->second;
}

FairShareResult FairShare::compute(std::span<const FlowDemand> flows, bool share)
{
    const auto& links = m_topology.links();
    const std::size_t n = flows.size();
    FairShareResult result;
    result.rates.assign(n, 0.0);
    // Levels: rate × minCycles, in [0, solo level].
    std::vector<double> level(n, 0.0), cap(n, 0.0);
    std::vector<char> frozen(n, 0);
    for (std::size_t p = 0; p < n; ++p) {
        const PhaseVector& v = m_traffic.vector(flows[p].vector);
        cap[p] = flows[p].soloRate * v.minCycles;
    }
    // Each link once (a stamp per call instead of a sort: every use of m_touched below is per link).
    m_touched.clear();
    if (++m_stamp == 0) {
        std::fill(m_touchStamp.begin(), m_touchStamp.end(), 0u);
        m_stamp = 1;
    }
    for (const FlowDemand& flow : flows)
        for (std::uint32_t l : m_traffic.vector(flow.vector).links)
            if (m_touchStamp[l] != m_stamp) {
                m_touchStamp[l] = m_stamp;
                m_touched.push_back(l);
            }

    if (!share || n == 1) {
        level = cap;
    } else {
        for (std::uint32_t l : m_touched)
            m_frozen[l] = 0.0;
        std::size_t left = n;
        double current = 0;
        while (left > 0) {
            // Weights of the unfrozen phases (bytes per cycle per unit level).
            for (std::uint32_t l : m_touched)
                m_weight[l] = 0.0;
            double next = std::numeric_limits<double>::infinity();
            for (std::size_t p = 0; p < n; ++p) {
                if (frozen[p])
                    continue;
                next = std::min(next, cap[p]);
                const PhaseVector& v = m_traffic.vector(flows[p].vector);
                for (std::size_t k = 0; k < v.links.size(); ++k)
                    m_weight[v.links[k]] += v.bytes[k] / v.minCycles;
            }
            for (std::uint32_t l : m_touched)
                if (m_weight[l] > 0)
                    next = std::min(next, (links[l].bytesPerCycle - m_frozen[l]) / m_weight[l]);
            next = std::max(next, current);
            current = next;
            const double tolerance = 1e-12 * std::max(1.0, next);
            // Freeze phases at their cap, and every phase using a saturated link.
            std::vector<char> freeze(n, 0);
            for (std::size_t p = 0; p < n; ++p) {
                if (frozen[p])
                    continue;
                if (cap[p] <= next + tolerance) {
                    freeze[p] = 1;
                    continue;
                }
                const PhaseVector& v = m_traffic.vector(flows[p].vector);
                for (std::uint32_t l : v.links)
                    if (links[l].bytesPerCycle - m_frozen[l] - next * m_weight[l] <= 1e-12 * links[l].bytesPerCycle) {
                        freeze[p] = 1;
                        break;
                    }
            }
            for (std::size_t p = 0; p < n; ++p) {
                if (!freeze[p])
                    continue;
                frozen[p] = 1;
                --left;
                level[p] = std::min(next, cap[p]);
                const PhaseVector& v = m_traffic.vector(flows[p].vector);
                for (std::size_t k = 0; k < v.links.size(); ++k)
                    m_frozen[v.links[k]] += level[p] * v.bytes[k] / v.minCycles;
            }
        }
    }
    for (std::size_t p = 0; p < n; ++p) {
        const PhaseVector& v = m_traffic.vector(flows[p].vector);
        result.rates[p] = v.minCycles > 0 ? level[p] / v.minCycles : flows[p].soloRate;
    }
    for (std::uint32_t l : m_touched)
        m_load[l] = 0.0;
    for (std::size_t p = 0; p < n; ++p) {
        const PhaseVector& v = m_traffic.vector(flows[p].vector);
        for (std::size_t k = 0; k < v.links.size(); ++k)
            m_load[v.links[k]] += result.rates[p] * v.bytes[k];
    }
    for (std::uint32_t l : m_touched)
        result.maxUtilization = std::max(result.maxUtilization, m_load[l] / links[l].bytesPerCycle);
    return result;
}

} // namespace elk::sim
