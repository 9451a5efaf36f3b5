// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timeline_legend.h" // first: includes qcp.h

#include <algorithm>
#include <vector>

#include <QImage>
#include <QPainter>

namespace elk::widgets {

void placeLegendAbove(QCustomPlot* plot)
{
    QCPLegend* legend = plot->legend;
    if (!legend)
        return;
    legend->setVisible(true);
    if (plot->axisRect()->insetLayout()->take(legend))
        plot->axisRect()->insetLayout()->simplify();
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(4, 2, 4, 0));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setSelectableParts(QCPLegend::spNone);
}

void wrapLegend(QCPLegend* legend, int availableWidth)
{
    if (!legend || legend->itemCount() == 0)
        return;
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        widths.push_back(legend->item(i) ? legend->item(i)->minimumOuterSizeHint().width() : 0);
    const int usable = availableWidth - legend->margins().left() - legend->margins().right();
    int columns = 1;
    for (int candidate = int(widths.size()); candidate > 1; --candidate) {
        int total = (candidate - 1) * legend->columnSpacing();
        for (int column = 0; column < candidate; ++column) {
            int widest = 0;
            for (std::size_t i = std::size_t(column); i < widths.size(); i += std::size_t(candidate))
                widest = std::max(widest, widths[i]);
            total += widest;
        }
        if (total <= usable) {
            columns = candidate;
            break;
        }
    }
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
}

LegendSwatch::LegendSwatch(QCustomPlot* plot, const QString& name, QList<QBrush> stripes)
    : QCPAbstractPlottable(plot->xAxis, plot->yAxis)
    , m_stripes(std::move(stripes))
{
    setName(name);
    setSelectable(QCP::stNone);
}

QCPRange LegendSwatch::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = false;
    return {};
}

QCPRange LegendSwatch::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = false;
    return {};
}

void LegendSwatch::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    if (m_stripes.isEmpty())
        return;
    const QRectF box = rect.adjusted(0, rect.height() * 0.1, 0, -rect.height() * 0.1);
    const double width = box.width() / double(m_stripes.size());
    for (qsizetype i = 0; i < m_stripes.size(); ++i)
        painter->fillRect(QRectF(box.left() + double(i) * width, box.top(), width, box.height()), m_stripes[i]);
    painter->setPen(QPen(QColor(0x50, 0x50, 0x50), 0));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(box);
}

LegendSwatch* addLegendSwatch(QCustomPlot* plot, const QString& name, QList<QBrush> stripes)
{
    auto* swatch = new LegendSwatch(plot, name, std::move(stripes));
    swatch->addToLegend();
    return swatch;
}

QBrush hatchedBrush(const QColor& fill, const QColor& ink)
{
    QImage tile(8, 8, QImage::Format_ARGB32_Premultiplied);
    tile.fill(fill);
    QPainter painter(&tile);
    painter.fillRect(tile.rect(), QBrush(ink, Qt::BDiagPattern));
    painter.end();
    QBrush brush(tile);
    brush.setColor(fill);
    return brush;
}

} // namespace elk::widgets
