// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/chip_editor/spec_snapshot_command.h"

#include <utility>

#include "widgets/chip_editor/chip_editor.h"

namespace elk::widgets {

SpecSnapshotCommand::SpecSnapshotCommand(ChipEditor* editor, elk::chip::ChipSpec before, elk::chip::ChipSpec after,
    const QString& text, int mergeKey, quint64 session)
    : QUndoCommand(text)
    , m_editor(editor)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeKey(mergeKey)
    , m_session(session)
{
}

void SpecSnapshotCommand::undo()
{
    ++m_editor->m_editSession; // an edit after undo starts a new step
    m_editor->applySpec(m_before);
}

void SpecSnapshotCommand::redo()
{
    if (m_pushed)
        ++m_editor->m_editSession;
    m_pushed = true;
    m_editor->applySpec(m_after);
}

bool SpecSnapshotCommand::mergeWith(const QUndoCommand* other)
{
    // Same id() means same class and field (QUndoStack only asks then).
    const auto* next = static_cast<const SpecSnapshotCommand*>(other);
    if (next->m_session != m_session)
        return false;
    m_after = next->m_after;
    setObsolete(m_after == m_before); // typed back to the old value: no step left
    return true;
}

} // namespace elk::widgets
