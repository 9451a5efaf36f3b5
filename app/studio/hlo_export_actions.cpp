// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_export_actions.h"

#include <utility>

#include <QHBoxLayout>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>

namespace elk::app {

HloExportActions::HloExportActions(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* exportFigure = new QPushButton(tr("Export figure…"));
    exportFigure->setObjectName(QStringLiteral("hloExportFigure"));
    exportFigure->setToolTip(tr("The step timeline or the roofline (the one shown) as PDF, SVG or PNG"));
    connect(exportFigure, &QPushButton::clicked, this, &HloExportActions::figureRequested);
    layout->addWidget(exportFigure);
    auto* exportData = new QToolButton;
    exportData->setObjectName(QStringLiteral("hloExportData"));
    exportData->setText(tr("Export data"));
    exportData->setToolTip(tr("The selected configuration's run"));
    exportData->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(exportData);
    const std::pair<HloDataFormat, QString> formats[] = {
        { HloDataFormat::Json, tr("JSON report…") },
        { HloDataFormat::Csv, tr("Regions CSV…") },
        { HloDataFormat::Perfetto, tr("Perfetto step trace…") },
        { HloDataFormat::Chakra, tr("Chakra traces (folder)…") },
    };
    for (const auto& [format, label] : formats)
        connect(menu->addAction(label), &QAction::triggered, this, [this, f = format] { emit dataRequested(f); });
    exportData->setMenu(menu);
    layout->addWidget(exportData);
}

} // namespace elk::app
