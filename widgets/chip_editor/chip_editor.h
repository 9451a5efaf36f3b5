// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "engine/run/chips.h"

class QAction;
class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QUndoStack;

namespace elk::widgets {

class ChipSchematic;
class NumberSpinBox;
class SpecSnapshotCommand;

/// Edits a ChipSpec: preset picker, a form with one editor per field (units in labels or
/// suffixes, a tooltip on each), live validation with validateChipSpec, JSON load/save,
/// whole-spec undo/redo and a schematic that follows every edit.
///
/// Every field editor's objectName is the field's JSON pointer ("/interconnect/meshWidth");
/// an invalid editor carries the dynamic property "elkInvalid" = true and the message in its tooltip.
class ChipEditor : public QWidget {
    Q_OBJECT
public:
    explicit ChipEditor(QWidget* parent = nullptr);
    ~ChipEditor() override;

    /// Starts a new document: replaces the spec and clears the undo history.
    void setSpec(const elk::chip::ChipSpec& spec);
    elk::chip::ChipSpec spec() const { return m_spec; }

    /// Loads a built-in preset as one undoable step (what the preset picker does).
    /// Unknown names leave the spec alone, set fileError() and return false.
    bool loadPreset(const QString& name);

    /// True when validateChipSpec() finds nothing and every text field parses.
    bool isValid() const { return m_valid; }
    /// Every current problem as "field: message" (field = JSON pointer), in field order.
    QStringList problems() const;
    /// The last load/save failure, or empty when the last load/save worked.
    QString fileError() const { return m_fileError; }

    QUndoStack* undoStack() const { return m_undoStack; }
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }

public slots:
    /// Replaces the spec with the file's (undoable). A file that does not read or parse leaves the
    /// spec unchanged and shows the error; returns false then.
    bool loadJsonFile(const QString& path);
    /// Writes canonical chip JSON; marks the undo stack clean on success.
    bool saveJsonFile(const QString& path);
    void openJsonDialog();
    void saveJsonDialog();

signals:
    void specChanged(const elk::chip::ChipSpec& spec);
    void validityChanged(bool valid);
    void statusMessage(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    friend class SpecSnapshotCommand;

    /// One row of the form: how to show the spec in the editor and when it applies.
    struct Field {
        QString pointer;
        QWidget* editor = nullptr;
        QLabel* label = nullptr;
        QWidget* companion = nullptr; ///< e.g. a Browse button, enabled together with the editor
        QString help;
        std::function<void(const elk::chip::ChipSpec&)> show;
        std::function<bool(const elk::chip::ChipSpec&)> applies; ///< null: always
    };
    struct NumberDef;

    QWidget* buildForm();
    QWidget* buildHeader();
    QWidget* buildProblemsPanel();
    void addNumber(QFormLayout* form, const NumberDef& def);
    void addTableFields(QFormLayout* form, std::string_view group);
    void addLineEdit(QFormLayout* form, const QString& pointer, const QString& label, const QString& help,
        std::function<QString(const elk::chip::ChipSpec&)> get,
        std::function<void(elk::chip::ChipSpec&, const QString&)> set);
    void addTextBlock(QFormLayout* form, const QString& pointer, const QString& label, const QString& help,
        std::function<QString(const elk::chip::ChipSpec&)> get,
        std::function<void(elk::chip::ChipSpec&, const QString&)> set);
    void addChoice(QFormLayout* form, const QString& pointer, const QString& label, const QString& help,
        const QList<QPair<QString, int>>& items, std::function<int(const elk::chip::ChipSpec&)> get,
        std::function<void(elk::chip::ChipSpec&, int)> set);
    void addControllerIds(QFormLayout* form);
    void addFittedPath(QFormLayout* form);
    Field& addField(QFormLayout* form, const QString& pointer, const QString& label, QWidget* editor,
        const QString& help, QWidget* row = nullptr);

    void commitEdit(int fieldIndex, const elk::chip::ChipSpec& next, const QString& what);
    void pushReplacement(const elk::chip::ChipSpec& next, const QString& what);
    void applySpec(const elk::chip::ChipSpec& spec); ///< called by undo commands only
    void refreshValidation();
    void refreshPresetPicker();
    void setFileError(const QString& message);
    void focusField(const QString& pointer);

    elk::chip::ChipSpec m_spec;
    std::vector<elk::chip::ChipSpec> m_presets;
    std::vector<Field> m_fields;
    QHash<QString, QString> m_localErrors; ///< pointer → why its text does not parse
    QString m_fileError;
    QString m_lastDirectory;
    bool m_valid = false;
    bool m_updating = false; ///< true while widgets are set from m_spec
    quint64 m_editSession = 0; ///< edits merge into one undo step only within one session

    QUndoStack* m_undoStack = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QComboBox* m_presetPicker = nullptr;
    ChipSchematic* m_schematic = nullptr;
    QLabel* m_summary = nullptr;
    QListWidget* m_messages = nullptr;
};

} // namespace elk::widgets
