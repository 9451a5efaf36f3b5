// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The StableHLO pipeline end to end: roofline arithmetic, the estimator chain (table → roofline),
// the ICCA estimator, the region cache, the JSON report, determinism and bad input.
#include <cmath>

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "engine/hlo/hlo_run.h"
#include "engine/store/result_store.h"
#include "tests/support/compare_near.h"

using namespace elk;
using namespace elk::hlo;
using namespace Qt::Literals::StringLiterals;

namespace {

const QString kHespas = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas");

Module parse(const std::string& text)
{
    ReadResult read = readHloText(text, "test.mlir");
    if (!read.ok())
        qFatal("%s", read.errors.empty() ? "no module" : toString(read.errors.front()).c_str());
    return std::move(read.modules.front());
}

QJsonObject json(const HloRunResult& result)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(hloRunToJson(result))).object();
}

const char* kDotModule = R"(
module @m {
  func.func public @main(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>, %t: tensor<32000x64xf32>, %i: tensor<16x1xi32>) -> (tensor<256x1024xbf16>, tensor<16x64xf32>) {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16>
    %1 = stablehlo.tanh %0 : tensor<256x1024xbf16>
    %2 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<32000x64xf32>, tensor<16x1xi32>) -> tensor<16x64xf32>
    return %1, %2 : tensor<256x1024xbf16>, tensor<16x64xf32>
  }
}
)";

} // namespace

class TestHloRun : public QObject {
    Q_OBJECT

private slots:

    // hespas's test_roofline: add of two 10×10 f32 at peak 100 FLOP/s and 50 B/s takes 24 s
    // (100 FLOPs → 1 s; 3 × 400 bytes → 24 s).
    void rooflineArithmetic()
    {
        const Module module
            = parse(R"(func.func @main(%a: tensor<10x10xf32>, %b: tensor<10x10xf32>) -> tensor<10x10xf32> {
            %0 = stablehlo.add %a, %b : tensor<10x10xf32>
            return %0 : tensor<10x10xf32>
          })");
        const HloProgram program = flattenModule(module);
        const FusionResult fusion = fuseProgram(program);
        QCOMPARE(int(fusion.kernels.size()), 1);
        DevicePreset device;
        device.name = "test";
        device.fallbackTflops = 100e-12;
        device.memoryBandwidthGBps = 50e-9;
        const auto roofline = makeRooflineEstimator(device);
        NullRunControl control;
        const auto estimates = roofline->estimate(program, fusion, { 0 }, control);
        QCOMPARE(int(estimates.size()), 1);
        ELK_COMPARE_NEAR(estimates[0].seconds, 24.0, 1e-9);
        QVERIFY(!estimates[0].computeBound);
    }

    void jaxExampleReport()
    {
        HloRunOptions options;
        options.system = "4x-a100-sxm-40gb";
        NullRunControl control;
        const HloRunResult result
            = runHloFile(QString(kHespas + u"/jax_example.mlir"_s).toStdString(), options, nullptr, control);
        QVERIFY2(result.ok(), result.errors.empty() ? "stopped" : result.errors.front().c_str());
        const QJsonObject root = json(result);
        for (const char* key :
            { "module", "ops", "unknown_ops", "regions", "compute_s", "comm_s", "exposed_comm_s", "step_s", "cache" })
            QVERIFY2(root.contains(QLatin1String(key)), key);
        const QJsonArray regions = root[u"regions"_s].toArray();
        QCOMPARE(regions.size(), qsizetype(result.regions.size()));
        int collectives = 0;
        for (const QJsonValue& value : regions) {
            const QJsonObject region = value.toObject();
            for (const char* key : { "kind", "ops", "seconds", "estimator", "collective", "bytes", "group_size" })
                QVERIFY2(region.contains(QLatin1String(key)), key);
            if (region[u"kind"_s].toString() == u"comm"_s) {
                ++collectives;
                QCOMPARE(region[u"collective"_s].toString(), QStringLiteral("all_reduce"));
                QVERIFY(region[u"bytes"_s].toDouble() > 0);
                // The pmap export was lowered for one replica: replica_groups = dense<0>, i.e. [[0]].
                // A group of one device moves nothing.
                QCOMPARE(region[u"group_size"_s].toInt(), 1);
                QCOMPARE(region[u"seconds"_s].toDouble(), 0.0);
            }
        }
        // hlo-reference.md §6.1: the pmap MLP train step has 6 all_reduce ops.
        QCOMPARE(collectives, 6);
        QVERIFY(result.stepSeconds > 0);
        bool warned = false;
        for (const std::string& warning : result.warnings)
            warned = warned || warning.find("single-device replica groups") != std::string::npos;
        QVERIFY(warned);
        ELK_COMPARE_NEAR(result.computeSeconds + result.exposedCommSeconds, result.stepSeconds, 1e-12);
        QVERIFY(result.fusedBytes <= result.unfusedBytes);
        // Determinism: the same inputs give the same report, byte for byte.
        const HloRunResult again
            = runHloFile(QString(kHespas + u"/jax_example.mlir"_s).toStdString(), options, nullptr, control);
        QCOMPARE(hloRunToJson(again), hloRunToJson(result));
    }

    void regionCacheServesTheSecondRun()
    {
        QTemporaryDir dir;
        store::OpenResult opened = store::ResultStore::open(QString(dir.path() + u"/results.sqlite"_s).toStdString());
        QVERIFY(opened.store);
        HloRunOptions options;
        options.system = "4x-h100-sxm";
        NullRunControl control;
        const std::string path = QString(kHespas + u"/jax_example.mlir"_s).toStdString();
        const HloRunResult cold = runHloFile(path, options, opened.store.get(), control);
        QVERIFY(cold.ok());
        QVERIFY(cold.cacheMisses > 0);
        const HloRunResult warm = runHloFile(path, options, opened.store.get(), control);
        QCOMPARE(warm.cacheMisses, std::int64_t(0));
        QCOMPARE(warm.cacheHits, cold.cacheMisses + cold.cacheHits);
        QCOMPARE(warm.stepSeconds, cold.stepSeconds);
        // Another system is another hardware hash: no hits.
        options.system = "4x-b200-sxm";
        const HloRunResult other = runHloFile(path, options, opened.store.get(), control);
        QCOMPARE(other.cacheMisses, cold.cacheMisses);
        QCOMPARE(other.cacheHits, cold.cacheHits); // only repeats inside the module
    }

    void tableThenRooflineChain()
    {
        const Module module = parse(kDotModule);
        HloRunOptions options;
        NullRunControl control;
        const HloRunResult plain = runHloModule(module, options, nullptr, control);
        QVERIFY(plain.ok());
        const KernelPoint* dot = nullptr;
        for (const KernelPoint& kernel : plain.kernels)
            if (kernel.label.rfind("stablehlo.dot_general", 0) == 0)
                dot = &kernel;
        QVERIFY(dot != nullptr);
        QTemporaryDir dir;
        const QString csv = dir.path() + u"/measured.csv"_s;
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        std::string quoted = dot->signature;
        for (std::size_t at = quoted.find('"'); at != std::string::npos; at = quoted.find('"', at + 2))
            quoted.insert(at, 1, '"');
        file.write(("signature,seconds,source\n\"" + quoted + "\",0.125,test bench\n").c_str());
        file.close();
        options.estimators = { "table:" + csv.toStdString(), "roofline" };
        const HloRunResult mixed = runHloModule(module, options, nullptr, control);
        QVERIFY2(mixed.ok(), mixed.errors.empty() ? "" : mixed.errors.front().c_str());
        int fromTable = 0;
        for (const KernelPoint& kernel : mixed.kernels) {
            if (kernel.estimator == "table:measured.csv") {
                ++fromTable;
                QCOMPARE(kernel.seconds, 0.125);
            } else {
                QCOMPARE(kernel.estimator, std::string("roofline"));
            }
        }
        QCOMPARE(fromTable, 1);
        QVERIFY(mixed.computeSeconds > 0.125);
    }

    // A chain that prices nothing must not answer 0 s: the run fails naming the kernels and the
    // estimators tried, or (--allow-unpriced) warns and counts them.
    void unpricedKernelsFailTheRun()
    {
        const Module module = parse(kDotModule);
        QTemporaryDir dir;
        const QString csv = dir.path() + u"/measured.csv"_s;
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("signature,seconds,source\n\"no such kernel\",0.5,bench\n");
        file.close();
        HloRunOptions options;
        options.estimators = { "table:" + csv.toStdString() };
        NullRunControl control;
        const HloRunResult refused = runHloModule(module, options, nullptr, control);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.errors.size(), std::size_t(1));
        const std::string& error = refused.errors.front();
        QVERIFY2(error.find("kernel(s) no estimator of the chain (table:measured.csv) supports") != std::string::npos,
            error.c_str());
        QVERIFY2(error.find("test.mlir:4:") != std::string::npos, error.c_str()); // the dot_general's line
        QVERIFY2(error.find("stablehlo.dot_general") != std::string::npos, error.c_str());
        QVERIFY2(error.find("--allow-unpriced") != std::string::npos, error.c_str());

        options.allowUnpriced = true;
        const HloRunResult allowed = runHloModule(module, options, nullptr, control);
        QVERIFY(allowed.ok());
        QVERIFY(allowed.unpricedKernels >= 2); // the dot_general + tanh kernel(s) and the gather
        QCOMPARE(allowed.stepSeconds, 0.0);
        QCOMPARE(json(allowed)[u"unpriced_kernels"_s].toInteger(), qint64(allowed.unpricedKernels));
        const bool warned = std::any_of(allowed.warnings.begin(), allowed.warnings.end(),
            [](const std::string& w) { return w.find("count as 0 s (--allow-unpriced)") != std::string::npos; });
        QVERIFY(warned);
        // With roofline last the chain prices everything again.
        options.allowUnpriced = false;
        options.estimators.push_back("roofline");
        const HloRunResult priced = runHloModule(module, options, nullptr, control);
        QVERIFY(priced.ok());
        QCOMPARE(priced.unpricedKernels, std::int64_t(0));
        QVERIFY(priced.stepSeconds > 0);
    }

    // `?` dims are never silently 1: refused with where they are, or bound with --dim ?=N.
    void dynamicDimsAreBoundOrRefused()
    {
        const Module module
            = parse(R"(func.func @main(%a: tensor<?x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<?x4096xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x4096xf32>, tensor<4096x4096xf32>) -> tensor<?x4096xf32>
  return %0 : tensor<?x4096xf32>
})");
        HloRunOptions options;
        NullRunControl control;
        const HloRunResult refused = runHloModule(module, options, nullptr, control);
        QVERIFY(!refused.ok());
        const std::string& error = refused.errors.front();
        QVERIFY2(error.find("dynamic dimension ('?') with no bound") != std::string::npos, error.c_str());
        QVERIFY2(error.find("--dim ?=N") != std::string::npos, error.c_str());
        QVERIFY2(error.find("test.mlir:2:3: stablehlo.dot_general operand 0 tensor<?x4096xf32>") != std::string::npos,
            error.c_str());
        options.dynamicDimSize = 8;
        const HloRunResult bound = runHloModule(module, options, nullptr, control);
        QVERIFY2(bound.ok(), bound.errors.empty() ? "stopped" : bound.errors.front().c_str());
        QCOMPARE(bound.totalFlops, 2.0 * 8 * 4096 * 4096);
        options.dynamicDimSize = 0;
        QVERIFY(!runHloModule(module, options, nullptr, control).ok());
    }

    void iccaEstimator()
    {
        const Module module = parse(kDotModule);
        HloRunOptions options;
        options.estimators = { "icca:ipu-mk2-hbm" };
        NullRunControl control;
        const HloRunResult result = runHloModule(module, options, nullptr, control);
        QVERIFY2(result.ok(), result.errors.empty() ? "" : result.errors.front().c_str());
        bool simulated = false;
        bool streamed = false;
        for (const KernelPoint& kernel : result.kernels) {
            QVERIFY(kernel.seconds > 0);
            if (kernel.estimator == "icca:ipu-mk2-hbm") {
                simulated = true;
                // Never faster than the chip's peak (about 250 TFLOP/s fp16 for 1,472 tiles).
                QVERIFY2(
                    kernel.flops / kernel.seconds < 1e15, qPrintable(QString::number(kernel.flops / kernel.seconds)));
            }
            if (kernel.estimator == "icca:ipu-mk2-hbm/streaming")
                streamed = true; // the gather has no Graph IR form
        }
        QVERIFY(simulated);
        QVERIFY(streamed);
    }

    // A convolution (NHWC/HWIO, padded) lowers to a windowed Conv expression and is simulated.
    void iccaConvolution()
    {
        const Module module = parse(
            R"(func.func @main(%x: tensor<8x28x28x64xf16>, %w: tensor<3x3x64x128xf16>) -> tensor<8x28x28x128xf16> {
            %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x28x28x64xf16>, tensor<3x3x64x128xf16>) -> tensor<8x28x28x128xf16>
            return %0 : tensor<8x28x28x128xf16>
          })");
        HloRunOptions options;
        options.estimators = { "icca:ipu-mk2-hbm" };
        NullRunControl control;
        const HloRunResult result = runHloModule(module, options, nullptr, control);
        QVERIFY2(result.ok(), result.errors.empty() ? "" : result.errors.front().c_str());
        QCOMPARE(int(result.kernels.size()), 1);
        QCOMPARE(result.kernels[0].estimator, std::string("icca:ipu-mk2-hbm"));
        QVERIFY(result.kernels[0].seconds > 0);
        QVERIFY(result.warnings.empty());
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("system");
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<QString>("expected");
        QTest::addRow("unknown system") << u"no-such-system"_s << u"roofline"_s << u"system no-such-system"_s;
        QTest::addRow("unknown estimator") << u"4x-a100-sxm-40gb"_s << u"magic"_s << u"unknown estimator 'magic'"_s;
        QTest::addRow("missing table") << u"4x-a100-sxm-40gb"_s << u"table:/no/such.csv"_s << u"table:/no/such.csv"_s;
        QTest::addRow("unknown ICCA chip") << u"4x-a100-sxm-40gb"_s << u"icca:no-such-chip"_s << u"icca:no-such-chip"_s;
        QTest::addRow("unknown design") << u"4x-a100-sxm-40gb"_s << u"icca:ipu-mk2-hbm,design=fast"_s
                                        << u"unknown design 'fast'"_s;
    }

    void badInput()
    {
        QFETCH(QString, system);
        QFETCH(QString, estimator);
        QFETCH(QString, expected);
        HloRunOptions options;
        options.system = system.toStdString();
        options.estimators = { estimator.toStdString() };
        NullRunControl control;
        const HloRunResult result = runHloModule(parse(kDotModule), options, nullptr, control);
        QVERIFY(!result.ok());
        QVERIFY2(QString::fromStdString(result.errors.front()).contains(expected), result.errors.front().c_str());
    }

    void malformedFileIsLocated()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + u"/bad.mlir"_s;
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a : tensor<4xf32 }\n}\n");
        file.close();
        NullRunControl control;
        const HloRunResult result = runHloFile(path.toStdString(), {}, nullptr, control);
        QVERIFY(!result.ok());
        QVERIFY2(
            QString::fromStdString(result.errors.front()).startsWith(path + u":2:"_s), result.errors.front().c_str());
    }
};

QTEST_GUILESS_MAIN(TestHloRun)
#include "tst_hlo_run.moc"
