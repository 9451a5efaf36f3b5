// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/partition/impl/expr_facts.h"

#include <algorithm>

namespace elk::partition::detail {

Thresholds thresholdsFor(const model::TensorExpr& expr, std::int64_t cores, bool training)
{
    double iterations = 1;
    std::int64_t largest = 1;
    for (std::int64_t extent : expr.dimExtents) {
        iterations *= double(extent);
        largest = std::max(largest, extent);
    }
    const double c = double(cores);
    // Tiny operators may leave most cores idle: both thresholds shrink with the operator's size.
    const double maxi = double(largest) * double(expr.dimExtents.size()) / 220.0;
    const bool gather = expr.kind == model::OpKind::Gather;
    const double utilizationFactor = gather ? 0.951 : (training ? 0.999 : 0.9);
    Thresholds thresholds;
    thresholds.utilization = utilizationFactor * std::min(iterations / (iterations + 2 * c), maxi);
    // A small operator with a reduction (a norm, a softmax over one row) may be faster on fewer cores:
    // spreading it over most of them mostly adds partial sums to gather. Let the search see plans down
    // to a sixteenth of the cores; the Pareto front keeps them only where they are faster. Departs
    // from the artifact's threshold (elk-reference.md §2.2).
    const bool reduces = [&] {
        std::vector<char> inOutput(expr.dimExtents.size(), 0);
        if (!expr.operands.empty()) {
            for (const model::Axis& axis : expr.operands[0].axes) {
                inOutput[std::size_t(axis.dim)] = 1;
                if (axis.isWindow())
                    inOutput[std::size_t(axis.windowDim)] = 1;
            }
        }
        return std::find(inOutput.begin(), inOutput.end(), 0) != inOutput.end();
    }();
    if (reduces && !gather && iterations < 64 * c)
        thresholds.utilization = std::min(thresholds.utilization, 1.0 / 16);
    thresholds.padding = gather ? 0.951 : 0.9 * std::min(iterations / (iterations + c), maxi);
    return thresholds;
}

bool isCopiedSource(const model::TensorExpr& expr, std::size_t operand)
{
    return operand > 0 && (expr.kind == model::OpKind::Slice || (expr.kind == model::OpKind::Gather && operand == 1));
}

ExprFacts makeExprFacts(const PartitionInput& input, const PartitionSettings& settings)
{
    const model::TensorExpr& expr = input.expr;
    ExprFacts facts;
    facts.expr = &expr;
    facts.dims = int(expr.dimExtents.size());
    facts.operands = int(expr.operands.size());
    facts.cores = settings.cores;
    facts.extent = expr.dimExtents;
    const auto D = std::size_t(facts.dims);
    const auto V = std::size_t(facts.operands);
    facts.uses.assign(D * V, 0);
    facts.users.assign(D, {});
    facts.axisBegin.push_back(0);
    for (std::size_t v = 0; v < V; ++v) {
        const model::Operand& operand = expr.operands[v];
        for (const model::Axis& axis : operand.axes) {
            facts.axes.push_back(AxisRef { axis.dim, axis.windowDim, axis.stride });
            facts.uses[std::size_t(axis.dim) * V + v] = 1;
            if (axis.isWindow())
                facts.uses[std::size_t(axis.windowDim) * V + v] = 1;
        }
        facts.axisBegin.push_back(int(facts.axes.size()));
        facts.elementBytes.push_back(model::bytesPerElement(operand.dtype));
        const bool hbm = v > 0 && v < input.fromHbm.size() && input.fromHbm[v];
        facts.fromHbm.push_back(hbm ? 1 : 0);
        facts.anyHbm = facts.anyHbm || hbm;
        facts.copied.push_back(isCopiedSource(expr, v) ? 1 : 0);
    }
    for (std::size_t d = 0; d < D; ++d) {
        for (std::size_t v = 0; v < V; ++v) {
            if (facts.uses[d * V + v])
                facts.users[d].push_back(int(v));
        }
    }
    facts.syncOnlyShuffle = expr.kind == model::OpKind::Elementwise || expr.kind == model::OpKind::Unary
        || expr.kind == model::OpKind::Pool;
    const Thresholds thresholds = thresholdsFor(expr, settings.cores, settings.training);
    facts.utilization = thresholds.utilization;
    facts.padding = thresholds.padding;
    return facts;
}

} // namespace elk::partition::detail
