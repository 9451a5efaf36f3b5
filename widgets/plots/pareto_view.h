// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include "widgets/plots/plot_view.h"

#include <vector>

class QCPItemLine;
class QCPItemText;
class QCPItemTracer;
class QCPTextElement;

namespace elk::widgets {

/// Pareto curves of one op (the selected step; by default the step that executes longest): every
/// execute-state plan kept by the partition search (time vs execute bytes per core), the execute
/// Pareto front as a step line, the preload table (preload bytes vs total time with warm-up), and the
/// execute plan each design chose, highlighted and labelled with the design names.
class ParetoView : public PlotView {
    Q_OBJECT
public:
    explicit ParetoView(QWidget* parent = nullptr);
    ~ParetoView() override;

    QString figureKind() const override { return QStringLiteral("pareto"); }
    bool hasData() const override;

    /// The step drawn: the selected one, or (none selected) the step with the longest execution in
    /// the shown design's schedule; -1 without a run.
    int shownStep() const { return m_shownStep; }
    /// The design labels drawn, one per distinct chosen plan ("elk-dyn, elk-full").
    QStringList choiceLabels() const { return m_choiceLabels; }
    /// The title above the plot ("down_proj (matmul): 35 plans").
    QString title() const;

protected:
    void rebuild() override;

private:
    int defaultStep() const;
    /// Puts each design label beside its point, clear of the data and of the other labels, in the
    /// pixels of the current layout (on screen or in an export).
    void placeLabels();

    struct Choice {
        QCPItemTracer* anchor = nullptr; ///< at the chosen plan
        QCPItemText* label = nullptr;
        QCPItemLine* leader = nullptr;
    };
    std::vector<Choice> m_choices;

    QCPTextElement* m_title = nullptr;
    int m_shownStep = -1;
    QStringList m_choiceLabels;
};

} // namespace elk::widgets
