// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "app/studio/job_slots.h"
#include "engine/run/paper_figures.h"
#include "engine/store/reproduce.h"

namespace elk::store {
class ResultStore;
}

namespace elk::app {

/// One computed paper figure: every point's raw numbers, as store::reproducePoints returned them.
struct PaperOutcome {
    std::string figure; ///< "fig18"
    elk::run::ReproduceMode mode = elk::run::ReproduceMode::EqualTerms;
    std::vector<elk::run::PaperPointResult> points; ///< in the figure's order
    int fromCache = 0; ///< points the result cache served
    double wallSeconds = 0;
};

using PaperOutcomePtr = std::shared_ptr<const PaperOutcome>;

/// Runs store::reproducePoints for one figure on a worker thread (QtConcurrent + QPromise), through
/// the result cache. A newer start() supersedes the running figure (its signals stop at once);
/// cancel() stops it and cancelled() follows. Progress is queued to the GUI thread.
class PaperJob : public QObject {
    Q_OBJECT
public:
    explicit PaperJob(QObject* parent = nullptr);
    /// Stops a running figure and waits for its workers.
    ~PaperJob() override;

    void setStore(elk::store::ResultStore* store) { m_store = store; }
    elk::store::ResultStore* store() const { return m_store; }

    /// `options.threads`, `mode` and `einsteinDir` as reproducePoints takes them; an unknown figure fails.
    void start(const QString& figure, const elk::store::ReproduceOptions& options);
    void cancel();
    /// Stops every figure and waits for its workers, without any signal (before what they use goes).
    void stopAndWait();
    bool isRunning() const { return m_jobs.isRunning(); }

    struct Result;

signals:
    void started(int points);
    void progress(int done, int total);
    void finished(elk::app::PaperOutcomePtr outcome);
    void cancelled();
    void failed(const QString& message);

private:
    using Jobs = JobSlots<Result>;
    using Job = Jobs::Job;
    void onJobFinished(Job* job);

    elk::store::ResultStore* m_store = nullptr;
    Jobs m_jobs { this };
};

} // namespace elk::app

Q_DECLARE_METATYPE(elk::app::PaperOutcomePtr)
