// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/chip_editor/chip_schematic.h"

#include <algorithm>

#include <QPainter>
#include <QPainterPath>

#include "widgets/chip_editor/schematic_geometry.h"

namespace elk::widgets {

namespace {

    const QColor kChipFill(0xe8, 0xee, 0xf6);
    const QColor kChipBorder(0x4a, 0x5d, 0x7e);
    const QColor kCellFill(0x3f, 0x7c, 0xc4);
    const QColor kMeshLink(0x9a, 0xb4, 0xd6);
    const QColor kHubFill(0xf3, 0xc6, 0x4b);
    const QColor kHbmFill(0xd9, 0x6c, 0x3d);
    const QColor kInterChip(0x6b, 0x3f, 0xa0);

    void paintMesh(QPainter& painter, const SchematicGeometry& geometry, const SchematicGeometry::Chip& chip)
    {
        const int columns = geometry.meshColumnsDrawn;
        const int rows = geometry.meshRowsDrawn;
        if (chip.cells.size() != qsizetype(columns) * rows || chip.cells.isEmpty())
            return;
        const double pitch
            = columns > 1 ? chip.cells[1].center().x() - chip.cells[0].center().x() : chip.cells[0].width() / 0.7;
        if (pitch >= 6) { // links only where they stay visible between cells
            painter.setPen(QPen(kMeshLink, std::max(1.0, pitch * 0.12)));
            for (int row = 0; row < rows; ++row)
                painter.drawLine(chip.cells[row * columns].center(), chip.cells[row * columns + columns - 1].center());
            for (int column = 0; column < columns; ++column)
                painter.drawLine(chip.cells[column].center(), chip.cells[(rows - 1) * columns + column].center());
        }
        painter.setPen(Qt::NoPen);
        painter.setBrush(kCellFill);
        for (const QRectF& cell : chip.cells)
            painter.drawRect(cell);
    }

    void paintRing(QPainter& painter, const SchematicGeometry::Chip& chip)
    {
        painter.setPen(QPen(kMeshLink, 1.2));
        for (const QRectF& block : chip.cells)
            painter.drawLine(block.center(), chip.hubCenter);
        painter.setPen(Qt::NoPen);
        painter.setBrush(kCellFill);
        for (const QRectF& block : chip.cells)
            painter.drawRoundedRect(block, 2, 2);
        if (chip.hubRadius <= 0)
            return;
        painter.setPen(QPen(kChipBorder, 1));
        painter.setBrush(kHubFill);
        painter.drawEllipse(chip.hubCenter, chip.hubRadius, chip.hubRadius);
        const QRectF hub(chip.hubCenter.x() - chip.hubRadius, chip.hubCenter.y() - chip.hubRadius, 2 * chip.hubRadius,
            2 * chip.hubRadius);
        if (painter.fontMetrics().horizontalAdvance(ChipSchematic::tr("exchange")) < hub.width() * 0.95) {
            painter.setPen(Qt::black);
            painter.drawText(hub, Qt::AlignCenter, ChipSchematic::tr("exchange"));
        }
    }

    void paintHbm(QPainter& painter, const SchematicGeometry::Chip& chip)
    {
        painter.setPen(QPen(kHbmFill.darker(130), 2));
        for (const QLineF& link : chip.hbmLinks)
            painter.drawLine(link);
        QFont small = painter.font();
        small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.75));
        painter.setFont(small);
        for (const QRectF& box : chip.hbmBoxes) {
            painter.setPen(QPen(kHbmFill.darker(140), 1));
            painter.setBrush(kHbmFill);
            painter.drawRoundedRect(box, 2, 2);
            const QString label = ChipSchematic::tr("HBM");
            const double textWidth = painter.fontMetrics().horizontalAdvance(label);
            const double textHeight = painter.fontMetrics().height();
            painter.setPen(Qt::white);
            if (textWidth < box.width() - 2 && textHeight < box.height()) {
                painter.drawText(box, Qt::AlignCenter, label);
            } else if (textWidth < box.height() - 2 && textHeight < box.width()) { // upright box: write upwards
                painter.save();
                painter.translate(box.center());
                painter.rotate(-90);
                painter.drawText(
                    QRectF(-box.height() / 2, -box.width() / 2, box.height(), box.width()), Qt::AlignCenter, label);
                painter.restore();
            }
        }
    }

} // namespace

ChipSchematic::ChipSchematic(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("schematic"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setToolTip(tr("Schematic of the chip as specified: cores (mesh routers or all-to-all exchange), HBM stacks at "
                  "their controllers, and inter-chip links. Large meshes are drawn scaled down."));
}

void ChipSchematic::setSpec(const elk::chip::ChipSpec& spec)
{
    if (spec == m_spec)
        return;
    m_spec = spec;
    update();
}

QSize ChipSchematic::sizeHint() const
{
    return { 520, 420 };
}

QSize ChipSchematic::minimumSizeHint() const
{
    return { 240, 200 };
}

void ChipSchematic::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());

    const SchematicGeometry geometry = SchematicGeometry::compute(m_spec, QSizeF(size()));

    painter.setPen(QPen(kInterChip, 3));
    for (const QLineF& link : geometry.interChipLinks)
        painter.drawLine(link);

    for (const SchematicGeometry::Chip& chip : geometry.chips) {
        painter.setPen(QPen(kChipBorder, 1.5));
        painter.setBrush(kChipFill);
        painter.drawRoundedRect(chip.outline, 4, 4);
        if (geometry.topology == elk::chip::Topology::Mesh2d)
            paintMesh(painter, geometry, chip);
        else
            paintRing(painter, chip);
        painter.save();
        paintHbm(painter, chip);
        painter.restore();
    }

    painter.setPen(palette().color(QPalette::Text));
    const QRectF captions = geometry.captionArea;
    const double lineHeight = captions.height() / std::max<qsizetype>(1, geometry.captions.size());
    for (qsizetype i = 0; i < geometry.captions.size(); ++i) {
        const QRectF line(captions.left(), captions.top() + i * lineHeight, captions.width(), lineHeight);
        const QString text = painter.fontMetrics().elidedText(geometry.captions[i], Qt::ElideRight, int(line.width()));
        painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, text);
    }
}

} // namespace elk::widgets
