// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "engine/run/chips.h"

namespace elk::widgets {

/// A small painted picture of a ChipSpec: chips side by side, their mesh or all-to-all exchange,
/// HBM stacks where the controllers sit, and captions with totals. All layout comes from
/// SchematicGeometry; this class only paints it.
class ChipSchematic : public QWidget {
    Q_OBJECT
public:
    explicit ChipSchematic(QWidget* parent = nullptr);

    void setSpec(const elk::chip::ChipSpec& spec);
    const elk::chip::ChipSpec& spec() const { return m_spec; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    elk::chip::ChipSpec m_spec;
};

} // namespace elk::widgets
