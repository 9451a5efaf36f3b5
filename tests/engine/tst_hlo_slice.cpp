// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Linear and dependency-aware slicing: region shapes on the hespas fixtures, overlap of collectives
// with independent compute, content hashes, and the equal-compute invariant over the corpus.
#include "engine/hlo/hlo_slice.h"
#include "hlo_test_support.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

#include <set>

using namespace elk::hlo;
using namespace elk::hlo::test;

namespace {

SliceOptions optionsFor(SplitMode mode, bool merge = true)
{
    SliceOptions options;
    options.mode = mode;
    options.merge = merge;
    return options;
}

// Regions in topological order, every kernel in exactly one region, every kernel edge respected,
// communication regions holding one collective kernel each.
std::string checkRegions(const FusionResult& fusion, const SliceResult& slices)
{
    std::vector<int> regionOf(fusion.kernels.size(), -1);
    for (std::size_t r = 0; r < slices.regions.size(); ++r) {
        const SliceRegion& region = slices.regions[r];
        if (region.kernels.empty())
            return "region " + std::to_string(r) + " is empty";
        if (!std::is_sorted(region.kernels.begin(), region.kernels.end()))
            return "region " + std::to_string(r) + " kernels not ascending";
        for (std::uint32_t dep : region.dependencies)
            if (dep >= r)
                return "region " + std::to_string(r) + " depends on a later region " + std::to_string(dep);
        if (!std::is_sorted(region.dependencies.begin(), region.dependencies.end()))
            return "region " + std::to_string(r) + " dependencies not ascending";
        if (region.contentHash.size() != 64)
            return "region " + std::to_string(r) + " has no hash";
        for (std::uint32_t k : region.kernels) {
            if (regionOf[k] != -1)
                return "kernel " + std::to_string(k) + " in two regions";
            regionOf[k] = int(r);
            const bool collective = fusion.kernels[k].opClass == OpClass::Collective;
            if (collective != (region.kind == RegionKind::Communication))
                return "kernel " + std::to_string(k) + " in a region of the wrong kind";
        }
        if (region.kind == RegionKind::Communication && region.kernels.size() != 1)
            return "communication region " + std::to_string(r) + " holds " + std::to_string(region.kernels.size())
                + " kernels";
    }
    for (std::size_t k = 0; k < fusion.kernels.size(); ++k) {
        if (regionOf[k] == -1)
            return "kernel " + std::to_string(k) + " in no region";
        for (std::uint32_t in : fusion.kernels[k].inputs)
            if (regionOf[in] > regionOf[k])
                return "kernel " + std::to_string(k) + " runs before its input " + std::to_string(in);
    }
    return {};
}

// Whether region `to` waits (transitively) for region `from`.
bool reaches(const SliceResult& slices, std::uint32_t from, std::uint32_t to)
{
    std::vector<bool> waits(slices.regions.size(), false);
    waits[from] = true;
    for (std::uint32_t r = from + 1; r <= to && r < slices.regions.size(); ++r)
        for (std::uint32_t dep : slices.regions[r].dependencies)
            waits[r] = waits[r] || waits[dep];
    return to < waits.size() && waits[to];
}

// A compute region that neither waits for nor feeds the communication region (they can overlap).
bool collectiveCanOverlap(const SliceResult& slices)
{
    for (std::uint32_t c = 0; c < slices.regions.size(); ++c) {
        if (slices.regions[c].kind != RegionKind::Communication)
            continue;
        for (std::uint32_t r = 0; r < slices.regions.size(); ++r)
            if (slices.regions[r].kind == RegionKind::Compute && !reaches(slices, r, c) && !reaches(slices, c, r))
                return true;
    }
    return false;
}

struct Sliced {
    Flattened flat;
    FusionResult fusion;
};

Sliced fixture(const QString& name)
{
    Sliced s;
    s.flat = flattenFile(QString(fixtureDir() + QStringLiteral("/hespas/") + name).toStdString());
    if (s.flat.ok())
        s.fusion = fuseProgram(s.flat.program);
    return s;
}

const char* kRepeatedLayers = R"(
func.func private @layer(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.tanh %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
func.func private @sync(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>, %v: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %0 = func.call @layer(%x, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = func.call @sync(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = func.call @layer(%1, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %3 = func.call @sync(%2) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = func.call @layer(%3, %w) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %5 = stablehlo.dot_general %4, %v, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}
)";

} // namespace

class TestHloSlice : public QObject {
    Q_OBJECT

private slots:
    void modeNames()
    {
        for (SplitMode mode : { SplitMode::Linear, SplitMode::Dependency })
            QCOMPARE(splitModeFromString(toString(mode)), std::optional<SplitMode>(mode));
        QCOMPARE(splitModeFromString("reversed"), std::optional<SplitMode>());
    }

    // hespas test_mlir_splitter.py: the comm fixture splits linearly into 3 regions, one of them
    // communication; in program order (hespas chains them reversed).
    void dependencyFixtureLinear()
    {
        const Sliced s = fixture(QStringLiteral("test_dependency_graph.mlir"));
        QVERIFY2(s.flat.ok(), s.flat.error.c_str());
        const SliceResult linear = sliceProgram(s.flat.program, s.fusion, optionsFor(SplitMode::Linear));
        QVERIFY2(checkRegions(s.fusion, linear).empty(), checkRegions(s.fusion, linear).c_str());
        QCOMPARE(linear.regions.size(), std::size_t(3));
        QCOMPARE(linear.regions[0].kind, RegionKind::Compute);
        QCOMPARE(linear.regions[1].kind, RegionKind::Communication);
        QCOMPARE(linear.regions[2].kind, RegionKind::Compute);
        QVERIFY(linear.regions[0].dependencies.empty());
        QCOMPARE(linear.regions[1].dependencies, std::vector<std::uint32_t>({ 0 }));
        QCOMPARE(linear.regions[2].dependencies, std::vector<std::uint32_t>({ 1 }));
        QVERIFY(!collectiveCanOverlap(linear));
    }

    // Dependency split: the all_reduce needs only the matmul, so the bias/scale branch can run while
    // it communicates, with or without merging.
    void dependencyFixtureOverlaps_data()
    {
        QTest::addColumn<bool>("merge");
        QTest::addRow("merge off") << false;
        QTest::addRow("merge on") << true;
    }

    void dependencyFixtureOverlaps()
    {
        QFETCH(bool, merge);
        const Sliced s = fixture(QStringLiteral("test_dependency_graph.mlir"));
        QVERIFY2(s.flat.ok(), s.flat.error.c_str());
        const SliceResult dependency = sliceProgram(s.flat.program, s.fusion, optionsFor(SplitMode::Dependency, merge));
        QVERIFY2(checkRegions(s.fusion, dependency).empty(), checkRegions(s.fusion, dependency).c_str());
        QVERIFY(collectiveCanOverlap(dependency));
        int communication = 0;
        for (const SliceRegion& region : dependency.regions)
            communication += region.kind == RegionKind::Communication ? 1 : 0;
        QCOMPARE(communication, 1);
        if (!merge)
            QCOMPARE(dependency.regions.size(), s.fusion.kernels.size());
    }

    void noCommFixtureIsOneRegion_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addRow("linear") << int(SplitMode::Linear);
        QTest::addRow("dependency + merge") << int(SplitMode::Dependency);
    }

    void noCommFixtureIsOneRegion()
    {
        QFETCH(int, mode);
        const Sliced s = fixture(QStringLiteral("test_no_comm_graph.mlir"));
        QVERIFY2(s.flat.ok(), s.flat.error.c_str());
        const SliceResult slices = sliceProgram(s.flat.program, s.fusion, optionsFor(SplitMode(mode)));
        QVERIFY2(checkRegions(s.fusion, slices).empty(), checkRegions(s.fusion, slices).c_str());
        QCOMPARE(slices.regions.size(), std::size_t(1));
        QCOMPARE(slices.regions[0].kind, RegionKind::Compute);
        QCOMPARE(slices.regions[0].kernels.size(), s.fusion.kernels.size());
    }

    // jax_example: forward + backward, then six all_reduces in a row, then the optimizer update. Like
    // hespas (8 blocks), the linear split gives compute, 6 × communication, compute.
    void jaxExampleLinear()
    {
        const Sliced s = fixture(QStringLiteral("jax_example.mlir"));
        QVERIFY2(s.flat.ok(), s.flat.error.c_str());
        const SliceResult linear = sliceProgram(s.flat.program, s.fusion, optionsFor(SplitMode::Linear));
        QVERIFY2(checkRegions(s.fusion, linear).empty(), checkRegions(s.fusion, linear).c_str());
        int communication = 0;
        for (const SliceRegion& region : linear.regions)
            communication += region.kind == RegionKind::Communication ? 1 : 0;
        QCOMPARE(communication, 6);
        QCOMPARE(linear.regions.size(), std::size_t(8));
        QCOMPARE(linear.regions.front().kind, RegionKind::Compute);
        QCOMPARE(linear.regions.back().kind, RegionKind::Compute);
        for (std::size_t r = 1; r < linear.regions.size(); ++r) // never two compute regions in a row
            QVERIFY(linear.regions[r].kind == RegionKind::Communication
                || linear.regions[r - 1].kind == RegionKind::Communication);
        const SliceResult dependency = sliceProgram(s.flat.program, s.fusion, optionsFor(SplitMode::Dependency));
        qInfo("jax_example: %zu kernels; linear %zu regions (6 all_reduce); dependency+merge %zu regions",
            s.fusion.kernels.size(), linear.regions.size(), dependency.regions.size());
    }

    void linearFlushesAtTheKernelLimit()
    {
        const Flattened f = flattenText(R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %a : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  %3 = stablehlo.abs %2 : tensor<8xf32>
  %4 = stablehlo.negate %3 : tensor<8xf32>
  return %4 : tensor<8xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        FusionOptions off;
        off.enabled = false;
        const FusionResult perOp = fuseProgram(f.program, off);
        SliceOptions options = optionsFor(SplitMode::Linear);
        options.maxKernelsPerRegion = 2;
        const SliceResult linear = sliceProgram(f.program, perOp, options);
        QVERIFY2(checkRegions(perOp, linear).empty(), checkRegions(perOp, linear).c_str());
        QCOMPARE(linear.regions.size(), std::size_t(3));
        QCOMPARE(linear.regions[2].kernels, std::vector<std::uint32_t>({ 4 }));
        // A chain merges into one region in dependency mode.
        const SliceResult merged = sliceProgram(f.program, perOp, optionsFor(SplitMode::Dependency));
        QCOMPARE(merged.regions.size(), std::size_t(1));
        const SliceResult unmerged = sliceProgram(f.program, perOp, optionsFor(SplitMode::Dependency, false));
        QCOMPARE(unmerged.regions.size(), std::size_t(5));
    }

    // Repeated layers between collectives: equal compute hashes, equal communication hashes.
    void repeatedBlocksHashEqual()
    {
        const Flattened f = flattenText(kRepeatedLayers);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fusion = fuseProgram(f.program);
        const SliceResult linear = sliceProgram(f.program, fusion, optionsFor(SplitMode::Linear));
        QVERIFY2(checkRegions(fusion, linear).empty(), checkRegions(fusion, linear).c_str());
        QCOMPARE(linear.regions.size(), std::size_t(5));
        QCOMPARE(linear.regions[0].contentHash, linear.regions[2].contentHash);
        QCOMPARE(linear.regions[1].contentHash, linear.regions[3].contentHash);
        QVERIFY(linear.regions[0].contentHash != linear.regions[1].contentHash);
        QVERIFY(linear.regions[2].contentHash != linear.regions[4].contentHash); // the last adds a dot
        const SliceResult again = sliceProgram(f.program, fuseProgram(f.program), optionsFor(SplitMode::Linear));
        for (std::size_t r = 0; r < linear.regions.size(); ++r)
            QCOMPARE(again.regions[r].contentHash, linear.regions[r].contentHash);
    }

    // Both modes cover the same compute work as the program, on every corpus module that reads.
    void computeWorkInvariant_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addRow("hespas") << fixtureDir() + QStringLiteral("/hespas");
        QTest::addRow("tt-mlir fixtures") << fixtureDir() + QStringLiteral("/tt-mlir");
        QTest::addRow("stablehlo-testdata fixtures") << fixtureDir() + QStringLiteral("/stablehlo-testdata");
        QTest::addRow("tt-mlir, whole shared corpus") << sharedCorpusDir() + QStringLiteral("/tt-mlir");
    }

    void computeWorkInvariant()
    {
        QFETCH(QString, root);
        if (!QFile::exists(root)) // only the shared corpus may be absent
            QSKIP("../shared/corpus/stablehlo is absent");
        QDirIterator files(root, { QStringLiteral("*.mlir") }, QDir::Files, QDirIterator::Subdirectories);
        QStringList paths;
        while (files.hasNext())
            paths << files.next();
        paths.sort();
        int modules = 0, skipped = 0;
        for (const QString& path : paths) {
            ReadResult read = readHloFile(path.toStdString());
            if (read.modules.empty()) {
                ++skipped;
                continue;
            }
            for (Module& module : read.modules) {
                FlattenOptions options;
                options.deviceCount = 4;
                const HloProgram program = flattenModule(module, options);
                const FusionResult fusion = fuseProgram(program);
                const double total = program.totalFlops();
                for (SliceOptions slice : { optionsFor(SplitMode::Linear), optionsFor(SplitMode::Dependency, true),
                         optionsFor(SplitMode::Dependency, false) }) {
                    const SliceResult slices = sliceProgram(program, fusion, slice);
                    const std::string problem = checkRegions(fusion, slices);
                    QVERIFY2(problem.empty(), (path.toStdString() + ": " + problem).c_str());
                    QVERIFY2(computeFlopsOf(slices, fusion) == total, qPrintable(path));
                    const SliceResult again = sliceProgram(program, fusion, slice);
                    QCOMPARE(again.regions.size(), slices.regions.size());
                    for (std::size_t r = 0; r < slices.regions.size(); ++r)
                        QCOMPARE(again.regions[r].contentHash, slices.regions[r].contentHash);
                }
                ++modules;
            }
        }
        qInfo("%s: %d modules sliced, %d files skipped (not readable)", qPrintable(root), modules, skipped);
        QVERIFY(modules > 0);
        if (root.endsWith(QLatin1String("/hespas")))
            QCOMPARE(modules, 8);
    }

    void resnet50Regions()
    {
        const QString path = fixtureDir() + QStringLiteral("/hespas/resnet_50_train_step_4_devices_1024_batch.mlir");
        FlattenOptions options;
        options.deviceCount = 4;
        const Flattened f = flattenFile(path.toStdString(), options);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fusion = fuseProgram(f.program);
        const SliceResult linear = sliceProgram(f.program, fusion, optionsFor(SplitMode::Linear));
        const SliceResult dependency = sliceProgram(f.program, fusion, optionsFor(SplitMode::Dependency));
        QVERIFY2(checkRegions(fusion, linear).empty(), checkRegions(fusion, linear).c_str());
        QVERIFY2(checkRegions(fusion, dependency).empty(), checkRegions(fusion, dependency).c_str());
        std::set<std::string> hashes;
        for (const SliceRegion& region : dependency.regions)
            hashes.insert(region.contentHash);
        QVERIFY(hashes.size() < dependency.regions.size()); // repeated blocks share hashes
        qInfo("ResNet-50 train: %zu kernels; linear %zu regions; dependency+merge %zu regions (%zu distinct hashes)",
            fusion.kernels.size(), linear.regions.size(), dependency.regions.size(), hashes.size());
    }
};

QTEST_GUILESS_MAIN(TestHloSlice)
#include "tst_hlo_slice.moc"
