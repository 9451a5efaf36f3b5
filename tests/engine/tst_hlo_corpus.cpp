// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Every .mlir of ../shared/corpus/stablehlo (import.md §4.10) is read: no crash, every error
// located, and only parts of files that contain `expected-error` (deliberately invalid tests) may
// fail. The hespas ResNet-50 train step keeps its 158 convolutions and 375 all-reduces over the
// four replicas.
#include "engine/hlo/hlo_attrs.h"
#include "engine/hlo/hlo_reader.h"

#include <QTest>

#include "tests/support/corpus_main.h"
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace elk::hlo;

namespace {

const std::filesystem::path kCorpus = std::filesystem::path(ELK_SHARED_DIR) / "corpus" / "stablehlo";

std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool startsWith(const std::string& text, const std::string& prefix)
{
    return text.rfind(prefix, 0) == 0;
}

} // namespace

class TestHloCorpus : public QObject {
    Q_OBJECT

private slots:
    void wholeCorpus();
    void resnetTrainStep();
};

void TestHloCorpus::wholeCorpus()
{
    if (!std::filesystem::is_directory(kCorpus))
        QSKIP("the StableHLO corpus (../shared/corpus/stablehlo) is not present");
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kCorpus))
        if (entry.is_regular_file() && entry.path().extension() == ".mlir")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());

    int parts = 0, parsed = 0, failed = 0, expectedErrorFiles = 0, ops = 0, typeMismatches = 0;
    int hespas = 0, testdataTop = 0, ttMlir = 0;
    std::vector<std::string> unexpected;
    for (const auto& path : files) {
        const std::string relative = std::filesystem::relative(path, kCorpus).generic_string();
        const std::string text = readText(path);
        const bool expectsErrors = text.find("expected-error") != std::string::npos;
        expectedErrorFiles += expectsErrors ? 1 : 0;
        const ReadResult result = readHloText(text, relative);
        parts += int(result.modules.size() + result.errors.size());
        parsed += int(result.modules.size());
        failed += int(result.errors.size());
        for (const ReadError& error : result.errors) {
            QVERIFY2(error.location.line > 0 && error.location.column > 0, toString(error).c_str());
            QVERIFY2(!error.message.empty(), relative.c_str());
            if (!expectsErrors)
                unexpected.push_back(toString(error));
        }
        // The groups that must read completely (import.md §4.10).
        const bool isTestdataTop
            = startsWith(relative, "stablehlo-testdata/") && relative.find('/', 19) == std::string::npos;
        const bool required
            = startsWith(relative, "hespas/") || isTestdataTop || (startsWith(relative, "tt-mlir/") && !expectsErrors);
        if (required && (!result.errors.empty() || result.modules.empty()))
            unexpected.push_back(relative + ": did not read completely");
        hespas += startsWith(relative, "hespas/") ? 1 : 0;
        testdataTop += isTestdataTop ? 1 : 0;
        ttMlir += startsWith(relative, "tt-mlir/") ? 1 : 0;
        if (isTestdataTop && (result.modules.empty() || !result.modules.front().findFunction("main")))
            unexpected.push_back(relative + ": no @main");
        // Declared operand types agree with the types the values were defined with.
        for (const Module& module : result.modules)
            for (const Function& function : module.functions)
                forEachOp(function.body, [&](const Op& op, int) {
                    ++ops;
                    if (expectsErrors)
                        return;
                    for (std::size_t i = 0; i < op.operands.size() && i < op.operandTypes.size(); ++i)
                        if (!(module.valueTypes.at(op.operands[i]) == op.operandTypes[i])) {
                            ++typeMismatches;
                            unexpected.push_back(relative + ":" + std::to_string(op.location.line) + ": operand "
                                + std::to_string(i) + " of '" + op.name + "' has another type than its value");
                            break;
                        }
                });
    }
    qInfo("StableHLO corpus: %d files, %d parts, %d parsed, %d failed, %d files with expected-error, %d ops",
        int(files.size()), parts, parsed, failed, expectedErrorFiles, ops);
    for (const std::string& line : unexpected)
        qWarning("%s", line.c_str());
    QCOMPARE(hespas, 8);
    QCOMPARE(testdataTop, 1895);
    QVERIFY(ttMlir >= 297);
    QCOMPARE(typeMismatches, 0);
    QVERIFY2(unexpected.empty(), "parts failed outside files with expected-error (listed above)");
    QVERIFY(failed > 0); // the deliberately invalid tests do hit the reader's errors
}

void TestHloCorpus::resnetTrainStep()
{
    const std::filesystem::path path = kCorpus / "hespas" / "resnet_50_train_step_4_devices_1024_batch.mlir";
    if (!std::filesystem::exists(path))
        QSKIP("the StableHLO corpus (../shared/corpus/stablehlo) is not present");
    const ReadResult result = readHloFile(path.string());
    QVERIFY2(result.ok(), result.errors.empty() ? "no module" : toString(result.errors.front()).c_str());
    const Module& module = result.modules.front();
    QCOMPARE(module.name, std::string("pmap__unnamed_wrapped_function_"));
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(4));
    QCOMPARE(module.entry()->name, std::string("main"));
    int convolutions = 0, allReduces = 0, calls = 0;
    for (const Function& function : module.functions)
        forEachOp(function.body, [&](const Op& op, int) {
            if (op.name == "stablehlo.convolution") {
                ++convolutions;
                const auto dims = convDimensions(op);
                QVERIFY(dims);
                QCOMPARE(dims->inputSpatial.size(), std::size_t(2));
            } else if (op.name == "stablehlo.all_reduce") {
                ++allReduces;
                const auto groups = replicaGroups(op, module);
                QVERIFY(groups);
                QCOMPARE(*groups, (std::vector<std::vector<std::int64_t>> { { 0, 1, 2, 3 } }));
                QCOMPARE(op.regions.size(), std::size_t(1));
            } else if (op.name == "func.call") {
                ++calls;
                QVERIFY(module.findFunction(calleeOf(op).value_or("")));
            }
        });
    QCOMPARE(convolutions, 158); // grep -c stablehlo.convolution
    QCOMPARE(allReduces, 375); // grep -c 'replica_groups = dense<[[0, 1, 2, 3]]>'
    QVERIFY(calls > 0);
    // The first convolution: 7x7 stride 2, pad 3, NHWC f16.
    const Op* first = nullptr;
    forEachOp(module.entry()->body, [&](const Op& op, int) {
        if (!first && op.name == "stablehlo.convolution")
            first = &op;
    });
    QVERIFY(first);
    const ConvDimensions dims = convDimensions(*first).value();
    QCOMPARE(dims.strides, (std::vector<std::int64_t> { 2, 2 }));
    QCOMPARE(dims.padding.front(), std::make_pair(std::int64_t(3), std::int64_t(3)));
    QCOMPARE(dims.inputFeature, std::int64_t(3));
    QCOMPARE(
        QString::fromStdString(toString(first->resultTypes.front())), QStringLiteral("tensor<256x112x112x64xf16>"));
}

ELK_CORPUS_TEST_MAIN(TestHloCorpus, kCorpus)
#include "tst_hlo_corpus.moc"
