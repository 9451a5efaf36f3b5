// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <vector>

#include <QPoint>
#include <QPointF>

#include "widgets/plots/plot_view.h"
#include "widgets/timeline/link_map.h"

class QCPColorMap;
class QCPColorScale;
class QCPTextElement;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace elk::widgets {

class LinkMapPlottable;

/// Per-link utilisation of one design's simulation. Mesh chips: a grid of routers with every
/// directed link a coloured arrow between neighbours; all-to-all chips: each core's ingress and egress
/// port as two folded near-square grids; HBM stacks and inter-chip links as extra cells. A colour bar
/// in %, a time slider over the simulator's bins (position 0: the average over the run) with a play
/// button, and, for the link or core clicked, its utilisation over time in a small plot below.
class LinkHeatmapView : public PlotView {
    Q_OBJECT
public:
    explicit LinkHeatmapView(QWidget* parent = nullptr);
    ~LinkHeatmapView() override;

    QString figureKind() const override { return QStringLiteral("heatmap"); }
    bool hasData() const override;

    /// Where links are drawn (empty without data).
    const LinkMapLayout& mapLayout() const;
    /// Time bins of the run (the slider has binCount() + 1 positions).
    int binCount() const;
    /// 0: average over the run; k ≥ 1: bin k − 1.
    int binPosition() const { return m_binPosition; }
    /// "average over the run" or "t = 12.3–12.4 µs".
    QString binLabel() const;
    /// Utilisation (0–1) a link is coloured with now; NaN for an unknown link.
    double shownUtilization(int link) const;

    int selectedLink() const { return m_selectedLink; }
    /// The link drawn at a plot() pixel, or -1.
    int linkAt(const QPoint& plotPixel) const;
    /// Centre of a link's shape in plot() pixels at the current layout (null point when not drawn).
    QPointF linkCenter(int link) const;
    /// Hover text at a plot() pixel (empty over nothing); lastToolTip(): what hovering showed last.
    QString toolTipAt(const QPoint& plotPixel) const;
    QString lastToolTip() const { return m_lastToolTip; }

    /// The small plot of the selected link's utilisation over time (not part of the export).
    QCustomPlot* timePlot() const { return m_timePlot; }
    QSlider* timeSlider() const { return m_slider; }
    QToolButton* playButton() const { return m_play; }
    bool isPlaying() const;

public slots:
    void setBinPosition(int position);
    /// Selects a link (-1 clears) and plots its utilisation over time; does not emit linkSelected.
    void selectLink(int link);
    void play();
    void pause();

signals:
    /// The user clicked a link or core port.
    void linkSelected(int link);

protected:
    void rebuild() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuildMap();
    void refresh();
    void refreshTimePlot();
    /// All-to-all chips: every core's ingress port × time in the time plot; false without bins.
    bool showCoreLoadOverTime(const elk::sim::SimResult& sim);
    void fitMap();
    void advance();
    const sim::SimResult* simulation() const;

    LinkMapPlottable* m_map = nullptr;
    QCPColorScale* m_colourScale = nullptr;
    QCPColorMap* m_coreMap = nullptr; ///< in m_timePlot while it shows the core × time load
    QCPTextElement* m_title = nullptr;
    QCustomPlot* m_timePlot = nullptr;
    QSlider* m_slider = nullptr;
    QToolButton* m_play = nullptr;
    QLabel* m_binLabel = nullptr;
    QTimer* m_timer = nullptr;

    std::shared_ptr<LinkMapLayout> m_layout;
    std::vector<float> m_utilization; ///< by link, as shown
    int m_binPosition = 0;
    int m_selectedLink = -1;
    QString m_lastToolTip;
    QPoint m_pressPos;
    const void* m_shownRun = nullptr;
    int m_shownDesign = -1;
    int m_shownStep = -1;
};

} // namespace elk::widgets
