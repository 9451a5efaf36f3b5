// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// What `elk inspect` costs: graph analysis of a synthetic ~4,000-op graph, and import + analysis of
// the bundled Llama-2-70B decode model (target: at most 50 ms in a release build) and Llama-2-13B.
// Prints the median of N runs.
//   bench_inspect [--runs N]
#include "engine/import/onnx_importer.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph_analysis.h"
#include "engine/model/graph_json.h"
#include "tests/support/stacked_layers.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace elk;

namespace {

/// Median wall time of `runs` calls, in milliseconds.
double medianMs(int runs, const std::function<void()>& work)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto begin = std::chrono::steady_clock::now();
        work();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

int benchSynthetic(int runs)
{
    const model::GraphParseResult loaded
        = model::loadGraphFile(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
    if (!loaded.ok()) {
        std::fprintf(stderr, "sample model: %s\n", model::toString(loaded.errors.front()).c_str());
        return 1;
    }
    // 222 copies of the 18-op sample layer: 3,996 ops, about a 70B-class decode graph.
    const model::Graph graph = test::stackLayers(loaded.graph, 222, "synthetic-222-layers");
    model::GraphAnalysis analysis;
    const double analyzeMs = medianMs(runs, [&] { analysis = model::analyzeGraph(graph); });
    const std::vector<model::OpId> order = graph.topologicalOrder();
    model::LayerStructure layers;
    const double layersMs = medianMs(runs, [&] { layers = model::detectLayers(graph, order); });
    std::printf("synthetic %zu ops: analyzeGraph %.3f ms, detectLayers %.3f ms (found %d x %d, prefix %d, suffix %d)\n",
        graph.ops().size(), analyzeMs, layersMs, layers.layerCount, layers.opsPerLayer, layers.prefixOps,
        layers.suffixOps);
    return layers.layerCount == 222 && analysis.layers == layers ? 0 : 1;
}

/// Import + analysis of a bundled model's step from its ONNX bytes (built once, outside the timing),
/// with the dims of the paper's decode setting: batch 32, KV length 2048.
int benchBundled(const std::string& name, import::ModelPhase phase, int runs)
{
    const auto config = import::bundledModelConfig(name);
    if (!config)
        return 1;
    std::string bytes;
    const double buildMs = medianMs(1, [&] { bytes = import::buildTransformerOnnx(*config, phase); });
    import::ImportOptions options;
    options.dims.batch = 32;
    options.dims.seqLen = phase == import::ModelPhase::Decode ? 1 : 2048;
    if (phase == import::ModelPhase::Decode)
        options.dims.kvLen = 2048;
    options.dims.named["past + seq"] = phase == import::ModelPhase::Decode ? 2049 : 2048; // see cli_inspect.cpp
    import::ImportResult result;
    const double importMs = medianMs(runs, [&] { result = import::importOnnxBytes(bytes, name, options); });
    if (!result.ok()) {
        std::printf("%s %s: import failed: %s (median %.3f ms to fail)\n", name.c_str(), import::toString(phase),
            import::toString(name, result.errors.front()).c_str(), importMs);
        return 1;
    }
    model::GraphAnalysis analysis;
    const double analyzeMs = medianMs(runs, [&] { analysis = model::analyzeGraph(result.graph); });
    const double bothMs = medianMs(runs, [&] {
        const import::ImportResult again = import::importOnnxBytes(bytes, name, options);
        analysis = model::analyzeGraph(again.graph);
    });
    std::printf("%s %s (%zu bytes ONNX, built in %.1f ms): %zu ops; import %.3f ms, analysis %.3f ms, "
                "import + analysis %.3f ms; %d layers x %d ops\n",
        name.c_str(), import::toString(phase), bytes.size(), buildMs, result.graph.ops().size(), importMs, analyzeMs,
        bothMs, analysis.layers.layerCount, analysis.layers.opsPerLayer);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 20;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s [--runs N]\n", argv[0]);
            return 2;
        }
    }
    std::printf("median of %d runs\n", runs);
    int failures = benchSynthetic(runs);
    failures += benchBundled("llama2-70b", import::ModelPhase::Decode, runs); // the target: <= 50 ms
    failures += benchBundled("llama2-13b", import::ModelPhase::Decode, runs);
    return failures == 0 ? 0 : 1;
}
