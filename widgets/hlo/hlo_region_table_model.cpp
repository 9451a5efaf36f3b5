// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/hlo/hlo_region_table_model.h"

#include "engine/hlo/hlo_run.h"

namespace elk::widgets {

namespace {

    bool isCompute(const elk::hlo::RegionReport& region)
    {
        return region.kind == elk::hlo::RegionKind::Compute;
    }

    QVariant displayOf(const elk::hlo::RegionReport& region, int row, int column)
    {
        switch (column) {
        case HloRegionTableModel::IndexColumn:
            return row;
        case HloRegionTableModel::KindColumn:
            return isCompute(region) ? QStringLiteral("compute") : QStringLiteral("communication");
        case HloRegionTableModel::OpsColumn:
            return QVariant::fromValue(qlonglong(region.ops));
        case HloRegionTableModel::StartColumn:
            return hloSecondsText(region.startSeconds);
        case HloRegionTableModel::DurationColumn:
            return hloSecondsText(region.seconds);
        case HloRegionTableModel::EstimatorColumn:
            return QString(
                QString::fromStdString(region.estimator) + (region.cached ? QStringLiteral(" (cached)") : QString()));
        case HloRegionTableModel::CollectiveColumn:
            return QString::fromStdString(region.collective);
        case HloRegionTableModel::BytesColumn:
            return hloBytesText(region.bytes);
        case HloRegionTableModel::GroupSizeColumn:
            return isCompute(region) ? QVariant() : QVariant::fromValue(qlonglong(region.groupSize));
        case HloRegionTableModel::FlopsColumn:
            return hloFlopsText(region.flops);
        default:
            return {};
        }
    }

    QVariant sortValueOf(const elk::hlo::RegionReport& region, int row, int column)
    {
        switch (column) {
        case HloRegionTableModel::IndexColumn:
            return double(row);
        case HloRegionTableModel::KindColumn:
            return isCompute(region) ? QStringLiteral("compute") : QStringLiteral("communication");
        case HloRegionTableModel::OpsColumn:
            return double(region.ops);
        case HloRegionTableModel::StartColumn:
            return region.startSeconds;
        case HloRegionTableModel::DurationColumn:
            return region.seconds;
        case HloRegionTableModel::EstimatorColumn:
            return QString::fromStdString(region.estimator);
        case HloRegionTableModel::CollectiveColumn:
            return QString::fromStdString(region.collective);
        case HloRegionTableModel::BytesColumn:
            return region.bytes;
        case HloRegionTableModel::GroupSizeColumn:
            return double(isCompute(region) ? 0 : region.groupSize);
        case HloRegionTableModel::FlopsColumn:
            return region.flops;
        default:
            return {};
        }
    }

} // namespace

HloRegionTableModel::HloRegionTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

HloRegionTableModel::~HloRegionTableModel() = default;

void HloRegionTableModel::setResult(HloResultPtr result)
{
    beginResetModel();
    m_result = std::move(result);
    m_rows = m_result && m_result->ok() ? int(m_result->regions.size()) : 0;
    endResetModel();
}

int HloRegionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int HloRegionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HloRegionTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const elk::hlo::RegionReport& region = m_result->regions[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayOf(region, index.row(), index.column());
    case SortRole:
        return sortValueOf(region, index.row(), index.column());
    case RegionRole:
        return index.row();
    case Qt::TextAlignmentRole: {
        const int column = index.column();
        const bool text = column == KindColumn || column == EstimatorColumn || column == CollectiveColumn;
        return QVariant::fromValue(Qt::Alignment((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    }
    case Qt::ToolTipRole:
        if (index.column() == EstimatorColumn && region.cached)
            return tr("Served from the region cache");
        if (index.column() == BytesColumn)
            return isCompute(region) ? tr("Memory traffic, all executions")
                                     : tr("Bytes each device sends (all phases, all executions); payload %1")
                                           .arg(hloBytesText(region.payloadBytes));
        return {};
    default:
        return {};
    }
}

QVariant HloRegionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StartColumn:
            return tr("When the region starts in the simulated step");
        case DurationColumn:
            return tr("All executions of the region together");
        case EstimatorColumn:
            return tr("Compute: the estimators that priced its kernels; communication: algorithm and path");
        case GroupSizeColumn:
            return tr("Devices per replica group of the collective");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("#");
    case KindColumn:
        return tr("Kind");
    case OpsColumn:
        return tr("Ops");
    case StartColumn:
        return tr("Start");
    case DurationColumn:
        return tr("Duration");
    case EstimatorColumn:
        return tr("Estimator");
    case CollectiveColumn:
        return tr("Collective");
    case BytesColumn:
        return tr("Bytes");
    case GroupSizeColumn:
        return tr("Group size");
    case FlopsColumn:
        return tr("FLOPs");
    default:
        return {};
    }
}

} // namespace elk::widgets
