// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QPoint>
#include <QString>

#include "widgets/plots/diff_plot_view.h"

namespace elk::widgets {

class DiffTimelinePlottable;
class TimeAxisPlot;

/// One op of the aligned timelines, times in ms from each run's first call (each side on its own clock).
struct DiffTimelineOp {
    QString name;
    int stepA = -1, stepB = -1; ///< -1: the op is not in that run
    double preloadStartMsA = 0, preloadEndMsA = 0, executeStartMsA = 0, executeEndMsA = 0;
    double preloadStartMsB = 0, preloadEndMsB = 0, executeStartMsB = 0, executeEndMsB = 0;
    double deltaMs = 0; ///< Δ wait + Δ execute (run::OpDelta::deltaMs)
    double deltaWaitMs = 0, deltaExecuteMs = 0, deltaPreloadMs = 0;
    bool inA() const { return stepA >= 0; }
    bool inB() const { return stepB >= 0; }
};

/// The lanes, top to bottom.
enum class DiffLane { PreloadA, ExecuteA, ExecuteB, PreloadB };

/// The two simulated timelines of a diff one above the other on one time axis (ms): A's preload and
/// execute lanes on top, B's execute and preload lanes below, and between the two execute lanes a band
/// from each op's execution in A to the same op's in B (aligned on the op, not on time), shaded by what
/// the op adds to the difference: vermillion where B loses time, blue where it gains, stronger the
/// larger |Δ|; grey below 1 % of the largest. Ops only one side has are hatched. Wheel and drag zoom
/// and pan the time axis; hover names an op and its Δs; a click selects it (A's step).
class DiffTimelineView : public DiffPlotView {
    Q_OBJECT
public:
    explicit DiffTimelineView(QWidget* parent = nullptr);
    ~DiffTimelineView() override;

    QString figureKind() const override { return QStringLiteral("diff-timeline"); }

    /// The ops drawn, in A's execution order (then those only B has).
    const std::vector<DiffTimelineOp>& ops() const { return m_ops; }
    /// Largest |Δ| of an op (the full shade), ms.
    double maxAbsDeltaMs() const { return m_maxAbsDeltaMs; }
    /// The op drawn at a plot() pixel (a bar in either execute or preload lane, or its band), or -1.
    int opAt(const QPoint& plotPixel) const;
    /// Centre of an op's bar in a lane, in plot() pixels (null point when it has none there).
    QPointF barCenter(int op, DiffLane lane) const;
    /// Hover text at a plot() pixel (empty over nothing); lastToolTip(): what hovering showed last.
    QString toolTipAt(const QPoint& plotPixel) const;
    QString lastToolTip() const;

protected:
    void rebuild() override;
    void applyStyle(const FigureStyle& style) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    TimeAxisPlot* m_time = nullptr;
    DiffTimelinePlottable* m_plottable = nullptr;
    std::vector<DiffTimelineOp> m_ops;
    double m_maxAbsDeltaMs = 0;
    double m_endMs = 0;
    QPoint m_pressPos;
};

/// The ops of a diff on the two timelines (exposed for tests): `diff` of `a` (side A) and `b`.
std::vector<DiffTimelineOp> diffTimelineOps(const run::RunDiff& diff, const sim::SimResult& a, const sim::SimResult& b);

} // namespace elk::widgets
