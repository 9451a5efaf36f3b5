// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace elk::app {

/// What an engine stage tag means for the user: "schedule elk-full" → "Scheduling elk-full…".
QString stageText(const QString& stage);

/// The status bar's job display: a stage label, a progress bar and a Cancel button, shown while a
/// job runs and hidden (leaving a short summary) when it ends.
class RunProgress : public QWidget {
    Q_OBJECT
public:
    explicit RunProgress(QWidget* parent = nullptr);

    /// A job started: "what" names it ("Running llama2-13b on ipu-pod4-hbm").
    void showStarted(const QString& what);
    void showProgress(int percent, const QString& stage);
    /// The job ended; `summary` stays visible until the next job.
    void showEnded(const QString& summary);

    bool isBusy() const;
    QProgressBar* bar() const { return m_bar; }
    QLabel* stageLabel() const { return m_stage; }
    QToolButton* cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();

private:
    QLabel* m_stage = nullptr;
    QProgressBar* m_bar = nullptr;
    QToolButton* m_cancel = nullptr;
};

} // namespace elk::app
