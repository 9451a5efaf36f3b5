// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/chip_editor/chip_editor.h"

#include <algorithm>

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QUndoStack>
#include <QVBoxLayout>

#include "engine/run/chips.h"
#include "widgets/chip_editor/chip_schematic.h"
#include "widgets/chip_editor/spec_snapshot_command.h"

namespace elk::widgets {

using elk::chip::ChipSpec;
using elk::chip::FieldError;

namespace {

    constexpr qint64 kMaxChipFileBytes = 4 * 1024 * 1024; // chip files are a few KiB; refuse anything absurd
    const QColor kInvalidBase(0xff, 0xdd, 0xdd);
    const QColor kInvalidText(0xb0, 0x00, 0x20);

    QString describe(const FieldError& error)
    {
        const QString message = QString::fromStdString(error.message);
        return error.field.empty() ? message : QString::fromStdString(error.field) + QStringLiteral(": ") + message;
    }

    // An error belongs to an editor when it names the editor's field, an element of it
    // ("/hbm/controllerCoreIds/2") or an object containing it ("/tileCost/roofline").
    bool errorConcerns(const QString& errorField, const QString& pointer)
    {
        if (errorField.isEmpty())
            return false;
        return errorField == pointer || errorField.startsWith(pointer + QLatin1Char('/'))
            || pointer.startsWith(errorField + QLatin1Char('/'));
    }

    void markInvalid(QWidget* editor, QLabel* label, bool invalid)
    {
        if (editor->property("elkInvalid").toBool() == invalid)
            return;
        editor->setProperty("elkInvalid", invalid);
        if (invalid) {
            QPalette palette = editor->palette();
            palette.setColor(QPalette::Base, kInvalidBase);
            palette.setColor(QPalette::Button, kInvalidBase);
            editor->setPalette(palette);
            QPalette labelPalette = label->palette();
            labelPalette.setColor(QPalette::WindowText, kInvalidText);
            label->setPalette(labelPalette);
        } else {
            editor->setPalette(QPalette());
            label->setPalette(QPalette());
        }
    }

} // namespace

ChipEditor::ChipEditor(QWidget* parent)
    : QWidget(parent)
    , m_presets(elk::chip::builtinPresets())
    , m_undoStack(new QUndoStack(this))
{
    m_undoAction = m_undoStack->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
    m_redoAction = m_undoStack->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcut(QKeySequence::Redo);
    m_redoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));

    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("formScrollArea"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildForm());
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the form reflows instead
    scroll->setMinimumWidth(
        scroll->widget()->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());

    m_schematic = new ChipSchematic;
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_schematic);
    right->addWidget(buildProblemsPanel());
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    split->setSizes({ 560, 700 });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildHeader());
    layout->addWidget(split, 1);

    setSpec(ChipSpec {});
}

ChipEditor::~ChipEditor() = default;

QWidget* ChipEditor::buildHeader()
{
    auto* header = new QWidget;
    auto* row = new QHBoxLayout(header);
    row->setContentsMargins(0, 0, 0, 0);

    m_presetPicker = new QComboBox;
    m_presetPicker->setObjectName(QStringLiteral("presetPicker"));
    m_presetPicker->setToolTip(tr("Built-in chip presets; \"Custom\" when the spec matches none of them."));
    for (const ChipSpec& preset : m_presets) {
        const QString name = QString::fromStdString(preset.name);
        m_presetPicker->addItem(name, name);
        m_presetPicker->setItemData(
            m_presetPicker->count() - 1, QString::fromStdString(preset.description), Qt::ToolTipRole);
    }
    m_presetPicker->addItem(tr("Custom"), QString());
    m_presetPicker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_presetPicker, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QString name = m_presetPicker->itemData(index).toString();
        if (!m_updating && !name.isEmpty())
            loadPreset(name);
    });

    auto* presetLabel = new QLabel(tr("&Preset:"));
    presetLabel->setBuddy(m_presetPicker);
    auto* open = new QPushButton(tr("&Load JSON…"));
    open->setObjectName(QStringLiteral("loadJson"));
    open->setToolTip(tr("Replace the spec with an elk.chip/1 JSON file (undoable)."));
    connect(open, &QPushButton::clicked, this, &ChipEditor::openJsonDialog);
    auto* save = new QPushButton(tr("&Save JSON…"));
    save->setObjectName(QStringLiteral("saveJson"));
    save->setToolTip(tr("Write the spec as canonical elk.chip/1 JSON."));
    connect(save, &QPushButton::clicked, this, &ChipEditor::saveJsonDialog);
    // Fixed captions (the actions' texts name the step and would make the header jump); the step
    // goes into the tooltip instead.
    auto* undo = new QPushButton(tr("Undo"));
    undo->setObjectName(QStringLiteral("undoButton"));
    connect(undo, &QPushButton::clicked, m_undoStack, &QUndoStack::undo);
    connect(m_undoStack, &QUndoStack::canUndoChanged, undo, &QWidget::setEnabled);
    connect(m_undoStack, &QUndoStack::undoTextChanged, undo,
        [undo](const QString& text) { undo->setToolTip(tr("Undo %1").arg(text)); });
    auto* redo = new QPushButton(tr("Redo"));
    redo->setObjectName(QStringLiteral("redoButton"));
    connect(redo, &QPushButton::clicked, m_undoStack, &QUndoStack::redo);
    connect(m_undoStack, &QUndoStack::canRedoChanged, redo, &QWidget::setEnabled);
    connect(m_undoStack, &QUndoStack::redoTextChanged, redo,
        [redo](const QString& text) { redo->setToolTip(tr("Redo %1").arg(text)); });
    undo->setEnabled(false);
    redo->setEnabled(false);

    row->addWidget(presetLabel);
    row->addWidget(m_presetPicker);
    row->addStretch(1);
    row->addWidget(open);
    row->addWidget(save);
    row->addWidget(undo);
    row->addWidget(redo);
    return header;
}

QWidget* ChipEditor::buildProblemsPanel()
{
    auto* panel = new QWidget;
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("validitySummary"));
    m_summary->setWordWrap(true);
    m_messages = new QListWidget;
    m_messages->setObjectName(QStringLiteral("messages"));
    m_messages->setWordWrap(true);
    m_messages->setToolTip(tr("Problems with the spec as \"field: message\"; click one to go to the field."));
    connect(m_messages, &QListWidget::itemActivated, this,
        [this](QListWidgetItem* item) { focusField(item->data(Qt::UserRole).toString()); });
    connect(m_messages, &QListWidget::itemClicked, this,
        [this](QListWidgetItem* item) { focusField(item->data(Qt::UserRole).toString()); });
    column->addWidget(m_summary);
    column->addWidget(m_messages, 1);
    return panel;
}

void ChipEditor::setSpec(const ChipSpec& spec)
{
    m_localErrors.clear();
    applySpec(spec);
    m_undoStack->clear();
}

bool ChipEditor::loadPreset(const QString& name)
{
    const auto found = std::find_if(
        m_presets.begin(), m_presets.end(), [&](const ChipSpec& preset) { return preset.name == name.toStdString(); });
    if (found == m_presets.end()) {
        setFileError(tr("No built-in preset is called \"%1\".").arg(name));
        refreshPresetPicker(); // the picker shows what is loaded, not the failed choice
        return false;
    }
    setFileError({});
    pushReplacement(*found, tr("Load preset %1").arg(name));
    return true;
}

QStringList ChipEditor::problems() const
{
    QStringList lines;
    for (const FieldError& error : elk::chip::validateChipSpec(m_spec))
        lines << describe(error);
    for (const Field& field : m_fields) {
        if (m_localErrors.contains(field.pointer))
            lines << field.pointer + QStringLiteral(": ") + m_localErrors.value(field.pointer);
    }
    return lines;
}

void ChipEditor::commitEdit(int fieldIndex, const ChipSpec& next, const QString& what)
{
    if (next == m_spec)
        return;
    m_undoStack->push(new SpecSnapshotCommand(this, m_spec, next, what, fieldIndex, m_editSession));
}

void ChipEditor::pushReplacement(const ChipSpec& next, const QString& what)
{
    ++m_editSession;
    if (next == m_spec) {
        refreshPresetPicker();
        return;
    }
    m_undoStack->push(new SpecSnapshotCommand(this, m_spec, next, what, SpecSnapshotCommand::kNoMerge, m_editSession));
}

void ChipEditor::applySpec(const ChipSpec& spec)
{
    m_spec = spec;
    m_updating = true;
    for (const Field& field : m_fields) {
        field.show(spec);
        const bool applies = !field.applies || field.applies(spec);
        field.editor->setEnabled(applies);
        field.label->setEnabled(applies);
        if (field.companion)
            field.companion->setEnabled(applies);
    }
    m_updating = false;
    refreshPresetPicker();
    m_schematic->setSpec(spec);
    refreshValidation();
    emit specChanged(m_spec);
}

void ChipEditor::refreshValidation()
{
    const std::vector<FieldError> errors = elk::chip::validateChipSpec(m_spec);
    for (const Field& field : m_fields) {
        QStringList messages;
        for (const FieldError& error : errors) {
            if (errorConcerns(QString::fromStdString(error.field), field.pointer))
                messages << QString::fromStdString(error.message);
        }
        if (m_localErrors.contains(field.pointer))
            messages << m_localErrors.value(field.pointer);
        markInvalid(field.editor, field.label, !messages.isEmpty());
        const QString tip = messages.isEmpty()
            ? field.help
            : field.help + QStringLiteral("\n\n⚠ ") + messages.join(QStringLiteral("\n⚠ "));
        field.editor->setToolTip(tip);
    }

    m_messages->clear();
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    if (!m_fileError.isEmpty()) {
        auto* item = new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxCritical), m_fileError);
        item->setForeground(kInvalidText);
        m_messages->addItem(item);
    }
    for (const FieldError& error : errors) {
        auto* item = new QListWidgetItem(warning, describe(error));
        item->setData(Qt::UserRole, QString::fromStdString(error.field));
        m_messages->addItem(item);
    }
    for (const Field& field : m_fields) {
        if (!m_localErrors.contains(field.pointer))
            continue;
        auto* item
            = new QListWidgetItem(warning, field.pointer + QStringLiteral(": ") + m_localErrors.value(field.pointer));
        item->setData(Qt::UserRole, field.pointer);
        m_messages->addItem(item);
    }

    const int count = int(errors.size() + std::size_t(m_localErrors.size()));
    if (count == 0) {
        m_summary->setText(tr("✔ The spec is valid."));
        m_summary->setStyleSheet(QStringLiteral("color: #1b5e20; font-weight: bold;"));
    } else {
        m_summary->setText(tr("%n problem(s): fix them to run.", nullptr, count));
        m_summary->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold;"));
    }

    const bool valid = count == 0;
    if (valid != m_valid) {
        m_valid = valid;
        emit validityChanged(m_valid);
    }
}

void ChipEditor::refreshPresetPicker()
{
    int index = m_presetPicker->count() - 1; // "Custom"
    for (std::size_t i = 0; i < m_presets.size(); ++i) {
        if (m_presets[i] == m_spec)
            index = int(i);
    }
    const bool updating = m_updating;
    m_updating = true;
    m_presetPicker->setCurrentIndex(index);
    m_updating = updating;
}

void ChipEditor::setFileError(const QString& message)
{
    if (message == m_fileError)
        return;
    m_fileError = message;
    refreshValidation();
}

bool ChipEditor::loadJsonFile(const QString& path)
{
    const QString shownPath = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        setFileError(tr("Could not open %1: %2").arg(shownPath, file.errorString()));
        return false;
    }
    if (file.size() > kMaxChipFileBytes) {
        setFileError(tr("%1: %2 bytes is too large for a chip file (at most %3 bytes).")
                         .arg(shownPath)
                         .arg(file.size())
                         .arg(kMaxChipFileBytes));
        return false;
    }
    const QByteArray bytes = file.readAll();
    const elk::chip::ChipParseResult parsed
        = elk::chip::chipSpecFromJson(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!parsed.ok()) {
        QStringList lines;
        for (const FieldError& error : parsed.errors)
            lines << describe(error);
        setFileError(
            tr("Could not load %1 (the spec is unchanged): %2").arg(shownPath, lines.join(QStringLiteral("; "))));
        return false;
    }
    m_lastDirectory = QFileInfo(path).absolutePath();
    setFileError({});
    pushReplacement(parsed.spec, tr("Load %1").arg(QFileInfo(path).fileName()));
    emit statusMessage(tr("Loaded %1").arg(shownPath));
    return true;
}

bool ChipEditor::saveJsonFile(const QString& path)
{
    const QString shownPath = QDir::toNativeSeparators(path);
    const std::string text = elk::chip::chipSpecToJson(m_spec);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        setFileError(tr("Could not save %1: %2").arg(shownPath, file.errorString()));
        return false;
    }
    file.write(text.data(), qint64(text.size()));
    if (!file.commit()) {
        setFileError(tr("Could not save %1: %2").arg(shownPath, file.errorString()));
        return false;
    }
    m_lastDirectory = QFileInfo(path).absolutePath();
    setFileError({});
    m_undoStack->setClean();
    emit statusMessage(
        m_valid ? tr("Saved %1").arg(shownPath) : tr("Saved %1 (the spec still has problems)").arg(shownPath));
    return true;
}

void ChipEditor::openJsonDialog()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open chip"), m_lastDirectory, tr("Chip JSON (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadJsonFile(path);
}

void ChipEditor::saveJsonDialog()
{
    const QString suggested
        = QDir(m_lastDirectory).filePath(QString::fromStdString(m_spec.name) + QStringLiteral(".json"));
    QString path
        = QFileDialog::getSaveFileName(this, tr("Save chip"), suggested, tr("Chip JSON (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    saveJsonFile(path);
}

void ChipEditor::focusField(const QString& pointer)
{
    for (const Field& field : m_fields) {
        if (errorConcerns(pointer, field.pointer)) {
            field.editor->setFocus(Qt::OtherFocusReason);
            if (auto* scroll = findChild<QScrollArea*>(QStringLiteral("formScrollArea")))
                scroll->ensureWidgetVisible(field.editor);
            return;
        }
    }
}

bool ChipEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FocusOut)
        ++m_editSession; // the text blocks have no editingFinished
    return QWidget::eventFilter(watched, event);
}

} // namespace elk::widgets
