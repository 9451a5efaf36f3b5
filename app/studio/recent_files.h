// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMenu>
#include <QStringList>

namespace elk::app {

/// A "recent files" menu kept in QSettings under `settingsKey` (UI state only): most recent first,
/// no duplicates, files that no longer exist left out.
class RecentFilesMenu : public QMenu {
    Q_OBJECT
public:
    static constexpr int kMaxFiles = 10;

    RecentFilesMenu(const QString& title, const QString& settingsKey, QWidget* parent = nullptr);

    QStringList files() const;
    void add(const QString& path);

signals:
    void fileChosen(const QString& path);

private:
    void rebuild();

    QString m_key;
};

} // namespace elk::app
