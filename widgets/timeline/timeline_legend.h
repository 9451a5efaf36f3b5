// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to widgets/timeline (includes QCustomPlot): include only from .cpp files, after qcp.h.
#include "widgets/plots/qcp.h"

#include <QColor>
#include <QString>

namespace elk::widgets {

/// Moves the plot's legend out of the axis rect into a row of its own above it (no border), so a
/// long legend never covers data.
void placeLegendAbove(QCustomPlot* plot);
/// Lays the legend out in as many columns as fit `availableWidth` pixels (at least one), each column as
/// wide as its widest entry.
void wrapLegend(QCPLegend* legend, int availableWidth);
/// An entry that exists only in the legend: its icon is the brushes side by side as stripes (one
/// brush: a plain swatch), with a thin outline. Draws nothing in the plot and has no data range.
class LegendSwatch : public QCPAbstractPlottable {
public:
    LegendSwatch(QCustomPlot* plot, const QString& name, QList<QBrush> stripes);
    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(
        bool& foundRange, QCP::SignDomain = QCP::sdBoth, const QCPRange& = QCPRange()) const override;

protected:
    void draw(QCPPainter*) override { }
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    QList<QBrush> m_stripes;
};

/// Adds a LegendSwatch to the plot and its legend.
LegendSwatch* addLegendSwatch(QCustomPlot* plot, const QString& name, QList<QBrush> stripes);
/// Fill + diagonal hatch, so a thin bar shows its colour and a wide one its pattern (grayscale-safe).
QBrush hatchedBrush(const QColor& fill, const QColor& ink);

} // namespace elk::widgets
