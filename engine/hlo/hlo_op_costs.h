// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to engine/hlo: the per-op cost table behind costOfOp (import.md §5.2), with the traffic
// split per operand and per result so that fusion can charge boundary tensors with the same rules
// (a fused kernel then never costs more bytes than its ops unfused).

#include "engine/hlo/hlo_program.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace elk::hlo::detail {

/// "stablehlo.add", "mhlo.add" and "chlo.broadcast_add" → "add"; other dialects keep their prefix
/// ("func.call", "sdy.manual_computation", "arith.constant").
std::string_view baseOpName(std::string_view name);

/// How an op takes part in fusion (hlo_fusion.h).
enum class FusionRole {
    None, ///< Free ops: no kernel
    Loop, ///< elementwise and data movement that XLA loop-fuses (incl. convert, broadcast, transpose, slice, pad)
    Reduction, ///< reduce, reduce_window: roots of a loop/input fusion
    Matrix, ///< dot_general, dot, convolution, ragged_dot: own kernel with output fusion
    Opaque, ///< always alone: gather, scatter, sort, dynamic_update_slice, custom calls, unknown ops
    Collective,
};

struct OpCostDetail {
    OpCost cost;
    OpClass opClass = OpClass::Compute;
    bool known = true;
    FusionRole role = FusionRole::Opaque;
    std::vector<double> operandReads; ///< per operand; sums to cost.bytesRead
    std::vector<double> resultWrites; ///< per result; sums to cost.bytesWritten
};

/// The full costing. `groupSize` is the devices per group of a collective (its reduction FLOPs are
/// (n−1)/n of the elements); other ops ignore it.
OpCostDetail costOpDetail(const Op& op, std::int64_t groupSize);

/// Ops flattenModule expands instead of costing: calls, composites, while, case/if, sdy computations.
bool isStructuralOp(std::string_view name);
/// Block terminators: func.return, stablehlo.return, mhlo.return, sdy.return.
bool isTerminator(std::string_view name);
/// Free single-result ops whose result is their first operand seen another way (reshape, bitcast,
/// sharding markers). Tuples, get_tuple_element and optimization_barrier are not views: a value
/// through them is materialised.
bool isViewOp(const Op& op);
/// Pure layout or conversion ops that a dot/convolution kernel may absorb as producers.
bool isLayoutOrConversion(const Op& op);
/// Scalar ops of a reducer/comparator region (at least 1: a missing region counts as one op).
double regionOpCount(const Op& op, std::size_t regionIndex);
/// Canonical text of what decides an op's cost (FlatOp::signature): name, operand and result types,
/// cost-relevant attributes sorted by name, the op names of its regions; no value names or locations.
std::string signatureOf(const Op& op);

} // namespace elk::hlo::detail
