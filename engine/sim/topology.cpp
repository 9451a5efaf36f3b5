// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sim/topology.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace elk::sim {

namespace {

    constexpr char kDirections[4] = { 'E', 'W', 'N', 'S' };
    constexpr int kDx[4] = { 1, -1, 0, 0 };
    constexpr int kDy[4] = { 0, 0, -1, 1 };

    /// Rows [first, last) of segment `index` of `count` equal segments of `rows` rows (never empty).
    std::vector<int> columnSegment(int column, int index, int count, int rows, int width)
    {
        const int first = index * rows / count;
        const int last = std::max(first + 1, (index + 1) * rows / count);
        std::vector<int> routers;
        for (int y = first; y < std::min(last, rows); ++y)
            routers.push_back(y * width + column);
        return routers;
    }

} // namespace

const char* toString(LinkKind kind)
{
    switch (kind) {
    case LinkKind::CoreIngress:
        return "core-ingress";
    case LinkKind::CoreEgress:
        return "core-egress";
    case LinkKind::MeshLink:
        return "mesh";
    case LinkKind::HbmStack:
        return "hbm";
    case LinkKind::InterChip:
        return "inter-chip";
    }
    return "?";
}

Topology::Topology(const chip::ChipSpec& chip)
{
    m_chips = chip.chips;
    m_coresPerChip = chip.coresPerChip;
    m_cores = chip.chips * chip.coresPerChip;
    m_stacks = chip.hbm.stacksPerChip;
    m_mesh = chip.interconnect.topology == chip::Topology::Mesh2d;
    m_portBytesPerCycle = chip.linkBytesPerCycle();
    const double port = m_portBytesPerCycle;
    if (m_mesh) {
        m_width = chip.interconnect.meshWidth;
        m_height = chip.interconnect.meshHeight;
        m_meshIds.assign(static_cast<std::size_t>(m_chips) * m_width * m_height * 4, -1);
        for (int c = 0; c < m_chips; ++c)
            for (int y = 0; y < m_height; ++y)
                for (int x = 0; x < m_width; ++x)
                    for (int d = 0; d < 4; ++d) {
                        const int nx = x + kDx[d], ny = y + kDy[d];
                        if (nx < 0 || ny < 0 || nx >= m_width || ny >= m_height)
                            continue;
                        LinkInfo link;
                        link.kind = LinkKind::MeshLink;
                        link.bytesPerCycle = port;
                        link.chip = c;
                        link.core = c * m_coresPerChip + y * m_width + x;
                        link.x = x;
                        link.y = y;
                        link.direction = kDirections[d];
                        link.name = "chip " + std::to_string(c) + " (" + std::to_string(x) + "," + std::to_string(y)
                            + ")→" + kDirections[d];
                        m_meshIds[static_cast<std::size_t>(((c * m_height + y) * m_width + x) * 4 + d)]
                            = static_cast<int>(m_links.size());
                        m_links.push_back(std::move(link));
                    }
    } else {
        m_links.reserve(static_cast<std::size_t>(2 * m_cores));
        for (int core = 0; core < m_cores; ++core)
            for (const LinkKind kind : { LinkKind::CoreIngress, LinkKind::CoreEgress }) {
                LinkInfo link;
                link.kind = kind;
                link.bytesPerCycle = port;
                link.chip = core / m_coresPerChip;
                link.core = core;
                link.name = "chip " + std::to_string(link.chip) + " core " + std::to_string(core % m_coresPerChip)
                    + (kind == LinkKind::CoreIngress ? " ingress" : " egress");
                m_links.push_back(std::move(link));
            }
    }
    m_hbmBase = static_cast<int>(m_links.size());
    const double stackBytesPerCycle = chip.hbm.bandwidthGBpsPerStack * 1e9 / chip.clockHz;
    for (int c = 0; c < m_chips; ++c)
        for (int s = 0; s < m_stacks; ++s) {
            LinkInfo link;
            link.kind = LinkKind::HbmStack;
            link.bytesPerCycle = stackBytesPerCycle;
            link.chip = c;
            link.stack = s;
            link.name = "chip " + std::to_string(c) + " HBM " + std::to_string(s);
            m_links.push_back(std::move(link));
        }
    m_interBase = static_cast<int>(m_links.size());
    const double interBytesPerCycle = chip.interChip.linkBandwidthGBps * 1e9 / chip.clockHz;
    for (int c = 0; c + 1 < m_chips; ++c)
        for (int back = 0; back < 2; ++back) {
            LinkInfo link;
            link.kind = LinkKind::InterChip;
            link.bytesPerCycle = interBytesPerCycle;
            link.chip = back ? c + 1 : c;
            link.direction = back ? 'W' : 'E';
            link.name = "chip " + std::to_string(back ? c + 1 : c) + "→" + std::to_string(back ? c : c + 1);
            m_links.push_back(std::move(link));
        }

    // Controller attachment (the same local routers on every chip).
    m_controllers.resize(static_cast<std::size_t>(m_stacks));
    m_stackColumn.assign(static_cast<std::size_t>(m_stacks), -1);
    const int S = m_stacks;
    for (int s = 0; s < S; ++s) {
        auto& routers = m_controllers[static_cast<std::size_t>(s)];
        switch (chip.hbm.controllerPlacement) {
        case chip::ControllerPlacement::Spread:
            routers.push_back(s * m_coresPerChip / S + m_coresPerChip / (2 * S));
            break;
        case chip::ControllerPlacement::WestEdge:
            routers = columnSegment(0, s, S, m_height, m_width);
            m_stackColumn[static_cast<std::size_t>(s)] = 0;
            break;
        case chip::ControllerPlacement::WestEastEdges: {
            const int side = s % 2;
            const int count = side == 0 ? (S + 1) / 2 : S / 2;
            routers = columnSegment(side == 0 ? 0 : m_width - 1, s / 2, count, m_height, m_width);
            m_stackColumn[static_cast<std::size_t>(s)] = side == 0 ? 0 : m_width - 1;
            break;
        }
        case chip::ControllerPlacement::AllEdges:
            break; // below
        case chip::ControllerPlacement::Explicit:
            routers.push_back(chip.hbm.controllerCoreIds[static_cast<std::size_t>(s)]);
            break;
        }
    }
    if (chip.hbm.controllerPlacement == chip::ControllerPlacement::AllEdges) {
        // Edge routers west column, east column, north row, south row; round-robin over stacks.
        std::vector<int> edge;
        std::vector<char> seen(static_cast<std::size_t>(m_coresPerChip), 0);
        const auto add = [&](int x, int y) {
            const int id = y * m_width + x;
            if (!seen[static_cast<std::size_t>(id)]) {
                seen[static_cast<std::size_t>(id)] = 1;
                edge.push_back(id);
            }
        };
        for (int y = 0; y < m_height; ++y)
            add(0, y);
        for (int y = 0; y < m_height; ++y)
            add(m_width - 1, y);
        for (int x = 0; x < m_width; ++x)
            add(x, 0);
        for (int x = 0; x < m_width; ++x)
            add(x, m_height - 1);
        for (std::size_t k = 0; k < edge.size(); ++k)
            m_controllers[k % static_cast<std::size_t>(S)].push_back(edge[k]);
    }
}

int Topology::nearestController(int stack, int core) const
{
    const auto& routers = m_controllers[static_cast<std::size_t>(stack)];
    if (!m_mesh || routers.size() == 1)
        return routers.front();
    const int local = core % m_coresPerChip;
    const int x = local % m_width, y = local / m_width;
    int best = routers.front(), bestDistance = -1;
    for (int r : routers) {
        const int distance = std::abs(r % m_width - x) + std::abs(r / m_width - y);
        if (bestDistance < 0 || distance < bestDistance) {
            best = r;
            bestDistance = distance;
        }
    }
    return best;
}

int Topology::injectionRouter(int stack, int core) const
{
    const int column = m_mesh ? m_stackColumn[static_cast<std::size_t>(stack)] : -1;
    if (column < 0)
        return nearestController(stack, core);
    return (core % m_coresPerChip) / m_width * m_width + column;
}

int Topology::route(int src, int dst, std::vector<int>& out) const
{
    if (src == dst)
        return 0;
    const int srcChip = src / m_coresPerChip, dstChip = dst / m_coresPerChip;
    if (!m_mesh) {
        out.push_back(egress(src));
        for (int c = srcChip; c < dstChip; ++c)
            out.push_back(interChipLink(c, true));
        for (int c = srcChip; c > dstChip; --c)
            out.push_back(interChipLink(c, false));
        out.push_back(ingress(dst));
        return 1 + std::abs(dstChip - srcChip);
    }
    const int srcLocal = src % m_coresPerChip, dstLocal = dst % m_coresPerChip;
    int gx = srcChip * m_width + srcLocal % m_width;
    const int y = srcLocal / m_width;
    const int gxDst = dstChip * m_width + dstLocal % m_width;
    const int yDst = dstLocal / m_width;
    int hops = 0;
    while (gx != gxDst) {
        const bool east = gxDst > gx;
        const int chip = gx / m_width, x = gx % m_width;
        if (east && x == m_width - 1)
            out.push_back(interChipLink(chip, true));
        else if (!east && x == 0)
            out.push_back(interChipLink(chip, false));
        else
            out.push_back(meshLink(chip, x, y, east ? 0 : 1));
        gx += east ? 1 : -1;
        ++hops;
    }
    for (int yy = y; yy != yDst; yy += yDst > yy ? 1 : -1) {
        out.push_back(meshLink(dstChip, gx % m_width, yy, yDst > yy ? 3 : 2));
        ++hops;
    }
    return hops;
}

} // namespace elk::sim
