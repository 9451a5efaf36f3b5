// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/fitted_cost.h"

#include <algorithm>
#include <array>
#include <limits>

#include "engine/core/read_file.h"
#include "engine/core/sha256.h"
#include "engine/cost/tile_shape.h"

namespace elk::cost {

using model::OpKind;

namespace {

    bool isContraction(OpKind kind)
    {
        return kind == OpKind::MatMul || kind == OpKind::Conv;
    }

    model::Operand operandOver(std::span<const int> dims, model::DType dtype)
    {
        model::Operand operand;
        operand.dtype = dtype;
        for (int dim : dims)
            operand.axes.push_back(model::Axis::loop(dim));
        return operand;
    }

    double predictOrInfinity(const FittedCostData& data, OpKind kind, std::span<const double> features)
    {
        const auto found = data.kinds.find(kind);
        if (found == data.kinds.end() || found->second.tree.nodes.empty())
            return std::numeric_limits<double>::infinity();
        return found->second.tree.predict(features);
    }

} // namespace

int minSampleExtents(OpKind kind)
{
    return isContraction(kind) ? 3 : kind == OpKind::Gather ? 2 : 1;
}

model::TensorExpr canonicalSampleExpr(OpKind kind, std::span<const std::int64_t> extents, model::DType dtype)
{
    model::TensorExpr expr;
    expr.kind = kind;
    expr.dimExtents.assign(extents.begin(), extents.end());
    const int n = int(extents.size());
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d)
        all[std::size_t(d)] = d;
    const std::span<const int> allDims(all);
    const std::span<const int> leading = allDims.first(std::size_t(std::max(0, n - 1)));
    switch (kind) {
    case OpKind::MatMul:
    case OpKind::Conv: {
        std::vector<int> batch(all.begin(), all.end() - 3);
        const int m = n - 3;
        const int k = n - 2;
        const int nn = n - 1;
        const auto with = [&](std::initializer_list<int> tail) {
            std::vector<int> dims = batch;
            dims.insert(dims.end(), tail);
            return dims;
        };
        expr.operands = { operandOver(with({ m, nn }), dtype), operandOver(with({ m, k }), dtype),
            operandOver(with({ k, nn }), dtype) };
        break;
    }
    case OpKind::Reduce:
    case OpKind::Pool:
        expr.operands = { operandOver(leading, dtype), operandOver(allDims, dtype) };
        break;
    case OpKind::Gather:
        expr.operands
            = { operandOver(allDims, dtype), operandOver(allDims, dtype), operandOver(leading, model::DType::I32) };
        break;
    case OpKind::Elementwise:
        expr.operands = { operandOver(allDims, dtype), operandOver(allDims, dtype), operandOver(allDims, dtype) };
        break;
    case OpKind::Unary:
    case OpKind::Slice:
    case OpKind::Softmax:
    case OpKind::Normalization:
        expr.operands = { operandOver(allDims, dtype), operandOver(allDims, dtype) };
        break;
    }
    return expr;
}

std::vector<std::string> fittedFeatureNames(OpKind kind)
{
    if (isContraction(kind))
        return { "b*m*k*n", "b*m*n", "b*k*n", "b*m*k", "one", "bytes_per_element" };
    return { "work", "rows", "input_elements", "one", "bytes_per_element" };
}

int fittedFeatureCount(OpKind kind)
{
    return isContraction(kind) ? 6 : 5;
}

int fittedLinearFeatureCount(OpKind kind)
{
    return fittedFeatureCount(kind) - 1;
}

int fittedFeatures(
    const model::TensorExpr& expr, std::span<const std::int64_t> tile, std::span<double, kMaxFittedFeatures> out)
{
    if (isContraction(expr.kind)) {
        const MatmulDims d = expr.kind == OpKind::MatMul ? matmulDims(expr, tile) : im2colDims(expr, tile);
        const double b = double(d.b);
        const double m = double(d.m);
        const double k = double(d.k);
        const double n = double(d.n);
        out[0] = b * m * k * n;
        out[1] = b * m * n;
        out[2] = b * k * n;
        out[3] = b * m * k;
        out[4] = 1;
        out[5] = model::bytesPerElement(computeDType(expr));
        return 6;
    }
    const double iterations = double(tileIterations(tile));
    const double outputs = expr.operands.empty() ? 1.0 : double(tileOperandElements(expr, 0, tile));
    double inputs = 0;
    double work = iterations;
    double rows = outputs;
    model::DType dtype = computeDType(expr);
    if (expr.kind == OpKind::Gather) {
        const int index = gatherIndexOperand(expr);
        inputs = index > 0 ? double(tileOperandElements(expr, std::size_t(index), tile)) : 1.0;
        work = outputs;
        dtype = expr.operands[0].dtype;
    } else {
        for (std::size_t v = 1; v < expr.operands.size(); ++v)
            inputs += double(tileOperandElements(expr, v, tile));
    }
    if (expr.kind == OpKind::Softmax || expr.kind == OpKind::Normalization)
        rows = std::max(1.0, iterations / double(rowLength(expr, tile)));
    out[0] = work;
    out[1] = rows;
    out[2] = inputs;
    out[3] = 1;
    out[4] = model::bytesPerElement(dtype);
    return 5;
}

FittedCostData fitCostModel(std::span<const CostSample> samples, const FitOptions& options)
{
    FittedCostData data;
    data.options = options;
    for (OpKind kind : model::kAllOpKinds) {
        TrainingSet set;
        set.featureCount = fittedFeatureCount(kind);
        std::array<double, kMaxFittedFeatures> features {};
        for (const CostSample& sample : samples) {
            if (sample.kind != kind)
                continue;
            const model::TensorExpr expr = canonicalSampleExpr(kind, sample.extents, sample.dtype);
            const int count = fittedFeatures(expr, sample.extents, features);
            set.add(std::span<const double>(features.data(), std::size_t(count)), sample.cycles);
        }
        if (set.size() == 0)
            continue;
        FittedKindModel fitted;
        const int linear = fittedLinearFeatureCount(kind);
        fitted.tree = fitLinearModelTree(set, linear, options.tree);
        fitted.trainingSamples = std::int64_t(set.size());
        fitted.cvMeanAbsPercentError = crossValidatedError(set, linear, options.tree, options.folds);
        data.kinds.emplace(kind, std::move(fitted));
    }
    return data;
}

FittedCostModel::FittedCostModel(FittedCostData data, std::string_view jsonText)
    : m_data(std::move(data))
    , m_version("fitted/1 sha256:" + sha256Hex(jsonText))
{
}

double FittedCostModel::tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const
{
    std::array<double, kMaxFittedFeatures> features {};
    const int count = fittedFeatures(expr, tileExtents, features);
    return predictOrInfinity(m_data, expr.kind, std::span<const double>(features.data(), std::size_t(count)));
}

double FittedCostModel::partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const
{
    if (partials < 2 || outputElements <= 0)
        return 0.0;
    const double o = double(outputElements);
    const double bytes = model::bytesPerElement(dtype);
    if (partials == 2) { // canonical elementwise [O]: two inputs of O elements
        const std::array<double, 5> features { o, o, 2 * o, 1, bytes };
        return predictOrInfinity(m_data, OpKind::Elementwise, features);
    }
    const double r = double(partials); // canonical reduce [O x R]
    const std::array<double, 5> features { o * r, o, o * r, 1, bytes };
    return predictOrInfinity(m_data, OpKind::Reduce, features);
}

TileCostModelResult loadFittedCostModel(const std::string& path)
{
    TileCostModelResult result;
    std::string error;
    const auto text = readFileText(path, error);
    if (!text) {
        result.error = error;
        return result;
    }
    FittedCostParseResult parsed = fittedCostFromJson(*text);
    if (!parsed.ok()) {
        result.error = path + ": " + parsed.error;
        return result;
    }
    result.model = std::make_unique<FittedCostModel>(std::move(parsed.data), *text);
    return result;
}

} // namespace elk::cost
