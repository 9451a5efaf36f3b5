// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QStringList>
#include <QWidget>

#include "widgets/model/model_snapshot.h"

class QComboBox;
class QDragEnterEvent;
class QDragMoveEvent;
class QDropEvent;
class QLabel;
class QLineEdit;
class QMenu;
class QMimeData;
class QModelIndex;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QToolButton;

namespace elk::widgets {

class FreeDimsForm;
class ModelSummaryView;
class OpTableModel;

/// The model pane: where a model comes from (bundled models, Open…, recent files, drag and drop),
/// the run parameters its symbolic dims are bound to, what it is (ModelSummaryView) and its
/// operators (a sortable, filterable OpTableModel).
///
/// The pane never loads anything: it asks (modelRequested, runParametersChanged) and shows the
/// snapshot it is given. Recent files live in QSettings (UI state only).
/// Child objectNames for tests: bundledModels, openModel, recentModels, phase, batch, seqLen, kvLen,
/// fixedShapesNote, freeDims (a FreeDimsForm, shown when the file leaves input dims free), openError,
/// opFilter, opCount, opTable, modelSummary.
class ModelPane : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxRecentFiles = 10;
    static constexpr const char* kRecentFilesKey = "modelPane/recentFiles";

    explicit ModelPane(QWidget* parent = nullptr);
    ~ModelPane() override;

    RunParameters runParameters() const;
    std::shared_ptr<const ModelSnapshot> snapshot() const { return m_snapshot; }

    /// Most recent first, at most kMaxRecentFiles, no duplicates.
    QStringList recentFiles() const;
    /// Puts `path` at the top of the recent files (setSnapshot does it for every file that loads).
    void addRecentFile(const QString& path);

    /// The Open… dialog's name filters (ONNX, NNFusion/einstein JSON, Elk graph, StableHLO).
    static QString fileDialogFilter();
    /// Whether a dropped file may be a model: .onnx, .json (einstein or elk.graph) or .mlir.
    static bool isModelFileName(const QString& path);

    OpTableModel* opTableModel() const { return m_ops; }
    QSortFilterProxyModel* opProxyModel() const { return m_proxy; }

public slots:
    /// Shows a loaded model (or why it did not load); nullptr shows the empty state. Does not
    /// change the run parameter controls: a load that finishes late must not undo an edit.
    void setSnapshot(std::shared_ptr<const ModelSnapshot> snapshot);
    /// Shown while a model is read: the old figures and ops would mislead.
    void showLoading(const QString& pathOrBundledName);
    /// A file that was asked for did not open while the model shown stays: says so above it, until
    /// the next snapshot or load.
    void showOpenError(const QString& message);
    QString openErrorText() const;
    /// Sets the controls (e.g. from a workspace) without emitting runParametersChanged.
    void setRunParameters(const elk::widgets::RunParameters& run);
    /// Selects and shows the op's row (clearing a filter that hides it); does not emit opActivated.
    void selectOp(int graphOp);

signals:
    /// A file path, or "bundled:NAME" for a bundled model.
    void modelRequested(const QString& pathOrBundledName);
    void runParametersChanged(const elk::widgets::RunParameters& run);
    /// The user selected an op in the table (its graph op id).
    void opActivated(int graphOp);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* buildSourceRow();
    QWidget* buildRunBox();
    QWidget* buildOpsBox();
    void onOpenClicked();
    void onBundledActivated(int index);
    void onPhaseChanged();
    void onParameterEdited();
    void onCurrentRowChanged(const QModelIndex& current);
    void applyKvBounds(elk::run::Phase phase);
    void rebuildRecentMenu();
    void updateOpCount();
    void showModelSource(const QString& pathOrBundledName);
    /// The user picked a model: free-dim sizes of another file are dropped, then modelRequested.
    void requestModel(const QString& pathOrBundledName);
    static QString droppedModel(const QMimeData* mime);

    std::shared_ptr<const ModelSnapshot> m_snapshot;
    QComboBox* m_bundled = nullptr;
    QPushButton* m_open = nullptr;
    QToolButton* m_recent = nullptr;
    QMenu* m_recentMenu = nullptr;
    QComboBox* m_phase = nullptr;
    QSpinBox* m_batch = nullptr;
    QSpinBox* m_seqLen = nullptr;
    QSpinBox* m_kvLen = nullptr;
    QLabel* m_fixedShapesNote = nullptr;
    FreeDimsForm* m_freeDims = nullptr;
    QLabel* m_openError = nullptr;
    std::map<std::string, std::int64_t> m_dims; ///< RunParameters::dims
    std::map<std::string, std::vector<std::int64_t>> m_inputShapes; ///< RunParameters::inputShapes
    ModelSummaryView* m_summary = nullptr;
    OpTableModel* m_ops = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_opCount = nullptr;
    QTableView* m_table = nullptr;
    elk::run::Phase m_shownPhase = elk::run::Phase::Decode; ///< the phase the controls hold values for
    bool m_updating = false; ///< set while the pane changes its own controls: no signals then
};

} // namespace elk::widgets
