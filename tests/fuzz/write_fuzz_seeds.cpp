// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// write_fuzz_seeds OUT_DIR: writes seed inputs for the decoders whose inputs the engine itself
// produces (run specs, cache payloads, Chakra traces, fitted cost models, measured tables), each into
// OUT_DIR/<harness>/, from the bundled sample model and the in-repo StableHLO fixtures. Generated at
// test time rather than committed, so the seeds always have the current payload format.
#include "engine/core/run_control.h"
#include "engine/cost/fitted_cost.h"
#include "engine/hlo/hlo_chakra.h"
#include "engine/hlo/hlo_run.h"
#include "engine/run/run_compile.h"
#include "engine/run/run_spec.h"
#include "engine/store/payload_codec.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::filesystem::path g_out;

void writeSeed(const std::string& harness, const std::string& name, const std::string& bytes)
{
    const std::filesystem::path folder = g_out / harness;
    std::filesystem::create_directories(folder);
    std::ofstream(folder / name, std::ios::binary) << bytes;
}

bool writeRunSeeds(const std::string& chip, const std::string& tag)
{
    elk::run::RunRequest request;
    request.modelPath = ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json";
    request.chip = chip;
    const elk::run::RunSpecResult resolved = elk::run::resolveRunSpec(request);
    if (!resolved.ok()) {
        std::fprintf(stderr, "write_fuzz_seeds: %s: %s\n", resolved.errors.front().field.c_str(),
            resolved.errors.front().message.c_str());
        return false;
    }
    writeSeed("fuzz_run_spec_json", tag + ".json", elk::run::runSpecToCanonicalJson(resolved.spec));
    elk::NullRunControl control;
    const elk::run::RunResult run = elk::run::executeRun(resolved.spec, control, 1);
    if (!run.ok() || !run.compiled) {
        std::fprintf(stderr, "write_fuzz_seeds: the sample run on %s failed\n", chip.c_str());
        return false;
    }
    using namespace elk::store::detail;
    writeSeed("fuzz_payload_partition_tables", tag + ".bin",
        encodePartitionTables(elk::run::partitionTablesOf(*run.compiled)));
    // With per-link detail only on the one-chip preset: the mesh's detailed payload is megabytes.
    if (tag == "mk2")
        writeSeed("fuzz_payload_designs", tag + "-detail.bin", encodeDesigns(run.designs, true));
    writeSeed("fuzz_payload_designs", tag + "-summary.bin", encodeDesigns(run.designs, false));
    return true;
}

bool writeHloSeeds(const std::string& module, const std::string& tag)
{
    elk::hlo::HloRunOptions options;
    elk::NullRunControl control;
    const elk::hlo::HloRunResult result
        = elk::hlo::runHloFile(ELK_TEST_DATA_DIR "/stablehlo/hespas/" + module, options, nullptr, control);
    if (!result.ok()) {
        std::fprintf(stderr, "write_fuzz_seeds: %s: %s\n", module.c_str(),
            result.errors.empty() ? "failed" : result.errors.front().c_str());
        return false;
    }
    const elk::hlo::ChakraExport chakra = elk::hlo::buildChakraExport(result.stepNodes, result.system.deviceCount());
    for (std::size_t rank = 0; rank < chakra.traces.size() && rank < 2; ++rank)
        writeSeed("fuzz_chakra_trace", tag + "." + std::to_string(rank) + ".et",
            elk::hlo::encodeChakraTrace(chakra.traces[rank]));
    std::string table = "signature,seconds,source\n";
    for (const elk::hlo::KernelPoint& kernel : result.kernels) {
        std::string quoted = kernel.signature;
        for (std::size_t at = quoted.find('"'); at != std::string::npos; at = quoted.find('"', at + 2))
            quoted.insert(at, 1, '"');
        table += "\"" + quoted + "\"," + std::to_string(kernel.seconds) + ",roofline\n";
    }
    writeSeed("fuzz_table_estimator_csv", tag + ".csv", table);
    return true;
}

void writeCostSeeds()
{
    const std::string samples = "# cycles measured on one core\n"
                                "kind,extents,dtype,cycles\n"
                                "matmul,32x128x64,f16,4210\n"
                                "matmul,64x128x64,f16,8190\n"
                                "matmul,64x256x128,f16,31000\n"
                                "matmul,16x64x32,f32,1900\n"
                                "elementwise,4096,f16,530\n"
                                "elementwise,8192,f16,1010\n"
                                "unary,2048,f16,300\n"
                                "softmax,64x128,f16,2400\n"
                                "reduce,64x128,f16,900\n";
    writeSeed("fuzz_cost_samples_csv", "samples.csv", samples);
    const elk::cost::CostSamplesResult parsed = elk::cost::parseCostSamplesCsv(samples, "samples.csv");
    if (parsed.ok())
        writeSeed("fuzz_fitted_cost_json", "fitted.json",
            elk::cost::fittedCostToJson(elk::cost::fitCostModel(parsed.samples, {})));
    else
        std::fprintf(stderr, "write_fuzz_seeds: the sample CSV does not parse: %s\n", parsed.error.c_str());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: write_fuzz_seeds OUT_DIR\n");
        return 2;
    }
    g_out = argv[1];
    std::error_code ignored;
    std::filesystem::remove_all(g_out, ignored); // the folder is this tool's: no stale seeds
    bool ok = writeRunSeeds("ipu-mk2-hbm", "mk2") && writeRunSeeds("ipu-pod4-hbm-mesh", "mesh");
    ok = writeHloSeeds("jax_example.mlir", "jax_example") && ok;
    ok = writeHloSeeds("test_split_replica_groups.mlir", "split_replica_groups") && ok;
    writeCostSeeds();
    return ok ? 0 : 1;
}
