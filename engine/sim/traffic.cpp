// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/traffic.h"

#include <algorithm>
#include <numeric>

namespace elk::sim {

TrafficBuilder::TrafficBuilder(const Topology& topology)
    : m_topology(topology)
{
}

TrafficBuilder::Pattern TrafficBuilder::compress(std::vector<double>& dense, int maxHops) const
{
    Pattern pattern;
    pattern.maxHops = maxHops;
    for (std::size_t l = 0; l < dense.size(); ++l)
        if (dense[l] > 0) {
            pattern.links.push_back(static_cast<std::uint32_t>(l));
            pattern.bytes.push_back(dense[l]);
        }
    return pattern;
}

const TrafficBuilder::Pattern& TrafficBuilder::ringPattern(int ringSize)
{
    const auto found = m_rings.find(ringSize);
    if (found != m_rings.end())
        return found->second;
    const int cores = m_topology.cores();
    std::vector<double> dense(static_cast<std::size_t>(m_topology.linkCount()), 0.0);
    int maxHops = 0;
    for (int core = 0; core < cores; ++core) {
        const int base = core / ringSize * ringSize;
        const int size = std::min(ringSize, cores - base);
        const int next = base + (core - base + 1) % size;
        m_route.clear();
        maxHops = std::max(maxHops, m_topology.route(core, next, m_route));
        for (int l : m_route)
            dense[static_cast<std::size_t>(l)] += 1.0;
    }
    return m_rings.emplace(ringSize, compress(dense, maxHops)).first->second;
}

const TrafficBuilder::Pattern& TrafficBuilder::preloadPattern()
{
    if (!m_preload.empty())
        return m_preload.front();
    const int cores = m_topology.cores();
    const int stacks = m_topology.stacksPerChip();
    std::vector<double> dense(static_cast<std::size_t>(m_topology.linkCount()), 0.0);
    int maxHops = 0;
    for (int core = 0; core < cores; ++core) {
        if (!m_topology.mesh()) {
            dense[static_cast<std::size_t>(m_topology.ingress(core))] += 1.0;
            maxHops = 1;
            continue;
        }
        const int chipBase = core / m_topology.coresPerChip() * m_topology.coresPerChip();
        for (int s = 0; s < stacks; ++s) {
            m_route.clear();
            maxHops
                = std::max(maxHops, m_topology.route(chipBase + m_topology.injectionRouter(s, core), core, m_route));
            for (int l : m_route)
                dense[static_cast<std::size_t>(l)] += 1.0 / stacks;
        }
    }
    m_preload.push_back(compress(dense, maxHops));
    return m_preload.front();
}

int TrafficBuilder::finish(PhaseVector vector)
{
    const auto& links = m_topology.links();
    for (std::size_t k = 0; k < vector.links.size(); ++k) {
        const LinkInfo& link = links[vector.links[k]];
        const double bytes = vector.bytes[k];
        if (link.kind == LinkKind::HbmStack)
            vector.hbmBytes += bytes;
        else if (link.kind == LinkKind::InterChip)
            vector.interChipBytes += bytes;
        else
            vector.nocBytes += bytes;
        vector.minCycles = std::max(vector.minCycles, bytes / link.bytesPerCycle);
    }
    m_vectors.push_back(std::move(vector));
    return static_cast<int>(m_vectors.size()) - 1;
}

int TrafficBuilder::preload(std::int64_t hbmBytes, std::int64_t bytesPerCore)
{
    const auto key = std::make_tuple(0, hbmBytes, static_cast<double>(bytesPerCore));
    if (const auto found = m_memo.find(key); found != m_memo.end())
        return found->second;
    const Pattern& pattern = preloadPattern();
    std::vector<std::pair<std::uint32_t, double>> entries;
    entries.reserve(pattern.links.size() + 64);
    for (std::size_t k = 0; k < pattern.links.size(); ++k)
        entries.emplace_back(pattern.links[k], pattern.bytes[k] * static_cast<double>(bytesPerCore));
    const int stacks = m_topology.chips() * m_topology.stacksPerChip();
    for (int c = 0; c < m_topology.chips(); ++c)
        for (int s = 0; s < m_topology.stacksPerChip(); ++s)
            entries.emplace_back(
                static_cast<std::uint32_t>(m_topology.hbmLink(c, s)), static_cast<double>(hbmBytes) / stacks);
    std::sort(entries.begin(), entries.end());
    PhaseVector vector;
    vector.maxHops = pattern.maxHops;
    for (const auto& [link, bytes] : entries)
        if (bytes > 0) {
            vector.links.push_back(link);
            vector.bytes.push_back(bytes);
        }
    const int id = finish(std::move(vector));
    m_memo.emplace(key, id);
    return id;
}

int TrafficBuilder::ring(int ringSize, double bytesPerCore)
{
    ringSize = std::min(ringSize, m_topology.cores());
    if (ringSize < 2 || !(bytesPerCore > 0))
        return -1;
    const auto key = std::make_tuple(1, static_cast<std::int64_t>(ringSize), bytesPerCore);
    if (const auto found = m_memo.find(key); found != m_memo.end())
        return found->second;
    const Pattern& pattern = ringPattern(ringSize);
    PhaseVector vector;
    vector.maxHops = pattern.maxHops;
    vector.links = pattern.links;
    vector.bytes.resize(pattern.bytes.size());
    for (std::size_t k = 0; k < pattern.bytes.size(); ++k)
        vector.bytes[k] = pattern.bytes[k] * bytesPerCore;
    const int id = finish(std::move(vector));
    m_memo.emplace(key, id);
    return id;
}

} // namespace elk::sim
