// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "widgets/model/model_snapshot.h"

namespace elk::widgets {

/// The operators of a loaded model, one row per graph op in program order: what each computes
/// (kind, loop dims), what it costs (FLOPs, bytes touched), which HBM-resident tensors it reads or
/// writes (weights, KV cache, optimizer state; else only activations) and the repeated layer it is in.
/// A thin adapter over one immutable ModelSnapshot: display text is formatted with units, SortRole
/// carries raw numbers so a QSortFilterProxyModel sorts numerically.
class OpTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        NameColumn,
        KindColumn,
        DimsColumn,
        FlopsColumn,
        BytesColumn,
        RoleColumn,
        LayerColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, ///< qint64 for numbers (dims: loop iterations; layer: prefix -1, suffix = layer
                                 ///< count), else text
        GraphOpRole, ///< int: the op's id in the graph
        FilterRole, ///< "name\nkind": what the filter line matches
    };

    explicit OpTableModel(QObject* parent = nullptr);
    ~OpTableModel() override;

    /// Replaces the whole table; nullptr or a snapshot that did not load gives an empty table.
    void setSnapshot(std::shared_ptr<const ModelSnapshot> snapshot);
    std::shared_ptr<const ModelSnapshot> snapshot() const { return m_snapshot; }

    /// Row of a graph op (rows are in program order, so the op id), or -1.
    int rowOfOp(int graphOp) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString name;
        QString kind;
        QString dims;
        QString dimsToolTip;
        std::int64_t iterations = 0;
        std::int64_t flops = 0;
        std::int64_t bytes = 0;
        QString role;
        QString roleToolTip;
        int layerSortKey = 0;
        QString layer;
    };
    static std::vector<Row> buildRows(const ModelSnapshot& snapshot);

    std::shared_ptr<const ModelSnapshot> m_snapshot;
    std::vector<Row> m_rows;
};

} // namespace elk::widgets
