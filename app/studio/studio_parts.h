// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QString>

class QComboBox;

namespace elk::store {
class ResultStore;
}

namespace elk::widgets {
class ChipComparePicker;
class ChipEditor;
class ModelPane;
}

namespace elk::app {

class HistoryDock;
class HloPage;
class RunProgress;
class RunViews;

/// The main window's parts as the controllers that drive them see them (none owned). The window
/// builds the widgets; the controllers (model, workspace, runs) hold the state between them.
struct StudioParts {
    elk::widgets::ChipEditor* chipEditor = nullptr;
    elk::widgets::ChipComparePicker* comparePicker = nullptr;
    elk::widgets::ModelPane* modelPane = nullptr;
    RunViews* views = nullptr;
    HloPage* hloPage = nullptr;
    HistoryDock* history = nullptr;
    RunProgress* progress = nullptr;
    QComboBox* designBox = nullptr;
    elk::store::ResultStore* store = nullptr; ///< null: no result cache
    /// The status bar (timeout 0: until replaced).
    std::function<void(const QString& message, int timeoutMs)> showStatus;
};

} // namespace elk::app
