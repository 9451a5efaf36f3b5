// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "engine/store/result_store.h"

namespace elk::app {

/// The result cache's history as a table, newest first: when, model, chip, phase, batch and the
/// elk-full latency (the design the paper proposes). A thin adapter over one list of records.
class HistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, ModelColumn, ChipColumn, PhaseColumn, BatchColumn, LatencyColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole, SpecHashRole };

    explicit HistoryModel(QObject* parent = nullptr);

    /// Replaces the whole table.
    void setRecords(std::vector<elk::store::RunRecordInfo> records);
    const std::vector<elk::store::RunRecordInfo>& records() const { return m_records; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<elk::store::RunRecordInfo> m_records;
};

/// The latency of `design` in a record (NaN when it was not run or failed).
double recordLatencyMs(const elk::store::RunRecordInfo& record, const std::string& design);
/// "llama2-13b" for "bundled:llama2-13b", the file name for a path.
QString modelDisplayName(const QString& modelLabel);

} // namespace elk::app
