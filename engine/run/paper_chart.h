// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

// What one reproduced paper figure draws, as plain data: the engine builds it from a reproduce run
// and the published values; widgets/plots/PaperFigureView draws it; tests read it without Qt.

namespace elk::run {

/// How a panel draws its series.
enum class ChartKind {
    Lines, ///< numeric x: one line with markers per series
    GroupedBars, ///< categorical x: one bar per series side by side in each category
    StackedBars, ///< categorical x: the series stacked in each category (a breakdown)
};

/// One series of a panel. `y` has one value per x (Lines) or per category (bars); NaN = no value.
struct ChartSeries {
    std::string name; ///< legend text: a design ("elk-full") or a breakdown part ("overlapped")
    std::string design; ///< the design whose colour it takes ("" for breakdown parts: palette by index)
    std::vector<double> x; ///< Lines only
    std::vector<double> y;
    /// A reference series (the paper's published values, or the artifact's measured ones): drawn as
    /// hollow markers in the colour of `design`, no line or bar, labelled `name` (e.g. "elk-full · paper").
    bool reference = false;
};

struct ChartPanel {
    std::string title; ///< e.g. "llama2-13 · all-to-all"
    ChartKind kind = ChartKind::Lines;
    std::string xLabel, yLabel;
    std::vector<std::string> categories; ///< bars: x labels, in order
    std::vector<ChartSeries> series;
    bool yFromZero = true;
};

/// A figure: panels laid out in a grid of `columns` columns, one shared legend.
struct PaperChart {
    std::string name; ///< "fig19"
    std::string title; ///< "Fig. 19 · per-token latency vs HBM bandwidth (equal terms)"
    std::string caption; ///< one line under the figure: mode, what "paper" markers are, their source
    int columns = 1;
    std::vector<ChartPanel> panels;
};

} // namespace elk::run
