// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;

namespace elk::app {

struct HloRunSet;

/// The StableHLO page's run status: a progress bar shown while a run goes, the progress line (what
/// to do next, the stage, or how the last run ended) and a red error line, hidden when empty.
class HloRunStatus : public QWidget {
    Q_OBJECT
public:
    explicit HloRunStatus(QWidget* parent = nullptr);

    /// A run started: the bar shows, empty.
    void showStarted();
    void showProgress(int percent, const QString& stage);
    /// The run ended: the bar hides and `text` stays until the next.
    void showEnded(const QString& text);
    /// The run ended with `runs`: the configurations' errors, and how long it took and how the region
    /// cache served it.
    void showFinished(const HloRunSet& runs);
    /// `runs`' module did not parse: where, and which run the views still show (`stillShown`; null: none).
    void showUnparsed(const HloRunSet& runs, const HloRunSet* stillShown);

    void setProgressText(const QString& text);
    QString progressText() const;
    /// Empty hides the error line.
    void showError(const QString& text);
    /// Empty while the error line is hidden.
    QString errorText() const;

private:
    QProgressBar* m_progressBar = nullptr;
    QLabel* m_progressLabel = nullptr;
    QLabel* m_error = nullptr;
};

} // namespace elk::app
