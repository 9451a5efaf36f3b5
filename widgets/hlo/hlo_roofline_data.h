// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the StableHLO roofline chart draws, without painting: one point per kernel (arithmetic
// intensity vs attained FLOP/s, per execution), the device roofs, the axis ranges, hit testing.

#include <vector>

#include <QString>
#include <QStringList>

#include "widgets/hlo/hlo_format.h"

namespace elk::hlo {
struct KernelPoint;
}

namespace elk::widgets {

struct HloRooflinePoint {
    int group = 0; ///< index of the shown result
    int kernel = 0; ///< index into HloRunResult::kernels
    double intensity = 0; ///< FLOP/byte
    double flopsPerSecond = 0; ///< attained: FLOPs / seconds of one execution
    double timeShare = 0; ///< of the result's compute time: seconds × executions / Σ over its kernels
};

/// One roof of a device: min(intensity × bandwidth, peak). Several element types of one device share
/// the memory slope and get a flat line each.
struct HloRoof {
    int group = 0; ///< the first shown result on this device
    QString device; ///< display name
    QString deviceId; ///< preset name, "a100-sxm-40gb"
    QStringList types; ///< element types at this peak: "bf16", "f32"; "tf32" is f32 on matrix units
    double peakFlopsPerSecond = 0; ///< × compute efficiency
    double bandwidthBytesPerSecond = 0; ///< × memory efficiency
    bool dominant = false; ///< the peak of the type with most of the device's FLOPs
    double ridgeIntensity() const
    {
        return bandwidthBytesPerSecond > 0 ? peakFlopsPerSecond / bandwidthBytesPerSecond : 0;
    }
};

struct HloRooflineData {
    HloResults groups; ///< shown results (ok, with kernels), in order
    QStringList labels; ///< hloResultLabel of each group
    std::vector<HloRooflinePoint> points; ///< group by group, kernels in result order
    std::vector<HloRoof> roofs; ///< by device, dominant first, then by falling peak
    bool sharedDevice = true; ///< every group runs on the same device (one set of roofs)
    double xLower = 0.01, xUpper = 1000; ///< whole decades
    double yLower = 1e9, yUpper = 1e15; ///< yLower a whole decade; yUpper 5 × the highest roof or point

    bool empty() const { return points.empty(); }
    int pointCount(int group) const;
};

/// Whether a kernel is drawn: FLOPs, bytes and time all above zero (a point needs both coordinates).
bool hasRooflinePoint(const elk::hlo::KernelPoint& kernel);

HloRooflineData buildHloRoofline(const HloResults& results);

/// Marker diameter in pixels for a time share (0..1): area grows with the share, 3 to 13 px.
double rooflineMarkerDiameter(double timeShare, double largestShare);

/// Hover text of a point: kernel label, estimator, time per execution and in all, share, intensity,
/// attained rate, FLOPs and bytes, and which roof bounds it.
QString hloKernelToolTip(const HloRooflineData& data, int point);

} // namespace elk::widgets
