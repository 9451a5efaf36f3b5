// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/graph_summary.h"

#include <algorithm>

namespace elk::model {

namespace {
    template <typename Array, typename Value> std::size_t indexIn(const Array& values, Value value)
    {
        return std::size_t(std::find(values.begin(), values.end(), value) - values.begin());
    }
} // namespace

std::int64_t GraphSummary::bytesOf(TensorRole role) const
{
    return bytesPerRole.at(indexIn(kAllTensorRoles, role));
}

std::int64_t GraphSummary::opsOf(OpKind kind) const
{
    return opsPerKind.at(indexIn(kAllOpKinds, kind));
}

GraphSummary summarizeGraph(const Graph& graph)
{
    GraphSummary summary;
    summary.name = graph.name();
    summary.opCount = std::int64_t(graph.ops().size());
    summary.distinctExpressionCount = std::int64_t(graph.expressions().size());
    summary.tensorCount = std::int64_t(graph.tensors().size());
    summary.flops = graph.totalFlops();
    for (std::size_t i = 0; i < kAllTensorRoles.size(); ++i)
        summary.bytesPerRole[i] = graph.bytesOfRole(kAllTensorRoles[i]);
    for (OpId id = 0; id < graph.ops().size(); ++id)
        ++summary.opsPerKind[indexIn(kAllOpKinds, graph.exprOf(id).kind)];
    return summary;
}

} // namespace elk::model
