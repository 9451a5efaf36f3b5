// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Lowering of StableHLO ops to the Graph IR of the Elk half, for the ICCA estimator. Each op becomes
// one tensor expression: dot_general → MatMul (batch, free and contracting dims as loop dims),
// convolution → Conv (windowed input axes), reduce → Reduce, transpose/broadcast/convert and unary
// math → Unary, binary/ternary elementwise → Elementwise. Values from outside the region, and
// results of ops that are not lowered (reshape and other views, gathers, ...), enter the graph as
// tensors without a producer: the chip reads them from HBM.

#include "engine/hlo/hlo_fusion.h"
#include "engine/model/graph.h"

#include <cstdint>
#include <vector>

namespace elk::hlo {

struct LoweredRegion {
    model::Graph graph;
    std::vector<std::uint32_t> flatOpOfGraphOp; ///< by graph OpId: the FlatOp it came from
    std::vector<std::uint32_t> notLowered; ///< costed FlatOps of the region that have no Graph IR form
};

/// `flatOps`: the region's FlatOp indices in program order (Free ops included or not; they are skipped).
LoweredRegion lowerToGraph(const HloProgram& program, const std::vector<std::uint32_t>& flatOps);

/// The Graph IR element type for an HLO element type; nothing for types the chip model lacks.
std::optional<model::DType> graphDType(std::string_view elementType);

} // namespace elk::hlo
