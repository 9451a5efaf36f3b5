// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/op_table_model.h"

#include <array>

#include <QStringList>

#include "widgets/model/quantity_format.h"

namespace elk::widgets {

using elk::model::TensorRole;

namespace {

    QString text(const std::string& value)
    {
        return QString::fromStdString(value);
    }

    QString roleName(TensorRole role)
    {
        switch (role) {
        case TensorRole::Weight:
            return OpTableModel::tr("weights");
        case TensorRole::KvCache:
            return OpTableModel::tr("KV cache");
        case TensorRole::OptimizerState:
            return OpTableModel::tr("optimizer state");
        case TensorRole::Activation:
            return OpTableModel::tr("activations");
        case TensorRole::Output:
            return OpTableModel::tr("outputs");
        }
        return {};
    }

    QString dimName(const elk::model::Op& op, std::size_t dim)
    {
        return dim < op.dimNames.size() && !op.dimNames[dim].empty() ? text(op.dimNames[dim])
                                                                     : QStringLiteral("d%1").arg(dim);
    }

    QString operandText(const elk::model::Graph& graph, elk::model::TensorId id)
    {
        const elk::model::Tensor& tensor = graph.tensor(id);
        return QStringLiteral("%1 (%2)").arg(text(tensor.name), QLatin1String(elk::model::toString(tensor.role)));
    }

} // namespace

OpTableModel::OpTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

OpTableModel::~OpTableModel() = default;

std::vector<OpTableModel::Row> OpTableModel::buildRows(const ModelSnapshot& snapshot)
{
    std::vector<Row> rows;
    if (!snapshot.ok() || !snapshot.graph)
        return rows;
    const elk::model::Graph& graph = *snapshot.graph;
    const elk::model::GraphAnalysis* analysis = snapshot.analysis.get();
    rows.reserve(graph.ops().size());
    for (std::size_t id = 0; id < graph.ops().size(); ++id) {
        const elk::model::Op& op = graph.ops()[id];
        const elk::model::TensorExpr& expr = graph.exprOf(elk::model::OpId(id));
        Row row;
        row.name = text(op.name);
        row.kind = QLatin1String(elk::model::toString(expr.kind));

        QStringList dims;
        for (std::size_t dim = 0; dim < expr.dimExtents.size(); ++dim)
            dims << dimName(op, dim) + QLatin1Char('=') + formatCount(expr.dimExtents[dim]);
        row.dims = dims.join(QStringLiteral(", "));
        QStringList reduced;
        for (const int dim : elk::model::reductionDims(expr))
            reduced << dimName(op, std::size_t(dim));
        row.iterations = elk::model::iterationCount(expr);
        row.dimsToolTip = tr("%1 loop iterations").arg(formatCount(row.iterations));
        if (!reduced.isEmpty())
            row.dimsToolTip += tr("; reduced over %1").arg(reduced.join(QStringLiteral(", ")));
        row.flops = elk::model::flopCount(expr);
        row.bytes = elk::model::byteCount(expr);

        // What the op makes the chip fetch from (or write back to) HBM; activations only otherwise.
        QStringList roles;
        for (const TensorRole role : { TensorRole::Weight, TensorRole::KvCache, TensorRole::OptimizerState }) {
            for (const elk::model::TensorId tensor : op.tensors) {
                if (graph.tensor(tensor).role == role) {
                    roles << roleName(role);
                    break;
                }
            }
        }
        row.role = roles.isEmpty() ? roleName(TensorRole::Activation) : roles.join(QStringLiteral(", "));
        QStringList inputs;
        for (std::size_t operand = 1; operand < op.tensors.size(); ++operand)
            inputs << operandText(graph, op.tensors[operand]);
        row.roleToolTip = op.tensors.empty()
            ? QString()
            : tr("writes %1\nreads %2").arg(operandText(graph, op.tensors.front()), inputs.join(QStringLiteral(", ")));

        const int step = analysis && id < analysis->stepOf.size() ? analysis->stepOf[id] : -1;
        if (!analysis || step < 0) {
            row.layerSortKey = -2;
            row.layer = QStringLiteral("—");
        } else if (const int layer = analysis->layers.layerOf(step); layer >= 0) {
            row.layerSortKey = layer;
            row.layer = QString::number(layer);
        } else if (step < analysis->layers.firstLayerStart) {
            row.layerSortKey = -1;
            row.layer = tr("prefix");
        } else {
            row.layerSortKey = analysis->layers.layerCount;
            row.layer = tr("suffix");
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

void OpTableModel::setSnapshot(std::shared_ptr<const ModelSnapshot> snapshot)
{
    std::vector<Row> rows = snapshot ? buildRows(*snapshot) : std::vector<Row> {};
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_rows = std::move(rows);
    endResetModel();
}

int OpTableModel::rowOfOp(int graphOp) const
{
    return graphOp >= 0 && std::size_t(graphOp) < m_rows.size() ? graphOp : -1;
}

int OpTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OpTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case IndexColumn:
            return index.row();
        case NameColumn:
            return row.name;
        case KindColumn:
            return row.kind;
        case DimsColumn:
            return row.dims;
        case FlopsColumn:
            return formatOpFlops(row.flops);
        case BytesColumn:
            return formatOpBytes(row.bytes);
        case RoleColumn:
            return row.role;
        case LayerColumn:
            return row.layer;
        }
        return {};
    case SortRole:
        switch (column) {
        case IndexColumn:
            return qint64(index.row());
        case DimsColumn:
            return qint64(row.iterations);
        case FlopsColumn:
            return qint64(row.flops);
        case BytesColumn:
            return qint64(row.bytes);
        case LayerColumn:
            return qint64(row.layerSortKey);
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        switch (column) {
        case NameColumn:
            return row.name; // long ONNX names are elided in the cell
        case DimsColumn:
            return row.dimsToolTip;
        case FlopsColumn:
            return tr("%1 FLOP").arg(formatCount(row.flops));
        case BytesColumn:
            return tr("%1 bytes: every input read once, the output written once").arg(formatCount(row.bytes));
        case RoleColumn:
            return row.roleToolTip;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        switch (column) {
        case IndexColumn:
        case FlopsColumn:
        case BytesColumn:
        case LayerColumn:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case GraphOpRole:
        return index.row();
    case FilterRole:
        return QString(row.name + QLatin1Char('\n') + row.kind);
    default:
        return {};
    }
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const std::array<const char*, ColumnCount> kTitles = {
        QT_TR_NOOP("#"),
        QT_TR_NOOP("Name"),
        QT_TR_NOOP("Kind"),
        QT_TR_NOOP("Dims"),
        QT_TR_NOOP("FLOPs"),
        QT_TR_NOOP("Bytes"),
        QT_TR_NOOP("Role"),
        QT_TR_NOOP("Layer"),
    };
    static const std::array<const char*, ColumnCount> kToolTips = {
        QT_TR_NOOP("Position in program order (the graph's op id)"),
        QT_TR_NOOP("Operator name from the model file"),
        QT_TR_NOOP("Operator kind: selects the cost formula"),
        QT_TR_NOOP("Loop dimensions with their extents (sorts by loop iterations)"),
        QT_TR_NOOP("Floating-point operations of one execution (1 GFLOP = 1e9)"),
        QT_TR_NOOP("Bytes touched: inputs read once plus the output written once (1 MiB = 2^20 bytes)"),
        QT_TR_NOOP("HBM-resident tensors the op reads or writes: weights, KV cache, optimizer state; "
                   "\"activations\" when it touches only on-chip intermediates"),
        QT_TR_NOOP("Repeated layer the op belongs to; prefix/suffix: before/after the repeated layers"),
    };
    if (role == Qt::DisplayRole)
        return tr(kTitles[std::size_t(section)]);
    if (role == Qt::ToolTipRole)
        return tr(kToolTips[std::size_t(section)]);
    return {};
}

} // namespace elk::widgets
