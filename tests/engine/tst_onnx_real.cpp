// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX models exported by other projects (../shared/corpus/onnx-real: paddle2onnx's PaddleOCR
// detector and classifier), with free input dims: unbound, the error names the option that binds
// them; bound with --input-shape, every file imports. Skipped, with the reason, when the folder is
// absent.
#include "engine/import/onnx_importer.h"
#include "engine/run/model_load.h"

#include <QTest>

#include "tests/support/corpus_main.h"
#include <filesystem>
#include <map>
#include <regex>

using namespace elk;

namespace {

const std::filesystem::path kCorpus = std::filesystem::path(ELK_SHARED_DIR) / "corpus" / "onnx-real";

/// Sizes for the free dims of known files (the exporters' documented inference shapes); any other
/// file gets 1 for a leading dim and 64 for the rest, from the option the error suggests.
const std::map<std::string, std::vector<std::int64_t>> kKnownShapes = {
    { "ch_PP-OCRv4_det_infer.onnx", { 1, 3, 640, 640 } },
    { "ch_ppocr_mobile_v2.0_cls_infer.onnx", { 1, 3, 48, 192 } },
};

} // namespace

class TestOnnxReal : public QObject {
    Q_OBJECT

private slots:
    void everyFileImportsOnceBound_data();
    void everyFileImportsOnceBound();
    void detectorFlops();
};

void TestOnnxReal::everyFileImportsOnceBound_data()
{
    QTest::addColumn<QString>("path");
    if (!std::filesystem::is_directory(kCorpus)) {
        QTest::addRow("corpus absent") << QString(); // one row, so that the skip and its reason are printed
        return;
    }
    for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
        if (entry.path().extension() == ".onnx")
            QTest::addRow("%s", entry.path().filename().string().c_str())
                << QString::fromStdString(entry.path().string());
    }
}

void TestOnnxReal::everyFileImportsOnceBound()
{
    if (!std::filesystem::is_directory(kCorpus))
        QSKIP("the real ONNX corpus (../shared/corpus/onnx-real) is not present");
    QFETCH(QString, path);
    const std::string file = path.toStdString();
    // Unbound: each error about a free dim says which option binds it.
    const import::ImportResult unbound = import::importOnnxFile(file, {});
    import::ImportOptions options;
    static const std::regex suggestion(R"(--input-shape ([^=\s]+)=([0-9?,]+))");
    for (const import::ImportIssue& issue : unbound.errors) {
        std::smatch match;
        QVERIFY2(std::regex_search(issue.message, match, suggestion), issue.message.c_str());
        const std::string input = match[1];
        std::vector<std::int64_t> shape;
        const auto known = kKnownShapes.find(std::filesystem::path(file).filename().string());
        std::string dims = match[2];
        std::size_t start = 0;
        for (int d = 0; start <= dims.size(); ++d) {
            const std::size_t comma = std::min(dims.find(',', start), dims.size());
            const std::string token = dims.substr(start, comma - start);
            shape.push_back(token == "?" ? (d == 0 ? 1 : 64) : std::stoll(token));
            start = comma + 1;
        }
        options.dims.inputShapes[input] = known != kKnownShapes.end() ? known->second : shape;
    }
    const import::ImportResult bound = import::importOnnxFile(file, options);
    QVERIFY2(bound.ok(), bound.errors.empty() ? "?" : bound.errors.front().message.c_str());
    QVERIFY(bound.graph.validate().empty());
    QVERIFY(bound.graph.totalFlops() > 0);
    QVERIFY(!run::hasKvCache(bound.graph)); // a CNN: one inference pass, not a decode step
}

void TestOnnxReal::detectorFlops()
{
    // The PaddleOCR detector at 1×3×640×640: convolutions and matmuls count 4.466 GFLOP (issue 15's
    // reference); the rest is elementwise work (activations, resize, adds), so the total lies within
    // 20 % above it.
    const std::filesystem::path file = kCorpus / "ch_PP-OCRv4_det_infer.onnx";
    if (!std::filesystem::exists(file))
        QSKIP("the PaddleOCR detector (../shared/corpus/onnx-real) is not present");
    import::ImportOptions options;
    options.dims.inputShapes = { { "x", { 1, 3, 640, 640 } } };
    const import::ImportResult result = import::importOnnxFile(file.string(), options);
    QVERIFY2(result.ok(), result.errors.empty() ? "?" : result.errors.front().message.c_str());
    const double flops = double(result.graph.totalFlops());
    qInfo("PaddleOCR detector at 1x3x640x640: %.4f GFLOP (%.1f %% above the 4.466 GFLOP of conv + matmul)", flops / 1e9,
        100 * (flops / 4.466e9 - 1));
    QVERIFY(flops >= 4.466e9 * 0.98);
    QVERIFY(flops <= 4.466e9 * 1.20);
}

ELK_CORPUS_TEST_MAIN(TestOnnxReal, kCorpus)
#include "tst_onnx_real.moc"
