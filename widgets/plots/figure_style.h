// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QBrush>
#include <QColor>
#include <QString>
#include <Qt>

namespace elk::widgets {

/// How a figure is exported (and drawn when "publication" is chosen): the size a paper's column
/// gives it, the font size, and a colour-blind-safe palette (Okabe–Ito) whose entries also differ in
/// lightness and carry a brush pattern, so bars stay distinguishable when printed in grayscale.
struct FigureStyle {
    double widthCm = 8.5; ///< one IEEE/ACM column
    double heightCm = 6.0;
    double fontPt = 8.0;
    int pngDpi = 300;
    bool patterns = true; ///< hatch bars/areas by series index (grayscale-safe)
    bool runCaption = false; ///< a small "Elk Studio run KEY" caption (the key is always in the file's metadata)
    static FigureStyle column() { return {}; }
    static FigureStyle wide() { return { 17.8, 7.0, 8.0, 300, true }; } ///< two columns
    static FigureStyle slide() { return { 25.4, 14.3, 16.0, 150, true }; }
};

/// Okabe–Ito colours ordered so neighbours differ in lightness; index wraps.
QColor paletteColor(int index);
/// Brush pattern for series `index` when patterns are on (solid for 0).
Qt::BrushStyle palettePattern(int index);
/// Colours of the five designs, stable across every view (basic, static, elk-dyn, elk-full, ideal).
QColor designColor(const QString& designName);
/// Colours of the latency breakdown's parts ("overlapped" or "overlap", "preload only", "execute only",
/// "rest"), the same in every view and distinct from the designs'; invalid for another name.
QColor breakdownColor(const QString& part);
/// Colours by operator kind (matmul, elementwise, reduction, data movement, …), stable across views.
QColor opKindColor(const QString& kind);
/// Fill of series `index` in `color`: solid, or (patterns on, index > 0) `color` hatched with a darker
/// line pattern drawn on it, so the fill survives grayscale printing and stays readable on screen.
QBrush seriesBrush(const QColor& color, int index, bool patterns);
/// Outline of a filled shape in `color` (a darker shade, so light fills keep an edge).
QColor outlineColor(const QColor& color);

} // namespace elk::widgets
