// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Compute API (hlo-design §5): an estimator prices kernels of a compute region. Several form an
// ordered fallback chain; every kernel records the estimator that priced it.

#include "engine/core/run_control.h"
#include "engine/hlo/hlo_fusion.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace elk::hlo {

struct KernelEstimate {
    std::uint32_t kernel = 0; ///< index into FusionResult::kernels
    double seconds = 0; ///< one execution
    bool computeBound = false;
    std::string estimator; ///< name() of the estimator that priced it
    std::string note; ///< why it was priced another way than usual (ICCA: the compile error), or empty
};

class ComputeEstimator {
public:
    virtual ~ComputeEstimator() = default;
    /// "roofline", "icca:ipu-mk2-hbm", "table:measured.csv".
    virtual std::string name() const = 0;
    /// Part of the cache key: bump it whenever the same inputs could give other numbers.
    virtual std::string version() const = 0;
    /// Hash of everything the estimator sees besides the region (device preset, chip, table rows).
    virtual std::string hardwareHash() const = 0;
    virtual bool supports(const Kernel& kernel, const HloProgram& program) const = 0;
    /// Seconds per execution of each kernel (all supported). Estimators that model a whole region
    /// (ICCA) see the kernels of one region together, in program order. Empty on stop.
    virtual std::vector<KernelEstimate> estimate(const HloProgram& program, const FusionResult& fusion,
        const std::vector<std::uint32_t>& kernels, RunControl& control)
        = 0;
};

/// Bare roofline per kernel: max(FLOPs / (peak(type)·computeEfficiency), bytes / (BW·memoryEfficiency))
/// + transcendentals / special-function rate + launch overhead.
std::unique_ptr<ComputeEstimator> makeRooflineEstimator(const struct DevicePreset& device);

struct EstimatorResult {
    std::unique_ptr<ComputeEstimator> estimator;
    std::string error; ///< "table:x.csv: line 4: expected a number of seconds, found 'abc'"
    bool ok() const { return estimator != nullptr; }
};

/// "roofline" | "table:PATH" | "icca:CHIP[,design=elk-full]"; the roofline uses `device`.
EstimatorResult makeEstimator(const std::string& spec, const struct DevicePreset& device);

/// Measured latencies: CSV `signature,seconds[,source]` (header row required; '#' comments).
/// A kernel is supported when its signature has a row.
EstimatorResult makeTableEstimator(const std::string& csvPath);
EstimatorResult makeTableEstimatorFromText(const std::string& csvText, const std::string& sourceName);

/// Lowers supported ops to the Graph IR and runs the Elk compiler + simulator on an ICCA chip preset
/// (or chip JSON file); the design (default elk-full) is the one whose simulated time is reported.
EstimatorResult makeIccaEstimator(const std::string& chipPresetOrPath, const std::string& design = "elk-full");

} // namespace elk::hlo
