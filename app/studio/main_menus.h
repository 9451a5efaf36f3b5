// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QAction;
class QComboBox;

namespace elk::app {

class MainWindow;

/// What the main window's menus and tool bar hand back for it to update.
struct MainMenus {
    QAction* runAction = nullptr;
    QAction* cancelAction = nullptr;
    QComboBox* designBox = nullptr; ///< the window's design selector, now in the tool bar
};

/// The File, Edit, Run and View menus and the main tool bar, each action wired to the window's slots.
MainMenus buildMainMenus(MainWindow& window);

} // namespace elk::app
