// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"
#include "engine/schedule/allocator.h"
#include "engine/schedule/schedule.h"

#include <cstdint>
#include <vector>

namespace elk::schedule {

/// The budget of the search (elk-design.md §4: the paper enumerates every valid order within a layer;
/// this bounds the work, and LayerOrders::truncated says when the bound was reached).
struct PreloadOrderOptions {
    int maxOrders = 1024; ///< identity included; each one is scheduled
    int maxDisplacement = 1 << 20; ///< a reordered op moves at most this many reordered slots (default: any)
    double heavyFraction = 0.1; ///< reorder ops loading at least this share of the layer's largest load
    std::int64_t maxNodes = 400000; ///< bound on the search tree
};

/// Preload orders of one layer, shared by every identical layer (elk-design.md §4, Elk-Full).
struct LayerOrders {
    std::vector<int> movable; ///< layer-relative indices of the reordered (HBM-heavy) ops, ascending
    /// Each order lists the layer's ops (layer-relative) in preload order; orders[0] is the identity.
    std::vector<std::vector<int>> orders;
    std::int64_t nodesVisited = 0;
    bool truncated = false; ///< maxOrders or maxNodes reached
    bool stopped = false;
};

/// The incremental generator: builds each order from its last position backwards (the order in which
/// the backward scheduler consumes it), so orders sharing a suffix share a path of the tree. Only the
/// movable ops are permuted, among the slots they occupy; equal plan sets are never swapped (the same
/// order twice); a prefix is pruned as soon as the ops it forces to stay resident overflow SRAM.
///
/// The pruning is exact for the scheduler: an op whose preload precedes that of an earlier-executing op
/// is resident during every execution between, held at its smallest preload state, and the executing op
/// needs its smallest execute state (restricted to its smallest preload state when it is itself such an
/// op). orderFitsSram() is that test; every order returned passes it, and the backward scheduler
/// schedules every such order; pruned prefixes contain no order that passes it.
/// Contract: problem.layers describes problem.steps; an empty result (identity only) when there are no
/// layers or fewer than two movable ops.
LayerOrders generateLayerOrders(const ScheduleProblem& problem, const Allocator& allocator,
    const PreloadOrderOptions& options, RunControl& control);

/// The exact SRAM test of one layer order (every layer checked).
bool orderFitsSram(const ScheduleProblem& problem, const Allocator& allocator, const std::vector<int>& layerOrder);

/// The whole model's preload order: prefix and suffix in execution order, each layer in `layerOrder`.
std::vector<int> expandLayerOrder(const ScheduleProblem& problem, const std::vector<int>& layerOrder);

} // namespace elk::schedule
