// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/classroom/classroom_lanes.h" // first: includes qcp.h

#include "widgets/classroom/classroom_view.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScreen>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "engine/run/run_compile.h"
#include "widgets/classroom/classroom_colors.h"
#include "widgets/classroom/sram_gauge.h"

namespace elk::widgets {

namespace {

    // On-screen sizes: read from the back of a room on a projector.
    constexpr double kBasePt = 16;
    constexpr double kCaptionPt = 20;
    constexpr int kBaseIntervalMs = 1000; ///< one event per second at speed 1

    QFont withPointSize(QFont font, double points, bool bold = false)
    {
        font.setPointSizeF(points);
        font.setBold(bold);
        return font;
    }

    /// Design colours for text: the light ones (ideal's yellow) darkened to stay readable on white.
    QColor textColor(const QString& design)
    {
        const QColor color = designColor(design);
        return color.lightnessF() > 0.55 ? color.darker(190) : color;
    }

    QString noEventText(const run::DesignRun& design)
    {
        if (!design.error.empty())
            return QStringLiteral("No timeline: %1").arg(QString::fromStdString(design.error));
        return QStringLiteral("No simulated timeline for this design.");
    }

    /// The bars of one design: preloads, executions and the waits for a preload between them.
    std::vector<ClassroomBar> barsOf(const run::RunResult& run, int designIndex, double cyclesPerUnit)
    {
        std::vector<ClassroomBar> bars;
        const run::DesignRun& design = run.designs[std::size_t(designIndex)];
        if (!design.simulated)
            return bars;
        const sim::SimResult& sim = *design.simulated;
        for (std::size_t s = 0; s < sim.steps.size(); ++s) {
            const sim::StepTrace& trace = sim.steps[s];
            const int step = int(s);
            if (trace.preload.length() > 0)
                bars.push_back({ ClassroomBar::Preload, trace.preload.startCycles / cyclesPerUnit,
                    trace.preload.endCycles / cyclesPerUnit, step, false });
            if (s > 0 && trace.waitedFor == "preload") {
                const double from = sim.steps[s - 1].execute.endCycles;
                if (trace.execute.startCycles > from)
                    bars.push_back({ ClassroomBar::Execute, from / cyclesPerUnit,
                        trace.execute.startCycles / cyclesPerUnit, step, true });
            }
            bars.push_back({ ClassroomBar::Execute, trace.execute.startCycles / cyclesPerUnit,
                trace.execute.endCycles / cyclesPerUnit, step, false });
        }
        return bars;
    }

    QString speedText(double eventsPerSecond)
    {
        return eventsPerSecond == 1 ? QStringLiteral("1 event/s") : QStringLiteral("%1 events/s").arg(eventsPerSecond);
    }

} // namespace

ClassroomView::ClassroomView(QWidget* parent)
    : PlotView(parent)
{
    setFocusPolicy(Qt::StrongFocus); // the keys drive the player; child controls take no focus
    setFont(withPointSize(font(), kBasePt));
    plot()->setFont(withPointSize(font(), kBasePt));
    plot()->setObjectName(QStringLiteral("classroom"));

    auto* box = qobject_cast<QVBoxLayout*>(layout());
    box->setSpacing(6);
    box->setContentsMargins(8, 8, 8, 8);
    int position = 0;
    for (Lane& lane : m_lanes)
        box->insertWidget(position++, buildPanel(lane));
    buildControls();

    m_timer.setInterval(kBaseIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_tick + 1 < tickCount())
            setCurrentTick(m_tick + 1);
        else
            pause();
    });
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { m_pressPosition = event->pos(); });
    connect(plot(), &QCustomPlot::mouseRelease, this, &ClassroomView::onPlotReleased);
    connect(plot(), &QCustomPlot::mouseDoubleClick, this, [this] { showWholeRun(); });
    plot()->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // PlotView::exportFigure replots after rendering: the screen layout comes back then.
    connect(plot(), &QCustomPlot::beforeReplot, this, [this] {
        if (m_exportLayout)
            applyScreenLayout();
    });
    rebuild();
}

ClassroomView::~ClassroomView() = default;

QFrame* ClassroomView::buildPanel(Lane& lane)
{
    lane.panel = new QFrame(this);
    lane.panel->setObjectName(QStringLiteral("classroomPanel"));
    lane.panel->setFrameShape(QFrame::NoFrame);
    auto* grid = new QGridLayout(lane.panel);
    grid->setContentsMargins(0, 4, 4, 4);
    grid->setHorizontalSpacing(16);
    grid->setVerticalSpacing(4);
    lane.nameLabel = new QLabel(lane.panel);
    lane.nameLabel->setFont(withPointSize(font(), kCaptionPt, true));
    lane.nameLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    lane.captionLabel = new QLabel(lane.panel);
    lane.captionLabel->setFont(withPointSize(font(), kCaptionPt));
    lane.captionLabel->setTextFormat(Qt::PlainText);
    lane.captionLabel->setWordWrap(true);
    lane.captionLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Two lines always: the plot below does not jump when a caption wraps.
    lane.captionLabel->setMinimumHeight(2 * QFontMetrics(lane.captionLabel->font()).lineSpacing());
    lane.captionLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    auto* sramLabel = new QLabel(QStringLiteral("SRAM per core"), lane.panel);
    sramLabel->setFont(withPointSize(font(), kBasePt));
    sramLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    lane.gauge = new SramGauge(lane.panel);
    lane.gauge->setFont(withPointSize(font(), kBasePt));
    lane.marker = new QWidget(lane.panel);
    lane.marker->setFixedWidth(8);
    lane.marker->setAutoFillBackground(true);
    grid->addWidget(lane.marker, 0, 0, 2, 1);
    grid->addWidget(lane.nameLabel, 0, 1);
    grid->addWidget(lane.captionLabel, 0, 2);
    grid->addWidget(sramLabel, 1, 1);
    grid->addWidget(lane.gauge, 1, 2);
    grid->setColumnStretch(2, 1);
    return lane.panel;
}

void ClassroomView::buildControls()
{
    auto* controls = new QWidget(this);
    auto* row = new QHBoxLayout(controls);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(12);
    const auto button = [this, controls](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(controls);
        b->setIcon(style()->standardIcon(icon));
        b->setIconSize(QSize(40, 40));
        b->setToolTip(tip);
        b->setFocusPolicy(Qt::NoFocus);
        b->setAutoRaise(true);
        return b;
    };
    m_backButton = button(QStyle::SP_MediaSkipBackward, QStringLiteral("Step back (←)"));
    m_playButton = button(QStyle::SP_MediaPlay, QStringLiteral("Play / pause (Space)"));
    m_forwardButton = button(QStyle::SP_MediaSkipForward, QStringLiteral("Step forward (→)"));
    m_speedBox = new QComboBox(controls);
    m_speedBox->setFont(withPointSize(font(), kBasePt));
    m_speedBox->setFocusPolicy(Qt::NoFocus);
    m_speedBox->setToolTip(QStringLiteral("Playback speed"));
    for (double s : speeds())
        m_speedBox->addItem(speedText(s), s);
    m_speedBox->setCurrentIndex(1);
    m_slider = new QSlider(Qt::Horizontal, controls);
    m_slider->setFocusPolicy(Qt::NoFocus);
    m_slider->setToolTip(QStringLiteral("Events of the run, in time order"));
    m_slider->setMinimumHeight(36);
    m_positionLabel = new QLabel(controls);
    m_positionLabel->setFont(withPointSize(font(), kBasePt));
    row->addWidget(m_backButton);
    row->addWidget(m_playButton);
    row->addWidget(m_forwardButton);
    row->addWidget(m_speedBox);
    row->addWidget(m_slider, 1);
    row->addWidget(m_positionLabel);
    layout()->addWidget(controls);

    connect(m_backButton, &QToolButton::clicked, this, &ClassroomView::stepBack);
    connect(m_forwardButton, &QToolButton::clicked, this, &ClassroomView::stepForward);
    connect(m_playButton, &QToolButton::clicked, this, &ClassroomView::togglePlay);
    connect(m_slider, &QSlider::valueChanged, this, &ClassroomView::setCurrentTick);
    connect(m_speedBox, &QComboBox::currentIndexChanged, this,
        [this](int index) { m_timer.setInterval(int(std::lround(kBaseIntervalMs / speeds()[std::size_t(index)]))); });
}

const std::vector<double>& ClassroomView::speeds()
{
    static const std::vector<double> values = { 0.5, 1, 2, 4, 8, 16 };
    return values;
}

void ClassroomView::setSpeed(double eventsPerSecond)
{
    const auto& values = speeds();
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i) {
        if (std::abs(std::log(values[i] / eventsPerSecond)) < std::abs(std::log(values[best] / eventsPerSecond)))
            best = i;
    }
    m_speedBox->setCurrentIndex(int(best));
}

double ClassroomView::speed() const
{
    return speeds()[std::size_t(std::max(0, m_speedBox->currentIndex()))];
}

void ClassroomView::setSecondDesignIndex(int index)
{
    m_secondDesignIndex = index < 0 ? -1 : index;
    rebuild();
}

int ClassroomView::laneDesign(int lane) const
{
    return lane >= 0 && lane < m_laneCount ? m_lanes[std::size_t(lane)].design : -1;
}

const std::vector<ClassroomEvent>& ClassroomView::events(int lane) const
{
    static const std::vector<ClassroomEvent> none;
    return lane >= 0 && lane < m_laneCount ? m_lanes[std::size_t(lane)].events : none;
}

SramGauge* ClassroomView::gauge(int lane) const
{
    return lane >= 0 && lane < 2 ? m_lanes[std::size_t(lane)].gauge : nullptr;
}

double ClassroomView::cursorCycles() const
{
    return m_ticks.empty() ? 0.0 : m_ticks[std::size_t(m_tick)].atCycles;
}

int ClassroomView::currentEvent(int lane) const
{
    if (lane < 0 || lane >= m_laneCount || m_ticks.empty())
        return -1;
    return classroomEventsAtTick(m_ticks, m_tick, std::size_t(m_laneCount))[std::size_t(lane)];
}

QString ClassroomView::caption(int lane) const
{
    if (lane < 0 || lane >= m_laneCount)
        return {};
    return m_lanes[std::size_t(lane)].captionLabel->text();
}

void ClassroomView::rebuild()
{
    const int designCount = m_run ? int(m_run->designs.size()) : 0;
    const int first = designCount > 0 ? std::clamp(m_designIndex, 0, designCount - 1) : -1;
    const int second = m_secondDesignIndex >= 0 && m_secondDesignIndex < designCount && m_secondDesignIndex != first
        ? m_secondDesignIndex
        : -1;
    if (m_run.get() == m_builtRun && first == m_builtDesign && second == m_builtSecond) {
        if (m_selectedStep != m_builtSelected) { // only the selection changed: move the cursor there
            m_builtSelected = m_selectedStep;
            jumpToStep(designStepOf(m_selectedStep));
        }
        return;
    }
    // Keep the instant the class is looking at (an edited run, another design to compare): the
    // new cursor is the last event at or before it; from the very start stays at the start.
    const bool atStart = m_ticks.empty() || m_tick == 0;
    const double keptCycles = cursorCycles();
    m_builtRun = m_run.get();
    m_builtDesign = first;
    m_builtSecond = second;
    m_builtSelected = m_selectedStep;

    m_laneCount = 0;
    for (Lane& lane : m_lanes) {
        lane.design = -1;
        lane.events.clear();
        lane.emptyText.clear();
    }
    double latencyCycles = 0;
    for (int design : { first, second }) {
        if (design < 0)
            continue;
        Lane& lane = m_lanes[std::size_t(m_laneCount++)];
        const run::DesignRun& run = m_run->designs[std::size_t(design)];
        lane.design = design;
        lane.name = QString::fromLatin1(schedule::toString(run.design));
        lane.events = classroomEvents(*m_run, design);
        if (lane.events.empty())
            lane.emptyText = noEventText(run);
        if (run.simulated) {
            latencyCycles = std::max(latencyCycles, run.simulated->latencyCycles);
            m_clockHz = run.simulated->clockHz > 0 ? run.simulated->clockHz : m_clockHz;
        }
    }
    // One unit for the whole run: µs up to 2 ms, ms above (the captions pick their own).
    const double latencyUs = latencyCycles / m_clockHz * 1e6;
    m_unit = latencyUs >= 2000 ? QStringLiteral("ms") : QStringLiteral("µs");
    m_cyclesPerUnit = m_clockHz / (latencyUs >= 2000 ? 1e3 : 1e6);

    std::vector<std::vector<ClassroomEvent>> stories;
    for (int l = 0; l < m_laneCount; ++l)
        stories.push_back(m_lanes[std::size_t(l)].events);
    m_ticks = classroomTicks(stories);
    m_tick = 0;
    if (!atStart) {
        while (m_tick + 1 < tickCount() && m_ticks[std::size_t(m_tick + 1)].atCycles <= keptCycles)
            ++m_tick;
    }
    if (m_ticks.empty())
        pause();

    for (int l = 0; l < 2; ++l) {
        Lane& lane = m_lanes[std::size_t(l)];
        lane.panel->setVisible(l < std::max(1, m_laneCount));
        lane.nameLabel->setText(l < m_laneCount ? lane.name : QString());
        QPalette palette = lane.nameLabel->palette();
        palette.setColor(QPalette::WindowText, textColor(lane.name));
        lane.nameLabel->setPalette(palette);
    }
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setRange(0, std::max(0, tickCount() - 1));
        m_slider->setValue(m_tick);
    }
    // Wide enough for the longest position text, so the slider does not jitter while playing.
    const QString widest
        = QStringLiteral("event %1 of %1 · 888 ms").arg(QString(QString::number(tickCount()).size(), QLatin1Char('8')));
    m_positionLabel->setMinimumWidth(QFontMetrics(m_positionLabel->font()).horizontalAdvance(widest) + 8);
    for (QWidget* control : { static_cast<QWidget*>(m_backButton), static_cast<QWidget*>(m_playButton),
             static_cast<QWidget*>(m_forwardButton), static_cast<QWidget*>(m_slider) })
        control->setEnabled(!m_ticks.empty());
    buildPlot();
    updateCursor();
}

void ClassroomView::buildPlot()
{
    QCustomPlot* p = plot();
    p->clearItems();
    p->clearPlottables();
    p->plotLayout()->clear();
    delete m_marginGroup; // its rects are gone with the layout
    m_marginGroup = nullptr;
    m_timeLabel = nullptr;
    m_legend = nullptr;
    m_exportLayout = false;
    for (Lane& lane : m_lanes) {
        lane.rect = nullptr;
        lane.lanes = nullptr;
        lane.cursor = nullptr;
    }
    p->plotLayout()->setRowSpacing(2);
    if (m_laneCount == 0) {
        auto* empty = new QCPTextElement(p, m_run ? QStringLiteral("No design to show") : QStringLiteral("No run yet"),
            withPointSize(p->font(), kBasePt));
        p->plotLayout()->addElement(0, 0, empty);
        p->replot();
        return;
    }

    m_marginGroup = new QCPMarginGroup(p);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(0, QStringLiteral("execute"));
    ticker->addTick(1, QStringLiteral("preload"));
    double upper = 0;
    int row = 0;
    for (int l = 0; l < m_laneCount; ++l) {
        Lane& lane = m_lanes[std::size_t(l)];
        const run::DesignRun& run = m_run->designs[std::size_t(lane.design)];
        QString title = lane.name;
        if (run.simulated)
            title
                += QStringLiteral(" · latency %1")
                       .arg(QString::fromStdString(formatMicroseconds(run.simulated->latencyCycles / m_clockHz * 1e6)));
        auto* titleElement = new QCPTextElement(p, title, withPointSize(p->font(), kBasePt, true));
        titleElement->setTextColor(textColor(lane.name));
        titleElement->setMargins(QMargins(0, 2, 0, 0));
        p->plotLayout()->addElement(row++, 0, titleElement);

        lane.rect = new QCPAxisRect(p);
        p->plotLayout()->addElement(row++, 0, lane.rect);
        lane.rect->setMarginGroup(QCP::msLeft | QCP::msRight, m_marginGroup);
        // Lanes may get thin in a small figure; the text around them must not be squeezed.
        lane.rect->setMinimumSize(50, 16);
        QCPAxis* x = lane.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = lane.rect->axis(QCPAxis::atLeft);
        y->setTicker(ticker);
        y->setSubTicks(false);
        y->grid()->setVisible(false);
        y->setRange(-0.5, 1.5);
        y->setTickLength(0, 0);
        x->grid()->setVisible(true);
        if (l == m_laneCount - 1) // one axis title, under the last design
            x->setLabel(QStringLiteral("time (%1)").arg(m_unit));
        lane.lanes = new ClassroomLanes(x, y);
        lane.lanes->setBars(barsOf(*m_run, lane.design, m_cyclesPerUnit));
        if (run.simulated)
            upper = std::max(upper, toUnit(run.simulated->latencyCycles));

        lane.cursor = new QCPItemStraightLine(p);
        lane.cursor->setClipAxisRect(lane.rect);
        lane.cursor->point1->setAxes(x, y);
        lane.cursor->point2->setAxes(x, y);
        lane.cursor->setPen(QPen(Qt::black, 3));
    }
    m_fullUpper = upper > 0 ? upper * 1.04 : 1;
    for (int l = 0; l < m_laneCount; ++l) {
        QCPAxisRect* rect = m_lanes[std::size_t(l)].rect;
        rect->axis(QCPAxis::atBottom)->setRange(0, m_fullUpper);
        // Wheel and drag move time only; every design follows (one time scale).
        rect->setRangeZoom(Qt::Horizontal);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoomAxes(rect->axis(QCPAxis::atBottom), nullptr);
        rect->setRangeDragAxes(rect->axis(QCPAxis::atBottom), nullptr);
        connect(rect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange& range) { setVisibleRange(range.lower, range.upper); });
    }

    // The cursor's time, at the top of the first design's lanes.
    QCPAxisRect* top = m_lanes[0].rect;
    m_timeLabel = new QCPItemText(p);
    m_timeLabel->setClipToAxisRect(false); // it sits in the rect's top margin, above the lanes
    m_timeLabel->position->setAxes(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    m_timeLabel->position->setAxisRect(top);
    m_timeLabel->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_timeLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_timeLabel->setFont(withPointSize(p->font(), kBasePt, true));
    m_timeLabel->setPadding(QMargins(4, 0, 4, 2));

    // Legend: what the colours and the faded part mean (the class asks).
    auto* legend = new QCPLegend;
    m_legend = legend;
    p->plotLayout()->addElement(row, 0, legend);
    p->plotLayout()->setRowStretchFactor(row++, 0.001); // as tall as its entries, no more
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(withPointSize(p->font(), kBasePt));
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setMargins(QMargins(4, 0, 4, 2));
    const auto entry = [&](const QString& name, const QBrush& brush, const QPen& pen) {
        auto* bars = new QCPBars(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        bars->setName(name);
        bars->setBrush(brush);
        bars->setPen(pen);
        bars->removeFromLegend();
        bars->addToLegend(legend);
    };
    // Short names: the legend also has to fit a one-column figure.
    entry(QStringLiteral("preload"), classroomPreloadColor(), QPen(classroomPreloadColor()));
    entry(QStringLiteral("execute"), classroomExecuteColor(), QPen(classroomExecuteColor()));
    entry(QStringLiteral("waits for preload"), QBrush(classroomStallColor(), Qt::BDiagPattern),
        QPen(classroomStallColor()));
    entry(QStringLiteral("to come"), classroomFaded(classroomExecuteColor()),
        QPen(classroomFaded(classroomExecuteColor())));
    auto* now = new QCPGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    now->setName(QStringLiteral("now"));
    now->setPen(QPen(Qt::black, 3));
    now->removeFromLegend();
    now->addToLegend(legend);
    for (int r = 0; r < row; r += 2) // titles (and the legend) keep their text height
        p->plotLayout()->setRowStretchFactor(r, 0.001);
    applyScreenLayout();
}

int ClassroomView::timeLabelMargin(const QFont& font) const
{
    return QFontMetrics(font).height() + 4;
}

void ClassroomView::applyScreenLayout()
{
    m_exportLayout = false;
    for (int l = 0; l < m_laneCount; ++l)
        m_lanes[std::size_t(l)].rect->axis(QCPAxis::atBottom)->setTickLabels(true);
    if (m_laneCount > 0 && m_timeLabel) // room above the lanes for the cursor's time
        m_lanes[0].rect->setMinimumMargins(QMargins(0, timeLabelMargin(m_timeLabel->font()), 0, 0));
    if (m_legend) { // one row
        m_legend->setWrap(5);
        m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-places the entries
    }
}

void ClassroomView::updateCursor()
{
    const std::vector<int> current = classroomEventsAtTick(m_ticks, m_tick, std::size_t(m_laneCount));
    const double cursor = toUnit(cursorCycles());
    const int movingLane = m_ticks.empty() ? -1 : m_ticks[std::size_t(m_tick)].lane;
    for (int l = 0; l < 2; ++l) {
        Lane& lane = m_lanes[std::size_t(l)];
        const int index = l < m_laneCount ? current[std::size_t(l)] : -1;
        const ClassroomEvent* event = index >= 0 ? &lane.events[std::size_t(index)] : nullptr;
        if (event)
            lane.captionLabel->setText(QString::fromStdString(event->caption));
        else if (l < m_laneCount)
            lane.captionLabel->setText(
                lane.emptyText.isEmpty() ? QStringLiteral("Not started yet: press Space or →.") : lane.emptyText);
        else
            lane.captionLabel->setText(m_run ? QStringLiteral("No design to show.")
                                             : QStringLiteral("No run yet: run a model to watch its timeline."));
        if (event)
            lane.gauge->setSram(event->sram);
        else
            lane.gauge->clear();
        // A bar on the left marks the design whose event the last step showed.
        QPalette markPalette = lane.marker->palette();
        markPalette.setColor(QPalette::Window,
            l == movingLane && m_laneCount > 1 ? designColor(lane.name) : palette().color(QPalette::Window));
        lane.marker->setPalette(markPalette);
        if (!lane.lanes)
            continue;
        lane.lanes->setCursor(cursor);
        if (event)
            lane.lanes->setCurrentSteps(event->executing, event->preloading);
        else
            lane.lanes->setCurrentSteps({}, {});
        lane.cursor->point1->setCoords(cursor, 0);
        lane.cursor->point2->setCoords(cursor, 1);
    }
    if (m_laneCount > 0) { // follow the cursor: when it leaves the view, bring it back at a third
        const QCPRange range = m_lanes[0].rect->axis(QCPAxis::atBottom)->range();
        if (cursor < range.lower || cursor > range.upper)
            setVisibleRange(cursor - range.size() / 3, cursor + 2 * range.size() / 3);
    }
    if (m_timeLabel) {
        const QCPRange range = m_lanes[0].rect->axis(QCPAxis::atBottom)->range();
        const bool right = cursor > range.lower + 0.7 * range.size();
        m_timeLabel->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        m_timeLabel->position->setCoords(cursor, 0);
        m_timeLabel->setText(QStringLiteral("now: %1").arg(
            QString::fromStdString(formatMicroseconds(cursorCycles() / m_clockHz * 1e6))));
    }
    {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(m_tick);
    }
    m_positionLabel->setText(m_ticks.empty()
            ? QString()
            : QStringLiteral("event %1 of %2 · %3")
                  .arg(m_tick + 1)
                  .arg(tickCount())
                  .arg(QString::fromStdString(formatMicroseconds(cursorCycles() / m_clockHz * 1e6))));
    m_backButton->setEnabled(m_tick > 0);
    m_forwardButton->setEnabled(m_tick + 1 < tickCount());
    plot()->replot();
}

void ClassroomView::setCurrentTick(int tick)
{
    if (m_ticks.empty())
        return;
    tick = std::clamp(tick, 0, tickCount() - 1);
    if (tick == m_tick)
        return;
    m_tick = tick;
    updateCursor();
    emit currentTickChanged(m_tick);
}

void ClassroomView::stepForward()
{
    setCurrentTick(m_tick + 1);
}

void ClassroomView::stepBack()
{
    setCurrentTick(m_tick - 1);
}

void ClassroomView::play()
{
    if (m_ticks.empty() || isPlaying())
        return;
    if (m_tick + 1 >= tickCount()) // at the end: play again from the start
        setCurrentTick(0);
    m_timer.start();
    m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    emit playingChanged(true);
}

void ClassroomView::pause()
{
    if (!isPlaying())
        return;
    m_timer.stop();
    m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    emit playingChanged(false);
}

void ClassroomView::togglePlay()
{
    if (isPlaying())
        pause();
    else
        play();
}

void ClassroomView::jumpToStep(int step)
{
    if (step < 0 || m_laneCount == 0)
        return;
    for (std::size_t t = 0; t < m_ticks.size(); ++t) {
        const ClassroomTick& tick = m_ticks[t];
        const ClassroomEvent& event = m_lanes[std::size_t(tick.lane)].events[std::size_t(tick.event)];
        if (tick.lane == 0 && event.step == step && event.kind == ClassroomEventKind::ExecuteStart) {
            setCurrentTick(int(t));
            return;
        }
    }
}

std::pair<double, double> ClassroomView::visibleCycles() const
{
    if (m_laneCount == 0 || !m_lanes[0].rect)
        return { 0.0, 0.0 };
    const QCPRange range = m_lanes[0].rect->axis(QCPAxis::atBottom)->range();
    return { range.lower * m_cyclesPerUnit, range.upper * m_cyclesPerUnit };
}

void ClassroomView::setVisibleRange(double lower, double upper)
{
    if (m_syncingRanges || m_laneCount == 0)
        return;
    // Never past the run, never narrower than a thousandth of it.
    const double span = std::clamp(upper - lower, m_fullUpper / 1000, m_fullUpper);
    lower = std::clamp(lower, 0.0, m_fullUpper - span);
    m_syncingRanges = true;
    for (int l = 0; l < m_laneCount; ++l)
        m_lanes[std::size_t(l)].rect->axis(QCPAxis::atBottom)->setRange(lower, lower + span);
    m_syncingRanges = false;
}

void ClassroomView::showWholeRun()
{
    setVisibleRange(0, m_fullUpper);
    plot()->replot();
}

void ClassroomView::zoomAroundCursor(double factor)
{
    if (m_laneCount == 0)
        return;
    const QCPRange range = m_lanes[0].rect->axis(QCPAxis::atBottom)->range();
    const double cursor = toUnit(cursorCycles());
    const double span = range.size() / factor;
    const double ratio = range.size() > 0 ? std::clamp((cursor - range.lower) / range.size(), 0.0, 1.0) : 0.5;
    setVisibleRange(cursor - ratio * span, cursor + (1 - ratio) * span); // the cursor keeps its place
    plot()->replot();
}

void ClassroomView::onPlotReleased(QMouseEvent* event)
{
    if ((event->pos() - m_pressPosition).manhattanLength() > 4)
        return; // that was a pan

    for (int l = 0; l < m_laneCount; ++l) {
        const ClassroomLanes* lanes = m_lanes[std::size_t(l)].lanes;
        const int step = lanes ? lanes->stepAtPixel(event->position()) : -1;
        if (step < 0)
            continue;
        pause();
        // Selections are steps of the run's reference list; the lane's design may number its own.
        const run::DesignRun& design = m_run->designs[std::size_t(m_lanes[std::size_t(l)].design)];
        m_selectedStep = run::correspondingStep(m_run->problemOf(design), step, m_run->problem);
        m_builtSelected = m_selectedStep;
        jumpToStep(designStepOf(m_selectedStep));
        emit stepSelected(m_selectedStep);
        return;
    }
}

void ClassroomView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Space:
        togglePlay();
        break;
    case Qt::Key_Right:
        pause();
        stepForward();
        break;
    case Qt::Key_Left:
        pause();
        stepBack();
        break;
    case Qt::Key_Home:
        pause();
        setCurrentTick(0);
        break;
    case Qt::Key_End:
        pause();
        setCurrentTick(tickCount() - 1);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAroundCursor(2);
        break;
    case Qt::Key_Minus:
        zoomAroundCursor(0.5);
        break;
    case Qt::Key_0:
        showWholeRun();
        break;
    default:
        PlotView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void ClassroomView::applyStyle(const FigureStyle& style)
{
    PlotView::applyStyle(style);
    // The base style draws lines 0.6 pt; the cursor is the point of the figure: 1.5 pt (export paints
    // at the screen's logical DPI, see plot_view.cpp).
    const QScreen* screen = QGuiApplication::primaryScreen();
    const double dpi = screen && screen->logicalDotsPerInchY() > 0 ? screen->logicalDotsPerInchY() : 96.0;
    for (int l = 0; l < m_laneCount; ++l) {
        if (QCPItemStraightLine* cursor = m_lanes[std::size_t(l)].cursor)
            cursor->setPen(QPen(Qt::black, 1.5 * dpi / 72.0));
    }
    // A figure has less room than a screen: one time axis under the last design, the time label's
    // margin at the figure's font, and the legend in two rows when the figure is a column wide.
    if (m_laneCount == 0)
        return;
    m_exportLayout = true;
    for (int l = 0; l + 1 < m_laneCount; ++l)
        m_lanes[std::size_t(l)].rect->axis(QCPAxis::atBottom)->setTickLabels(false);
    if (m_timeLabel)
        m_lanes[0].rect->setMinimumMargins(QMargins(0, timeLabelMargin(m_timeLabel->font()), 0, 0));
    if (m_legend) {
        m_legend->setWrap(style.widthCm < 12 ? 3 : 5);
        m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

} // namespace elk::widgets
