// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/qcp.h" // first: see qcp.h

#include "widgets/timeline/link_heatmap_view.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "engine/run/run_compile.h"
#include "widgets/timeline/link_map_plottable.h"
#include "widgets/timeline/time_axis_ticker.h"

namespace elk::widgets {

namespace {

    const LinkMapLayout kNoLayout;

    QString percent(double fraction)
    {
        const double value = fraction * 100;
        return QString::number(value, 'f', value < 10 ? 1 : 0) + QStringLiteral(" %");
    }

    QString linkKindText(sim::LinkKind kind)
    {
        switch (kind) {
        case sim::LinkKind::CoreIngress:
            return QStringLiteral("core ingress port");
        case sim::LinkKind::CoreEgress:
            return QStringLiteral("core egress port");
        case sim::LinkKind::MeshLink:
            return QStringLiteral("mesh link");
        case sim::LinkKind::HbmStack:
            return QStringLiteral("HBM stack");
        case sim::LinkKind::InterChip:
            break;
        }
        return QStringLiteral("inter-chip link");
    }

} // namespace

LinkHeatmapView::LinkHeatmapView(QWidget* parent)
    : PlotView(parent)
{
    QCustomPlot* p = plot();
    p->setObjectName(QStringLiteral("heatmap"));
    p->setMouseTracking(true);
    p->installEventFilter(this);
    p->xAxis->setVisible(false);
    p->yAxis->setVisible(false);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setRangeReversed(true); // router row 0 on top, as the simulator numbers them
    if (p->legend)
        p->legend->setVisible(false);
    m_map = new LinkMapPlottable(p->xAxis, p->yAxis);
    m_map->setName(QStringLiteral("links"));

    m_title = new QCPTextElement(p, QString());
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, m_title);
    m_colourScale = new QCPColorScale(p);
    p->plotLayout()->addElement(1, 1, m_colourScale);
    m_colourScale->setType(QCPAxis::atRight);
    m_colourScale->setGradient(utilizationGradient());
    m_colourScale->setDataRange(QCPRange(0, 100));
    m_colourScale->setLabel(QStringLiteral("link utilisation (%)"));
    m_colourScale->setBarWidth(10);
    m_colourScale->setRangeDrag(false);
    m_colourScale->setRangeZoom(false);
    auto* group = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_colourScale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    // Keeps the map's aspect ratio 1:1 at whatever size it is laid out (screen or export).
    connect(p, &QCustomPlot::afterLayout, this, &LinkHeatmapView::fitMap);
    connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { m_pressPos = event->pos(); });
    connect(p, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || (event->pos() - m_pressPos).manhattanLength() > 3)
            return;
        const int link = linkAt(event->pos());
        if (link < 0)
            return;
        selectLink(link);
        emit linkSelected(link);
    });
    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = toolTipAt(event->pos());
        if (text == m_lastToolTip)
            return;
        m_lastToolTip = text;
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(plot()->mapToGlobal(event->pos()), text, plot());
    });

    // Time controls: play, slider over the bins (position 0 = average), the bin's interval.
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(4, 2, 4, 2);
    m_play = new QToolButton(this);
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(QStringLiteral("Play the time bins"));
    m_play->setAccessibleName(QStringLiteral("play"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setToolTip(QStringLiteral("Time bin (leftmost: average over the run)"));
    m_slider->setRange(0, 0);
    m_binLabel = new QLabel(this);
    m_binLabel->setMinimumWidth(
        m_binLabel->fontMetrics().horizontalAdvance(QStringLiteral("t = 00000.000–00000.000 µs")));
    controls->addWidget(m_play);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_binLabel);
    m_timer = new QTimer(this);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &LinkHeatmapView::advance);
    connect(m_play, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(m_slider, &QSlider::valueChanged, this, &LinkHeatmapView::setBinPosition);

    m_timePlot = new QCustomPlot(this);
    m_timePlot->setObjectName(QStringLiteral("linkOverTime"));
    m_timePlot->setFixedHeight(150);
    m_timePlot->xAxis->setTicker(QSharedPointer<TimeAxisTicker>::create(1e9));
    m_timePlot->xAxis->setLabel(QStringLiteral("time (µs)"));
    m_timePlot->yAxis->setLabel(QStringLiteral("utilisation (%)"));
    m_timePlot->yAxis->setRange(0, 105);
    m_timePlot->xAxis->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
    m_timePlot->yAxis->grid()->setPen(QPen(QColor(0xD0, 0xD0, 0xD0), 0, Qt::DotLine));
    QCPGraph* series = m_timePlot->addGraph();
    series->setLineStyle(QCPGraph::lsStepLeft);
    series->setPen(QPen(QColor::fromRgb(0xA50F15), 1.2));
    series->setBrush(QColor(0xF0, 0x3B, 0x20, 60));
    m_timePlot->legend->setVisible(false);

    if (auto* box = qobject_cast<QVBoxLayout*>(QWidget::layout())) {
        box->addLayout(controls);
        box->addWidget(m_timePlot);
    }
    rebuild();
}

LinkHeatmapView::~LinkHeatmapView() = default;

const sim::SimResult* LinkHeatmapView::simulation() const
{
    if (!m_run || m_run->designs.empty())
        return nullptr;
    const auto& design = m_run->designs[std::size_t(std::clamp(m_designIndex, 0, int(m_run->designs.size()) - 1))];
    return design.simulated ? &*design.simulated : nullptr;
}

bool LinkHeatmapView::hasData() const
{
    return m_layout && !m_layout->shapes.empty();
}

const LinkMapLayout& LinkHeatmapView::mapLayout() const
{
    return m_layout ? *m_layout : kNoLayout;
}

int LinkHeatmapView::binCount() const
{
    const sim::SimResult* sim = simulation();
    return sim ? widgets::binCount(*sim) : 0;
}

bool LinkHeatmapView::isPlaying() const
{
    return m_timer->isActive();
}

QString LinkHeatmapView::binLabel() const
{
    const sim::SimResult* sim = simulation();
    if (!sim || m_binPosition <= 0)
        return QStringLiteral("average over the run");
    const double start = (m_binPosition - 1) * sim->binCycles;
    const double end = std::min(sim->latencyCycles, start + sim->binCycles);
    return QStringLiteral("t = ") + formatTimeInterval(start, end, sim->clockHz);
}

double LinkHeatmapView::shownUtilization(int link) const
{
    if (link < 0 || std::size_t(link) >= m_utilization.size())
        return std::numeric_limits<double>::quiet_NaN();
    return m_utilization[std::size_t(link)];
}

void LinkHeatmapView::rebuild()
{
    if (m_run.get() != m_shownRun || m_designIndex != m_shownDesign) {
        m_shownRun = m_run.get();
        m_shownDesign = m_designIndex;
        m_shownStep = -1;
        rebuildMap();
    }
    // An op selected elsewhere: show the link load while it executes.
    const sim::SimResult* sim = simulation();
    if (m_selectedStep != m_shownStep) {
        m_shownStep = m_selectedStep;
        const int designStep = designStepOf(m_selectedStep);
        if (sim && designStep >= 0 && std::size_t(designStep) < sim->steps.size() && sim->binCycles > 0
            && !isPlaying()) {
            const auto& execute = sim->steps[std::size_t(designStep)].execute;
            const int bin = int((execute.startCycles + execute.endCycles) / 2 / sim->binCycles);
            m_slider->setValue(std::clamp(bin + 1, 1, binCount()));
        }
    }
    refresh();
}

void LinkHeatmapView::rebuildMap()
{
    pause();
    QCustomPlot* p = plot();
    p->clearItems();
    m_layout.reset();
    m_selectedLink = -1;
    const sim::SimResult* sim = simulation();
    if (sim && !sim->links.empty())
        m_layout = std::make_shared<LinkMapLayout>(layoutLinkMap(sim->links, m_run->spec.chip));
    m_map->setLayout(m_layout);
    if (m_layout) {
        addLinkMapLabels(p, *m_layout);
        if (auto ticker = m_timePlot->xAxis->ticker().dynamicCast<TimeAxisTicker>())
            ticker->setClockHz(sim->clockHz);
    }
    const QSignalBlocker blocker(m_slider);
    m_slider->setRange(0, binCount());
    m_slider->setValue(0);
    m_binPosition = 0;
    m_play->setEnabled(binCount() > 0);
}

void LinkHeatmapView::setBinPosition(int position)
{
    position = std::clamp(position, 0, binCount());
    if (m_slider->value() != position) {
        m_slider->setValue(position); // re-enters through valueChanged
        return;
    }
    if (position == m_binPosition && !m_utilization.empty())
        return;
    m_binPosition = position;
    refresh();
}

void LinkHeatmapView::refresh()
{
    const sim::SimResult* sim = simulation();
    m_utilization = sim ? linkUtilization(*sim, m_binPosition - 1) : std::vector<float>();
    m_map->setUtilization(m_utilization);
    m_map->setSelectedLink(m_selectedLink);
    m_binLabel->setText(binLabel());
    QString title;
    if (sim) {
        const auto& design = m_run->designs[std::size_t(std::clamp(m_designIndex, 0, int(m_run->designs.size()) - 1))];
        title = QString::fromLatin1(schedule::toString(design.design)) + QStringLiteral(", ") + binLabel();
    }
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    plot()->replot(QCustomPlot::rpQueuedReplot);
    refreshTimePlot();
}

void LinkHeatmapView::refreshTimePlot()
{
    QCPGraph* series = m_timePlot->graph(0);
    series->data()->clear();
    m_timePlot->clearItems();
    const sim::SimResult* sim = simulation();
    const bool haveLink = sim && m_selectedLink >= 0 && std::size_t(m_selectedLink) < sim->links.size();
    m_timePlot->xAxis->setRange(0, sim ? sim->latencyCycles : 1);
    if (auto ticker = m_timePlot->xAxis->ticker().dynamicCast<TimeAxisTicker>())
        m_timePlot->xAxis->setLabel(ticker->axisLabel(m_timePlot->xAxis->range()));
    auto* caption = new QCPItemText(m_timePlot);
    caption->position->setType(QCPItemPosition::ptAxisRectRatio);
    caption->position->setCoords(0.005, 0.02);
    caption->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    caption->setClipToAxisRect(true);
    if (m_coreMap) {
        m_timePlot->removePlottable(m_coreMap);
        m_coreMap = nullptr;
    }
    m_timePlot->yAxis->setLabel(QStringLiteral("utilisation (%)"));
    m_timePlot->yAxis->setRange(0, 105);
    if (!haveLink) {
        // On an all-to-all chip every core's port does the same work in the map above; what varies is
        // the load over time, so show every core's ingress port × time until a link is picked.
        const bool allToAll = sim && m_run->spec.chip.interconnect.topology == chip::Topology::AllToAll;
        if (allToAll && showCoreLoadOverTime(*sim)) {
            caption->setText(QStringLiteral("every core's ingress port over time (click a core for one)"));
            caption->setBrush(QColor(255, 255, 255, 210)); // readable over the map
        } else {
            caption->setText(QStringLiteral("click a link or core to plot its utilisation over time"));
        }
        caption->setColor(QColor(0x60, 0x60, 0x60));
        m_timePlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    caption->setText(QString::fromStdString(sim->links[std::size_t(m_selectedLink)].name));
    const std::vector<float> values = linkUtilizationOverTime(*sim, m_selectedLink);
    QVector<double> keys, percents;
    for (std::size_t bin = 0; bin < values.size(); ++bin) {
        keys << double(bin) * sim->binCycles;
        percents << double(values[bin]) * 100;
    }
    if (!values.empty()) {
        keys << std::min(sim->latencyCycles, double(values.size()) * sim->binCycles);
        percents << percents.back();
    }
    series->setData(keys, percents, true);
    if (m_binPosition > 0) { // the bin on the map
        auto* band = new QCPItemRect(m_timePlot);
        band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        band->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const double start = (m_binPosition - 1) * sim->binCycles;
        band->topLeft->setCoords(start, 0);
        band->bottomRight->setCoords(start + sim->binCycles, 1);
        band->setPen(QPen(QColor(0x30, 0x30, 0x30), 0));
        band->setBrush(QColor(0, 0, 0, 40));
    }
    m_timePlot->replot(QCustomPlot::rpQueuedReplot);
}

bool LinkHeatmapView::showCoreLoadOverTime(const sim::SimResult& sim)
{
    // Ingress ports by core id: the rows of the map.
    std::vector<std::pair<int, std::size_t>> ports; // (core, position in binLinks)
    for (std::size_t i = 0; i < sim.binLinks.size(); ++i) {
        const sim::LinkInfo& link = sim.links[std::size_t(sim.binLinks[i])];
        if (link.kind == sim::LinkKind::CoreIngress)
            ports.emplace_back(link.core, i);
    }
    const int bins = int(sim.linkUtilizationBins.size());
    if (ports.empty() || bins == 0 || sim.binCycles <= 0)
        return false;
    std::sort(ports.begin(), ports.end());
    m_coreMap = new QCPColorMap(m_timePlot->xAxis, m_timePlot->yAxis);
    m_coreMap->setName(QStringLiteral("core load over time"));
    m_coreMap->data()->setSize(bins, int(ports.size()));
    m_coreMap->data()->setRange(
        QCPRange(0.5 * sim.binCycles, (bins - 0.5) * sim.binCycles), QCPRange(0, double(ports.size() - 1)));
    for (int bin = 0; bin < bins; ++bin) {
        const std::vector<float>& row = sim.linkUtilizationBins[std::size_t(bin)];
        for (std::size_t r = 0; r < ports.size(); ++r) {
            const std::size_t at = ports[r].second;
            m_coreMap->data()->setCell(bin, int(r), at < row.size() ? double(row[at]) * 100 : 0.0);
        }
    }
    m_coreMap->setGradient(utilizationGradient());
    m_coreMap->setDataRange(QCPRange(0, 100));
    m_coreMap->setInterpolate(false);
    m_coreMap->setLayer(QStringLiteral("background"));
    m_timePlot->yAxis->setLabel(QStringLiteral("core"));
    m_timePlot->yAxis->setRange(-0.5, double(ports.size()) - 0.5);
    return true;
}

void LinkHeatmapView::selectLink(int link)
{
    const sim::SimResult* sim = simulation();
    m_selectedLink = sim && link >= 0 && std::size_t(link) < sim->links.size() ? link : -1;
    m_map->setSelectedLink(m_selectedLink);
    plot()->replot(QCustomPlot::rpQueuedReplot);
    refreshTimePlot();
}

void LinkHeatmapView::play()
{
    if (binCount() == 0)
        return;
    if (m_binPosition >= binCount())
        setBinPosition(1);
    m_timer->start();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    m_play->setToolTip(QStringLiteral("Pause"));
}

void LinkHeatmapView::pause()
{
    m_timer->stop();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(QStringLiteral("Play the time bins"));
}

void LinkHeatmapView::advance()
{
    if (m_binPosition >= binCount()) {
        pause();
        return;
    }
    setBinPosition(m_binPosition + 1);
}

void LinkHeatmapView::fitMap()
{
    if (m_layout)
        fitLinkMap(plot(), *m_layout);
}

int LinkHeatmapView::linkAt(const QPoint& plotPixel) const
{
    return m_layout ? linkAtPixel(plot(), *m_layout, *m_map, plotPixel) : -1;
}

QPointF LinkHeatmapView::linkCenter(int link) const
{
    return m_layout ? linkCenterPixel(plot(), *m_layout, link) : QPointF();
}

QString LinkHeatmapView::toolTipAt(const QPoint& plotPixel) const
{
    const int link = linkAt(plotPixel);
    const sim::SimResult* sim = simulation();
    if (link < 0 || !sim)
        return {};
    const sim::LinkInfo& info = sim->links[std::size_t(link)];
    const double gbps = info.bytesPerCycle * sim->clockHz / 1e9;
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(QString::fromStdString(info.name).toHtmlEscaped());
    lines << QStringLiteral("%1, %2 GB/s").arg(linkKindText(info.kind), QString::number(gbps, 'f', gbps < 10 ? 2 : 1));
    lines << QStringLiteral("%1: %2").arg(binLabel(), percent(shownUtilization(link)));
    if (m_binPosition > 0)
        lines << QStringLiteral("average over the run: %1").arg(percent(linkUtilization(*sim, -1)[std::size_t(link)]));
    if (std::size_t(link) < sim->linkBytes.size())
        lines << QStringLiteral("%1 MB carried").arg(QString::number(sim->linkBytes[std::size_t(link)] / 1e6, 'f', 2));
    return lines.join(QStringLiteral("<br>"));
}

bool LinkHeatmapView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot() && event->type() == QEvent::Leave && !m_lastToolTip.isEmpty()) {
        m_lastToolTip.clear();
        QToolTip::hideText();
    }
    return PlotView::eventFilter(watched, event);
}

} // namespace elk::widgets
