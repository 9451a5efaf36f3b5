// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QGroupBox>

#include "engine/run/models.h"

class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace elk::widgets {

/// Asks for the sizes of a model file's free input dims (an ONNX export with a dynamic batch or image
/// size): one row per dim with its name (or "unnamed"), where it appears (input and axis, with the
/// input's shape) and a spin box starting at the engine's suggestion. "Load with these sizes" emits
/// the bindings, the same ones elk's --dim and --input-shape give.
/// Child objectNames for tests: freeDimsIntro, freeDim0, freeDim1, ..., bindFreeDims.
class FreeDimsForm : public QGroupBox {
    Q_OBJECT
public:
    explicit FreeDimsForm(QWidget* parent = nullptr);

    /// Rebuilds the rows; empty hides the form.
    void setFreeDims(const std::vector<elk::import::FreeDim>& dims);
    /// The sizes the spin boxes hold, in the order of setFreeDims().
    std::vector<std::int64_t> sizes() const;

signals:
    void bindRequested(const elk::import::DimBindings& bindings);

private:
    std::vector<elk::import::FreeDim> m_dims;
    std::vector<QSpinBox*> m_boxes;
    QLabel* m_intro = nullptr;
    QFormLayout* m_rows = nullptr;
    QPushButton* m_bind = nullptr;
};

} // namespace elk::widgets
