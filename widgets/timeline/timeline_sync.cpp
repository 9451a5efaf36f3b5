// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/timeline_sync.h"

#include <algorithm>
#include <memory>

#include "widgets/timeline/bandwidth_view.h"
#include "widgets/timeline/gantt_view.h"

namespace elk::widgets {

void shareTimeAxis(GanttView* gantt, BandwidthView* bandwidth)
{
    // Each view clamps a range to its own run; when the two clamp differently (one empty, or runs of
    // different lengths) forwarding back and forth would never settle, so a forward never re-enters.
    auto forwarding = std::make_shared<bool>(false);
    QObject::connect(
        gantt, &GanttView::timeRangeChanged, bandwidth, [bandwidth, forwarding](double lower, double upper) {
            if (*forwarding)
                return;
            *forwarding = true;
            bandwidth->setTimeRange(lower, upper);
            *forwarding = false;
        });
    QObject::connect(
        bandwidth, &BandwidthView::timeRangeChanged, gantt, [gantt, forwarding](double lower, double upper) {
            if (*forwarding)
                return;
            *forwarding = true;
            gantt->setTimeRange(lower, upper);
            *forwarding = false;
        });
    bandwidth->setTimeRange(gantt->lowerCycles(), gantt->upperCycles());
    // After either lays out, raise the smaller left margin to the larger (QCPMarginGroup only works
    // inside one QCustomPlot). Margins only grow, so this settles after one extra replot.
    const auto align = [gantt, bandwidth] {
        const int left = std::max(gantt->plotLeftMargin(), bandwidth->plotLeftMargin());
        if (gantt->plotLeftMargin() < left)
            gantt->setMinimumLeftMargin(left);
        if (bandwidth->plotLeftMargin() < left)
            bandwidth->setMinimumLeftMargin(left);
    };
    QObject::connect(gantt->plot(), &QCustomPlot::afterReplot, bandwidth, align);
    QObject::connect(bandwidth->plot(), &QCustomPlot::afterReplot, gantt, align);
}

} // namespace elk::widgets
