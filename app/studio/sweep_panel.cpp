// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/sweep_panel.h"

#include "engine/run/chips.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "engine/run/sweep.h"
#include "engine/store/sweep_recorded.h"
#include "widgets/plots/sweep_view.h"

namespace elk::app {

namespace {
    constexpr int kMaxPoints = 400; // a 20 × 20 grid: beyond that the plot says nothing more

    QString numberText(double value)
    {
        return QString::number(value, 'g', 12);
    }

    /// "Latency vs HBM bandwidth (2–18 TB/s on ipu-pod4-hbm)" → "HBM bandwidth": what the study varies.
    QString presetLabel(QString title)
    {
        const QString prefix = QStringLiteral("Latency vs ");
        if (title.startsWith(prefix))
            title = title.mid(prefix.size());
        if (const int bracket = int(title.indexOf(QLatin1String(" ("))); bracket > 0)
            title.truncate(bracket);
        if (!title.isEmpty())
            title[0] = title[0].toUpper();
        return title;
    }

    int axisPointCount(double start, double stop, double step)
    {
        if (step <= 0 || stop < start)
            return 0;
        return int(std::floor((stop - start) / step + 1e-9)) + 1;
    }
} // namespace

const std::vector<SweepPanel::Field>& SweepPanel::fields()
{
    // The sweepable chip fields, declared once in engine/chip/chip_fields.cpp.
    static const std::vector<Field> list = [] {
        std::vector<Field> out;
        for (const elk::chip::ChipField& row : elk::chip::chipFields()) {
            if (!row.sweepable)
                continue;
            out.push_back({ QString::fromStdString(row.dotted()),
                QString::fromUtf8(row.axisLabel.data(), qsizetype(row.axisLabel.size())), row.integer(),
                [&row](const elk::chip::ChipSpec& spec) { return row.get(spec); } });
        }
        return out;
    }();
    return list;
}

SweepPanel::SweepPanel(QWidget* parent)
    : QWidget(parent)
    , m_job(new SweepJob(this))
    , m_view(new elk::widgets::SweepView)
    , m_secondEnabled(new QCheckBox(tr("and")))
    , m_run(new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Run sweep")))
    , m_cancel(new QPushButton(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cancel")))
    , m_status(new QLabel)
{
    setObjectName(QStringLiteral("sweepPanel"));
    m_run->setObjectName(QStringLiteral("runSweep"));
    m_cancel->setObjectName(QStringLiteral("cancelSweep"));
    m_status->setObjectName(QStringLiteral("sweepStatus"));
    m_secondEnabled->setObjectName(QStringLiteral("secondAxis"));
    m_secondEnabled->setToolTip(tr("Vary a second field too: a 2-D grid, shown as a heatmap"));

    auto* presets = new QHBoxLayout;
    presets->addWidget(new QLabel(tr("Studies:")));
    for (const elk::run::SweepPreset& preset : elk::run::sweepPresets()) {
        auto* button = new QPushButton(presetLabel(QString::fromStdString(preset.title)));
        button->setObjectName(QStringLiteral("preset-") + QString::fromStdString(preset.name));
        QStringList varies;
        for (const std::string& vary : preset.varySpecs)
            varies << QString::fromStdString(vary);
        button->setToolTip(
            QString::fromStdString(preset.title) + QStringLiteral("\n") + varies.join(QLatin1Char('\n')));
        connect(button, &QPushButton::clicked, this,
            [this, name = preset.name] { runPreset(QString::fromStdString(name)); });
        presets->addWidget(button);
        m_presetButtons.push_back(button);
    }
    presets->addStretch(1);

    auto* first = buildAxisRow(m_axes[0], 0);
    m_secondRow = buildAxisRow(m_axes[1], 1);
    auto* secondLine = new QHBoxLayout;
    secondLine->addWidget(m_secondEnabled);
    secondLine->addWidget(m_secondRow, 1);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    m_openRecorded = new QPushButton(tr("Open recorded sweep\u2026"));
    m_openRecorded->setObjectName(QStringLiteral("openRecordedSweep"));
    m_openRecorded->setToolTip(tr("Show a sweep the result cache holds (an earlier one, or shards and MPI ranks "
                                  "merged with elk cache merge), without running it again"));
    buttons->addWidget(m_openRecorded);
    m_openRecordedFile = new QPushButton(tr("From cache file\u2026"));
    m_openRecordedFile->setObjectName(QStringLiteral("openRecordedSweepFile"));
    m_openRecordedFile->setToolTip(tr("Open a recorded sweep from another result cache file, e.g. one merged from "
                                      "shards with elk cache merge"));
    buttons->addWidget(m_openRecordedFile);
    buttons->addWidget(m_status, 1);

    auto* controls = new QVBoxLayout;
    controls->addLayout(presets);
    controls->addWidget(first);
    controls->addLayout(secondLine);
    controls->addLayout(buttons);

    // Before the first sweep the plot would be empty 0–5 axes: say what the page does instead.
    m_hint = new QLabel(tr("Run a sweep to see how latency changes with a chip field.\n\n"
                           "The study buttons above run the paper's studies in one click: latency against HBM "
                           "bandwidth, NoC link bandwidth, core count, or all-to-all against a 2D mesh. Or pick a "
                           "field and its range above and press Run sweep; tick \u201cand\u201d to vary a second "
                           "field (a heatmap). Every point runs all designs, in parallel, through the result cache. "
                           "Open recorded sweep shows one the cache already holds, such as shards merged with "
                           "elk cache merge."));
    m_hint->setObjectName(QStringLiteral("sweepHint"));
    m_hint->setWordWrap(true);
    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setMargin(24);
    QPalette hintPalette = m_hint->palette();
    hintPalette.setColor(QPalette::WindowText, hintPalette.color(QPalette::PlaceholderText));
    m_hint->setPalette(hintPalette);
    m_viewStack = new QStackedWidget;
    m_viewStack->addWidget(m_hint);
    m_viewStack->addWidget(m_view);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_viewStack, 1);

    connect(m_secondEnabled, &QCheckBox::toggled, this, &SweepPanel::setSecondAxisEnabled);
    connect(m_run, &QPushButton::clicked, this, &SweepPanel::runSweep);
    connect(m_cancel, &QPushButton::clicked, this, &SweepPanel::cancel);
    connect(m_openRecorded, &QPushButton::clicked, this, &SweepPanel::chooseRecorded);
    connect(m_openRecordedFile, &QPushButton::clicked, this, &SweepPanel::chooseRecordedFromFile);
    connect(m_job, &SweepJob::updated, this, &SweepPanel::onUpdated);
    connect(m_job, &SweepJob::finished, this, [this](const SweepSnapshotPtr& sweep, double seconds) {
        onEnded(sweep, tr("in %1 s").arg(seconds, 0, 'f', 1));
    });
    connect(
        m_job, &SweepJob::cancelled, this, [this](const SweepSnapshotPtr& sweep) { onEnded(sweep, tr("cancelled")); });
    connect(m_job, &SweepJob::failed, this, [this](const QString& message) {
        setBusy(false);
        m_status->setText(message.section(QLatin1Char('\n'), 0, 0));
        emit statusMessage(tr("Sweep failed: %1").arg(message));
    });

    // HBM bandwidth, and NoC link bandwidth as the second axis: the paper's 2-D study.
    m_axes[0].field->setCurrentIndex(m_axes[0].field->findData(QStringLiteral("hbm.bandwidthGBpsPerStack")));
    m_axes[1].field->setCurrentIndex(
        m_axes[1].field->findData(QStringLiteral("interconnect.linkBandwidthGBpsPerCore")));
    setSecondAxisEnabled(false);
    setBusy(false);
    updateCounts();
}

QWidget* SweepPanel::buildAxisRow(AxisControls& axis, int index)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    axis.field = new QComboBox;
    axis.field->setObjectName(QStringLiteral("sweepField%1").arg(index));
    for (const Field& field : fields())
        axis.field->addItem(field.label, field.field);
    auto spin = [](const char* name, int axisIndex) {
        auto* box = new QDoubleSpinBox;
        box->setObjectName(QStringLiteral("%1%2").arg(QLatin1String(name)).arg(axisIndex));
        box->setRange(0, 1e15);
        box->setDecimals(2);
        box->setMinimumWidth(110);
        return box;
    };
    axis.start = spin("sweepStart", index);
    axis.stop = spin("sweepStop", index);
    axis.step = spin("sweepStep", index);
    axis.count = new QLabel;
    layout->addWidget(axis.field, 2);
    layout->addWidget(new QLabel(tr("from")));
    layout->addWidget(axis.start, 1);
    layout->addWidget(new QLabel(tr("to")));
    layout->addWidget(axis.stop, 1);
    layout->addWidget(new QLabel(tr("step")));
    layout->addWidget(axis.step, 1);
    layout->addWidget(axis.count);
    connect(axis.field, &QComboBox::activated, this, [this, index] { onFieldChosen(index); });
    for (QDoubleSpinBox* box : { axis.start, axis.stop, axis.step })
        connect(box, &QDoubleSpinBox::valueChanged, this, &SweepPanel::updateCounts);
    return row;
}

void SweepPanel::setSecondAxisEnabled(bool enabled)
{
    m_secondEnabled->setChecked(enabled);
    m_secondRow->setEnabled(enabled);
    if (enabled && m_axes[1].step->value() <= 0)
        onFieldChosen(1);
    updateCounts();
}

void SweepPanel::showEvent(QShowEvent* event)
{
    // Ranges around the chip's values, once there is a chip to take them from.
    for (int axis = 0; axis < 2; ++axis) {
        if (m_axes[axis].step->value() <= 0)
            onFieldChosen(axis);
    }
    QWidget::showEvent(event);
}

void SweepPanel::onFieldChosen(int axis)
{
    // A range around the current chip's value: ¼× to 2× in eight points.
    const Field& field = fields()[std::size_t(m_axes[axis].field->currentIndex())];
    double value = 1;
    if (m_baseProvider) {
        const SweepBase base = m_baseProvider();
        if (base.error.isEmpty())
            value = field.value(base.chip);
    }
    double start = value / 4, stop = value * 2, step = (stop - start) / 7;
    if (field.integer) {
        start = std::max(1.0, std::round(start));
        stop = std::max(start, std::round(stop));
        step = std::max(1.0, std::round(step));
    }
    setAxis(axis, field.field, start, stop, step);
}

void SweepPanel::setAxis(int axis, const QString& field, double start, double stop, double step)
{
    AxisControls& controls = m_axes[axis];
    const int index = controls.field->findData(field);
    if (index >= 0)
        controls.field->setCurrentIndex(index);
    const bool integer = index >= 0 && fields()[std::size_t(index)].integer;
    for (QDoubleSpinBox* box : { controls.start, controls.stop, controls.step })
        box->setDecimals(integer ? 0 : 2);
    controls.start->setValue(start);
    controls.stop->setValue(stop);
    controls.step->setValue(step);
    updateCounts();
}

void SweepPanel::updateCounts()
{
    int total = 1;
    for (int a = 0; a < 2; ++a) {
        const AxisControls& axis = m_axes[a];
        const int count = axisPointCount(axis.start->value(), axis.stop->value(), axis.step->value());
        axis.count->setText(tr("%n point(s)", nullptr, count));
        if (a == 0 || m_secondEnabled->isChecked())
            total *= count;
    }
    m_run->setToolTip(
        tr("Run %n grid point(s) in the background (served from the result cache when repeated)", nullptr, total));
}

std::vector<elk::run::SweepAxis> SweepPanel::axesFromControls(QString* error) const
{
    std::vector<elk::run::SweepAxis> axes;
    int total = 1;
    for (int a = 0; a < (m_secondEnabled->isChecked() ? 2 : 1); ++a) {
        const AxisControls& controls = m_axes[a];
        const QString text = controls.field->currentData().toString() + QLatin1Char('=')
            + numberText(controls.start->value()) + QLatin1Char(':') + numberText(controls.stop->value())
            + QLatin1Char(':') + numberText(controls.step->value());
        elk::run::SweepAxisParse parsed = elk::run::parseSweepAxis(text.toStdString());
        if (!parsed.ok()) {
            if (error)
                *error = QString::fromStdString(parsed.error);
            return {};
        }
        total *= int(parsed.axis.values.size());
        axes.push_back(std::move(parsed.axis));
    }
    if (axes.size() == 2 && axes[0].field == axes[1].field) {
        if (error)
            *error = tr("the two axes vary the same field");
        return {};
    }
    if (total > kMaxPoints) {
        if (error)
            *error = tr("%1 grid points; at most %2 (use a larger step)").arg(total).arg(kMaxPoints);
        return {};
    }
    return axes;
}

void SweepPanel::runSweep()
{
    QString error;
    std::vector<elk::run::SweepAxis> axes = axesFromControls(&error);
    if (axes.empty()) {
        m_status->setText(error);
        return;
    }
    start(std::move(axes));
}

bool SweepPanel::runPreset(const QString& name)
{
    for (const elk::run::SweepPreset& preset : elk::run::sweepPresets()) {
        if (QString::fromStdString(preset.name) != name)
            continue;
        std::vector<elk::run::SweepAxis> axes;
        for (const std::string& vary : preset.varySpecs) {
            elk::run::SweepAxisParse parsed = elk::run::parseSweepAxis(vary);
            if (!parsed.ok()) {
                m_status->setText(QString::fromStdString(parsed.error));
                return false;
            }
            axes.push_back(std::move(parsed.axis));
        }
        // Show numeric preset ranges in the controls too, so they can be adjusted and rerun.
        const QString vary = QString::fromStdString(preset.varySpecs.front());
        const QStringList range = vary.section(QLatin1Char('='), 1).split(QLatin1Char(':'));
        if (preset.varySpecs.size() == 1 && range.size() == 3) {
            setSecondAxisEnabled(false);
            setAxis(
                0, vary.section(QLatin1Char('='), 0, 0), range[0].toDouble(), range[1].toDouble(), range[2].toDouble());
        }
        start(std::move(axes));
        return true;
    }
    m_status->setText(tr("no study named '%1'").arg(name));
    return false;
}

void SweepPanel::start(std::vector<elk::run::SweepAxis> axes)
{
    if (!m_baseProvider) {
        m_status->setText(tr("Nothing to sweep."));
        return;
    }
    const SweepBase base = m_baseProvider();
    if (!base.error.isEmpty()) {
        m_status->setText(base.error);
        emit statusMessage(tr("Cannot sweep: %1").arg(base.error));
        return;
    }
    m_pointCount = 1;
    for (const elk::run::SweepAxis& axis : axes)
        m_pointCount *= int(axis.values.size());
    setBusy(true);
    m_status->setText(tr("0 of %1 points…").arg(m_pointCount));
    m_view->setSweep(nullptr);
    m_viewStack->setCurrentWidget(m_view);
    m_job->start(base.request, std::move(axes), base.chip);
}

void SweepPanel::cancel()
{
    m_job->cancel();
}

void SweepPanel::chooseRecorded()
{
    if (m_store == nullptr) {
        m_status->setText(tr("No result cache: nothing recorded."));
        return;
    }
    if (const QString hash = pickSweep(*m_store); !hash.isEmpty())
        openRecorded(hash);
}

void SweepPanel::chooseRecordedFromFile()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Result cache file"), QString(), tr("Result caches (*.sqlite);;All files (*)"));
    if (file.isEmpty())
        return;
    elk::store::OpenResult opened = elk::store::ResultStore::openExisting(file.toStdString());
    if (!opened.store) {
        m_status->setText(QString::fromStdString(opened.error));
        return;
    }
    if (const QString hash = pickSweep(*opened.store); !hash.isEmpty())
        showRecorded(*opened.store, hash);
}

QString SweepPanel::pickSweep(elk::store::ResultStore& store)
{
    const std::vector<elk::store::SweepRecordInfo> sweeps = store.sweeps();
    if (sweeps.empty()) {
        m_status->setText(tr("%1 holds no recorded sweep.").arg(QString::fromStdString(store.path())));
        return {};
    }
    QStringList items;
    for (const elk::store::SweepRecordInfo& sweep : sweeps) {
        items << tr("%1 \u2014 %2 of %3 points \u2014 %4 [%5]")
                     .arg(QString::fromStdString(sweep.title))
                     .arg(sweep.recordedPoints)
                     .arg(sweep.gridPoints)
                     .arg(QString::fromStdString(sweep.createdUtc),
                         QString::fromStdString(sweep.sweepHash.substr(0, 12)));
    }
    bool ok = false;
    const QString item = QInputDialog::getItem(this, tr("Open recorded sweep"),
        tr("Sweeps in %1:").arg(QString::fromStdString(store.path())), items, 0, false, &ok);
    if (!ok)
        return {};
    return QString::fromStdString(sweeps[std::size_t(items.indexOf(item))].sweepHash);
}

bool SweepPanel::openRecordedFrom(const QString& cacheFile, const QString& hashOrPrefix)
{
    elk::store::OpenResult opened = elk::store::ResultStore::openExisting(cacheFile.toStdString());
    if (!opened.store) {
        m_status->setText(QString::fromStdString(opened.error));
        return false;
    }
    return showRecorded(*opened.store, hashOrPrefix);
}

bool SweepPanel::openRecorded(const QString& hashOrPrefix)
{
    if (m_store == nullptr) {
        m_status->setText(tr("No result cache: nothing recorded."));
        return false;
    }
    return showRecorded(*m_store, hashOrPrefix);
}

bool SweepPanel::showRecorded(elk::store::ResultStore& store, const QString& hashOrPrefix)
{
    if (m_job->isRunning()) {
        m_status->setText(tr("A sweep is running."));
        return false;
    }
    std::string error;
    std::optional<elk::store::RecordedSweep> recorded
        = elk::store::openRecordedSweep(store, hashOrPrefix.toStdString(), error);
    if (!recorded) {
        m_status->setText(QString::fromStdString(error));
        return false;
    }
    m_pointCount = int(recorded->result.points.size());
    m_view->setSweep(std::make_shared<const elk::run::SweepResult>(std::move(recorded->result)));
    m_viewStack->setCurrentWidget(m_view);
    const QString text = tr("Recorded sweep %1: %2 of %3 points from the cache")
                             .arg(QString::fromStdString(recorded->info.title))
                             .arg(recorded->pointsWithResult)
                             .arg(m_pointCount);
    m_status->setText(text);
    emit statusMessage(text);
    return true;
}

void SweepPanel::onUpdated(const SweepSnapshotPtr& sweep)
{
    m_view->setSweep(sweep);
    m_status->setText(tr("%1 of %2 points…").arg(sweep->doneCount()).arg(m_pointCount));
}

void SweepPanel::onEnded(const SweepSnapshotPtr& sweep, const QString& how)
{
    setBusy(false);
    if (sweep)
        m_view->setSweep(sweep);
    int cached = 0, failed = 0;
    if (sweep) {
        for (const elk::run::SweepPoint& point : sweep->points) {
            cached += point.done && point.fromCache ? 1 : 0;
            failed += point.done && !point.error.empty() ? 1 : 0;
        }
    }
    const int done = sweep ? sweep->doneCount() : 0;
    QString text = tr("%1 of %2 points %3; %4 from the cache").arg(done).arg(m_pointCount).arg(how).arg(cached);
    if (failed > 0)
        text += tr("; %n without a result", nullptr, failed);
    m_status->setText(text);
    emit statusMessage(tr("Sweep: %1").arg(text));
}

void SweepPanel::setBusy(bool busy)
{
    m_run->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_openRecorded->setEnabled(!busy);
    m_openRecordedFile->setEnabled(!busy);
    for (QPushButton* button : m_presetButtons)
        button->setEnabled(!busy);
}

} // namespace elk::app
