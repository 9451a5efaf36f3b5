// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/impl/plan_enumeration.h"

#include <algorithm>

namespace elk::partition::detail {

SpatialEnumerator::SpatialEnumerator(const ExprFacts& facts)
    : m_facts(facts)
{
    const auto D = std::size_t(facts.dims);
    m_begin.resize(D);
    m_end.resize(D);
    for (std::size_t d = 0; d < D; ++d) {
        m_begin[d] = m_candidate.size();
        const std::int64_t extent = facts.extent[d];
        // Extent-1 dims get hi = 1: they are never split.
        const std::int64_t hi = std::min(facts.cores, extent);
        for (std::int64_t s = 1; s <= hi; ++s) {
            const std::int64_t tile = ceilDiv(extent, s);
            const double pad = double(extent) / double(tile * s);
            if (pad < facts.padding)
                continue;
            m_candidate.push_back(std::int32_t(s));
            m_candidateTile.push_back(tile);
            m_candidatePad.push_back(pad);
        }
        m_end[d] = m_candidate.size();
    }
    m_suffixMax.assign(D, 1.0);
    for (std::size_t d = D; d-- > 1;)
        m_suffixMax[d - 1] = m_suffixMax[d] * (m_end[d] > m_begin[d] ? double(m_candidate[m_end[d] - 1]) : 0.0);
    // A hair below C·U so that this prefix bound never rejects a split the exact leaf test accepts.
    m_minCores = double(facts.cores) * facts.utilization * (1.0 - 1e-12);
    m_pos.assign(D, 0);
    m_prod.assign(D + 1, 1);
    m_pad.assign(D + 1, 1.0);
    m_spatial.assign(D, 1);
    m_tile.assign(D, 1);
}

void SpatialEnumerator::restrictFirstDim(std::size_t begin, std::size_t end)
{
    if (m_end.empty())
        return;
    const std::size_t first = m_begin[0];
    const std::size_t count = m_end[0] - first;
    m_begin[0] = first + std::min(begin, count);
    m_end[0] = first + std::min(std::max(begin, end), count);
}

std::size_t SpatialEnumerator::firstReachable(int d) const
{
    const auto level = std::size_t(d);
    const std::int64_t prefix = m_prod[level];
    const double suffix = m_suffixMax[level];
    const auto first = m_candidate.begin() + std::ptrdiff_t(m_begin[level]);
    const auto last = m_candidate.begin() + std::ptrdiff_t(m_end[level]);
    const auto it
        = std::partition_point(first, last, [&](std::int32_t s) { return double(prefix * s) * suffix < m_minCores; });
    return std::size_t(it - m_candidate.begin());
}

bool SpatialEnumerator::next()
{
    const int D = m_facts.dims;
    int d = D - 1;
    if (!m_started) {
        m_started = true;
        d = 0;
        m_pos[0] = firstReachable(0);
    } else {
        ++m_pos[std::size_t(d)];
    }
    while (d >= 0) {
        const auto level = std::size_t(d);
        bool found = false;
        for (; m_pos[level] < m_end[level]; ++m_pos[level]) {
            const std::size_t i = m_pos[level];
            const std::int64_t prod = m_prod[level] * m_candidate[i];
            if (prod > m_facts.cores) {
                m_pos[level] = m_end[level]; // candidates ascend: all later ones use even more cores
                break;
            }
            if (m_pad[level] * m_candidatePad[i] < m_facts.padding)
                continue;
            found = true;
            break;
        }
        if (!found) {
            if (--d >= 0)
                ++m_pos[std::size_t(d)];
            continue;
        }
        const std::size_t i = m_pos[level];
        m_spatial[level] = m_candidate[i];
        m_tile[level] = m_candidateTile[i];
        m_prod[level + 1] = m_prod[level] * m_candidate[i];
        m_pad[level + 1] = m_pad[level] * m_candidatePad[i];
        if (d == D - 1) {
            if (double(m_prod[level + 1]) / double(m_facts.cores) >= m_facts.utilization)
                return true;
            ++m_pos[level];
            continue;
        }
        ++d;
        m_pos[std::size_t(d)] = firstReachable(d);
    }
    return false;
}

TemporalEnumerator::TemporalEnumerator(const ExprFacts& facts)
    : m_facts(facts)
    , m_dims(facts.dims)
    , m_operands(facts.operands)
{
    const auto D = std::size_t(m_dims);
    const auto V = std::size_t(m_operands);
    m_replicas.assign(V, 1);
    m_divBegin.assign(V + 1, 0);
    m_listBegin.assign(D, 0);
    m_listEnd.assign(D, 0);
    m_work.assign(V, 1);
    m_pos.assign(D, 0);
    m_prod.assign((D + 1) * V, 1);
    m_elementProd.assign((D + 1) * V, 1);
    m_pad.assign(D + 1, 1.0);
    m_temporal.assign(D * V, 1);
    // Running element products need each operand to index each dim at most once, with plain axes.
    m_plainAxes = true;
    for (std::size_t v = 0; v < V; ++v) {
        std::vector<char> seen(D, 0);
        for (int a = facts.axisBegin[v]; a < facts.axisBegin[v + 1]; ++a) {
            const AxisRef& axis = facts.axes[std::size_t(a)];
            if (axis.windowDim >= 0 || seen[std::size_t(axis.dim)])
                m_plainAxes = false;
            else
                seen[std::size_t(axis.dim)] = 1;
        }
    }
}

void TemporalEnumerator::reset(const std::int32_t* spatial, const std::int64_t* tile)
{
    const auto D = std::size_t(m_dims);
    const auto V = std::size_t(m_operands);
    m_tileRef = tile;
    // r[v]: cores holding the same tile of v = product of the splits of the dims v does not use
    // (what the reference's ceil(tile · ΠS / padded size) equals for every tensor).
    m_divisors.clear();
    for (std::size_t v = 0; v < V; ++v) {
        std::int64_t r = 1;
        for (std::size_t d = 0; d < D; ++d) {
            if (!m_facts.uses[d * V + v])
                r *= spatial[d];
        }
        m_replicas[v] = r;
        m_divBegin[v] = m_divisors.size();
        std::size_t small = m_divisors.size();
        for (std::int64_t x = 1; x * x <= r; ++x) {
            if (r % x == 0)
                m_divisors.push_back(std::int32_t(x));
        }
        const std::size_t smallEnd = m_divisors.size();
        for (std::size_t i = smallEnd; i-- > small;) {
            const std::int64_t big = r / m_divisors[i];
            if (big != m_divisors[i])
                m_divisors.push_back(std::int32_t(big));
        }
    }
    m_divBegin[V] = m_divisors.size();
    m_list.clear();
    m_listPad.clear();
    m_listExtent.clear();
    m_listLargest.clear();
    m_listIterExtent.clear();
    for (int d = 0; d < m_dims; ++d)
        buildDimList(d);
    std::fill(m_prod.begin(), m_prod.begin() + std::ptrdiff_t(V), 1);
    m_started = false;
}

bool TemporalEnumerator::chainsWith(std::int32_t value) const
{
    for (std::int32_t other : m_work) {
        if (other > 1 && other % value != 0 && value % other != 0)
            return false;
    }
    return true;
}

void TemporalEnumerator::extendDimList(int d, std::size_t user, std::int32_t largest)
{
    const auto& users = m_facts.users[std::size_t(d)];
    if (user == users.size()) {
        const std::int64_t t = m_tileRef[d];
        const double pad = double(t) / double(std::int64_t(largest) * ceilDiv(t, largest));
        if (pad >= m_facts.padding) {
            m_list.insert(m_list.end(), m_work.begin(), m_work.end());
            for (std::int32_t f : m_work)
                m_listExtent.push_back(ceilDiv(t, f));
            m_listLargest.push_back(largest);
            m_listIterExtent.push_back(ceilDiv(t, largest));
            m_listPad.push_back(pad);
        }
        return;
    }
    const auto v = std::size_t(users[user]);
    for (std::size_t i = m_divBegin[v]; i < m_divBegin[v + 1]; ++i) {
        const std::int32_t x = m_divisors[i];
        if (x > m_tileRef[d])
            break; // a rotation factor never exceeds the tile extent
        // Sorted, the factors > 1 of one dim must form a divisibility chain (§2.4 step 2).
        if (x > 1 && !chainsWith(x))
            continue;
        m_work[v] = x;
        extendDimList(d, user + 1, std::max(largest, x));
        m_work[v] = 1;
    }
}

void TemporalEnumerator::buildDimList(int d)
{
    const std::size_t V = std::size_t(m_operands);
    m_listBegin[std::size_t(d)] = m_listPad.size();
    std::fill(m_work.begin(), m_work.end(), 1);
    if (m_tileRef[d] == 1) {
        m_list.insert(m_list.end(), V, 1);
        m_listExtent.insert(m_listExtent.end(), V, 1);
        m_listLargest.push_back(1);
        m_listIterExtent.push_back(1);
        m_listPad.push_back(1.0);
    } else {
        extendDimList(d, 0, 1);
    }
    m_listEnd[std::size_t(d)] = m_listPad.size();
}

bool TemporalEnumerator::next()
{
    const std::size_t V = std::size_t(m_operands);
    int d = m_dims - 1;
    if (!m_started) {
        m_started = true;
        d = 0;
        m_pos[0] = m_listBegin[0];
    } else {
        ++m_pos[std::size_t(d)];
    }
    while (d >= 0) {
        const auto level = std::size_t(d);
        const std::int64_t* prod = m_prod.data() + level * V;
        bool found = false;
        for (; m_pos[level] < m_listEnd[level]; ++m_pos[level]) {
            const std::size_t j = m_pos[level];
            if (m_pad[level] * m_listPad[j] < m_facts.padding)
                continue;
            const std::int32_t* c = m_list.data() + j * V;
            bool divides = true;
            // The running product of an operand's factors must keep dividing r[v] (§2.4 step 5);
            // checking prefixes prunes whole subtrees.
            for (std::size_t v = 0; v < V && divides; ++v)
                divides = c[v] == 1 || m_replicas[v] % (prod[v] * c[v]) == 0;
            if (divides) {
                found = true;
                break;
            }
        }
        if (!found) {
            if (--d >= 0)
                ++m_pos[std::size_t(d)];
            continue;
        }
        const std::size_t j = m_pos[level];
        const std::int32_t* c = m_list.data() + j * V;
        std::int64_t* nextProd = m_prod.data() + (level + 1) * V;
        const std::int64_t* extent = m_listExtent.data() + j * V;
        const std::int64_t* elements = m_elementProd.data() + level * V;
        std::int64_t* nextElements = m_elementProd.data() + (level + 1) * V;
        for (std::size_t v = 0; v < V; ++v) {
            m_temporal[level * V + v] = c[v];
            nextProd[v] = prod[v] * c[v];
            nextElements[v] = m_facts.uses[level * V + v] ? elements[v] * extent[v] : elements[v];
        }
        m_pad[level + 1] = m_pad[level] * m_listPad[j];
        if (d == m_dims - 1)
            return true;
        ++d;
        m_pos[std::size_t(d)] = m_listBegin[std::size_t(d)];
    }
    return false;
}

} // namespace elk::partition::detail
