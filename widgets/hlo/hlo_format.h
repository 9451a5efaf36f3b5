// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Texts and colours shared by the StableHLO views and page: decimal SI units, as the HLO flow
// reports them (1 GB = 1e9 bytes, 1 TFLOP/s = 1e12 FLOP/s).

#include <memory>
#include <vector>

#include <QColor>
#include <QString>

namespace elk::hlo {
struct HloRunResult;
}

namespace elk::widgets {

/// One finished run of the StableHLO flow, shared read-only between the views.
using HloResultPtr = std::shared_ptr<const elk::hlo::HloRunResult>;
using HloResults = std::vector<HloResultPtr>;

/// The estimator chain as one text: "roofline", "icca:ipu-pod4-hbm → roofline".
QString hloEstimatorChainText(const elk::hlo::HloRunResult& result);
/// What a view calls a result: "4x-a100-sxm-40gb · roofline".
QString hloResultLabel(const elk::hlo::HloRunResult& result);
/// Colour of the index-th result shown (the figure palette, so grayscale-safe neighbours).
QColor hloResultColor(int index);

/// "0 s", "850 ns", "12.4 µs", "3.21 ms", "1.25 s" (3 significant digits).
QString hloSecondsText(double seconds);
/// "0 FLOP", "12.3 GFLOP", "1.05 TFLOP".
QString hloFlopsText(double flops);
/// "512 B", "12.3 kB", "1.60 MB", "2.15 GB".
QString hloBytesText(double bytes);
/// "12.3 GFLOP/s", "312 TFLOP/s".
QString hloRateText(double flopsPerSecond);
/// "1.56 TB/s".
QString hloBandwidthText(double bytesPerSecond);

} // namespace elk::widgets
