// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/hlo/hlo_plot_view.h"

#include <algorithm>

#include "engine/hlo/hlo_run.h"

namespace elk::widgets {

HloPlotView::HloPlotView(QWidget* parent)
    : PlotView(parent)
{
}

HloPlotView::~HloPlotView() = default;

void HloPlotView::setHloResults(HloResults results)
{
    std::erase(results, nullptr);
    m_results = std::move(results);
    rebuild();
}

HloResults HloPlotView::shownResults() const
{
    HloResults shown;
    for (const HloResultPtr& result : m_results) {
        if (result->ok() && !result->regions.empty())
            shown.push_back(result);
    }
    return shown;
}

} // namespace elk::widgets
