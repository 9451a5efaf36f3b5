// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/run_views.h"

#include <QSignalBlocker>
#include <QSplitter>

#include "app/studio/diff_page.h"
#include "app/studio/hlo_page.h"
#include "app/studio/paper_page.h"
#include "app/studio/sweep_panel.h"
#include "engine/run/run_compile.h"
#include "widgets/classroom/classroom_view.h"
#include "widgets/hlo/hlo_plot_view.h"
#include "widgets/plots/designs_view.h"
#include "widgets/plots/order_spread_view.h"
#include "widgets/plots/paper_figure_view.h"
#include "widgets/plots/pareto_view.h"
#include "widgets/plots/sweep_view.h"
#include "widgets/plots/waterfall_view.h"
#include "widgets/timeline/bandwidth_view.h"
#include "widgets/timeline/gantt_view.h"
#include "widgets/timeline/link_heatmap_view.h"
#include "widgets/timeline/timeline_sync.h"

namespace elk::app {

const QStringList& RunViews::tabKinds()
{
    static const QStringList kinds { QStringLiteral("chip"), QStringLiteral("designs"), QStringLiteral("pareto"),
        QStringLiteral("gantt"), QStringLiteral("heatmap"), QStringLiteral("diff"), QStringLiteral("sweep"),
        QStringLiteral("classroom"), QStringLiteral("hlo"), QStringLiteral("paper") };
    return kinds;
}

RunViews::RunViews(QWidget* chipPage, SweepPanel* sweepPanel, HloPage* hloPage, PaperPage* paperPage, QWidget* parent)
    : QTabWidget(parent)
    , m_designs(new elk::widgets::DesignsView)
    , m_waterfall(new elk::widgets::WaterfallView)
    , m_orders(new elk::widgets::OrderSpreadView)
    , m_diffPage(new DiffPage)
    , m_pareto(new elk::widgets::ParetoView)
    , m_gantt(new elk::widgets::GanttView)
    , m_bandwidth(new elk::widgets::BandwidthView)
    , m_links(new elk::widgets::LinkHeatmapView)
    , m_classroom(new elk::widgets::ClassroomView)
    , m_sweepPanel(sweepPanel)
    , m_hloPage(hloPage)
    , m_paperPage(paperPage)
{
    setObjectName(QStringLiteral("runViews"));
    setDocumentMode(true);
    auto* timeline = new QSplitter(Qt::Vertical);
    timeline->setObjectName(QStringLiteral("timelineSplitter"));
    timeline->addWidget(m_gantt);
    timeline->addWidget(m_bandwidth);
    timeline->setStretchFactor(0, 3);
    timeline->setStretchFactor(1, 2);
    elk::widgets::shareTimeAxis(m_gantt, m_bandwidth);

    auto* designs = new QSplitter(Qt::Vertical);
    designs->setObjectName(QStringLiteral("designsSplitter"));
    designs->addWidget(m_designs);
    designs->addWidget(m_waterfall);
    designs->addWidget(m_orders);
    designs->setStretchFactor(0, 3);
    designs->setStretchFactor(1, 2);
    designs->setStretchFactor(2, 1);

    addTab(chipPage, tr("Chip"));
    addTab(designs, tr("Designs"));
    addTab(m_pareto, tr("Pareto"));
    addTab(timeline, tr("Timeline"));
    addTab(m_links, tr("Links"));
    addTab(m_diffPage, tr("Diff"));
    addTab(m_sweepPanel, tr("Sweep"));
    addTab(m_classroom, tr("Classroom"));
    addTab(m_hloPage, tr("StableHLO"));
    addTab(m_paperPage, tr("Paper"));
    setTabToolTip(1,
        tr("Latency, breakdown and utilisation of every design; below, the bound-gap waterfall "
           "(click a part: the timeline shades where it happens)"));
    setTabToolTip(2, tr("Execute-state points and Pareto front of the selected op, and what each design chose"));
    setTabToolTip(3, tr("Simulated preload and execute lanes over time, with HBM, NoC and SRAM below"));
    setTabToolTip(4, tr("Utilisation of every link (mesh) or core port (all-to-all) over time"));
    setTabToolTip(5,
        tr("The chosen design against another design, the compare chip or a run from the history: "
           "per-op Δ, the two timelines aligned on the op, Δ bytes per link"));
    setTabToolTip(6, tr("Latency per design while one or two chip fields vary"));
    setTabToolTip(7, tr("Step through the timeline event by event, two designs side by side"));
    setTabToolTip(8, tr("A StableHLO module on GPU/TPU systems or ICCA chips: regions, step timeline, roofline"));
    setTabToolTip(9, tr("Reproduce the Elk paper's figures (Figs. 17–24) beside its published values"));

    for (elk::widgets::PlotView* view : runViews())
        connect(view, &elk::widgets::PlotView::stepSelected, this, &RunViews::onViewStepSelected);
    connect(m_diffPage, &DiffPage::stepSelected, this, &RunViews::onViewStepSelected);
    connect(m_waterfall, &elk::widgets::WaterfallView::partSelected, this, &RunViews::onWaterfallPart);
}

void RunViews::onWaterfallPart(int designIndex, int cause)
{
    if (!m_run || designIndex < 0 || designIndex >= int(m_run->designs.size()))
        return;
    const elk::run::DesignRun& design = m_run->designs[std::size_t(designIndex)];
    if (!design.simulated)
        return;
    emit designPicked(designIndex);
    if (m_designIndex != designIndex)
        setDesignIndex(designIndex);
    const elk::sim::SimResult& simulated = *design.simulated;
    const QString name = QString::fromLatin1(elk::schedule::toString(design.design));
    if (cause < 0 || cause >= elk::sim::kGapCauseCount) {
        m_gantt->setHighlight({}, {});
    } else {
        const elk::sim::GapPart& part = simulated.boundGap.parts[std::size_t(cause)];
        const double msPerCycle = 1e3 / simulated.clockHz;
        m_gantt->setHighlight(part.intervals,
            tr("%1 — %2: %3 ms lost over %4 ms")
                .arg(name, QString::fromLatin1(elk::sim::describe(elk::sim::GapCause(cause))))
                .arg(part.lossCycles * msPerCycle, 0, 'f', 3)
                .arg(part.durationCycles * msPerCycle, 0, 'f', 3));
    }
    setCurrentKind(QStringLiteral("gantt"));
}

std::vector<elk::widgets::PlotView*> RunViews::runViews() const
{
    return { m_designs, m_waterfall, m_orders, m_pareto, m_gantt, m_bandwidth, m_links, m_classroom };
}

std::vector<elk::widgets::PlotView*> RunViews::plotViews() const
{
    std::vector<elk::widgets::PlotView*> views = runViews();
    for (elk::widgets::PlotView* view : m_diffPage->plotViews())
        views.push_back(view);
    views.push_back(m_sweepPanel->sweepView());
    return views;
}

void RunViews::setRun(elk::widgets::RunSnapshotPtr run)
{
    m_run = std::move(run);
    const int designs = m_run ? int(m_run->designs.size()) : 0;
    m_designIndex = designs > 0 ? std::clamp(m_designIndex, 0, designs - 1) : 0;
    if (m_run && m_selectedStep >= int(m_run->problem.steps.size()))
        m_selectedStep = -1;
    updateTogether([this] {
        // Every setter rebuilds the view: only what changed, the run last.
        for (elk::widgets::PlotView* view : runViews()) {
            if (view->designIndex() != m_designIndex)
                view->setDesignIndex(m_designIndex);
            if (view->selectedStep() != m_selectedStep)
                view->setSelectedStep(m_selectedStep);
            view->setRun(m_run);
        }
    });
    updateClassroomPair();
    m_diffPage->setRun(m_run);
    m_diffPage->setDesignIndex(m_designIndex);
}

void RunViews::updateTogether(const std::function<void()>& update)
{
    // The Gantt chart and the bandwidth view trade time ranges. While one already shows the new run
    // and the other the old one (or none), their range clamps disagree and the trade need not settle,
    // so they are updated silently and lined up afterwards.
    {
        const QSignalBlocker ganttBlocker(m_gantt);
        const QSignalBlocker bandwidthBlocker(m_bandwidth);
        update();
    }
    if (m_gantt->hasData() && m_bandwidth->hasData())
        m_bandwidth->setTimeRange(m_gantt->lowerCycles(), m_gantt->upperCycles());
}

void RunViews::setCompareRun(elk::widgets::RunSnapshotPtr run, const QString& label)
{
    m_compareRun = run;
    m_designs->setCompareRun(run, label);
    m_diffPage->setCompareRun(std::move(run), label);
}

void RunViews::setDesignIndex(int index)
{
    m_designIndex = index;
    updateTogether([this, index] {
        for (elk::widgets::PlotView* view : runViews()) {
            if (view->designIndex() != index)
                view->setDesignIndex(index);
        }
    });
    updateClassroomPair();
    m_diffPage->setDesignIndex(index);
}

void RunViews::setSelectedStep(int step)
{
    m_selectedStep = step;
    for (elk::widgets::PlotView* view : runViews()) {
        if (view->selectedStep() != step)
            view->setSelectedStep(step);
    }
}

void RunViews::onViewStepSelected(int step)
{
    setSelectedStep(step);
    emit stepSelected(step);
}

void RunViews::updateClassroomPair()
{
    // Classroom: the chosen design advances together with basic (what preloading changes), or,
    // when basic is the chosen one, with elk-full.
    int second = -1;
    if (m_run) {
        const auto indexOf = [&](const std::string& name) {
            for (std::size_t i = 0; i < m_run->spec.designs.size(); ++i) {
                if (m_run->spec.designs[i] == name)
                    return int(i);
            }
            return -1;
        };
        const int basic = indexOf("basic");
        second = basic != m_designIndex ? basic : indexOf("elk-full");
    }
    m_classroom->setSecondDesignIndex(second);
}

elk::widgets::PlotView* RunViews::currentPlotView() const
{
    const QString kind = currentKind();
    if (kind == QLatin1String("designs"))
        return m_waterfall->hasFocus() ? static_cast<elk::widgets::PlotView*>(m_waterfall)
            : m_orders->hasFocus()     ? static_cast<elk::widgets::PlotView*>(m_orders)
                                       : m_designs;
    if (kind == QLatin1String("diff"))
        return m_diffPage->currentPlotView();
    if (kind == QLatin1String("pareto"))
        return m_pareto;
    if (kind == QLatin1String("gantt"))
        return m_bandwidth->hasFocus() ? static_cast<elk::widgets::PlotView*>(m_bandwidth) : m_gantt;
    if (kind == QLatin1String("heatmap"))
        return m_links;
    if (kind == QLatin1String("sweep"))
        return m_sweepPanel->sweepView();
    if (kind == QLatin1String("classroom"))
        return m_classroom;
    if (kind == QLatin1String("hlo"))
        return m_hloPage->currentPlotView();
    if (kind == QLatin1String("paper"))
        return m_paperPage->figureView();
    return nullptr;
}

QString RunViews::currentKind() const
{
    return tabKinds().value(currentIndex());
}

int RunViews::indexOfKind(const QString& kind) const
{
    // "bandwidth" lives on the Gantt chart's tab, "diff-timeline" and "diff-links" on the Diff tab.
    if (kind == QLatin1String("bandwidth"))
        return int(tabKinds().indexOf(QStringLiteral("gantt")));
    if (kind.startsWith(QLatin1String("diff-")))
        return int(tabKinds().indexOf(QStringLiteral("diff")));
    return int(tabKinds().indexOf(kind));
}

bool RunViews::setCurrentKind(const QString& kind)
{
    // "hlo-timeline" and "hlo-roofline" (the figure kinds) live on the StableHLO page.
    if (kind.startsWith(QLatin1String("hlo-"))) {
        if (!m_hloPage->showPlot(kind))
            return false;
        setCurrentWidget(m_hloPage);
        return true;
    }
    const int index = indexOfKind(kind);
    if (index < 0)
        return false;
    setCurrentIndex(index);
    return true;
}

} // namespace elk::app
