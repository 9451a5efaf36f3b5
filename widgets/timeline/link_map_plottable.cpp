// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/link_map_plottable.h" // first: includes qcp.h

#include <algorithm>
#include <cmath>

namespace elk::widgets {

void addLinkMapLabels(QCustomPlot* plot, const LinkMapLayout& layout)
{
    QFont caption = plot->font();
    caption.setPointSizeF(caption.pointSizeF() * 0.9);
    QFont title = plot->font();
    title.setBold(true);
    for (const LinkMapLabel& label : layout.labels) {
        auto* text = new QCPItemText(plot);
        text->setClipToAxisRect(false); // labels may reach into the margins rather than vanish
        text->position->setCoords(label.at);
        text->setPositionAlignment(label.alignment);
        text->setRotation(label.vertical ? -90 : 0);
        text->setText(label.text);
        text->setFont(label.title ? title : caption);
        text->setPadding(QMargins(0, 1, 0, 1));
        text->setSelectable(false);
    }
}

void fitLinkMap(QCustomPlot* plot, const LinkMapLayout& layout)
{
    const QRect rect = plot->axisRect()->rect();
    const QRectF bounds = layout.bounds;
    if (rect.width() <= 0 || rect.height() <= 0 || bounds.width() <= 0 || bounds.height() <= 0)
        return;
    const double pixelsPerUnit = std::min(rect.width() / bounds.width(), rect.height() / bounds.height());
    const double halfWidth = rect.width() / pixelsPerUnit / 2;
    const double halfHeight = rect.height() / pixelsPerUnit / 2;
    plot->xAxis->setRange(bounds.center().x() - halfWidth, bounds.center().x() + halfWidth);
    plot->yAxis->setRange(bounds.center().y() - halfHeight, bounds.center().y() + halfHeight);
}

int linkAtPixel(const QCustomPlot* plot, const LinkMapLayout& layout, const LinkMapPlottable& map, const QPoint& pixel)
{
    if (!plot->axisRect()->rect().contains(pixel))
        return -1;
    const QPointF point(plot->xAxis->pixelToCoord(pixel.x()), plot->yAxis->pixelToCoord(pixel.y()));
    const int shape = layout.shapeAt(point, 2.5 * map.unitsPerPixel());
    return shape < 0 ? -1 : layout.shapes[std::size_t(shape)].link;
}

QPointF linkCenterPixel(const QCustomPlot* plot, const LinkMapLayout& layout, int link)
{
    if (link < 0 || std::size_t(link) >= layout.shapeOfLink.size() || layout.shapeOfLink[std::size_t(link)] < 0)
        return {};
    const QPointF centre = layout.shapes[std::size_t(layout.shapeOfLink[std::size_t(link)])].centre();
    return { plot->xAxis->coordToPixel(centre.x()), plot->yAxis->coordToPixel(centre.y()) };
}

QCPColorGradient utilizationGradient()
{
    QCPColorGradient gradient;
    QMap<double, QColor> stops;
    stops.insert(0.00, QColor::fromRgb(0xE4E4E4));
    stops.insert(0.08, QColor::fromRgb(0xFFF0A8));
    stops.insert(0.30, QColor::fromRgb(0xFEB24C));
    stops.insert(0.55, QColor::fromRgb(0xF03B20));
    stops.insert(0.80, QColor::fromRgb(0xBD0026));
    stops.insert(1.00, QColor::fromRgb(0x67000D)); // dark red, not black: saturated links are not outlines
    gradient.setColorStops(stops);
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setLevelCount(256);
    return gradient;
}

LinkMapPlottable::LinkMapPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
    , m_gradient(utilizationGradient())
{
    setSelectable(QCP::stNone);
    setPen(Qt::NoPen);
}

void LinkMapPlottable::setLayout(std::shared_ptr<const LinkMapLayout> layout)
{
    m_layout = std::move(layout);
}

double LinkMapPlottable::unitsPerPixel() const
{
    const double width = keyAxis()->axisRect()->width();
    return width > 0 ? keyAxis()->range().size() / width : 1.0;
}

double LinkMapPlottable::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1; // LinkHeatmapView hit-tests clicks itself (LinkMapLayout::shapeAt)
}

QCPRange LinkMapPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_layout != nullptr;
    return foundRange ? QCPRange(m_layout->bounds.left(), m_layout->bounds.right()) : QCPRange();
}

QCPRange LinkMapPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = m_layout != nullptr;
    return foundRange ? QCPRange(m_layout->bounds.top(), m_layout->bounds.bottom()) : QCPRange();
}

QColor LinkMapPlottable::colourOf(int link)
{
    const float u = link >= 0 && std::size_t(link) < m_utilization.size() ? m_utilization[std::size_t(link)] : 0.0f;
    return QColor::fromRgb(m_gradient.color(double(u) * 100.0, QCPRange(0, 100)));
}

QRectF LinkMapPlottable::pixelRect(const QRectF& rect) const
{
    return QRectF(coordsToPixels(rect.left(), rect.top()), coordsToPixels(rect.right(), rect.bottom())).normalized();
}

QPolygonF LinkMapPlottable::pixelPolygon(const QPolygonF& polygon) const
{
    QPolygonF pixels;
    pixels.reserve(polygon.size());
    for (const QPointF& point : polygon)
        pixels << coordsToPixels(point.x(), point.y());
    return pixels;
}

void LinkMapPlottable::draw(QCPPainter* painter)
{
    if (!m_layout)
        return;
    const double pixelsPerUnit = 1.0 / unitsPerPixel();
    const QRectF clip = clipRect();
    // Fine structure (a 4-chip IPU mesh in a column-wide figure) is blended rather than rounded to
    // whole pixels, which would alias into moiré.
    painter->setAntialiasing(pixelsPerUnit < 12);
    painter->setPen(Qt::NoPen);
    if (m_layout->mesh) {
        for (const QRectF& router : m_layout->routers) {
            const QRectF r = pixelRect(router);
            if (r.intersects(clip))
                painter->fillRect(r, QColor::fromRgb(0xBDBDBD));
        }
    }
    const bool arrowheads = pixelsPerUnit >= 16; // mesh links become arrows when there is room
    const bool cellGaps = pixelsPerUnit >= 6;
    const QPen arrowPen(QColor::fromRgb(0x707070), 0.8);
    for (const LinkShape& shape : m_layout->shapes) {
        const QColor colour = colourOf(shape.link);
        QRectF r = pixelRect(shape.rect);
        if (!r.intersects(clip))
            continue;
        switch (shape.form) {
        case LinkShape::Form::Cell:
            if (cellGaps)
                r.adjust(0.5, 0.5, -0.5, -0.5);
            painter->fillRect(r, colour);
            break;
        case LinkShape::Form::Band:
            if (arrowheads) {
                const double half = std::min(r.width(), r.height()) / 2;
                painter->setBrush(colour);
                painter->drawPolygon(arrowPolygon(coordsToPixels(shape.from.x(), shape.from.y()),
                    coordsToPixels(shape.to.x(), shape.to.y()), half / 2));
            } else {
                painter->fillRect(r, colour);
            }
            break;
        case LinkShape::Form::Arrow:
            // Outlined: an idle inter-chip link still shows where it is.
            painter->setPen(arrowPen);
            painter->setBrush(colour);
            painter->drawPolygon(pixelPolygon(shape.polygon));
            painter->setPen(Qt::NoPen);
            break;
        }
    }
    // The selected link on top, outlined in black.
    if (m_selectedLink < 0 || std::size_t(m_selectedLink) >= m_layout->shapeOfLink.size())
        return;
    const int index = m_layout->shapeOfLink[std::size_t(m_selectedLink)];
    if (index < 0)
        return;
    const LinkShape& shape = m_layout->shapes[std::size_t(index)];
    painter->setAntialiasing(true);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(Qt::black, 2));
    if (shape.form == LinkShape::Form::Arrow) {
        painter->drawPolygon(pixelPolygon(shape.polygon));
        return;
    }
    QRectF r = pixelRect(shape.rect);
    if (r.width() < 5)
        r = QRectF(r.center().x() - 2.5, r.top(), 5, r.height());
    if (r.height() < 5)
        r = QRectF(r.left(), r.center().y() - 2.5, r.width(), 5);
    painter->drawRect(r.adjusted(-1, -1, 1, 1));
}

} // namespace elk::widgets
