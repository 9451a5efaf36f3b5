// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/artifact_parity.h"

#include "engine/core/parallel_for.h"
#include "engine/core/read_file.h"
#include "engine/import/artifact_front_end.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

namespace elk::run {
namespace {

    using Clock = std::chrono::steady_clock;

    double secondsSince(Clock::time_point start)
    {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    partition::artifact::Expr toExpr(const import::artifact::Op& op)
    {
        partition::artifact::Expr expr;
        expr.type = partition::artifact::OpType(int(op.type));
        expr.dims = op.dims;
        expr.tensors = op.tensors;
        expr.onchip = op.onchip;
        return expr;
    }

    /// The artifact scheduler's knobs for a spec: its chip, the layer count and the quirks chosen.
    schedule::artifact::ParityKnobs parityKnobs(const RunSpec& spec, const ParityOptions& options, int layers)
    {
        schedule::artifact::ParityKnobs knobs;
        knobs.cores = spec.chip.totalCores();
        knobs.sramBytesPerCore = spec.chip.sramBytesPerCore;
        knobs.hbmMiBPerMs = options.quirks.hbmGBpsAsMiBPerMs ? spec.chip.totalHbmBandwidthGBps()
                                                             : spec.chip.totalHbmBandwidthMiBPerMs();
        knobs.cyclesPerMs = spec.chip.clockHz / 1000.0;
        knobs.linkGiBpsPerCore = spec.chip.interconnect.linkBandwidthGBpsPerCore;
        knobs.layers = layers;
        knobs.meshRatio = options.meshRatio;
        knobs.commScale = options.commScale;
        knobs.compScale = options.compScale;
        knobs.training = spec.phase == Phase::Train;
        knobs.quirks = options.quirks.scheduler;
        return knobs;
    }

} // namespace

ParityRun runArtifactParity(const RunSpec& spec, const ParityOptions& options, RunControl& control)
{
    ParityRun run;
    const auto importStart = Clock::now();
    if (spec.model.format != "einstein-v2") {
        run.errors.push_back(spec.model.path
            + ": artifact parity runs the artifact's own einstein_v2 model files (e.g. "
              "../shared/corpus/einstein/llama2-13.json); this model is "
            + spec.model.format);
        return run;
    }
    if (spec.phase == Phase::Prefill) {
        run.errors.push_back("artifact parity: the artifact has decode and (prefill-forward) training runs only; use "
                             "--phase decode or --phase train");
        return run;
    }
    const std::string modelName = std::filesystem::path(spec.model.path).stem().string();
    const auto defaults = import::artifact::paperModelDefaults(modelName);
    run.layers = options.layers > 0 ? options.layers : defaults ? defaults->layers : 0;
    run.splitFactor = options.splitFactor > 0 ? options.splitFactor : defaults ? defaults->splitFactor : 3;
    if (run.layers <= 0) {
        run.errors.push_back(spec.model.path
            + ": artifact parity needs the model's layer count (launch.py --layers); "
              "give --layers L (the paper's files have it built in: llama2-13, llama2-70, opt-30, "
              "gemma2, vit-huge)");
        return run;
    }
    std::string readError;
    const auto text = readFileText(spec.model.path, readError, std::uintmax_t(1) << 30);
    if (!text) {
        run.errors.push_back(readError);
        return run;
    }
    const std::int64_t cores = spec.chip.totalCores();
    const bool training = spec.phase == Phase::Train;
    import::artifact::ParseOptions parse;
    parse.batch = spec.batch;
    parse.seq = training ? spec.seqLen : 1;
    parse.kvLen = training ? 256 : spec.kvLen;
    parse.capacityMB = options.quirks.capacitySplit ? cores / (training ? run.splitFactor + 1 : run.splitFactor) : 0;
    parse.modelName = modelName;
    parse.onchipOnlyFromPrevious = options.quirks.reloadEarlierActivations;
    parse.dropGatherV2 = options.quirks.dropGatherV2;
    const import::artifact::ParseResult parsed = import::artifact::parseModel(*text, parse);
    if (!parsed.ok()) {
        run.errors.push_back(spec.model.path + ": " + parsed.error);
        return run;
    }
    run.ops = int(parsed.ops.size());
    if (run.ops == 0) {
        run.errors.push_back(spec.model.path + ": no operators left after the artifact's front end");
        return run;
    }
    run.importSeconds = secondsSince(importStart);

    // One plan search per distinct expression, as the artifact's memoised constructor shares them.
    const auto searchStart = Clock::now();
    std::map<partition::artifact::Expr, int> keyOf;
    std::vector<partition::artifact::Expr> distinct;
    std::vector<int> keys;
    for (const import::artifact::Op& op : parsed.ops) {
        auto expr = toExpr(op);
        auto [it, inserted] = keyOf.try_emplace(expr, int(distinct.size()));
        if (inserted)
            distinct.push_back(std::move(expr));
        keys.push_back(it->second);
    }
    run.distinctExpressions = int(distinct.size());
    partition::artifact::SearchSettings search;
    search.cores = cores;
    search.coresPerChip = spec.chip.coresPerChip;
    search.sramBytesPerCore = spec.chip.sramBytesPerCore;
    search.syncCycles = double(spec.chip.interconnect.syncCostCycles);
    search.multiChipFactor = spec.chip.interChip.overheadFactor;
    search.training = training;
    search.scrambledTemporal = options.quirks.scrambledTemporal;
    std::vector<std::shared_ptr<const partition::artifact::ExprPlans>> shared(distinct.size());
    const int threads = options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<int> done { 0 };
    parallelFor(distinct.size(), threads, [&](int e) {
        shared[std::size_t(e)] = partition::artifact::searchExprShared(distinct[std::size_t(e)], search, control);
        ++done;
    });
    run.searchSeconds = secondsSince(searchStart);
    if (control.stopRequested()) {
        run.status = RunStatus::Stopped;
        return run;
    }
    for (std::size_t e = 0; e < shared.size(); ++e) {
        if (!shared[e]->ok()) {
            for (std::size_t i = 0; i < parsed.ops.size(); ++i) {
                if (keys[i] == int(e)) {
                    run.errors.push_back(parsed.ops[i].name + ": " + shared[e]->error);
                    break;
                }
            }
        }
    }
    if (!run.errors.empty())
        return run;

    std::vector<schedule::artifact::ParityOp> ops;
    for (std::size_t i = 0; i < parsed.ops.size(); ++i) {
        schedule::artifact::ParityOp op;
        op.plans = shared[std::size_t(keys[i])].get(); // `shared` outlives every schedule below
        op.exprKey = keys[i];
        const auto type = parsed.ops[i].type;
        op.matmul = type == import::artifact::OpType::MatMul || type == import::artifact::OpType::Conv;
        op.dims = parsed.ops[i].dims;
        ops.push_back(op);
    }
    const schedule::artifact::ParityKnobs knobs = parityKnobs(spec, options, run.layers);
    run.hbmMiBPerMs = knobs.hbmMiBPerMs;

    std::vector<schedule::Design> designs;
    for (const std::string& name : spec.designs) {
        if (auto design = schedule::designFromString(name))
            designs.push_back(*design);
    }
    run.designs.resize(designs.size());
    parallelFor(designs.size(), threads, [&](int d) {
        ParityDesign& out = run.designs[std::size_t(d)];
        out.design = designs[std::size_t(d)];
        const auto start = Clock::now();
        schedule::artifact::ParityResult result = schedule::artifact::scheduleParity(ops, knobs, out.design, control);
        out.seconds = secondsSince(start);
        out.error = result.error;
        if (result.schedule) {
            out.latencyMs = result.schedule->latencyCycles / knobs.cyclesPerMs;
            for (const auto& interval : result.schedule->execute)
                out.executeMs += interval.length() / knobs.cyclesPerMs;
            for (const auto& interval : result.schedule->preload)
                out.preloadMs += interval.length() / knobs.cyclesPerMs;
            out.metrics = schedule::artifact::parityMetrics(ops, knobs, *result.schedule);
            out.schedule = std::move(result.schedule);
        }
    });
    if (control.stopRequested())
        run.status = RunStatus::Stopped;
    return run;
}

std::string parityRunToJson(const RunSpec& spec, const ParityRun& run)
{
    nlohmann::ordered_json root;
    root["schema"] = "elk.parity-run/1";
    root["parity"] = "artifact";
    root["model"] = spec.model.path;
    root["chip"] = spec.chip.name;
    root["cores"] = spec.chip.totalCores();
    root["hbm_mib_per_ms"] = run.hbmMiBPerMs;
    root["batch"] = spec.batch;
    root["kv_len"] = spec.kvLen;
    root["layers"] = run.layers;
    root["split_factor"] = run.splitFactor;
    root["ops"] = run.ops;
    root["distinct_expressions"] = run.distinctExpressions;
    auto& designs = root["designs"];
    designs = nlohmann::ordered_json::array();
    for (const ParityDesign& design : run.designs) {
        nlohmann::ordered_json row;
        row["design"] = schedule::toString(design.design);
        if (design.schedule) {
            row["latency_ms"] = design.latencyMs;
            row["execute_ms"] = design.executeMs;
            row["preload_ms"] = design.preloadMs;
            row["note"] = design.schedule->note;
            row["orders_tried"] = design.schedule->ordersTried;
            row["schedule_seconds"] = design.seconds;
            const auto& m = design.metrics;
            row["hbm_utilization"] = m.hbmUtilization;
            row["noc_utilization"] = { { "load", m.nocLoadUtilization }, { "shift", m.nocShiftUtilization } };
            row["tflops"] = m.tflops;
            row["tflops_artifact_units"] = m.tflopsArtifact;
            row["breakdown_ms"] = { { "overlapped", m.overlapMs }, { "preload_only", m.preloadOnlyMs },
                { "execute_only", m.executeOnlyMs }, { "interconnect", m.interconnectMs } };
        } else {
            row["error"] = design.error;
        }
        designs.push_back(std::move(row));
    }
    root["timings_s"] = { { "import", run.importSeconds }, { "search", run.searchSeconds } };
    return root.dump(2) + "\n";
}

} // namespace elk::run
