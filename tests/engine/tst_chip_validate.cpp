// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "engine/chip/chip_spec.h"
#include "engine/chip/chip_validate.h"
#include "engine/chip/presets.h"

using namespace elk::chip;

using Mutation = std::function<void(ChipSpec&)>;
Q_DECLARE_METATYPE(Mutation)

namespace {

// Two valid bases, built here rather than read from presets so these tests do not move when a preset does.
ChipSpec ipuBase() // ipu-mk2 cost model, 4 chips, all-to-all, spread HBM
{
    ChipSpec spec;
    spec.name = "ipu-base";
    spec.description = "four IPU MK2 chips";
    spec.source = "test";
    spec.chips = 4;
    spec.coresPerChip = 1472;
    spec.sramBytesPerCore = 638976;
    spec.clockHz = 1.325e9;
    spec.tileCost.model = TileCostModelKind::IpuMk2;
    spec.interconnect = { Topology::AllToAll, 0, 0, 5.5, 0, 118 };
    spec.interChip = { 320, 2650, 1.25 };
    spec.hbm = { 4, 1000, 24, 100, ControllerPlacement::Spread, {} };
    return spec;
}

ChipSpec meshBase() // roofline cost model, 1 chip, 4 x 4 mesh, one HBM stack on the west edge
{
    ChipSpec spec;
    spec.name = "mesh-base";
    spec.source = "test";
    spec.chips = 1;
    spec.coresPerChip = 16;
    spec.sramBytesPerCore = 262144;
    spec.clockHz = 1e9;
    spec.tileCost.model = TileCostModelKind::Roofline;
    spec.tileCost.roofline = { 64, 128, 256, 64, 0 };
    spec.interconnect = { Topology::Mesh2d, 4, 4, 16, 1, 10 };
    spec.interChip = { 0, 0, 1.0 };
    spec.hbm = { 1, 64, 1, 100, ControllerPlacement::WestEdge, {} };
    return spec;
}

QByteArray listErrors(const std::vector<FieldError>& errors)
{
    QByteArray text;
    for (const FieldError& error : errors)
        text += "\n  " + QByteArray::fromStdString(error.field) + ": " + QByteArray::fromStdString(error.message);
    return text.isEmpty() ? QByteArray("(no errors)") : text;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

} // namespace

class TestChipValidate : public QObject {
    Q_OBJECT

private slots:
    void basesAreValid()
    {
        QVERIFY2(validateChipSpec(ipuBase()).empty(), listErrors(validateChipSpec(ipuBase())).constData());
        QVERIFY2(validateChipSpec(meshBase()).empty(), listErrors(validateChipSpec(meshBase())).constData());
    }

    void reportsBrokenField_data()
    {
        QTest::addColumn<bool>("mesh"); // base: meshBase() when true, ipuBase() otherwise
        QTest::addColumn<Mutation>("mutation");
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<QByteArrayList>("mustContain");

        const auto row = [](const char* what, bool mesh, Mutation mutation, const char* field, QByteArrayList texts) {
            QTest::addRow("%s", what) << mesh << std::move(mutation) << QByteArray(field) << std::move(texts);
        };

        // Identity.
        row("name empty", false, [](ChipSpec& s) { s.name.clear(); }, "/name", { "must not be empty", "a-z, 0-9" });
        row("name upper case", false, [](ChipSpec& s) { s.name = "IPU"; }, "/name", { "\"IPU\" contains 'I'", "a-z" });
        row("name with a space", false, [](ChipSpec& s) { s.name = "ipu mk2"; }, "/name", { "contains ' '" });
        row("name with a control byte", false, [](ChipSpec& s) { s.name = "ipu\x01"; }, "/name", { "byte 0x01" });
        row("description not UTF-8", false, [](ChipSpec& s) { s.description = "bad \xff byte"; }, "/description",
            { "not valid UTF-8" });
        row("source empty", false, [](ChipSpec& s) { s.source.clear(); }, "/source", { "must not be empty" });
        row("source blank", false, [](ChipSpec& s) { s.source = " \t\n"; }, "/source", { "must not be empty" });

        // Sizes.
        row("zero chips", false, [](ChipSpec& s) { s.chips = 0; }, "/chips", { "0 chips", "allowed: 1 to 1024" });
        row("too many chips", false, [](ChipSpec& s) { s.chips = 1025; }, "/chips", { "1025 chips", "1 to 1024" });
        row("zero cores", false, [](ChipSpec& s) { s.coresPerChip = 0; }, "/coresPerChip",
            { "0 cores", "allowed: 1 to 1000000" });
        row("too many cores", false, [](ChipSpec& s) { s.coresPerChip = 1000001; }, "/coresPerChip",
            { "1000001 cores", "1 to 1000000" });
        row("SRAM smaller than an ipu-mk2 tile", false, [](ChipSpec& s) { s.sramBytesPerCore = 1024; },
            "/sramBytesPerCore",
            { "1024 B is smaller than one tile (3072 B) of the ipu-mk2 cost model",
                "allowed: 3072 B to 1073741824 B" });
        row("SRAM smaller than a roofline tile", true, [](ChipSpec& s) { s.sramBytesPerCore = 1535; },
            "/sramBytesPerCore", { "1535 B is smaller than one tile (1536 B) of the roofline cost model" });
        row("SRAM negative", false, [](ChipSpec& s) { s.sramBytesPerCore = -1; }, "/sramBytesPerCore",
            { "-1 B is smaller" });
        row("SRAM above 1 GiB", false, [](ChipSpec& s) { s.sramBytesPerCore = (std::int64_t(1) << 30) + 1; },
            "/sramBytesPerCore", { "1073741825 B is larger than 1 GiB" });
        row("clock zero", false, [](ChipSpec& s) { s.clockHz = 0; }, "/clockHz",
            { "0 Hz", "allowed: 1000000 to 10000000000 Hz" });
        row("clock too fast", false, [](ChipSpec& s) { s.clockHz = 2e10; }, "/clockHz", { "20000000000 Hz" });
        row("clock NaN", false, [](ChipSpec& s) { s.clockHz = kNaN; }, "/clockHz", { "NaN Hz", "out of range" });
        row("clock infinite", false, [](ChipSpec& s) { s.clockHz = kInf; }, "/clockHz", { "inf Hz" });
        row("SRAM port negative", false, [](ChipSpec& s) { s.sramBandwidthBytesPerCyclePerCore = -1; },
            "/sramBandwidthBytesPerCyclePerCore",
            { "-1 B/cycle is out of range", "allowed: 0 (not modelled) or from 4.150943396226415 B/cycle" });
        // All-to-all: the port serves the core's own link; a mesh link may be faster (it carries others' traffic).
        row("SRAM port slower than the link", false, [](ChipSpec& s) { s.sramBandwidthBytesPerCyclePerCore = 4; },
            "/sramBandwidthBytesPerCyclePerCore",
            { "4 B/cycle", "from 4.150943396226415 B/cycle", "up to 100000000 B/cycle" });
        row("SRAM port NaN", false, [](ChipSpec& s) { s.sramBandwidthBytesPerCyclePerCore = kNaN; },
            "/sramBandwidthBytesPerCyclePerCore", { "not a finite number" });

        // Tile cost.
        row("roofline fp32 peak zero", true, [](ChipSpec& s) { s.tileCost.roofline.peakFlopPerCycleFp32 = 0; },
            "/tileCost/roofline/peakFlopPerCycleFp32", { "0 FLOP/cycle", "more than 0 up to 100000000 FLOP/cycle" });
        row("roofline fp16 peak negative", true, [](ChipSpec& s) { s.tileCost.roofline.peakFlopPerCycleFp16 = -1; },
            "/tileCost/roofline/peakFlopPerCycleFp16", { "-1 FLOP/cycle" });
        row("roofline fp8 peak negative", true, [](ChipSpec& s) { s.tileCost.roofline.peakFlopPerCycleFp8 = -0.5; },
            "/tileCost/roofline/peakFlopPerCycleFp8", { "-0.5 FLOP/cycle", "0 (no fp8 units)" });
        row("roofline SRAM bandwidth zero", true, [](ChipSpec& s) { s.tileCost.roofline.sramBytesPerCycle = 0; },
            "/tileCost/roofline/sramBytesPerCycle", { "0 B/cycle", "more than 0" });
        row("roofline SRAM bandwidth NaN", true, [](ChipSpec& s) { s.tileCost.roofline.sramBytesPerCycle = kNaN; },
            "/tileCost/roofline/sramBytesPerCycle", { "NaN B/cycle" });
        row("roofline overhead negative", true, [](ChipSpec& s) { s.tileCost.roofline.opOverheadCycles = -5; },
            "/tileCost/roofline/opOverheadCycles", { "-5 cycles", "0 to 1000000000 cycles" });
        row("inactive roofline peak NaN", false, [](ChipSpec& s) { s.tileCost.roofline.peakFlopPerCycleFp8 = kNaN; },
            "/tileCost/roofline/peakFlopPerCycleFp8", { "not a finite number" });
        row("fitted without a model path", false,
            [](ChipSpec& s) {
                s.tileCost.model = TileCostModelKind::Fitted;
                s.tileCost.fitted.modelPath = " ";
            },
            "/tileCost/fitted/modelPath", { "must name the fitted model" });

        // Interconnect.
        row("mesh width zero", true, [](ChipSpec& s) { s.interconnect.meshWidth = 0; }, "/interconnect/meshWidth",
            { "0 routers", "1 to 1000000" });
        row("mesh height negative", true, [](ChipSpec& s) { s.interconnect.meshHeight = -2; },
            "/interconnect/meshHeight", { "-2 routers" });
        row("mesh product differs from cores", true, [](ChipSpec& s) { s.interconnect.meshWidth = 8; },
            "/interconnect/meshWidth", { "8 x 4 = 32 routers", "coresPerChip is 16" });
        row("IPU cores on a 46 x 30 mesh", false,
            [](ChipSpec& s) {
                s.interconnect.topology = Topology::Mesh2d;
                s.interconnect.meshWidth = 46;
                s.interconnect.meshHeight = 30;
            },
            "/interconnect/meshWidth", { "46 x 30 = 1380 routers", "coresPerChip is 1472" });
        row("link bandwidth zero", false, [](ChipSpec& s) { s.interconnect.linkBandwidthGBpsPerCore = 0; },
            "/interconnect/linkBandwidthGBpsPerCore", { "0 GB/s", "more than 0 up to 10000 GB/s" });
        row("link bandwidth too high", false, [](ChipSpec& s) { s.interconnect.linkBandwidthGBpsPerCore = 10000.5; },
            "/interconnect/linkBandwidthGBpsPerCore", { "10000.5 GB/s" });
        row("hop latency negative", true, [](ChipSpec& s) { s.interconnect.hopLatencyCycles = -1; },
            "/interconnect/hopLatencyCycles", { "-1 cycles", "0 to 1000000 cycles" });
        row("hop latency too long", true, [](ChipSpec& s) { s.interconnect.hopLatencyCycles = 1000001; },
            "/interconnect/hopLatencyCycles", { "1000001 cycles" });
        row("sync cost negative", false, [](ChipSpec& s) { s.interconnect.syncCostCycles = -118; },
            "/interconnect/syncCostCycles", { "-118 cycles", "0 to 1000000000 cycles" });

        // Inter-chip.
        row("no inter-chip bandwidth with 4 chips", false, [](ChipSpec& s) { s.interChip.linkBandwidthGBps = 0; },
            "/interChip/linkBandwidthGBps", { "0 GB/s", "with 4 chips", "more than 0" });
        row("negative inter-chip bandwidth on one chip", true, [](ChipSpec& s) { s.interChip.linkBandwidthGBps = -1; },
            "/interChip/linkBandwidthGBps", { "-1 GB/s", "0 to 1000000 GB/s" });
        row("inter-chip latency negative", false, [](ChipSpec& s) { s.interChip.latencyCycles = -1; },
            "/interChip/latencyCycles", { "-1 cycles" });
        row("overhead factor below 1", false, [](ChipSpec& s) { s.interChip.overheadFactor = 0.5; },
            "/interChip/overheadFactor", { "0.5 is out of range", "allowed: 1 to 100" });
        row("overhead factor above 100", false, [](ChipSpec& s) { s.interChip.overheadFactor = 101; },
            "/interChip/overheadFactor", { "101 is out of range" });

        // HBM.
        row("negative stacks", false, [](ChipSpec& s) { s.hbm.stacksPerChip = -1; }, "/hbm/stacksPerChip",
            { "-1 stacks", "0 to 64 stacks" });
        row("too many stacks", false, [](ChipSpec& s) { s.hbm.stacksPerChip = 65; }, "/hbm/stacksPerChip",
            { "65 stacks" });
        row("stacks without bandwidth", false, [](ChipSpec& s) { s.hbm.bandwidthGBpsPerStack = 0; },
            "/hbm/bandwidthGBpsPerStack", { "0 GB/s", "with 4 stacks", "more than 0 up to 100000 GB/s" });
        row("stacks without capacity", false, [](ChipSpec& s) { s.hbm.capacityGiBPerStack = 0; },
            "/hbm/capacityGiBPerStack", { "0 GiB", "with 4 stacks", "more than 0 up to 1024 GiB" });
        row("no stacks, negative bandwidth", false,
            [](ChipSpec& s) {
                s.hbm.stacksPerChip = 0;
                s.hbm.bandwidthGBpsPerStack = -1;
            },
            "/hbm/bandwidthGBpsPerStack", { "-1 GB/s", "0 to 100000 GB/s" });
        row("HBM latency negative", false, [](ChipSpec& s) { s.hbm.latencyNs = -1; }, "/hbm/latencyNs",
            { "-1 ns", "0 to 1000000 ns" });
        row("west edge on all-to-all", false,
            [](ChipSpec& s) { s.hbm.controllerPlacement = ControllerPlacement::WestEdge; }, "/hbm/controllerPlacement",
            { "\"west-edge\" needs topology \"mesh2d\"", "topology is \"all-to-all\"", "\"spread\", \"explicit\"" });
        row("all edges on all-to-all", false,
            [](ChipSpec& s) { s.hbm.controllerPlacement = ControllerPlacement::AllEdges; }, "/hbm/controllerPlacement",
            { "\"all-edges\" needs topology \"mesh2d\"" });
        row("explicit with too few ids", false,
            [](ChipSpec& s) {
                s.hbm.controllerPlacement = ControllerPlacement::Explicit;
                s.hbm.controllerCoreIds = { 0, 1, 2 };
            },
            "/hbm/controllerCoreIds", { "3 core ids given", "exactly one per stack (4)" });
        row("explicit id out of range", false,
            [](ChipSpec& s) {
                s.hbm.controllerPlacement = ControllerPlacement::Explicit;
                s.hbm.controllerCoreIds = { 0, 1, 2, 1472 };
            },
            "/hbm/controllerCoreIds/3", { "core id 1472 is out of range", "0 to 1471" });
        row("explicit id negative", true,
            [](ChipSpec& s) {
                s.hbm.controllerPlacement = ControllerPlacement::Explicit;
                s.hbm.controllerCoreIds = { -1 };
            },
            "/hbm/controllerCoreIds/0", { "core id -1", "0 to 15" });
        row("explicit duplicate id", false,
            [](ChipSpec& s) {
                s.hbm.controllerPlacement = ControllerPlacement::Explicit;
                s.hbm.controllerCoreIds = { 0, 5, 5, 7 };
            },
            "/hbm/controllerCoreIds/2", { "core id 5 is listed twice" });
        row("ids without explicit placement", false,
            [](ChipSpec& s) {
                s.hbm.controllerCoreIds = { 1, 2, 3, 4 };
            },
            "/hbm/controllerCoreIds", { "4 core ids given", "\"spread\"", "only with \"explicit\"" });
    }

    void reportsBrokenField()
    {
        QFETCH(bool, mesh);
        QFETCH(Mutation, mutation);
        QFETCH(QByteArray, field);
        QFETCH(QByteArrayList, mustContain);

        ChipSpec spec = mesh ? meshBase() : ipuBase();
        mutation(spec);
        const std::vector<FieldError> errors = validateChipSpec(spec);
        QVERIFY2(errors.size() == 1, QByteArray("expected exactly one error, got" + listErrors(errors)).constData());
        QCOMPARE(QByteArray::fromStdString(errors.front().field), field);
        const QByteArray message = QByteArray::fromStdString(errors.front().message);
        for (const QByteArray& text : mustContain)
            QVERIFY2(message.contains(text), QByteArray("\"" + text + "\" not in: " + message).constData());
    }

    void acceptsBoundaryValues_data()
    {
        QTest::addColumn<bool>("mesh");
        QTest::addColumn<Mutation>("mutation");
        QTest::addRow("one chip without inter-chip links") << false << Mutation([](ChipSpec& s) {
            s.chips = 1;
            s.interChip.linkBandwidthGBps = 0;
        });
        QTest::addRow("1024 chips") << false << Mutation([](ChipSpec& s) { s.chips = 1024; });
        QTest::addRow("SRAM exactly one ipu-mk2 tile")
            << false << Mutation([](ChipSpec& s) { s.sramBytesPerCore = 3072; });
        QTest::addRow("SRAM exactly 1 GiB") << false << Mutation([](ChipSpec& s) { s.sramBytesPerCore = 1 << 30; });
        QTest::addRow("clock 1 MHz") << false << Mutation([](ChipSpec& s) { s.clockHz = 1e6; });
        QTest::addRow("clock 10 GHz") << false << Mutation([](ChipSpec& s) { s.clockHz = 1e10; });
        QTest::addRow("SRAM port exactly the link")
            << true << Mutation([](ChipSpec& s) { s.sramBandwidthBytesPerCyclePerCore = 16; });
        QTest::addRow("SRAM port 24.35 B/cycle")
            << false << Mutation([](ChipSpec& s) { s.sramBandwidthBytesPerCyclePerCore = 24.35; });
        QTest::addRow("no fp8 units") << true
                                      << Mutation([](ChipSpec& s) { s.tileCost.roofline.peakFlopPerCycleFp8 = 0; });
        QTest::addRow("no HBM") << false << Mutation([](ChipSpec& s) {
            s.hbm.stacksPerChip = 0;
            s.hbm.bandwidthGBpsPerStack = 0;
            s.hbm.capacityGiBPerStack = 0;
        });
        QTest::addRow("explicit controllers") << false << Mutation([](ChipSpec& s) {
            s.hbm.controllerPlacement = ControllerPlacement::Explicit;
            s.hbm.controllerCoreIds = { 0, 400, 800, 1471 };
        });
        QTest::addRow("1 x 16 mesh") << true << Mutation([](ChipSpec& s) {
            s.interconnect.meshWidth = 1;
            s.interconnect.meshHeight = 16;
        });
        QTest::addRow("mesh with all edges")
            << true << Mutation([](ChipSpec& s) { s.hbm.controllerPlacement = ControllerPlacement::AllEdges; });
        QTest::addRow("inactive roofline values ignored")
            << false << Mutation([](ChipSpec& s) { s.tileCost.roofline.peakFlopPerCycleFp32 = -1; });
        QTest::addRow("fitted with a model path") << false << Mutation([](ChipSpec& s) {
            s.tileCost.model = TileCostModelKind::Fitted;
            s.tileCost.fitted.modelPath = "fitted/ipu.json";
        });
        QTest::addRow("overhead factor exactly 1")
            << false << Mutation([](ChipSpec& s) { s.interChip.overheadFactor = 1; });
    }

    void acceptsBoundaryValues()
    {
        QFETCH(bool, mesh);
        QFETCH(Mutation, mutation);
        ChipSpec spec = mesh ? meshBase() : ipuBase();
        mutation(spec);
        const std::vector<FieldError> errors = validateChipSpec(spec);
        QVERIFY2(errors.empty(), listErrors(errors).constData());
    }

    void minimumSramIsOneTile()
    {
        TileCostSpec tileCost;
        tileCost.model = TileCostModelKind::IpuMk2;
        QCOMPARE(minimumSramBytesPerCore(tileCost), std::int64_t(3072)); // 2 x 3 x 16 x 16 x 2 B
        tileCost.model = TileCostModelKind::Roofline;
        QCOMPARE(minimumSramBytesPerCore(tileCost), std::int64_t(1536)); // 2 x 3 x 8 x 8 x 4 B
        tileCost.model = TileCostModelKind::Fitted;
        QCOMPARE(minimumSramBytesPerCore(tileCost), std::int64_t(1536));
    }

    void presetsAreValid_data()
    {
        QTest::addColumn<QByteArray>("name");
        for (const ChipSpec& spec : builtinPresets())
            QTest::addRow("%s", spec.name.c_str()) << QByteArray::fromStdString(spec.name);
    }

    void presetsAreValid()
    {
        QFETCH(QByteArray, name);
        const std::optional<ChipSpec> spec = findBuiltinPreset(name.toStdString());
        QVERIFY(spec);
        const std::vector<FieldError> errors = validateChipSpec(*spec);
        QVERIFY2(errors.empty(), listErrors(errors).constData());
    }

    void reportsAllErrorsInFieldOrder()
    {
        ChipSpec spec = meshBase();
        spec.hbm.stacksPerChip = 65;
        spec.clockHz = 0;
        spec.name.clear();
        spec.chips = 0;
        spec.interconnect.meshHeight = 5;
        const std::vector<FieldError> errors = validateChipSpec(spec);
        QStringList fields;
        for (const FieldError& error : errors)
            fields << QString::fromStdString(error.field);
        QCOMPARE(fields,
            QStringList({ QStringLiteral("/name"), QStringLiteral("/chips"), QStringLiteral("/clockHz"),
                QStringLiteral("/interconnect/meshWidth"), QStringLiteral("/hbm/stacksPerChip") }));
    }
};

QTEST_GUILESS_MAIN(TestChipValidate)
#include "tst_chip_validate.moc"
