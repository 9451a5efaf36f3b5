// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_page.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QVBoxLayout>

#include "app/studio/figure_export_dialog.h"
#include "app/studio/hlo_export_actions.h"
#include "app/studio/hlo_inputs_form.h"
#include "app/studio/hlo_report_panel.h"
#include "app/studio/hlo_run_status.h"
#include "widgets/hlo/hlo_step_timeline_view.h"

namespace elk::app {

HloPage::HloPage(QWidget* parent)
    : QWidget(parent)
    , m_job(new HloJob(this))
    , m_inputs(new HloInputsForm([this] { return m_lastFolder; }, this))
    , m_status(new HloRunStatus(this))
    , m_report(new HloReportPanel(this))
{
    setObjectName(QStringLiteral("hloPage"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_inputs);
    layout->addWidget(m_status);
    layout->addWidget(m_report, 1);

    connect(m_inputs, &HloInputsForm::openRequested, this, &HloPage::openFileDialog);
    connect(m_inputs, &HloInputsForm::moduleChosen, this, &HloPage::openFile);
    connect(m_inputs, &HloInputsForm::runRequested, this, &HloPage::run);
    connect(m_inputs, &HloInputsForm::cancelRequested, this, &HloPage::cancel);
    connect(m_report->exportActions(), &HloExportActions::figureRequested, this, &HloPage::exportFigureDialog);
    connect(m_report->exportActions(), &HloExportActions::dataRequested, this, &HloPage::exportDataDialog);
    wireJob();
    updateButtons();
}

HloPage::~HloPage() = default;

void HloPage::wireJob()
{
    connect(m_job, &HloJob::started, this, [this] {
        m_status->showStarted();
        updateButtons();
    });
    connect(m_job, &HloJob::progress, m_status, &HloRunStatus::showProgress);
    connect(m_job, &HloJob::finished, this, &HloPage::onFinished);
    connect(m_job, &HloJob::failed, this, [this](const QString& message) {
        m_status->showEnded(tr("Run failed"));
        m_status->showError(message);
        updateButtons();
    });
    connect(m_job, &HloJob::cancelled, this, [this] {
        m_status->showEnded(tr("Run cancelled"));
        emit statusMessage(tr("StableHLO run cancelled."));
        updateButtons();
    });
}

void HloPage::setStore(elk::store::ResultStore* store)
{
    m_job->setStore(store);
}

void HloPage::openFile(const QString& path)
{
    m_path = path;
    m_inputs->showModule(path);
    m_lastFolder = QFileInfo(path).absolutePath();
    m_status->setProgressText(tr("Press Run to estimate %1.").arg(QFileInfo(path).fileName()));
    updateButtons();
}

void HloPage::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open StableHLO module"), m_lastFolder, tr("StableHLO text (*.mlir);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void HloPage::setSystem(const QString& nameOrPath)
{
    m_inputs->setSystem(nameOrPath);
}

QString HloPage::system() const
{
    return m_inputs->system();
}

void HloPage::setEstimators(const std::vector<std::string>& chain)
{
    m_inputs->setEstimators(chain);
}

std::vector<std::string> HloPage::estimators() const
{
    return m_inputs->estimators();
}

void HloPage::addComparison(const HloConfiguration& configuration)
{
    m_inputs->addComparison(configuration);
}

void HloPage::clearComparisons()
{
    m_inputs->clearComparisons();
}

std::vector<HloConfiguration> HloPage::configurations() const
{
    return m_inputs->configurations();
}

void HloPage::setSplitMode(elk::hlo::SplitMode mode)
{
    m_inputs->setSplitMode(mode);
}

void HloPage::setFusion(bool on)
{
    m_inputs->setFusion(on);
}

HloJobRequest HloPage::currentRequest() const
{
    HloJobRequest request;
    request.path = m_path;
    request.configurations = m_inputs->configurations();
    request.options.slice.mode = m_inputs->splitMode();
    request.options.fusion.enabled = m_inputs->fusion();
    return request;
}

void HloPage::run()
{
    if (m_path.isEmpty()) {
        m_status->showError(tr("Open a StableHLO module (.mlir) first."));
        return;
    }
    m_status->showError({});
    m_status->setProgressText(tr("Starting…"));
    m_job->start(currentRequest());
    emit statusMessage(tr("Estimating %1…").arg(QFileInfo(m_path).fileName()));
}

void HloPage::cancel()
{
    m_job->cancel();
}

void HloPage::onFinished(HloRunSetPtr runs)
{
    if (!runs->ok()) {
        // The module did not parse: lose nothing: the last run that worked stays in the views, and
        // the error line names both files.
        const HloRunSetPtr last = m_report->runs();
        const bool keepLastRun = last && last->ok();
        if (!keepLastRun)
            m_report->showRuns(runs); // nothing worth keeping: the views empty
        updateButtons();
        m_status->showUnparsed(*runs, keepLastRun ? last.get() : nullptr);
        emit statusMessage(tr("StableHLO: %1").arg(runs->readErrors.value(0)));
        return;
    }
    m_report->showRuns(runs);
    updateButtons();
    m_status->showFinished(*runs);
    emit statusMessage(tr("StableHLO: %1 estimated").arg(QFileInfo(runs->path).fileName()));
}

HloRunSetPtr HloPage::runs() const
{
    return m_report->runs();
}

int HloPage::selectedConfiguration() const
{
    return m_report->selectedConfiguration();
}

void HloPage::selectConfiguration(int index)
{
    m_report->selectConfiguration(index);
}

bool HloPage::showPlot(const QString& figureKind)
{
    return m_report->showPlot(figureKind);
}

elk::widgets::HloPlotView* HloPage::currentPlotView() const
{
    return m_report->currentPlotView();
}

elk::widgets::HloStepTimelineView* HloPage::timelineView() const
{
    return m_report->timelineView();
}

elk::widgets::HloRooflineView* HloPage::rooflineView() const
{
    return m_report->rooflineView();
}

elk::widgets::HloRegionTableModel* HloPage::regionModel() const
{
    return m_report->regionModel();
}

QTableWidget* HloPage::summaryTable() const
{
    return m_report->summaryTable();
}

QTabWidget* HloPage::tabs() const
{
    return m_report->tabs();
}

QString HloPage::errorText() const
{
    return m_status->errorText();
}

QString HloPage::progressText() const
{
    return m_status->progressText();
}

QPushButton* HloPage::runButton() const
{
    return m_inputs->runButton();
}

QPushButton* HloPage::cancelButton() const
{
    return m_inputs->cancelButton();
}

void HloPage::updateButtons()
{
    m_inputs->updateRunButtons(!m_path.isEmpty(), m_job->isRunning());
}

QString HloPage::exportData(HloDataFormat format, const QString& path) const
{
    const auto result = m_report->selectedResult();
    if (!result)
        return tr("Nothing to export yet: run first.");
    return exportHloData(*result, format, path);
}

QString HloPage::exportFolder() const
{
    return m_lastFolder.isEmpty() ? QDir::homePath() : m_lastFolder;
}

void HloPage::exportFigureDialog()
{
    elk::widgets::HloPlotView* view = currentPlotView();
    if (!view)
        view = timelineView();
    if (!view->hasData()) {
        emit statusMessage(tr("Nothing to export yet: run a module first."));
        return;
    }
    FigureExportDialog dialog(QDir(exportFolder()).filePath(view->figureKind() + QStringLiteral(".pdf")), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_lastFolder = QFileInfo(dialog.path()).absolutePath();
    if (const QString error = view->exportFigure(dialog.path(), dialog.style()); !error.isEmpty())
        QMessageBox::warning(this, tr("Export figure"), error);
    else
        emit statusMessage(tr("Exported %1").arg(QDir::toNativeSeparators(dialog.path())));
}

void HloPage::exportDataDialog(HloDataFormat format)
{
    const auto result = m_report->selectedResult();
    if (!result || !result->ok()) {
        emit statusMessage(tr("Nothing to export: run a module first (and select a configuration that ran)."));
        return;
    }
    const QString suggested = QDir(exportFolder()).filePath(hloExportName(*result, format));
    QString path;
    if (format == HloDataFormat::Chakra) {
        const QString parent = QFileDialog::getExistingDirectory(
            this, tr("Write Chakra traces into a new folder in…"), QFileInfo(suggested).absolutePath());
        if (!parent.isEmpty())
            path = QDir(parent).filePath(QFileInfo(suggested).fileName());
    } else {
        const QString filter = format == HloDataFormat::Csv ? tr("CSV (*.csv)") : tr("JSON (*.json)");
        path = QFileDialog::getSaveFileName(this, tr("Export data"), suggested, filter);
    }
    if (path.isEmpty())
        return;
    m_lastFolder = QFileInfo(path).absolutePath();
    if (const QString error = exportData(format, path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export data"), error);
    else
        emit statusMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace elk::app
