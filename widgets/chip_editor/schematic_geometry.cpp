// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/chip_editor/schematic_geometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <QString>

namespace elk::widgets {

namespace {

    using elk::chip::ChipSpec;
    using elk::chip::ControllerPlacement;
    using elk::chip::Topology;

    constexpr double kMarginPx = 8.0;
    constexpr double kMinDrawingPx = 40.0;
    constexpr double kBandStart = 0.15; // HBM boxes sit in the middle 70 % of an edge ...
    constexpr double kBandLength = 0.70;
    constexpr double kLinkOffset = 0.075; // ... so inter-chip links near the corner never cross them

    enum class Side { North, South, West, East };

    struct Grid {
        int columns = 1;
        int rows = 1;
    };

    // The column count that gives each chip the largest square-ish slot; ties prefer fewer empty
    // slots, then side by side.
    Grid chooseGrid(int count, double width, double height, double gap)
    {
        Grid best { count, 1 };
        double bestScore = -1;
        int bestEmpty = 0;
        for (int columns = 1; columns <= count; ++columns) {
            const int rows = (count + columns - 1) / columns;
            const double slotWidth = (width - (columns - 1) * gap) / columns;
            const double slotHeight = (height - (rows - 1) * gap) / rows;
            const double score = std::min(slotWidth, slotHeight);
            const int empty = columns * rows - count;
            const bool tie = std::abs(score - bestScore) < 1e-6;
            if ((!tie && score > bestScore) || (tie && empty <= bestEmpty)) {
                bestScore = score;
                bestEmpty = empty;
                best = Grid { columns, rows };
            }
        }
        return best;
    }

    // Largest rectangle of the given width/height ratio centred in `area`.
    QRectF fitAspect(const QRectF& area, double aspect)
    {
        double width = area.width();
        double height = width / aspect;
        if (height > area.height()) {
            height = area.height();
            width = height * aspect;
        }
        return QRectF(area.center().x() - width / 2, area.center().y() - height / 2, width, height);
    }

    QString formatNumber(double value)
    {
        if (!std::isfinite(value))
            return QStringLiteral("?");
        if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 1e15)
            return QString::number(static_cast<long long>(std::llround(value)));
        QString text = QString::number(value, 'f', 2);
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
        return text;
    }

    void layoutMeshCells(SchematicGeometry& geometry, SchematicGeometry::Chip& chip, int meshWidth, int meshHeight)
    {
        if (meshWidth <= 0 || meshHeight <= 0)
            return;
        const QRectF area = chip.coreArea;
        const int limitColumns
            = std::clamp(int(area.width() / SchematicGeometry::kMinCellPitchPx), 1, SchematicGeometry::kMaxMeshCells);
        const int limitRows
            = std::clamp(int(area.height() / SchematicGeometry::kMinCellPitchPx), 1, SchematicGeometry::kMaxMeshCells);
        const double factor = std::max({ 1.0, double(meshWidth) / limitColumns, double(meshHeight) / limitRows });
        // The epsilon keeps 100 / (200 / 48) = 23.999… from rounding up to 25 rows.
        const int columns = std::clamp(int(std::ceil(meshWidth / factor - 1e-9)), 1, limitColumns);
        const int rows = std::clamp(int(std::ceil(meshHeight / factor - 1e-9)), 1, limitRows);
        geometry.meshColumnsDrawn = columns;
        geometry.meshRowsDrawn = rows;
        geometry.meshScaled = columns < meshWidth || rows < meshHeight;
        geometry.coresPerCell = double(meshWidth) * meshHeight / (double(columns) * rows);

        const double pitch = std::min(area.width() / columns, area.height() / rows);
        const double cell = pitch * 0.7;
        const QPointF origin(area.center().x() - pitch * columns / 2, area.center().y() - pitch * rows / 2);
        for (int row = 0; row < rows; ++row) {
            for (int column = 0; column < columns; ++column) {
                const QPointF centre = origin + QPointF((column + 0.5) * pitch, (row + 0.5) * pitch);
                chip.cells.append(QRectF(centre.x() - cell / 2, centre.y() - cell / 2, cell, cell));
            }
        }
    }

    void layoutRing(SchematicGeometry& geometry, SchematicGeometry::Chip& chip, int cores)
    {
        const QRectF area = chip.coreArea;
        const double minSide = std::min(area.width(), area.height());
        chip.hubCenter = area.center();
        const int blocks = std::clamp(cores, 0, SchematicGeometry::kMaxRingBlocks);
        const double radius = 0.36 * minSide;
        const double block = blocks > 0 ? std::min(2 * std::numbers::pi * radius / blocks * 0.65, 0.16 * minSide) : 0;
        chip.hubRadius = std::max(0.0, std::min(0.2 * minSide, radius - block * 0.75 - 2));
        geometry.coresPerCell = blocks > 0 ? double(cores) / blocks : 1;
        for (int i = 0; i < blocks; ++i) {
            const double angle = 2 * std::numbers::pi * i / blocks - std::numbers::pi / 2;
            const QPointF centre = chip.hubCenter + QPointF(radius * std::cos(angle), radius * std::sin(angle));
            chip.cells.append(QRectF(centre.x() - block / 2, centre.y() - block / 2, block, block));
        }
    }

    // Position of a core inside the outline, as fractions (0..1) of its width and height.
    QPointF corePosition(const ChipSpec& spec, int coreId)
    {
        if (spec.interconnect.topology == Topology::Mesh2d && spec.interconnect.meshWidth > 0
            && spec.interconnect.meshHeight > 0) {
            const int width = spec.interconnect.meshWidth;
            return QPointF(
                (coreId % width + 0.5) / width, (double(coreId / width) + 0.5) / spec.interconnect.meshHeight);
        }
        const double angle = 2 * std::numbers::pi * coreId / std::max(1, spec.coresPerChip) - std::numbers::pi / 2;
        return QPointF(0.5 + 0.36 * std::cos(angle), 0.5 + 0.36 * std::sin(angle));
    }

    struct StackPlace {
        Side side = Side::North;
        double order = 0; // position along the side; boxes are placed in this order
    };

    std::vector<StackPlace> placeStacks(const ChipSpec& spec, int stacks, const QRectF& outline)
    {
        static constexpr Side kRoundRobin[] = { Side::West, Side::East, Side::North, Side::South };
        std::vector<StackPlace> places;
        for (int i = 0; i < stacks; ++i) {
            StackPlace place { Side::North, double(i) };
            switch (spec.hbm.controllerPlacement) {
            case ControllerPlacement::Spread:
                place.side = i % 2 == 0 ? Side::North : Side::South;
                break;
            case ControllerPlacement::WestEdge:
                place.side = Side::West;
                break;
            case ControllerPlacement::WestEastEdges:
                place.side = i % 2 == 0 ? Side::West : Side::East;
                break;
            case ControllerPlacement::AllEdges:
                place.side = kRoundRobin[i % 4];
                break;
            case ControllerPlacement::Explicit: {
                const auto& ids = spec.hbm.controllerCoreIds;
                const bool known = std::size_t(i) < ids.size() && ids[std::size_t(i)] >= 0
                    && ids[std::size_t(i)] < spec.coresPerChip;
                if (!known) {
                    place.side = i % 2 == 0 ? Side::North : Side::South;
                    break;
                }
                const QPointF at = corePosition(spec, ids[std::size_t(i)]);
                const double distances[] = { at.y() * outline.height(), (1 - at.y()) * outline.height(),
                    at.x() * outline.width(), (1 - at.x()) * outline.width() };
                const int nearest = int(std::min_element(std::begin(distances), std::end(distances)) - distances);
                place.side = static_cast<Side>(nearest);
                place.order = (place.side == Side::West || place.side == Side::East) ? at.y() : at.x();
                break;
            }
            }
            places.push_back(place);
        }
        return places;
    }

    void layoutHbm(SchematicGeometry::Chip& chip, const ChipSpec& spec, double margin)
    {
        const int stacks = std::clamp(spec.hbm.stacksPerChip, 0, SchematicGeometry::kMaxStacksPerChip);
        const QRectF outline = chip.outline;
        const std::vector<StackPlace> places = placeStacks(spec, stacks, outline);
        const double depth = margin * 0.7;
        const double gap = margin * 0.15;
        for (const Side side : { Side::North, Side::South, Side::West, Side::East }) {
            std::vector<double> orders;
            for (const StackPlace& place : places) {
                if (place.side == side)
                    orders.push_back(place.order);
            }
            if (orders.empty())
                continue;
            std::sort(orders.begin(), orders.end());
            const bool horizontal = side == Side::North || side == Side::South;
            const double edgeLength = horizontal ? outline.width() : outline.height();
            const double slot = edgeLength * kBandLength / double(orders.size());
            const double along = std::min(slot * 0.8, depth * 2.5);
            for (std::size_t k = 0; k < orders.size(); ++k) {
                const double centre = edgeLength * kBandStart + slot * (double(k) + 0.5);
                QRectF box;
                QLineF link;
                switch (side) {
                case Side::North:
                    box = QRectF(outline.left() + centre - along / 2, outline.top() - gap - depth, along, depth);
                    link = QLineF(box.center().x(), box.bottom(), box.center().x(), outline.top());
                    break;
                case Side::South:
                    box = QRectF(outline.left() + centre - along / 2, outline.bottom() + gap, along, depth);
                    link = QLineF(box.center().x(), box.top(), box.center().x(), outline.bottom());
                    break;
                case Side::West:
                    box = QRectF(outline.left() - gap - depth, outline.top() + centre - along / 2, depth, along);
                    link = QLineF(box.right(), box.center().y(), outline.left(), box.center().y());
                    break;
                case Side::East:
                    box = QRectF(outline.right() + gap, outline.top() + centre - along / 2, depth, along);
                    link = QLineF(box.left(), box.center().y(), outline.right(), box.center().y());
                    break;
                }
                chip.hbmBoxes.append(box);
                chip.hbmLinks.append(link);
            }
        }
    }

    QStringList makeCaptions(const SchematicGeometry& geometry, const ChipSpec& spec)
    {
        QString topology;
        if (spec.interconnect.topology == Topology::Mesh2d) {
            topology = QStringLiteral("%1 × %2 mesh per chip")
                           .arg(spec.interconnect.meshWidth)
                           .arg(spec.interconnect.meshHeight);
            if (geometry.meshScaled) {
                topology += QStringLiteral(" (drawn %1 × %2, one cell ≈ %3 routers)")
                                .arg(geometry.meshColumnsDrawn)
                                .arg(geometry.meshRowsDrawn)
                                .arg(formatNumber(std::round(geometry.coresPerCell * 10) / 10));
            }
        } else {
            topology = QStringLiteral("all-to-all exchange, %1 cores per chip").arg(spec.coresPerChip);
            if (geometry.coresPerCell > 1)
                topology
                    += QStringLiteral(" (one block ≈ %1 cores)").arg(formatNumber(std::round(geometry.coresPerCell)));
        }

        // double arithmetic: the spec may be invalid, and int64 products of huge values would overflow.
        const double cores = double(spec.chips) * spec.coresPerChip;
        const double sramMiB = cores * double(spec.sramBytesPerCore) / (1024.0 * 1024.0);
        const double hbmGBps = double(spec.chips) * spec.hbm.stacksPerChip * spec.hbm.bandwidthGBpsPerStack;
        const QString hbmBandwidth = std::abs(hbmGBps) >= 1000
            ? QStringLiteral("%1 TB/s").arg(formatNumber(std::round(hbmGBps / 10) / 100))
            : QStringLiteral("%1 GB/s").arg(formatNumber(std::round(hbmGBps * 10) / 10));
        const double hbmGiB = double(spec.chips) * spec.hbm.stacksPerChip * spec.hbm.capacityGiBPerStack;
        const QString totals = QStringLiteral("%1 cores · %2 MiB SRAM · HBM %3, %4 GiB")
                                   .arg(formatNumber(cores), formatNumber(std::round(sramMiB * 10) / 10), hbmBandwidth,
                                       formatNumber(std::round(hbmGiB * 10) / 10));

        QString chips = spec.chips == 1 ? QStringLiteral("1 chip")
                                        : QStringLiteral("%1 chips, inter-chip %2 GB/s per chip")
                                              .arg(spec.chips)
                                              .arg(formatNumber(spec.interChip.linkBandwidthGBps));
        if (geometry.hiddenChips > 0)
            chips += QStringLiteral(" (%1 of %2 drawn)").arg(geometry.chips.size()).arg(spec.chips);
        return { topology, totals, chips };
    }

} // namespace

SchematicGeometry SchematicGeometry::compute(const ChipSpec& spec, const QSizeF& size)
{
    SchematicGeometry geometry;
    geometry.topology = spec.interconnect.topology;
    const int chipCount = std::max(0, spec.chips);
    const int drawnChips = std::min(chipCount, kMaxDrawnChips);
    geometry.hiddenChips = chipCount - drawnChips;

    const double width = std::max(0.0, size.width() - 2 * kMarginPx);
    const double height = std::max(0.0, size.height() - 2 * kMarginPx - kCaptionHeightPx);
    geometry.captionArea = QRectF(kMarginPx, kMarginPx + height, width, kCaptionHeightPx);
    const QRectF drawing(kMarginPx, kMarginPx, width, height);

    if (drawnChips > 0 && width >= kMinDrawingPx && height >= kMinDrawingPx) {
        const double gap = std::clamp(0.08 * std::min(width, height), 12.0, 40.0);
        const Grid grid = chooseGrid(drawnChips, width, height, gap);
        const double slotWidth = (width - (grid.columns - 1) * gap) / grid.columns;
        const double slotHeight = (height - (grid.rows - 1) * gap) / grid.rows;
        const double hbmMargin = std::clamp(0.12 * std::min(slotWidth, slotHeight), 6.0, 36.0);

        double aspect = 1.0;
        const auto& net = spec.interconnect;
        if (net.topology == Topology::Mesh2d && net.meshWidth > 0 && net.meshHeight > 0)
            aspect = std::clamp(double(net.meshWidth) / net.meshHeight, 0.2, 5.0);

        // Shrink the slots to the chips they hold and centre the grid, so chips sit close together.
        const QSizeF outlineSize
            = fitAspect(QRectF(0, 0, slotWidth - 2 * hbmMargin, slotHeight - 2 * hbmMargin), aspect).size();
        const double tightWidth = outlineSize.width() + 2 * hbmMargin;
        const double tightHeight = outlineSize.height() + 2 * hbmMargin;
        const QPointF origin(drawing.center().x() - (grid.columns * tightWidth + (grid.columns - 1) * gap) / 2,
            drawing.center().y() - (grid.rows * tightHeight + (grid.rows - 1) * gap) / 2);

        for (int i = 0; i < drawnChips; ++i) {
            const int column = i % grid.columns;
            const int row = i / grid.columns;
            const QRectF slot(origin.x() + column * (tightWidth + gap), origin.y() + row * (tightHeight + gap),
                tightWidth, tightHeight);
            Chip chip;
            chip.outline = slot.adjusted(hbmMargin, hbmMargin, -hbmMargin, -hbmMargin);
            const double pad = std::max(2.0, 0.05 * std::min(chip.outline.width(), chip.outline.height()));
            chip.coreArea = chip.outline.adjusted(pad, pad, -pad, -pad);
            chip.hubCenter = chip.coreArea.center();
            if (net.topology == Topology::Mesh2d)
                layoutMeshCells(geometry, chip, net.meshWidth, net.meshHeight);
            else
                layoutRing(geometry, chip, spec.coresPerChip);
            layoutHbm(chip, spec, hbmMargin);
            geometry.chips.append(chip);
        }

        for (int i = 0; i < drawnChips; ++i) {
            const QRectF from = geometry.chips[i].outline;
            if ((i % grid.columns) + 1 < grid.columns && i + 1 < drawnChips) {
                const QRectF to = geometry.chips[i + 1].outline;
                const double y = from.top() + kLinkOffset * from.height();
                geometry.interChipLinks.append(QLineF(from.right(), y, to.left(), y));
            }
            if (i + grid.columns < drawnChips) {
                const QRectF to = geometry.chips[i + grid.columns].outline;
                const double x = from.left() + kLinkOffset * from.width();
                geometry.interChipLinks.append(QLineF(x, from.bottom(), x, to.top()));
            }
        }
    }

    geometry.captions = makeCaptions(geometry, spec);
    return geometry;
}

} // namespace elk::widgets
