// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timeline_geometry.h"

#include <algorithm>
#include <cmath>

namespace elk::widgets {

TimeScale timeScaleFor(double spanCycles, double clockHz)
{
    const double seconds = std::abs(spanCycles) / clockHz;
    if (seconds < 2e-6)
        return { QStringLiteral("ns"), clockHz * 1e-9 };
    if (seconds < 2e-3)
        return { QStringLiteral("µs"), clockHz * 1e-6 };
    if (seconds < 2)
        return { QStringLiteral("ms"), clockHz * 1e-3 };
    return { QStringLiteral("s"), clockHz };
}

double niceStep(double span, int targetTicks)
{
    const double raw = span / std::max(1, targetTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double mantissa = raw / magnitude;
    const double clean = mantissa < 1.5 ? 1 : mantissa < 3.5 ? 2 : mantissa < 7.5 ? 5 : 10;
    return clean * magnitude;
}

int decimalsForStep(double step)
{
    for (int decimals = 0; decimals < 9; ++decimals) {
        const double scaled = step * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return decimals;
    }
    return 9;
}

QString formatTimeInterval(double startCycles, double endCycles, double clockHz)
{
    const TimeScale scale = timeScaleFor(std::max(std::abs(endCycles), std::abs(endCycles - startCycles)), clockHz);
    const double length = (endCycles - startCycles) / scale.cyclesPerUnit;
    int decimals = 0;
    if (length > 0 && length < 1) {
        decimals = std::clamp(int(std::ceil(-std::log10(length) - 1e-9)), 0, 6);
        const double scaled = length * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) > 0.05 && decimals < 6)
            ++decimals;
    }
    return QString::number(startCycles / scale.cyclesPerUnit, 'f', decimals) + QStringLiteral("–")
        + QString::number(endCycles / scale.cyclesPerUnit, 'f', decimals) + QLatin1Char(' ') + scale.unit;
}

std::size_t firstBarEndingAfter(const std::vector<LaneBar>& bars, double lower)
{
    const auto it
        = std::lower_bound(bars.begin(), bars.end(), lower, [](const LaneBar& bar, double t) { return bar.end < t; });
    return static_cast<std::size_t>(it - bars.begin());
}

int barAt(const std::vector<LaneBar>& bars, double key, double tolerance)
{
    const std::size_t i = firstBarEndingAfter(bars, key);
    if (i < bars.size() && bars[i].start <= key)
        return static_cast<int>(i);
    double best = tolerance;
    int found = -1;
    if (i < bars.size() && bars[i].start - key <= best) {
        best = bars[i].start - key;
        found = static_cast<int>(i);
    }
    if (i > 0 && key - bars[i - 1].end <= best)
        found = static_cast<int>(i - 1);
    return found;
}

void pixelRuns(const std::vector<LaneBar>& bars, double lower, double upper, double pixelLeft, double pixelsPerCycle,
    std::vector<PixelRun>& out)
{
    out.clear();
    for (std::size_t i = firstBarEndingAfter(bars, lower); i < bars.size() && bars[i].start <= upper; ++i) {
        const LaneBar& bar = bars[i];
        // Clip to the visible range first so that deep zooms never overflow int pixels.
        const double x0 = pixelLeft + (std::max(bar.start, lower) - lower) * pixelsPerCycle;
        const double x1 = pixelLeft + (std::min(bar.end, upper) - lower) * pixelsPerCycle;
        const int index = static_cast<int>(i);
        if (x1 - x0 >= 1.0) {
            int a = static_cast<int>(std::lround(x0));
            int b = static_cast<int>(std::lround(x1));
            if (!out.empty() && a < out.back().x1)
                a = out.back().x1;
            b = std::max(b, a + 1);
            out.push_back({ a, b, index, false });
            continue;
        }
        const int column = static_cast<int>(std::floor((x0 + x1) / 2));
        if (!out.empty() && out.back().x1 > column) {
            PixelRun& last = out.back();
            if (last.x1 - last.x0 == 1) { // a one-pixel run: the longest bar in the column colours it
                const LaneBar& kept = bars[static_cast<std::size_t>(last.bar)];
                if (bar.end - bar.start > kept.end - kept.start)
                    last.bar = index;
                last.merged = true;
            } // else a wide bar already covers this pixel
            continue;
        }
        out.push_back({ column, column + 1, index, false });
    }
}

TimeRange clampTimeRange(TimeRange range, double minCycles, double maxCycles, double minSpan)
{
    double span = range.upper - range.lower;
    if (span < minSpan) {
        const double centre = (range.lower + range.upper) / 2;
        span = minSpan;
        range = { centre - span / 2, centre + span / 2 };
    }
    if (span >= maxCycles - minCycles)
        return { minCycles, maxCycles };
    if (range.lower < minCycles)
        range = { minCycles, minCycles + span };
    if (range.upper > maxCycles)
        range = { maxCycles - span, maxCycles };
    return range;
}

TimeRange zoomedRange(TimeRange range, double factor)
{
    if (!(factor > 0))
        return range;
    const double centre = (range.lower + range.upper) / 2;
    const double half = (range.upper - range.lower) / factor / 2;
    return { centre - half, centre + half };
}

TimeRange pannedRange(TimeRange range, double fraction)
{
    const double shift = (range.upper - range.lower) * fraction;
    return { range.lower + shift, range.upper + shift };
}

} // namespace elk::widgets
