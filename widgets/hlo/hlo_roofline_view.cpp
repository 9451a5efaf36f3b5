// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/hlo/hlo_roofline_view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPolygonF>
#include <QToolTip>

#include "engine/hlo/hlo_run.h"
#include "widgets/timeline/timeline_legend.h"

namespace elk::widgets {

namespace {

    const HloRooflineData kNoData;

    /// Decades labelled with SI prefixes ("10 G", "1 T"); values below one in decimals ("0.01").
    class SiLogTicker : public QCPAxisTickerLog {
    public:
        explicit SiLogTicker(bool prefixes)
            : m_prefixes(prefixes)
        {
            setLogBase(10);
            setSubTickCount(8);
        }

    protected:
        QString getTickLabel(double tick, const QLocale&, QChar, int) override
        {
            if (!(tick > 0))
                return {};
            const int exponent = int(std::lround(std::log10(tick)));
            if (exponent < 0)
                return QString::number(tick, 'f', std::min(-exponent, 9));
            if (!m_prefixes || exponent < 3)
                return QString::number(std::pow(10.0, exponent), 'f', 0);
            static const char* const kPrefixes[] = { "k", "M", "G", "T", "P", "E" };
            const int group = std::min(exponent / 3, 6);
            const double mantissa = std::pow(10.0, exponent - 3 * group);
            return QString::number(mantissa, 'f', 0) + QLatin1Char(' ') + QLatin1String(kPrefixes[group - 1]);
        }

    private:
        bool m_prefixes;
    };

} // namespace

/// The kernels of one run: a filled circle per point, area by time share, the largest drawn first so
/// small ones stay visible on top.
class HloRooflineScatter : public QCPAbstractPlottable {
public:
    HloRooflineScatter(QCPAxis* keyAxis, QCPAxis* valueAxis, std::shared_ptr<const HloRooflineData> data, int group)
        : QCPAbstractPlottable(keyAxis, valueAxis)
        , m_data(std::move(data))
        , m_group(group)
    {
        setSelectable(QCP::stNone);
        const QColor color = hloResultColor(group);
        setPen(QPen(outlineColor(color), 1));
        QColor fill = color;
        fill.setAlpha(150);
        setBrush(fill);
        double largest = 0;
        for (const HloRooflinePoint& point : m_data->points)
            largest = std::max(largest, point.timeShare);
        for (std::size_t i = 0; i < m_data->points.size(); ++i) {
            const HloRooflinePoint& point = m_data->points[i];
            if (point.group == group)
                m_order.push_back({ int(i), rooflineMarkerDiameter(point.timeShare, largest) });
        }
        std::stable_sort(
            m_order.begin(), m_order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    }

    int pointCount() const { return int(m_order.size()); }
    QPointF pixelOf(int point) const
    {
        const HloRooflinePoint& p = m_data->points[std::size_t(point)];
        return coordsToPixels(p.intensity, p.flopsPerSecond);
    }
    /// {point, distance beyond its radius} of the nearest marker, or {-1, …}.
    std::pair<int, double> nearest(const QPointF& pixel) const
    {
        std::pair<int, double> best { -1, 1e300 };
        for (const auto& [point, diameter] : m_order) {
            const QPointF d = pixelOf(point) - pixel;
            const double beyond = std::hypot(d.x(), d.y()) - diameter / 2;
            if (beyond < best.second)
                best = { point, beyond };
        }
        return best;
    }

    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override
    {
        foundRange = false;
        return {};
    }
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth, const QCPRange& = QCPRange()) const override
    {
        foundRange = false;
        return {};
    }

protected:
    void draw(QCPPainter* painter) override
    {
        applyScattersAntialiasingHint(painter);
        painter->setPen(pen());
        painter->setBrush(brush());
        for (const auto& [point, diameter] : m_order) {
            const QPointF centre = pixelOf(point);
            painter->drawEllipse(centre, diameter / 2, diameter / 2);
        }
    }
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override
    {
        applyScattersAntialiasingHint(painter);
        painter->setPen(pen());
        painter->setBrush(brush());
        const double radius = std::min(rect.width(), rect.height()) * 0.4;
        painter->drawEllipse(rect.center(), radius, radius);
    }

private:
    std::shared_ptr<const HloRooflineData> m_data;
    int m_group = 0;
    std::vector<std::pair<int, double>> m_order; ///< point, diameter (px); largest first
};

namespace {

    /// Roof labels, laid out when drawn (on screen and at an export's size alike). A flat roof's label
    /// sits above its line at the right end (above a roof no kernel can be), else right of its ridge, else
    /// below; the memory slope's bandwidth is written along the slope, above it where there is room. A
    /// label never overlaps another label, a roof line or a marker, and is left out when nothing fits.
    /// The font is the axis tick font, so export styles scale it.
    class RoofLabels : public QCPAbstractPlottable {
    public:
        struct Roof {
            double peak = 0; ///< FLOP/s
            double ridge = 0; ///< FLOP/byte
            double bandwidth = 0; ///< bytes/s
            QString text;
            QColor color;
            bool slopeLabel = false; ///< also write the bandwidth along the slope
        };
        struct Marker {
            double x = 0, y = 0; ///< plot coordinates
            double diameter = 0; ///< pixels
        };

        RoofLabels(QCPAxis* keyAxis, QCPAxis* valueAxis)
            : QCPAbstractPlottable(keyAxis, valueAxis)
        {
            setSelectable(QCP::stNone);
            setPen(Qt::NoPen);
        }
        void setRoofs(std::vector<Roof> roofs) { m_roofs = std::move(roofs); }
        void setMarkers(std::vector<Marker> markers) { m_markers = std::move(markers); }
        /// Labels drawn at the last draw.
        int placedCount() const { return m_placedCount; }

        double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
        QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override
        {
            foundRange = false;
            return {};
        }
        QCPRange getValueRange(
            bool& foundRange, QCP::SignDomain = QCP::sdBoth, const QCPRange& = QCPRange()) const override
        {
            foundRange = false;
            return {};
        }

    protected:
        void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

        void draw(QCPPainter* painter) override
        {
            m_placedCount = 0;
            m_taken.clear();
            m_area = keyAxis()->axisRect()->rect();
            QFont font = keyAxis()->tickLabelFont();
            if (font.pointSizeF() > 0)
                font.setPointSizeF(font.pointSizeF() * 0.9);
            painter->setFont(font);
            const QFontMetricsF metrics(font, painter->device());
            collectLines();
            // Highest roofs first: they have the most room above.
            std::vector<std::size_t> order(m_roofs.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                [this](std::size_t a, std::size_t b) { return m_roofs[a].peak > m_roofs[b].peak; });
            for (const std::size_t i : order)
                placeFlat(painter, metrics, i);
            for (const std::size_t i : order) {
                if (m_roofs[i].slopeLabel && m_roofs[i].bandwidth > 0)
                    placeSlope(painter, metrics, i);
            }
        }

    private:
        /// How far a label must keep from a line for markers on it not to touch it.
        double markerClearance() const
        {
            double clearance = 0;
            for (const Marker& marker : m_markers)
                clearance = std::max(clearance, marker.diameter / 2 + 2);
            return clearance;
        }

        /// Every roof's drawn segments in pixels: its slope (from the chart's left edge) and its flat part.
        void collectLines()
        {
            m_lines.clear();
            const QCPRange x = keyAxis()->range();
            for (std::size_t i = 0; i < m_roofs.size(); ++i) {
                const Roof& roof = m_roofs[i];
                const double ridge = std::clamp(roof.ridge, x.lower, x.upper);
                m_lines.push_back(
                    { i, QLineF(coordsToPixels(x.lower, x.lower * roof.bandwidth), coordsToPixels(ridge, roof.peak)) });
                m_lines.push_back({ i, QLineF(coordsToPixels(ridge, roof.peak), coordsToPixels(x.upper, roof.peak)) });
            }
        }

        /// Whether a label's outline (pixels) is inside the chart and clear of labels, markers and the
        /// lines of other roofs (and of its own roof's other part when `ownToo`).
        bool isFree(const QPolygonF& shape, std::size_t roof, bool ownToo) const
        {
            const QRectF bounds = shape.boundingRect();
            if (!m_area.contains(bounds))
                return false;
            for (const QPolygonF& other : m_taken) {
                if (other.intersects(shape))
                    return false;
            }
            for (const Marker& marker : m_markers) {
                const QPointF centre = coordsToPixels(marker.x, marker.y);
                const double r = marker.diameter / 2 + 1;
                if (QPolygonF(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)).intersects(shape))
                    return false;
            }
            for (const auto& [owner, line] : m_lines) {
                if (owner == roof && !ownToo)
                    continue;
                if (crosses(shape, line))
                    return false;
            }
            return true;
        }

        static bool crosses(const QPolygonF& shape, const QLineF& line)
        {
            if (shape.containsPoint(line.p1(), Qt::OddEvenFill) || shape.containsPoint(line.p2(), Qt::OddEvenFill))
                return true;
            for (qsizetype i = 0; i + 1 < shape.size(); ++i) {
                if (QLineF(shape[i], shape[i + 1]).intersects(line, nullptr) == QLineF::BoundedIntersection)
                    return true;
            }
            return false;
        }

        void placeFlat(QCPPainter* painter, const QFontMetricsF& metrics, std::size_t index)
        {
            const Roof& roof = m_roofs[index];
            const double pad = metrics.height() * 0.15;
            const double y = valueAxis()->coordToPixel(roof.peak);
            const double ridgeX = std::max(m_area.left(), keyAxis()->coordToPixel(roof.ridge));
            const QSizeF size(metrics.horizontalAdvance(roof.text) + 2 * pad, metrics.height());
            // Compute-bound kernels sit on the roof: the label may have to clear their markers too.
            const double clearance = markerClearance();
            std::vector<QRectF> candidates;
            for (const double gap : { pad / 2, (pad / 2 + clearance) / 2, clearance }) {
                for (const double left : { m_area.right() - pad - size.width(), ridgeX + 3 * pad })
                    candidates.emplace_back(QPointF(left, y - size.height() - gap), size);
            }
            for (const double gap : { pad / 2, (pad / 2 + clearance) / 2, clearance }) {
                for (const double left : { m_area.right() - pad - size.width(), ridgeX + 3 * pad })
                    candidates.emplace_back(QPointF(left, y + gap), size);
            }
            for (const QRectF& rect : candidates) {
                const QPolygonF shape(rect);
                if (!isFree(shape, index, true))
                    continue;
                m_taken.push_back(shape);
                painter->setPen(roof.color);
                painter->drawText(rect, Qt::AlignCenter, roof.text);
                ++m_placedCount;
                return;
            }
        }

        void placeSlope(QCPPainter* painter, const QFontMetricsF& metrics, std::size_t index)
        {
            const Roof& roof = m_roofs[index];
            const QCPRange x = keyAxis()->range();
            const double ridge = std::clamp(roof.ridge, x.lower, x.upper);
            // The visible part of the slope, in pixels.
            const double yBottom = valueAxis()->range().lower;
            const double xStart = std::max(x.lower, yBottom / roof.bandwidth);
            const QPointF a = coordsToPixels(xStart, xStart * roof.bandwidth);
            const QPointF b = coordsToPixels(ridge, ridge * roof.bandwidth);
            const double length = QLineF(a, b).length();
            const QString text = hloBandwidthText(roof.bandwidth);
            const double width = metrics.horizontalAdvance(text);
            const double height = metrics.height();
            if (!(length > width + height))
                return;
            const QPointF along = (b - a) / length;
            const QPointF up(along.y(), -along.x()); // left of the direction of travel: above a rising line
            const double angle = std::atan2(along.y(), along.x()) * 180 / std::numbers::pi;
            // From the middle outwards, so the label stays near the middle when it can.
            std::vector<double> positions;
            for (int step = 0; step <= 8; ++step) {
                positions.push_back(0.5 + 0.05 * step);
                if (step > 0)
                    positions.push_back(0.5 - 0.05 * step);
            }
            const double clearance = markerClearance();
            // Above the line (the region no kernel reaches) close, then clear of markers; else below.
            const std::pair<double, double> offsets[] = { { 1.0, 2.0 }, { 1.0, clearance }, { -1.0, clearance } };
            for (const auto& [side, gap] : offsets) {
                for (const double t : positions) {
                    const QPointF start = a + (b - a) * t - along * (width / 2);
                    // Text box: from `start` along the line, `height` tall, `gap` off the line.
                    const QPointF p0 = start + up * (side > 0 ? gap : -gap - height);
                    const QPolygonF shape { p0, p0 + along * width, p0 + along * width + up * height, p0 + up * height,
                        p0 };
                    if (!isFree(shape, index, false))
                        continue;
                    m_taken.push_back(shape);
                    painter->save();
                    painter->translate(p0);
                    painter->rotate(angle);
                    painter->setPen(roof.color);
                    painter->drawText(QRectF(0, -height, width, height), Qt::AlignCenter, text);
                    painter->restore();
                    ++m_placedCount;
                    return;
                }
            }
        }

        std::vector<Roof> m_roofs;
        std::vector<Marker> m_markers;
        std::vector<std::pair<std::size_t, QLineF>> m_lines;
        std::vector<QPolygonF> m_taken;
        QRectF m_area;
        int m_placedCount = 0;
    };

    /// Legend-only key of the marker sizes: a small and a large grey circle.
    class MarkerSizeKey : public QCPAbstractPlottable {
    public:
        MarkerSizeKey(QCustomPlot* plot, const QString& name)
            : QCPAbstractPlottable(plot->xAxis, plot->yAxis)
        {
            setName(name);
            setSelectable(QCP::stNone);
            setPen(QPen(QColor(0x60, 0x60, 0x60), 1));
            setBrush(QColor(0xB0, 0xB0, 0xB0));
        }
        double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
        QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override
        {
            foundRange = false;
            return {};
        }
        QCPRange getValueRange(
            bool& foundRange, QCP::SignDomain = QCP::sdBoth, const QCPRange& = QCPRange()) const override
        {
            foundRange = false;
            return {};
        }

    protected:
        void draw(QCPPainter*) override { }
        void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override
        {
            applyScattersAntialiasingHint(painter);
            painter->setPen(pen());
            painter->setBrush(brush());
            const double r = std::min(rect.width() / 2, rect.height()) * 0.48;
            painter->drawEllipse(QPointF(rect.left() + r * 0.45, rect.bottom() - r * 0.45), r * 0.35, r * 0.35);
            painter->drawEllipse(QPointF(rect.right() - r, rect.center().y()), r, r);
        }
    };

} // namespace

HloRooflineView::HloRooflineView(QWidget* parent)
    : HloPlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("hlo-roofline"));
    p->setMouseTracking(true);
    p->installEventFilter(this);
    for (QCPAxis* axis : { p->xAxis, p->yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<SiLogTicker>::create(axis == p->yAxis));
        axis->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
    }
    p->xAxis->setLabel(tr("arithmetic intensity (FLOP/byte)"));
    p->yAxis->setLabel(tr("attained (FLOP/s)"));
    p->xAxis2->setVisible(true);
    p->xAxis2->setTicks(false);
    p->xAxis2->setTickLabels(false);
    p->yAxis2->setVisible(true);
    p->yAxis2->setTicks(false);
    p->yAxis2->setTickLabels(false);
    placeLegendAbove(p);
    connect(p, &QCustomPlot::mouseMove, this, &HloRooflineView::onMouseMove);
    connect(p, &QCustomPlot::beforeReplot, this, [this] { wrapLegend(plot()->legend, plot()->viewport().width()); });
    rebuild();
}

HloRooflineView::~HloRooflineView() = default;

bool HloRooflineView::hasData() const
{
    return m_data && !m_data->empty();
}

const HloRooflineData& HloRooflineView::data() const
{
    return m_data ? *m_data : kNoData;
}

int HloRooflineView::pointCount() const
{
    int count = 0;
    for (const HloRooflineScatter* scatter : m_scatters)
        count += scatter->pointCount();
    return count;
}

int HloRooflineView::roofCount() const
{
    return m_roofLines;
}

void HloRooflineView::rebuild()
{
    QCustomPlot* p = plot();
    p->clearPlottables();
    p->clearItems();
    p->legend->clearItems();
    m_scatters.clear();
    m_roofLines = 0;
    m_roofTexts.clear();
    m_data = std::make_shared<HloRooflineData>(buildHloRoofline(m_results));
    const HloRooflineData& data = *m_data;
    p->xAxis->setRange(data.xLower, data.xUpper);
    p->yAxis->setRange(data.yLower, data.yUpper);
    showEmptyHint(hasData() ? QString()
                            : tr("Open a StableHLO module (Module: Open…)\nand press Run: its kernels appear here\n"
                                 "against each system's roofline."));
    if (!hasData()) {
        p->replot(QCustomPlot::rpQueuedReplot);
        return;
    }

    // Roofs behind the points: per device a memory slope up to each flat roof (one per peak among the
    // kernels' element types), solid for the type with most FLOPs, dashed for the others.
    std::vector<RoofLabels::Roof> labels;
    QStringList slopeDone;
    QCPGraph* dominantRoof = nullptr;
    for (const HloRoof& roof : data.roofs) {
        const double bandwidth = roof.bandwidthBytesPerSecond;
        const double peak = roof.peakFlopsPerSecond;
        if (!(bandwidth > 0) || !(peak > 0))
            continue;
        double x0 = data.xLower;
        double y0 = x0 * bandwidth;
        if (y0 < data.yLower) {
            y0 = data.yLower;
            x0 = y0 / bandwidth;
        }
        const double ridge = roof.ridgeIntensity();
        QCPGraph* graph = p->addGraph(p->xAxis, p->yAxis);
        if (ridge > x0)
            graph->setData({ x0, ridge, data.xUpper }, { y0, peak, peak }, true);
        else
            graph->setData({ data.xLower, data.xUpper }, { peak, peak }, true);
        const QColor ink = data.sharedDevice ? QColor(0x40, 0x40, 0x40) : outlineColor(hloResultColor(roof.group));
        graph->setPen(QPen(ink, roof.dominant ? 1.6 : 1.0, roof.dominant ? Qt::SolidLine : Qt::DashLine));
        graph->setLineStyle(QCPGraph::lsLine);
        graph->setAdaptiveSampling(false);
        graph->removeFromLegend();
        ++m_roofLines;
        if (roof.dominant && data.sharedDevice && !dominantRoof) {
            dominantRoof = graph;
            graph->setName(tr("roof: %1").arg(roof.device));
        }
        RoofLabels::Roof label;
        label.peak = peak;
        label.ridge = ridge;
        label.bandwidth = bandwidth;
        label.color = ink;
        // "tf32 156 T": the axis says FLOP/s, the prefix matches its ticks.
        label.text = roof.types.join(QStringLiteral(", ")) + QStringLiteral(" ") + hloRateText(peak).chopped(6);
        label.slopeLabel = !slopeDone.contains(roof.deviceId);
        slopeDone << roof.deviceId;
        m_roofTexts << label.text;
        labels.push_back(std::move(label));
    }
    auto* roofLabels = new RoofLabels(p->xAxis, p->yAxis);
    roofLabels->setRoofs(std::move(labels));
    roofLabels->removeFromLegend();
    std::vector<RoofLabels::Marker> markers;
    double largest = 0;
    for (const HloRooflinePoint& point : data.points)
        largest = std::max(largest, point.timeShare);
    for (const HloRooflinePoint& point : data.points)
        markers.push_back({ point.intensity, point.flopsPerSecond, rooflineMarkerDiameter(point.timeShare, largest) });
    roofLabels->setMarkers(std::move(markers));

    for (int g = 0; g < int(data.groups.size()); ++g) {
        auto* scatter = new HloRooflineScatter(p->xAxis, p->yAxis, m_data, g);
        scatter->setName(data.labels[g]);
        scatter->addToLegend();
        m_scatters.push_back(scatter);
    }
    // On one device the roof gets a legend entry naming it; on several, each roof has its run's colour.
    if (dominantRoof)
        dominantRoof->addToLegend();
    auto* sizes = new MarkerSizeKey(p, tr("area ∝ time share"));
    sizes->addToLegend();
    p->replot(QCustomPlot::rpQueuedReplot);
}

int HloRooflineView::pointAt(const QPoint& plotPixel) const
{
    if (!hasData() || !plot()->axisRect()->rect().contains(plotPixel))
        return -1;
    std::pair<int, double> best { -1, 1e300 };
    for (const HloRooflineScatter* scatter : m_scatters) {
        const auto candidate = scatter->nearest(plotPixel);
        if (candidate.first >= 0 && candidate.second < best.second)
            best = candidate;
    }
    return best.second <= 3 ? best.first : -1;
}

QString HloRooflineView::toolTipAt(const QPoint& plotPixel) const
{
    const int point = pointAt(plotPixel);
    return point < 0 ? QString() : hloKernelToolTip(*m_data, point);
}

QPointF HloRooflineView::pointCenter(int point) const
{
    if (!hasData() || point < 0 || std::size_t(point) >= m_data->points.size())
        return {};
    const int group = m_data->points[std::size_t(point)].group;
    return m_scatters[std::size_t(group)]->pixelOf(point);
}

void HloRooflineView::onMouseMove(QMouseEvent* event)
{
    const QString text = toolTipAt(event->pos());
    if (text == m_lastToolTip)
        return;
    m_lastToolTip = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot()->mapToGlobal(event->pos()), text, plot());
}

bool HloRooflineView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot() && event->type() == QEvent::Leave && !m_lastToolTip.isEmpty()) {
        m_lastToolTip.clear();
        QToolTip::hideText();
    }
    return HloPlotView::eventFilter(watched, event);
}

void HloRooflineView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    const double dpi = plot()->logicalDpiX() > 0 ? plot()->logicalDpiX() : 96.0;
    wrapLegend(plot()->legend, int(style.widthCm / 2.54 * dpi));
}

} // namespace elk::widgets
