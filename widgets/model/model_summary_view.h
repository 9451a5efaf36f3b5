// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QWidget>

#include "widgets/model/model_snapshot.h"

class QFormLayout;
class QLabel;
class QScrollArea;
class QTableWidget;

namespace elk::widgets {

/// The model panel: what the loaded model is (ops, distinct expressions, tensors, FLOPs, bytes per
/// tensor role, ops per kind) and the run parameters of the workspace, or why the model did not load.
///
/// Value labels carry objectNames (opCount, distinctExpressionCount, tensorCount, flops,
/// weightBytes, kvCacheBytes, activationBytes, outputBytes, phase, batch, seqLen, kvLen); the table
/// is "opsPerKind", the error text "modelError", the heading "modelTitle", the file "modelFile".
class ModelSummaryView : public QWidget {
    Q_OBJECT
public:
    explicit ModelSummaryView(QWidget* parent = nullptr);

    /// Shows the snapshot; nullptr shows the empty state ("no model loaded").
    void setSummary(std::shared_ptr<const ModelSnapshot> snapshot);
    std::shared_ptr<const ModelSnapshot> summary() const { return m_snapshot; }

    /// Shown in place of the figures while a model is being read (the old figures would mislead).
    void showLoading(const QString& filePath);

    /// Whether the "Run (workspace)" box shows; a pane that edits the run parameters hides it.
    void setRunVisible(bool visible);

private:
    QLabel* addValue(QFormLayout* form, const QString& label, const char* objectName, const QString& toolTip);
    void showFigures(const ModelSnapshot& snapshot);
    void showRun(const RunParameters& run);
    void showOpsPerKind(const elk::model::GraphSummary& summary);
    void showFile(const QString& filePath, const QString& description);
    void fitWidth();

    std::shared_ptr<const ModelSnapshot> m_snapshot;
    QScrollArea* m_scroll = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_file = nullptr;
    QLabel* m_error = nullptr;
    QWidget* m_details = nullptr;
    QWidget* m_runBox = nullptr;
    bool m_runVisible = true;
    QLabel* m_opCount = nullptr;
    QLabel* m_distinctExpressions = nullptr;
    QLabel* m_tensorCount = nullptr;
    QLabel* m_flops = nullptr;
    QLabel* m_weightBytes = nullptr;
    QLabel* m_kvCacheBytes = nullptr;
    QLabel* m_activationBytes = nullptr;
    QLabel* m_outputBytes = nullptr;
    QLabel* m_optimizerStateBytes = nullptr;
    QLabel* m_phase = nullptr;
    QLabel* m_batch = nullptr;
    QLabel* m_seqLen = nullptr;
    QLabel* m_kvLen = nullptr;
    QTableWidget* m_opsPerKind = nullptr;
};

} // namespace elk::widgets
