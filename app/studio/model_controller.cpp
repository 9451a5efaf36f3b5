// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/model_controller.h"

#include <utility>

#include <QFileDialog>
#include <QFileInfo>

#include "app/studio/hlo_page.h"
#include "app/studio/model_loader.h"
#include "app/studio/run_views.h"
#include "widgets/model/model_pane.h"
#include "widgets/model/quantity_format.h"

namespace elk::app {

ModelController::ModelController(const StudioParts& parts, QObject* parent)
    : QObject(parent)
    , m_parts(parts)
    , m_loader(new ModelLoader(this))
{
    connect(m_loader, &ModelLoader::modelLoaded, this, &ModelController::onLoaded);
}

void ModelController::openModel(const QString& pathOrBundledName)
{
    if (pathOrBundledName.endsWith(QLatin1String(".mlir"), Qt::CaseInsensitive)) {
        openHloModule(pathOrBundledName);
        return;
    }
    m_modelPath = pathOrBundledName;
    m_parts.modelPane->showLoading(pathOrBundledName);
    emit stateChanged();
    m_parts.showStatus(tr("Loading model %1…").arg(QFileInfo(pathOrBundledName).fileName()), 0);
    m_loader->start(pathOrBundledName, m_parts.modelPane->runParameters());
}

void ModelController::openHloModule(const QString& path, bool run)
{
    m_parts.hloPage->openFile(path);
    m_parts.views->setCurrentKind(QStringLiteral("hlo"));
    if (run)
        m_parts.hloPage->run();
}

void ModelController::openModelDialog(QWidget* parent)
{
    const QString path = QFileDialog::getOpenFileName(
        parent, tr("Open model"), QFileInfo(m_modelPath).absolutePath(), elk::widgets::ModelPane::fileDialogFilter());
    if (!path.isEmpty())
        openModel(path);
}

void ModelController::reload()
{
    if (!m_modelPath.isEmpty())
        m_loader->start(m_modelPath, m_parts.modelPane->runParameters());
}

void ModelController::onLoaded(std::shared_ptr<const elk::widgets::ModelSnapshot> snapshot)
{
    const bool ok = snapshot->ok();
    if (!ok && snapshot->freeDims.empty() && m_lastGood && snapshot->filePath != m_lastGood->filePath) {
        // Opening a broken file loses nothing: the model that was open stays, with why the other did
        // not open above it. (A file with free dims is shown: its form asks for their sizes.)
        const QString failedName = QFileInfo(snapshot->filePath).fileName();
        m_modelPath = m_lastGood->filePath;
        m_parts.modelPane->setSnapshot(m_lastGood);
        m_parts.modelPane->showOpenError(tr("%1 was not opened; %2 stays open.\n%3")
                                             .arg(failedName, QFileInfo(m_modelPath).fileName(), snapshot->error));
        m_parts.showStatus(
            tr("Model %1 not opened: %2").arg(failedName, snapshot->error.section(QLatin1Char('\n'), 0, 0)), 0);
        m_runWhenLoaded = false;
        emit stateChanged();
        return;
    }
    if (ok) {
        m_lastGood = snapshot;
        const elk::model::GraphSummary& summary = snapshot->summary;
        m_parts.showStatus(tr("Model %1 loaded: %2 ops, %3")
                               .arg(QString::fromStdString(summary.name), elk::widgets::formatCount(summary.opCount),
                                   elk::widgets::formatFlops(summary.flops)),
            8000);
    } else {
        m_parts.showStatus(tr("Model not loaded: %1").arg(snapshot->error.section(QLatin1Char('\n'), 0, 0)), 0);
    }
    m_parts.modelPane->setSnapshot(std::move(snapshot));
    emit stateChanged();
    if (std::exchange(m_runWhenLoaded, false) && ok)
        emit readyToRun();
}

} // namespace elk::app
