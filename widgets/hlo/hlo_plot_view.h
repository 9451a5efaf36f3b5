// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include "widgets/hlo/hlo_format.h"
#include "widgets/plots/plot_view.h"

class QCPAxis;

namespace elk::widgets {

/// Base of the StableHLO plots: they show finished HloRunResults (several side by side: systems or
/// estimator chains) instead of PlotView's ICCA run, which they ignore. Export and styles are PlotView's.
class HloPlotView : public PlotView {
    Q_OBJECT
public:
    explicit HloPlotView(QWidget* parent = nullptr);
    ~HloPlotView() override;

    /// Shows these results in this order (nulls are dropped; results that failed are kept in the list but
    /// draw nothing). Views keep the pointers and never modify them.
    void setHloResults(HloResults results);
    const HloResults& hloResults() const { return m_results; }
    /// The results that draw (ok() and with regions), in shown order: index i gets hloResultColor(i).
    HloResults shownResults() const;

protected:
    /// With nothing to show, the plot is a line of text saying how to fill it, not empty axes (whose
    /// tick labels run together at zero width); `hint` empty restores the axes. Call after clearItems().
    void showEmptyHint(const QString& hint);

    HloResults m_results;

private:
    struct HiddenAxis {
        QCPAxis* axis = nullptr;
        bool visible = true;
        bool gridVisible = true;
    };
    std::vector<HiddenAxis> m_hiddenAxes; ///< while the empty hint shows: each axis as it was
};

} // namespace elk::widgets
