// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace elk::app {

RecentFilesMenu::RecentFilesMenu(const QString& title, const QString& settingsKey, QWidget* parent)
    : QMenu(title, parent)
    , m_key(settingsKey)
{
    connect(this, &QMenu::aboutToShow, this, &RecentFilesMenu::rebuild);
    rebuild();
}

QStringList RecentFilesMenu::files() const
{
    QStringList existing;
    for (const QString& path : QSettings().value(m_key).toStringList()) {
        if (QFileInfo::exists(path))
            existing << path;
    }
    return existing;
}

void RecentFilesMenu::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles)
        list.removeLast();
    QSettings().setValue(m_key, list);
    rebuild();
}

void RecentFilesMenu::rebuild()
{
    clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        QAction* action = addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(list[i]).fileName()));
        action->setToolTip(QDir::toNativeSeparators(list[i]));
        action->setStatusTip(QDir::toNativeSeparators(list[i]));
        connect(action, &QAction::triggered, this, [this, path = list[i]] { emit fileChosen(path); });
    }
    setEnabled(!list.isEmpty());
}

} // namespace elk::app
