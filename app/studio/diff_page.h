// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QString>
#include <QWidget>

#include "widgets/plots/plot_view.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace elk::widgets {
class DiffPlotView;
class DiffLinksView;
class DiffTimelineView;
class DiffView;
}

namespace elk::app {

/// The Diff tab: the design chosen in the app (side A) against a second side picked from a list —
/// another design of the same run, the same design on the compare chip, or a design of a run reopened
/// from the History dock. Shows the per-op Δ bars and their running sum, a table of every op sorted by
/// |Δ|, the two timelines aligned on the op, and the Δ link heatmap. A click on an op selects it
/// everywhere (A's step).
class DiffPage : public QWidget {
    Q_OBJECT
public:
    explicit DiffPage(QWidget* parent = nullptr);
    ~DiffPage() override;

    void setRun(elk::widgets::RunSnapshotPtr run);
    void setDesignIndex(int index);
    /// The compare chip's run (null: none): its entry diffs A's design against the same design there.
    void setCompareRun(elk::widgets::RunSnapshotPtr run, const QString& label);
    /// A run reopened from the history (null: none); `label` names it ("12:03 llama2-13b on …").
    /// Chooses its entry for A's design.
    void setHistoryRun(elk::widgets::RunSnapshotPtr run, const QString& label);

    /// The second sides on offer; currentText() is the one shown.
    QComboBox* againstBox() const { return m_against; }
    /// Picks the entry whose text is `text`; false when there is none.
    bool chooseAgainst(const QString& text);
    elk::widgets::DiffView* opsView() const { return m_ops; }
    elk::widgets::DiffTimelineView* timelineView() const { return m_timeline; }
    elk::widgets::DiffLinksView* linksView() const { return m_links; }
    QTableWidget* opTable() const { return m_table; }
    /// The three diff figures.
    std::vector<elk::widgets::PlotView*> plotViews() const;
    /// The one with focus (export), else the per-op view.
    elk::widgets::PlotView* currentPlotView() const;

signals:
    void stepSelected(int step);

private:
    struct Side {
        elk::widgets::RunSnapshotPtr run;
        int design = -1;
    };
    void rebuildChoices();
    Side chosenSide() const;
    void apply();
    void fillTable();

    QLabel* m_sideA = nullptr;
    QComboBox* m_against = nullptr;
    QLabel* m_hint = nullptr;
    elk::widgets::DiffView* m_ops = nullptr;
    elk::widgets::DiffTimelineView* m_timeline = nullptr;
    elk::widgets::DiffLinksView* m_links = nullptr;
    QTableWidget* m_table = nullptr;
    elk::widgets::RunSnapshotPtr m_run;
    elk::widgets::RunSnapshotPtr m_compareRun;
    elk::widgets::RunSnapshotPtr m_historyRun;
    QString m_compareLabel;
    QString m_historyLabel;
    int m_designIndex = 0;
    QString m_wanted; ///< the entry to keep across rebuilds (the user's last choice)
};

} // namespace elk::app
