// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/graph.h"
#include "engine/model/tensor_expr.h"

#include <array>
#include <cstdint>
#include <string>

namespace elk::model {

/// The numbers a user looks at first when a model opens (CLI `elk workspace`, the app's model pane).
struct GraphSummary {
    std::string name;
    std::int64_t opCount = 0;
    std::int64_t distinctExpressionCount = 0; ///< after hash-consing: what the partition search visits
    std::int64_t tensorCount = 0;
    std::int64_t flops = 0;
    std::array<std::int64_t, kAllTensorRoles.size()> bytesPerRole {}; ///< indexed like kAllTensorRoles
    std::array<std::int64_t, kAllOpKinds.size()> opsPerKind {}; ///< indexed like kAllOpKinds

    std::int64_t bytesOf(TensorRole role) const;
    std::int64_t opsOf(OpKind kind) const;
    bool operator==(const GraphSummary&) const = default;
};

GraphSummary summarizeGraph(const Graph& graph);

} // namespace elk::model
