// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/model_summary_view.h"

#include <algorithm>

#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include "widgets/model/quantity_format.h"

namespace elk::widgets {

using elk::model::TensorRole;

namespace {

    QString text(const std::string& value)
    {
        return QString::fromStdString(value);
    }

    QLabel* makeWrappingLabel(const char* objectName)
    {
        auto* label = new QLabel;
        label->setObjectName(QLatin1String(objectName));
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return label;
    }

} // namespace

ModelSummaryView::ModelSummaryView(QWidget* parent)
    : QWidget(parent)
{
    m_title = makeWrappingLabel("modelTitle");
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_file = makeWrappingLabel("modelFile");
    m_error = makeWrappingLabel("modelError");
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));

    auto* graphBox = new QGroupBox(tr("Graph"));
    auto* graphForm = new QFormLayout(graphBox);
    m_opCount
        = addValue(graphForm, tr("Ops"), "opCount", tr("Operators in program order; a repeated op counts each time"));
    m_distinctExpressions = addValue(graphForm, tr("Distinct expressions"), "distinctExpressionCount",
        tr("Ops left after identical tensor expressions are shared: what the partition "
           "search visits"));
    m_tensorCount = addValue(graphForm, tr("Tensors"), "tensorCount", tr("Named tensors of every role"));
    m_flops = addValue(graphForm, tr("Compute"), "flops", tr("Floating-point operations of one pass (1 GFLOP = 1e9)"));
    m_weightBytes = addValue(graphForm, tr("Weights"), "weightBytes", tr("Parameter bytes (1 MiB = 2^20 bytes)"));
    m_kvCacheBytes = addValue(graphForm, tr("KV cache"), "kvCacheBytes", tr("Key/value cache bytes read and written"));
    m_activationBytes = addValue(graphForm, tr("Activations"), "activationBytes",
        tr("Intermediate tensors produced and consumed inside the graph"));
    m_outputBytes = addValue(graphForm, tr("Outputs"), "outputBytes", tr("Tensors the graph hands back"));
    m_optimizerStateBytes = addValue(graphForm, tr("Optimizer state"), "optimizerStateBytes",
        tr("Adam moments and other optimizer state of a training step (not parameters)"));

    auto* runBox = new QGroupBox(tr("Run (workspace)"));
    auto* runForm = new QFormLayout(runBox);
    m_phase = addValue(runForm, tr("Phase"), "phase", tr("decode: one step; prefill: the prompt pass; train: forward"));
    m_batch = addValue(runForm, tr("Batch"), "batch", tr("Sequences processed together"));
    m_seqLen = addValue(runForm, tr("Sequence length"), "seqLen", tr("New tokens per sequence in this pass"));
    m_kvLen = addValue(runForm, tr("KV length"), "kvLen", tr("Tokens already in the KV cache per sequence"));
    m_runBox = runBox;

    auto* kindBox = new QGroupBox(tr("Ops per kind"));
    m_opsPerKind = new QTableWidget(0, 2);
    m_opsPerKind->setObjectName(QStringLiteral("opsPerKind"));
    m_opsPerKind->setHorizontalHeaderLabels({ tr("Kind"), tr("Ops") });
    m_opsPerKind->verticalHeader()->hide();
    m_opsPerKind->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_opsPerKind->setSelectionMode(QAbstractItemView::NoSelection);
    m_opsPerKind->setFocusPolicy(Qt::NoFocus);
    m_opsPerKind->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_opsPerKind->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_opsPerKind->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_opsPerKind->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    (new QVBoxLayout(kindBox))->addWidget(m_opsPerKind);

    m_details = new QWidget;
    auto* detailsLayout = new QVBoxLayout(m_details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(graphBox);
    detailsLayout->addWidget(kindBox);

    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    column->addWidget(m_title);
    column->addWidget(m_file);
    column->addWidget(m_error);
    column->addWidget(m_details);
    column->addWidget(m_runBox);
    column->addStretch(1);

    // A short window must not clip the panel: it scrolls instead.
    m_scroll = new QScrollArea;
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scroll);

    setSummary(nullptr);
}

QLabel* ModelSummaryView::addValue(
    QFormLayout* form, const QString& label, const char* objectName, const QString& toolTip)
{
    auto* value = new QLabel;
    value->setObjectName(QLatin1String(objectName));
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* name = new QLabel(label);
    name->setToolTip(toolTip);
    value->setToolTip(toolTip);
    form->addRow(name, value);
    return value;
}

void ModelSummaryView::setSummary(std::shared_ptr<const ModelSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    if (!m_snapshot) {
        m_title->setText(tr("No model loaded"));
        m_file->setText(tr("Open a model with File → Open model… (ONNX, einstein JSON, elk.graph), "
                           "drop a model file here, or pick a bundled model."));
        m_file->setToolTip({});
        m_error->hide();
        m_details->hide();
        m_runBox->hide();
        fitWidth();
        return;
    }
    const ModelSnapshot& shown = *m_snapshot;
    showFile(shown.filePath, shown.description);
    showRun(shown.run);
    m_runBox->setVisible(m_runVisible);
    if (!shown.ok()) {
        m_title->setText(tr("Model not loaded"));
        m_error->setText(shown.error); // word wrap breaks long paths after their slashes
        m_error->show();
        m_details->hide();
        fitWidth();
        return;
    }
    m_title->setText(shown.summary.name.empty() ? tr("Unnamed model") : text(shown.summary.name));
    m_error->hide();
    showFigures(shown);
    m_details->show();
    fitWidth();
}

void ModelSummaryView::showLoading(const QString& filePath)
{
    m_snapshot.reset();
    m_title->setText(tr("Loading model…"));
    showFile(filePath, {});
    m_error->hide();
    m_details->hide();
    m_runBox->hide();
    fitWidth();
}

void ModelSummaryView::setRunVisible(bool visible)
{
    m_runVisible = visible;
    m_runBox->setVisible(visible && m_snapshot);
    fitWidth();
}

void ModelSummaryView::fitWidth()
{
    // The horizontal scroll bar is off, so the panel must be at least as wide as what it shows
    // (long model names and figures do not wrap). A floor keeps the dock from jumping per model.
    const int floor = fontMetrics().horizontalAdvance(QLatin1Char('x')) * 40;
    const int needed
        = m_scroll->widget()->minimumSizeHint().width() + m_scroll->verticalScrollBar()->sizeHint().width();
    m_scroll->setMinimumWidth(std::max(floor, needed));
}

void ModelSummaryView::showFile(const QString& filePath, const QString& description)
{
    // A bundled model has no file: what it was built for says more ("bundled Llama-2-13B, decode, batch 32, ...").
    const bool bundled = filePath.startsWith(QLatin1String("bundled:"));
    m_file->setText(bundled && !description.isEmpty() ? description : QFileInfo(filePath).fileName());
    m_file->setToolTip(description.isEmpty() || bundled ? filePath : filePath + QLatin1Char('\n') + description);
}

void ModelSummaryView::showFigures(const ModelSnapshot& snapshot)
{
    const elk::model::GraphSummary& summary = snapshot.summary;
    m_opCount->setText(formatCount(summary.opCount));
    m_distinctExpressions->setText(formatCount(summary.distinctExpressionCount));
    m_tensorCount->setText(formatCount(summary.tensorCount));
    m_flops->setText(formatFlops(summary.flops));
    m_weightBytes->setText(formatBytes(summary.bytesOf(TensorRole::Weight)));
    m_kvCacheBytes->setText(formatBytes(summary.bytesOf(TensorRole::KvCache)));
    m_activationBytes->setText(formatBytes(summary.bytesOf(TensorRole::Activation)));
    m_outputBytes->setText(formatBytes(summary.bytesOf(TensorRole::Output)));
    m_optimizerStateBytes->setText(formatBytes(summary.bytesOf(TensorRole::OptimizerState)));
    showOpsPerKind(summary);
}

void ModelSummaryView::showRun(const RunParameters& run)
{
    m_phase->setText(QLatin1String(elk::run::toString(run.phase)));
    m_batch->setText(formatCount(run.batch));
    m_seqLen->setText(formatCount(run.seqLen));
    m_kvLen->setText(formatCount(run.kvLen));
}

void ModelSummaryView::showOpsPerKind(const elk::model::GraphSummary& summary)
{
    m_opsPerKind->setRowCount(0);
    for (const elk::model::OpKind kind : elk::model::kAllOpKinds) {
        const std::int64_t count = summary.opsOf(kind);
        if (count == 0)
            continue; // the table lists what the model has, not every kind the IR knows
        const int row = m_opsPerKind->rowCount();
        m_opsPerKind->insertRow(row);
        m_opsPerKind->setItem(row, 0, new QTableWidgetItem(QLatin1String(elk::model::toString(kind))));
        auto* countItem = new QTableWidgetItem(formatCount(count));
        countItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_opsPerKind->setItem(row, 1, countItem);
    }
    // Tall enough for every row, so the table never scrolls inside the scrolling panel.
    m_opsPerKind->resizeRowsToContents();
    int height = m_opsPerKind->horizontalHeader()->sizeHint().height() + 2 * m_opsPerKind->frameWidth();
    for (int row = 0; row < m_opsPerKind->rowCount(); ++row)
        height += m_opsPerKind->rowHeight(row);
    m_opsPerKind->setFixedHeight(height);
}

} // namespace elk::widgets
