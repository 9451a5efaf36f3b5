// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_report_panel.h"

#include <algorithm>

#include <QHeaderView>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>

#include "app/studio/hlo_export_actions.h"
#include "widgets/hlo/hlo_region_table_model.h"
#include "widgets/hlo/hlo_roofline_view.h"
#include "widgets/hlo/hlo_step_timeline_view.h"

namespace elk::app {

namespace {

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

    QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
    {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(alignment);
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        return item;
    }

} // namespace

HloReportPanel::HloReportPanel(QWidget* parent)
    : QSplitter(Qt::Vertical, parent)
{
    addWidget(buildSummary());
    fitSummaryHeight();
    addWidget(buildTabs());
    setStretchFactor(0, 1);
    setStretchFactor(1, 5);
}

QTableWidget* HloReportPanel::buildSummary()
{
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
    return m_summary;
}

QTabWidget* HloReportPanel::buildTabs()
{
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
    m_exportActions = new HloExportActions;
    m_tabs->setCornerWidget(m_exportActions, Qt::TopRightCorner);
    return m_tabs;
}

void HloReportPanel::showRuns(HloRunSetPtr runs)
{
    m_runs = std::move(runs);
    const elk::widgets::HloResults results = m_runs
        ? elk::widgets::HloResults(m_runs->results.begin(), m_runs->results.end())
        : elk::widgets::HloResults();
    m_timeline->setHloResults(results);
    m_roofline->setHloResults(results);
    fillSummary();
    m_selected = -1; // so that selecting the first configuration refreshes the views even if it was selected
    selectConfiguration(0);
}

void HloReportPanel::fillSummary()
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

void HloReportPanel::fitSummaryHeight()
{
    // As tall as its rows (at least two), so the plots below get the rest of the page.
    const int rows = std::max(2, m_summary->rowCount());
    const int rowHeight = m_summary->verticalHeader()->defaultSectionSize();
    m_summary->setMaximumHeight(
        m_summary->horizontalHeader()->height() + rows * rowHeight + 2 * m_summary->frameWidth() + 2);
}

void HloReportPanel::selectConfiguration(int index)
{
    const int count = m_runs ? int(m_runs->results.size()) : 0;
    index = count > 0 ? std::clamp(index, 0, count - 1) : -1;
    if (index == m_selected && index >= 0)
        return;
    m_selected = std::max(index, 0);
    if (index < 0) {
        m_regionModel->setResult(nullptr);
        showWarnings(m_runs && !m_runs->ok() ? m_runs->readErrors.join(QLatin1Char('\n')) : QString(), 0);
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
    showWarnings(lines.join(QLatin1Char('\n')), warningCount);
}

void HloReportPanel::showWarnings(const QString& text, int count)
{
    m_warnings->setPlainText(text);
    m_tabs->setTabText(m_tabs->indexOf(m_warnings), count > 0 ? tr("Warnings (%1)").arg(count) : tr("Warnings"));
}

std::shared_ptr<const elk::hlo::HloRunResult> HloReportPanel::selectedResult() const
{
    if (!m_runs || m_runs->results.empty())
        return nullptr;
    return m_runs->results[std::size_t(std::clamp(m_selected, 0, int(m_runs->results.size()) - 1))];
}

bool HloReportPanel::showPlot(const QString& figureKind)
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

elk::widgets::HloPlotView* HloReportPanel::currentPlotView() const
{
    QWidget* current = m_tabs->currentWidget();
    if (current == m_timeline)
        return m_timeline;
    if (current == m_roofline)
        return m_roofline;
    return nullptr;
}

} // namespace elk::app
