// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to widgets/classroom (includes QCustomPlot): include only from .cpp files, first.
#include "widgets/plots/qcp.h"

#include <vector>

namespace elk::widgets {

/// One bar of the classroom timeline. Key = time in the axis unit.
struct ClassroomBar {
    enum Lane { Execute = 0, Preload = 1 };
    Lane lane = Execute;
    double start = 0;
    double end = 0;
    int step = 0;
    bool stall = false; ///< execute lane: waiting for this step's preload (hatched)
};

/// Two lanes (preload above, execute below) of one design, drawn solid before the time cursor and
/// faded after it; the ops happening at the cursor are outlined. Fonts follow the key axis' tick
/// labels and line widths its base pen, so figure export (PlotView::applyStyle) scales them.
class ClassroomLanes : public QCPAbstractPlottable {
public:
    ClassroomLanes(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setBars(std::vector<ClassroomBar> bars);
    const std::vector<ClassroomBar>& bars() const { return m_bars; }
    void setCursor(double key) { m_cursor = key; }
    double cursor() const { return m_cursor; }
    /// Steps outlined as "now": what executes and preloads at the cursor.
    void setCurrentSteps(std::vector<int> executing, std::vector<int> preloading);

    static constexpr double kHalfHeight = 0.36;
    /// The step whose bar is at `pixel` (−1: none).
    int stepAtPixel(const QPointF& pixel) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
        const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    QRectF pixelRect(const ClassroomBar& bar, double start, double end) const;
    void drawBar(QCPPainter* painter, const ClassroomBar& bar);
    double lineWidth() const;

    std::vector<ClassroomBar> m_bars;
    double m_cursor = 0;
    std::vector<int> m_executing;
    std::vector<int> m_preloading;
};

} // namespace elk::widgets
