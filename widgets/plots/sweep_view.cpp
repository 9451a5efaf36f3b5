// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/sweep_view.h"

#include "engine/run/sweep.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <QBoxLayout>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace elk::widgets {

namespace {

    /// A JSON value text as a number, or nothing ("2000" → 2000; "\"mesh-2d\"" → nothing).
    std::optional<double> numberOf(const std::string& text)
    {
        bool ok = false;
        const double value = QString::fromStdString(text).trimmed().toDouble(&ok);
        return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
    }

    /// A JSON value text for a tick label: strings lose their quotes.
    QString labelOf(const std::string& text)
    {
        QString label = QString::fromStdString(text).trimmed();
        if (label.size() >= 2 && label.startsWith(QLatin1Char('"')) && label.endsWith(QLatin1Char('"')))
            label = label.mid(1, label.size() - 2);
        return label;
    }

    QString axisTitle(const run::SweepAxis& axis)
    {
        return QString::fromStdString(axis.label.empty() ? axis.field : axis.label);
    }

    /// Distinct marker per design so lines stay apart in grayscale.
    QCPScatterStyle::ScatterShape markerOf(int index)
    {
        static const QCPScatterStyle::ScatterShape shapes[] = { QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
            QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangleInverted,
            QCPScatterStyle::ssCross, QCPScatterStyle::ssPlus, QCPScatterStyle::ssStar };
        const int n = int(std::size(shapes));
        return shapes[((index % n) + n) % n];
    }

    /// Viridis (perceptually uniform, colour-blind safe, monotone in lightness: survives grayscale).
    QCPColorGradient viridis()
    {
        QCPColorGradient gradient;
        gradient.clearColorStops();
        gradient.setColorStopAt(0.0, QColor(0x440154));
        gradient.setColorStopAt(0.125, QColor(0x472D7B));
        gradient.setColorStopAt(0.25, QColor(0x3B528B));
        gradient.setColorStopAt(0.375, QColor(0x2C728E));
        gradient.setColorStopAt(0.5, QColor(0x21918C));
        gradient.setColorStopAt(0.625, QColor(0x28AE80));
        gradient.setColorStopAt(0.75, QColor(0x5EC962));
        gradient.setColorStopAt(0.875, QColor(0xADDC30));
        gradient.setColorStopAt(1.0, QColor(0xFDE725));
        gradient.setColorInterpolation(QCPColorGradient::ciRGB);
        gradient.setNanHandling(QCPColorGradient::nhTransparent);
        return gradient;
    }

    /// Puts one tick per value on `axis`: numbers at their values, anything else at its index.
    /// Returns the coordinates of the values.
    std::vector<double> placeValues(QCPAxis* axis, const run::SweepAxis& sweepAxis, bool forceCategories)
    {
        std::vector<double> coords;
        bool numeric = !forceCategories && !sweepAxis.values.empty();
        for (const std::string& value : sweepAxis.values)
            numeric = numeric && numberOf(value).has_value();
        if (numeric) {
            for (const std::string& value : sweepAxis.values)
                coords.push_back(*numberOf(value));
            // An evenly spaced grid gets its own values as ticks (every one while they are few and short).
            bool even = coords.size() >= 2;
            const double step = even ? coords[1] - coords[0] : 0;
            for (std::size_t i = 1; i < coords.size() && even; ++i)
                even = step > 0 && std::abs(coords[i] - coords[i - 1] - step) <= 1e-9 * std::max(1.0, std::abs(step));
            if (even) {
                std::size_t longest = 0;
                for (const std::string& value : sweepAxis.values)
                    longest = std::max(longest, value.size());
                auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
                ticker->setTickStep(step);
                ticker->setTickOrigin(coords.front());
                ticker->setScaleStrategy(
                    coords.size() <= 10 && longest <= 4 ? QCPAxisTickerFixed::ssNone : QCPAxisTickerFixed::ssMultiples);
                axis->setTicker(ticker);
            } else {
                axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
            }
            return coords;
        }
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (std::size_t i = 0; i < sweepAxis.values.size(); ++i) {
            coords.push_back(double(i));
            ticker->addTick(double(i), labelOf(sweepAxis.values[i]));
        }
        axis->setTicker(ticker);
        return coords;
    }

} // namespace

SweepView::SweepView(QWidget* parent)
    : PlotView(parent)
    , m_controls(new QWidget(this))
    , m_designBox(new QComboBox(m_controls))
{
    auto* row = new QHBoxLayout(m_controls);
    row->setContentsMargins(4, 2, 4, 2);
    auto* label = new QLabel(tr("Heatmap of design:"), m_controls);
    label->setBuddy(m_designBox);
    row->addWidget(label);
    row->addWidget(m_designBox);
    row->addStretch(1);
    if (auto* box = qobject_cast<QBoxLayout*>(layout()))
        box->insertWidget(0, m_controls);
    m_controls->setVisible(false);
    connect(m_designBox, qOverload<int>(&QComboBox::currentIndexChanged), this, &SweepView::setHeatmapDesign);

    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("sweep"));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setAutoAddPlottableToLegend(false);
    p->legend->setVisible(false);
    p->legend->setBrush(QColor(255, 255, 255, 220));
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
}

SweepView::~SweepView() = default;

bool SweepView::hasData() const
{
    if (!m_sweep)
        return false;
    return std::any_of(
        m_sweep->points.begin(), m_sweep->points.end(), [](const run::SweepPoint& point) { return point.done; });
}

bool SweepView::showsHeatmap() const
{
    return m_sweep && m_sweep->axes.size() >= 2;
}

void SweepView::setSweep(std::shared_ptr<const run::SweepResult> sweep)
{
    const bool sameDesigns = m_sweep && sweep && m_sweep->designs == sweep->designs;
    m_sweep = std::move(sweep);
    if (!sameDesigns) {
        const QSignalBlocker blocker(m_designBox);
        m_designBox->clear();
        if (m_sweep) {
            for (const std::string& design : m_sweep->designs)
                m_designBox->addItem(QString::fromStdString(design));
        }
        // Default: the last design of the paper's order present that is not the ideal bound.
        int preferred = 0;
        for (int i = 0; i < m_designBox->count(); ++i) {
            if (m_designBox->itemText(i) == QLatin1String("elk-full"))
                preferred = i;
        }
        m_heatmapDesign = preferred;
        m_designBox->setCurrentIndex(m_designBox->count() > 0 ? preferred : -1);
    }
    rebuild();
}

void SweepView::setHeatmapDesign(int index)
{
    const int count = m_sweep ? int(m_sweep->designs.size()) : 0;
    m_heatmapDesign = count > 0 ? std::clamp(index, 0, count - 1) : 0;
    if (m_designBox->currentIndex() != m_heatmapDesign && m_heatmapDesign < m_designBox->count()) {
        const QSignalBlocker blocker(m_designBox);
        m_designBox->setCurrentIndex(m_heatmapDesign);
    }
    rebuild();
}

void SweepView::clearPlot()
{
    QCustomPlot* p = plot();
    p->clearPlottables(); // deletes the colour map
    p->clearItems();
    p->legend->clearItems();
    m_map = nullptr;
    if (m_scale) {
        p->plotLayout()->remove(m_scale);
        m_scale = nullptr;
    }
    p->plotLayout()->simplify();
}

void SweepView::rebuild()
{
    clearPlot();
    QCustomPlot* p = plot();
    m_controls->setVisible(showsHeatmap());
    if (!m_sweep || m_sweep->axes.empty()) {
        p->legend->setVisible(false);
        p->replot();
        return;
    }
    if (showsHeatmap())
        buildHeatmap();
    else
        buildLines();
    p->replot();
}

void SweepView::buildLines()
{
    QCustomPlot* p = plot();
    const run::SweepAxis& axis = m_sweep->axes.front();
    const std::vector<double> xs = placeValues(p->xAxis, axis, false);
    p->xAxis->setLabel(axisTitle(axis));
    p->yAxis->setLabel(tr("Latency (ms)"));
    if (!qSharedPointerDynamicCast<QCPAxisTickerText>(p->yAxis->ticker()).isNull())
        p->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    p->xAxis->grid()->setVisible(true);
    p->yAxis->grid()->setVisible(true);

    double yHigh = 0;
    for (std::size_t d = 0; d < m_sweep->designs.size(); ++d) {
        const QString name = QString::fromStdString(m_sweep->designs[d]);
        QCPGraph* graph = p->addGraph();
        graph->setName(name);
        const QColor color = designColor(name);
        graph->setPen(QPen(color == QColor(0xF0E442) ? color.darker(130) : color, 1.5));
        graph->setScatterStyle(QCPScatterStyle(markerOf(int(d)), QPen(outlineColor(color), 1.0), QBrush(color), 6));
        std::vector<std::pair<double, double>> points;
        for (const run::SweepPoint& point : m_sweep->points) {
            if (!point.done || point.index.empty() || point.index[0] < 0 || std::size_t(point.index[0]) >= xs.size())
                continue;
            const double value
                = d < point.latencyMs.size() ? point.latencyMs[d] : std::numeric_limits<double>::quiet_NaN();
            points.emplace_back(xs[std::size_t(point.index[0])],
                std::isfinite(value) ? value : std::numeric_limits<double>::quiet_NaN());
            if (std::isfinite(value))
                yHigh = std::max(yHigh, value);
        }
        std::sort(points.begin(), points.end());
        for (const auto& [x, y] : points)
            graph->addData(x, y); // NaN: a design that failed there leaves a gap
        graph->addToLegend();
    }
    // The whole grid stays in view while it fills in.
    if (!xs.empty()) {
        const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
        const double pad = std::max((*hi - *lo) * 0.05, 0.5 * (xs.size() == 1 ? 1.0 : 0.0));
        p->xAxis->setRange(*lo - pad, *hi + pad);
    }
    p->yAxis->setRange(0, yHigh > 0 ? yHigh * 1.08 : 1);
    p->legend->setVisible(true);
}

void SweepView::buildHeatmap()
{
    QCustomPlot* p = plot();
    const run::SweepAxis& xAxisSpec = m_sweep->axes[0];
    const run::SweepAxis& yAxisSpec = m_sweep->axes[1];
    // Cells are uniform, so both axes count values; their ticks name them.
    placeValues(p->xAxis, xAxisSpec, true);
    placeValues(p->yAxis, yAxisSpec, true);
    p->xAxis->setLabel(axisTitle(xAxisSpec));
    p->yAxis->setLabel(axisTitle(yAxisSpec));
    p->xAxis->grid()->setVisible(false);
    p->yAxis->grid()->setVisible(false);
    p->legend->setVisible(false);

    const int nx = int(xAxisSpec.values.size());
    const int ny = int(yAxisSpec.values.size());
    if (nx == 0 || ny == 0)
        return;
    m_map = new QCPColorMap(p->xAxis, p->yAxis);
    m_map->setName(QString::fromStdString(
        m_sweep->designs.empty() ? std::string() : m_sweep->designs[std::size_t(m_heatmapDesign)]));
    m_map->data()->setSize(nx, ny);
    m_map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    m_map->data()->fill(std::numeric_limits<double>::quiet_NaN());
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    const std::size_t design = std::size_t(m_heatmapDesign);
    for (const run::SweepPoint& point : m_sweep->points) {
        if (!point.done || point.index.size() < 2 || design >= point.latencyMs.size())
            continue;
        const int ix = point.index[0];
        const int iy = point.index[1];
        // A third axis or more folds onto its first value: the heatmap shows the first two only.
        bool firstOfRest = true;
        for (std::size_t a = 2; a < point.index.size(); ++a)
            firstOfRest = firstOfRest && point.index[a] == 0;
        if (ix < 0 || iy < 0 || ix >= nx || iy >= ny || !firstOfRest)
            continue;
        const double value = point.latencyMs[design];
        if (std::isfinite(value))
            m_map->data()->setCell(ix, iy, value);
    }

    m_scale = new QCPColorScale(p);
    p->plotLayout()->addElement(0, p->plotLayout()->columnCount(), m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setLabel(tr("Latency of %1 (ms)").arg(m_map->name()));
    m_scale->setBarWidth(10);
    m_scale->axis()->ticker()->setTickCount(4);
    m_map->setColorScale(m_scale);
    m_map->setGradient(viridis());
    m_map->rescaleDataRange(true);
    auto* group = p->findChild<QCPMarginGroup*>(QStringLiteral("heatmapMargins"));
    if (!group) {
        group = new QCPMarginGroup(p);
        group->setObjectName(QStringLiteral("heatmapMargins"));
    }
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    p->xAxis->setRange(-0.5, nx - 0.5);
    p->yAxis->setRange(-0.5, ny - 0.5);
}

} // namespace elk::widgets
