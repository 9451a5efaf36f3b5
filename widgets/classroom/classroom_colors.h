// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

namespace elk::widgets {

// Classroom colours, shared by the timeline lanes and the SRAM gauge so a part reads the same in
// both: preload dark blue, execute orange, stall vermillion (Okabe–Ito; apart in grayscale too).
inline QColor classroomPreloadColor()
{
    return QColor::fromRgb(0x0072B2);
}
inline QColor classroomExecuteColor()
{
    return QColor::fromRgb(0xE69F00);
}
inline QColor classroomStallColor()
{
    return QColor::fromRgb(0xD55E00);
}
/// What is still to come: the colour washed towards white (28 % colour), lighter in grayscale too.
inline QColor classroomFaded(const QColor& color)
{
    const float keep = 0.28f;
    return QColor::fromRgbF(
        1 - keep + keep * color.redF(), 1 - keep + keep * color.greenF(), 1 - keep + keep * color.blueF());
}

} // namespace elk::widgets
