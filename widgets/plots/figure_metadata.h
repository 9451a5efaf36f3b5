// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The run an exported figure shows, carried in the file: PDF document title, SVG <desc>, PNG text
// chunk, each as "elk-run-spec-sha256:HEX elk-figure:KIND". `elk-studio FILE` reads it back and
// reopens that run from the result cache.
#pragma once

#include <QString>

namespace elk::widgets {

inline constexpr char kRunKeyTag[] = "elk-run-spec-sha256:";
inline constexpr char kFigureKindTag[] = "elk-figure:";

/// "elk-run-spec-sha256:HEX elk-figure:KIND" (without the run part when specHash is empty).
QString figureMetadataText(const QString& specHash, const QString& kind);

struct FigureMetadata {
    QString specHash; ///< 64 hex digits; empty when the file carries none
    QString kind; ///< the view that drew it ("designs", "gantt", …); may be empty
    QString error; ///< why nothing was read (cannot open, not a figure of ours)
    bool ok() const { return !specHash.isEmpty(); }
};

/// Reads what figureMetadataText() wrote into a .pdf, .svg or .png file (any of Elk Studio's exports).
FigureMetadata readFigureMetadata(const QString& path);

} // namespace elk::widgets
