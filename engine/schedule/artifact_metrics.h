// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/schedule/artifact_schedulers.h"

namespace elk::schedule::artifact {

/// The metrics the artifact's figure scripts derive from a schedule (elk-reference.md §5.4), without
/// their presentation adjustments (§7.4: no running minima, no 0.98 clamp, no breakdown re-assignment).
struct ParityMetrics {
    double latencyMs = 0; ///< T = −start of the first preload
    double hbmUtilization = 0; ///< Σ Lh ÷ T (Lh: the op's smallest preload streamed at the HBM bandwidth)
    double nocLoadUtilization = 0; ///< Σ (L − R) ÷ T: preload NoC busy time
    double nocShiftUtilization = 0; ///< Σ comm ÷ T: the executions' inter-core traffic
    double flops = 0; ///< Σ over ops of 2 · Π dims (elementwise ops included, as the artifact counts)
    double tflops = 0; ///< flops ÷ T in TFLOP/s (1e12; Fig. 24's unit)
    double tflopsArtifact = 0; ///< Fig. 18d's unit: flops ÷ T_ms · 1000 ÷ 2^41 (half of FLOP/s in 2^40)
    /// Latency breakdown (Fig. 18a, 20): overlapped, preload only, execute only, and the rest
    /// ("interconnect"), weighted by each execution's busy fraction and each preload's HBM fraction.
    double overlapMs = 0, preloadOnlyMs = 0, executeOnlyMs = 0, interconnectMs = 0;
};

/// Contract: `schedule` was made by scheduleParity for these `ops` and `knobs`.
ParityMetrics parityMetrics(const std::vector<ParityOp>& ops, const ParityKnobs& knobs, const ParitySchedule& schedule);

} // namespace elk::schedule::artifact
