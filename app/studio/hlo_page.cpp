// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_page.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/studio/figure_export_dialog.h"
#include "app/studio/recent_files.h"
#include "engine/chip/presets.h"
#include "engine/hlo/hlo_presets.h"
#include "widgets/hlo/hlo_region_table_model.h"
#include "widgets/hlo/hlo_roofline_view.h"
#include "widgets/hlo/hlo_step_timeline_view.h"

namespace elk::app {

namespace {

    const QString kRecentKey = QStringLiteral("hloPage/recentFiles");
    const QString kDefaultSystem = QStringLiteral("4x-a100-sxm-40gb");
    constexpr int kChainRole = Qt::UserRole; ///< QStringList: the estimator chain; empty for "choose a table"

    enum SummaryColumn {
        ConfigurationColumn,
        StepColumn,
        ComputeColumn,
        CommColumn,
        ExposedColumn,
        FlopsColumn,
        CacheColumn,
        WarningsColumn,
        SummaryColumnCount
    };

    QStringList toQt(const std::vector<std::string>& list)
    {
        QStringList out;
        for (const std::string& text : list)
            out << QString::fromStdString(text);
        return out;
    }

    std::vector<std::string> toStd(const QStringList& list)
    {
        std::vector<std::string> out;
        for (const QString& text : list)
            out.push_back(text.toStdString());
        return out;
    }

    QString chainText(const QStringList& chain)
    {
        return chain.join(QStringLiteral(" → "));
    }

    std::vector<std::string> chainOf(const QComboBox* combo)
    {
        return toStd(combo->currentData(kChainRole).toStringList());
    }

    QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
    {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(alignment);
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        return item;
    }

} // namespace

HloPage::HloPage(QWidget* parent)
    : QWidget(parent)
    , m_job(new HloJob(this))
{
    setObjectName(QStringLiteral("hloPage"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(buildResults(), 1);

    connect(m_job, &HloJob::started, this, [this] {
        m_progressBar->setValue(0);
        m_progressBar->setVisible(true);
        updateButtons();
    });
    connect(m_job, &HloJob::progress, this, [this](int percent, const QString& stage) {
        m_progressBar->setValue(percent);
        m_progressLabel->setText(stage);
    });
    connect(m_job, &HloJob::finished, this, &HloPage::onFinished);
    connect(m_job, &HloJob::failed, this, [this](const QString& message) {
        m_progressBar->setVisible(false);
        m_progressLabel->setText(tr("Run failed"));
        showError(message);
        updateButtons();
    });
    connect(m_job, &HloJob::cancelled, this, [this] {
        m_progressBar->setVisible(false);
        m_progressLabel->setText(tr("Run cancelled"));
        emit statusMessage(tr("StableHLO run cancelled."));
        updateButtons();
    });
    updateButtons();
}

HloPage::~HloPage() = default;

QWidget* HloPage::buildControls()
{
    auto* box = new QWidget;
    auto* form = new QVBoxLayout(box);
    form->setContentsMargins(0, 0, 0, 0);

    // File row.
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(new QLabel(tr("Module:")));
    m_fileLabel = new QLabel(tr("no module opened"));
    m_fileLabel->setObjectName(QStringLiteral("hloFileLabel"));
    m_fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fileLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    fileRow->addWidget(m_fileLabel, 1);
    auto* open = new QPushButton(tr("Open…"));
    open->setObjectName(QStringLiteral("hloOpenButton"));
    open->setToolTip(tr("Open a StableHLO text module (.mlir)"));
    connect(open, &QPushButton::clicked, this, &HloPage::openFileDialog);
    fileRow->addWidget(open);
    auto* recentButton = new QToolButton;
    recentButton->setText(tr("Recent"));
    recentButton->setPopupMode(QToolButton::InstantPopup);
    m_recent = new RecentFilesMenu(tr("Recent modules"), kRecentKey, recentButton);
    recentButton->setMenu(m_recent);
    connect(m_recent, &RecentFilesMenu::fileChosen, this, &HloPage::openFile);
    fileRow->addWidget(recentButton);
    form->addLayout(fileRow);

    // The first configuration, the flow options and Run / Cancel.
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(new QLabel(tr("System:")));
    m_system = new QComboBox;
    m_system->setObjectName(QStringLiteral("hloSystem"));
    fillSystemCombo(m_system);
    runRow->addWidget(m_system);
    runRow->addWidget(new QLabel(tr("Estimators:")));
    m_estimator = new QComboBox;
    m_estimator->setObjectName(QStringLiteral("hloEstimator"));
    fillEstimatorCombo(m_estimator);
    runRow->addWidget(m_estimator);
    runRow->addSpacing(12);
    runRow->addWidget(new QLabel(tr("Split:")));
    m_split = new QComboBox;
    m_split->setObjectName(QStringLiteral("hloSplit"));
    m_split->addItem(tr("linear"), int(elk::hlo::SplitMode::Linear));
    m_split->addItem(tr("dependency"), int(elk::hlo::SplitMode::Dependency));
    m_split->setToolTip(tr("linear: compute between collectives is one region (program order); dependency: "
                           "regions follow data edges, so communication may overlap compute"));
    runRow->addWidget(m_split);
    m_fusion = new QCheckBox(tr("Fusion"));
    m_fusion->setObjectName(QStringLiteral("hloFusion"));
    m_fusion->setChecked(true);
    m_fusion->setToolTip(tr("Fuse element-wise chains into their producers or consumers, as XLA does: fused "
                            "kernels pay only their boundary bytes"));
    runRow->addWidget(m_fusion);
    runRow->addStretch(1);
    m_runButton = new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Run"));
    m_runButton->setObjectName(QStringLiteral("hloRunButton"));
    connect(m_runButton, &QPushButton::clicked, this, &HloPage::run);
    runRow->addWidget(m_runButton);
    m_cancelButton = new QPushButton(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("hloCancelButton"));
    connect(m_cancelButton, &QPushButton::clicked, this, &HloPage::cancel);
    runRow->addWidget(m_cancelButton);
    form->addLayout(runRow);

    // Comparisons.
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(new QLabel(tr("Compare with:")));
    m_compareSystem = new QComboBox;
    m_compareSystem->setObjectName(QStringLiteral("hloCompareSystem"));
    fillSystemCombo(m_compareSystem);
    compareRow->addWidget(m_compareSystem);
    m_compareEstimator = new QComboBox;
    m_compareEstimator->setObjectName(QStringLiteral("hloCompareEstimator"));
    fillEstimatorCombo(m_compareEstimator);
    compareRow->addWidget(m_compareEstimator);
    auto* add = new QPushButton(tr("Add"));
    add->setObjectName(QStringLiteral("hloAddComparison"));
    add->setToolTip(tr("Run this system and estimator chain too, side by side"));
    connect(add, &QPushButton::clicked, this, [this] {
        addComparison({ m_compareSystem->currentText().toStdString(), chainOf(m_compareEstimator) });
    });
    compareRow->addWidget(add);
    m_comparisonList = new QListWidget;
    m_comparisonList->setObjectName(QStringLiteral("hloComparisons"));
    m_comparisonList->setFlow(QListView::LeftToRight);
    m_comparisonList->setWrapping(false);
    m_comparisonList->setFixedHeight(m_compareSystem->sizeHint().height() + 6);
    m_comparisonList->setToolTip(tr("Configurations run next to the first; select one and press Remove"));
    compareRow->addWidget(m_comparisonList, 1);
    auto* remove = new QPushButton(tr("Remove"));
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_comparisonList->currentRow();
        if (row < 0 || row >= int(m_comparisons.size()))
            return;
        m_comparisons.erase(m_comparisons.begin() + row);
        delete m_comparisonList->takeItem(row);
    });
    compareRow->addWidget(remove);
    form->addLayout(compareRow);

    // Progress and errors.
    auto* progressRow = new QHBoxLayout;
    m_progressBar = new QProgressBar;
    m_progressBar->setRange(0, 100);
    m_progressBar->setMaximumWidth(200);
    m_progressBar->setVisible(false);
    progressRow->addWidget(m_progressBar);
    m_progressLabel = new QLabel(tr("Open a module and press Run."));
    m_progressLabel->setObjectName(QStringLiteral("hloProgress"));
    progressRow->addWidget(m_progressLabel, 1);
    form->addLayout(progressRow);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("hloError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #a00000; }"));
    m_error->setVisible(false);
    form->addWidget(m_error);
    return box;
}

QWidget* HloPage::buildResults()
{
    auto* splitter = new QSplitter(Qt::Vertical);
    m_summary = new QTableWidget(0, SummaryColumnCount);
    m_summary->setObjectName(QStringLiteral("hloSummary"));
    m_summary->setHorizontalHeaderLabels({ tr("Configuration"), tr("Step"), tr("Compute"), tr("Communication"),
        tr("Exposed comm."), tr("FLOPs"), tr("Cache hits / misses"), tr("Warnings") });
    m_summary->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_summary->setSelectionMode(QAbstractItemView::SingleSelection);
    m_summary->verticalHeader()->setVisible(false);
    m_summary->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summary->horizontalHeader()->setStretchLastSection(true);
    m_summary->setToolTip(tr("One row per configuration; the selected one fills the Regions and Warnings tabs"));
    connect(m_summary, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem*> items = m_summary->selectedItems();
        if (!items.isEmpty() && items.front()->row() != m_selected)
            selectConfiguration(items.front()->row());
    });
    splitter->addWidget(m_summary);
    fitSummaryHeight();

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("hloTabs"));
    m_tabs->setDocumentMode(true);
    m_regionModel = new elk::widgets::HloRegionTableModel(this);
    m_regionProxy = new QSortFilterProxyModel(this);
    m_regionProxy->setSourceModel(m_regionModel);
    m_regionProxy->setSortRole(elk::widgets::HloRegionTableModel::SortRole);
    m_regionTable = new QTableView;
    m_regionTable->setObjectName(QStringLiteral("hloRegionTable"));
    m_regionTable->setModel(m_regionProxy);
    m_regionTable->setSortingEnabled(true);
    m_regionTable->sortByColumn(elk::widgets::HloRegionTableModel::IndexColumn, Qt::AscendingOrder);
    m_regionTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_regionTable->verticalHeader()->setVisible(false);
    m_regionTable->horizontalHeader()->setStretchLastSection(true);
    m_timeline = new elk::widgets::HloStepTimelineView;
    m_roofline = new elk::widgets::HloRooflineView;
    m_warnings = new QPlainTextEdit;
    m_warnings->setObjectName(QStringLiteral("hloWarnings"));
    m_warnings->setReadOnly(true);
    m_tabs->addTab(m_regionTable, tr("Regions"));
    m_tabs->addTab(m_timeline, tr("Step timeline"));
    m_tabs->addTab(m_roofline, tr("Roofline"));
    m_tabs->addTab(m_warnings, tr("Warnings"));
    m_tabs->setCurrentWidget(m_timeline);

    auto* corner = new QWidget;
    auto* cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    auto* exportFigure = new QPushButton(tr("Export figure…"));
    exportFigure->setObjectName(QStringLiteral("hloExportFigure"));
    exportFigure->setToolTip(tr("The step timeline or the roofline (the one shown) as PDF, SVG or PNG"));
    connect(exportFigure, &QPushButton::clicked, this, &HloPage::exportFigureDialog);
    cornerLayout->addWidget(exportFigure);
    auto* exportData = new QToolButton;
    exportData->setObjectName(QStringLiteral("hloExportData"));
    exportData->setText(tr("Export data"));
    exportData->setToolTip(tr("The selected configuration's run"));
    exportData->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(exportData);
    const std::pair<HloDataFormat, QString> formats[] = {
        { HloDataFormat::Json, tr("JSON report…") },
        { HloDataFormat::Csv, tr("Regions CSV…") },
        { HloDataFormat::Perfetto, tr("Perfetto step trace…") },
        { HloDataFormat::Chakra, tr("Chakra traces (folder)…") },
    };
    for (const auto& [format, label] : formats)
        connect(menu->addAction(label), &QAction::triggered, this, [this, f = format] { exportDataDialog(f); });
    exportData->setMenu(menu);
    cornerLayout->addWidget(exportData);
    m_tabs->setCornerWidget(corner, Qt::TopRightCorner);

    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 5);
    return splitter;
}

void HloPage::fillSystemCombo(QComboBox* combo)
{
    for (const std::string& name : elk::hlo::builtinSystemNames()) {
        combo->addItem(QString::fromStdString(name));
        if (const auto preset = elk::hlo::findSystemPreset(name))
            combo->setItemData(combo->count() - 1,
                QStringLiteral("%1: %2 × %3")
                    .arg(QString::fromStdString(preset->displayName))
                    .arg(preset->deviceCount())
                    .arg(QString::fromStdString(preset->device)),
                Qt::ToolTipRole);
    }
    const int preferred = combo->findText(kDefaultSystem);
    combo->setCurrentIndex(std::max(0, preferred));
}

void HloPage::fillEstimatorCombo(QComboBox* combo)
{
    combo->addItem(QStringLiteral("roofline"), QStringList { QStringLiteral("roofline") });
    combo->setItemData(
        0, tr("Bare roofline of the system's device: max(FLOPs / peak, bytes / bandwidth)"), Qt::ToolTipRole);
    for (const elk::chip::ChipSpec& chip : elk::chip::builtinPresets()) {
        const QStringList chain { QStringLiteral("icca:") + QString::fromStdString(chip.name),
            QStringLiteral("roofline") };
        combo->addItem(chainText(chain), chain);
        combo->setItemData(combo->count() - 1,
            tr("Ops the ICCA flow supports run through the Elk compiler and simulator on %1; the rest on the roofline")
                .arg(QString::fromStdString(chip.name)),
            Qt::ToolTipRole);
    }
    combo->addItem(tr("table: choose a CSV…"), QStringList {});
    combo->setProperty("previousIndex", 0);
    connect(combo, &QComboBox::activated, this, [this, combo] { onEstimatorChosen(combo); });
}

void HloPage::onEstimatorChosen(QComboBox* combo)
{
    if (!combo->currentData(kChainRole).toStringList().isEmpty()) {
        combo->setProperty("previousIndex", combo->currentIndex());
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Measured latencies"), m_lastFolder, tr("Latency tables (*.csv);;All files (*)"));
    if (path.isEmpty()) {
        combo->setCurrentIndex(combo->property("previousIndex").toInt());
        return;
    }
    const QStringList chain { QStringLiteral("table:") + path, QStringLiteral("roofline") };
    const int at = combo->count() - 1;
    combo->insertItem(at, chainText(chain), chain);
    combo->setCurrentIndex(at);
    combo->setProperty("previousIndex", at);
}

void HloPage::setStore(elk::store::ResultStore* store)
{
    m_job->setStore(store);
}

void HloPage::openFile(const QString& path)
{
    m_path = path;
    m_fileLabel->setText(QDir::toNativeSeparators(path));
    m_fileLabel->setToolTip(QDir::toNativeSeparators(path));
    m_lastFolder = QFileInfo(path).absolutePath();
    if (QFileInfo::exists(path))
        m_recent->add(path);
    m_progressLabel->setText(tr("Press Run to estimate %1.").arg(QFileInfo(path).fileName()));
    updateButtons();
}

void HloPage::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open StableHLO module"), m_lastFolder, tr("StableHLO text (*.mlir);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void HloPage::setSystem(const QString& nameOrPath)
{
    int index = m_system->findText(nameOrPath);
    if (index < 0) {
        m_system->addItem(nameOrPath);
        index = m_system->count() - 1;
    }
    m_system->setCurrentIndex(index);
}

QString HloPage::system() const
{
    return m_system->currentText();
}

void HloPage::setEstimators(const std::vector<std::string>& chain)
{
    const QStringList wanted = toQt(chain);
    for (int i = 0; i < m_estimator->count(); ++i) {
        if (m_estimator->itemData(i, kChainRole).toStringList() == wanted) {
            m_estimator->setCurrentIndex(i);
            m_estimator->setProperty("previousIndex", i);
            return;
        }
    }
    const int at = m_estimator->count() - 1; // before "choose a CSV"
    m_estimator->insertItem(at, chainText(wanted), wanted);
    m_estimator->setCurrentIndex(at);
    m_estimator->setProperty("previousIndex", at);
}

std::vector<std::string> HloPage::estimators() const
{
    return chainOf(m_estimator);
}

void HloPage::addComparison(const HloConfiguration& configuration)
{
    if (configuration == HloConfiguration { system().toStdString(), estimators() })
        return;
    if (std::find(m_comparisons.begin(), m_comparisons.end(), configuration) != m_comparisons.end())
        return;
    m_comparisons.push_back(configuration);
    m_comparisonList->addItem(configurationLabel(configuration));
}

void HloPage::clearComparisons()
{
    m_comparisons.clear();
    m_comparisonList->clear();
}

std::vector<HloConfiguration> HloPage::configurations() const
{
    std::vector<HloConfiguration> list { { system().toStdString(), estimators() } };
    for (const HloConfiguration& configuration : m_comparisons) {
        if (std::find(list.begin(), list.end(), configuration) == list.end())
            list.push_back(configuration);
    }
    return list;
}

void HloPage::setSplitMode(elk::hlo::SplitMode mode)
{
    m_split->setCurrentIndex(std::max(0, m_split->findData(int(mode))));
}

void HloPage::setFusion(bool on)
{
    m_fusion->setChecked(on);
}

HloJobRequest HloPage::currentRequest() const
{
    HloJobRequest request;
    request.path = m_path;
    request.configurations = configurations();
    request.options.slice.mode = elk::hlo::SplitMode(m_split->currentData().toInt());
    request.options.fusion.enabled = m_fusion->isChecked();
    return request;
}

void HloPage::run()
{
    if (m_path.isEmpty()) {
        showError(tr("Open a StableHLO module (.mlir) first."));
        return;
    }
    showError({});
    m_progressLabel->setText(tr("Starting…"));
    m_job->start(currentRequest());
    emit statusMessage(tr("Estimating %1…").arg(QFileInfo(m_path).fileName()));
}

void HloPage::cancel()
{
    m_job->cancel();
}

void HloPage::onFinished(HloRunSetPtr runs)
{
    m_progressBar->setVisible(false);
    if (!runs->ok()) {
        // The module did not parse: say where, and lose nothing: the last run that worked stays in
        // the views, and the error line names both files.
        const bool keepLastRun = m_runs && m_runs->ok();
        QString message = tr("%1 does not parse:\n%2")
                              .arg(QFileInfo(runs->path).fileName(), runs->readErrors.join(QLatin1Char('\n')));
        if (keepLastRun)
            message += tr("\nThe views still show %1.").arg(QFileInfo(m_runs->path).fileName());
        else
            m_runs = runs; // nothing worth keeping: the views empty below
        updateButtons();
        showError(message);
        m_progressLabel->setText(tr("Not run: the module does not parse."));
        emit statusMessage(tr("StableHLO: %1").arg(runs->readErrors.value(0)));
        if (keepLastRun)
            return;
    } else {
        m_runs = std::move(runs);
        updateButtons();
        const std::size_t count = m_runs->results.size();
        QStringList errors;
        std::int64_t hits = 0, misses = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const elk::hlo::HloRunResult& result = *m_runs->results[i];
            hits += result.cacheHits;
            misses += result.cacheMisses;
            for (const std::string& error : result.errors)
                errors << configurationLabel(m_runs->configurations[i]) + QStringLiteral(": ")
                        + QString::fromStdString(error);
        }
        showError(errors.join(QLatin1Char('\n')));
        const QString what = count == 1 ? tr("1 configuration") : tr("%1 configurations").arg(count);
        m_progressLabel->setText(tr("%1 in %2 s · region cache: %3 hits, %4 misses")
                                     .arg(what)
                                     .arg(m_runs->wallSeconds, 0, 'f', 2)
                                     .arg(hits)
                                     .arg(misses));
        emit statusMessage(tr("StableHLO: %1 estimated").arg(QFileInfo(m_runs->path).fileName()));
    }
    const elk::widgets::HloResults results(m_runs->results.begin(), m_runs->results.end());
    m_timeline->setHloResults(results);
    m_roofline->setHloResults(results);
    fillSummary();
    m_selected = -1;
    selectConfiguration(0);
}

void HloPage::fillSummary()
{
    m_summary->setRowCount(0);
    if (!m_runs)
        return;
    const QSignalBlocker blocker(m_summary);
    m_summary->setRowCount(int(m_runs->results.size()));
    for (int row = 0; row < int(m_runs->results.size()); ++row) {
        const elk::hlo::HloRunResult& result = *m_runs->results[std::size_t(row)];
        auto* name
            = cell(configurationLabel(m_runs->configurations[std::size_t(row)]), Qt::AlignLeft | Qt::AlignVCenter);
        name->setForeground(elk::widgets::hloResultColor(row).darker(120));
        m_summary->setItem(row, ConfigurationColumn, name);
        if (!result.ok()) {
            const QString error
                = QString::fromStdString(result.errors.empty() ? std::string("failed") : result.errors.front());
            auto* failed = cell(tr("failed: %1").arg(error), Qt::AlignLeft | Qt::AlignVCenter);
            failed->setToolTip(error);
            failed->setForeground(QColor(0xA0, 0, 0));
            m_summary->setItem(row, StepColumn, failed);
            m_summary->setSpan(row, StepColumn, 1, SummaryColumnCount - StepColumn);
            continue;
        }
        m_summary->setItem(row, StepColumn, cell(elk::widgets::hloSecondsText(result.stepSeconds)));
        m_summary->setItem(row, ComputeColumn, cell(elk::widgets::hloSecondsText(result.computeSeconds)));
        m_summary->setItem(row, CommColumn, cell(elk::widgets::hloSecondsText(result.commSeconds)));
        m_summary->setItem(row, ExposedColumn, cell(elk::widgets::hloSecondsText(result.exposedCommSeconds)));
        m_summary->setItem(row, FlopsColumn, cell(elk::widgets::hloFlopsText(result.totalFlops)));
        m_summary->setItem(
            row, CacheColumn, cell(QStringLiteral("%1 / %2").arg(result.cacheHits).arg(result.cacheMisses)));
        const int warnings = int(result.warnings.size()) + (result.unknownOps.empty() ? 0 : 1);
        m_summary->setItem(row, WarningsColumn, cell(QString::number(warnings)));
        m_summary->item(row, StepColumn)->setData(Qt::UserRole, result.stepSeconds);
    }
    fitSummaryHeight();
}

void HloPage::fitSummaryHeight()
{
    // As tall as its rows (at least two), so the plots below get the rest of the page.
    const int rows = std::max(2, m_summary->rowCount());
    const int rowHeight = m_summary->verticalHeader()->defaultSectionSize();
    m_summary->setMaximumHeight(
        m_summary->horizontalHeader()->height() + rows * rowHeight + 2 * m_summary->frameWidth() + 2);
}

void HloPage::selectConfiguration(int index)
{
    const int count = m_runs ? int(m_runs->results.size()) : 0;
    index = count > 0 ? std::clamp(index, 0, count - 1) : -1;
    if (index == m_selected && index >= 0)
        return;
    m_selected = std::max(index, 0);
    if (index < 0) {
        m_regionModel->setResult(nullptr);
        m_warnings->setPlainText(m_runs && !m_runs->ok() ? m_runs->readErrors.join(QLatin1Char('\n')) : QString());
        m_tabs->setTabText(m_tabs->indexOf(m_warnings), tr("Warnings"));
        return;
    }
    {
        const QSignalBlocker blocker(m_summary);
        m_summary->selectRow(index);
    }
    const auto& result = m_runs->results[std::size_t(index)];
    m_regionModel->setResult(result);
    QStringList lines;
    int warningCount = 0;
    for (const std::string& error : result->errors) {
        lines << tr("error: %1").arg(QString::fromStdString(error));
        ++warningCount;
    }
    if (!result->unknownOps.empty()) {
        lines << tr("Unknown ops, costed as memory traffic of their operands and results:");
        for (const std::string& op : result->unknownOps)
            lines << QStringLiteral("  ") + QString::fromStdString(op);
        ++warningCount;
    }
    for (const std::string& warning : result->warnings) {
        lines << QString::fromStdString(warning);
        ++warningCount;
    }
    if (result->ok() && result->fusionEnabled && result->unfusedBytes > 0)
        lines << tr("Fusion: memory traffic %1 → %2 (%3 % of unfused).")
                     .arg(elk::widgets::hloBytesText(result->unfusedBytes),
                         elk::widgets::hloBytesText(result->fusedBytes))
                     .arg(100.0 * result->fusedBytes / result->unfusedBytes, 0, 'f', 1);
    if (lines.isEmpty())
        lines << tr("No warnings.");
    m_warnings->setPlainText(lines.join(QLatin1Char('\n')));
    m_tabs->setTabText(
        m_tabs->indexOf(m_warnings), warningCount > 0 ? tr("Warnings (%1)").arg(warningCount) : tr("Warnings"));
}

bool HloPage::showPlot(const QString& figureKind)
{
    for (elk::widgets::HloPlotView* view :
        { static_cast<elk::widgets::HloPlotView*>(m_timeline), static_cast<elk::widgets::HloPlotView*>(m_roofline) }) {
        if (view->figureKind() == figureKind) {
            m_tabs->setCurrentWidget(view);
            return true;
        }
    }
    return false;
}

elk::widgets::HloPlotView* HloPage::currentPlotView() const
{
    QWidget* current = m_tabs->currentWidget();
    if (current == m_timeline)
        return m_timeline;
    if (current == m_roofline)
        return m_roofline;
    return nullptr;
}

QString HloPage::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

QString HloPage::progressText() const
{
    return m_progressLabel->text();
}

void HloPage::showError(const QString& text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

void HloPage::updateButtons()
{
    const bool running = m_job->isRunning();
    m_runButton->setEnabled(!m_path.isEmpty());
    m_runButton->setToolTip(
        m_path.isEmpty() ? tr("Open a module first") : tr("Estimate the module on every configuration"));
    m_cancelButton->setEnabled(running);
}

QString HloPage::exportData(HloDataFormat format, const QString& path) const
{
    if (!m_runs || m_runs->results.empty())
        return tr("Nothing to export yet: run first.");
    return exportHloData(
        *m_runs->results[std::size_t(std::clamp(m_selected, 0, int(m_runs->results.size()) - 1))], format, path);
}

void HloPage::exportFigureDialog()
{
    elk::widgets::HloPlotView* view = currentPlotView();
    if (!view)
        view = m_timeline;
    if (!view->hasData()) {
        emit statusMessage(tr("Nothing to export yet: run a module first."));
        return;
    }
    const QString folder = m_lastFolder.isEmpty() ? QDir::homePath() : m_lastFolder;
    FigureExportDialog dialog(QDir(folder).filePath(view->figureKind() + QStringLiteral(".pdf")), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_lastFolder = QFileInfo(dialog.path()).absolutePath();
    if (const QString error = view->exportFigure(dialog.path(), dialog.style()); !error.isEmpty())
        QMessageBox::warning(this, tr("Export figure"), error);
    else
        emit statusMessage(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())));
}

void HloPage::exportDataDialog(HloDataFormat format)
{
    if (!m_runs || m_runs->results.empty() || !m_runs->results[std::size_t(m_selected)]->ok()) {
        emit statusMessage(tr("Nothing to export: run a module first (and select a configuration that ran)."));
        return;
    }
    const elk::hlo::HloRunResult& result = *m_runs->results[std::size_t(m_selected)];
    const QString suggested
        = QDir(m_lastFolder.isEmpty() ? QDir::homePath() : m_lastFolder).filePath(hloExportName(result, format));
    QString path;
    if (format == HloDataFormat::Chakra) {
        const QString parent = QFileDialog::getExistingDirectory(
            this, tr("Write Chakra traces into a new folder in…"), QFileInfo(suggested).absolutePath());
        if (!parent.isEmpty())
            path = QDir(parent).filePath(QFileInfo(suggested).fileName());
    } else {
        const QString filter = format == HloDataFormat::Csv ? tr("CSV (*.csv)") : tr("JSON (*.json)");
        path = QFileDialog::getSaveFileName(this, tr("Export data"), suggested, filter);
    }
    if (path.isEmpty())
        return;
    m_lastFolder = QFileInfo(path).absolutePath();
    if (const QString error = exportData(format, path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export data"), error);
    else
        emit statusMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace elk::app
