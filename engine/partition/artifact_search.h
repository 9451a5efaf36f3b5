// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/run_control.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// Artifact parity (`--parity artifact`): the published Elk artifact's per-operator plan search as
// elk-reference.md §2 describes it, quirks included, so that its latencies can be reproduced and each
// quirk switched off on its own (the ablation). Elk Studio's own search (partition.h) departs from it
// where the artifact is wrong; this one never does unless a switch says so.

namespace elk::partition::artifact {

/// The artifact's op type ids (elk-reference.md §1.2 step 6); they select the cycle formula.
enum class OpType : int { Reduce = 0, Unary = 1, Element = 2, Pool = 3, Conv = 4, MatMul = 5, Gather = 6, Slice = 8 };

/// One distinct expression as the artifact's parser leaves it.
struct Expr {
    OpType type = OpType::Element;
    std::vector<std::int64_t> dims; ///< loop extents
    std::vector<std::vector<std::vector<int>>> tensors; ///< [tensor][axis][k] loop-dim indices; 0 = output
    std::vector<bool> onchip; ///< per input (tensors.size() − 1); false = preloaded from HBM
    auto operator<=>(const Expr&) const = default;
};

/// The constants and switches of the search. Defaults are the artifact's (elk-reference.md §3.3).
struct SearchSettings {
    std::int64_t cores = 0;
    std::int64_t coresPerChip = 1472; ///< communication × multiChipFactor when cores exceed it
    std::int64_t sramBytesPerCore = 624 * 1024;
    std::int64_t bytesPerElement = 2; ///< the artifact charges 2 bytes for every element (fp16)
    double shiftCyclesPerElement = 0.56; ///< inter-core shift cost per 2-byte element
    double syncCycles = 118; ///< one exchange step
    double multiChipFactor = 1.25;
    bool training = false; ///< core-utilisation threshold 0.999 instead of 0.9
    /// The artifact sorts the per-dimension rotation candidate lists before building the temporal
    /// tree, so level d draws from another dimension's list (elk-reference.md §2.4 step 4, §7 item 16).
    bool scrambledTemporal = true;
    auto operator<=>(const SearchSettings&) const = default;
};

/// One (preload size, execute size) point of the cold→hot table (§2.7).
struct TableEntry {
    std::int64_t coldBytes = 0; ///< preload state, per core
    std::int64_t hotBytes = 0; ///< execute state, per core
    double totalCycles = 0; ///< execute cycles of the hot plan + warm-up
    double compCycles = 0; ///< of the hot plan
    double commCycles = 0; ///< shift + shuffle of the hot plan
};

struct ExprPlans {
    std::vector<TableEntry> table; ///< sorted by (coldBytes, hotBytes)
    std::int64_t spatialLeaves = 0; ///< leaves of the spatial tree (§2.3), valid or not
    std::int64_t plansEvaluated = 0; ///< valid (spatial, temporal) plans
    int paretoPlans = 0; ///< execute-state Pareto front size (§2.6)
    int coldSizes = 0; ///< distinct candidate preload sizes (§2.7)
    std::string error; ///< empty on success; e.g. no plan fits the SRAM
    bool ok() const { return error.empty() && !table.empty(); }
    std::int64_t minColdBytes() const { return table.empty() ? 0 : table.front().coldBytes; }
};

/// The search of one expression. Deterministic; polls `control` between spatial splits.
ExprPlans searchExpr(const Expr& expr, const SearchSettings& settings, RunControl& control);

/// searchExpr through a process-wide memo of recent (settings, expression) pairs, so that parity runs
/// differing only in what the search does not see (HBM bandwidth, the mesh ratio, scheduler quirks)
/// search once. Thread-safe; a stopped search is not kept. Same result as searchExpr.
std::shared_ptr<const ExprPlans> searchExprShared(
    const Expr& expr, const SearchSettings& settings, RunControl& control);

} // namespace elk::partition::artifact
