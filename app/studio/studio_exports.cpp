// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/studio_exports.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

#include "app/studio/figure_export_dialog.h"
#include "app/studio/run_folder_export.h"
#include "app/studio/run_views.h"

namespace elk::app {

StudioExports::StudioExports(const StudioParts& parts, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_parts(parts)
    , m_dialogParent(dialogParent)
{
}

QString StudioExports::startFolder() const
{
    return m_lastFolder.isEmpty() ? QDir::homePath() : m_lastFolder;
}

void StudioExports::exportFigureDialog()
{
    elk::widgets::PlotView* view = m_parts.views->currentPlotView();
    if (!view || !view->hasData()) {
        m_parts.showStatus(tr("Nothing to export here: pick a view that shows a run."), 8000);
        return;
    }
    FigureExportDialog dialog(
        QDir(startFolder()).filePath(view->figureKind() + QStringLiteral(".pdf")), m_dialogParent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_lastFolder = QFileInfo(dialog.path()).absolutePath();
    if (const QString error = view->exportFigure(dialog.path(), dialog.style()); !error.isEmpty())
        QMessageBox::warning(m_dialogParent, tr("Export figure"), error);
    else
        m_parts.showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())), 8000);
}

void StudioExports::exportRunDialog()
{
    const elk::widgets::RunSnapshotPtr run = m_parts.views->run();
    if (!run) {
        m_parts.showStatus(tr("Nothing to export yet: run first."), 8000);
        return;
    }
    const QString folder
        = QFileDialog::getExistingDirectory(m_dialogParent, tr("Export run into folder"), startFolder());
    if (folder.isEmpty())
        return;
    m_lastFolder = folder;
    const RunFolderExport written = exportRunFolder(*run, folder);
    if (!written.ok())
        QMessageBox::warning(m_dialogParent, tr("Export run"), written.error);
    else
        m_parts.showStatus(
            tr("Wrote %1 files to %2").arg(written.files.size()).arg(QDir::toNativeSeparators(folder)), 8000);
}

} // namespace elk::app
