// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/timeline_sync.h"

#include <algorithm>

#include "widgets/timeline/bandwidth_view.h"
#include "widgets/timeline/gantt_view.h"

namespace elk::widgets {

void shareTimeAxis(GanttView* gantt, BandwidthView* bandwidth)
{
    QObject::connect(gantt, &GanttView::timeRangeChanged, bandwidth, &BandwidthView::setTimeRange);
    QObject::connect(bandwidth, &BandwidthView::timeRangeChanged, gantt, &GanttView::setTimeRange);
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
