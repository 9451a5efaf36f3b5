// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"
#include "engine/sim/sim_result.h"

#include <cstdint>
#include <vector>

namespace elk::sim {

/// The links of a ChipSpec and the routes over them (elk-design.md §6).
///
/// Core ids are global: chip × coresPerChip + local id. Mesh: local id = y × meshWidth + x, row 0 is
/// the north edge, x grows eastwards; chips sit side by side in x (chip c's column w − 1 is joined
/// to chip c + 1's column 0 by the inter-chip link c→c+1). Routing is dimension-order: x first
/// (along the source row, crossing chips over inter-chip links), then y (along the destination
/// column). All-to-all: a transfer leaves through the source core's egress port, crosses the
/// inter-chip links between the two chips (chips form a chain) and enters the destination core's
/// ingress port. HBM controllers have their own ports into the exchange (all-to-all) or inject into
/// the routers they attach to (mesh), so only the stack channel itself limits them.
///
/// Link order (stable, part of the results): all-to-all, per core: ingress, egress; mesh, per chip,
/// router (row-major), direction E W N S (only links with a neighbour on the chip); then HBM stacks
/// (chip-major); then inter-chip links c→c+1, c+1→c.
class Topology {
public:
    explicit Topology(const chip::ChipSpec& chip);

    const std::vector<LinkInfo>& links() const { return m_links; }
    int linkCount() const { return static_cast<int>(m_links.size()); }
    int cores() const { return m_cores; }
    int chips() const { return m_chips; }
    int coresPerChip() const { return m_coresPerChip; }
    bool mesh() const { return m_mesh; }
    int stacksPerChip() const { return m_stacks; }
    int hbmLink(int chip, int stack) const { return m_hbmBase + chip * m_stacks + stack; }
    int ingress(int core) const { return 2 * core; } ///< all-to-all only
    int egress(int core) const { return 2 * core + 1; } ///< all-to-all only
    /// Routers (local ids) a stack's controller injects into (mesh; one entry for all-to-all).
    const std::vector<int>& controllerRouters(int stack) const
    {
        return m_controllers[static_cast<std::size_t>(stack)];
    }
    /// The router of `stack`'s controller nearest to global core `core` (same chip; ties: first listed).
    int nearestController(int stack, int core) const;
    /// Where `stack`'s data for global core `core` enters the mesh (local router id): with edge
    /// columns (west-edge, west-east-edges) the controllers of one side share that edge, so data
    /// enters at the side's router in the core's own row; otherwise the nearest controller router.
    int injectionRouter(int stack, int core) const;

    /// Appends the links a byte from global core `src` to `dst` crosses; returns the hop count
    /// (mesh routers crossed; all-to-all: 1, +1 per chip boundary). src == dst: nothing, 0.
    int route(int src, int dst, std::vector<int>& out) const;

    /// Capacity of one core's port (bytes per cycle).
    double portBytesPerCycle() const { return m_portBytesPerCycle; }

private:
    int meshLink(int chip, int x, int y, int dir) const
    {
        return m_meshIds[static_cast<std::size_t>(((chip * m_height + y) * m_width + x) * 4 + dir)];
    }
    int interChipLink(int fromChip, bool east) const
    {
        return m_interBase + 2 * (east ? fromChip : fromChip - 1) + (east ? 0 : 1);
    }

    std::vector<LinkInfo> m_links;
    std::vector<int> m_meshIds; ///< [chip][y][x][dir] → link id or -1
    std::vector<std::vector<int>> m_controllers; ///< [stack] → local router ids
    std::vector<int> m_stackColumn; ///< [stack] → edge column its side injects at, or -1
    int m_cores = 0, m_chips = 1, m_coresPerChip = 0, m_stacks = 0;
    int m_width = 0, m_height = 0;
    bool m_mesh = false;
    int m_hbmBase = 0, m_interBase = 0;
    double m_portBytesPerCycle = 0;
};

} // namespace elk::sim
