// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// SchematicGeometry without painting: cell counts, scaling of large meshes, HBM boxes per chip,
// and that nothing lands where it should not.
#include <QTest>

#include "engine/chip/chip_spec.h"
#include "widgets/chip_editor/schematic_geometry.h"

using elk::chip::ChipSpec;
using elk::chip::ControllerPlacement;
using elk::chip::Topology;
using elk::widgets::SchematicGeometry;

Q_DECLARE_METATYPE(elk::chip::ChipSpec)

namespace {

// Only what the schematic reads; no engine code needed.
ChipSpec meshSpec(int chips, int width, int height, int stacks, ControllerPlacement placement)
{
    ChipSpec spec;
    spec.name = "test";
    spec.chips = chips;
    spec.coresPerChip = width * height;
    spec.sramBytesPerCore = 256 * 1024;
    spec.interconnect.topology = Topology::Mesh2d;
    spec.interconnect.meshWidth = width;
    spec.interconnect.meshHeight = height;
    spec.hbm.stacksPerChip = stacks;
    spec.hbm.bandwidthGBpsPerStack = 1000;
    spec.hbm.capacityGiBPerStack = 24;
    spec.hbm.controllerPlacement = placement;
    return spec;
}

ChipSpec allToAllSpec(int chips, int cores, int stacks)
{
    ChipSpec spec = meshSpec(chips, 0, 0, stacks, ControllerPlacement::Spread);
    spec.coresPerChip = cores;
    spec.sramBytesPerCore = 638976;
    spec.interconnect.topology = Topology::AllToAll;
    return spec;
}

bool contains(const QRectF& outer, const QRectF& inner)
{
    const QRectF grown = outer.adjusted(-1e-6, -1e-6, 1e-6, 1e-6); // exact edges count as inside
    return grown.contains(inner);
}

} // namespace

class TestChipSchematicGeometry : public QObject {
    Q_OBJECT
private slots:
    void layout_data()
    {
        QTest::addColumn<ChipSpec>("spec");
        QTest::addColumn<QSizeF>("size");
        QTest::addColumn<int>("chips"); // drawn
        QTest::addColumn<int>("cellsPerChip"); // drawn
        QTest::addColumn<bool>("scaled");
        QTest::addColumn<int>("interChipLinks");
        QTest::addColumn<QString>("topologyCaption"); // start of the first caption line

        QTest::addRow("mesh 4x4, one chip: 16 cells")
            << meshSpec(1, 4, 4, 1, ControllerPlacement::WestEdge) << QSizeF(600, 500) << 1 << 16 << false << 0
            << "4 × 4 mesh per chip";
        QTest::addRow("mesh 46x32 on a large canvas: every router drawn")
            << meshSpec(1, 46, 32, 4, ControllerPlacement::AllEdges) << QSizeF(1400, 1100) << 1 << 46 * 32 << false << 0
            << "46 × 32 mesh per chip";
        QTest::addRow("mesh 46x32, four chips in a small widget: scaled down")
            << meshSpec(4, 46, 32, 4, ControllerPlacement::WestEastEdges) << QSizeF(500, 360) << 4 << -1 << true << 4
            << "46 × 32 mesh per chip (drawn";
        QTest::addRow("mesh 200x100: capped at 48 columns")
            << meshSpec(1, 200, 100, 2, ControllerPlacement::WestEdge) << QSizeF(2000, 1500) << 1 << 48 * 24 << true
            << 0 << "200 × 100 mesh per chip (drawn 48 × 24";
        QTest::addRow("all-to-all 1472 cores, four chips: 24 blocks each")
            << allToAllSpec(4, 1472, 4) << QSizeF(1000, 700) << 4 << SchematicGeometry::kMaxRingBlocks << true << 4
            << "all-to-all exchange, 1472 cores per chip (one block ≈ 61 cores)";
        QTest::addRow("all-to-all 8 cores: one block per core") << allToAllSpec(
            1, 8, 2) << QSizeF(400, 400) << 1 << 8 << false << 0 << "all-to-all exchange, 8 cores per chip";
        QTest::addRow("two chips side by side: one link")
            << meshSpec(2, 8, 8, 6, ControllerPlacement::WestEastEdges) << QSizeF(900, 400) << 2 << 64 << false << 1
            << "8 × 8 mesh per chip";
        QTest::addRow("40 chips: 16 drawn") << allToAllSpec(40, 16, 1) << QSizeF(1200, 900)
                                            << SchematicGeometry::kMaxDrawnChips << 16 << false << 24 << "all-to-all";
        QTest::addRow("zero cores: chip drawn without cells")
            << allToAllSpec(1, 0, 1) << QSizeF(400, 400) << 1 << 0 << false << 0 << "all-to-all";
        QTest::addRow("mesh without size: no cells") << meshSpec(1, 0, 0, 1, ControllerPlacement::WestEdge)
                                                     << QSizeF(400, 400) << 1 << 0 << false << 0 << "0 × 0 mesh";
        QTest::addRow("zero chips: nothing drawn")
            << allToAllSpec(0, 16, 1) << QSizeF(400, 400) << 0 << 0 << false << 0 << "all-to-all";
        QTest::addRow("negative chips: nothing drawn")
            << allToAllSpec(-3, 16, 1) << QSizeF(400, 400) << 0 << 0 << false << 0 << "all-to-all";
        QTest::addRow("tiny widget: captions only") << meshSpec(1, 4, 4, 1, ControllerPlacement::WestEdge)
                                                    << QSizeF(30, 30) << 0 << 0 << false << 0 << "4 × 4 mesh";
    }
    void layout()
    {
        QFETCH(ChipSpec, spec);
        QFETCH(QSizeF, size);
        QFETCH(int, chips);
        QFETCH(int, cellsPerChip);
        QFETCH(bool, scaled);
        QFETCH(int, interChipLinks);
        QFETCH(QString, topologyCaption);

        const SchematicGeometry geometry = SchematicGeometry::compute(spec, size);

        QCOMPARE(geometry.chips.size(), chips);
        QCOMPARE(geometry.interChipLinks.size(), interChipLinks);
        QCOMPARE(geometry.captions.size(), 3);
        QVERIFY2(geometry.captions[0].startsWith(topologyCaption), qPrintable(geometry.captions[0]));
        const QRectF canvas(QPointF(0, 0), size);
        QVERIFY(contains(canvas, geometry.captionArea) || size.height() < SchematicGeometry::kCaptionHeightPx);
        for (const SchematicGeometry::Chip& chip : geometry.chips) {
            if (cellsPerChip >= 0)
                QCOMPARE(chip.cells.size(), cellsPerChip);
            QVERIFY(contains(canvas, chip.outline));
            QVERIFY(!chip.outline.intersects(geometry.captionArea));
            QVERIFY(contains(chip.outline, chip.coreArea));
            for (const QRectF& cell : chip.cells)
                QVERIFY2(contains(chip.coreArea, cell), "cell outside the core area");
        }
        if (spec.interconnect.topology == Topology::Mesh2d && !geometry.chips.isEmpty() && cellsPerChip != 0) {
            QCOMPARE(geometry.meshScaled, scaled);
            QVERIFY(geometry.meshColumnsDrawn <= SchematicGeometry::kMaxMeshCells);
            QVERIFY(geometry.meshRowsDrawn <= SchematicGeometry::kMaxMeshCells);
            QCOMPARE(geometry.chips[0].cells.size(), geometry.meshColumnsDrawn * geometry.meshRowsDrawn);
            if (!scaled) {
                QCOMPARE(geometry.meshColumnsDrawn, spec.interconnect.meshWidth);
                QCOMPARE(geometry.meshRowsDrawn, spec.interconnect.meshHeight);
            }
        }
        if (spec.interconnect.topology == Topology::AllToAll && !geometry.chips.isEmpty())
            QCOMPARE(geometry.coresPerCell > 1, scaled);
    }

    void cellsDoNotOverlap_data()
    {
        QTest::addColumn<ChipSpec>("spec");
        QTest::addRow("mesh 8x8") << meshSpec(1, 8, 8, 2, ControllerPlacement::WestEdge);
        QTest::addRow("mesh 46x32 scaled") << meshSpec(2, 46, 32, 2, ControllerPlacement::WestEdge);
        QTest::addRow("all-to-all 1472") << allToAllSpec(1, 1472, 4);
        QTest::addRow("all-to-all 3") << allToAllSpec(1, 3, 4);
    }
    void cellsDoNotOverlap()
    {
        QFETCH(ChipSpec, spec);
        const SchematicGeometry geometry = SchematicGeometry::compute(spec, QSizeF(800, 600));
        QVERIFY(!geometry.chips.isEmpty());
        const auto& cells = geometry.chips[0].cells;
        QVERIFY(!cells.isEmpty());
        for (qsizetype i = 0; i < cells.size(); ++i) {
            QVERIFY(cells[i].width() > 0);
            for (qsizetype j = i + 1; j < cells.size(); ++j)
                QVERIFY2(!cells[i].intersects(cells[j]), qPrintable(QStringLiteral("cells %1 and %2").arg(i).arg(j)));
        }
        if (spec.interconnect.topology == Topology::AllToAll) {
            const auto& chip = geometry.chips[0];
            QVERIFY(chip.hubRadius > 0);
            for (const QRectF& cell : cells) { // blocks sit on the ring, outside the hub
                const QPointF d = cell.center() - chip.hubCenter;
                QVERIFY(std::hypot(d.x(), d.y()) - cell.width() / 2 > chip.hubRadius);
            }
        }
    }

    void hbmBoxes_data()
    {
        QTest::addColumn<ChipSpec>("spec");
        QTest::addColumn<int>("boxesPerChip");
        QTest::addRow("pod4: 4 chips x 4 stacks spread") << allToAllSpec(4, 1472, 4) << 4;
        QTest::addRow("west edge: 3 stacks") << meshSpec(1, 4, 4, 3, ControllerPlacement::WestEdge) << 3;
        QTest::addRow("west+east: 6 stacks, 2 chips") << meshSpec(2, 8, 8, 6, ControllerPlacement::WestEastEdges) << 6;
        QTest::addRow("all edges: 5 stacks") << meshSpec(1, 26, 20, 5, ControllerPlacement::AllEdges) << 5;
        ChipSpec explicitIds = meshSpec(1, 8, 8, 4, ControllerPlacement::Explicit);
        explicitIds.hbm.controllerCoreIds = { 0, 7, 56, 63 }; // the four corners
        QTest::addRow("explicit corner ids") << explicitIds << 4;
        ChipSpec sameCore = meshSpec(1, 8, 8, 3, ControllerPlacement::Explicit);
        sameCore.hbm.controllerCoreIds = { 27, 27, 27 };
        QTest::addRow("explicit, all on one core: still apart") << sameCore << 3;
        ChipSpec badIds = meshSpec(1, 4, 4, 2, ControllerPlacement::Explicit);
        badIds.hbm.controllerCoreIds = { 99 };
        QTest::addRow("explicit, ids out of range or missing") << badIds << 2;
        QTest::addRow("no HBM") << allToAllSpec(2, 16, 0) << 0;
        QTest::addRow("100 stacks: capped") << allToAllSpec(1, 16, 100) << SchematicGeometry::kMaxStacksPerChip;
    }
    void hbmBoxes()
    {
        QFETCH(ChipSpec, spec);
        QFETCH(int, boxesPerChip);
        const SchematicGeometry geometry = SchematicGeometry::compute(spec, QSizeF(1000, 700));
        QCOMPARE(geometry.chips.size(), spec.chips);
        int total = 0;
        for (const SchematicGeometry::Chip& chip : geometry.chips) {
            QCOMPARE(chip.hbmBoxes.size(), boxesPerChip);
            QCOMPARE(chip.hbmLinks.size(), boxesPerChip);
            total += int(chip.hbmBoxes.size());
            for (qsizetype i = 0; i < chip.hbmBoxes.size(); ++i) {
                const QRectF& box = chip.hbmBoxes[i];
                QVERIFY(box.width() > 0 && box.height() > 0);
                QVERIFY2(!box.intersects(chip.outline), "HBM box overlaps its chip");
                for (const SchematicGeometry::Chip& other : geometry.chips)
                    QVERIFY2(!box.intersects(other.outline), "HBM box overlaps a chip");
                for (qsizetype j = i + 1; j < chip.hbmBoxes.size(); ++j)
                    QVERIFY2(!box.intersects(chip.hbmBoxes[j]), "HBM boxes overlap");
                // The link joins the box to the chip's edge.
                const QLineF link = chip.hbmLinks[i];
                QVERIFY(box.adjusted(-0.5, -0.5, 0.5, 0.5).contains(link.p1()));
                QVERIFY(chip.outline.adjusted(-0.5, -0.5, 0.5, 0.5).contains(link.p2()));
            }
            for (const QLineF& link : geometry.interChipLinks) { // inter-chip links pass beside the boxes
                for (const QRectF& box : chip.hbmBoxes) {
                    QVERIFY(!box.contains(link.p1()) && !box.contains(link.p2()) && !box.contains(link.center()));
                }
            }
        }
        QCOMPARE(total, spec.chips * boxesPerChip);
    }

    void explicitPlacementUsesNearestEdge()
    {
        ChipSpec spec = meshSpec(1, 8, 8, 2, ControllerPlacement::Explicit);
        spec.hbm.controllerCoreIds = { 8 * 4, 8 * 4 + 7 }; // west end and east end of row 4
        const SchematicGeometry geometry = SchematicGeometry::compute(spec, QSizeF(800, 800));
        QCOMPARE(geometry.chips.size(), 1);
        const auto& chip = geometry.chips[0];
        QCOMPARE(chip.hbmBoxes.size(), 2);
        const bool westThenEast
            = chip.hbmBoxes[0].right() <= chip.outline.left() && chip.hbmBoxes[1].left() >= chip.outline.right();
        const bool eastThenWest
            = chip.hbmBoxes[1].right() <= chip.outline.left() && chip.hbmBoxes[0].left() >= chip.outline.right();
        QVERIFY(westThenEast || eastThenWest);
    }

    void captionsCarryTotals_data()
    {
        QTest::addColumn<ChipSpec>("spec");
        QTest::addColumn<QString>("totals");
        QTest::addColumn<QString>("chipsLine");
        QTest::addRow("IPU-POD4-like") << allToAllSpec(4, 1472, 4)
                                       << "5888 cores · 3588 MiB SRAM · HBM 16 TB/s, 384 GiB"
                                       << "4 chips, inter-chip 0 GB/s per chip";
        QTest::addRow("teaching mesh") << meshSpec(1, 4, 4, 1, ControllerPlacement::WestEdge)
                                       << "16 cores · 4 MiB SRAM · HBM 1 TB/s, 24 GiB"
                                       << "1 chip";
        ChipSpec small = meshSpec(1, 4, 4, 3, ControllerPlacement::WestEdge);
        small.hbm.bandwidthGBpsPerStack = 64;
        QTest::addRow("under 1 TB/s: GB/s") << small << "16 cores · 4 MiB SRAM · HBM 192 GB/s, 72 GiB"
                                            << "1 chip";
        QTest::addRow("40 chips say how many are drawn")
            << allToAllSpec(40, 16, 1) << "640 cores · 390 MiB SRAM · HBM 40 TB/s, 960 GiB"
            << "40 chips, inter-chip 0 GB/s per chip (16 of 40 drawn)";
    }
    void captionsCarryTotals()
    {
        QFETCH(ChipSpec, spec);
        QFETCH(QString, totals);
        QFETCH(QString, chipsLine);
        const SchematicGeometry geometry = SchematicGeometry::compute(spec, QSizeF(800, 600));
        QCOMPARE(geometry.captions.value(1), totals);
        QCOMPARE(geometry.captions.value(2), chipsLine);
    }
};

QTEST_GUILESS_MAIN(TestChipSchematicGeometry)
#include "tst_chip_schematic_geometry.moc"
