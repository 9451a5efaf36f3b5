// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDockWidget>

class QSortFilterProxyModel;
class QTableView;

namespace elk::store {
class ResultStore;
}

namespace elk::app {

class HistoryModel;

/// Past runs from the result cache (not sweep points, which keep latencies only), newest first;
/// double-click (or Enter) reopens one, which the cache serves at once; the context menu (or
/// diffSelected()) diffs the selected one against the current run (the Diff tab).
class HistoryDock : public QDockWidget {
    Q_OBJECT
public:
    explicit HistoryDock(QWidget* parent = nullptr);

    /// Re-reads the history (a quick query on the GUI thread); null store: empty list.
    void refresh(elk::store::ResultStore* store);

    HistoryModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

    /// The spec hash of the selected row (empty: none).
    QString selectedHash() const;
    /// Asks for a diff of the selected run against the current one (the context menu's action).
    void diffSelected();

signals:
    void reopenRequested(const QString& specHash);
    void diffRequested(const QString& specHash);

private:
    void reopen(const QModelIndex& proxyIndex);

    HistoryModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
};

} // namespace elk::app
