// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

#include "widgets/hlo/hlo_format.h"

namespace elk::widgets {

/// The regions of one StableHLO run in step order: what each is (compute or a collective), how many
/// ops, when it runs in the simulated step and for how long, who priced it, its bytes, group size and
/// FLOPs. A thin adapter over one immutable HloRunResult: display text carries units, SortRole carries
/// raw numbers (sort through a QSortFilterProxyModel with setSortRole(SortRole)).
class HloRegionTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        KindColumn,
        OpsColumn,
        StartColumn,
        DurationColumn,
        EstimatorColumn,
        CollectiveColumn,
        BytesColumn,
        GroupSizeColumn,
        FlopsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, ///< double for numbers, QString for text
        RegionRole, ///< int: index into HloRunResult::regions
    };

    explicit HloRegionTableModel(QObject* parent = nullptr);
    ~HloRegionTableModel() override;

    /// Replaces the table (null or a failed run: empty).
    void setResult(HloResultPtr result);
    HloResultPtr result() const { return m_result; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    HloResultPtr m_result;
    int m_rows = 0;
};

} // namespace elk::widgets
