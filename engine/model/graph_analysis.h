// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/graph.h"

#include <cstdint>
#include <vector>

namespace elk::model {

/// When a tensor is live, in execution steps (indices into GraphAnalysis::order). Liveness-aware
/// placement keeps an activation on chip from `start` to `end` when it fits.
struct TensorLifetime {
    int start = -1; ///< step of the producer; -1: there before the first op (graph input, weight, KV cache)
    int firstUse = -1; ///< first step that reads it; -1: never read
    /// Last step that reads it. A graph output lives to the end: the step count (one past the last
    /// step), since it is handed back after the last op. Produced and never read: `start`.
    /// Neither produced nor read: -1.
    int end = -1;
    bool operator==(const TensorLifetime&) const = default;
};

/// Repeated structure found in the execution order: `prefixOps` steps, then `layerCount` blocks of
/// `opsPerLayer` steps whose expressions and internal dataflow repeat exactly, then `suffixOps`
/// steps. A graph without repetition is one layer holding every op (prefix and suffix 0); an empty
/// graph has no layer.
struct LayerStructure {
    int prefixOps = 0;
    int layerCount = 0;
    int opsPerLayer = 0;
    int suffixOps = 0;
    int firstLayerStart = 0; ///< step where layer 0 begins (= prefixOps)

    /// Layer of an execution step, or -1 for a step in the prefix or suffix.
    int layerOf(int step) const;
    bool operator==(const LayerStructure&) const = default;
};

/// Per-step totals. A graph describes one step (one decode token, one prefill pass, one training
/// step), so these are per step; batch, sequence and KV length are already in its shapes.
struct GraphTotals {
    std::int64_t params = 0; ///< elements of the weight tensors no op produces (optimizer state excluded)
    std::int64_t flops = 0; ///< flopCount() summed over ops
    std::int64_t weightBytes = 0; ///< bytes of the weight tensors no op produces
    /// Bytes of the optimizer-state tensors (Adam moments, ...) no op produces: the state as it was
    /// before the step; a training step reads it and writes the new state back.
    std::int64_t optimizerStateBytes = 0;
    std::int64_t kvBytesRead = 0; ///< KV-cache tensors no op produces that some op reads (the cache as it was)
    std::int64_t kvBytesWritten = 0; ///< KV-cache tensors an op produces (what the step appends)
    /// HBM traffic if nothing stays on chip: every op reads all its inputs from HBM and writes its
    /// output back (byteCount() summed over ops). An upper bound that liveness only lowers.
    std::int64_t hbmBytesNoReuse = 0;

    std::int64_t kvBytes() const { return kvBytesRead + kvBytesWritten; }
    bool operator==(const GraphTotals&) const = default;
};

struct GraphAnalysis {
    std::vector<OpId> order; ///< execution order (Graph::topologicalOrder())
    std::vector<int> stepOf; ///< by OpId: index into `order`; -1 for an op left out (on a cycle)
    std::vector<TensorLifetime> lifetimes; ///< by TensorId
    LayerStructure layers;
    GraphTotals totals;
    /// By OpId: FLOPs per byte touched (flopCount / byteCount); 0 for an op that touches no bytes.
    std::vector<double> arithmeticIntensity;
};

/// Lifetimes of every tensor (indexed by TensorId) for an execution order of `graph`'s ops.
std::vector<TensorLifetime> tensorLifetimes(const Graph& graph, const std::vector<OpId>& order);

/// Finds prefix / L × layer / suffix in `order`: the contiguous run of L ≥ 2 blocks of equal length
/// that covers the most ops (ties: the shorter block, then the earlier start), where two blocks
/// match when their ops have the same expressions (ExprIds) in the same order and each input comes
/// from the same op inside the block, or from outside the block in both. A run covering less than
/// a quarter of the ops (e.g. Q/K/V projections inside one layer) is not reported as layers. In a
/// training step, where forward, backward and optimizer passes repeat separately, the largest of
/// them is reported (the others are in the prefix or suffix).
/// Deterministic; candidate block lengths come from the spacing of repeated expressions, so the
/// cost is O(N · k) for N ops and a bounded number k of candidates.
LayerStructure detectLayers(const Graph& graph, const std::vector<OpId>& order);

GraphTotals graphTotals(const Graph& graph);

/// Everything above in one pass. Contract: `graph.validate()` returned no errors; otherwise ops on
/// a cycle are left out of the order and the numbers are those of the rest.
GraphAnalysis analyzeGraph(const Graph& graph);

} // namespace elk::model
