// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Typed views of the attributes costing needs, the same for pretty and generic forms.

#include "engine/hlo/hlo_module.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elk::hlo {

/// Integers of `[1, 2]`, `array<i64: 1, 2>`, `dense<[1, 2]>`, a splat `dense<3>` (one value), or a
/// single integer. Nothing when the attribute holds anything else.
std::optional<std::vector<std::int64_t>> intList(const Attribute& attribute);
std::optional<std::vector<std::int64_t>> intList(const Op& op, std::string_view attributeName);
std::optional<std::int64_t> intValue(const Op& op, std::string_view attributeName);

struct DotDimensions {
    std::vector<std::int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
    bool operator==(const DotDimensions&) const = default;
};
/// dot_general (pretty or generic); legacy stablehlo.dot: lhs last dim × rhs first dim.
std::optional<DotDimensions> dotDimensions(const Op& op);

struct ConvDimensions {
    std::int64_t inputBatch = 0, inputFeature = 0;
    std::vector<std::int64_t> inputSpatial;
    std::int64_t kernelInputFeature = 0, kernelOutputFeature = 0;
    std::vector<std::int64_t> kernelSpatial;
    std::int64_t outputBatch = 0, outputFeature = 0;
    std::vector<std::int64_t> outputSpatial;
    std::vector<std::int64_t> strides; ///< per spatial dim, default 1
    std::vector<std::pair<std::int64_t, std::int64_t>> padding; ///< per spatial dim (low, high)
    std::vector<std::int64_t> lhsDilation, rhsDilation; ///< default 1
    std::int64_t featureGroupCount = 1;
    std::int64_t batchGroupCount = 1;
};
/// convolution: `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` + `window = {...}`, or generic
/// `dimension_numbers = #stablehlo.conv<...>` + window_strides/padding/lhs_dilation/rhs_dilation.
std::optional<ConvDimensions> convDimensions(const Op& op);

/// replica_groups: G groups of N ids (`-1` padding removed), `dense<k>` scalar → [[k]], or a
/// `#stablehlo.replica_group_mesh_axes` (resolved with the module's meshes: groups along the axes).
std::optional<std::vector<std::vector<std::int64_t>>> replicaGroups(const Op& op, const Module& module);
/// collective_permute's source_target_pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> sourceTargetPairs(const Op& op);

/// func.call's callee, composite's decomposition, custom_call's first called computation.
std::optional<std::string> calleeOf(const Op& op);
/// custom_call's call_target_name.
std::optional<std::string> customCallTarget(const Op& op);

/// A constant's single integer value when it is an integral splat or a one-element tensor.
std::optional<std::int64_t> constantInteger(const Op& op);

/// comparison_direction of stablehlo.compare ("LT", "EQ", ...).
std::optional<std::string> comparisonDirection(const Op& op);

} // namespace elk::hlo
