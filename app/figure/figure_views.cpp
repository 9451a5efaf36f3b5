// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/figure/figure_views.h"

#include "widgets/classroom/classroom_view.h"
#include "widgets/hlo/hlo_roofline_view.h"
#include "widgets/hlo/hlo_step_timeline_view.h"
#include "widgets/plots/designs_view.h"
#include "widgets/plots/diff_view.h"
#include "widgets/plots/order_spread_view.h"
#include "widgets/plots/paper_figure_view.h"
#include "widgets/plots/pareto_view.h"
#include "widgets/plots/sweep_view.h"
#include "widgets/plots/waterfall_view.h"
#include "widgets/timeline/bandwidth_view.h"
#include "widgets/timeline/diff_links_view.h"
#include "widgets/timeline/diff_timeline_view.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/timeline/link_heatmap_view.h"

using namespace Qt::Literals::StringLiterals;

namespace elk::app {

QStringList figureKinds()
{
    return { u"designs"_s, u"waterfall"_s, u"orders"_s, u"diff"_s, u"diff-timeline"_s, u"diff-links"_s, u"pareto"_s,
        u"gantt"_s, u"bandwidth"_s, u"heatmap"_s, u"sweep"_s, u"classroom"_s, u"hlo-timeline"_s, u"hlo-roofline"_s };
}

std::unique_ptr<widgets::PlotView> createPlotView(const QString& kind)
{
    std::unique_ptr<widgets::PlotView> view;
    if (kind == u"designs"_s)
        view = std::make_unique<widgets::DesignsView>();
    else if (kind == u"waterfall"_s)
        view = std::make_unique<widgets::WaterfallView>();
    else if (kind == u"diff"_s)
        view = std::make_unique<widgets::DiffView>();
    else if (kind == u"diff-timeline"_s)
        view = std::make_unique<widgets::DiffTimelineView>();
    else if (kind == u"diff-links"_s)
        view = std::make_unique<widgets::DiffLinksView>();
    else if (kind == u"orders"_s)
        view = std::make_unique<widgets::OrderSpreadView>();
    else if (kind == u"pareto"_s)
        view = std::make_unique<widgets::ParetoView>();
    else if (kind == u"gantt"_s)
        view = std::make_unique<widgets::GanttView>();
    else if (kind == u"bandwidth"_s)
        view = std::make_unique<widgets::BandwidthView>();
    else if (kind == u"heatmap"_s)
        view = std::make_unique<widgets::LinkHeatmapView>();
    else if (kind == u"sweep"_s)
        view = std::make_unique<widgets::SweepView>();
    else if (kind == u"classroom"_s)
        view = std::make_unique<widgets::ClassroomView>();
    else if (kind == u"hlo-timeline"_s)
        view = std::make_unique<widgets::HloStepTimelineView>();
    else if (kind == u"hlo-roofline"_s)
        view = std::make_unique<widgets::HloRooflineView>();
    else if (kind == u"paper"_s) // fed with a run::PaperChart, not a run: not one of figureKinds()
        view = std::make_unique<widgets::PaperFigureView>();
    // The kinds above must agree with each view's own figureKind().
    Q_ASSERT(!view || view->figureKind() == kind);
    return view;
}

bool setSecondDesign(widgets::PlotView& view, int designIndex)
{
    if (auto* diff = qobject_cast<widgets::DiffPlotView*>(&view)) {
        diff->setAgainst(view.run(), designIndex);
        return true;
    }
    auto* classroom = qobject_cast<widgets::ClassroomView*>(&view);
    if (!classroom)
        return false;
    classroom->setSecondDesignIndex(designIndex);
    return true;
}

void prepareForExport(widgets::PlotView& view)
{
    // A classroom figure shows the moment its cursor is at; mid-run shows done and coming work together.
    if (auto* classroom = qobject_cast<widgets::ClassroomView*>(&view); classroom && classroom->tickCount() > 0)
        classroom->setCurrentTick(classroom->tickCount() / 2);
}

} // namespace elk::app
