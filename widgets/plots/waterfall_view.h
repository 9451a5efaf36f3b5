// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include "widgets/plots/plot_view.h"

class QCPAbstractPlottable;
class QMouseEvent;

namespace elk::widgets {

/// Bound-gap waterfall of every design (sim::BoundGap): per design a row that starts with its
/// physical floor (HBM, compute or the hottest link, coloured by kind) and adds each measured loss
/// after it, ending at the simulated latency (labelled at the right, with the floor's share).
/// Clicking a part emits partSelected, which the app turns into highlighted Gantt intervals.
class WaterfallView : public PlotView {
    Q_OBJECT
public:
    explicit WaterfallView(QWidget* parent = nullptr);
    ~WaterfallView() override;

    QString figureKind() const override { return QStringLiteral("waterfall"); }
    bool hasData() const override;

    /// Design rows drawn, top to bottom (their indices into the run's designs: rowDesigns()).
    QStringList rowNames() const { return m_rowNames; }
    QList<int> rowDesigns() const { return m_rowDesigns; }
    /// Centre of the part of design `designIndex` in plot() pixels (cause -1: the floor); null point
    /// when the part is not drawn (zero).
    QPointF partCenter(int designIndex, int cause) const;

signals:
    /// The user clicked a part: design index into the run, cause (a sim::GapCause value, -1 = floor).
    void partSelected(int designIndex, int cause);

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    /// Wraps the legend to the plot's new width.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitLegend(double widthEm);
    void onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent* event);

    QStringList m_rowNames;
    QList<int> m_rowDesigns;
};

} // namespace elk::widgets
