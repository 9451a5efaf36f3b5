// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/run_controller.h"

#include <algorithm>

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>

#include "app/studio/history_dock.h"
#include "app/studio/model_controller.h"
#include "app/studio/run_job.h"
#include "app/studio/run_progress.h"
#include "app/studio/run_summary.h"
#include "app/studio/run_views.h"
#include "app/studio/workspace_controller.h"
#include "engine/run/chips.h"
#include "widgets/chip_editor/chip_compare_picker.h"
#include "widgets/chip_editor/chip_editor.h"
#include "widgets/model/model_pane.h"

namespace elk::app {

namespace {
    const std::string kHeadlineDesign = "elk-full";

    QString text(const std::string& s)
    {
        return QString::fromStdString(s);
    }

    QString firstLine(const QString& message)
    {
        return message.section(QLatin1Char('\n'), 0, 0);
    }
} // namespace

RunController::RunController(
    const StudioParts& parts, ModelController* model, WorkspaceController* workspace, QObject* parent)
    : QObject(parent)
    , m_parts(parts)
    , m_model(model)
    , m_workspace(workspace)
    , m_runJob(new RunJob(this))
    , m_compareJob(new RunJob(this))
{
    m_rerunTimer.setSingleShot(true);
    m_rerunTimer.setInterval(kRerunDelayMs);
    connect(&m_rerunTimer, &QTimer::timeout, this, &RunController::startRun);
    m_runJob->setStore(parts.store);
    m_compareJob->setStore(parts.store);
    RunProgress* progress = parts.progress;
    connect(m_runJob, &RunJob::progress, progress, &RunProgress::showProgress);
    connect(m_runJob, &RunJob::finished, this, &RunController::onFinished);
    connect(m_runJob, &RunJob::failed, this, [this, progress](const QString& message) {
        progress->showEnded(tr("Run failed"));
        m_parts.showStatus(tr("Run failed: %1").arg(firstLine(message)), 0);
        progress->stageLabel()->setToolTip(message);
        emit stateChanged();
    });
    connect(m_runJob, &RunJob::cancelled, this, [this, progress] {
        progress->showEnded(tr("Run cancelled"));
        m_parts.showStatus(tr("Run cancelled."), 8000);
        emit stateChanged();
    });
    connect(m_compareJob, &RunJob::finished, this, [this](elk::widgets::RunSnapshotPtr result) {
        m_parts.views->setCompareRun(std::move(result), m_compareLabel);
    });
    connect(m_compareJob, &RunJob::failed, this, [this](const QString& message) {
        m_parts.views->setCompareRun(nullptr, {});
        m_parts.showStatus(tr("Compare run on %1 failed: %2").arg(m_compareLabel, firstLine(message)), 0);
    });
}

RunController::~RunController()
{
    delete m_runJob; // each waits for its workers
    delete m_compareJob;
}

bool RunController::isRunning() const
{
    return m_runJob->isRunning();
}

void RunController::rerunSoon()
{
    if (m_hasRun && !m_workspace->isApplying())
        m_rerunTimer.start();
}

elk::run::RunSpecResult RunController::currentRunSpec() const
{
    elk::run::RunSpecResult result;
    if (m_model->modelPath().isEmpty()) {
        result.errors.push_back({ "/model", tr("no model opened").toStdString() });
        return result;
    }
    elk::run::Workspace workspace = m_workspace->currentWorkspace();
    workspace.chip.clear();
    workspace.embeddedChip = m_parts.chipEditor->spec(); // exactly what the editor shows
    return elk::run::resolveWorkspaceRun(workspace);
}

void RunController::startRun()
{
    m_rerunTimer.stop();
    if (!m_parts.chipEditor->isValid()) {
        m_parts.showStatus(tr("The chip spec has problems; fix them to run."), 8000);
        return;
    }
    const QString modelPath = m_model->modelPath();
    if (modelPath.isEmpty()) {
        m_parts.showStatus(tr("Open a model to run."), 8000);
        return;
    }
    m_hasRun = true;
    // Resolved on the worker: hashing the model file (or building a bundled model) takes a while.
    elk::run::Workspace workspace = m_workspace->currentWorkspace();
    workspace.chip.clear();
    workspace.embeddedChip = m_parts.chipEditor->spec(); // exactly what the editor shows
    // runCached uses the compiled model only when its partition key matches: an HBM edit reschedules.
    m_runJob->start([workspace] { return elk::run::resolveWorkspaceRun(workspace); }, m_runJob->lastCompiled());
    m_parts.progress->showStarted(
        tr("Running %1 on %2…").arg(QFileInfo(modelPath).fileName(), text(m_parts.chipEditor->spec().name)));
    emit stateChanged();

    const QString compare = m_parts.comparePicker->compareChip();
    if (compare.isEmpty()) {
        m_compareJob->cancel();
        m_parts.views->setCompareRun(nullptr, {});
        return;
    }
    elk::run::RunRequest request = workspace.run;
    request.chip = compare.toStdString();
    request.chipOverrides.clear();
    request.preloadIngressGBpsPerCore.reset(); // the compare chip's own link bandwidth
    const auto preset = elk::chip::findBuiltinPreset(request.chip);
    m_compareLabel = preset ? compare : QFileInfo(compare).completeBaseName();
    m_compareJob->start([request] { return elk::run::resolveRunSpec(request); }, m_compareJob->lastCompiled());
}

void RunController::cancelRun()
{
    m_rerunTimer.stop();
    m_runJob->cancel();
    m_compareJob->cancel();
}

void RunController::onFinished(elk::widgets::RunSnapshotPtr result, elk::run::CacheOutcome cache, double seconds)
{
    m_lastCache = cache;
    m_lastSeconds = seconds;
    m_parts.views->setRun(result);
    updateDesignSelector();
    if (const auto step = m_workspace->takePendingStep())
        m_parts.views->setSelectedStep(int(*step));
    const QString source = cache.runHit ? tr("from the cache")
        : cache.partitionHit            ? tr("rescheduled")
                                        : tr("computed");
    QString summary = tr("%1 · %2 in %3 s").arg(runHeadline(*result, kHeadlineDesign), source).arg(seconds, 0, 'f', 2);
    const auto [splitCount, splitDetail] = pipelinedSplitSummary(*result);
    if (!splitCount.isEmpty())
        summary += tr(" · %1").arg(splitCount);
    m_parts.progress->showEnded(summary);
    m_parts.progress->stageLabel()->setToolTip(splitDetail);
    m_parts.history->refresh(m_parts.store);
    emit stateChanged();
}

void RunController::updateDesignSelector()
{
    QComboBox* box = m_parts.designBox;
    const elk::widgets::RunSnapshotPtr run = m_parts.views->run();
    const QString pending = m_workspace->takePendingDesign();
    const QString wanted = !pending.isEmpty() ? pending
        : box->currentIndex() >= 0            ? box->currentText()
                                              : text(kHeadlineDesign);
    const QSignalBlocker blocker(box);
    box->clear();
    if (!run)
        return;
    for (const std::string& name : run->spec.designs)
        box->addItem(text(name));
    int index = box->findText(wanted);
    if (index < 0)
        index = std::max(0, box->findText(text(kHeadlineDesign)));
    box->setCurrentIndex(index);
    m_parts.views->setDesignIndex(index);
}

void RunController::chooseDesign(int index)
{
    if (index >= 0)
        m_parts.views->setDesignIndex(index);
}

void RunController::selectOpOfStep(int step)
{
    const elk::widgets::RunSnapshotPtr run = m_parts.views->run();
    if (!run || !run->compiled || step < 0 || step >= int(run->problem.steps.size()))
        return;
    const int graphStep = run->problem.steps[std::size_t(step)].graphStep;
    if (graphStep < 0 || std::size_t(graphStep) >= run->compiled->analysis.order.size())
        return;
    m_parts.modelPane->selectOp(int(run->compiled->analysis.order[std::size_t(graphStep)]));
}

void RunController::selectStepOfOp(int graphOp)
{
    const elk::widgets::RunSnapshotPtr run = m_parts.views->run();
    if (!run || !run->compiled)
        return;
    const auto& order = run->compiled->analysis.order;
    const auto position = std::find(order.begin(), order.end(), elk::model::OpId(graphOp));
    if (position == order.end())
        return;
    const auto& steps = run->problem.steps;
    const int graphStep = int(position - order.begin());
    const auto first = std::find_if(
        steps.begin(), steps.end(), [&](const elk::schedule::Step& s) { return s.graphStep == graphStep; });
    if (first != steps.end())
        m_parts.views->setSelectedStep(int(first - steps.begin()));
}

QString RunController::reopenRun(const QString& specHash)
{
    elk::store::ResultStore* store = m_parts.store;
    if (!store)
        return tr("no result cache is open");
    const std::optional<std::string> json = store->specJson(specHash.toStdString());
    if (!json) {
        m_parts.showStatus(tr("That run is no longer in the cache."), 8000);
        return tr("run %1 is not in the result cache %2 (trimmed since, or made with "
                  "another result cache)")
            .arg(specHash.left(12), QString::fromStdString(store->path()));
    }
    const elk::run::RunSpecParseResult parsed = elk::run::runSpecFromJson(*json);
    if (!parsed.ok()) {
        const QString why = text(parsed.errors.front().field + ": " + parsed.errors.front().message);
        m_parts.showStatus(tr("Cannot reopen that run: %1").arg(why), 0);
        return tr("cannot reopen run %1: %2").arg(specHash.left(12), why);
    }
    // The controls show the reopened run, without re-running on their own.
    m_rerunTimer.stop();
    m_workspace->applyRunSpec(parsed.spec);
    m_rerunTimer.stop();
    m_hasRun = true;
    m_runJob->start(parsed.spec, m_runJob->lastCompiled());
    const QString model = QFileInfo(text(parsed.spec.model.path)).fileName();
    m_parts.progress->showStarted(tr("Reopening %1 on %2…").arg(model, text(parsed.spec.chip.name)));
    emit stateChanged();
    return {};
}

} // namespace elk::app
