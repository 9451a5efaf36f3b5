// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// XLA-like fusion (hlo-design §3): raw JAX exports are unfused, so charging memory traffic for every
// elementwise op overstates the time several-fold. Elementwise, broadcast, convert and reshape chains
// are merged into their producer or consumer; reductions are fusion roots; dot/convolution keep their
// own kernel but absorb elementwise consumers (output fusion) and producers that are pure layout or
// conversion ops. A fused kernel charges the FLOPs of all its ops and the bytes of the tensors that
// cross its boundary only.

#include "engine/hlo/hlo_program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::hlo {

struct Kernel {
    std::vector<std::uint32_t> ops; ///< FlatOp indices, ascending
    OpClass opClass = OpClass::Compute; ///< Collective kernels hold exactly one collective op
    double executions = 1; ///< of its ops (a kernel never mixes ops with different execution counts)
    double flops = 0; ///< per execution, summed over its ops
    double transcendentals = 0;
    double bytes = 0; ///< per execution: boundary bytes when fused, else the op's unfused bytes
    std::string peakType; ///< of its heaviest op (most FLOPs; ties: first)
    bool matrixUnit = false; ///< it contains a dot_general/convolution
    std::vector<std::uint32_t> inputs; ///< kernels producing its inputs, ascending, unique
    std::string signature; ///< op signatures joined; equal signatures cost the same
};

/// xla: the module's own fusions (`fusion` / `mhlo.fusion` ops of an XLA-optimised export) are the
/// kernels, boundary bytes only, and every op outside them is a kernel of its own; elk: our greedy
/// pass over the inlined ops; none: one kernel per costed op. auto: xla when the module has fusions.
enum class FusionMode { Auto, Xla, Elk, None };
const char* toString(FusionMode mode);
std::optional<FusionMode> fusionModeFromString(std::string_view text);

struct FusionOptions {
    bool enabled = true; ///< false: one kernel per costed op (Free ops still dropped), whatever `mode` says
    FusionMode mode = FusionMode::Auto;
};

struct FusionResult {
    /// In program order of the op that started each kernel, which is also a topological order (a
    /// kernel's inputs come before it; an absorbed producer, such as a broadcast of a parameter, may
    /// precede that op). Free ops belong to no kernel.
    std::vector<Kernel> kernels;
    double unfusedBytes = 0; ///< Σ bytes × executions without fusion
    double fusedBytes = 0; ///< Σ bytes × executions of the kernels
    std::int64_t fusedOpCount = 0; ///< costed ops that joined a kernel with other ops
    FusionMode mode = FusionMode::Elk; ///< the mode used (auto resolved)
};

FusionResult fuseProgram(const HloProgram& program, const FusionOptions& options = {});

} // namespace elk::hlo
