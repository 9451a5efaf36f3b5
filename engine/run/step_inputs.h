// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/graph.h"
#include "engine/model/graph_analysis.h"
#include "engine/partition/partition.h"

#include <cstdint>
#include <vector>

namespace elk::run {

/// What the compiler needs of a graph, per graph step (execution order): which partition search the step uses and
/// how much SRAM activations living across it hold.
struct StepInputs {
    std::vector<partition::PartitionInput> distinctInputs; ///< first-seen order of the execution order
    std::vector<std::uint32_t> inputOfStep; ///< by step: index into distinctInputs
    std::vector<std::int64_t> reservedBytesPerCore; ///< by step
    std::vector<model::TensorId> spilledTensors; ///< activations moved to HBM because SRAM could not hold them
    std::int64_t spilledBytes = 0; ///< their bytes (each read back by its consumers)
};

/// Liveness-aware placement (elk-design.md §2): an activation stays on chip from its producer to its
/// last consumer, spread evenly over `cores`, and is read on chip by its consumers. Weights, KV cache
/// and optimizer state are read from HBM; so are graph-input activations (they come from the host).
/// Where the activations live across a step would take more than `maxReservedFraction` of the SRAM,
/// the largest of them are spilled: their consumers read them from HBM instead.
/// Deterministic. Contract: `analysis` is analyzeGraph(graph) and graph.validate() is empty.
StepInputs buildStepInputs(const model::Graph& graph, const model::GraphAnalysis& analysis, std::int64_t cores,
    std::int64_t sramBytesPerCore, double maxReservedFraction = 0.25);

} // namespace elk::run
