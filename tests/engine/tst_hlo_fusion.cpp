// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The XLA-like fusion pass: which ops share a kernel, what bytes a kernel charges, and the
// invariants (FLOPs unchanged, every costed op in one kernel, acyclic kernel graph) on real modules.
#include "engine/hlo/hlo_fusion.h"
#include "hlo_test_support.h"

#include <QFile>
#include <QTest>

#include <set>

using namespace elk::hlo;
using namespace elk::hlo::test;

namespace {

double kernelFlops(const FusionResult& fusion)
{
    double sum = 0;
    for (const Kernel& k : fusion.kernels)
        if (k.opClass == OpClass::Compute)
            sum += k.flops * k.executions;
    return sum;
}

std::vector<std::string> opNames(const HloProgram& program, const Kernel& kernel)
{
    std::vector<std::string> names;
    for (std::uint32_t op : kernel.ops)
        names.push_back(program.ops[op].op->name);
    return names;
}

// Every costed op in exactly one kernel, Free ops in none, one execution count per kernel, kernels
// in a topological order (so the kernel graph is acyclic).
std::string checkKernels(const HloProgram& program, const FusionResult& fusion)
{
    std::vector<int> owner(program.ops.size(), -1);
    for (std::size_t k = 0; k < fusion.kernels.size(); ++k) {
        const Kernel& kernel = fusion.kernels[k];
        if (kernel.ops.empty())
            return "kernel " + std::to_string(k) + " is empty";
        for (std::uint32_t in : kernel.inputs)
            if (in >= k)
                return "kernel " + std::to_string(k) + " reads a later kernel " + std::to_string(in);
        if (!std::is_sorted(kernel.ops.begin(), kernel.ops.end()))
            return "kernel " + std::to_string(k) + " ops not ascending";
        for (std::uint32_t op : kernel.ops) {
            if (owner[op] != -1)
                return "op " + std::to_string(op) + " in two kernels";
            owner[op] = int(k);
            if (program.ops[op].executions != kernel.executions)
                return "kernel " + std::to_string(k) + " mixes execution counts";
            if (program.ops[op].opClass == OpClass::Collective && kernel.ops.size() != 1)
                return "collective fused in kernel " + std::to_string(k);
        }
    }
    for (std::size_t i = 0; i < program.ops.size(); ++i)
        if ((program.ops[i].opClass == OpClass::Free) != (owner[i] == -1))
            return "op " + std::to_string(i) + " (" + program.ops[i].op->name + ") wrongly placed";
    return {};
}

const char* kChain = R"(
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4x4xf32>
  %1 = stablehlo.multiply %0, %a : tensor<4x4xf32>
  %2 = stablehlo.tanh %1 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
)";

const char* kDenseLayer = R"(
func.func @main(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}
)";

const char* kSoftmaxLike = R"(
func.func @main(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<8x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %3 = stablehlo.divide %a, %2 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
)";

const char* kAcrossCollective = R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %a : tensor<8xf32>
  %1 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.multiply %0, %0 : tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
)";

} // namespace

class TestHloFusion : public QObject {
    Q_OBJECT

private slots:
    void elementwiseChainFuses()
    {
        const Flattened f = flattenText(kChain);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        QCOMPARE(fused.kernels.size(), std::size_t(1));
        QCOMPARE(fused.fusedOpCount, std::int64_t(3));
        QCOMPARE(fused.unfusedBytes, 3 * 64 + 3 * 64 + 2 * 64.0);
        QCOMPARE(fused.fusedBytes, 2 * 64 + 64.0); // reads a and b, writes the tanh
        QCOMPARE(fused.kernels[0].flops, 32.0);
        QCOMPARE(fused.kernels[0].transcendentals, 16.0);
        QVERIFY(fused.fusedBytes < fused.unfusedBytes);
    }

    // Output fusion: bias add and ReLU join the dot's kernel; the broadcasts come along.
    void dotBiasReluOutputFusion()
    {
        const Flattened f = flattenText(kDenseLayer);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        QCOMPARE(fused.kernels.size(), std::size_t(1));
        const Kernel& k = fused.kernels[0];
        QVERIFY(k.matrixUnit);
        QCOMPARE(k.peakType, std::string("f32"));
        QCOMPARE(opNames(f.program, k),
            std::vector<std::string>({ "stablehlo.dot_general", "stablehlo.broadcast_in_dim", "stablehlo.add",
                "stablehlo.broadcast_in_dim", "stablehlo.maximum" }));
        QCOMPARE(k.bytes, 128 + 512 + 64 + 4 + 256.0); // a, w, bias, the scalar, the result
        QCOMPARE(fused.unfusedBytes, 896 + 320 + 768 + 260 + 768.0);
        QCOMPARE(kernelFlops(fused), f.program.totalFlops());
    }

    // A second reader of the dot's result keeps the consumer out of the dot's kernel.
    void outputFusionNeedsASingleUser()
    {
        const Flattened f = flattenText(R"(
func.func @main(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.negate %0 : tensor<4x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<4x16xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QCOMPARE(fused.kernels.size(), std::size_t(2));
        QCOMPARE(fused.kernels[1].inputs, std::vector<std::uint32_t>({ 0 }));
    }

    // A reduction roots its producers' kernel; a consumer of the reduction starts a new one.
    void reductionIsARoot()
    {
        const Flattened f = flattenText(kSoftmaxLike);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        QCOMPARE(fused.kernels.size(), std::size_t(2));
        QCOMPARE(opNames(f.program, fused.kernels[0]),
            std::vector<std::string>({ "stablehlo.multiply", "stablehlo.reduce" }));
        QCOMPARE(opNames(f.program, fused.kernels[1]),
            std::vector<std::string>({ "stablehlo.broadcast_in_dim", "stablehlo.divide" }));
        QCOMPARE(fused.kernels[1].inputs, std::vector<std::uint32_t>({ 0 }));
        QCOMPARE(fused.kernels[0].bytes, 512 + 32.0); // reads a, writes the row sums
        QCOMPARE(fused.kernels[1].bytes, 32 + 512 + 512.0); // row sums and a in, the quotient out
    }

    // Sibling reductions over the same input share one kernel (multi-output, batch-norm statistics).
    void siblingReductionsShareAKernel()
    {
        const Flattened f = flattenText(R"(
func.func @main(%a: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %x = stablehlo.negate %a : tensor<8x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.multiply %x, %x : tensor<8x16xf32>
  %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %2 : tensor<8xf32>, tensor<8xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        QCOMPARE(fused.kernels.size(), std::size_t(1));
        QCOMPARE(fused.kernels[0].bytes, 512 + 32 + 32.0);
    }

    // An XLA-optimised export: its fusion ops are the kernels (boundary bytes only), by default;
    // elk re-fuses the inlined ops by its own rules, none charges each op.
    void xlaFusionsAreKeptAsGiven()
    {
        const auto f
            = test::flattenText(R"(func.func @main(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = "mhlo.fusion"(%a, %b) ({
  ^bb0(%x: tensor<1024xf32>, %y: tensor<1024xf32>):
    %1 = stablehlo.add %x, %y : tensor<1024xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<1024xf32>
    stablehlo.return %2 : tensor<1024xf32>
  }) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %3 = "mhlo.fusion"(%0) ({
  ^bb0(%z: tensor<1024xf32>):
    %4 = stablehlo.exponential %z : tensor<1024xf32>
    stablehlo.return %4 : tensor<1024xf32>
  }) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %3 : tensor<1024xf32>
})");
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult xla = fuseProgram(f.program);
        QCOMPARE(xla.mode, FusionMode::Xla);
        QCOMPARE(int(xla.kernels.size()), 2);
        QCOMPARE(xla.kernels[0].ops.size(), std::size_t(2));
        QCOMPARE(xla.kernels[0].bytes, 3 * 4096.0); // reads a and b, writes %0; %1 stays inside
        QCOMPARE(xla.kernels[1].bytes, 2 * 4096.0);
        QCOMPARE(xla.kernels[1].inputs, (std::vector<std::uint32_t> { 0 }));
        FusionOptions elk;
        elk.mode = FusionMode::Elk;
        const FusionResult ours = fuseProgram(f.program, elk);
        QCOMPARE(ours.mode, FusionMode::Elk);
        QCOMPARE(int(ours.kernels.size()), 1); // our pass also joins the exponential
        QCOMPARE(ours.kernels[0].bytes, 3 * 4096.0);
        FusionOptions none;
        none.mode = FusionMode::None;
        QCOMPARE(int(fuseProgram(f.program, none).kernels.size()), 3);
        QCOMPARE(fusionModeFromString("xla"), std::optional<FusionMode>(FusionMode::Xla));
        QVERIFY(!fusionModeFromString("greedy"));
    }

    void fusionOffIsPerOp()
    {
        for (const char* text : { kChain, kDenseLayer, kSoftmaxLike, kAcrossCollective }) {
            const Flattened f = flattenText(text);
            QVERIFY2(f.ok(), f.error.c_str());
            FusionOptions options;
            options.enabled = false;
            const FusionResult perOp = fuseProgram(f.program, options);
            QVERIFY2(checkKernels(f.program, perOp).empty(), checkKernels(f.program, perOp).c_str());
            std::size_t costed = 0;
            for (const FlatOp& op : f.program.ops)
                costed += op.opClass != OpClass::Free ? 1 : 0;
            QCOMPARE(perOp.kernels.size(), costed);
            QCOMPARE(perOp.fusedOpCount, std::int64_t(0));
            QCOMPARE(perOp.fusedBytes, perOp.unfusedBytes);
            QCOMPARE(perOp.unfusedBytes, f.program.totalBytes());
            for (const Kernel& k : perOp.kernels)
                QCOMPARE(k.bytes, f.program.ops[k.ops.front()].cost.bytes());
            QCOMPARE(kernelFlops(perOp), f.program.totalFlops());
        }
    }

    // The multiply reads a value made before the all_reduce but comes after it: no shared kernel.
    void neverAcrossACollective()
    {
        const Flattened f = flattenText(kAcrossCollective);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        QCOMPARE(fused.kernels.size(), std::size_t(3));
        QCOMPARE(fused.kernels[1].opClass, OpClass::Collective);
        const std::uint32_t collective = fused.kernels[1].ops.front();
        for (const Kernel& k : fused.kernels)
            QVERIFY(k.ops.back() < collective || k.ops.front() >= collective);
        QCOMPARE(
            opNames(f.program, fused.kernels[2]), std::vector<std::string>({ "stablehlo.multiply", "stablehlo.add" }));
        QCOMPARE(fused.kernels[2].inputs, std::vector<std::uint32_t>({ 0, 1 }));
    }

    // Loop bodies and the code around them run a different number of times: never one kernel.
    void neverAcrossExecutionCounts()
    {
        const Flattened f = flattenText(R"(
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %a = stablehlo.negate %arg0 : tensor<4xf32>
  %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %a) : tensor<i32>, tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<4xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>
  }
  %r = stablehlo.exponential %0#1 : tensor<4xf32>
  return %r : tensor<4xf32>
}
)");
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        std::set<double> executions;
        for (const Kernel& k : fused.kernels)
            executions.insert(k.executions);
        QCOMPARE(executions, std::set<double>({ 1.0, 10.0, 11.0 }));
        QCOMPARE(kernelFlops(fused), f.program.totalFlops());
    }

    void hespasModules_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("ResNet-50 train step") << QStringLiteral("resnet_50_train_step_4_devices_1024_batch.mlir");
        QTest::addRow("ResNet-50 inference step")
            << QStringLiteral("resnet_50_inference_step_4_devices_1024_batch.mlir");
        QTest::addRow("jax_example") << QStringLiteral("jax_example.mlir");
    }

    void hespasModules()
    {
        QFETCH(QString, file);
        const QString path = fixtureDir() + QStringLiteral("/hespas/") + file;
        FlattenOptions options;
        options.deviceCount = 4;
        const Flattened f = flattenFile(path.toStdString(), options);
        QVERIFY2(f.ok(), f.error.c_str());
        const FusionResult fused = fuseProgram(f.program);
        QVERIFY2(checkKernels(f.program, fused).empty(), checkKernels(f.program, fused).c_str());
        QVERIFY(fused.fusedBytes < fused.unfusedBytes);
        QCOMPARE(fused.unfusedBytes, f.program.totalBytes());
        QCOMPARE(kernelFlops(fused), f.program.totalFlops());
        const FusionResult again = fuseProgram(f.program);
        QCOMPARE(again.kernels.size(), fused.kernels.size());
        QCOMPARE(again.fusedBytes, fused.fusedBytes);
        std::size_t costed = 0;
        for (const FlatOp& op : f.program.ops)
            costed += op.opClass != OpClass::Free ? 1 : 0;
        qInfo("%s: %zu costed ops -> %zu kernels (%lld ops fused); bytes %.4g unfused -> %.4g fused (%.2fx)",
            qPrintable(file), costed, fused.kernels.size(), static_cast<long long>(fused.fusedOpCount),
            fused.unfusedBytes, fused.fusedBytes, fused.unfusedBytes / fused.fusedBytes);
    }
};

QTEST_GUILESS_MAIN(TestHloFusion)
#include "tst_hlo_fusion.moc"
