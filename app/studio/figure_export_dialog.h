// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include "widgets/plots/figure_style.h"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace elk::app {

/// Asks where and how to export the current view: a file (PDF, SVG or PNG by its suffix), the
/// figure's size in cm and font size in pt (one column, two columns or slide as starting points),
/// and the PNG resolution.
class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    FigureExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);

    QString path() const;
    elk::widgets::FigureStyle style() const;
    void setPath(const QString& path);
    void setStyle(const elk::widgets::FigureStyle& style);

    /// Empty when `path` ends in .pdf, .svg or .png; else why not.
    static QString suffixProblem(const QString& path);

private:
    void browse();
    void applyPreset(int index);
    void validate();

    QLineEdit* m_path = nullptr;
    QComboBox* m_preset = nullptr;
    QDoubleSpinBox* m_width = nullptr;
    QDoubleSpinBox* m_height = nullptr;
    QDoubleSpinBox* m_font = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    bool m_patterns = true;
};

} // namespace elk::app
