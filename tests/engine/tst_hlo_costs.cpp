// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Per-op FLOPs/bytes (import.md §5.2), call and loop expansion, collectives and warnings of
// flattenModule, on MLIR text parsed the way users feed modules.
#include "engine/hlo/hlo_attrs.h"
#include "engine/hlo/hlo_fusion.h"
#include "engine/hlo/hlo_sharding.h"
#include "hlo_test_support.h"

#include <QFile>
#include <QTest>

using namespace elk::hlo;
using namespace elk::hlo::test;

namespace {

std::string mainWith(const std::string& signature, const std::string& body)
{
    return "func.func @main" + signature + " {\n" + body + "\n}\n";
}

bool hasWarning(const HloProgram& program, const std::string& text)
{
    for (const std::string& w : program.warnings)
        if (w.find(text) != std::string::npos)
            return true;
    return false;
}

const char* kScanLoop = R"(
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<2> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %arg0) : tensor<i32>, tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<12> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<4xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>
  }
  return %0#1 : tensor<4xf32>
}
)";

} // namespace

class TestHloCosts : public QObject {
    Q_OBJECT

private slots:
    void opCosts_data()
    {
        QTest::addColumn<QString>("mlir");
        QTest::addColumn<double>("flops");
        QTest::addColumn<double>("transcendentals");
        QTest::addColumn<double>("bytes");
        auto row = [](const char* name, const std::string& text, double flops, double trans, double bytes) {
            QTest::addRow("%s", name) << QString::fromStdString(text) << flops << trans << bytes;
        };
        // hespas test_roofline.py values, rebuilt as MLIR.
        row("add 10x10 f32 (hespas: 100 flops, 1200 bytes)",
            mainWith("(%a: tensor<10x10xf32>, %b: tensor<10x10xf32>) -> tensor<10x10xf32>",
                "  %0 = stablehlo.add %a, %b : tensor<10x10xf32>\n  return %0 : tensor<10x10xf32>"),
            100, 0, 1200);
        row("reduce [2,3,4]->[2,3] over dim 2 (hespas: 18 flops, 120 bytes)",
            mainWith("(%a: tensor<2x3x4xf32>) -> tensor<2x3xf32>",
                "  %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %0 = stablehlo.reduce(%a init: %cst) applies stablehlo.add across dimensions = [2] : "
                "(tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>"),
            18, 0, 120);
        row("reduce in generic form with a region",
            mainWith("(%a: tensor<2x3x4xf32>) -> tensor<2x3xf32>",
                "  %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %0 = \"stablehlo.reduce\"(%a, %cst) <{dimensions = array<i64: 2>}> ({\n"
                "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                "    %s = stablehlo.add %x, %y : tensor<f32>\n"
                "    stablehlo.return %s : tensor<f32>\n"
                "  }) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>"),
            18, 0, 120);
        row("transpose f16: no flops, bytes in + out",
            mainWith("(%a: tensor<4x8xf16>) -> tensor<8x4xf16>",
                "  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf16>) -> tensor<8x4xf16>\n"
                "  return %0 : tensor<8x4xf16>"),
            0, 0, 128);
        row("negate",
            mainWith("(%a: tensor<8xf32>) -> tensor<8xf32>",
                "  %0 = stablehlo.negate %a : tensor<8xf32>\n  return %0 : tensor<8xf32>"),
            8, 0, 64);
        row("select reads its three inputs",
            mainWith("(%p: tensor<4x4xi1>, %a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32>",
                "  %0 = stablehlo.select %p, %a, %b : tensor<4x4xi1>, tensor<4x4xf32>\n  return %0 : tensor<4x4xf32>"),
            16, 0, 16 + 3 * 64);
        row("dot_general 2-D: 2*M*N*K",
            mainWith("(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32>",
                "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                "(tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>\n  return %0 : tensor<4x16xf32>"),
            2 * 64 * 8, 0, (32 + 128 + 64) * 4);
        row("dot_general batched: batch dims are in N(out)",
            mainWith("(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<2x4x16xf32>",
                "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
                "(tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>\n  return %0 : tensor<2x4x16xf32>"),
            2 * 128 * 8, 0, (64 + 256 + 128) * 4);
        row("dot_general batched i64",
            mainWith("(%a: tensor<3x2x4xi64>, %b: tensor<3x4x5xi64>) -> tensor<3x2x5xi64>",
                "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
                "(tensor<3x2x4xi64>, tensor<3x4x5xi64>) -> tensor<3x2x5xi64>\n  return %0 : tensor<3x2x5xi64>"),
            2 * 30 * 4, 0, (24 + 60 + 30) * 8);
        row("concatenate: no flops, all inputs + output",
            mainWith("(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32>",
                "  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>\n"
                "  return %0 : tensor<2x8xf32>"),
            0, 0, (6 + 10 + 16) * 4);
        row("abs of 2 f32",
            mainWith("(%a: tensor<2xf32>) -> tensor<2xf32>",
                "  %0 = stablehlo.abs %a : tensor<2xf32>\n  return %0 : tensor<2xf32>"),
            2, 0, 16);
        row("exponential counts transcendentals, not flops",
            mainWith("(%a: tensor<8x8xf32>) -> tensor<8x8xf32>",
                "  %0 = stablehlo.exponential %a : tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>"),
            0, 64, 512);
        row("power reads both inputs (hespas counts one)",
            mainWith("(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32>",
                "  %0 = stablehlo.power %a, %b : tensor<4xf32>\n  return %0 : tensor<4xf32>"),
            0, 4, 48);
        row("clamp costs 2 flops per element",
            mainWith("(%lo: tensor<f32>, %a: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32>",
                "  %0 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>\n"
                "  return %0 : tensor<4xf32>"),
            8, 0, 4 + 16 + 4 + 16);
        row("convert: no flops, bytes in + out",
            mainWith("(%a: tensor<4x4xf32>) -> tensor<4x4xbf16>",
                "  %0 = stablehlo.convert %a : (tensor<4x4xf32>) -> tensor<4x4xbf16>\n  return %0 : tensor<4x4xbf16>"),
            0, 0, 64 + 32);
        row("broadcast_in_dim unfused: bytes in + out",
            mainWith("(%a: tensor<4xf32>) -> tensor<3x4xf32>",
                "  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n"
                "  return %0 : tensor<3x4xf32>"),
            0, 0, 16 + 48);
        row("reshape and constants are free",
            mainWith("(%a: tensor<4x4xf32>) -> tensor<16xf32>",
                "  %c = stablehlo.constant dense<1.0> : tensor<16xf32>\n"
                "  %0 = stablehlo.reshape %a : (tensor<4x4xf32>) -> tensor<16xf32>\n  return %0 : tensor<16xf32>"),
            0, 0, 0);
        row("slice reads and writes its result",
            mainWith("(%a: tensor<8x8xf32>) -> tensor<2x8xf32>",
                "  %0 = stablehlo.slice %a [0:2, 0:8] : (tensor<8x8xf32>) -> tensor<2x8xf32>\n"
                "  return %0 : tensor<2x8xf32>"),
            0, 0, 128);
        row("dynamic_update_slice is in place: 2*b(update)",
            mainWith("(%a: tensor<8x8xf32>, %u: tensor<2x8xf32>, %i: tensor<i32>) -> tensor<8x8xf32>",
                "  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<8x8xf32>, tensor<2x8xf32>, "
                "tensor<i32>, tensor<i32>) -> tensor<8x8xf32>\n  return %0 : tensor<8x8xf32>"),
            0, 0, 128);
        row("iota writes its result",
            mainWith(
                "() -> tensor<16xi32>", "  %0 = stablehlo.iota dim = 0 : tensor<16xi32>\n  return %0 : tensor<16xi32>"),
            0, 0, 64);
        row("gather: b(indices) + 2*b(out)",
            mainWith("(%a: tensor<100x8xf32>, %i: tensor<5x1xi32>) -> tensor<5x8xf32>",
                "  %0 = \"stablehlo.gather\"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], "
                "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, "
                "8>} "
                ": (tensor<100x8xf32>, tensor<5x1xi32>) -> tensor<5x8xf32>\n  return %0 : tensor<5x8xf32>"),
            0, 0, 20 + 2 * 160);
        row("scatter counts its updates (hespas forgets them)",
            mainWith("(%a: tensor<10xf32>, %i: tensor<3x1xi32>, %u: tensor<3xf32>) -> tensor<10xf32>",
                "  %0 = \"stablehlo.scatter\"(%a, %i, %u) ({\n"
                "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                "    %s = stablehlo.add %x, %y : tensor<f32>\n"
                "    stablehlo.return %s : tensor<f32>\n"
                "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
                "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : "
                "(tensor<10xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<10xf32>\n  return %0 : tensor<10xf32>"),
            3, 0, 12 + 12 + 2 * 12);
        row("reduce_window: N(out) * window * body",
            mainWith("(%a: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>",
                "  %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %0 = \"stablehlo.reduce_window\"(%a, %cst) <{window_dimensions = array<i64: 1, 2, 2, 1>, "
                "window_strides = array<i64: 1, 2, 2, 1>}> ({\n"
                "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                "    %m = stablehlo.maximum %x, %y : tensor<f32>\n"
                "    stablehlo.return %m : tensor<f32>\n"
                "  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>\n  return %0 : tensor<1x2x2x1xf32>"),
            4 * 4, 0, 64 + 16);
        row("select_and_scatter: window selects + scatter adds",
            mainWith("(%a: tensor<1x4x4x1xf32>, %s: tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32>",
                "  %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %0 = \"stablehlo.select_and_scatter\"(%a, %s, %cst) <{window_dimensions = array<i64: 1, 2, 2, 1>, "
                "window_strides = array<i64: 1, 2, 2, 1>}> ({\n"
                "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                "    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                "    stablehlo.return %c : tensor<i1>\n"
                "  }, {\n"
                "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                "    %t = stablehlo.add %x, %y : tensor<f32>\n"
                "    stablehlo.return %t : tensor<f32>\n"
                "  }) : (tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>, tensor<f32>) -> tensor<1x4x4x1xf32>\n"
                "  return %0 : tensor<1x4x4x1xf32>"),
            4 * 4 + 4, 0, 64 + 16 + 64);
        row("sort: m * n * ceil(log2 n) comparisons",
            mainWith("(%a: tensor<4x8xf32>) -> tensor<4x8xf32>",
                "  %0 = \"stablehlo.sort\"(%a) ({\n"
                "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
                "    %c = stablehlo.compare GT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                "    stablehlo.return %c : tensor<i1>\n"
                "  }) {dimension = 1 : i64, is_stable = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
                "  return %0 : tensor<4x8xf32>"),
            4 * 8 * 3, 0, 256);
        row("custom_call @Sharding is a free marker",
            mainWith("(%a: tensor<8xf32>) -> tensor<8xf32>",
                "  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = \"{replicated}\"} : "
                "(tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>"),
            0, 0, 0);
        row("custom_call @TopK is sort-like",
            mainWith("(%a: tensor<16x8xbf16>) -> tuple<tensor<16x2xbf16>, tensor<16x2xi32>>",
                "  %0 = stablehlo.custom_call @TopK(%a) {backend_config = \"\"} : (tensor<16x8xbf16>) -> "
                "tuple<tensor<16x2xbf16>, tensor<16x2xi32>>\n  return %0 : tuple<tensor<16x2xbf16>, tensor<16x2xi32>>"),
            16 * 8 * 3, 0, 256 + 64 + 128);
        // Convolutions by their dimension numbers (hlo-reference §3.3: hespas gets the input gradient wrong).
        auto conv = [](const std::string& lhs, const std::string& rhs, const std::string& out,
                        const std::string& numbers, const std::string& window, int groups) {
            return mainWith("(%x: " + lhs + ", %w: " + rhs + ") -> " + out,
                "  %0 = stablehlo.convolution(%x, %w) dim_numbers = " + numbers + ", window = {" + window
                    + "} {batch_group_count = 1 : i64, feature_group_count = " + std::to_string(groups) + " : i64} : ("
                    + lhs + ", " + rhs + ") -> " + out + "\n  return %0 : " + out);
        };
        row("convolution forward NHWC/HWIO: 2*N(out)*kh*kw*Cin",
            conv("tensor<1x6x6x3xf32>", "tensor<3x3x3x8xf32>", "tensor<1x4x4x8xf32>",
                "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "stride = [1, 1]", 1),
            2.0 * 128 * 27, 0, (108 + 216 + 128) * 4);
        row("convolution input gradient [b,0,1,f]x[0,1,o,i]: multiplies by the contracted features (8)",
            conv("tensor<1x6x6x8xf32>", "tensor<3x3x2x8xf32>", "tensor<1x4x4x2xf32>",
                "[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]", "stride = [1, 1]", 1),
            2.0 * 32 * 72, 0, (288 + 144 + 32) * 4);
        row("convolution weight gradient [f,0,1,b]x[i,0,1,o]->[0,1,b,f]",
            conv("tensor<2x6x6x3xf32>", "tensor<2x4x4x5xf32>", "tensor<3x3x3x5xf32>",
                "[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]", "stride = [1, 1]", 1),
            2.0 * 135 * 32, 0, (216 + 160 + 135) * 4);
        row("grouped convolution: kernel i is C_in / groups",
            conv("tensor<1x6x6x8xf32>", "tensor<3x3x2x8xf32>", "tensor<1x4x4x8xf32>",
                "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "stride = [1, 1]", 4),
            2.0 * 128 * 18, 0, (288 + 144 + 128) * 4);
        // 4 outputs x 3 taps per dim, 2 of the 12 pairs fall on padding: 10 x 10 real taps.
        row("convolution with padding: taps on the padding are not multiplications",
            conv("tensor<1x4x4x1xf32>", "tensor<3x3x1x1xf32>", "tensor<1x4x4x1xf32>",
                "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "stride = [1, 1], pad = [[1, 1], [1, 1]]", 1),
            2.0 * 100, 0, (16 + 9 + 16) * 4);
        // Input gradient of a stride-2 conv: lhs dilated by 2, so a 1x1 kernel lands on a real input
        // at every second output only; the work equals the forward conv's, not 4 times it.
        row("convolution over an lhs dilation counts real inputs only",
            conv("tensor<1x4x4x8xf32>", "tensor<1x1x2x8xf32>", "tensor<1x8x8x2xf32>",
                "[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]",
                "stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [2, 2]", 1),
            2.0 * 2 * 8 * 16, 0, (128 + 16 + 128) * 4);
    }

    void opCosts()
    {
        QFETCH(QString, mlir);
        QFETCH(double, flops);
        QFETCH(double, transcendentals);
        QFETCH(double, bytes);
        const Flattened f = flattenText(mlir.toStdString());
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY2(f.program.ok(), f.program.errors.empty() ? "" : f.program.errors.front().c_str());
        QVERIFY(f.program.unknownOps.empty());
        QCOMPARE(f.program.totalFlops(), flops);
        QCOMPARE(totalTranscendentals(f.program), transcendentals);
        QCOMPARE(f.program.totalBytes(), bytes);
    }

    // hespas/convolution.mlir: [1,4,4,1] i64 input dilated by 2 (7x7 with holes), 3x3 kernel, stride 4,
    // output [1,2,2,1]. Per spatial dim the windows [0,2] and [4,6] each cover 2 real inputs, so
    // 4 outputs * 2*2 taps * 2 = 32 FLOPs (hespas counts the holes too: 72). Bytes (16 + 9 + 4) * 8.
    void hespasConvolutionFixture()
    {
        const QString path = fixtureDir() + QStringLiteral("/hespas/convolution.mlir");
        const Flattened f = flattenFile(path.toStdString());
        QVERIFY2(f.ok(), f.error.c_str());
        QCOMPARE(f.program.totalFlops(), 32.0);
        QCOMPARE(f.program.totalBytes(), 232.0);
        const FlatOp* conv = findOp(f.program, "stablehlo.convolution");
        QVERIFY(conv);
        QVERIFY(conv->cost.matrixUnit);
        QCOMPARE(conv->cost.peakType, std::string("i64"));
    }

    void peakTypes_data()
    {
        QTest::addColumn<QString>("mlir");
        QTest::addColumn<QString>("opName");
        QTest::addColumn<QString>("peakType");
        QTest::addColumn<bool>("matrixUnit");
        QTest::addRow("bf16 dot with f32 result uses its operand type")
            << QString::fromStdString(mainWith("(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>) -> tensor<4x4xf32>",
                   "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, "
                   "tensor<8x4xbf16>) -> tensor<4x4xf32>\n  return %0 : tensor<4x4xf32>"))
            << QStringLiteral("stablehlo.dot_general") << QStringLiteral("bf16") << true;
        QTest::addRow("convert f16 to f32 picks the widest float")
            << QString::fromStdString(mainWith("(%a: tensor<4xf16>) -> tensor<4xf32>",
                   "  %0 = stablehlo.convert %a : (tensor<4xf16>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>"))
            << QStringLiteral("stablehlo.convert") << QStringLiteral("f32") << false;
        QTest::addRow("integer compare picks the widest integer")
            << QString::fromStdString(mainWith("(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi1>",
                   "  %0 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>\n"
                   "  return %0 : tensor<4xi1>"))
            << QStringLiteral("stablehlo.compare") << QStringLiteral("i32") << false;
        QTest::addRow("select of f16 with an i1 predicate")
            << QString::fromStdString(mainWith("(%p: tensor<4xi1>, %a: tensor<4xf16>) -> tensor<4xf16>",
                   "  %0 = stablehlo.select %p, %a, %a : tensor<4xi1>, tensor<4xf16>\n  return %0 : tensor<4xf16>"))
            << QStringLiteral("stablehlo.select") << QStringLiteral("f16") << false;
    }

    void peakTypes()
    {
        QFETCH(QString, mlir);
        QFETCH(QString, opName);
        QFETCH(QString, peakType);
        QFETCH(bool, matrixUnit);
        const Flattened f = flattenText(mlir.toStdString());
        QVERIFY2(f.ok(), f.error.c_str());
        const FlatOp* op = findOp(f.program, opName.toStdString());
        QVERIFY(op);
        QCOMPARE(QString::fromStdString(op->cost.peakType), peakType);
        QCOMPARE(op->cost.matrixUnit, matrixUnit);
    }

    void costOfOpStandalone()
    {
        const Flattened f = flattenText(mainWith("(%a: tensor<4xf32>) -> tensor<8xf32>",
            "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n"
            "  %1 = \"foo.bar\"(%0) : (tensor<4xf32>) -> tensor<8xf32>\n  return %1 : tensor<8xf32>"));
        QVERIFY2(f.ok(), f.error.c_str());
        const Block& body = f.module->functions.front().body.blocks.front();
        bool known = false;
        const OpCost add = costOfOp(body.ops[0], known);
        QVERIFY(known);
        QCOMPARE(add.flops, 4.0);
        QCOMPARE(add.bytesRead, 32.0);
        QCOMPARE(add.bytesWritten, 16.0);
        const OpCost unknown = costOfOp(body.ops[1], known);
        QVERIFY(!known);
        QCOMPARE(unknown.flops, 0.0);
        QCOMPARE(unknown.bytes(), 16.0 + 32.0);
    }

    void collectiveKindNames()
    {
        for (CollectiveKind kind :
            { CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                CollectiveKind::AllToAll, CollectiveKind::CollectivePermute, CollectiveKind::CollectiveBroadcast }) {
            const std::string name = std::string("stablehlo.") + toString(kind);
            QCOMPARE(collectiveKindFromOpName(name), std::optional<CollectiveKind>(kind));
        }
        QCOMPARE(collectiveKindFromOpName("stablehlo.add"), std::optional<CollectiveKind>());
        QCOMPARE(collectiveKindFromOpName("all_reduce_like.thing"), std::optional<CollectiveKind>());
    }

    // A function called three times counts three times, each call site with its own ops.
    void callsCountAtEachCallSite()
    {
        const Flattened f = flattenText(R"(
func.func private @layer(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = func.call @layer(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = call @layer(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = func.call @layer(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.ok());
        QCOMPARE(countOps(f.program, "stablehlo.add"), 3);
        QCOMPARE(f.program.totalFlops(), 48.0);
        std::vector<std::uint32_t> adds;
        for (std::uint32_t i = 0; i < f.program.ops.size(); ++i)
            if (f.program.ops[i].op->name == "stablehlo.add") {
                adds.push_back(i);
                QCOMPARE(f.program.ops[i].function, std::string("layer"));
            }
        // Data flows from one call site to the next, and out to the return.
        QVERIFY(f.program.ops[adds[0]].inputs.empty());
        QCOMPARE(f.program.ops[adds[0]].operandSources, std::vector<std::int32_t>({ -1, -1 }));
        QCOMPARE(f.program.ops[adds[1]].inputs, std::vector<std::uint32_t>({ adds[0] }));
        QCOMPARE(f.program.ops[adds[2]].inputs, std::vector<std::uint32_t>({ adds[1] }));
        const FlatOp& ret = f.program.ops.back();
        QCOMPARE(ret.op->name, std::string("func.return"));
        QCOMPARE(ret.inputs, std::vector<std::uint32_t>({ adds[2] }));
        // Repeated layers have equal signatures, free of value names and locations.
        QCOMPARE(f.program.ops[adds[0]].signature, f.program.ops[adds[2]].signature);
        QVERIFY(f.program.ops[adds[0]].signature.find('%') == std::string::npos);
    }

    // composite: the cost of its decomposition function, inlined like a call.
    void compositeCostsItsDecomposition()
    {
        const Flattened f = flattenText(R"(
module @m {
  func.func private @add_impl(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = stablehlo.add %a, %b : tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
  func.func public @main(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = stablehlo.composite "my.add" %a, %b {decomposition = @add_impl} : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %1 = stablehlo.negate %0 : tensor<64x128xf32>
    return %1 : tensor<64x128xf32>
  }
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.ok());
        QVERIFY(f.program.unknownOps.empty());
        QCOMPARE(f.program.totalFlops(), 2 * 64 * 128.0);
        const FlatOp* add = findOp(f.program, "stablehlo.add");
        const FlatOp* negate = findOp(f.program, "stablehlo.negate");
        QVERIFY(add && negate);
        QCOMPARE(negate->inputs, std::vector<std::uint32_t>({ std::uint32_t(add - f.program.ops.data()) }));
    }

    void callErrors_data()
    {
        QTest::addColumn<QString>("mlir");
        QTest::addColumn<QString>("error");
        QTest::addRow("missing callee is named") << QStringLiteral(
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = func.call @nowhere(%a) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n")
                                                 << QStringLiteral("call to missing function @nowhere");
        QTest::addRow("recursion is an error") << QStringLiteral(
            "func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n"
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n")
                                               << QStringLiteral("recursive call to @f");
    }

    void callErrors()
    {
        QFETCH(QString, mlir);
        QFETCH(QString, error);
        const Flattened f = flattenText(mlir.toStdString());
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(!f.program.ok());
        QVERIFY2(QString::fromStdString(f.program.errors.front()).contains(error), f.program.errors.front().c_str());
        QVERIFY(QString::fromStdString(f.program.errors.front()).startsWith(QLatin1String("test.mlir:")));
    }

    // 30 levels each calling the next twice would inline 2^30 ops: refused up front.
    void callGraphTooLargeIsRefused()
    {
        std::string text = "func.func private @f30(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                           "  %0 = stablehlo.negate %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
        for (int level = 29; level >= 0; --level) {
            const std::string name = level == 0 ? "main" : "f" + std::to_string(level);
            const std::string callee = "@f" + std::to_string(level + 1);
            text += "func.func " + std::string(level == 0 ? "" : "private ") + "@" + name
                + "(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = func.call " + callee
                + "(%a) : (tensor<4xf32>) -> tensor<4xf32>\n  %1 = func.call " + callee
                + "(%0) : (tensor<4xf32>) -> tensor<4xf32>\n  return %1 : tensor<4xf32>\n}\n";
        }
        const Flattened f = flattenText(text);
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(!f.program.ok());
        QVERIFY2(QString::fromStdString(f.program.errors.front()).contains(QLatin1String("ops with its calls inlined")),
            f.program.errors.front().c_str());
        QVERIFY(f.program.ops.empty());
    }

    void missingEntryFunction()
    {
        FlattenOptions options;
        options.entryFunction = "nope";
        const Flattened f
            = flattenText(mainWith("(%a: tensor<4xf32>) -> tensor<4xf32>", "  return %a : tensor<4xf32>"), options);
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(!f.program.ok());
        QVERIFY(QString::fromStdString(f.program.errors.front()).contains(QLatin1String("@nope")));
    }

    // JAX scan: counter from a constant, compared LT against a constant, +1 per iteration: T = 12 − 2.
    void whileScanPattern()
    {
        const Flattened f = flattenText(kScanLoop);
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.ok());
        QVERIFY(f.program.warnings.empty());
        const FlatOp* multiply = findOp(f.program, "stablehlo.multiply");
        const FlatOp* compare = findOp(f.program, "stablehlo.compare");
        QVERIFY(multiply && compare);
        QCOMPARE(multiply->executions, 10.0);
        QCOMPARE(compare->executions, 11.0);
        QCOMPARE(f.program.totalFlops(), 10 * 4 + 10 * 1 + 11 * 1.0);
        // The loop result comes from the body's last producer.
        const FlatOp& ret = f.program.ops.back();
        QCOMPARE(ret.inputs.size(), std::size_t(1));
        QCOMPARE(f.program.ops[ret.inputs.front()].op->name, std::string("stablehlo.multiply"));
    }

    void whileTripCounts_data()
    {
        QTest::addColumn<QString>("mlir");
        QTest::addColumn<double>("bodyExecutions");
        auto loop = [](const std::string& init, const std::string& direction, const std::string& bound,
                        const std::string& step, const std::string& prelude = "") {
            return QString::fromStdString(R"(
func.func private @limit() -> tensor<i64> {
  %c = stablehlo.constant dense<9> : tensor<i64>
  return %c : tensor<i64>
}
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
)" + prelude + "  %c0 = stablehlo.constant dense<"
                + init + R"(> : tensor<i64>
  %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %arg0) : tensor<i64>, tensor<4xf32>
   cond {
)" + bound + "    %1 = stablehlo.compare  "
                + direction + R"(, tensor<i64>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<4xf32>
    %c_1 = stablehlo.constant dense<)"
                + step + R"(> : tensor<i64>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i64>
    stablehlo.return %2, %1 : tensor<i64>, tensor<4xf32>
  }
  return %0#1 : tensor<4xf32>
}
)");
        };
        const std::string constBound = "    %c = stablehlo.constant dense<10> : tensor<i64>\n";
        QTest::addRow("LT 0..10 step 1") << loop("0", "LT, %iterArg, %c,  SIGNED : (tensor<i64>", constBound, "1")
                                         << 10.0;
        QTest::addRow("LE 0..10 step 1") << loop("0", "LE, %iterArg, %c,  SIGNED : (tensor<i64>", constBound, "1")
                                         << 11.0;
        QTest::addRow("LT 0..10 step 3") << loop("0", "LT, %iterArg, %c,  SIGNED : (tensor<i64>", constBound, "3")
                                         << 4.0;
        QTest::addRow("NE 0..10 step 2") << loop("0", "NE, %iterArg, %c,  SIGNED : (tensor<i64>", constBound, "2")
                                         << 5.0;
        QTest::addRow("GT counting down 20..10 step -2")
            << loop("20", "GT, %iterArg, %c,  SIGNED : (tensor<i64>", constBound, "-2") << 5.0;
        QTest::addRow("counter on the right: 10 > i")
            << loop("4", "GT, %c, %iterArg,  SIGNED : (tensor<i64>", constBound, "1") << 6.0;
        QTest::addRow("bound through convert of a scalar") << loop("0", "LT, %iterArg, %cc,  SIGNED : (tensor<i64>",
            "    %c = stablehlo.constant dense<7> : tensor<i32>\n"
            "    %cc = stablehlo.convert %c : (tensor<i32>) -> tensor<i64>\n",
            "1") << 7.0;
        QTest::addRow("bound returned by a called function") << loop(
            "0", "LT, %iterArg, %c,  SIGNED : (tensor<i64>", "    %c = func.call @limit() : () -> tensor<i64>\n", "1")
                                                             << 9.0;
    }

    void whileTripCounts()
    {
        QFETCH(QString, mlir);
        QFETCH(double, bodyExecutions);
        const Flattened f = flattenText(mlir.toStdString());
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.warnings.empty());
        const FlatOp* multiply = findOp(f.program, "stablehlo.multiply");
        QVERIFY(multiply);
        QCOMPARE(multiply->executions, bodyExecutions);
        QCOMPARE(findOp(f.program, "stablehlo.compare")->executions, bodyExecutions + 1);
    }

    // print_while.mlir style: the bound is a carried value the body passes through unchanged, and the
    // step is a constant defined outside the loop.
    void whileCarriedBound()
    {
        const Flattened f = flattenText(R"(
func.func @main() -> tensor<i32> {
  %cst_0 = stablehlo.constant dense<1> : tensor<i32>
  %cst_1 = stablehlo.constant dense<0> : tensor<i32>
  %cst_2 = stablehlo.constant dense<1000> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %cst_1, %iterArg_4 = %cst_2) : tensor<i32>, tensor<i32>
   cond {
    %1 = "stablehlo.compare"(%iterArg, %iterArg_4) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%1) : (tensor<i1>) -> ()
  } do {
    %1 = stablehlo.add %iterArg, %cst_0 : tensor<i32>
    "stablehlo.return"(%1, %iterArg_4) : (tensor<i32>, tensor<i32>) -> ()
  }
  return %0#0 : tensor<i32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.warnings.empty());
        QCOMPARE(findOp(f.program, "stablehlo.add")->executions, 1000.0);
    }

    // A loop inside a function called with the initial counter as an argument.
    void whileInitThroughCall()
    {
        const Flattened f = flattenText(R"(
func.func private @run(%start: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = stablehlo.while(%iterArg = %start, %iterArg_0 = %x) : tensor<i32>, tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<8> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.tanh %iterArg_0 : tensor<4xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>
  }
  return %0#1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c6 = stablehlo.constant dense<6> : tensor<i32>
  %0 = func.call @run(%c3, %x) : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @run(%c6, %0) : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.warnings.empty());
        std::vector<double> executions;
        for (const FlatOp& op : f.program.ops)
            if (op.op->name == "stablehlo.tanh")
                executions.push_back(op.executions);
        QCOMPARE(executions, std::vector<double>({ 5.0, 2.0 }));
        QCOMPARE(totalTranscendentals(f.program), 7 * 4.0);
    }

    // A generate loop whose condition depends on data: the default trip count, with a located warning.
    void whileDataDependent()
    {
        FlattenOptions options;
        options.defaultTripCount = 7;
        const Flattened f = flattenText(R"(
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<4xf32>
   cond {
    %cst = stablehlo.constant dense<0.0> : tensor<f32>
    %init = stablehlo.constant dense<true> : tensor<i1>
    %r = stablehlo.reduce(%iterArg init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.compare  GT, %r, %cst,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
)",
            options);
        QVERIFY2(f.ok(), f.error.c_str());
        QCOMPARE(findOp(f.program, "stablehlo.negate")->executions, 7.0);
        QCOMPARE(findOp(f.program, "stablehlo.reduce")->executions, 8.0);
        QCOMPARE(f.program.warnings.size(), std::size_t(1));
        const QString warning = QString::fromStdString(f.program.warnings.front());
        QVERIFY2(warning.startsWith(QLatin1String("test.mlir:3:")), qPrintable(warning));
        QVERIFY2(warning.contains(QLatin1String("while loop at 3:"))
                && warning.contains(QLatin1String("trip count not inferred; using 7")),
            qPrintable(warning));
    }

    // case: the most expensive branch stands for the op.
    void caseTakesTheHeaviestBranch()
    {
        const Flattened f = flattenText(R"(
func.func @main(%i: tensor<i32>, %a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.case"(%i) ({
    %1 = stablehlo.negate %a : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }, {
    %1 = stablehlo.multiply %a, %a : tensor<8xf32>
    %2 = stablehlo.add %1, %a : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        QCOMPARE(f.program.totalFlops(), 16.0);
        QVERIFY(!findOp(f.program, "stablehlo.negate"));
        QCOMPARE(f.program.ops[f.program.ops.back().inputs.front()].op->name, std::string("stablehlo.add"));
    }

    void unknownOpsCostedAsTraffic()
    {
        const Flattened f = flattenText(mainWith("(%a: tensor<4xf32>) -> tensor<8xf32>",
            "  %0 = \"foo.bar\"(%a) : (tensor<4xf32>) -> tensor<8xf32>\n"
            "  %1 = \"foo.bar\"(%a) : (tensor<4xf32>) -> tensor<8xf32>\n"
            "  %2 = stablehlo.custom_call @my_kernel(%0) : (tensor<8xf32>) -> tensor<8xf32>\n"
            "  %3 = stablehlo.add %1, %2 : tensor<8xf32>\n  return %3 : tensor<8xf32>"));
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.ok());
        QCOMPARE(f.program.unknownOps, std::vector<std::string>({ "foo.bar", "stablehlo.custom_call @my_kernel" }));
        QCOMPARE(f.program.warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(f.program.warnings.front())
                     .contains(QLatin1String(
                         "3 ops of unknown kind costed as memory traffic: foo.bar, stablehlo.custom_call @my_kernel")),
            f.program.warnings.front().c_str());
        QVERIFY(!findOp(f.program, "foo.bar")->known);
        QCOMPARE(f.program.totalBytes(), 2 * (16 + 32.0) + (32 + 32) + (32 + 32 + 32));
        QCOMPARE(f.program.totalFlops(), 8.0);
    }

    void collectives_data()
    {
        QTest::addColumn<QString>("mlir");
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("groupSize");
        QTest::addColumn<int>("groupCount");
        QTest::addColumn<double>("operandBytes");
        QTest::addColumn<double>("resultBytes");
        QTest::addColumn<double>("flops");
        QTest::addColumn<qint64>("pairs");
        const std::string reducer
            = " ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
              "    %s = stablehlo.add %x, %y : tensor<f32>\n    stablehlo.return %s : tensor<f32>\n  })";
        auto body = [](const std::string& op, const std::string& result) {
            return QString::fromStdString(
                mainWith("(%a: tensor<8xf32>, %b: tensor<4xf32>) -> " + result, op + "\n  return %0 : " + result));
        };
        QTest::addRow("all_reduce in 2 groups of 2: (n-1)/n of the elements reduced")
            << body("  %0 = \"stablehlo.all_reduce\"(%a) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}>"
                       + reducer + " : (tensor<8xf32>) -> tensor<8xf32>",
                   "tensor<8xf32>")
            << int(CollectiveKind::AllReduce) << qint64(2) << 2 << 32.0 << 32.0 << 4.0 << qint64(0);
        QTest::addRow("variadic all_reduce sums its operands") << QString::fromStdString(
            mainWith("(%a: tensor<8xf32>, %b: tensor<4xf32>) -> tensor<8xf32>",
                "  %0:2 = \"stablehlo.all_reduce\"(%a, %b) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}>"
                    + reducer
                    + " : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)\n"
                      "  return %0#0 : tensor<8xf32>")) << int(CollectiveKind::AllReduce)
                                                               << qint64(4) << 1 << 48.0 << 48.0 << 9.0 << qint64(0);
        QTest::addRow("all_gather result is n times the operand") << body(
            "  %0 = \"stablehlo.all_gather\"(%b) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> "
            ": tensor<1x4xi64>}> : (tensor<4xf32>) -> tensor<16xf32>",
            "tensor<16xf32>") << int(CollectiveKind::AllGather) << qint64(4)
                                                                  << 1 << 16.0 << 64.0 << 0.0 << qint64(0);
        QTest::addRow("reduce_scatter") << body(
            "  %0 = \"stablehlo.reduce_scatter\"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, "
            "scatter_dimension = 0 : i64}>"
                + reducer + " : (tensor<8xf32>) -> tensor<4xf32>",
            "tensor<4xf32>") << int(CollectiveKind::ReduceScatter)
                                        << qint64(2) << 1 << 32.0 << 16.0 << 4.0 << qint64(0);
        QTest::addRow("all_to_all") << body(
            "  %0 = \"stablehlo.all_to_all\"(%a) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : "
            "tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<8xf32>) -> tensor<8xf32>",
            "tensor<8xf32>") << int(CollectiveKind::AllToAll)
                                    << qint64(2) << 1 << 32.0 << 32.0 << 0.0 << qint64(0);
        QTest::addRow("collective_permute: pairs and the devices they touch") << body(
            "  %0 = \"stablehlo.collective_permute\"(%a) <{source_target_pairs = dense<[[0, 1], [1, 2], [2, 3]]> : "
            "tensor<3x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>",
            "tensor<8xf32>") << int(CollectiveKind::CollectivePermute) << qint64(4)
                                                                              << 1 << 32.0 << 32.0 << 0.0 << qint64(3);
        QTest::addRow("collective_broadcast") << body(
            "  %0 = \"stablehlo.collective_broadcast\"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> "
            ": (tensor<8xf32>) -> tensor<8xf32>",
            "tensor<8xf32>") << int(CollectiveKind::CollectiveBroadcast)
                                              << qint64(2) << 1 << 32.0 << 32.0 << 0.0 << qint64(0);
        QTest::addRow("empty replica groups: all devices of the system")
            << body("  %0 = \"stablehlo.all_reduce\"(%a) <{replica_groups = dense<> : tensor<0x0xi64>}>" + reducer
                       + " : (tensor<8xf32>) -> tensor<8xf32>",
                   "tensor<8xf32>")
            << int(CollectiveKind::AllReduce) << qint64(8) << 0 << 32.0 << 32.0 << 7.0 << qint64(0);
    }

    void collectives()
    {
        QFETCH(QString, mlir);
        QFETCH(int, kind);
        QFETCH(qint64, groupSize);
        QFETCH(int, groupCount);
        QFETCH(double, operandBytes);
        QFETCH(double, resultBytes);
        QFETCH(double, flops);
        QFETCH(qint64, pairs);
        FlattenOptions options;
        options.deviceCount = 8;
        const Flattened f = flattenText(mlir.toStdString(), options);
        QVERIFY2(f.ok(), f.error.c_str());
        const FlatOp* collective = nullptr;
        for (const FlatOp& op : f.program.ops)
            if (op.opClass == OpClass::Collective)
                collective = &op;
        QVERIFY(collective && collective->collective);
        const CollectiveInfo& info = *collective->collective;
        QCOMPARE(int(info.kind), kind);
        QCOMPARE(qint64(info.groupSize), groupSize);
        QCOMPARE(int(info.groups.size()), groupCount);
        QCOMPARE(info.operandBytes, operandBytes);
        QCOMPARE(info.resultBytes, resultBytes);
        QCOMPARE(collective->cost.flops, flops);
        QCOMPARE(qint64(info.pairCount), pairs);
        QCOMPARE(qint64(info.pairs.size()), pairs); // each pair kept, for the network to price on its path
        if (pairs == 3)
            QCOMPARE(info.pairs[1], (std::pair<std::int64_t, std::int64_t>(1, 2)));
        QCOMPARE(f.program.totalFlops(), 0.0); // collectives are not compute
    }

    void shardingsWithoutCollectivesWarn_data()
    {
        QTest::addColumn<QString>("mlir");
        QTest::addColumn<bool>("warns");
        QTest::addRow("mhlo.sharding, no collective") << QString::fromUtf8(R"(
module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)") << true;
        QTest::addRow("sdy.sharding, no collective") << QString::fromUtf8(R"(
module @m {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)") << true;
        QTest::addRow("shardings and an explicit all_reduce") << QString::fromUtf8(R"(
module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x4xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)") << false;
        QTest::addRow("no shardings at all") << QString::fromStdString(mainWith("(%a: tensor<4xf32>) -> tensor<4xf32>",
            "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>"))
                                             << false;
        // Shardings that split nothing say nothing about partitioning.
        for (const char* sharding : { "", "{replicated}", "{maximal device=0}" })
            QTest::addRow("mhlo.sharding = \"%s\"", sharding) << QString::fromUtf8(R"(
module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = ")"
                + std::string(sharding) + R"("}) -> tensor<8x4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)") << false;
    }

    void shardingsWithoutCollectivesWarn()
    {
        QFETCH(QString, mlir);
        QFETCH(bool, warns);
        const Flattened f = flattenText(mlir.toStdString());
        QVERIFY2(f.ok(), f.error.c_str());
        QCOMPARE(hasWarning(f.program, "carries tiled shardings but no explicit collectives"), warns);
        // The add follows its argument's sharding: costed at its local half, nothing left at global shape.
        QVERIFY(!hasWarning(f.program, "compute op(s) have no sharding of their own"));
        if (warns)
            QCOMPARE(f.program.shardedOps, std::int64_t(1));
    }

    // A pre-partitioned module whose ops carry their own result shardings (Shardy, as tt-mlir's
    // sdy_presharded): each op is costed at its local piece; mhlo.sharding strings likewise.
    void annotatedOpsAreCostedPerDevice()
    {
        const Flattened sdy = flattenText(R"(
module @m {
  sdy.mesh @mesh = <["batch"=2, "model"=4]>
  func.func public @main(%arg0: tensor<32x784xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, %arg1: tensor<784x2048xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> tensor<32x2048xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}]>]>} : (tensor<32x784xf32>, tensor<784x2048xf32>) -> tensor<32x2048xf32>
    %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}]>]>} : tensor<32x2048xf32>
    return %1 : tensor<32x2048xf32>
  }
}
)");
        QVERIFY2(sdy.ok(), sdy.error.c_str());
        QCOMPARE(sdy.program.shardedOps, std::int64_t(2));
        QCOMPARE(sdy.program.globalShapeOps, std::int64_t(0));
        // 2·32·784·2048 FLOPs over 2 × 4 devices, and the add's 32·2048 over 8.
        QCOMPARE(sdy.program.totalFlops(), 2.0 * 32 * 784 * 2048 / 8 + 32.0 * 2048 / 8);
        // The fused kernel's boundary bytes are the local pieces too: both inputs and the result, /8.
        const FusionResult fused = fuseProgram(sdy.program);
        QCOMPARE(int(fused.kernels.size()), 1);
        QCOMPARE(fused.kernels[0].bytes, (32.0 * 784 + 784.0 * 2048 + 32.0 * 2048) * 4 / 8);
        QCOMPARE(mhloShardCount("{devices=[8,1]<=[8]}"), std::optional<std::int64_t>(8));
        QCOMPARE(mhloShardCount("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"), std::optional<std::int64_t>(2));
        QCOMPARE(mhloShardCount("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}"),
            std::optional<std::int64_t>(2));
        QCOMPARE(mhloShardCount("{replicated}"), std::optional<std::int64_t>(1));
        QCOMPARE(mhloShardCount("{{devices=[4]<=[4]}, {replicated}}"), std::optional<std::int64_t>(4));
        QVERIFY(!mhloShardCount(""));
        QVERIFY(!mhloShardCount("{unknown form}"));
        // Only the arguments annotated (an "auto" export): pieces follow through the ops whose
        // semantics say how; where operands disagree (the bias add reads [2,4] and [1,4] pieces:
        // the partitioner would reshard) the op stays at its global shape and is counted.
        const Flattened args = flattenText(R"(
module @m {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%x: tensor<32x784xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %w: tensor<784x2048xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %b: tensor<2048xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}) -> (tensor<32x2048xf32>, tensor<32xf32>) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x784xf32>, tensor<784x2048xf32>) -> tensor<32x2048xf32>
    %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2048xf32>) -> tensor<32x2048xf32>
    %2 = stablehlo.add %0, %1 : tensor<32x2048xf32>
    %3 = stablehlo.multiply %0, %0 : tensor<32x2048xf32>
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<32x2048xf32>, tensor<f32>) -> tensor<32xf32>
    return %2, %4 : tensor<32x2048xf32>, tensor<32xf32>
  }
}
)");
        QVERIFY2(args.ok(), args.error.c_str());
        double dotFlops = 0, multiplyFlops = 0, addFlops = 0;
        for (const FlatOp& op : args.program.ops) {
            if (op.op->name == "stablehlo.dot_general")
                dotFlops = op.cost.flops;
            else if (op.op->name == "stablehlo.multiply")
                multiplyFlops = op.cost.flops;
            else if (op.op->name == "stablehlo.add")
                addFlops = op.cost.flops;
        }
        QCOMPARE(dotFlops, 2.0 * 32 * 784 * 2048 / 8); // [data, model] pieces of the result
        QCOMPARE(multiplyFlops, 32.0 * 2048 / 8);
        QCOMPARE(addFlops, 32.0 * 2048); // operands split differently: global shape
        QCOMPARE(args.program.globalShapeOps, std::int64_t(1));
        QVERIFY(hasWarning(args.program, "1 compute op(s) have no sharding of their own and none follows"));
        QVERIFY(args.program.shardedOps >= 3); // the dot, the broadcast, the multiply (and the reduce)
        const Flattened mhlo = flattenText(R"(
module @m attributes {mhlo.num_partitions = 4 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> tensor<8x4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 {mhlo.sharding = "{devices=[4,1]<=[4]}"} : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)");
        QVERIFY2(mhlo.ok(), mhlo.error.c_str());
        QCOMPARE(mhlo.program.totalFlops(), 8.0 * 4 / 4);
        QCOMPARE(mhlo.program.shardedOps, std::int64_t(1));
    }

    // A transpose's pieces follow its permutation; one that names a dim the operand lacks (the
    // reader takes any integers) leaves the op and what reads it on the global shape. Found by
    // fuzz_hlo_text: the pieces were read past their end.
    void transposePiecesFollowOnlyAValidPermutation_data()
    {
        QTest::addColumn<QString>("permutation");
        QTest::addColumn<double>("multiplyFlops");
        QTest::addColumn<qint64>("globalShapeOps");
        QTest::newRow("valid") << "1, 0" << 8.0 * 4 / 2 << qint64(0);
        QTest::newRow("past the rank") << "1, 7" << 8.0 * 4 << qint64(2); // the transpose and the multiply
        QTest::newRow("negative") << "-1, 0" << 8.0 * 4 << qint64(2);
    }

    void transposePiecesFollowOnlyAValidPermutation()
    {
        QFETCH(QString, permutation);
        QFETCH(double, multiplyFlops);
        QFETCH(qint64, globalShapeOps);
        std::string text = R"(
module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [PERMUTATION] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}
)";
        text.replace(text.find("PERMUTATION"), 11, permutation.toStdString());
        const Flattened flat = flattenText(text);
        QVERIFY2(flat.ok(), flat.error.c_str());
        double flops = -1;
        for (const FlatOp& op : flat.program.ops)
            if (op.op->name == "stablehlo.multiply")
                flops = op.cost.flops;
        QCOMPARE(flops, multiplyFlops);
        QCOMPARE(flat.program.globalShapeOps, std::int64_t(globalShapeOps));
        QCOMPARE(hasWarning(flat.program, "test.mlir:4:5: transpose permutation names a dim outside 0..1"),
            globalShapeOps > 0);
    }

    // sdy.manual_computation: its body runs on local shapes and is inlined.
    void manualComputationInlined()
    {
        const Flattened f = flattenText(R"(
module @m {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
      %1 = stablehlo.multiply %arg1, %arg1 : tensor<4x4xf32>
      sdy.return %1 : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        QCOMPARE(f.program.totalFlops(), 16.0);
        const FlatOp* multiply = findOp(f.program, "stablehlo.multiply");
        QVERIFY(multiply);
        QCOMPARE(f.program.ops.back().inputs,
            std::vector<std::uint32_t>({ std::uint32_t(multiply - f.program.ops.data()) }));
    }

    void resnet50Train()
    {
        const QString path = fixtureDir() + QStringLiteral("/hespas/resnet_50_train_step_4_devices_1024_batch.mlir");
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray text = file.readAll();
        const int allReduceInText = int(text.count("\"stablehlo.all_reduce\""));
        const int convolutionsInText = int(text.count("stablehlo.convolution"));
        FlattenOptions options;
        options.deviceCount = 4;
        const Flattened f = flattenFile(path.toStdString(), options);
        QVERIFY2(f.ok(), f.error.c_str());
        QVERIFY(f.program.ok());
        QVERIFY(f.program.unknownOps.empty());
        int collectives = 0, costed = 0;
        for (const FlatOp& op : f.program.ops) {
            collectives += op.opClass == OpClass::Collective ? 1 : 0;
            costed += op.opClass != OpClass::Free ? 1 : 0;
            if (op.collective) {
                QCOMPARE(op.collective->kind, CollectiveKind::AllReduce);
                QCOMPARE(op.collective->groupSize, std::int64_t(4));
            }
        }
        QCOMPARE(allReduceInText, 375);
        QCOMPARE(collectives, allReduceInText); // no collective inside a function called twice
        QCOMPARE(countOps(f.program, "stablehlo.convolution"), convolutionsInText);
        double matrixFlops = 0;
        for (const FlatOp& op : f.program.ops)
            if (op.cost.matrixUnit)
                matrixFlops += op.cost.flops * op.executions;
        // ResNet-50: ~4.1 GMAC forward per 224² image; a training step is ~3× forward; 256 images per device.
        const double perImage = matrixFlops / 256;
        QVERIFY2(perImage > 22e9 && perImage < 27e9, qPrintable(QString::number(perImage)));
        qInfo("ResNet-50 train step: %zu flattened ops (%d costed, %d all_reduce), %.4g FLOPs (%.4g in conv/dot), "
              "%.4g transcendentals, %.4g bytes unfused",
            f.program.ops.size(), costed, collectives, f.program.totalFlops(), matrixFlops,
            totalTranscendentals(f.program), f.program.totalBytes());
    }

    void deterministic()
    {
        const QString path = fixtureDir() + QStringLiteral("/hespas/jax_example.mlir");
        const Flattened a = flattenFile(path.toStdString());
        const Flattened b = flattenFile(path.toStdString());
        QVERIFY2(a.ok() && b.ok(), a.error.c_str());
        QCOMPARE(a.program.ops.size(), b.program.ops.size());
        for (std::size_t i = 0; i < a.program.ops.size(); ++i) {
            QCOMPARE(a.program.ops[i].signature, b.program.ops[i].signature);
            QCOMPARE(a.program.ops[i].inputs, b.program.ops[i].inputs);
            QCOMPARE(a.program.ops[i].executions, b.program.ops[i].executions);
        }
        QCOMPARE(a.program.totalFlops(), b.program.totalFlops());
        QCOMPARE(a.program.totalBytes(), b.program.totalBytes());
        QCOMPARE(a.program.warnings, b.program.warnings);
    }
};

QTEST_GUILESS_MAIN(TestHloCosts)
#include "tst_hlo_costs.moc"
