// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/history_dock.h"

#include <QAction>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "app/studio/history_model.h"
#include "engine/store/result_store.h"

namespace elk::app {

HistoryDock::HistoryDock(QWidget* parent)
    : QDockWidget(tr("History"), parent)
    , m_model(new HistoryModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView)
{
    setObjectName(QStringLiteral("historyDock"));
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(HistoryModel::SortRole);
    m_view->setObjectName(QStringLiteral("historyTable"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(HistoryModel::TimeColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setToolTip(tr("Past runs from the result cache; double-click one to reopen it, right-click to diff "
                          "it against the current run."));
    setWidget(m_view);
    connect(m_view, &QTableView::activated, this, &HistoryDock::reopen);
    auto* reopenAction = new QAction(tr("Reopen"), m_view);
    connect(reopenAction, &QAction::triggered, this, [this] { reopen(m_view->currentIndex()); });
    auto* diffAction = new QAction(tr("Diff against the current run"), m_view);
    diffAction->setObjectName(QStringLiteral("historyDiffAction"));
    connect(diffAction, &QAction::triggered, this, &HistoryDock::diffSelected);
    m_view->addAction(reopenAction);
    m_view->addAction(diffAction);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

void HistoryDock::refresh(elk::store::ResultStore* store)
{
    // Sweep points keep latencies only: they would not reopen instantly, and would bury the runs.
    std::vector<elk::store::RunRecordInfo> records
        = store ? store->history() : std::vector<elk::store::RunRecordInfo> {};
    std::erase_if(records, [](const elk::store::RunRecordInfo& record) { return !record.hasDetail; });
    m_model->setRecords(std::move(records));
    m_view->resizeColumnsToContents();
}

QString HistoryDock::selectedHash() const
{
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? index.data(HistoryModel::SpecHashRole).toString() : QString();
}

void HistoryDock::diffSelected()
{
    const QString hash = selectedHash();
    if (!hash.isEmpty())
        emit diffRequested(hash);
}

void HistoryDock::reopen(const QModelIndex& proxyIndex)
{
    const QString hash = proxyIndex.data(HistoryModel::SpecHashRole).toString();
    if (!hash.isEmpty())
        emit reopenRequested(hash);
}

} // namespace elk::app
