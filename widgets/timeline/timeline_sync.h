// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace elk::widgets {

class BandwidthView;
class GanttView;

/// Keeps a Gantt timeline and a bandwidth view on one time range (zooming or panning either moves
/// both) and lines up the left edges of their plot areas, so that one x position is one instant in
/// both. The connections end with either view.
void shareTimeAxis(GanttView* gantt, BandwidthView* bandwidth);

} // namespace elk::widgets
