// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The form half of ChipEditor: one row per ChipSpec field, grouped as in the JSON.
#include "widgets/chip_editor/chip_editor.h"

#include "engine/run/chips.h"

#include <cmath>
#include <optional>
#include <vector>

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/chip_editor/number_spin_box.h"

namespace elk::widgets {

using elk::chip::ChipSpec;
using elk::chip::ControllerPlacement;
using elk::chip::TileCostModelKind;
using elk::chip::Topology;

/// A numeric field. The editor shows raw / scale (e.g. bytes as KiB); integral fields round back.
struct ChipEditor::NumberDef {
    QString pointer;
    QString label;
    QString help;
    QString suffix;
    int decimals = 0;
    double maximum = 0;
    double scale = 1;
    bool integral = true;
    std::function<double(const ChipSpec&)> get;
    std::function<void(ChipSpec&, double)> set;
    std::function<bool(const ChipSpec&)> applies;
};

namespace {

    QFormLayout* newGroup(QVBoxLayout* column, const QString& title)
    {
        auto* group = new QGroupBox(title);
        auto* form = new QFormLayout(group);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
        column->addWidget(group);
        return form;
    }

    bool isRoofline(const ChipSpec& spec)
    {
        return spec.tileCost.model == TileCostModelKind::Roofline;
    }

    bool isMesh(const ChipSpec& spec)
    {
        return spec.interconnect.topology == Topology::Mesh2d;
    }

    QString formatIds(const std::vector<int>& ids)
    {
        QStringList parts;
        for (int id : ids)
            parts << QString::number(id);
        return parts.join(QStringLiteral(", "));
    }

    // "0, 45,1426" → ids; empty parts are skipped so a trailing comma while typing is fine.
    std::optional<std::vector<int>> parseIds(const QString& text)
    {
        std::vector<int> ids;
        for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString trimmed = part.trimmed();
            if (trimmed.isEmpty())
                continue;
            bool ok = false;
            const int id = trimmed.toInt(&ok);
            if (!ok)
                return std::nullopt;
            ids.push_back(id);
        }
        return ids;
    }

} // namespace

ChipEditor::Field& ChipEditor::addField(
    QFormLayout* form, const QString& pointer, const QString& label, QWidget* editor, const QString& help, QWidget* row)
{
    Field field;
    field.pointer = pointer;
    field.editor = editor;
    field.help = help + QStringLiteral("\nJSON: ") + pointer;
    field.label = new QLabel(label);
    field.label->setBuddy(editor);
    field.label->setToolTip(field.help);
    editor->setObjectName(pointer);
    editor->setToolTip(field.help);
    form->addRow(field.label, row ? row : editor);
    m_fields.push_back(std::move(field));
    return m_fields.back();
}

void ChipEditor::addNumber(QFormLayout* form, const NumberDef& def)
{
    auto* spin = new NumberSpinBox;
    spin->setDecimals(def.decimals);
    spin->setRange(0, def.maximum);
    if (!def.suffix.isEmpty())
        spin->setSuffix(QLatin1Char(' ') + def.suffix);
    const int index = int(m_fields.size());
    Field& field = addField(form, def.pointer, def.label, spin, def.help);
    const auto toRaw = [def](double shown) {
        const double raw = shown * def.scale;
        return def.integral || def.scale != 1 ? std::round(raw) : raw;
    };
    field.show = [spin, def, toRaw](const ChipSpec& spec) {
        if (toRaw(spin->value()) != def.get(spec))
            spin->setValue(def.get(spec) / def.scale);
    };
    field.applies = def.applies;
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index, spin, def, toRaw](double) {
        if (m_updating)
            return;
        ChipSpec next = m_spec;
        def.set(next, toRaw(spin->value()));
        commitEdit(index, next, tr("Edit %1").arg(def.label));
    });
    connect(spin, &QAbstractSpinBox::editingFinished, this, [this] { ++m_editSession; });
}

void ChipEditor::addLineEdit(QFormLayout* form, const QString& pointer, const QString& label, const QString& help,
    std::function<QString(const ChipSpec&)> get, std::function<void(ChipSpec&, const QString&)> set)
{
    auto* edit = new QLineEdit;
    const int index = int(m_fields.size());
    Field& field = addField(form, pointer, label, edit, help);
    field.show = [edit, get](const ChipSpec& spec) {
        if (edit->text() != get(spec))
            edit->setText(get(spec));
    };
    connect(edit, &QLineEdit::textChanged, this, [this, index, label, set](const QString& text) {
        if (m_updating)
            return;
        ChipSpec next = m_spec;
        set(next, text);
        commitEdit(index, next, tr("Edit %1").arg(label));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this] { ++m_editSession; });
}

void ChipEditor::addTextBlock(QFormLayout* form, const QString& pointer, const QString& label, const QString& help,
    std::function<QString(const ChipSpec&)> get, std::function<void(ChipSpec&, const QString&)> set)
{
    auto* edit = new QPlainTextEdit;
    edit->setTabChangesFocus(true);
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
    edit->installEventFilter(this); // focus-out ends the editing session
    const int index = int(m_fields.size());
    Field& field = addField(form, pointer, label, edit, help);
    field.show = [edit, get](const ChipSpec& spec) {
        if (edit->toPlainText() != get(spec))
            edit->setPlainText(get(spec));
    };
    connect(edit, &QPlainTextEdit::textChanged, this, [this, index, label, edit, set] {
        if (m_updating)
            return;
        ChipSpec next = m_spec;
        set(next, edit->toPlainText());
        commitEdit(index, next, tr("Edit %1").arg(label));
    });
}

void ChipEditor::addChoice(QFormLayout* form, const QString& pointer, const QString& label, const QString& help,
    const QList<QPair<QString, int>>& items, std::function<int(const ChipSpec&)> get,
    std::function<void(ChipSpec&, int)> set)
{
    auto* combo = new QComboBox;
    // Long item texts must not widen the whole form; the popup still shows them in full.
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(16);
    for (const auto& [text, value] : items)
        combo->addItem(text, value);
    const int index = int(m_fields.size());
    Field& field = addField(form, pointer, label, combo, help);
    field.show = [combo, get](const ChipSpec& spec) {
        const int at = combo->findData(get(spec));
        if (combo->currentIndex() != at)
            combo->setCurrentIndex(at);
    };
    connect(combo, &QComboBox::currentIndexChanged, this, [this, index, label, combo, set](int at) {
        if (m_updating || at < 0)
            return;
        ChipSpec next = m_spec;
        set(next, combo->itemData(at).toInt());
        ++m_editSession; // every choice is its own undo step
        commitEdit(index, next, tr("Change %1").arg(label));
    });
}

void ChipEditor::addControllerIds(QFormLayout* form)
{
    const QString pointer = QStringLiteral("/hbm/controllerCoreIds");
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(tr("comma-separated core ids, e.g. 0, 45, 1426"));
    const int index = int(m_fields.size());
    Field& field = addField(form, pointer, tr("Controller core ids"), edit,
        tr("For explicit placement: the core id (within one chip, 0 … cores per chip − 1) each HBM "
           "controller attaches to, one per stack, separated by commas. The same ids apply to "
           "every chip."));
    field.applies = [](const ChipSpec& spec) { return spec.hbm.controllerPlacement == ControllerPlacement::Explicit; };
    field.show = [this, edit, pointer](const ChipSpec& spec) {
        const auto parsed = parseIds(edit->text());
        if (m_localErrors.contains(pointer) || !parsed || *parsed != spec.hbm.controllerCoreIds) {
            m_localErrors.remove(pointer);
            edit->setText(formatIds(spec.hbm.controllerCoreIds));
        }
    };
    connect(edit, &QLineEdit::textChanged, this, [this, index, pointer](const QString& text) {
        if (m_updating)
            return;
        const auto ids = parseIds(text);
        if (!ids) {
            m_localErrors.insert(pointer, tr("\"%1\" is not a comma-separated list of integer core ids").arg(text));
            refreshValidation();
            return;
        }
        m_localErrors.remove(pointer);
        ChipSpec next = m_spec;
        next.hbm.controllerCoreIds = *ids;
        if (next == m_spec)
            refreshValidation(); // e.g. "1,x" → "1": the spec never changed, but the parse error is gone
        else
            commitEdit(index, next, tr("Edit controller core ids"));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this] { ++m_editSession; });
}

void ChipEditor::addFittedPath(QFormLayout* form)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(tr("path of the fitted model JSON"));
    auto* browse = new QToolButton;
    browse->setText(tr("Browse…"));
    browse->setToolTip(tr("Choose the fitted model JSON file"));
    layout->addWidget(edit, 1);
    layout->addWidget(browse);

    const int index = int(m_fields.size());
    Field& field = addField(form, QStringLiteral("/tileCost/fitted/modelPath"), tr("Fitted model file"), edit,
        tr("Path of the fitted linear-model-tree JSON used by the \"fitted\" tile cost model. "
           "Relative paths resolve against the chip file's folder."),
        row);
    field.companion = browse;
    field.applies = [](const ChipSpec& spec) { return spec.tileCost.model == TileCostModelKind::Fitted; };
    field.show = [edit](const ChipSpec& spec) {
        const QString text = QString::fromStdString(spec.tileCost.fitted.modelPath);
        if (edit->text() != text)
            edit->setText(text);
    };
    connect(edit, &QLineEdit::textChanged, this, [this, index](const QString& text) {
        if (m_updating)
            return;
        ChipSpec next = m_spec;
        next.tileCost.fitted.modelPath = text.toStdString();
        commitEdit(index, next, tr("Edit fitted model file"));
    });
    connect(edit, &QLineEdit::editingFinished, this, [this] { ++m_editSession; });
    connect(browse, &QToolButton::clicked, this, [this, edit] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Fitted model"), m_lastDirectory, tr("Fitted model JSON (*.json);;All files (*)"));
        if (!path.isEmpty())
            edit->setText(path);
    });
}

void ChipEditor::addTableFields(QFormLayout* form, std::string_view group)
{
    // The numeric fields are declared once, in engine/chip/chip_fields.cpp.
    for (const elk::chip::ChipField& row : elk::chip::chipFields()) {
        if (row.group != group)
            continue;
        NumberDef def;
        def.pointer = QString::fromUtf8(row.pointer.data(), qsizetype(row.pointer.size()));
        def.label = QString::fromUtf8(row.label.data(), qsizetype(row.label.size()));
        def.help = QString::fromUtf8(row.help.data(), qsizetype(row.help.size()));
        def.suffix = QString::fromUtf8(row.editorUnit.data(), qsizetype(row.editorUnit.size()));
        def.decimals = row.editorDecimals;
        def.maximum = row.maxValue / row.editorScale;
        def.scale = row.editorScale;
        def.integral = row.integer();
        def.get = [&row](const ChipSpec& spec) { return row.get(spec); };
        def.set = [&row](ChipSpec& spec, double value) { row.set(spec, value); };
        if (row.scope == elk::chip::FieldScope::Roofline)
            def.applies = [](const ChipSpec& spec) { return isRoofline(spec); };
        else if (row.scope == elk::chip::FieldScope::Mesh)
            def.applies = [](const ChipSpec& spec) { return isMesh(spec); };
        addNumber(form, def);
    }
}

QWidget* ChipEditor::buildForm()
{
    auto* page = new QWidget;
    auto* column = new QVBoxLayout(page);

    QFormLayout* form = newGroup(column, tr("Identity"));
    addLineEdit(
        form, QStringLiteral("/name"), tr("Name"),
        tr("Short identifier of this chip spec, used by presets and the CLI (letters, digits, '-', '_', '.')."),
        [](const ChipSpec& spec) { return QString::fromStdString(spec.name); },
        [](ChipSpec& spec, const QString& text) { spec.name = text.toStdString(); });
    addTextBlock(
        form, QStringLiteral("/description"), tr("Description"), tr("One or two sentences saying what this part is."),
        [](const ChipSpec& spec) { return QString::fromStdString(spec.description); },
        [](ChipSpec& spec, const QString& text) { spec.description = text.toStdString(); });
    addTextBlock(
        form, QStringLiteral("/source"), tr("Source"),
        tr("Where the numbers come from (datasheet, paper, artifact) and which ones are assumed."),
        [](const ChipSpec& spec) { return QString::fromStdString(spec.source); },
        [](ChipSpec& spec, const QString& text) { spec.source = text.toStdString(); });

    form = newGroup(column, tr("Cores"));
    addTableFields(form, "Cores");

    form = newGroup(column, tr("Tile cost model"));
    QList<QPair<QString, int>> models;
    const QHash<int, QString> modelHelp { { int(TileCostModelKind::IpuMk2),
                                              tr("IPU MK2 closed forms from the Elk artifact") },
        { int(TileCostModelKind::Roofline), tr("peak FLOP/cycle and SRAM bytes/cycle") },
        { int(TileCostModelKind::Fitted), tr("linear model tree fitted to measurements") } };
    for (TileCostModelKind kind : elk::chip::kAllTileCostModelKinds)
        models.append(
            { QStringLiteral("%1 — %2").arg(QLatin1String(toString(kind)), modelHelp.value(int(kind))), int(kind) });
    addChoice(
        form, QStringLiteral("/tileCost/model"), tr("Model"),
        tr("How the time of one core's tile of work is priced: ipu-mk2 (Elk's IPU formulas), roofline (peaks "
           "below) or fitted (a model file)."),
        models, [](const ChipSpec& s) { return int(s.tileCost.model); },
        [](ChipSpec& s, int v) { s.tileCost.model = TileCostModelKind(v); });
    addTableFields(form, "Tile cost model");
    addFittedPath(form);

    form = newGroup(column, tr("On-chip interconnect"));
    QList<QPair<QString, int>> topologies;
    for (Topology topology : elk::chip::kAllTopologies) {
        const QString what
            = topology == Topology::Mesh2d ? tr("2D mesh of routers") : tr("every core reaches every core");
        topologies.append({ QStringLiteral("%1 — %2").arg(QLatin1String(toString(topology)), what), int(topology) });
    }
    addChoice(
        form, QStringLiteral("/interconnect/topology"), tr("Topology"),
        tr("all-to-all: a global exchange (IPU); mesh2d: routers in a width × height grid per chip."), topologies,
        [](const ChipSpec& s) { return int(s.interconnect.topology); },
        [](ChipSpec& s, int v) { s.interconnect.topology = Topology(v); });
    addTableFields(form, "On-chip interconnect");

    form = newGroup(column, tr("Inter-chip links"));
    addTableFields(form, "Inter-chip links");

    form = newGroup(column, tr("HBM"));
    addTableFields(form, "HBM");
    QList<QPair<QString, int>> placements;
    const QHash<int, QString> placementHelp { { int(ControllerPlacement::Spread), tr("evenly over core ids") },
        { int(ControllerPlacement::WestEdge), tr("mesh column 0") },
        { int(ControllerPlacement::WestEastEdges), tr("mesh columns 0 and width − 1") },
        { int(ControllerPlacement::AllEdges), tr("every mesh edge, round-robin") },
        { int(ControllerPlacement::Explicit), tr("the core ids below") } };
    for (ControllerPlacement placement : elk::chip::kAllControllerPlacements)
        placements.append(
            { QStringLiteral("%1 — %2").arg(QLatin1String(toString(placement)), placementHelp.value(int(placement))),
                int(placement) });
    addChoice(
        form, QStringLiteral("/hbm/controllerPlacement"), tr("Controller placement"),
        tr("Where the HBM controllers attach to the on-chip interconnect. Edge placements need a mesh."), placements,
        [](const ChipSpec& s) { return int(s.hbm.controllerPlacement); },
        [](ChipSpec& s, int v) { s.hbm.controllerPlacement = ControllerPlacement(v); });
    addControllerIds(form);

    column->addStretch(1);
    return page;
}

} // namespace elk::widgets
