// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internals of Graph::validate() and Graph::topologicalOrder(); not for use outside engine/model.

#include "engine/model/graph.h"

#include <vector>

namespace elk::model::detail {

/// A data dependency: the op `to` reads `tensor`, which the edge's source op produces.
struct OpEdge {
    OpId to = 0;
    TensorId tensor = 0;
};

/// Successors of every op, sorted by target op, one edge per (source, target) pair (the lowest
/// tensor id when several tensors connect them). Self-edges are kept (an op reading its own output).
using OpEdges = std::vector<std::vector<OpEdge>>;
OpEdges opEdges(const Graph& graph);

std::vector<GraphError> validateGraph(const Graph& graph);

/// One error per cycle of ops (per non-trivial strongly connected component), naming a shortest
/// cycle through the component's first op; ordered by that op.
std::vector<GraphError> findCycles(const Graph& graph, const OpEdges& edges);

} // namespace elk::model::detail
