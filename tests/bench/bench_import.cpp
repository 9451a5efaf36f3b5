// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What import costs: the whole libonnx-testdata corpus (target: at most 20 s), the Llama-2-70B
// decode step built by the transformer builder (target: import + analysis at most 50 ms), and the
// real files in ../shared (targets: llama2-70.json, 2.2 MB, and the PaddleOCR detector at most
// 0.3 s each). Prints the median of N runs; files are read and models built outside the timing.
//   bench_import [--runs N] [--corpus DIR] [--shared DIR]
#include "engine/import/einstein_importer.h"
#include "engine/import/onnx_importer.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph_analysis.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace elk;

namespace {

double threadCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// Median wall time of `runs` calls in ms; the median CPU time of this thread goes to `cpuMs`
/// (on a busy machine the wall time includes waiting for a core, the CPU time does not).
double medianMs(int runs, const std::function<void()>& work, double* cpuMs = nullptr)
{
    std::vector<double> times;
    std::vector<double> cpu;
    for (int i = 0; i < runs; ++i) {
        const double cpuBegin = threadCpuMs();
        const auto begin = std::chrono::steady_clock::now();
        work();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
        cpu.push_back(threadCpuMs() - cpuBegin);
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu.begin(), cpu.end());
    if (cpuMs)
        *cpuMs = cpu[cpu.size() / 2];
    return times[times.size() / 2];
}

int benchCorpus(const std::string& dir, int runs)
{
    if (!std::filesystem::is_directory(dir)) {
        std::printf("corpus: %s not found (install libonnx-testdata)\n", dir.c_str());
        return 0;
    }
    std::vector<std::pair<std::string, std::string>> models; // name, bytes
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.path().filename() != "model.onnx")
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        models.emplace_back(entry.path().parent_path().filename().string(), bytes.str());
    }
    int imported = 0;
    double cpu = 0;
    const double ms = medianMs(
        runs,
        [&] {
            imported = 0;
            for (const auto& [name, bytes] : models)
                imported += import::importOnnxBytes(bytes, name, {}).ok() ? 1 : 0;
        },
        &cpu);
    std::printf("corpus %s: %zu models, %d imported without bindings; whole corpus %.1f ms wall, %.1f ms CPU\n",
        dir.c_str(), models.size(), imported, ms, cpu);
    return 0;
}

int benchDecode(const std::string& name, int runs, std::int64_t batch, std::int64_t past)
{
    const auto config = import::bundledModelConfig(name);
    if (!config)
        return 1;
    const std::string bytes = import::buildTransformerOnnx(*config, import::ModelPhase::Decode);
    import::ImportOptions options;
    options.dims.batch = batch;
    options.dims.seqLen = 1;
    options.dims.kvLen = past;
    import::ImportResult result;
    double importCpu = 0;
    const double importMs = medianMs(
        runs, [&] { result = import::importOnnxBytes(bytes, name, options); }, &importCpu);
    if (!result.ok()) {
        std::printf("%s decode: %s\n", name.c_str(), import::toString(name, result.errors.front()).c_str());
        return 1;
    }
    model::GraphAnalysis analysis;
    double bothCpu = 0;
    const double bothMs = medianMs(
        runs,
        [&] {
            const import::ImportResult again = import::importOnnxBytes(bytes, name, options);
            analysis = model::analyzeGraph(again.graph);
        },
        &bothCpu);
    std::printf("%s decode (batch %lld, KV length %lld; %zu bytes ONNX): %zu ops, %.1f GFLOP; import %.2f ms wall "
                "(%.2f ms CPU), import + analysis %.2f ms wall (%.2f ms CPU)\n",
        name.c_str(), static_cast<long long>(batch), static_cast<long long>(past), bytes.size(),
        result.graph.ops().size(), double(result.graph.totalFlops()) / 1e9, importMs, importCpu, bothMs, bothCpu);
    return 0;
}

std::string readBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// The artifact's einstein files as a decode step (batch 32, KV 2048) and the exported ONNX models at
// the inference shapes their exporters document.
int benchRealFiles(const std::filesystem::path& shared, int runs)
{
    const auto einstein = shared / "corpus" / "einstein";
    const auto onnx = shared / "corpus" / "onnx-real";
    if (!std::filesystem::is_directory(einstein) && !std::filesystem::is_directory(onnx)) {
        std::printf("real files: %s not found\n", shared.string().c_str());
        return 0;
    }
    int failures = 0;
    std::vector<std::filesystem::path> files;
    for (const auto& dir : { einstein, onnx }) {
        if (!std::filesystem::is_directory(dir))
            continue;
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
            const auto ext = entry.path().extension();
            if (ext == ".json" || ext == ".onnx")
                files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
        const std::string bytes = readBytes(path);
        import::ImportOptions options;
        const bool isOnnx = path.extension() == ".onnx";
        if (isOnnx) {
            const bool detector = path.filename().string().find("_det_") != std::string::npos;
            options.dims.inputShapes["x"]
                = detector ? std::vector<std::int64_t> { 1, 3, 640, 640 } : std::vector<std::int64_t> { 1, 3, 48, 192 };
        } else {
            options.dims.batch = 32;
            options.dims.seqLen = 1;
            options.dims.kvLen = 2048;
        }
        import::ImportResult result;
        double cpu = 0;
        const double ms = medianMs(
            runs,
            [&] {
                result = isOnnx ? import::importOnnxBytes(bytes, path.string(), options)
                                : import::importEinsteinText(bytes, path.string(), options);
            },
            &cpu);
        if (!result.ok()) {
            std::printf("%s: %s\n", path.filename().string().c_str(),
                import::toString(path.string(), result.errors.front()).c_str());
            ++failures;
            continue;
        }
        std::printf("%-36s %9zu bytes: %5zu ops, %8.1f GFLOP; import %7.1f ms wall (%7.1f ms CPU)\n",
            path.filename().string().c_str(), bytes.size(), result.graph.ops().size(),
            double(result.graph.totalFlops()) / 1e9, ms, cpu);
    }
    return failures;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 3;
    std::string corpus = "/usr/share/libonnx-testdata/data";
    std::string shared = ELK_SHARED_DIR;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
            corpus = argv[++i];
        } else if (std::strcmp(argv[i], "--shared") == 0 && i + 1 < argc) {
            shared = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--runs N] [--corpus DIR] [--shared DIR]\n", argv[0]);
            return 2;
        }
    }
    std::printf("median of %d runs\n", runs);
    int failures = benchCorpus(corpus, runs);
    failures += benchDecode("llama2-70b", runs, 8, 2047);
    failures += benchDecode("llama2-70b", runs, 32, 2048);
    failures += benchDecode("llama2-13b", runs, 32, 2048);
    failures += benchRealFiles(shared, runs);
    return failures == 0 ? 0 : 1;
}
