// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QSplitter>
#include <QString>

#include "app/studio/hlo_job.h"

class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace elk::widgets {
class HloPlotView;
class HloRegionTableModel;
class HloRooflineView;
class HloStepTimelineView;
}

namespace elk::app {

class HloExportActions;

/// The StableHLO page's report: a summary row per configuration above tabs with the selected
/// configuration's regions and warnings, the step timeline and the roofline of all configurations,
/// and the export buttons in the tabs' corner. Selecting a summary row selects its configuration.
class HloReportPanel : public QSplitter {
    Q_OBJECT
public:
    explicit HloReportPanel(QWidget* parent = nullptr);

    /// Shows `runs` (null: nothing) and selects its first configuration.
    void showRuns(HloRunSetPtr runs);
    HloRunSetPtr runs() const { return m_runs; }
    /// Index of the configuration the regions table and the warnings show.
    int selectedConfiguration() const { return m_selected; }
    void selectConfiguration(int index);
    /// The selected configuration's result; null while there is none.
    std::shared_ptr<const elk::hlo::HloRunResult> selectedResult() const;

    /// Makes the tab of a plot current: "hlo-timeline" or "hlo-roofline"; false for another kind.
    bool showPlot(const QString& figureKind);
    /// The plot of the current tab (step timeline or roofline), else null.
    elk::widgets::HloPlotView* currentPlotView() const;
    elk::widgets::HloStepTimelineView* timelineView() const { return m_timeline; }
    elk::widgets::HloRooflineView* rooflineView() const { return m_roofline; }
    elk::widgets::HloRegionTableModel* regionModel() const { return m_regionModel; }
    QTableWidget* summaryTable() const { return m_summary; }
    QTabWidget* tabs() const { return m_tabs; }
    HloExportActions* exportActions() const { return m_exportActions; }

private:
    QTableWidget* buildSummary();
    QTabWidget* buildTabs();
    void fillSummary();
    void fitSummaryHeight();
    /// The Warnings tab: `text`, and `count` in its title.
    void showWarnings(const QString& text, int count);

    HloRunSetPtr m_runs;
    int m_selected = 0;

    QTableWidget* m_summary = nullptr;
    QTabWidget* m_tabs = nullptr;
    elk::widgets::HloRegionTableModel* m_regionModel = nullptr;
    QSortFilterProxyModel* m_regionProxy = nullptr;
    QTableView* m_regionTable = nullptr;
    elk::widgets::HloStepTimelineView* m_timeline = nullptr;
    elk::widgets::HloRooflineView* m_roofline = nullptr;
    QPlainTextEdit* m_warnings = nullptr;
    HloExportActions* m_exportActions = nullptr;
};

} // namespace elk::app
