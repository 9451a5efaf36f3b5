// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <vector>

#include <QString>
#include <QStringList>

#include "widgets/plots/plot_view.h"

class QCPAxisRect;
class QCPLegend;

namespace elk::widgets {

/// One design's numbers as the designs view draws them (simulated unless said otherwise).
struct DesignFigures {
    QString name; ///< "basic", "static", …
    bool ok = false; ///< false: no schedule or no simulation (see error)
    QString error;
    double latencyMs = 0;
    double analyticLatencyMs = 0; ///< the schedule's own estimate
    double speedup = 0; ///< basic's latency ÷ this one's; 0 when basic has none
    double overlapPercent = 0; ///< of the latency; the three shares sum to 100
    double preloadOnlyPercent = 0;
    double executeOnlyPercent = 0;
    double stallPercent = 0; ///< execute stall (link and SRAM port contention), part of the execute time
    double hbmUtilizationPercent = 0;
    double nocUtilizationPercent = 0;
};

/// The figures of every design of `run`, in run order.
std::vector<DesignFigures> designFigures(const elk::run::RunResult& run);

/// "1.24×" (two decimals).
QString speedupText(double speedup);

/// Designs comparison: per design (rows) the simulated latency with the analytic estimate as a
/// marker and the speedup over basic; the latency breakdown (overlap / preload only / execute only,
/// and execute stall); HBM and NoC utilisation. Three panels side by side sharing the design rows,
/// one legend below. With a compare run (a second chip) every row shows both runs, the second tinted.
class DesignsView : public PlotView {
    Q_OBJECT
public:
    explicit DesignsView(QWidget* parent = nullptr);
    ~DesignsView() override;

    QString figureKind() const override { return QStringLiteral("designs"); }
    bool hasData() const override;

    /// Shows `other` beside the run (null clears); `label` names it in the legend (e.g. its chip).
    void setCompareRun(RunSnapshotPtr other, const QString& label);
    RunSnapshotPtr compareRun() const { return m_compare; }

    /// The speedup labels drawn, in row order (run first, then the compare run).
    QStringList speedupLabels() const { return m_speedupLabels; }
    /// The design rows shown, top to bottom.
    QStringList rowNames() const { return m_rowNames; }

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    /// Fits legend and ticks to the plot's new width before the plot lays itself out again.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Legend wrap, tick counts and room for the speedup labels for a figure `widthEm` font sizes wide.
    void fitToWidth(double widthEm);
    double screenWidthEm(int widthPx) const;

    QCPAxisRect* m_latencyRect = nullptr;
    QCPAxisRect* m_breakdownRect = nullptr;
    QCPAxisRect* m_utilizationRect = nullptr;
    QCPLegend* m_legend = nullptr;
    RunSnapshotPtr m_compare;
    QString m_compareLabel;
    QStringList m_speedupLabels;
    QStringList m_rowNames;
    double m_latencyMaxMs = 0; ///< longest bar or marker
};

} // namespace elk::widgets
