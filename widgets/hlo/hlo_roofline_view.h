// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QPoint>
#include <QPointF>
#include <QStringList>

#include "widgets/hlo/hlo_plot_view.h"
#include "widgets/hlo/hlo_roofline_data.h"

namespace elk::widgets {

class HloRooflineScatter;

/// Roofline chart of StableHLO runs: per kernel its arithmetic intensity (FLOP/byte of one execution)
/// against the FLOP/s it attains, log-log, one colour per run, marker area by the kernel's share of the
/// compute time; the device's roofs behind (memory slope = bandwidth × efficiency, one flat line per
/// element type among the kernels at its dense peak × efficiency). Hover names the kernel.
class HloRooflineView : public HloPlotView {
    Q_OBJECT
public:
    explicit HloRooflineView(QWidget* parent = nullptr);
    ~HloRooflineView() override;

    QString figureKind() const override { return QStringLiteral("hlo-roofline"); }
    bool hasData() const override;

    const HloRooflineData& data() const;
    /// Markers drawn (all runs).
    int pointCount() const;
    /// Flat roof lines drawn.
    int roofCount() const;
    /// Their labels ("bf16 312 TFLOP/s"), in HloRooflineData::roofs order.
    QStringList roofLabels() const { return m_roofTexts; }

    /// The point drawn nearest to a plot() pixel (within its radius + 3 px), or -1.
    int pointAt(const QPoint& plotPixel) const;
    QString toolTipAt(const QPoint& plotPixel) const;
    QString lastToolTip() const { return m_lastToolTip; }
    /// Centre of a point in plot() pixels.
    QPointF pointCenter(int point) const;

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onMouseMove(QMouseEvent* event);

    std::shared_ptr<HloRooflineData> m_data;
    std::vector<HloRooflineScatter*> m_scatters;
    int m_roofLines = 0;
    QStringList m_roofTexts;
    QString m_lastToolTip;
};

} // namespace elk::widgets
