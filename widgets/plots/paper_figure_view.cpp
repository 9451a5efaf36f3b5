// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/paper_figure_view.h"

#include "engine/run/paper_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include <QFontMetrics>
#include <QGuiApplication>
#include <QMouseEvent>
#include <QScreen>

using namespace Qt::Literals::StringLiterals;

namespace elk::widgets {

struct PaperAxisFit {
    QCPAxis* axis = nullptr;
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    bool fromZero = false;
    bool markers = false; ///< markers sit on its values: the headroom covers their radius too
    void add(double value)
    {
        if (std::isfinite(value)) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
    }
};

namespace {

    constexpr double kHeadroom = 0.05; ///< of the data's span, above (and below unless from zero)
    constexpr int kRotateAbove = 6; ///< categories before their tick labels are slanted
    constexpr double kGroupWidth = 0.8; ///< of a category, taken by one group of bars
    constexpr double kBarGap = 0.03; ///< between the bars of a group (category units)
    constexpr double kStackWidth = 0.6;
    constexpr double kScreenMarkerPx = 6;
    constexpr const char* kMarkerProperty = "elkMarker"; ///< a graph's MarkerRole, for applyStyle
    constexpr const char* kColorProperty = "elkColor"; ///< a marker's series colour, for applyStyle
    constexpr const char* kTagName = "paperFigure"; ///< objectName of the groups rebuild deletes

    enum MarkerRole { LineMarker = 1, ReferenceMarker = 2, HaloMarker = 3 };

    /// A text element that wraps at its share of the plot's width. QCPTextElement asks for its whole
    /// unwrapped width as its minimum, which pushes the panels off a narrow figure.
    class WrappedText : public QCPTextElement {
    public:
        WrappedText(QCustomPlot* plot, const QString& text, const QFont& font, double widthShare)
            : QCPTextElement(plot, text, font)
            , m_share(widthShare)
        {
            setTextFlags(Qt::AlignCenter | Qt::TextWordWrap);
            setMargins(QMargins(2, 1, 2, 1));
        }
        QSize minimumOuterSizeHint() const override
        {
            return { mMargins.left() + mMargins.right() + 8, outerHeight() };
        }
        QSize maximumOuterSizeHint() const override { return { QWIDGETSIZE_MAX, outerHeight() }; }

    private:
        int outerHeight() const
        {
            // The viewport is the figure's size while exporting (toPainter sets it before the layout).
            const int wrapWidth
                = std::max(40, int(mParentPlot->viewport().width() * m_share) - mMargins.left() - mMargins.right());
            const QRect bounds = QFontMetrics(mFont).boundingRect(QRect(0, 0, wrapWidth, 1 << 20), mTextFlags, mText);
            return bounds.height() + mMargins.top() + mMargins.bottom();
        }
        double m_share;
    };

    QColor colorOf(const run::ChartSeries& series, int index)
    {
        if (!series.design.empty())
            return designColor(QString::fromStdString(series.design));
        const QColor part = breakdownColor(QString::fromStdString(series.name));
        return part.isValid() ? part : paletteColor(index);
    }

    /// Lines and rings in very light colours (the yellow of "ideal") darkened to stay visible on white.
    QColor inkOf(const QColor& color)
    {
        return qGray(color.rgb()) > 190 ? color.darker(140) : color;
    }

    /// Filled shapes for reproduced lines (never a circle: hollow circles are the paper's values).
    QCPScatterStyle::ScatterShape shapeOf(int index)
    {
        static const QCPScatterStyle::ScatterShape shapes[]
            = { QCPScatterStyle::ssSquare, QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangle,
                  QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCrossSquare, QCPScatterStyle::ssPlusSquare };
        const int n = int(std::size(shapes));
        return shapes[((index % n) + n) % n];
    }

    QCPScatterStyle markerStyle(
        MarkerRole role, const QColor& color, QCPScatterStyle::ScatterShape shape, double sizePx)
    {
        const double ringPx = std::max(1.0, sizePx * 0.2);
        if (role == ReferenceMarker)
            return QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(inkOf(color), ringPx), Qt::NoBrush, sizePx);
        if (role == HaloMarker) // a white ring under the reference ring: visible over bars and lines of its colour
            return QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::white, ringPx * 2.5), Qt::NoBrush, sizePx);
        return QCPScatterStyle(
            shape, QPen(outlineColor(color), std::max(0.8, ringPx * 0.7)), QBrush(color), sizePx * 0.8);
    }

    /// The fit's extent with kHeadroom, or more where `padPx` pixels of marker must fit in `lengthPx`.
    QCPRange padded(const PaperAxisFit& fit, double padPx, double lengthPx)
    {
        double low = fit.low <= fit.high ? fit.low : 0.0;
        double high = fit.low <= fit.high ? fit.high : 1.0;
        if (fit.fromZero) {
            low = std::min(low, 0.0);
            high = std::max(high, 0.0);
        }
        double span = high - low;
        if (!(span > 0))
            span = high != 0 ? std::abs(high) : 1.0;
        double fraction = kHeadroom;
        if (fit.markers && lengthPx > 4 * padPx)
            fraction = std::max(fraction, padPx / (lengthPx - 2 * padPx));
        return { fit.fromZero && low >= 0 ? 0.0 : low - fraction * span, high + fraction * span };
    }

    /// What a panel builder needs from the whole chart.
    struct Context {
        QCustomPlot* plot;
        QCPLegend* legend;
        std::set<QString>* listed; ///< names already in the legend
        std::map<std::string, int>* shapes; ///< line series name → marker shape, the same in every panel
    };

    void addToLegend(const Context& ctx, QCPAbstractPlottable* plottable)
    {
        if (!plottable->name().isEmpty() && ctx.listed->insert(plottable->name()).second)
            plottable->addToLegend(ctx.legend);
    }

    QCPGraph* addGraph(QCPAxisRect* rect, MarkerRole role, const QColor& color, QCPScatterStyle::ScatterShape shape)
    {
        auto* graph = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setPen(QPen(inkOf(color), 1.5));
        graph->setScatterStyle(markerStyle(role, color, shape, kScreenMarkerPx));
        graph->setProperty(kMarkerProperty, int(role));
        graph->setProperty(kColorProperty, color);
        if (role != LineMarker) {
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setLayer(u"references"_s);
        }
        return graph;
    }

    /// Hollow reference markers (over a white halo) at (keys, values); NaN keys or values are left out.
    void addReference(const Context& ctx, QCPAxisRect* rect, const run::ChartSeries& series, const QColor& color,
        const std::vector<double>& keys, const std::vector<double>& values)
    {
        QCPGraph* halo = addGraph(rect, HaloMarker, color, QCPScatterStyle::ssCircle);
        QCPGraph* ring = addGraph(rect, ReferenceMarker, color, QCPScatterStyle::ssCircle);
        halo->setSelectable(QCP::stNone);
        ring->setName(QString::fromStdString(series.name));
        for (std::size_t i = 0; i < keys.size() && i < values.size(); ++i) {
            if (std::isfinite(keys[i]) && std::isfinite(values[i])) {
                halo->addData(keys[i], values[i]);
                ring->addData(keys[i], values[i]);
            }
        }
        addToLegend(ctx, ring);
    }

    QCPBars* addBars(QCPAxisRect* rect, const run::ChartSeries& series, const QColor& color, double width)
    {
        auto* bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        bars->setName(QString::fromStdString(series.name));
        bars->setWidth(width);
        bars->setBrush(color);
        bars->setPen(QPen(outlineColor(color), 0.75));
        bars->setAntialiased(false);
        bars->setAntialiasedFill(false);
        return bars;
    }

    void buildLines(
        const Context& ctx, QCPAxisRect* rect, const run::ChartPanel& panel, PaperAxisFit& xFit, PaperAxisFit& yFit)
    {
        xFit.markers = yFit.markers = true;
        for (std::size_t s = 0; s < panel.series.size(); ++s) {
            const run::ChartSeries& series = panel.series[s];
            std::vector<double> keys, values;
            for (std::size_t i = 0; i < series.x.size() && i < series.y.size(); ++i) {
                keys.push_back(series.x[i]);
                values.push_back(series.y[i]); // NaN stays in a line: it breaks there
                if (std::isfinite(series.x[i]) && std::isfinite(series.y[i])) {
                    xFit.add(series.x[i]);
                    yFit.add(series.y[i]);
                }
            }
            if (series.reference) {
                addReference(ctx, rect, series, colorOf(series, int(s)), keys, values);
                continue;
            }
            const int shape = ctx.shapes->try_emplace(series.name, int(ctx.shapes->size())).first->second;
            QCPGraph* graph = addGraph(rect, LineMarker, colorOf(series, int(s)), shapeOf(shape));
            graph->setName(QString::fromStdString(series.name));
            for (std::size_t i = 0; i < keys.size(); ++i) {
                if (std::isfinite(keys[i]))
                    graph->addData(keys[i], values[i]); // kept sorted by key
            }
            addToLegend(ctx, graph);
        }
    }

    /// Categories on the x axis (the panel's, or 1, 2, … for values without them); returns their count.
    int setCategories(QCPAxis* axis, const run::ChartPanel& panel)
    {
        std::size_t count = panel.categories.size();
        for (const run::ChartSeries& series : panel.series)
            count = panel.categories.empty() ? std::max(count, series.y.size()) : count;
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (std::size_t i = 0; i < count; ++i)
            ticker->addTick(double(i),
                i < panel.categories.size() ? QString::fromStdString(panel.categories[i]) : QString::number(i + 1));
        axis->setTicker(ticker);
        axis->setSubTicks(false);
        axis->setTickLength(0, 0);
        axis->grid()->setVisible(false);
        // Slanted (ending at the tick, clear of the right edge) when many; fitToLayout slants fewer too when
        // they do not fit their slots.
        axis->setTickLabelRotation(int(count) > kRotateAbove ? -40 : 0);
        axis->setRange(-0.5, double(std::max<std::size_t>(1, count)) - 0.5);
        return int(count);
    }

    /// Reference series of a bar panel: at the centre of the bar of their design, else of the category.
    void addBarReferences(const Context& ctx, QCPAxisRect* rect, const run::ChartPanel& panel, int count,
        const std::map<std::string, double>& offsetOf, PaperAxisFit& yFit)
    {
        for (std::size_t s = 0; s < panel.series.size(); ++s) {
            const run::ChartSeries& series = panel.series[s];
            if (!series.reference)
                continue;
            const auto it = offsetOf.find(series.design);
            std::vector<double> keys;
            for (std::size_t i = 0; i < series.y.size(); ++i) {
                keys.push_back(int(i) < count ? double(i) + (it != offsetOf.end() ? it->second : 0.0) : std::nan(""));
                yFit.add(series.y[i]);
            }
            yFit.markers = true;
            addReference(ctx, rect, series, colorOf(series, int(s)), keys, series.y);
        }
    }

    void buildGroupedBars(const Context& ctx, QCPAxisRect* rect, const run::ChartPanel& panel, PaperAxisFit& yFit)
    {
        const int count = setCategories(rect->axis(QCPAxis::atBottom), panel);
        std::vector<std::size_t> drawn;
        for (std::size_t s = 0; s < panel.series.size(); ++s) {
            if (!panel.series[s].reference)
                drawn.push_back(s);
        }
        const int n = std::max(1, int(drawn.size()));
        const double width = (kGroupWidth - kBarGap * (n - 1)) / n;
        auto* group = new QCPBarsGroup(ctx.plot);
        group->setObjectName(QLatin1String(kTagName));
        group->setSpacingType(QCPBarsGroup::stPlotCoords);
        group->setSpacing(kBarGap);
        std::map<std::string, double> offsetOf; // design → its bar's key offset, as QCPBarsGroup places it
        for (int slot = 0; slot < int(drawn.size()); ++slot) {
            const std::size_t s = drawn[std::size_t(slot)];
            const run::ChartSeries& series = panel.series[s];
            QCPBars* bars = addBars(rect, series, colorOf(series, int(s)), width);
            if (series.design.empty()) // palette colours by index: hatch them on export, as breakdowns are
                bars->setProperty("elkSeries", int(s));
            bars->setBarsGroup(group);
            for (std::size_t i = 0; i < series.y.size() && int(i) < count; ++i) {
                if (std::isfinite(series.y[i]))
                    bars->addData(double(i), series.y[i]);
                yFit.add(series.y[i]);
            }
            if (!series.design.empty())
                offsetOf.try_emplace(series.design, (slot - (n - 1) / 2.0) * (width + kBarGap));
            addToLegend(ctx, bars);
        }
        addBarReferences(ctx, rect, panel, count, offsetOf, yFit);
    }

    void buildStackedBars(const Context& ctx, QCPAxisRect* rect, const run::ChartPanel& panel, PaperAxisFit& yFit)
    {
        const int count = setCategories(rect->axis(QCPAxis::atBottom), panel);
        std::vector<double> up(std::size_t(count), 0.0), down(std::size_t(count), 0.0);
        QCPBars* below = nullptr;
        for (std::size_t s = 0; s < panel.series.size(); ++s) {
            const run::ChartSeries& series = panel.series[s];
            if (series.reference)
                continue;
            const QColor color = colorOf(series, int(s));
            QCPBars* bars = addBars(rect, series, color, kStackWidth);
            bars->setBrush(seriesBrush(color, int(s), false)); // solid on screen; hatched on export by elkSeries
            bars->setProperty("elkSeries", int(s));
            for (std::size_t i = 0; i < series.y.size() && int(i) < count; ++i) {
                if (!std::isfinite(series.y[i]))
                    continue; // a missing part adds nothing; the parts above stack on the rest
                bars->addData(double(i), series.y[i]);
                (series.y[i] >= 0 ? up : down)[i] += series.y[i];
            }
            if (below)
                bars->moveAbove(below);
            below = bars;
            addToLegend(ctx, bars);
        }
        for (int i = 0; i < count; ++i) {
            yFit.add(up[std::size_t(i)]);
            yFit.add(down[std::size_t(i)]);
        }
        addBarReferences(ctx, rect, panel, count, {}, yFit);
    }

    /// Entries per row: the most whose widest entries per column fit in `widthPx`.
    void fitLegend(QCPLegend* legend, int widthPx)
    {
        const int n = legend->itemCount();
        std::vector<int> widths;
        for (int i = 0; i < n; ++i)
            widths.push_back(legend->item(i) ? legend->item(i)->minimumOuterSizeHint().width() : 0);
        const int available = widthPx - legend->margins().left() - legend->margins().right();
        int perRow = 1;
        for (int k = n; k > 1 && perRow == 1; --k) {
            std::vector<int> columns(std::size_t(k), 0);
            for (int i = 0; i < n; ++i)
                columns[std::size_t(i % k)] = std::max(columns[std::size_t(i % k)], widths[std::size_t(i)]);
            if (std::accumulate(columns.begin(), columns.end(), 0) + legend->columnSpacing() * (k - 1) <= available)
                perRow = k;
        }
        setLegendWrap(legend, perRow);
    }

} // namespace

PaperFigureView::PaperFigureView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(u"paper"_s);
    p->plotLayout()->clear(); // drops the default axis rect and legend; rebuild lays out the panels
    p->setAutoAddPlottableToLegend(false); // one legend entry per name, not per panel
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // The paper's markers over the reproduced lines and bars, whatever the series order.
    p->addLayer(u"references"_s, p->layer(u"main"_s), QCustomPlot::limAbove);
    connect(p, &QCustomPlot::afterLayout, this, &PaperFigureView::fitToLayout);
    connect(p, &QCustomPlot::mouseWheel, this, [this] { m_userRanged = true; });
    connect(p, &QCustomPlot::mouseMove, this,
        [this](QMouseEvent* event) { m_userRanged = m_userRanged || event->buttons() != Qt::NoButton; });
}

PaperFigureView::~PaperFigureView() = default;

bool PaperFigureView::hasData() const
{
    const auto finite = [](const run::ChartSeries& series) {
        return std::any_of(series.y.begin(), series.y.end(), [](double v) { return std::isfinite(v); });
    };
    return m_chart && std::any_of(m_chart->panels.begin(), m_chart->panels.end(), [&](const run::ChartPanel& panel) {
        return std::any_of(panel.series.begin(), panel.series.end(), finite);
    });
}

void PaperFigureView::setChart(std::shared_ptr<const run::PaperChart> chart)
{
    m_chart = std::move(chart);
    rebuild();
}

int PaperFigureView::panelCount() const
{
    return plot()->axisRectCount();
}

void PaperFigureView::rebuild()
{
    QCustomPlot* p = plot();
    if (m_legend)
        m_legend->clearItems(); // before the plottables its items point to
    p->clearPlottables();
    p->clearItems();
    p->plotLayout()->clear();
    m_legend = nullptr;
    m_panels = nullptr;
    m_fits.clear();
    m_userRanged = false;
    for (QObject* old : p->findChildren<QObject*>(QLatin1String(kTagName), Qt::FindDirectChildrenOnly))
        delete old; // bars and margin groups of the last chart (their members are gone already)
    if (!m_chart || m_chart->panels.empty()) {
        p->replot();
        return;
    }
    const run::PaperChart& chart = *m_chart;
    QCPLayoutGrid* layout = p->plotLayout();
    const QFont base = p->font();
    auto scaled = [&base](double factor, bool bold) {
        QFont font = base;
        font.setPointSizeF((base.pointSizeF() > 0 ? base.pointSizeF() : 9.0) * factor);
        font.setBold(bold);
        return font;
    };
    auto addRow = [layout](QCPLayoutElement* element, double stretch) {
        const int row = layout->rowCount();
        layout->addElement(row, 0, element);
        layout->setRowStretchFactor(row, stretch);
    };
    if (!chart.title.empty())
        addRow(new WrappedText(p, QString::fromStdString(chart.title), scaled(1.1, true), 1.0), 0.001);
    auto* panels = m_panels = new QCPLayoutGrid;
    addRow(panels, 1.0);
    panels->setColumnSpacing(10);
    panels->setRowSpacing(4);
    m_legend = new QCPLegend;
    addRow(m_legend, 0.001);
    m_legend->setLayer(u"legend"_s);
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_legend->setMargins(QMargins(4, 2, 4, 0));
    m_legend->setColumnSpacing(10);
    if (!chart.caption.empty())
        addRow(new WrappedText(p, QString::fromStdString(chart.caption), scaled(0.85, false), 1.0), 0.001);

    // Panels fill the grid row by row; margin groups line up the axes of each column and each row.
    const int columns = std::clamp(chart.columns, 1, int(chart.panels.size()));
    const int rows = (int(chart.panels.size()) + columns - 1) / columns;
    std::vector<QCPMarginGroup*> groups;
    for (int i = 0; i < columns + rows; ++i) {
        groups.push_back(new QCPMarginGroup(p));
        groups.back()->setObjectName(QLatin1String(kTagName));
    }
    std::set<QString> listed;
    std::map<std::string, int> shapes;
    const Context ctx { p, m_legend, &listed, &shapes };
    for (std::size_t i = 0; i < chart.panels.size(); ++i) {
        const run::ChartPanel& panel = chart.panels[i];
        const int r = int(i) / columns;
        const int c = int(i) % columns;
        panels->addElement(2 * r, c, new WrappedText(p, QString::fromStdString(panel.title), base, 1.0 / columns));
        panels->setRowStretchFactor(2 * r, 0.001);
        auto* rect = new QCPAxisRect(p, true);
        // Below QCP's 50 × 50 px, so that four panels fit a column figure: a layout short of its
        // minimum squeezes every row, and titles, legend and caption then overlap.
        rect->setMinimumSize(30, 20);
        panels->addElement(2 * r + 1, c, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, groups[std::size_t(c)]);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, groups[std::size_t(columns + r)]);
        rect->axis(QCPAxis::atBottom)->setLabel(QString::fromStdString(panel.xLabel));
        // A row of panels in the same unit names it once, at the left (and keeps the space).
        if (c == 0 || chart.panels[i - 1].yLabel != panel.yLabel)
            rect->axis(QCPAxis::atLeft)->setLabel(QString::fromStdString(panel.yLabel));
        PaperAxisFit xFit { rect->axis(QCPAxis::atBottom) };
        PaperAxisFit yFit { rect->axis(QCPAxis::atLeft) };
        yFit.fromZero = panel.yFromZero;
        if (panel.kind == run::ChartKind::Lines) {
            buildLines(ctx, rect, panel, xFit, yFit);
            m_fits.push_back(xFit);
        } else if (panel.kind == run::ChartKind::GroupedBars) {
            buildGroupedBars(ctx, rect, panel, yFit);
        } else {
            buildStackedBars(ctx, rect, panel, yFit);
        }
        m_fits.push_back(yFit);
    }
    for (const PaperAxisFit& fit : m_fits)
        fit.axis->setRange(padded(fit, 0, 0));
    m_legend->setVisible(m_legend->itemCount() > 0);
    p->replot();
}

void PaperFigureView::fitToLayout()
{
    QCustomPlot* p = plot();
    if (!m_legend)
        return;
    auto relayout = [p] { // emits no afterLayout
        for (const auto phase :
            { QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout })
            p->plotLayout()->update(phase);
    };
    const int legendRows = m_legend->rowCount();
    fitLegend(m_legend, p->viewport().width());
    bool slanted = false;
    // Category labels slant when the widest line of one is wider than its slot (many categories or a
    // narrow panel); upright otherwise, so they stay easy to read.
    for (QCPAxisRect* rect : p->axisRects()) {
        QCPAxis* axis = rect->axis(QCPAxis::atBottom);
        const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
        if (!ticker || ticker->ticks().isEmpty())
            continue;
        const QFontMetrics metrics(axis->tickLabelFont());
        int widestPx = 0;
        for (const QString& label : ticker->ticks()) {
            for (const QString& line : label.split(u'\n'))
                widestPx = std::max(widestPx, metrics.horizontalAdvance(line));
        }
        const double slotPx = double(rect->width()) / double(ticker->ticks().size());
        const double rotation = widestPx + metrics.averageCharWidth() > slotPx ? -40 : 0;
        if (axis->tickLabelRotation() != rotation) {
            axis->setTickLabelRotation(rotation);
            slanted = true;
        }
    }
    if (m_legend->rowCount() != legendRows || slanted)
        relayout();
    // Rows of panels share the height so that their data areas match (slanted category labels
    // deepen a row's margin): stretch each row by its margin plus an equal share of the rest.
    std::map<int, std::pair<int, int>> rows; // grid row → its margins and outer height
    for (int i = 0; i < m_panels->elementCount(); ++i) {
        int row = 0, column = 0;
        m_panels->indexToRowCol(i, row, column);
        if (const auto* rect = qobject_cast<QCPAxisRect*>(m_panels->elementAt(i))) {
            auto& [margin, outer] = rows[row];
            margin = std::max(margin, rect->outerRect().height() - rect->rect().height());
            outer = std::max(outer, rect->outerRect().height());
        }
    }
    if (rows.size() > 1) {
        int rest = 0;
        for (const auto& [row, size] : rows)
            rest += size.second - size.first;
        for (const auto& [row, size] : rows)
            m_panels->setRowStretchFactor(row, std::max(1, rest / int(rows.size())) + size.first);
        relayout();
    }
    // About one number per 4 font heights across and per 1.8 up, so that labels never run together.
    for (QCPAxisRect* rect : p->axisRects()) {
        for (QCPAxis* axis : { rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft) }) {
            if (qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker()))
                continue;
            const bool across = axis->orientation() == Qt::Horizontal;
            const double perTick = QFontMetrics(axis->tickLabelFont()).height() * (across ? 4.0 : 1.8);
            const int count = std::clamp(int((across ? rect->width() : rect->height()) / perTick), 2, 6);
            axis->ticker()->setTickCount(count);
            // Few ticks: the count matters more than the roundest step (which may add a tick between).
            axis->ticker()->setTickStepStrategy(
                count <= 2 ? QCPAxisTicker::tssMeetTickCount : QCPAxisTicker::tssReadability);
        }
    }
    for (const PaperAxisFit& fit : m_fits) {
        if (m_userRanged)
            break;
        // Room for the largest marker of the panel (with its halo) beyond the outermost value.
        QCPAxisRect* rect = fit.axis->axisRect();
        double padPx = 0;
        for (QCPGraph* graph : rect->graphs())
            padPx = std::max(padPx, (graph->scatterStyle().size() + graph->scatterStyle().pen().widthF()) / 2 + 1);
        fit.axis->setRange(
            padded(fit, padPx, fit.axis->orientation() == Qt::Horizontal ? rect->width() : rect->height()));
    }
    relayout(); // new tick labels and ranges: new margins and tick positions
}

void PaperFigureView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    // Markers scale with the text: 0.75 × the font size (6 px for 8 pt on a 96 dpi layout, as on screen).
    const QScreen* screen = QGuiApplication::primaryScreen();
    const double dpi = screen && screen->logicalDotsPerInchY() > 0 ? screen->logicalDotsPerInchY() : 96.0;
    const double markerPx = style.fontPt * 0.75 * dpi / 72.0;
    QCustomPlot* p = plot();
    for (int i = 0; i < p->graphCount(); ++i) {
        QCPGraph* graph = p->graph(i);
        if (const QVariant role = graph->property(kMarkerProperty); role.isValid())
            graph->setScatterStyle(markerStyle(MarkerRole(role.toInt()),
                graph->property(kColorProperty).value<QColor>(), graph->scatterStyle().shape(), markerPx));
    }
}

} // namespace elk::widgets
