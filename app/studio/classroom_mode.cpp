// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/studio/classroom_mode.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>

#include "app/studio/run_views.h"

namespace elk::app {

ClassroomMode::ClassroomMode(QMainWindow* window, RunViews* views)
    : QObject(window)
    , m_window(window)
    , m_views(views)
{
}

void ClassroomMode::setOn(bool on)
{
    if (on == m_on)
        return;
    m_on = on;
    if (on) {
        m_savedFont = QApplication::font();
        m_savedTab = m_views->currentIndex();
        QFont large = m_savedFont;
        if (large.pointSizeF() > 0)
            large.setPointSizeF(large.pointSizeF() * kFontScale);
        else
            large.setPixelSize(int(large.pixelSize() * kFontScale));
        QApplication::setFont(large);
        m_hiddenDocks.clear();
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
            if (!dock->isHidden()) { // isVisible() is false before the window is first shown
                m_hiddenDocks << dock;
                dock->hide();
            }
        }
        m_views->setCurrentKind(QStringLiteral("classroom"));
    } else {
        QApplication::setFont(m_savedFont);
        for (QDockWidget* dock : std::as_const(m_hiddenDocks))
            dock->show();
        m_hiddenDocks.clear();
        m_views->setCurrentIndex(m_savedTab);
    }
    emit toggled(on);
}

} // namespace elk::app
