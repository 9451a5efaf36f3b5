// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDoubleSpinBox>

namespace elk::widgets {

/// A QDoubleSpinBox that shows only the decimals a value needs ("1.325 GHz", "624 KiB"),
/// so one widget type serves integer and fractional fields alike.
class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget* parent = nullptr);

    QString textFromValue(double value) const override;
};

} // namespace elk::widgets
