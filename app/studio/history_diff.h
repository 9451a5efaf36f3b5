// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include "app/studio/run_job.h" // Q_DECLARE_METATYPE of the snapshot the signal carries
#include "widgets/plots/plot_view.h"

namespace elk::store {
class ResultStore;
}

namespace elk::app {

class RunJob;

/// Reopens a past run from the result cache as the second side of a diff (History dock: "Diff
/// against the current run"), on its own worker, without touching the controls or the current run.
class HistoryDiffLoader : public QObject {
    Q_OBJECT
public:
    explicit HistoryDiffLoader(QObject* parent = nullptr);
    ~HistoryDiffLoader() override;

    void setStore(elk::store::ResultStore* store);
    /// Starts reopening run `specHash`; loaded() or failed() follows. Returns an error at once when
    /// the run is not in the cache or its spec does not parse (failed() is emitted too).
    QString load(const QString& specHash);

signals:
    void loaded(elk::widgets::RunSnapshotPtr run, const QString& label);
    void failed(const QString& message);

private:
    QString fail(const QString& message);

    elk::store::ResultStore* m_store = nullptr;
    RunJob* m_job = nullptr;
    QString m_label;
};

} // namespace elk::app
