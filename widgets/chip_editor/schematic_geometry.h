// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLineF>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QStringList>

#include "engine/run/chips.h"

namespace elk::widgets {

/// Where everything of the chip schematic goes, computed without painting so tests can check it.
///
/// Contract:
///  - Works for any ChipSpec, valid or not (zero or negative counts draw nothing, huge counts are
///    scaled down); never divides by zero.
///  - HBM boxes lie outside their chip's outline; cells lie inside its core area.
///  - At most kMaxDrawnChips chips, kMaxMeshCells × kMaxMeshCells mesh cells per chip,
///    kMaxRingBlocks all-to-all blocks and kMaxStacksPerChip HBM boxes per chip are drawn;
///    the captions then say what one drawn item stands for.
struct SchematicGeometry {
    static constexpr int kMaxDrawnChips = 16;
    static constexpr int kMaxMeshCells = 48;
    static constexpr int kMaxRingBlocks = 24;
    static constexpr int kMaxStacksPerChip = 16;
    static constexpr double kMinCellPitchPx = 4.0; ///< below this a mesh is drawn scaled down
    static constexpr double kCaptionHeightPx = 54.0; ///< three lines of text under the drawing

    struct Chip {
        QRectF outline; ///< the die
        QRectF coreArea; ///< inside outline; cells lie here
        QList<QRectF> cells; ///< mesh routers (mesh2d) or core blocks on a ring (all-to-all)
        QList<QRectF> hbmBoxes; ///< one per drawn stack, outside outline
        QList<QLineF> hbmLinks; ///< from each box to the chip edge where its controller sits
        QPointF hubCenter; ///< all-to-all exchange hub
        double hubRadius = 0; ///< 0 for mesh2d
    };

    elk::chip::Topology topology = elk::chip::Topology::AllToAll;
    QList<Chip> chips; ///< drawn chips, row-major
    QList<QLineF> interChipLinks; ///< between neighbouring drawn chips
    int hiddenChips = 0; ///< chips not drawn (beyond kMaxDrawnChips)
    int meshColumnsDrawn = 0; ///< mesh2d: cells per row as drawn (≤ meshWidth)
    int meshRowsDrawn = 0; ///< mesh2d: cells per column as drawn (≤ meshHeight)
    bool meshScaled = false; ///< mesh2d: one drawn cell stands for several routers
    double coresPerCell = 1; ///< how many cores one drawn cell or block stands for
    QRectF captionArea;
    QStringList captions; ///< topology line, totals line, chips line

    static SchematicGeometry compute(const elk::chip::ChipSpec& spec, const QSizeF& size);
};

} // namespace elk::widgets
