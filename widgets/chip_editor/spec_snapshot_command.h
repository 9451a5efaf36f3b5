// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QUndoCommand>

#include "engine/run/chips.h"

namespace elk::widgets {

class ChipEditor;

/// One undo step of the chip editor: the whole spec before and after (PlotJuggler-style
/// snapshots; a ChipSpec is small). Edits of one field within one editing session merge,
/// so typing "1472" is one step, not four.
class SpecSnapshotCommand : public QUndoCommand {
public:
    static constexpr int kNoMerge = -1;

    SpecSnapshotCommand(ChipEditor* editor, elk::chip::ChipSpec before, elk::chip::ChipSpec after, const QString& text,
        int mergeKey, quint64 session);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeKey; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    ChipEditor* m_editor;
    elk::chip::ChipSpec m_before;
    elk::chip::ChipSpec m_after;
    int m_mergeKey;
    quint64 m_session;
    bool m_pushed = false; ///< the first redo() is QUndoStack::push applying the edit already shown
};

} // namespace elk::widgets
