// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/model/free_dims_form.h"

#include <limits>

#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

namespace elk::widgets {

namespace {

    /// "[?, 3, ?, ?]": the input's shape with its free dims marked.
    QString shapeText(const std::vector<std::int64_t>& shape)
    {
        QStringList parts;
        for (const std::int64_t extent : shape)
            parts << (extent > 0 ? QString::number(extent) : QStringLiteral("?"));
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }

} // namespace

FreeDimsForm::FreeDimsForm(QWidget* parent)
    : QGroupBox(tr("Sizes for the model's free dims"), parent)
{
    m_intro = new QLabel(tr("The file leaves these input dims free. Give them sizes to load the model "
                            "(the command line's --dim and --input-shape do the same)."));
    m_intro->setObjectName(QStringLiteral("freeDimsIntro"));
    m_intro->setWordWrap(true);
    m_rows = new QFormLayout;
    m_bind = new QPushButton(tr("Load with these sizes"));
    m_bind->setObjectName(QStringLiteral("bindFreeDims"));
    connect(m_bind, &QPushButton::clicked, this,
        [this] { emit bindRequested(elk::import::bindFreeDims(m_dims, sizes())); });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(m_rows);
    layout->addWidget(m_bind, 0, Qt::AlignRight);
    hide();
}

void FreeDimsForm::setFreeDims(const std::vector<elk::import::FreeDim>& dims)
{
    while (m_rows->rowCount() > 0)
        m_rows->removeRow(0);
    m_boxes.clear();
    m_dims = dims;
    for (std::size_t k = 0; k < dims.size(); ++k) {
        const elk::import::FreeDim& dim = dims[k];
        auto* box = new QSpinBox;
        box->setObjectName(QStringLiteral("freeDim%1").arg(k));
        box->setRange(1, std::numeric_limits<int>::max());
        box->setGroupSeparatorShown(true);
        box->setValue(int(std::min<std::int64_t>(dim.suggested, std::numeric_limits<int>::max())));
        const QString where = tr("input %1, axis %2 of %3")
                                  .arg(QString::fromStdString(dim.input))
                                  .arg(dim.axis)
                                  .arg(shapeText(dim.fileShape));
        box->setToolTip(tr("Suggested: %1").arg(dim.suggested));
        auto* label = new QLabel(dim.name.empty() ? tr("unnamed — %1").arg(where)
                                                  : tr("%1 — %2").arg(QString::fromStdString(dim.name), where));
        label->setWordWrap(true);
        label->setBuddy(box);
        m_rows->addRow(label, box);
        m_boxes.push_back(box);
    }
    setVisible(!dims.empty());
}

std::vector<std::int64_t> FreeDimsForm::sizes() const
{
    std::vector<std::int64_t> values;
    for (const QSpinBox* box : m_boxes)
        values.push_back(box->value());
    return values;
}

} // namespace elk::widgets
