// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/cost/linear_model_tree.h"
#include "engine/cost/tile_cost.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The `fitted` tile cost model: one linear model tree per op kind, fitted from measured samples.
//
// Samples CSV (header `kind,extents,dtype,cycles`; blank lines and lines starting with '#' are
// skipped): kind = model::toString(OpKind), dtype = model::toString(DType), cycles >= 0, extents =
// loop extents joined by 'x' in these canonical layouts (canonicalSampleExpr builds the expression):
//   matmul, conv            [B1 x ... x] M x K x N   (conv as its im2col matmul; leading extents = batch)
//   reduce, pool            [kept... x] R            (last = reduced length / window size)
//   softmax, normalization  [rows... x] L            (last = the normalised row)
//   gather                  [indices... x] L         (one index per row of L elements)
//   elementwise             dims...                  (a binary op; inputs and output all dims)
//   unary, slice            dims...
//
// Features (the first `linear` ones enter the leaf models; the last only selects regimes):
//   matmul, conv: [b·m·k·n, b·m·n, b·k·n, b·m·k, 1 | bytes per element]
//   all others:   [work, rows, input elements, 1 | bytes per element]
//     work = tile iterations (gather: output elements, since a gather touches only the rows it
//     selects); rows = output elements for reduce and pool, iterations / row length for softmax and
//     normalization, output elements otherwise; input elements = sum over inputs (gather: indices).
//   bytes per element = that of the widest input (gather: the output's).
//
// A fitted model with no tree for a kind prices that kind's tiles at +infinity, so partition finds
// no plan for such an operator and reports it; fit samples of every kind your models use.

namespace elk::cost {

inline constexpr int kMaxFittedFeatures = 8;

struct CostSample {
    model::OpKind kind = model::OpKind::Elementwise;
    std::vector<std::int64_t> extents;
    model::DType dtype = model::DType::F16;
    double cycles = 0;
};

struct CostSamplesResult {
    std::vector<CostSample> samples;
    std::string error; ///< "FILE:LINE: column X: expected ..., found ..."; empty on success
    bool ok() const { return error.empty(); }
};

CostSamplesResult parseCostSamplesCsv(std::string_view text, const std::string& fileName);
CostSamplesResult readCostSamplesCsv(const std::string& path);

/// Fewest extents a sample of `kind` needs (3 for matmul and conv, 2 for gather, else 1).
int minSampleExtents(model::OpKind kind);

/// The expression a sample's extents stand for (layouts above). Contract: extents.size() >= minSampleExtents(kind).
model::TensorExpr canonicalSampleExpr(model::OpKind kind, std::span<const std::int64_t> extents, model::DType dtype);

/// Names of the features of `kind`, in order ("b*m*k*n", ..., "bytes_per_element").
std::vector<std::string> fittedFeatureNames(model::OpKind kind);
int fittedFeatureCount(model::OpKind kind);
int fittedLinearFeatureCount(model::OpKind kind);

/// Writes the features of one tile into `out` (no allocation); returns how many.
int fittedFeatures(
    const model::TensorExpr& expr, std::span<const std::int64_t> tile, std::span<double, kMaxFittedFeatures> out);

struct FittedKindModel {
    LinearModelTree tree;
    std::int64_t trainingSamples = 0;
    std::optional<double> cvMeanAbsPercentError; ///< nothing with fewer than 2 samples
    bool operator==(const FittedKindModel&) const = default;
};

struct FitOptions {
    int folds = 5;
    TreeSettings tree;
};

struct FittedCostData {
    FitOptions options;
    std::map<model::OpKind, FittedKindModel> kinds; ///< only kinds with samples
};

/// One tree per kind present in `samples`, with its cross-validated error. Deterministic.
/// Contract: options.folds >= 2, options.tree valid (see fitLinearModelTree).
FittedCostData fitCostModel(std::span<const CostSample> samples, const FitOptions& options);

/// "elk.fitted-cost/1" JSON (sorted keys, 2-space indent); identical data gives identical bytes.
std::string fittedCostToJson(const FittedCostData& data);

struct FittedCostParseResult {
    FittedCostData data;
    std::string error; ///< "JSON-POINTER: what was expected, what was found"; empty on success
    bool ok() const { return error.empty(); }
};

FittedCostParseResult fittedCostFromJson(std::string_view jsonText);

class FittedCostModel final : public TileCostModel {
public:
    /// `jsonText` is the text `data` was read from (or would be saved as); its hash is the version.
    FittedCostModel(FittedCostData data, std::string_view jsonText);

    std::string name() const override { return "fitted"; }
    std::string version() const override { return m_version; }
    /// +infinity for a kind without a tree.
    double tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const override;
    /// The elementwise tree on [O] for 2 partials, the reduce tree on [O x partials] for more;
    /// +infinity when that tree is missing.
    double partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const override;

    bool hasKind(model::OpKind kind) const { return m_data.kinds.count(kind) > 0; }
    const FittedCostData& data() const { return m_data; }

private:
    FittedCostData m_data;
    std::string m_version;
};

/// Reads and parses a fitted model file; errors start with the path.
TileCostModelResult loadFittedCostModel(const std::string& path);

} // namespace elk::cost
