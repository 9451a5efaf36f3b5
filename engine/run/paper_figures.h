// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/run/run_spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Elk paper's experiments (Figs. 17–24), point by point, as the artifact's
// benchmark_scripts/generate_data_from_sim.py runs them (elk-reference.md §6), and how one point
// becomes a run on equal terms (Elk Studio's pipeline and simulator) or in artifact parity.

namespace elk::run {

/// One experiment point in the artifact's terms.
struct PaperPoint {
    std::string model; ///< the artifact's name: llama2-13, llama2-70, opt-30, gemma2, vit-huge
    std::int64_t batch = 32;
    std::int64_t seqLen = 2048; ///< decode: KV cache length; training: prompt length
    bool training = false; ///< Fig. 24: the artifact's "training", a prefill forward pass
    std::int64_t cores = 5888;
    double hbmGBps = 16000; ///< B_hbm, the artifact's "GB/s" (its scheduler reads it as MiB/ms)
    bool mesh = false;
    double meshRatio = 0; ///< the artifact's scalar r (mesh only; parity)
    double nocScale = 1; ///< x: --comm (parity), link bandwidth × x (equal terms)
    double computeScale = 1; ///< y: --comp (parity), core clock × y (equal terms)
    /// Canonical text, equal for equal points: "llama2-13 b32 s2048 c5888 hbm16000 a2a x1 y1".
    std::string key() const;
    bool operator==(const PaperPoint&) const = default;
};

struct PaperFigure {
    std::string name; ///< "fig17"
    std::string title; ///< "Per-token latency of the five designs"
    std::vector<PaperPoint> points; ///< in the artifact's loop order
};

/// fig17 … fig24.
const std::vector<std::string>& paperFigureNames();
std::optional<PaperFigure> paperFigure(std::string_view name);
/// The bundled model for an artifact model file ("llama2-13" → "llama2-13b"); empty when there is none.
/// "vit-huge" → "dit-xl": the paper labels the artifact's vit-huge graph (32 layers) "DiT-XL", and the
/// equal-terms run takes the network the paper names (bundled DiT-XL/2: 28 layers, 256 patch tokens,
/// one forward pass), so Fig. 23's DiT panels compare different graphs in the two modes.
std::string bundledModelFor(std::string_view artifactModel);

/// The equal-terms run of a point: the bundled model on the IPU-POD4 HBM presets (ipu-pod4-hbm, or
/// ipu-pod4-hbm-mesh when mesh), with `cores` spread over the preset's 4 chips (vit-huge: 1 chip),
/// B_hbm GB/s over all HBM stacks, link bandwidth × x and clock × y (compute ×y; links and HBM keep
/// their GB/s). Training points run the prefill forward pass the artifact runs (b, s); DiT-XL a
/// forward pass of batch b.
RunRequest equalTermsRequest(const PaperPoint& point);
/// The parity run of a point: the artifact's model file `einsteinDir/<model>.json` on the same chip
/// (the parity pipeline reads cores, SRAM, clock, link and HBM bandwidth from it; the mesh is its r).
RunRequest parityRequest(const PaperPoint& point, const std::string& einsteinDir);

/// How `elk reproduce` runs the points.
enum class ReproduceMode {
    EqualTerms, ///< Elk Studio's pipeline and event-driven simulator on the bundled models (default)
    ArtifactParity, ///< the artifact's behaviour (artifact_parity.h) on its own model files
};
const char* toString(ReproduceMode mode); ///< "equal-terms", "artifact-parity"

/// One design at one point: every raw number the figures draw. NaN where the mode has no such value.
struct PaperDesignResult {
    std::string design;
    double latencyMs = 0;
    /// Breakdown: a preload and an execution both in progress, preload only, execute only, and the
    /// rest of the latency (parity: the artifact's "interconnect", weighted as §5.4; equal terms: time
    /// with neither in progress).
    double overlapMs = 0, preloadOnlyMs = 0, executeOnlyMs = 0, restMs = 0;
    double hbmUtilization = 0;
    double nocUtilization = 0; ///< parity: load + shift parts (§5.4); equal terms: link bytes ÷ capacity
    double tflops = 0; ///< TFLOP/s (1e12), FLOPs ÷ latency
    std::string error; ///< why this design has no result (the numbers are then 0)
};

struct PaperPointResult {
    PaperPoint point;
    std::vector<PaperDesignResult> designs; ///< basic, static, elk-dyn, elk-full, ideal
    std::string error; ///< why the point has no result at all
    bool fromCache = false;
};

} // namespace elk::run
