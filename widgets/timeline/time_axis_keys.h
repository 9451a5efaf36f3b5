// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The keys the timeline views (Gantt, StableHLO step timeline) share for zooming and panning time.

#include <Qt>

namespace elk::widgets {

/// +/= zoom in 1.5×, − zoom out, ←/→ pan a fifth of the view, Home the whole run, on any view with
/// zoomBy(double), panBy(double) and resetTimeRange(). False for other keys.
template <typename View> bool handleTimeAxisKey(View& view, int key)
{
    switch (key) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        view.zoomBy(1.5);
        return true;
    case Qt::Key_Minus:
        view.zoomBy(1 / 1.5);
        return true;
    case Qt::Key_Left:
        view.panBy(-0.2);
        return true;
    case Qt::Key_Right:
        view.panBy(0.2);
        return true;
    case Qt::Key_Home:
        view.resetTimeRange();
        return true;
    default:
        return false;
    }
}

} // namespace elk::widgets
