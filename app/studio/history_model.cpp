// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/history_model.h"

#include <cmath>
#include <limits>

#include <QDateTime>
#include <QFileInfo>

namespace elk::app {

namespace {
    const std::string kHeadlineDesign = "elk-full";
}

double recordLatencyMs(const elk::store::RunRecordInfo& record, const std::string& design)
{
    for (std::size_t i = 0; i < record.designs.size() && i < record.latencyMs.size(); ++i) {
        if (record.designs[i] == design)
            return record.latencyMs[i];
    }
    return std::numeric_limits<double>::quiet_NaN();
}

QString modelDisplayName(const QString& modelLabel)
{
    if (modelLabel.startsWith(QLatin1String("bundled:")))
        return modelLabel.mid(int(qstrlen("bundled:")));
    return QFileInfo(modelLabel).fileName();
}

HistoryModel::HistoryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void HistoryModel::setRecords(std::vector<elk::store::RunRecordInfo> records)
{
    beginResetModel();
    m_records = std::move(records);
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const elk::store::RunRecordInfo& record = m_records[std::size_t(index.row())];
    if (role == SpecHashRole)
        return QString::fromStdString(record.specHash);
    const QDateTime created = QDateTime::fromString(QString::fromStdString(record.createdUtc), Qt::ISODate);
    const double latency = recordLatencyMs(record, kHeadlineDesign);
    if (role == SortRole) {
        switch (Column(index.column())) {
        case TimeColumn:
            return QString::fromStdString(record.createdUtc); // ISO 8601 sorts as text
        case BatchColumn:
            return qlonglong(record.batch);
        case LatencyColumn:
            return std::isnan(latency) ? std::numeric_limits<double>::infinity() : latency;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == BatchColumn || index.column() == LatencyColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        lines << (created.isValid() ? created.toLocalTime().toString(Qt::ISODate)
                                    : QString::fromStdString(record.createdUtc));
        lines << QString::fromStdString(record.modelLabel);
        lines << tr("%1, %2, batch %3, %4 new + %5 cached tokens")
                     .arg(QString::fromStdString(record.chipName), QString::fromStdString(record.phase))
                     .arg(record.batch)
                     .arg(record.seqLen)
                     .arg(record.kvLen);
        for (std::size_t i = 0; i < record.designs.size() && i < record.latencyMs.size(); ++i)
            lines << tr("%1: %2 ms")
                         .arg(QString::fromStdString(record.designs[i]))
                         .arg(std::isnan(record.latencyMs[i]) ? tr("failed")
                                                              : QString::number(record.latencyMs[i], 'f', 3));
        lines << tr("Double-click to reopen from the cache.");
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case TimeColumn:
        return created.isValid() ? created.toLocalTime().toString(QStringLiteral("MM-dd HH:mm"))
                                 : QString::fromStdString(record.createdUtc);
    case ModelColumn:
        return modelDisplayName(QString::fromStdString(record.modelLabel));
    case ChipColumn:
        return QString::fromStdString(record.chipName);
    case PhaseColumn:
        return QString::fromStdString(record.phase);
    case BatchColumn:
        return qlonglong(record.batch);
    case LatencyColumn:
        return std::isnan(latency) ? QStringLiteral("–") : QString::number(latency, 'f', 3);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case TimeColumn:
        return tr("Time");
    case ModelColumn:
        return tr("Model");
    case ChipColumn:
        return tr("Chip");
    case PhaseColumn:
        return tr("Phase");
    case BatchColumn:
        return tr("Batch");
    case LatencyColumn:
        return tr("elk-full (ms)");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace elk::app
