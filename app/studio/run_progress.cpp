// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/run_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace elk::app {

QString stageText(const QString& stage)
{
    // The engine's stage tags are short and untranslated; the status bar says what happens.
    const QString rest = stage.section(QLatin1Char(' '), 1);
    if (stage == QLatin1String("import"))
        return RunProgress::tr("Importing the model…");
    if (stage == QLatin1String("partition"))
        return RunProgress::tr("Searching partitions…");
    if (stage == QLatin1String("cache lookup"))
        return RunProgress::tr("Looking in the result cache…");
    if (stage.startsWith(QLatin1String("schedule ")))
        return RunProgress::tr("Scheduling %1…").arg(rest);
    if (stage.startsWith(QLatin1String("simulate ")))
        return RunProgress::tr("Simulating %1…").arg(rest);
    if (stage.endsWith(QLatin1String(" orders")))
        return RunProgress::tr("Searching %1 preload orders…").arg(stage.section(QLatin1Char(' '), 0, 0));
    return stage;
}

RunProgress::RunProgress(QWidget* parent)
    : QWidget(parent)
    , m_stage(new QLabel)
    , m_bar(new QProgressBar)
    , m_cancel(new QToolButton)
{
    m_stage->setObjectName(QStringLiteral("runStage"));
    m_bar->setObjectName(QStringLiteral("runProgress"));
    m_cancel->setObjectName(QStringLiteral("runCancel"));
    m_bar->setRange(0, 100);
    m_bar->setFixedWidth(180);
    m_bar->setTextVisible(true);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setIcon(QIcon::fromTheme(QStringLiteral("process-stop")));
    m_cancel->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_cancel->setToolTip(tr("Stop the running job (Esc)"));
    m_cancel->setShortcut(Qt::Key_Escape);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stage);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &RunProgress::cancelRequested);
    showEnded({});
}

void RunProgress::showStarted(const QString& what)
{
    m_stage->setText(what);
    m_bar->setValue(0);
    m_bar->show();
    m_cancel->show();
    m_cancel->setEnabled(true);
}

void RunProgress::showProgress(int percent, const QString& stage)
{
    m_bar->setValue(percent);
    m_stage->setText(stageText(stage));
}

void RunProgress::showEnded(const QString& summary)
{
    m_stage->setText(summary);
    m_bar->hide();
    m_cancel->hide();
}

bool RunProgress::isBusy() const
{
    return m_bar->isVisibleTo(this);
}

} // namespace elk::app
