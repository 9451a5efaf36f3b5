// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

#include <QStringList>
#include <QTabWidget>

#include "widgets/plots/plot_view.h"

namespace elk::widgets {
class BandwidthView;
class ClassroomView;
class DesignsView;
class GanttView;
class LinkHeatmapView;
class OrderSpreadView;
class ParetoView;
class WaterfallView;
}

namespace elk::app {

class DiffPage;
class HloPage;
class PaperPage;
class SweepPanel;

/// The central tabs: Chip (the page given), Designs, Pareto, Timeline (Gantt over bandwidth, one time
/// axis), Links, Sweep, Classroom, StableHLO (the HloPage) and Paper (the PaperPage); the last two
/// run on their own. Every run view gets the same immutable snapshot, the same
/// design and the same selected step; a step picked in any view is shown by all (stepSelected).
class RunViews : public QTabWidget {
    Q_OBJECT
public:
    /// Tab kinds, in tab order; the names a workspace's "views" section uses.
    static const QStringList& tabKinds();

    RunViews(
        QWidget* chipPage, SweepPanel* sweepPanel, HloPage* hloPage, PaperPage* paperPage, QWidget* parent = nullptr);

    void setRun(elk::widgets::RunSnapshotPtr run);
    elk::widgets::RunSnapshotPtr run() const { return m_run; }
    /// The second chip's run, shown beside the first in the designs view (null clears).
    void setCompareRun(elk::widgets::RunSnapshotPtr run, const QString& label);
    void setDesignIndex(int index);
    int designIndex() const { return m_designIndex; }
    void setSelectedStep(int step);
    int selectedStep() const { return m_selectedStep; }

    /// Every plot view (for "each view has data" and exports), the sweep's included.
    std::vector<elk::widgets::PlotView*> plotViews() const;
    /// The views that show a run (not the sweep).
    std::vector<elk::widgets::PlotView*> runViews() const;
    /// The plot the current tab exports (the Gantt chart on the Timeline tab, the StableHLO page's
    /// timeline or roofline, the Paper page's figure); null on the Chip tab.
    elk::widgets::PlotView* currentPlotView() const;

    QString currentKind() const;
    /// Makes the tab of `kind` current (also "hlo-timeline", "hlo-roofline": that plot of the StableHLO
    /// page); false for an unknown kind.
    bool setCurrentKind(const QString& kind);
    int indexOfKind(const QString& kind) const;

    elk::widgets::DesignsView* designsView() const { return m_designs; }
    elk::widgets::WaterfallView* waterfallView() const { return m_waterfall; }
    elk::widgets::OrderSpreadView* orderSpreadView() const { return m_orders; }
    /// The compare run's diff against the run (the chosen design on both), shown while one is set.
    DiffPage* diffPage() const { return m_diffPage; }
    elk::widgets::ParetoView* paretoView() const { return m_pareto; }
    elk::widgets::GanttView* ganttView() const { return m_gantt; }
    elk::widgets::BandwidthView* bandwidthView() const { return m_bandwidth; }
    elk::widgets::LinkHeatmapView* linkView() const { return m_links; }
    elk::widgets::ClassroomView* classroomView() const { return m_classroom; }
    SweepPanel* sweepPanel() const { return m_sweepPanel; }
    HloPage* hloPage() const { return m_hloPage; }
    PaperPage* paperPage() const { return m_paperPage; }

signals:
    /// The user picked a step in one of the views (already shown by all of them).
    void stepSelected(int step);
    /// The user picked a design in a view (a waterfall part): the app's design selector follows.
    void designPicked(int index);

private:
    /// A waterfall part clicked: that design's Gantt chart, its intervals shaded.
    void onWaterfallPart(int designIndex, int cause);
    /// The diff's second side: the compare run's design of the same name as the chosen one.
    void onViewStepSelected(int step);
    void updateClassroomPair();
    void updateTogether(const std::function<void()>& update);

    elk::widgets::DesignsView* m_designs = nullptr;
    elk::widgets::WaterfallView* m_waterfall = nullptr;
    elk::widgets::OrderSpreadView* m_orders = nullptr;
    DiffPage* m_diffPage = nullptr;
    elk::widgets::RunSnapshotPtr m_compareRun;
    elk::widgets::ParetoView* m_pareto = nullptr;
    elk::widgets::GanttView* m_gantt = nullptr;
    elk::widgets::BandwidthView* m_bandwidth = nullptr;
    elk::widgets::LinkHeatmapView* m_links = nullptr;
    elk::widgets::ClassroomView* m_classroom = nullptr;
    SweepPanel* m_sweepPanel = nullptr;
    HloPage* m_hloPage = nullptr;
    PaperPage* m_paperPage = nullptr;
    elk::widgets::RunSnapshotPtr m_run;
    int m_designIndex = 0;
    int m_selectedStep = -1;
};

} // namespace elk::app
