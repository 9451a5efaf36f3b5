// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/figure_export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace elk::app {

namespace {
    QDoubleSpinBox* centimetres(double value)
    {
        auto* box = new QDoubleSpinBox;
        box->setRange(2.0, 60.0);
        box->setDecimals(1);
        box->setSingleStep(0.5);
        box->setSuffix(QStringLiteral(" cm"));
        box->setValue(value);
        return box;
    }
} // namespace

FigureExportDialog::FigureExportDialog(const QString& suggestedPath, QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(suggestedPath))
    , m_preset(new QComboBox)
    , m_width(centimetres(8.5))
    , m_height(centimetres(6.0))
    , m_font(new QDoubleSpinBox)
    , m_dpi(new QSpinBox)
    , m_problem(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel))
{
    setWindowTitle(tr("Export figure"));
    m_path->setObjectName(QStringLiteral("figurePath"));
    m_path->setMinimumWidth(320);
    m_path->setToolTip(tr("The format follows the suffix: .pdf and .svg are vector graphics, .png a bitmap."));
    auto* browseButton = new QPushButton(tr("Browse…"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);

    m_preset->addItem(tr("One column (8.5 × 6 cm, 8 pt)"));
    m_preset->addItem(tr("Two columns (17.8 × 7 cm, 8 pt)"));
    m_preset->addItem(tr("Slide (25.4 × 14.3 cm, 16 pt)"));
    m_font->setRange(4.0, 48.0);
    m_font->setDecimals(1);
    m_font->setSuffix(QStringLiteral(" pt"));
    m_font->setValue(8.0);
    m_dpi->setRange(72, 1200);
    m_dpi->setSuffix(QStringLiteral(" dpi"));
    m_dpi->setValue(300);
    m_dpi->setToolTip(tr("Resolution of PNG files (PDF and SVG are vector graphics)."));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->setWordWrap(true);

    auto* form = new QFormLayout(this);
    form->addRow(tr("File:"), pathRow);
    form->addRow(tr("Size:"), m_preset);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    form->addRow(tr("Font size:"), m_font);
    form->addRow(tr("PNG resolution:"), m_dpi);
    form->addRow(m_problem);
    form->addRow(m_buttons);

    connect(browseButton, &QPushButton::clicked, this, &FigureExportDialog::browse);
    connect(m_preset, &QComboBox::activated, this, &FigureExportDialog::applyPreset);
    connect(m_path, &QLineEdit::textChanged, this, &FigureExportDialog::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

QString FigureExportDialog::suffixProblem(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (path.trimmed().isEmpty())
        return tr("Choose a file.");
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("svg") && suffix != QLatin1String("png"))
        return tr("The file must end in .pdf, .svg or .png (it ends in '%1').").arg(suffix);
    return {};
}

QString FigureExportDialog::path() const
{
    return m_path->text().trimmed();
}

elk::widgets::FigureStyle FigureExportDialog::style() const
{
    elk::widgets::FigureStyle style;
    style.widthCm = m_width->value();
    style.heightCm = m_height->value();
    style.fontPt = m_font->value();
    style.pngDpi = m_dpi->value();
    style.patterns = m_patterns;
    return style;
}

void FigureExportDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

void FigureExportDialog::setStyle(const elk::widgets::FigureStyle& style)
{
    m_width->setValue(style.widthCm);
    m_height->setValue(style.heightCm);
    m_font->setValue(style.fontPt);
    m_dpi->setValue(style.pngDpi);
    m_patterns = style.patterns;
}

void FigureExportDialog::browse()
{
    const QString chosen
        = QFileDialog::getSaveFileName(this, tr("Export figure"), path(), tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

void FigureExportDialog::applyPreset(int index)
{
    switch (index) {
    case 0:
        setStyle(elk::widgets::FigureStyle::column());
        break;
    case 1:
        setStyle(elk::widgets::FigureStyle::wide());
        break;
    default:
        setStyle(elk::widgets::FigureStyle::slide());
        break;
    }
}

void FigureExportDialog::validate()
{
    const QString problem = suffixProblem(path());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(problem.isEmpty());
}

} // namespace elk::app
