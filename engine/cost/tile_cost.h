// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/chip/chip_spec.h"
#include "engine/model/tensor_expr.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace elk::cost {

/// Inter-core transfer and synchronisation costs, all taken from the ChipSpec (never constants):
/// a core moves `linkBytesPerCycle` over its exchange port, every exchange step costs
/// `syncCycles`, and inter-core time of an operator spread over more than one chip is multiplied by
/// `multiChipFactor`.
struct TransferCost {
    double linkBytesPerCycle = 0; ///< per core port, bytes per core clock cycle
    double syncCycles = 0; ///< one exchange synchronisation
    double multiChipFactor = 1; ///< interChip.overheadFactor when the chip has more than one die, else 1
    bool mesh = false; ///< 2D mesh: exchanges between many cores go through a log-depth tree

    /// Cycles for one core to send (or receive) `bytes` over its port.
    double cyclesForBytes(double bytes) const { return bytes / linkBytesPerCycle; }

    /// Gathering `partials` partial sums of `outputBytes` per core (partials >= 2), as the exchange does
    /// it: on an all-to-all chip one superstep (two syncs) in which each core sends (P − 1)/P of its
    /// partial tile to the cores that own those slices (a reduce-scatter); on a 2D mesh a tree of
    /// ceil(log2 P) such supersteps, halving what moves each time.
    /// Departs from the artifact (elk-reference.md §2.5: 118 cycles per partial, linear in P, plus the
    /// whole output), which makes a reduction over thousands of cores cost hundreds of thousands of
    /// cycles where an IPU exchange takes about one superstep.
    double gatherCycles(double outputBytes, double partials) const;

    /// Contract: `chip` is valid (validateChipSpec returned nothing).
    static TransferCost fromChip(const chip::ChipSpec& chip);
};

/// Prices one core's share of an operator: the tile cost models of elk-design.md §3.
/// Contract: implementations are immutable after construction and thread-safe (partition searches
/// of distinct expressions run concurrently), deterministic, and never return a negative or NaN
/// value; +infinity means "this tile cannot run" (e.g. a fitted model outside its domain).
class TileCostModel {
public:
    virtual ~TileCostModel() = default;
    /// "ipu-mk2" | "roofline" | "fitted"
    virtual std::string name() const = 0;
    /// Changes whenever the numbers a model gives could change; part of partition cache keys.
    /// For `fitted` it includes the fitted model's content hash.
    virtual std::string version() const = 0;

    /// Cycles for one core to compute one iteration of `expr` restricted to a sub-operator whose loop
    /// extents are `tileExtents` (one per loop dim of `expr`, each 1..dimExtents[d]). Operand dtypes
    /// come from `expr` (fp32 tiles cost more than fp16 ones where the hardware says so).
    virtual double tileCycles(const model::TensorExpr& expr, std::span<const std::int64_t> tileExtents) const = 0;

    /// Cycles for one core to add up `partials` partial results of `outputElements` elements each
    /// (the final reduction when a reduction dimension is split across cores), `partials` >= 2.
    virtual double partialSumCycles(std::int64_t outputElements, std::int64_t partials, model::DType dtype) const = 0;

    /// The peak FLOP per cycle per core this model never beats for `expr`'s compute dtype: what the
    /// compute floor of the bound-gap waterfall divides by. 0: the model states no peak (a fitted
    /// model can predict any speed), so no compute floor is claimed.
    virtual double peakFlopPerCycle(const model::TensorExpr& expr) const
    {
        (void)expr;
        return 0;
    }
};

struct TileCostModelResult {
    std::unique_ptr<TileCostModel> model;
    std::string error; ///< empty on success; names the file / field and what was expected
    bool ok() const { return model != nullptr; }
};

/// The model `chip.tileCost` selects. For `fitted`, the model JSON at chip.tileCost.fitted.modelPath
/// is read (a relative path resolves against `baseDir`, the chip file's folder; "" = current dir).
/// Contract: `chip` is valid.
TileCostModelResult makeTileCostModel(const chip::ChipSpec& chip, const std::string& baseDir = {});

} // namespace elk::cost
