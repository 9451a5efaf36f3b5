// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/diff_links_view.h"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QToolTip>

#include "engine/run/run_compile.h"
#include "widgets/timeline/link_map_plottable.h"

namespace elk::widgets {

namespace {

    const LinkMapLayout kNoLayout;

    /// Blue (fewer bytes in B) through light grey (the same) to vermillion (more); lightness is
    /// lowest at the ends, so the sign reads by hue and the size by darkness.
    QCPColorGradient divergingGradient()
    {
        QCPColorGradient gradient;
        QMap<double, QColor> stops;
        stops.insert(0.00, QColor::fromRgb(0x08306B));
        stops.insert(0.25, fasterColour());
        stops.insert(0.50, QColor::fromRgb(0xE4E4E4));
        stops.insert(0.75, slowerColour());
        stops.insert(1.00, QColor::fromRgb(0x7F2704));
        gradient.setColorStops(stops);
        gradient.setColorInterpolation(QCPColorGradient::ciRGB);
        gradient.setLevelCount(256);
        return gradient;
    }

    QString megabytes(double bytes)
    {
        return QString::number(bytes / 1e6, 'f', std::abs(bytes) < 1e7 ? 3 : 1) + QStringLiteral(" MB");
    }

    /// The colour bar's unit: kB, MB or GB, whichever keeps its ends between 1 and 1000.
    std::pair<double, QString> byteUnit(double maxAbsBytes)
    {
        if (maxAbsBytes < 1e6)
            return { 1e3, QStringLiteral("kB") };
        if (maxAbsBytes < 1e9)
            return { 1e6, QStringLiteral("MB") };
        return { 1e9, QStringLiteral("GB") };
    }

} // namespace

DiffLinksView::DiffLinksView(QWidget* parent)
    : DiffPlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("diffLinks"));
    p->setMouseTracking(true);
    p->xAxis->setVisible(false);
    p->yAxis->setVisible(false);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setRangeReversed(true); // router row 0 on top, as in the Links view
    p->legend->setVisible(false);
    m_map = new LinkMapPlottable(p->xAxis, p->yAxis);
    m_map->setName(QStringLiteral("Δ links"));
    m_map->setGradient(divergingGradient());
    m_map->removeFromLegend();

    m_titleElement = new QCPTextElement(p, QString());
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, m_titleElement);
    m_colourScale = new QCPColorScale(p);
    p->plotLayout()->addElement(1, 1, m_colourScale);
    m_colourScale->setType(QCPAxis::atRight);
    m_colourScale->setGradient(divergingGradient());
    m_colourScale->setBarWidth(10);
    m_colourScale->setRangeDrag(false);
    m_colourScale->setRangeZoom(false);
    auto* group = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_colourScale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    connect(p, &QCustomPlot::afterLayout, this, &DiffLinksView::fitMap); // 1:1 map at any size
    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = toolTipAt(event->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(plot()->mapToGlobal(event->pos()), text, plot());
    });
    rebuild();
}

DiffLinksView::~DiffLinksView() = default;

const LinkMapLayout& DiffLinksView::mapLayout() const
{
    return m_layout ? *m_layout : kNoLayout;
}

double DiffLinksView::deltaBytes(int link) const
{
    return link >= 0 && std::size_t(link) < m_deltaBytes.size() ? m_deltaBytes[std::size_t(link)] : 0;
}

void DiffLinksView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearItems();
    m_layout.reset();
    m_deltaBytes.clear();
    m_maxAbsDeltaBytes = 0;
    QString title;
    if (!updateDiff()) {
        title = m_run ? tr("Choose a second run or design to compare against.") : QString();
    } else if (!m_diff.sameLinks) {
        title = tr("A: %1\nB: %2\ndifferent links (another chip topology):\nno per-link Δ")
                    .arg(sideLabel(true), sideLabel(false));
    } else {
        const sim::SimResult& a = *sideA();
        const sim::SimResult& b = *sideB();
        m_deltaBytes.resize(a.links.size());
        for (std::size_t l = 0; l < a.links.size(); ++l) {
            m_deltaBytes[l] = b.linkBytes[l] - a.linkBytes[l];
            m_maxAbsDeltaBytes = std::max(m_maxAbsDeltaBytes, std::abs(m_deltaBytes[l]));
        }
        m_layout = std::make_shared<LinkMapLayout>(layoutLinkMap(a.links, m_run->spec.chip));
        // The latency line of the other diff views would not fit beside the colour bar; the sides do.
        title = tr("A: %1\nB: %2").arg(sideLabel(true), sideLabel(false));
        addLinkMapLabels(p, *m_layout);
    }
    // The map colours 0–1: 0.5 is no change, the ends ±max |Δ|.
    std::vector<float> shade(m_deltaBytes.size(), 0.5f);
    for (std::size_t l = 0; l < m_deltaBytes.size(); ++l)
        shade[l] = m_maxAbsDeltaBytes > 0 ? float(0.5 + 0.5 * m_deltaBytes[l] / m_maxAbsDeltaBytes) : 0.5f;
    m_map->setLayout(m_layout);
    m_map->setUtilization(std::move(shade));
    const auto [bytesPerUnit, unit] = byteUnit(m_maxAbsDeltaBytes);
    const double range = m_maxAbsDeltaBytes > 0 ? m_maxAbsDeltaBytes / bytesPerUnit : 1;
    m_colourScale->setDataRange(QCPRange(-range, range));
    m_colourScale->setLabel(tr("Δ bytes over the run, B − A (%1)").arg(unit));
    m_colourScale->setVisible(bool(m_layout));
    m_title = title;
    m_titleElement->setText(title);
    m_titleElement->setVisible(!title.isEmpty());
    p->replot();
}

void DiffLinksView::fitMap()
{
    if (m_layout)
        fitLinkMap(plot(), *m_layout);
}

int DiffLinksView::linkAt(const QPoint& plotPixel) const
{
    return m_layout ? linkAtPixel(plot(), *m_layout, *m_map, plotPixel) : -1;
}

QPointF DiffLinksView::linkCenter(int link) const
{
    return m_layout ? linkCenterPixel(plot(), *m_layout, link) : QPointF();
}

QString DiffLinksView::toolTipAt(const QPoint& plotPixel) const
{
    const int link = linkAt(plotPixel);
    const sim::SimResult* a = sideA();
    const sim::SimResult* b = sideB();
    if (link < 0 || !a || !b || std::size_t(link) >= a->links.size())
        return {};
    const double bytesA = a->linkBytes[std::size_t(link)], bytesB = b->linkBytes[std::size_t(link)];
    return tr("%1\nA: %2, B: %3\nB − A: %4")
        .arg(QString::fromStdString(a->links[std::size_t(link)].name), megabytes(bytesA), megabytes(bytesB),
            (bytesB >= bytesA ? QStringLiteral("+") : QString()) + megabytes(bytesB - bytesA));
}

} // namespace elk::widgets
