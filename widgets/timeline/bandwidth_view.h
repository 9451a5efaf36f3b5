// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

#include "widgets/plots/plot_view.h"

class QCPAbstractItem;
class QCPAxisRect;
class QCPGraph;

namespace elk::widgets {

/// The curves BandwidthView draws, top to bottom.
enum class BandwidthCurve { Hbm, Noc, Sram };

/// Bandwidth over time of one design's simulation: HBM read bandwidth (with the chip's peak as a
/// dashed line), NoC bandwidth over all links, and SRAM occupancy per core (% of sramBytesPerCore),
/// as step curves in three stacked axis rects sharing one time axis (cycles inside, labelled in µs or
/// ms). Shares its time range with GanttView through timeRangeChanged/setTimeRange.
class BandwidthView : public PlotView {
    Q_OBJECT
public:
    explicit BandwidthView(QWidget* parent = nullptr);
    ~BandwidthView() override;

    QString figureKind() const override { return QStringLiteral("bandwidth"); }
    bool hasData() const override;

    double lowerCycles() const;
    double upperCycles() const;
    /// Points of a curve (the simulator's samples plus one closing the last step); 0 without data.
    int pointCount(BandwidthCurve curve) const;
    /// The curve's value at time `cycles` in its display unit (GB/s or TB/s, %), NaN without data.
    double valueAt(BandwidthCurve curve, double cycles) const;
    /// "GB/s", "TB/s" or "%".
    QString unit(BandwidthCurve curve) const;
    /// Shaded bands (one per axis rect) over the selected step's execution; 0 or 3.
    int selectionBandCount() const { return int(m_selectionBands.size()); }
    /// The whole part's peak HBM bandwidth in GB/s (the dashed line), 0 without data.
    double peakHbmGBps() const { return m_peakHbmGBps; }

    /// Left margin of the axis rects (pixels) as last laid out, and a lower bound for it: lets the
    /// app line the time axis up with a GanttView above or below (see shareTimeAxis).
    int plotLeftMargin() const;
    void setMinimumLeftMargin(int pixels);

public slots:
    void setTimeRange(double lowerCycles, double upperCycles);
    void resetTimeRange();

signals:
    void timeRangeChanged(double lowerCycles, double upperCycles);

protected:
    void rebuild() override;

private:
    void onRangeChanged(QCPAxisRect* source);
    void rebuildCurves();
    void showSelection();
    QCPGraph* graph(BandwidthCurve curve) const;

    QCPAxisRect* m_rects[3] = {};
    QCPGraph* m_graphs[3] = {};
    QString m_units[3];
    double m_latencyCycles = 0;
    double m_peakHbmGBps = 0;
    bool m_syncing = false;
    const void* m_shownRun = nullptr; ///< run and design the curves show: a selection change keeps the range
    int m_shownDesign = -1;
    QList<QCPAbstractItem*> m_selectionBands;
};

} // namespace elk::widgets
