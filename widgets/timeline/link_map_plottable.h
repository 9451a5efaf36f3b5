// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to widgets/timeline (includes QCustomPlot): include only from .cpp files, after qcp.h.
#include "widgets/plots/qcp.h"

#include <memory>
#include <vector>

#include "widgets/timeline/link_map.h"

namespace elk::widgets {

/// Paints a LinkMapLayout: neutral routers, then every link as a band (an arrow when there is room),
/// a cell or an arrow, coloured by its utilisation through the gradient; the selected link is
/// outlined. One pass of fillRect/drawLine, so the 23,000 links of a 4-chip IPU mesh stay cheap.
/// Key = map x, value = map y (the value axis is reversed: row 0 on top).
class LinkMapPlottable : public QCPAbstractPlottable {
public:
    LinkMapPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setLayout(std::shared_ptr<const LinkMapLayout> layout);
    /// By link: 0–1; the colour range is 0–100 %.
    void setUtilization(std::vector<float> utilization) { m_utilization = std::move(utilization); }
    void setSelectedLink(int link) { m_selectedLink = link; }
    void setGradient(const QCPColorGradient& gradient) { m_gradient = gradient; }
    /// Map units per pixel along x at the current range.
    double unitsPerPixel() const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
        const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    QColor colourOf(int link);
    QRectF pixelRect(const QRectF& rect) const;
    QPolygonF pixelPolygon(const QPolygonF& polygon) const;

    std::shared_ptr<const LinkMapLayout> m_layout;
    std::vector<float> m_utilization;
    QCPColorGradient m_gradient;
    int m_selectedLink = -1;
};

/// What every link-map view (utilisation, Δ bytes) does around the plottable:
/// the layout's chip titles and captions as text items of `plot`;
void addLinkMapLabels(QCustomPlot* plot, const LinkMapLayout& layout);
/// the axes set so that the layout fills the axis rect at a 1:1 aspect (call after each layout);
void fitLinkMap(QCustomPlot* plot, const LinkMapLayout& layout);
/// the link drawn at a plot pixel (the nearest within 2.5 pixels), or -1;
int linkAtPixel(const QCustomPlot* plot, const LinkMapLayout& layout, const LinkMapPlottable& map, const QPoint& pixel);
/// a link's shape centre in plot pixels (null point when it is not drawn).
QPointF linkCenterPixel(const QCustomPlot* plot, const LinkMapLayout& layout, int link);

/// The sequential gradient of every utilisation view: light grey (idle) through yellow and orange to
/// dark red (saturated); lightness falls monotonically, so it reads in grayscale and for colour-blind
/// readers.
QCPColorGradient utilizationGradient();

} // namespace elk::widgets
