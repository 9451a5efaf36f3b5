// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/plots/figure_style.h"

#include <array>

#include <QImage>
#include <QPainter>

namespace elk::widgets {

namespace {

    // Okabe & Ito (2008). CIE L* in brackets: neighbours differ by >= 13, most by > 25, so adjacent
    // series stay apart in grayscale too.
    constexpr std::array<QRgb, 8> kPalette = {
        0x0072B2, // blue [46]
        0xE69F00, // orange [71]
        0x009E73, // bluish green [58]
        0xF0E442, // yellow [89]
        0xD55E00, // vermillion [54]
        0x56B4E9, // sky blue [70]
        0x000000, // black [0]
        0xCC79A7, // reddish purple [61]
    };

    constexpr std::array<Qt::BrushStyle, 6> kPatterns = {
        Qt::SolidPattern,
        Qt::BDiagPattern,
        Qt::Dense6Pattern,
        Qt::FDiagPattern,
        Qt::CrossPattern,
        Qt::HorPattern,
    };

} // namespace

QColor paletteColor(int index)
{
    const int n = int(kPalette.size());
    return QColor::fromRgb(kPalette[std::size_t(((index % n) + n) % n)]);
}

Qt::BrushStyle palettePattern(int index)
{
    const int n = int(kPatterns.size());
    return kPatterns[std::size_t(((index % n) + n) % n)];
}

QColor designColor(const QString& designName)
{
    // Lightness rises along the paper's order (basic darkest, ideal lightest: L* 0, 46, 71, 54, 89),
    // so the five stay distinct in grayscale; the two Elk designs get the warm colours.
    if (designName == QLatin1String("basic"))
        return QColor::fromRgb(0x000000);
    if (designName == QLatin1String("static"))
        return QColor::fromRgb(0x0072B2);
    if (designName == QLatin1String("elk-dyn"))
        return QColor::fromRgb(0xE69F00);
    if (designName == QLatin1String("elk-full"))
        return QColor::fromRgb(0xD55E00);
    if (designName == QLatin1String("ideal"))
        return QColor::fromRgb(0xF0E442);
    return QColor::fromRgb(0x999999);
}

QColor breakdownColor(const QString& part)
{
    // The Okabe–Ito colours the designs do not use, so a legend with both stays unambiguous.
    if (part == QLatin1String("overlapped") || part == QLatin1String("overlap"))
        return QColor::fromRgb(0x009E73); // bluish green
    if (part == QLatin1String("preload only"))
        return QColor::fromRgb(0xCC79A7); // reddish purple
    if (part == QLatin1String("execute only"))
        return QColor::fromRgb(0x56B4E9); // sky blue
    if (part == QLatin1String("rest"))
        return QColor::fromRgb(0xBBBBBB);
    return {};
}

QColor opKindColor(const QString& kind)
{
    // Groups by what limits the op: compute-bound contractions, element-wise streams, reductions,
    // pure data movement; the names are elk::model::toString(OpKind).
    if (kind == QLatin1String("matmul") || kind == QLatin1String("conv"))
        return QColor::fromRgb(0x0072B2);
    if (kind == QLatin1String("elementwise") || kind == QLatin1String("unary"))
        return QColor::fromRgb(0xE69F00);
    if (kind == QLatin1String("reduce") || kind == QLatin1String("softmax") || kind == QLatin1String("normalization")
        || kind == QLatin1String("pool"))
        return QColor::fromRgb(0x009E73);
    if (kind == QLatin1String("gather") || kind == QLatin1String("slice"))
        return QColor::fromRgb(0xCC79A7);
    return QColor::fromRgb(0x999999);
}

QColor outlineColor(const QColor& color)
{
    return color.lightnessF() < 0.25 ? color : color.darker(170);
}

QBrush seriesBrush(const QColor& color, int index, bool patterns)
{
    const Qt::BrushStyle pattern = palettePattern(index);
    if (!patterns || pattern == Qt::SolidPattern)
        return QBrush(color);
    // A texture (fill + hatch) rather than a bare pattern brush, whose gaps would show the background.
    QImage tile(8, 8, QImage::Format_ARGB32_Premultiplied);
    tile.fill(color);
    QPainter painter(&tile);
    const QColor ink = color.lightnessF() < 0.35 ? QColor(255, 255, 255, 170) : QColor(0, 0, 0, 150);
    painter.fillRect(tile.rect(), QBrush(ink, pattern));
    painter.end();
    return QBrush(tile);
}

} // namespace elk::widgets
