// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/hlo_run_status.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include "app/studio/hlo_job.h"

namespace elk::app {

HloRunStatus::HloRunStatus(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* progressRow = new QHBoxLayout;
    m_progressBar = new QProgressBar;
    m_progressBar->setRange(0, 100);
    m_progressBar->setMaximumWidth(200);
    m_progressBar->setVisible(false);
    progressRow->addWidget(m_progressBar);
    m_progressLabel = new QLabel(tr("Open a module and press Run."));
    m_progressLabel->setObjectName(QStringLiteral("hloProgress"));
    progressRow->addWidget(m_progressLabel, 1);
    layout->addLayout(progressRow);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("hloError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #a00000; }"));
    m_error->setVisible(false);
    layout->addWidget(m_error);
}

void HloRunStatus::showStarted()
{
    m_progressBar->setValue(0);
    m_progressBar->setVisible(true);
}

void HloRunStatus::showProgress(int percent, const QString& stage)
{
    m_progressBar->setValue(percent);
    m_progressLabel->setText(stage);
}

void HloRunStatus::showEnded(const QString& text)
{
    m_progressBar->setVisible(false);
    m_progressLabel->setText(text);
}

void HloRunStatus::showFinished(const HloRunSet& runs)
{
    const std::size_t count = runs.results.size();
    QStringList errors;
    std::int64_t hits = 0, misses = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const elk::hlo::HloRunResult& result = *runs.results[i];
        hits += result.cacheHits;
        misses += result.cacheMisses;
        for (const std::string& error : result.errors)
            errors << configurationLabel(runs.configurations[i]) + QStringLiteral(": ") + QString::fromStdString(error);
    }
    showError(errors.join(QLatin1Char('\n')));
    const QString what = count == 1 ? tr("1 configuration") : tr("%1 configurations").arg(count);
    showEnded(tr("%1 in %2 s · region cache: %3 hits, %4 misses")
                  .arg(what)
                  .arg(runs.wallSeconds, 0, 'f', 2)
                  .arg(hits)
                  .arg(misses));
}

void HloRunStatus::showUnparsed(const HloRunSet& runs, const HloRunSet* stillShown)
{
    QString message
        = tr("%1 does not parse:\n%2").arg(QFileInfo(runs.path).fileName(), runs.readErrors.join(QLatin1Char('\n')));
    if (stillShown)
        message += tr("\nThe views still show %1.").arg(QFileInfo(stillShown->path).fileName());
    showError(message);
    showEnded(tr("Not run: the module does not parse."));
}

void HloRunStatus::setProgressText(const QString& text)
{
    m_progressLabel->setText(text);
}

QString HloRunStatus::progressText() const
{
    return m_progressLabel->text();
}

void HloRunStatus::showError(const QString& text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

QString HloRunStatus::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

} // namespace elk::app
