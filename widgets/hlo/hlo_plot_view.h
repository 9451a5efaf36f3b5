// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/hlo/hlo_format.h"
#include "widgets/plots/plot_view.h"

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
    HloResults m_results;
};

} // namespace elk::widgets
