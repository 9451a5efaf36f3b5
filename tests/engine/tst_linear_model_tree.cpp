// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <limits>
#include <vector>

#include "engine/chip/presets.h"
#include "engine/core/sha256.h"
#include "engine/cost/fitted_cost.h"
#include "engine/cost/linear_model_tree.h"
#include "tests/support/compare_near.h"

using namespace elk::cost;
using elk::model::DType;
using elk::model::OpKind;
using elk::model::TensorExpr;

namespace {

/// Piecewise-linear truth: features [x, 1, regime]; regime 2 is cheaper per x; regime 1 changes
/// slope at x = 120 (continuous). Every piece has non-negative coefficients, as leaves must.
double truth(double x, double regime)
{
    if (regime == 2)
        return 2 * x + 40;
    return x <= 120 ? 5 * x + 40 : 2 * x + 400;
}

TrainingSet syntheticSet(bool heldOut)
{
    TrainingSet set;
    set.featureCount = 3;
    for (int i = 1; i <= 240; ++i) {
        if ((i % 4 == 0) != heldOut)
            continue;
        for (double regime : { 1.0, 2.0 }) {
            const double row[] = { double(i), 1.0, regime };
            set.add(row, truth(i, regime));
        }
    }
    return set;
}

/// Matmul samples from cycles = 0.01·bmkn + 2·bmn + 500 in f16 and 4× the bmkn rate in f32.
std::vector<CostSample> matmulSamples()
{
    std::vector<CostSample> samples;
    for (std::int64_t m : { 8, 16, 32, 64, 128 }) {
        for (std::int64_t k : { 16, 64, 256 }) {
            for (std::int64_t n : { 8, 32, 128 }) {
                for (DType dtype : { DType::F16, DType::F32 }) {
                    const double rate = dtype == DType::F16 ? 0.01 : 0.04;
                    const double bmkn = double(m * k * n);
                    samples.push_back({ OpKind::MatMul, { 2, m, k, n }, dtype, 2 * (rate * bmkn / 2 + m * n) + 500 });
                }
            }
        }
    }
    return samples;
}

const char* kValidJson = R"({"schema": "elk.fitted-cost/1", "folds": 5, "maxDepth": 6, "minSamplesPerLeaf": 5,
 "kinds": {"unary": {"features": ["work", "rows", "input_elements", "one", "bytes_per_element"],
  "linearFeatures": 4, "trainingSamples": 10, "cvMeanAbsPercentError": null,
  "nodes": [{"feature": 0, "threshold": 100, "left": 1, "right": 2},
            {"coefficients": [0.5, 0, 0, 200]}, {"coefficients": [0.25, 0, 0, 225]}]}}})";

TensorExpr unary(std::int64_t elements)
{
    return canonicalSampleExpr(OpKind::Unary, std::vector<std::int64_t> { elements }, DType::F16);
}

} // namespace

class TestLinearModelTree : public QObject {
    Q_OBJECT

private slots:
    void recoversPiecewiseLinearFunction()
    {
        const TrainingSet train = syntheticSet(false);
        const LinearModelTree tree = fitLinearModelTree(train, 2, TreeSettings { 4, 5 });
        QVERIFY(tree.leafCount() >= 3);
        QVERIFY(tree.leafCount() <= 6);
        const TrainingSet test = syntheticSet(true);
        double worst = 0;
        for (std::size_t i = 0; i < test.size(); ++i)
            worst = std::max(worst, std::abs(tree.predict(test.row(i)) - test.y[i]) / test.y[i]);
        QVERIFY2(worst < 0.01, qPrintable(QString::number(worst)));
    }

    void singleLinearLeafIsExact()
    {
        TrainingSet set;
        set.featureCount = 2;
        for (int x = 1; x <= 50; ++x) {
            const double row[] = { double(x), 1.0 };
            set.add(row, 3.0 * x + 100);
        }
        const LinearModelTree tree = fitLinearModelTree(set, 2, TreeSettings {});
        QCOMPARE(tree.leafCount(), 1);
        ELK_COMPARE_NEAR(tree.nodes[0].coefficients[0], 3, 1e-9);
        ELK_COMPARE_NEAR(tree.nodes[0].coefficients[1], 100, 1e-7);
    }

    void coefficientsAreNeverNegative()
    {
        TrainingSet set; // decreasing in x: unconstrained least squares would give a negative slope
        set.featureCount = 2;
        for (int x = 1; x <= 40; ++x) {
            const double row[] = { double(x), 1.0 };
            set.add(row, 1000.0 - 10 * x);
        }
        const LinearModelTree tree = fitLinearModelTree(set, 2, TreeSettings { 3, 5 });
        for (const auto& node : tree.nodes) {
            for (double beta : node.coefficients)
                QVERIFY(beta >= 0);
        }
        const double row[] = { 40.0, 1.0 };
        QVERIFY(tree.predict(row) > 0);
    }

    void crossValidation()
    {
        const TrainingSet exact = syntheticSet(false);
        const auto exactError = crossValidatedError(exact, 2, TreeSettings { 4, 5 }, 5);
        QVERIFY(exactError.has_value());
        QVERIFY2(*exactError < 1.0, qPrintable(QString::number(*exactError)));
        TrainingSet noisy = exact;
        for (std::size_t i = 0; i < noisy.size(); ++i)
            noisy.y[i] *= (i / 2 % 2 == 0) ? 1.1 : 0.9; // ±10 % alternating along x: cannot be fitted away
        const auto noisyError = crossValidatedError(noisy, 2, TreeSettings { 4, 5 }, 5);
        QVERIFY(noisyError.has_value());
        QVERIFY2(*noisyError > 5.0, qPrintable(QString::number(*noisyError)));
        TrainingSet one;
        one.featureCount = 2;
        const double row[] = { 1.0, 1.0 };
        one.add(row, 5);
        QVERIFY(!crossValidatedError(one, 2, TreeSettings {}, 5).has_value());
    }

    void fitIsDeterministic()
    {
        const auto samples = matmulSamples();
        const std::string first = fittedCostToJson(fitCostModel(samples, FitOptions {}));
        const std::string second = fittedCostToJson(fitCostModel(samples, FitOptions {}));
        QCOMPARE(first, second);
        QVERIFY(first.find("\"matmul\"") != std::string::npos);
    }

    void fittedModelPredictsHeldOutTiles()
    {
        const FittedCostData data = fitCostModel(matmulSamples(), FitOptions {});
        QCOMPARE(data.kinds.size(), std::size_t(1));
        const FittedKindModel& matmul = data.kinds.at(OpKind::MatMul);
        QCOMPARE(matmul.trainingSamples, std::int64_t(90));
        QVERIFY(matmul.cvMeanAbsPercentError.has_value());
        QVERIFY2(*matmul.cvMeanAbsPercentError < 1.0, qPrintable(QString::number(*matmul.cvMeanAbsPercentError)));
        const std::string json = fittedCostToJson(data);
        const FittedCostModel model(data, json);
        // 2 × (48 × 100 × 64), not a training shape
        const std::vector<std::int64_t> extents { 2, 48, 100, 64 };
        const TensorExpr tile = canonicalSampleExpr(OpKind::MatMul, extents, DType::F16);
        const double expected = 2 * (0.01 * 48 * 100 * 64 / 2 + 48 * 64) + 500;
        const double cycles = model.tileCycles(tile, extents);
        QVERIFY2(std::abs(cycles - expected) / expected < 0.01, qPrintable(QString::number(cycles)));
        // A kind without samples has no price, so partition skips it.
        QCOMPARE(
            model.tileCycles(unary(10), std::vector<std::int64_t> { 10 }), std::numeric_limits<double>::infinity());
        QCOMPARE(model.partialSumCycles(100, 2, DType::F16), std::numeric_limits<double>::infinity());
        QCOMPARE(model.version(), "fitted/1 sha256:" + elk::sha256Hex(json));
    }

    void jsonRoundTrip()
    {
        const FittedCostData data = fitCostModel(matmulSamples(), FitOptions { 4, TreeSettings { 3, 6 } });
        const std::string json = fittedCostToJson(data);
        const FittedCostParseResult parsed = fittedCostFromJson(json);
        QVERIFY2(parsed.ok(), parsed.error.c_str());
        QCOMPARE(parsed.data.options.folds, 4);
        QVERIFY(parsed.data.options.tree == (TreeSettings { 3, 6 }));
        QVERIFY(parsed.data.kinds == data.kinds);
        QCOMPARE(fittedCostToJson(parsed.data), json);
    }

    void handWrittenModel()
    {
        const FittedCostParseResult parsed = fittedCostFromJson(kValidJson);
        QVERIFY2(parsed.ok(), parsed.error.c_str());
        const FittedCostModel model(parsed.data, kValidJson);
        QCOMPARE(model.tileCycles(unary(50), std::vector<std::int64_t> { 50 }), 225.0);
        QCOMPARE(model.tileCycles(unary(1000), std::vector<std::int64_t> { 1000 }), 475.0);
    }

    void badJson_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("expected");
        QTest::addRow("missing threshold")
            << QByteArray(R"("threshold": 100, )") << QByteArray()
            << QStringLiteral("/kinds/unary/nodes/0/threshold: missing field \"threshold\"");
        QTest::addRow("missing schema") << QByteArray(R"("schema": "elk.fitted-cost/1", )") << QByteArray()
                                        << QStringLiteral("/schema: missing field \"schema\"");
        QTest::addRow("wrong schema") << QByteArray("elk.fitted-cost/1") << QByteArray("elk.fitted-cost/9")
                                      << QStringLiteral("/schema: expected \"elk.fitted-cost/1\", found string");
        QTest::addRow("missing trainingSamples") << QByteArray(R"("trainingSamples": 10, )") << QByteArray()
                                                 << QStringLiteral("/kinds/unary/trainingSamples: missing field");
        QTest::addRow("unknown kind") << QByteArray(R"("unary": {)") << QByteArray(R"("frob": {)")
                                      << QStringLiteral(
                                             "/kinds/frob: unknown op kind \"frob\"; expected one of reduce");
        QTest::addRow("other features") << QByteArray(R"("rows", )") << QByteArray()
                                        << QStringLiteral("/kinds/unary/features: expected [\"work\",\"rows\"");
        QTest::addRow("coefficient count")
            << QByteArray("[0.5, 0, 0, 200]") << QByteArray("[0.5, 0, 200]")
            << QStringLiteral("/kinds/unary/nodes/1/coefficients: expected an array of 4 numbers");
        QTest::addRow("negative coefficient")
            << QByteArray("[0.5, 0, 0, 200]") << QByteArray("[-0.5, 0, 0, 200]")
            << QStringLiteral("/kinds/unary/nodes/1/coefficients/0: expected a finite number >= 0, found number -0.5");
        QTest::addRow("child out of range") << QByteArray(R"("right": 2)") << QByteArray(R"("right": 7)")
                                            << QStringLiteral("/kinds/unary/nodes: node 0: child 7 must be in 1..2");
        QTest::addRow("unknown field") << QByteArray(R"("folds": 5,)") << QByteArray(R"("folds": 5, "seed": 1,)")
                                       << QStringLiteral("/seed: unknown field \"seed\"");
        QTest::addRow("syntax error") << QByteArray(R"("folds": 5,)") << QByteArray(R"("folds" 5,)")
                                      << QStringLiteral("line 1, column ");
    }

    void badJson()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, expected);
        QByteArray json(kValidJson);
        QVERIFY(json.contains(from));
        json.replace(from, to);
        const FittedCostParseResult parsed = fittedCostFromJson(json.toStdString());
        QVERIFY(!parsed.ok());
        QVERIFY2(QString::fromStdString(parsed.error).startsWith(expected), parsed.error.c_str());
    }

    void goodCsv()
    {
        const auto result = parseCostSamplesCsv("# measured on one core\r\nkind,extents,dtype,cycles\r\n\r\nmatmul, "
                                                "2x6x16x16 ,f16,824\r\nreduce,4x100,f32,295.25\n",
            "s.csv");
        QVERIFY2(result.ok(), result.error.c_str());
        QCOMPARE(result.samples.size(), std::size_t(2));
        QCOMPARE(result.samples[0].extents, (std::vector<std::int64_t> { 2, 6, 16, 16 }));
        QCOMPARE(result.samples[1].kind, OpKind::Reduce);
        QCOMPARE(result.samples[1].dtype, DType::F32);
        QCOMPARE(result.samples[1].cycles, 295.25);
    }

    void badCsv_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QByteArray header = "kind,extents,dtype,cycles\n";
        QTest::addRow("wrong header") << QByteArray("kind,shape,dtype,cycles\n")
                                      << QStringLiteral("s.csv:1: column 2: expected header name \"extents\"");
        QTest::addRow("extra header column")
            << QByteArray("kind,extents,dtype,cycles,notes\n") << QStringLiteral("s.csv:1: expected 4 header columns");
        QTest::addRow("non-numeric cycles")
            << header + "unary,100,f16,12x\n"
            << QStringLiteral("s.csv:2: column cycles: expected a finite number >= 0, found \"12x\"");
        QTest::addRow("negative cycles") << header + "unary,100,f16,-3\n"
                                         << QStringLiteral(
                                                "s.csv:2: column cycles: expected a finite number >= 0, found \"-3\"");
        QTest::addRow("unknown kind") << header + "unary,100,f16,5\nfrob,100,f16,5\n"
                                      << QStringLiteral("s.csv:3: column kind: expected one of reduce, unary");
        QTest::addRow("zero extent") << header + "unary,100x0,f16,5\n"
                                     << QStringLiteral("s.csv:2: column extents: expected integers >= 1 joined by 'x'");
        QTest::addRow("extents not numbers") << header + "unary,ax4,f16,5\n"
                                             << QStringLiteral("s.csv:2: column extents: expected integers >= 1");
        QTest::addRow("matmul needs m, k, n")
            << header + "matmul,16x16,f16,5\n"
            << QStringLiteral("s.csv:2: column extents: expected at least 3 extents for matmul, found \"16x16\"");
        QTest::addRow("unknown dtype") << header + "unary,100,fp16,5\n"
                                       << QStringLiteral("s.csv:2: column dtype: expected one of f64, f32, f16");
        QTest::addRow("missing column") << header
                + "unary,100,5\n" << QStringLiteral("s.csv:2: expected 4 columns (kind,extents,dtype,cycles), found 3");
        QTest::addRow("empty file") << QByteArray() << QStringLiteral("s.csv:1: expected the header");
        QTest::addRow("header only") << header << QStringLiteral("s.csv:1: expected at least one sample");
    }

    void badCsv()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const auto result = parseCostSamplesCsv(text.toStdString(), "s.csv");
        QVERIFY(!result.ok());
        QVERIFY(result.samples.empty());
        QVERIFY2(QString::fromStdString(result.error).startsWith(expected), result.error.c_str());
    }

    void makeFittedFromChipRelativePath()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::ofstream(dir.filePath(QStringLiteral("cost.json")).toStdString()) << kValidJson;
        auto chip = elk::chip::findBuiltinPreset("teaching-mesh-4x4");
        QVERIFY(chip.has_value());
        chip->tileCost.model = elk::chip::TileCostModelKind::Fitted;
        chip->tileCost.fitted.modelPath = "cost.json";
        const auto result = makeTileCostModel(*chip, dir.path().toStdString());
        QVERIFY2(result.ok(), result.error.c_str());
        QCOMPARE(result.model->name(), std::string("fitted"));
        QCOMPARE(result.model->tileCycles(unary(50), std::vector<std::int64_t> { 50 }), 225.0);
        chip->tileCost.fitted.modelPath = "missing.json";
        const auto missing = makeTileCostModel(*chip, dir.path().toStdString());
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error.rfind("/tileCost/fitted/modelPath: ", 0) == 0, missing.error.c_str());
        QVERIFY2(missing.error.find("missing.json") != std::string::npos, missing.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLinearModelTree)
#include "tst_linear_model_tree.moc"
