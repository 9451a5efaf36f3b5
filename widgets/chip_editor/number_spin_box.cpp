// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/chip_editor/number_spin_box.h"

namespace elk::widgets {

NumberSpinBox::NumberSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    setGroupSeparatorShown(false);
    setAccelerated(true);
}

QString NumberSpinBox::textFromValue(double value) const
{
    QString text = locale().toString(value, 'f', decimals());
    text.remove(locale().groupSeparator());
    const QString point = locale().decimalPoint();
    if (decimals() > 0 && text.contains(point)) {
        while (text.endsWith(locale().zeroDigit()))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text;
}

} // namespace elk::widgets
