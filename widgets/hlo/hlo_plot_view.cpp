// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

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

void HloPlotView::showEmptyHint(const QString& hint)
{
    QCustomPlot* p = plot();
    const bool empty = !hint.isEmpty();
    // Items belong to the axis rect (hiding it hides them), so its axes and grids go instead, and
    // come back as each view had them.
    if (empty && m_hiddenAxes.empty()) {
        for (QCPAxis* axis : p->axisRect()->axes()) {
            m_hiddenAxes.push_back({ axis, axis->visible(), axis->grid()->visible() });
            axis->setVisible(false);
            axis->grid()->setVisible(false);
        }
    } else if (!empty) {
        for (const HiddenAxis& hidden : m_hiddenAxes) {
            hidden.axis->setVisible(hidden.visible);
            hidden.axis->grid()->setVisible(hidden.gridVisible);
        }
        m_hiddenAxes.clear();
    }
    p->legend->setVisible(!empty);
    if (!empty)
        return;
    auto* text = new QCPItemText(p);
    text->setClipToAxisRect(false);
    text->position->setType(QCPItemPosition::ptViewportRatio);
    text->position->setCoords(0.5, 0.5);
    text->setPositionAlignment(Qt::AlignCenter);
    text->setText(hint);
    text->setColor(palette().color(QPalette::PlaceholderText));
    text->setObjectName(QStringLiteral("emptyHint"));
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
