// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include "app/studio/studio_parts.h"
#include "engine/run/run_spec.h"
#include "engine/store/result_store.h"
#include "widgets/plots/plot_view.h"

namespace elk::app {

class ModelController;
class RunJob;
class WorkspaceController;

/// The runs of the open model on the edited chip (RunJob, through the result cache) and on the
/// compare chip; re-runs by itself after a pause (kRerunDelayMs) once a first run was asked for;
/// shows each finished run in the views, the design selector, the progress display and the history.
class RunController : public QObject {
    Q_OBJECT
public:
    static constexpr int kRerunDelayMs = 300;

    RunController(
        const StudioParts& parts, ModelController* model, WorkspaceController* workspace, QObject* parent = nullptr);
    /// Stops the jobs and waits for them: they use the result store.
    ~RunController() override;

    /// Runs the current model, run settings and chip now (and the compare chip, when one is chosen).
    void startRun();
    void cancelRun();
    /// Starts a re-run after kRerunDelayMs when a run was asked for before and the controls are not
    /// being set by the program (a later call restarts the pause).
    void rerunSoon();
    /// Reopens a run from the cache: the controls follow it, and it runs (served from the cache).
    /// Returns why it cannot (no cache, not in it, unreadable; also shown in the status bar), or empty.
    QString reopenRun(const QString& specHash);
    /// The RunSpec a run would use now, or the errors that prevent one.
    elk::run::RunSpecResult currentRunSpec() const;
    /// The views' design follows the tool bar's selector.
    void chooseDesign(int index);
    /// The model pane's op table selects the graph op of an execution step of the shown run
    /// (a split op's parts share one op), and the views the first step of a graph op.
    void selectOpOfStep(int step);
    void selectStepOfOp(int graphOp);

    RunJob* runJob() const { return m_runJob; }
    RunJob* compareJob() const { return m_compareJob; }
    bool isRunning() const;
    /// How the cache served the last finished run, and how long it took.
    elk::run::CacheOutcome lastCacheOutcome() const { return m_lastCache; }
    double lastRunSeconds() const { return m_lastSeconds; }

signals:
    /// A run started, finished, failed or was cancelled: the Run and Cancel actions follow.
    void stateChanged();

private:
    void onFinished(elk::widgets::RunSnapshotPtr result, elk::run::CacheOutcome cache, double seconds);
    void updateDesignSelector();

    StudioParts m_parts;
    ModelController* m_model = nullptr;
    WorkspaceController* m_workspace = nullptr;
    RunJob* m_runJob = nullptr;
    RunJob* m_compareJob = nullptr;
    QTimer m_rerunTimer;
    QString m_compareLabel;
    elk::run::CacheOutcome m_lastCache;
    double m_lastSeconds = 0;
    bool m_hasRun = false; ///< a run was asked for: edits re-run by themselves from now on
};

} // namespace elk::app
