// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <vector>

#include <QString>

namespace elk::widgets {

/// The unit time-axis labels use, picked from the visible span so that labels stay short
/// ("1,250 µs" rather than "0.00125 s").
struct TimeScale {
    QString unit; ///< "ns", "µs", "ms" or "s"
    double cyclesPerUnit = 1;
};

/// ns below 2 µs of span, µs below 2 ms, ms below 2 s, s above. `clockHz` > 0.
TimeScale timeScaleFor(double spanCycles, double clockHz);
/// A 1-2-5 step giving about `targetTicks` ticks over `span` (> 0).
double niceStep(double span, int targetTicks);
/// Decimals that print every multiple of `step` exactly (0 for 5, 1 for 0.5, 2 for 0.25).
int decimalsForStep(double step);
/// "12.3–12.4 µs": both ends in one unit chosen from the interval's length and position.
QString formatTimeInterval(double startCycles, double endCycles, double clockHz);

/// One bar of a timeline lane, in cycles. A lane's bars are sorted by start and do not overlap, so
/// their ends are sorted too (what makes binary search work).
struct LaneBar {
    double start = 0;
    double end = 0;
    int item = 0; ///< the step it belongs to
    int tag = 0; ///< lane-specific (stall lane: 0 interconnect stall, 1 waiting for the preload)
};

/// Index of the first bar with end ≥ `lower` (bars.size() when none).
std::size_t firstBarEndingAfter(const std::vector<LaneBar>& bars, double lower);
/// Index of the bar containing `key`, else of the nearest bar within `tolerance` cycles; -1 when none.
int barAt(const std::vector<LaneBar>& bars, double key, double tolerance);

/// A horizontal pixel span [x0, x1) filled for one bar, or for several sub-pixel bars merged into one
/// pixel column (then `bar` is the longest of them and `merged` is true).
struct PixelRun {
    int x0 = 0;
    int x1 = 0;
    int bar = 0; ///< index into the lane's bars
    bool merged = false;
};

/// Maps the bars overlapping [lower, upper] to pixel runs (x = pixelLeft + (t - lower) × pixelsPerCycle).
/// A bar at least one pixel wide gets a run of its own; consecutive narrower bars whose pixels fall in one
/// column merge into a single one-pixel run. So a lane never draws more runs than it has pixel columns
/// (plus its wide bars), whatever the number of ops: what keeps panning over 4,000 ops fast.
void pixelRuns(const std::vector<LaneBar>& bars, double lower, double upper, double pixelLeft, double pixelsPerCycle,
    std::vector<PixelRun>& out);

/// Clamps a visible time range to [minCycles, maxCycles] keeping its span (shrunk to the whole range
/// when wider), and widens it to at least `minSpan`. Returns {lower, upper}.
struct TimeRange {
    double lower = 0;
    double upper = 0;
};
TimeRange clampTimeRange(TimeRange range, double minCycles, double maxCycles, double minSpan);
/// `range` made `factor` times narrower around its centre (factor > 1 zooms in); unchanged for factor ≤ 0.
TimeRange zoomedRange(TimeRange range, double factor);
/// `range` moved by `fraction` of its span (negative: earlier).
TimeRange pannedRange(TimeRange range, double fraction);

} // namespace elk::widgets
