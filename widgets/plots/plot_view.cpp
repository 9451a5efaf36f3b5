// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/plots/plot_view.h"

#include "engine/run/run_compile.h"
#include "widgets/plots/figure_metadata.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPdfWriter>
#include <QScreen>
#include <QSvgGenerator>
#include <QVBoxLayout>

namespace elk::widgets {

namespace {

    constexpr const char* kSeriesProperty = "elkSeries";

    /// DPI of the metrics QCustomPlot lays out with (QFontMetrics without a device uses the screen's).
    /// Every export paints on a device of this logical DPI and scales, so measured and painted text agree.
    int layoutDpi()
    {
        const QScreen* screen = QGuiApplication::primaryScreen();
        const double dpi = screen ? screen->logicalDotsPerInchY() : 96.0;
        return dpi > 0 ? int(std::lround(dpi)) : 96;
    }

    double pointsToLayout(double points)
    {
        return points * layoutDpi() / 72.0;
    }

    QFont scaledFont(QFont font, double factor)
    {
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * factor);
        return font;
    }

    QPen withWidthPt(QPen pen, double points)
    {
        if (pen.style() != Qt::NoPen)
            pen.setWidthF(pointsToLayout(points));
        return pen;
    }

    /// Everything applyStyle may change, recorded so that the on-screen view comes back unchanged: fonts,
    /// pens, tick lengths, tickers, tick counts and ranges of axes; fonts, icon sizes and wrap of legends;
    /// text elements; pens and brushes of plottables and items; margins of layout elements.
    class StyleSnapshot {
    public:
        explicit StyleSnapshot(QCustomPlot* plot)
        {
            for (QCPAxis* axis : allAxes(plot))
                record(axis);
            for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
                if (auto* legend = qobject_cast<QCPLegend*>(element))
                    record(legend);
                else if (auto* text = qobject_cast<QCPTextElement*>(element))
                    record(text);
                if (element)
                    recordMargins(element);
            }
            for (int i = 0; i < plot->plottableCount(); ++i)
                record(plot->plottable(i));
            for (int i = 0; i < plot->itemCount(); ++i)
                record(plot->item(i));
        }

        void restore()
        {
            for (auto it = m_restore.rbegin(); it != m_restore.rend(); ++it)
                (*it)();
        }

        static QList<QCPAxis*> allAxes(QCustomPlot* plot)
        {
            QList<QCPAxis*> axes;
            for (QCPAxisRect* rect : plot->axisRects())
                axes += rect->axes();
            for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
                if (auto* scale = qobject_cast<QCPColorScale*>(element))
                    axes += scale->axis();
            }
            return axes;
        }

    private:
        void record(QCPAxis* axis)
        {
            m_restore.push_back(
                [axis, tickLabelFont = axis->tickLabelFont(), labelFont = axis->labelFont(),
                    selectedTickLabelFont = axis->selectedTickLabelFont(),
                    selectedLabelFont = axis->selectedLabelFont(), basePen = axis->basePen(), tickPen = axis->tickPen(),
                    subTickPen = axis->subTickPen(), tickIn = axis->tickLengthIn(), tickOut = axis->tickLengthOut(),
                    subIn = axis->subTickLengthIn(), subOut = axis->subTickLengthOut(),
                    labelPadding = axis->labelPadding(), tickLabelPadding = axis->tickLabelPadding(),
                    ticker = axis->ticker(), tickCount = axis->ticker()->tickCount(), range = axis->range()] {
                    ticker->setTickCount(tickCount);
                    axis->setTicker(ticker);
                    axis->setRange(range);
                    axis->setTickLabelFont(tickLabelFont);
                    axis->setLabelFont(labelFont);
                    axis->setSelectedTickLabelFont(selectedTickLabelFont);
                    axis->setSelectedLabelFont(selectedLabelFont);
                    axis->setBasePen(basePen);
                    axis->setTickPen(tickPen);
                    axis->setSubTickPen(subTickPen);
                    axis->setTickLength(tickIn, tickOut);
                    axis->setSubTickLength(subIn, subOut);
                    axis->setLabelPadding(labelPadding);
                    axis->setTickLabelPadding(tickLabelPadding);
                });
            if (QCPGrid* grid = axis->grid()) {
                m_restore.push_back([grid, pen = grid->pen(), sub = grid->subGridPen(), zero = grid->zeroLinePen()] {
                    grid->setPen(pen);
                    grid->setSubGridPen(sub);
                    grid->setZeroLinePen(zero);
                });
            }
        }

        void record(QCPLegend* legend)
        {
            m_restore.push_back(
                [legend, font = legend->font(), selectedFont = legend->selectedFont(), icon = legend->iconSize(),
                    gap = legend->iconTextPadding(), border = legend->borderPen(), spacing = legend->rowSpacing(),
                    wrap = legend->wrap(), order = legend->fillOrder()] {
                    if (legend->fillOrder() != order)
                        legend->setFillOrder(order, true);
                    setLegendWrap(legend, wrap);
                    legend->setFont(font);
                    legend->setSelectedFont(selectedFont);
                    legend->setIconSize(icon);
                    legend->setIconTextPadding(gap);
                    legend->setBorderPen(border);
                    legend->setRowSpacing(spacing);
                });
            // Legend::setFont overwrites the items' fonts; restore each item after the legend.
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (QCPAbstractLegendItem* item = legend->item(i))
                    m_restore.push_back([item, font = item->font()] { item->setFont(font); });
            }
        }

        void record(QCPTextElement* text)
        {
            m_restore.push_back([text, font = text->font(), selectedFont = text->selectedFont()] {
                text->setFont(font);
                text->setSelectedFont(selectedFont);
            });
        }

        void recordMargins(QCPLayoutElement* element)
        {
            m_restore.push_back([element, margins = element->margins(), minimum = element->minimumMargins()] {
                element->setMinimumMargins(minimum);
                element->setMargins(margins);
            });
        }

        void record(QCPAbstractPlottable* plottable)
        {
            m_restore.push_back([plottable, pen = plottable->pen(), brush = plottable->brush()] {
                plottable->setPen(pen);
                plottable->setBrush(brush);
            });
            if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
                m_restore.push_back([graph, scatter = graph->scatterStyle()] { graph->setScatterStyle(scatter); });
            } else if (auto* curve = qobject_cast<QCPCurve*>(plottable)) {
                m_restore.push_back([curve, scatter = curve->scatterStyle()] { curve->setScatterStyle(scatter); });
            }
        }

        void record(QCPAbstractItem* item)
        {
            if (auto* text = qobject_cast<QCPItemText*>(item)) {
                m_restore.push_back([text, font = text->font(), selectedFont = text->selectedFont(), pen = text->pen(),
                                        padding = text->padding()] {
                    text->setFont(font);
                    text->setSelectedFont(selectedFont);
                    text->setPen(pen);
                    text->setPadding(padding);
                });
            } else if (auto* line = qobject_cast<QCPItemLine*>(item)) {
                m_restore.push_back([line, pen = line->pen()] { line->setPen(pen); });
            } else if (auto* straight = qobject_cast<QCPItemStraightLine*>(item)) {
                m_restore.push_back([straight, pen = straight->pen()] { straight->setPen(pen); });
            } else if (auto* rect = qobject_cast<QCPItemRect*>(item)) {
                m_restore.push_back([rect, pen = rect->pen(), brush = rect->brush()] {
                    rect->setPen(pen);
                    rect->setBrush(brush);
                });
            } else if (auto* tracer = qobject_cast<QCPItemTracer*>(item)) {
                m_restore.push_back([tracer, pen = tracer->pen(), size = tracer->size()] {
                    tracer->setPen(pen);
                    tracer->setSize(size);
                });
            }
        }

        std::vector<std::function<void()>> m_restore;
    };

    QString renderPdf(QCustomPlot* plot, const QString& path, const QSize& layoutSize, const FigureStyle& style,
        const QString& metadata)
    {
        QPdfWriter writer(path);
        writer.setCreator(QStringLiteral("Elk Studio"));
        writer.setTitle(plot->objectName() + QStringLiteral(" ") + metadata); // the run it shows: readFigureMetadata()
        writer.setResolution(layoutDpi());
        const QPageSize page(QSizeF(style.widthCm * 10.0, style.heightCm * 10.0), QPageSize::Millimeter, QString(),
            QPageSize::ExactMatch);
        if (!writer.setPageLayout(QPageLayout(page, QPageLayout::Portrait, QMarginsF(0, 0, 0, 0))))
            return QStringLiteral("cannot set the PDF page to %1 × %2 cm").arg(style.widthCm).arg(style.heightCm);
        QCPPainter painter;
        if (!painter.begin(&writer))
            return QStringLiteral("cannot write %1").arg(path);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNonCosmetic);
        plot->toPainter(&painter, layoutSize.width(), layoutSize.height());
        painter.end();
        return {};
    }

    QString renderSvg(QCustomPlot* plot, const QString& path, const QSize& layoutSize, const FigureStyle& style,
        const QString& metadata)
    {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setResolution(layoutDpi()); // also makes width/height come out in the figure's size
        generator.setSize(layoutSize);
        generator.setViewBox(QRect(QPoint(0, 0), layoutSize));
        generator.setTitle(plot->objectName());
        generator.setDescription(
            QStringLiteral("Elk Studio figure, %1 × %2 cm; %3").arg(style.widthCm).arg(style.heightCm).arg(metadata));
        QCPPainter painter;
        if (!painter.begin(&generator))
            return QStringLiteral("cannot write %1").arg(path);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNonCosmetic);
        plot->toPainter(&painter, layoutSize.width(), layoutSize.height());
        painter.end();
        return {};
    }

    QString renderPng(QCustomPlot* plot, const QString& path, const QSize& layoutSize, const FigureStyle& style,
        const QString& metadata)
    {
        const int widthPx = int(std::lround(style.widthCm / 2.54 * style.pngDpi));
        const int heightPx = int(std::lround(style.heightCm / 2.54 * style.pngDpi));
        QImage image(widthPx, heightPx, QImage::Format_ARGB32_Premultiplied);
        if (image.isNull())
            return QStringLiteral("cannot allocate a %1 × %2 pixel image").arg(widthPx).arg(heightPx);
        // Paint at the layout DPI (text measured and drawn alike), scaled up to the target pixels.
        const double dotsPerMeter = layoutDpi() / 0.0254;
        image.setDotsPerMeterX(int(std::lround(dotsPerMeter)));
        image.setDotsPerMeterY(int(std::lround(dotsPerMeter)));
        image.fill(Qt::white);
        QCPPainter painter;
        if (!painter.begin(&image))
            return QStringLiteral("cannot paint a %1 × %2 pixel image").arg(widthPx).arg(heightPx);
        painter.setMode(QCPPainter::pmNonCosmetic);
        painter.scale(double(widthPx) / layoutSize.width(), double(heightPx) / layoutSize.height());
        plot->toPainter(&painter, layoutSize.width(), layoutSize.height());
        painter.end();
        image.setDotsPerMeterX(int(std::lround(style.pngDpi / 0.0254)));
        image.setDotsPerMeterY(int(std::lround(style.pngDpi / 0.0254)));
        image.setText(QStringLiteral("elk"), metadata); // a tEXt chunk
        if (!image.save(path, "PNG"))
            return QStringLiteral("cannot write %1").arg(path);
        return {};
    }

} // namespace

PlotView::PlotView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 1);
    m_plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_plot->setMinimumSize(200, 150);
}

PlotView::~PlotView() = default;

void PlotView::placeLegendInRow(QCustomPlot* plot, int row)
{
    if (QCPLayoutInset* inset = plot->axisRect()->insetLayout(); inset->elements(false).contains(plot->legend))
        inset->take(plot->legend);
    plot->plotLayout()->addElement(row, 0, plot->legend);
    plot->legend->setMaximumSize(QWIDGETSIZE_MAX - 1, QWIDGETSIZE_MAX);
}

void PlotView::setRun(RunSnapshotPtr run)
{
    m_run = std::move(run);
    rebuild();
}

void PlotView::setDesignIndex(int index)
{
    m_designIndex = index < 0 ? 0 : index;
    rebuild();
}

void PlotView::setSelectedStep(int step)
{
    m_selectedStep = step < 0 ? -1 : step;
    rebuild();
}

int PlotView::designStepOf(int referenceStep) const
{
    if (!m_run || m_run->designs.empty() || referenceStep < 0)
        return -1;
    const auto& design = m_run->designs[std::size_t(std::min<int>(m_designIndex, int(m_run->designs.size()) - 1))];
    return run::correspondingStep(m_run->problem, referenceStep, m_run->problemOf(design));
}

int PlotView::referenceStepOf(int designStep) const
{
    if (!m_run || m_run->designs.empty() || designStep < 0)
        return -1;
    const auto& design = m_run->designs[std::size_t(std::min<int>(m_designIndex, int(m_run->designs.size()) - 1))];
    return run::correspondingStep(m_run->problemOf(design), designStep, m_run->problem);
}

QString PlotView::exportFigure(const QString& path, const FigureStyle& style)
{
    if (!m_plot)
        return QStringLiteral("the view has no plot to export");
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("svg") && suffix != QLatin1String("png"))
        return QStringLiteral("%1: unknown figure format \"%2\" (expected .pdf, .svg or .png)").arg(path, suffix);
    if (!(style.widthCm > 0.5 && style.widthCm < 200 && style.heightCm > 0.5 && style.heightCm < 200))
        return QStringLiteral("figure size %1 × %2 cm out of range (0.5 to 200 cm)")
            .arg(style.widthCm)
            .arg(style.heightCm);
    if (!(style.fontPt >= 2 && style.fontPt <= 72))
        return QStringLiteral("font size %1 pt out of range (2 to 72 pt)").arg(style.fontPt);
    if (suffix == QLatin1String("png") && !(style.pngDpi >= 30 && style.pngDpi <= 2400))
        return QStringLiteral("PNG resolution %1 dpi out of range (30 to 2400)").arg(style.pngDpi);
    {
        // Painters report only "could not begin"; try the file first to name the problem.
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write %1: %2").arg(path, probe.errorString());
    }

    const QSize layoutSize(
        int(std::lround(style.widthCm / 2.54 * layoutDpi())), int(std::lround(style.heightCm / 2.54 * layoutDpi())));
    StyleSnapshot snapshot(m_plot);
    applyStyle(style);
    const QString runHash = m_run ? QString::fromStdString(run::runSpecHash(m_run->spec)) : QString();
    const QString metadata = figureMetadataText(runHash, figureKind());
    QCPItemText* caption = nullptr;
    if (style.runCaption && !runHash.isEmpty()) {
        // Small, bottom right, outside the data: which cached run to reopen.
        caption = new QCPItemText(m_plot);
        caption->setClipToAxisRect(false);
        caption->position->setType(QCPItemPosition::ptViewportRatio);
        caption->position->setCoords(0.995, 0.995);
        caption->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        caption->setFont(scaledFont(m_plot->font(), style.fontPt * 0.7 / std::max(1.0, m_plot->font().pointSizeF())));
        caption->setColor(QColor(0x70, 0x70, 0x70));
        caption->setText(QStringLiteral("Elk Studio run %1").arg(runHash.left(12)));
    }
    QString error;
    if (suffix == QLatin1String("pdf"))
        error = renderPdf(m_plot, path, layoutSize, style, metadata);
    else if (suffix == QLatin1String("svg"))
        error = renderSvg(m_plot, path, layoutSize, style, metadata);
    else
        error = renderPng(m_plot, path, layoutSize, style, metadata);
    if (caption)
        m_plot->removeItem(caption);
    snapshot.restore();
    m_plot->replot(); // the export laid the plot out at the figure's size
    if (!error.isEmpty())
        QFile::remove(path);
    return error;
}

void PlotView::applyStyle(const FigureStyle& style)
{
    // Fonts keep their size relative to the plot's base font (titles stay larger, notes smaller).
    const double base = m_plot->font().pointSizeF() > 0 ? m_plot->font().pointSizeF() : 9.0;
    const double factor = style.fontPt / base;
    for (QCPAxis* axis : StyleSnapshot::allAxes(m_plot)) {
        axis->setTickLabelFont(scaledFont(axis->tickLabelFont(), factor));
        axis->setLabelFont(scaledFont(axis->labelFont(), factor));
        axis->setSelectedTickLabelFont(scaledFont(axis->selectedTickLabelFont(), factor));
        axis->setSelectedLabelFont(scaledFont(axis->selectedLabelFont(), factor));
        // Hairlines vanish in print: 0.5 pt axes and ticks, 0.25 pt dotted grid.
        axis->setBasePen(withWidthPt(axis->basePen(), 0.5));
        axis->setTickPen(withWidthPt(axis->tickPen(), 0.5));
        axis->setSubTickPen(withWidthPt(axis->subTickPen(), 0.4));
        const int tick = int(std::lround(pointsToLayout(3.0)));
        axis->setTickLength(axis->tickLengthIn() > 0 ? tick : 0, axis->tickLengthOut() > 0 ? tick : 0);
        axis->setSubTickLength(axis->subTickLengthIn() > 0 ? tick / 2 : 0, axis->subTickLengthOut() > 0 ? tick / 2 : 0);
        axis->setTickLabelPadding(int(std::lround(pointsToLayout(2.0))));
        axis->setLabelPadding(int(std::lround(pointsToLayout(2.0))));
        if (QCPGrid* grid = axis->grid()) {
            grid->setPen(withWidthPt(grid->pen(), 0.3));
            grid->setSubGridPen(withWidthPt(grid->subGridPen(), 0.2));
            grid->setZeroLinePen(withWidthPt(grid->zeroLinePen(), 0.5));
        }
    }
    for (QCPLayoutElement* element : m_plot->plotLayout()->elements(true)) {
        if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            std::vector<QFont> itemFonts;
            for (int i = 0; i < legend->itemCount(); ++i)
                itemFonts.push_back(legend->item(i) ? legend->item(i)->font() : QFont());
            legend->setFont(scaledFont(legend->font(), factor));
            legend->setSelectedFont(scaledFont(legend->selectedFont(), factor));
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (legend->item(i))
                    legend->item(i)->setFont(scaledFont(itemFonts[std::size_t(i)], factor));
            }
            const int iconHeight = int(std::lround(pointsToLayout(style.fontPt * 0.9)));
            legend->setIconSize(int(std::lround(iconHeight * 1.8)), iconHeight);
            legend->setIconTextPadding(int(std::lround(pointsToLayout(3.0))));
            legend->setBorderPen(withWidthPt(legend->borderPen(), 0.5));
            legend->setRowSpacing(0);
        } else if (auto* text = qobject_cast<QCPTextElement*>(element)) {
            text->setFont(scaledFont(text->font(), factor));
            text->setSelectedFont(scaledFont(text->selectedFont(), factor));
        }
    }
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
        QCPAbstractPlottable* plottable = m_plot->plottable(i);
        // Series that asked for it (property "elkSeries" = series index) get their grayscale-safe hatch.
        const QVariant series = plottable->property(kSeriesProperty);
        if (series.isValid() && plottable->brush().style() != Qt::NoBrush)
            plottable->setBrush(seriesBrush(plottable->brush().color(), series.toInt(), style.patterns));
        if (qobject_cast<QCPBars*>(plottable))
            plottable->setPen(withWidthPt(plottable->pen(), 0.5));
        else if (qobject_cast<QCPGraph*>(plottable) || qobject_cast<QCPCurve*>(plottable))
            plottable->setPen(
                withWidthPt(plottable->pen(), std::max(1.0, plottable->pen().widthF() * 72.0 / layoutDpi())));
    }
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        QCPAbstractItem* item = m_plot->item(i);
        if (auto* text = qobject_cast<QCPItemText*>(item)) {
            text->setFont(scaledFont(text->font(), factor));
            text->setSelectedFont(scaledFont(text->selectedFont(), factor));
        } else if (auto* line = qobject_cast<QCPItemLine*>(item)) {
            line->setPen(withWidthPt(line->pen(), 0.6));
        } else if (auto* straight = qobject_cast<QCPItemStraightLine*>(item)) {
            straight->setPen(withWidthPt(straight->pen(), 0.6));
        }
    }
}

} // namespace elk::widgets
