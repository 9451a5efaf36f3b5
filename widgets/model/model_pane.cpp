// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/model_pane.h"

#include <algorithm>

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include "engine/run/model_load.h"
#include "engine/run/models.h"
#include "widgets/model/free_dims_form.h"
#include "widgets/model/model_summary_view.h"
#include "widgets/model/op_table_model.h"
#include "widgets/model/quantity_format.h"

namespace elk::widgets {

using elk::run::Phase;

namespace {

    constexpr Phase kPhases[] = { Phase::Decode, Phase::Prefill, Phase::Train };
    const QLatin1String kBundledPrefix("bundled:");

    /// The values resolveRunSpec() fills in for a phase (engine/run/run_resolve.cpp).
    RunParameters phaseDefaults(Phase phase)
    {
        RunParameters run;
        run.phase = phase;
        run.seqLen = phase == Phase::Decode ? 1 : 2048;
        run.kvLen = phase == Phase::Decode ? 2048 : 0;
        return run;
    }

    QSpinBox* makeSpinBox(const char* objectName, std::int64_t minimum, std::int64_t maximum, const QString& toolTip)
    {
        auto* box = new QSpinBox;
        box->setObjectName(QLatin1String(objectName));
        box->setRange(int(minimum), int(maximum));
        box->setGroupSeparatorShown(true);
        box->setKeyboardTracking(false); // one run per finished edit, not per keystroke
        box->setAlignment(Qt::AlignRight);
        box->setToolTip(toolTip);
        return box;
    }

    void setItemEnabled(QComboBox* combo, int index, bool enabled)
    {
        if (auto* model = qobject_cast<QStandardItemModel*>(combo->model())) {
            if (QStandardItem* item = model->item(index))
                item->setEnabled(enabled);
        }
    }

    /// Phases the model can be bound to: a bundled model's architecture decides; einstein_v2 graphs are
    /// forward passes only; other files take any phase.
    std::vector<Phase> phasesOf(const QString& pathOrBundledName)
    {
        if (const auto name = elk::run::bundledModelName(pathOrBundledName.toStdString());
            name && !QFileInfo::exists(pathOrBundledName)) {
            std::vector<Phase> phases;
            for (const auto phase : elk::import::supportedPhases(*elk::import::bundledModelConfig(*name))) {
                for (const Phase candidate : kPhases) {
                    if (elk::run::toModelPhase(candidate) == phase)
                        phases.push_back(candidate);
                }
            }
            return phases;
        }
        const QString lower = pathOrBundledName.toLower();
        if (lower.endsWith(QLatin1String(".json")) && !lower.endsWith(QLatin1String(".elk.json")))
            return { Phase::Decode, Phase::Prefill };
        return { std::begin(kPhases), std::end(kPhases) };
    }

} // namespace

ModelPane::ModelPane(QWidget* parent)
    : QWidget(parent)
    , m_ops(new OpTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setAcceptDrops(true);
    m_proxy->setSourceModel(m_ops);
    m_proxy->setSortRole(OpTableModel::SortRole);
    m_proxy->setFilterRole(OpTableModel::FilterRole);
    m_proxy->setFilterKeyColumn(OpTableModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_summary = new ModelSummaryView;
    m_summary->setObjectName(QStringLiteral("modelSummary"));
    m_summary->setRunVisible(false); // the run box of this pane shows and edits them

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_summary);
    splitter->addWidget(buildOpsBox());
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({ 2, 3 }); // proportions: the summary's figures stay readable above the table

    m_freeDims = new FreeDimsForm;
    m_freeDims->setObjectName(QStringLiteral("freeDims"));
    connect(m_freeDims, &FreeDimsForm::bindRequested, this, [this](const elk::import::DimBindings& bindings) {
        for (const auto& [name, size] : bindings.named)
            m_dims[name] = size;
        for (const auto& [input, shape] : bindings.inputShapes)
            m_inputShapes[input] = shape;
        emit runParametersChanged(runParameters());
    });

    m_openError = new QLabel;
    m_openError->setObjectName(QStringLiteral("openError"));
    m_openError->setWordWrap(true);
    m_openError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_openError->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_openError->hide();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildSourceRow());
    layout->addWidget(m_openError);
    layout->addWidget(buildRunBox());
    layout->addWidget(m_freeDims);
    layout->addWidget(splitter, 1);

    rebuildRecentMenu();
    setRunParameters(RunParameters {});
    setSnapshot(nullptr);
}

ModelPane::~ModelPane() = default;

QWidget* ModelPane::buildSourceRow()
{
    m_bundled = new QComboBox;
    m_bundled->setObjectName(QStringLiteral("bundledModels"));
    m_bundled->setToolTip(tr("Models built into Elk Studio (transformers with their published shapes, no weights)"));
    m_bundled->addItem(tr("Bundled model…"));
    setItemEnabled(m_bundled, 0, false);
    for (const std::string& name : elk::import::bundledModelNames()) {
        // Architecture numbers only: parameterCount() builds the whole ONNX graph, too slow for a tooltip.
        const auto config = elk::import::bundledModelConfig(name);
        m_bundled->addItem(
            QString::fromStdString(config->title), QString(kBundledPrefix + QString::fromStdString(name)));
        m_bundled->setItemData(m_bundled->count() - 1,
            tr("%1: %2 layers, hidden size %3, %4 attention heads")
                .arg(QString::fromStdString(name))
                .arg(config->layers)
                .arg(config->hidden)
                .arg(config->heads),
            Qt::ToolTipRole);
    }
    connect(m_bundled, &QComboBox::activated, this, &ModelPane::onBundledActivated);

    m_open = new QPushButton(tr("Open…"));
    m_open->setObjectName(QStringLiteral("openModel"));
    m_open->setToolTip(tr("Open a model file: ONNX, NNFusion/einstein JSON, Elk graph or StableHLO"));
    connect(m_open, &QPushButton::clicked, this, &ModelPane::onOpenClicked);

    m_recentMenu = new QMenu(this);
    connect(
        m_recentMenu, &QMenu::aboutToShow, this, &ModelPane::rebuildRecentMenu); // another window may have added one
    m_recent = new QToolButton;
    m_recent->setObjectName(QStringLiteral("recentModels"));
    m_recent->setText(tr("Recent"));
    m_recent->setToolTip(tr("Model files opened recently"));
    m_recent->setPopupMode(QToolButton::InstantPopup);
    m_recent->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_recent->setMenu(m_recentMenu);

    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_bundled, 1);
    layout->addWidget(m_open);
    layout->addWidget(m_recent);
    return row;
}

QWidget* ModelPane::buildRunBox()
{
    m_phase = new QComboBox;
    m_phase->setObjectName(QStringLiteral("phase"));
    m_phase->setToolTip(tr("decode: one generation step over the KV cache; prefill: the prompt pass; "
                           "train: forward, backward and optimizer step"));
    for (const Phase phase : kPhases)
        m_phase->addItem(QLatin1String(elk::run::toString(phase)), int(phase));
    connect(m_phase, &QComboBox::currentIndexChanged, this, &ModelPane::onPhaseChanged);

    m_batch = makeSpinBox("batch", 1, elk::run::kMaxBatch, tr("Sequences processed together"));
    m_seqLen = makeSpinBox("seqLen", 1, elk::run::kMaxTokens, tr("New tokens per sequence in this pass"));
    m_kvLen = makeSpinBox("kvLen", 0, elk::run::kMaxTokens,
        tr("Tokens already in the KV cache per sequence (decode: at least 1; train: none)"));
    for (QSpinBox* box : { m_batch, m_seqLen, m_kvLen })
        connect(box, &QSpinBox::valueChanged, this, &ModelPane::onParameterEdited);

    m_fixedShapesNote = new QLabel(tr("This elk.graph file has fixed shapes: batch and lengths set the run, "
                                      "not the model."));
    m_fixedShapesNote->setObjectName(QStringLiteral("fixedShapesNote"));
    m_fixedShapesNote->setWordWrap(true);
    m_fixedShapesNote->setForegroundRole(QPalette::PlaceholderText);
    m_fixedShapesNote->hide();

    auto* box = new QGroupBox(tr("Run parameters"));
    auto* grid = new QGridLayout(box);
    auto addPair = [grid](int row, int column, const QString& label, QWidget* field) {
        auto* name = new QLabel(label);
        name->setBuddy(field);
        name->setToolTip(field->toolTip());
        grid->addWidget(name, row, column);
        grid->addWidget(field, row, column + 1);
    };
    addPair(0, 0, tr("&Phase"), m_phase);
    addPair(0, 2, tr("&Batch"), m_batch);
    addPair(1, 0, tr("&Seq length"), m_seqLen);
    addPair(1, 2, tr("&KV length"), m_kvLen);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    grid->addWidget(m_fixedShapesNote, 2, 0, 1, 4);
    return box;
}

QWidget* ModelPane::buildOpsBox()
{
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("opFilter"));
    m_filter->setPlaceholderText(tr("Filter ops by name or kind"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateOpCount();
    });
    m_opCount = new QLabel;
    m_opCount->setObjectName(QStringLiteral("opCount"));

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("opTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OpTableModel::IndexColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle); // ONNX names differ at both ends ("layers.7 ... MatMul")
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Dims are the longest cells: shown last, so a narrow pane still shows the figures.
    m_table->horizontalHeader()->moveSection(OpTableModel::DimsColumn, OpTableModel::ColumnCount - 1);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { onCurrentRowChanged(current); });

    auto* box = new QGroupBox(tr("Operators"));
    auto* layout = new QVBoxLayout(box);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_opCount);
    layout->addLayout(filterRow);
    layout->addWidget(m_table, 1);
    return box;
}

RunParameters ModelPane::runParameters() const
{
    RunParameters run;
    run.phase = Phase(m_phase->currentData().toInt());
    run.batch = m_batch->value();
    run.seqLen = m_seqLen->value();
    run.kvLen = run.phase == Phase::Train ? 0 : m_kvLen->value();
    run.dims = m_dims;
    run.inputShapes = m_inputShapes;
    return run;
}

void ModelPane::setRunParameters(const RunParameters& run)
{
    m_updating = true;
    m_phase->setCurrentIndex(m_phase->findData(int(run.phase)));
    applyKvBounds(run.phase);
    m_batch->setValue(int(std::clamp<std::int64_t>(run.batch, 1, elk::run::kMaxBatch)));
    m_seqLen->setValue(int(std::clamp<std::int64_t>(run.seqLen, 1, elk::run::kMaxTokens)));
    m_kvLen->setValue(int(std::clamp<std::int64_t>(run.kvLen, 0, elk::run::kMaxTokens)));
    m_dims = run.dims;
    m_inputShapes = run.inputShapes;
    m_shownPhase = run.phase;
    m_updating = false;
}

void ModelPane::applyKvBounds(Phase phase)
{
    // The bounds of validateRunSpec(): decode needs a KV cache, a training pass has none.
    m_kvLen->setMinimum(phase == Phase::Decode ? 1 : 0);
    if (phase == Phase::Train)
        m_kvLen->setValue(0);
    m_kvLen->setEnabled(phase != Phase::Train);
}

void ModelPane::onPhaseChanged()
{
    if (m_updating)
        return;
    const Phase phase = Phase(m_phase->currentData().toInt());
    const RunParameters before = phaseDefaults(m_shownPhase);
    const RunParameters after = phaseDefaults(phase);
    m_updating = true;
    // Values the user left at the old phase's defaults move to the new phase's: a prefill of 1 token
    // is never what switching to prefill meant. Edited values stay.
    const bool seqAtDefault = m_seqLen->value() == before.seqLen;
    const bool kvAtDefault = m_kvLen->value() == before.kvLen || phase == Phase::Train || m_shownPhase == Phase::Train;
    m_kvLen->setMinimum(0); // the old phase's bound must not clamp the new phase's default
    if (seqAtDefault)
        m_seqLen->setValue(int(after.seqLen));
    if (kvAtDefault)
        m_kvLen->setValue(int(after.kvLen));
    applyKvBounds(phase);
    m_shownPhase = phase;
    m_updating = false;
    emit runParametersChanged(runParameters());
}

void ModelPane::onParameterEdited()
{
    if (!m_updating)
        emit runParametersChanged(runParameters());
}

void ModelPane::onBundledActivated(int index)
{
    const QString model = m_bundled->itemData(index).toString();
    if (model.isEmpty())
        return;
    // One click must give a model that loads: pick a phase the architecture has (DiT has no decode).
    const std::vector<Phase> phases = phasesOf(model);
    if (!phases.empty() && std::find(phases.begin(), phases.end(), runParameters().phase) == phases.end())
        m_phase->setCurrentIndex(m_phase->findData(int(phases.front()))); // emits runParametersChanged
    requestModel(model);
}

void ModelPane::onOpenClicked()
{
    const QStringList recent = recentFiles();
    const QString folder = recent.isEmpty() ? QString() : QFileInfo(recent.front()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), folder, fileDialogFilter());
    if (!path.isEmpty())
        requestModel(path);
}

QString ModelPane::fileDialogFilter()
{
    return tr("Models (*.onnx *.json *.mlir);;ONNX (*.onnx);;NNFusion/einstein JSON (*.json);;Elk graph (*.elk.json);;"
              "StableHLO (*.mlir);;All files (*)");
}

bool ModelPane::isModelFileName(const QString& path)
{
    const QString lower = path.toLower();
    return lower.endsWith(QLatin1String(".onnx")) || lower.endsWith(QLatin1String(".json"))
        || lower.endsWith(QLatin1String(".mlir"));
}

QStringList ModelPane::recentFiles() const
{
    QStringList files = QSettings().value(QLatin1String(kRecentFilesKey)).toStringList();
    files.removeDuplicates();
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    return files;
}

void ModelPane::addRecentFile(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QLatin1String(kRecentFilesKey), files);
    rebuildRecentMenu();
}

void ModelPane::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString& path : files) {
        const bool exists = QFileInfo::exists(path);
        QAction* action = m_recentMenu->addAction(
            exists ? QFileInfo(path).fileName() : tr("%1 (missing)").arg(QFileInfo(path).fileName()));
        action->setData(path);
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setEnabled(exists);
        connect(action, &QAction::triggered, this, [this, path] { requestModel(path); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction(tr("Clear list")), &QAction::triggered, this, [this] {
            QSettings().remove(QLatin1String(kRecentFilesKey));
            rebuildRecentMenu();
        });
    }
    m_recent->setEnabled(!files.isEmpty());
}

void ModelPane::showModelSource(const QString& pathOrBundledName)
{
    const int bundledIndex = m_bundled->findData(pathOrBundledName);
    m_bundled->setCurrentIndex(std::max(bundledIndex, 0));
    const std::vector<Phase> phases = phasesOf(pathOrBundledName);
    for (int i = 0; i < m_phase->count(); ++i) {
        const Phase phase = Phase(m_phase->itemData(i).toInt());
        setItemEnabled(
            m_phase, i, pathOrBundledName.isEmpty() || std::find(phases.begin(), phases.end(), phase) != phases.end());
    }
    m_fixedShapesNote->setVisible(pathOrBundledName.endsWith(QLatin1String(".elk.json"), Qt::CaseInsensitive));
}

void ModelPane::setSnapshot(std::shared_ptr<const ModelSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    m_openError->hide();
    m_summary->setSummary(m_snapshot);
    m_ops->setSnapshot(m_snapshot);
    m_freeDims->setFreeDims(m_snapshot ? m_snapshot->freeDims : std::vector<elk::import::FreeDim> {});
    showModelSource(m_snapshot ? m_snapshot->filePath : QString());
    if (m_snapshot && m_snapshot->ok() && !m_snapshot->isBundled())
        addRecentFile(m_snapshot->filePath);

    // Fit the columns to what this model holds, but never let a long ONNX name push the numbers away.
    m_table->resizeColumnsToContents();
    const int em = m_table->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    m_table->setColumnWidth(
        OpTableModel::NameColumn, std::min(m_table->columnWidth(OpTableModel::NameColumn), 14 * em));
    updateOpCount();
}

void ModelPane::showLoading(const QString& pathOrBundledName)
{
    m_snapshot.reset();
    m_openError->hide();
    m_summary->showLoading(pathOrBundledName.startsWith(kBundledPrefix) ? pathOrBundledName.mid(kBundledPrefix.size())
                                                                        : pathOrBundledName);
    m_ops->setSnapshot(nullptr);
    m_freeDims->setFreeDims({});
    showModelSource(pathOrBundledName);
    updateOpCount();
}

void ModelPane::showOpenError(const QString& message)
{
    m_openError->setText(message);
    m_openError->show();
}

QString ModelPane::openErrorText() const
{
    return m_openError->isVisibleTo(this) ? m_openError->text() : QString();
}

void ModelPane::updateOpCount()
{
    const int total = m_ops->rowCount();
    const int shown = m_proxy->rowCount();
    m_opCount->setText(shown == total ? tr("%1 ops").arg(formatCount(total))
                                      : tr("%1 of %2 ops").arg(formatCount(shown), formatCount(total)));
}

void ModelPane::selectOp(int graphOp)
{
    const int row = m_ops->rowOfOp(graphOp);
    if (row < 0)
        return;
    QModelIndex proxyIndex = m_proxy->mapFromSource(m_ops->index(row, 0));
    if (!proxyIndex.isValid() && !m_filter->text().isEmpty()) {
        m_filter->clear(); // an op selected elsewhere must be visible here
        proxyIndex = m_proxy->mapFromSource(m_ops->index(row, 0));
    }
    if (!proxyIndex.isValid())
        return;
    m_updating = true;
    m_table->selectionModel()->setCurrentIndex(
        proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_updating = false;
    m_table->scrollTo(proxyIndex, QAbstractItemView::PositionAtCenter); // with the ops around it
}

void ModelPane::onCurrentRowChanged(const QModelIndex& current)
{
    if (m_updating || !current.isValid())
        return;
    emit opActivated(current.data(OpTableModel::GraphOpRole).toInt());
}

QString ModelPane::droppedModel(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1)
        return {};
    const QUrl url = mime->urls().front();
    return url.isLocalFile() && isModelFileName(url.toLocalFile()) ? url.toLocalFile() : QString();
}

void ModelPane::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedModel(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void ModelPane::dragMoveEvent(QDragMoveEvent* event)
{
    if (!droppedModel(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void ModelPane::dropEvent(QDropEvent* event)
{
    const QString path = droppedModel(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    requestModel(path);
}

void ModelPane::requestModel(const QString& pathOrBundledName)
{
    // Sizes given for one file's free dims mean nothing for another.
    if (!m_snapshot || m_snapshot->filePath != pathOrBundledName) {
        m_dims.clear();
        m_inputShapes.clear();
    }
    showModelSource(pathOrBundledName);
    emit modelRequested(pathOrBundledName);
}

} // namespace elk::widgets
