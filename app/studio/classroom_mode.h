// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;

namespace elk::app {

class RunViews;

/// View ▸ Classroom mode: the Classroom tab in front, a larger application font (readable from the
/// back of a room), the docks out of the way; switching off restores what was there.
class ClassroomMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kFontScale = 1.6;

    ClassroomMode(QMainWindow* window, RunViews* views);

    bool isOn() const { return m_on; }

public slots:
    void setOn(bool on);

signals:
    void toggled(bool on);

private:
    QMainWindow* m_window = nullptr;
    RunViews* m_views = nullptr;
    bool m_on = false;
    QFont m_savedFont;
    int m_savedTab = 0;
    QList<QDockWidget*> m_hiddenDocks;
};

} // namespace elk::app
