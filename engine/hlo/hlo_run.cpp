// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_run.h"

#include "engine/core/sha256.h"
#include "engine/store/result_store.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace elk::hlo {

namespace {

    std::string hexDouble(double value)
    {
        char text[40];
        std::snprintf(text, sizeof text, "%a", value);
        return text;
    }

    // The cache key of a region for one estimator: the region's content plus what the cost formulas
    // made of it, so that a change of the op cost table can never serve stale rows.
    std::string regionKey(
        const SliceRegion& region, const FusionResult& fusion, const std::vector<std::uint32_t>& kernels)
    {
        std::string text = region.contentHash;
        for (std::uint32_t k : kernels) {
            const Kernel& kernel = fusion.kernels[k];
            const auto position = std::find(region.kernels.begin(), region.kernels.end(), k) - region.kernels.begin();
            text += "\n" + std::to_string(position) + " " + hexDouble(kernel.flops) + " " + hexDouble(kernel.bytes)
                + " " + hexDouble(kernel.transcendentals) + " " + kernel.peakType + (kernel.matrixUnit ? " mx" : "");
        }
        return sha256Hex(text);
    }

    // Breakdown text: one line per kernel, "seconds(hex) computeBound estimator".
    std::string encodeBreakdown(const std::vector<KernelEstimate>& estimates)
    {
        std::string text;
        for (const KernelEstimate& e : estimates)
            text += hexDouble(e.seconds) + " " + (e.computeBound ? "1" : "0") + " " + e.estimator + "\n";
        return text;
    }

    std::optional<std::vector<KernelEstimate>> decodeBreakdown(
        const std::string& text, const std::vector<std::uint32_t>& kernels)
    {
        std::vector<KernelEstimate> out;
        std::istringstream lines(text);
        std::string line;
        while (std::getline(lines, line)) {
            const auto first = line.find(' ');
            const auto second = first == std::string::npos ? first : line.find(' ', first + 1);
            if (second == std::string::npos || out.size() >= kernels.size())
                return std::nullopt;
            KernelEstimate e;
            e.kernel = kernels[out.size()];
            char* end = nullptr;
            e.seconds = std::strtod(line.c_str(), &end);
            if (end != line.c_str() + first)
                return std::nullopt;
            e.computeBound = line.compare(first + 1, second - first - 1, "1") == 0;
            e.estimator = line.substr(second + 1);
            out.push_back(std::move(e));
        }
        if (out.size() != kernels.size())
            return std::nullopt;
        return out;
    }

    std::string kernelLabel(const HloProgram& program, const Kernel& kernel)
    {
        std::string heaviest;
        double heaviestFlops = -1;
        for (std::uint32_t op : kernel.ops) {
            const FlatOp& flat = program.ops[op];
            if (flat.cost.flops > heaviestFlops) {
                heaviestFlops = flat.cost.flops;
                heaviest = flat.op->name;
            }
        }
        std::string label = heaviest;
        if (kernel.ops.size() > 1)
            label += " + " + std::to_string(kernel.ops.size() - 1) + " fused";
        return label;
    }

    std::string humanBytes(double bytes)
    {
        char text[32];
        if (bytes >= 1e9)
            std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
        else if (bytes >= 1e6)
            std::snprintf(text, sizeof text, "%.2f MB", bytes / 1e6);
        else if (bytes >= 1e3)
            std::snprintf(text, sizeof text, "%.1f kB", bytes / 1e3);
        else
            std::snprintf(text, sizeof text, "%.0f B", bytes);
        return text;
    }

    struct Chain {
        std::vector<std::unique_ptr<ComputeEstimator>> estimators;
    };

} // namespace

namespace {

    /// The refusals before any work: unbound `?` dims, unknown presets, estimators that cannot be made.
    /// Fills result.system, result.device and `chain`; false when the run is refused.
    bool prepareRun(const Module& module, const HloRunOptions& options, HloRunResult& result, Chain& chain)
    {
        if (options.dynamicDimSize && *options.dynamicDimSize < 1) {
            result.errors.push_back("--dim ?=" + std::to_string(*options.dynamicDimSize) + ": sizes must be >= 1");
            return false;
        }
        if (const auto dynamic = unboundDynamicDims(module); !dynamic.empty()) {
            std::string list;
            constexpr std::size_t kListed = 5;
            for (std::size_t i = 0; i < dynamic.size() && i < kListed; ++i)
                list += "\n  " + module.sourceName + ":" + std::to_string(dynamic[i].location.line) + ":"
                    + std::to_string(dynamic[i].location.column) + ": " + dynamic[i].where;
            if (dynamic.size() > kListed)
                list += "\n  ... and " + std::to_string(dynamic.size() - kListed) + " more";
            result.errors.push_back(std::to_string(dynamic.size()) + " type(s) have a dynamic dimension ('?') with no "
                + "bound, so their sizes are unknown; give one size to all of them with --dim ?=N:" + list);
            return false;
        }
        const SystemPresetResult system = resolveSystemPreset(options.system);
        if (!system.ok()) {
            for (const PresetError& error : system.errors)
                result.errors.push_back("system " + options.system + ": " + error.field + ": " + error.message);
            return false;
        }
        result.system = system.preset;
        result.systemName = system.preset.name;
        const DevicePresetResult device = resolveDevicePreset(system.preset.device);
        if (!device.ok()) {
            for (const PresetError& error : device.errors)
                result.errors.push_back("device " + system.preset.device + ": " + error.field + ": " + error.message);
            return false;
        }
        result.device = device.preset;
        if (options.efficiencyScale != 1 && options.efficiencyScale > 0) {
            result.device.computeEfficiency /= options.efficiencyScale;
            result.device.memoryEfficiency /= options.efficiencyScale;
            result.device.efficiencyProvenance
                = "scaled by 1/" + std::to_string(options.efficiencyScale) + " (validation fit)";
        }
        for (const std::string& spec :
            options.estimators.empty() ? std::vector<std::string> { "roofline" } : options.estimators) {
            EstimatorResult made = makeEstimator(spec, result.device);
            if (!made.ok()) {
                result.errors.push_back(made.error);
                continue;
            }
            result.estimators.push_back(made.estimator->name());
            chain.estimators.push_back(std::move(made.estimator));
        }
        return result.errors.empty();
    }

    /// Collectives must name devices the system has; single-device groups move nothing (pmap exports
    /// lowered for one replica), which is worth saying. False when a collective names a missing device.
    bool checkCollectives(
        const Module& module, const HloProgram& program, const SystemPreset& system, HloRunResult& result)
    {
        const std::int64_t declared = module.declaredDeviceCount();
        if (declared > 1 && declared != system.deviceCount())
            result.warnings.push_back("the module is partitioned for " + std::to_string(declared) + " devices; "
                + system.name + " has " + std::to_string(system.deviceCount())
                + ": collectives keep the module's replica groups");
        std::int64_t singleDevice = 0;
        for (const FlatOp& op : program.ops) {
            if (!op.collective)
                continue;
            singleDevice += op.collective->groupSize == 1 ? 1 : 0;
            for (const auto& group : op.collective->groups)
                for (std::int64_t rank : group)
                    if (rank >= system.deviceCount()) {
                        result.errors.push_back(module.sourceName + ":" + std::to_string(op.op->location.line) + ":"
                            + std::to_string(op.op->location.column) + ": " + op.op->name + " names device "
                            + std::to_string(rank) + ", but " + system.name + " has "
                            + std::to_string(system.deviceCount()) + " devices");
                        return false;
                    }
        }
        if (singleDevice > 0)
            result.warnings.push_back(std::to_string(singleDevice)
                + " collectives have single-device replica groups (the module was exported for one replica?): they "
                  "move nothing");
        return true;
    }

    /// A communication region: one collective, priced by the network model.
    void priceCollective(const SliceRegion& region, const FusionResult& fusion, const HloProgram& program,
        const SystemPreset& system, const HloRunOptions& options, RegionReport& report, StepNode& node)
    {
        const Kernel& kernel = fusion.kernels.at(region.kernels.front());
        const FlatOp& flat = program.ops.at(kernel.ops.front());
        const CollectiveInfo& info = *flat.collective;
        const CollectiveTime time = collectiveTime(info, system, options.algorithm);
        report.seconds = time.seconds * kernel.executions;
        report.estimator = std::string(toString(time.algorithm)) + " " + time.path;
        report.collective = toString(info.kind);
        report.bytes = time.bytesSentPerDevice * kernel.executions;
        report.payloadBytes = info.operandBytes;
        report.executions = kernel.executions;
        report.groupSize = info.groupSize;
        report.flops = kernel.flops * kernel.executions;
        node.collective = info;
        node.commBytesPerDevice = info.operandBytes;
        node.executions = kernel.executions;
        node.label = report.collective + " " + humanBytes(info.operandBytes) + " ×" + std::to_string(info.groupSize)
            + (kernel.executions != 1 ? " (" + std::to_string(std::int64_t(kernel.executions)) + " times)" : "");
    }

    /// Compute regions: each kernel goes to the first estimator of the chain that supports it; a region
    /// estimated earlier in this run (a repeated layer) or in the region cache is not estimated again.
    class ComputePricing {
    public:
        ComputePricing(const HloProgram& program, const FusionResult& fusion, Chain& chain, store::ResultStore* cache,
            HloRunResult& result)
            : m_program(program)
            , m_fusion(fusion)
            , m_chain(chain)
            , m_cache(cache)
            , m_result(result)
            , m_kernelEstimates(fusion.kernels.size())
        {
        }

        /// False when stopped.
        bool price(const SliceRegion& region, std::size_t r, RegionReport& report, StepNode& node, RunControl& control)
        {
            std::vector<std::vector<std::uint32_t>> assigned(m_chain.estimators.size());
            for (std::uint32_t k : region.kernels) {
                const Kernel& kernel = m_fusion.kernels[k];
                bool priced = false;
                for (std::size_t e = 0; e < m_chain.estimators.size() && !priced; ++e)
                    if (m_chain.estimators[e]->supports(kernel, m_program)) {
                        assigned[e].push_back(k);
                        priced = true;
                    }
                if (!priced)
                    unpriced.push_back(k);
            }
            std::set<std::string> names;
            bool allCached = true;
            for (std::size_t e = 0; e < m_chain.estimators.size(); ++e) {
                if (assigned[e].empty())
                    continue;
                const std::optional<std::vector<KernelEstimate>> estimates
                    = estimatesOf(*m_chain.estimators[e], region, assigned[e], allCached, control);
                if (!estimates)
                    return false;
                for (const KernelEstimate& estimate : *estimates) {
                    if (!estimate.note.empty() && m_notes.insert(estimate.note).second && m_notes.size() <= 5)
                        m_result.warnings.push_back(estimate.estimator + ": " + estimate.note);
                    names.insert(estimate.estimator);
                    m_kernelEstimates[estimate.kernel] = estimate;
                }
            }
            report.cached = m_cache != nullptr && allCached;
            for (std::uint32_t k : region.kernels)
                addKernel(k, report);
            for (const std::string& name : names)
                report.estimator += (report.estimator.empty() ? "" : "+") + name;
            node.flops = report.flops;
            node.bytes = report.bytes;
            node.label = "compute " + std::to_string(r) + " (" + std::to_string(report.ops) + " ops)";
            return true;
        }

        /// The estimates not cached before, for the region cache.
        std::vector<std::pair<store::RegionCacheKey, store::CachedRegion>> toStore;
        std::vector<std::uint32_t> unpriced; ///< kernels no estimator supports, in step order

    private:
        std::optional<std::vector<KernelEstimate>> estimatesOf(ComputeEstimator& estimator, const SliceRegion& region,
            const std::vector<std::uint32_t>& kernels, bool& allCached, RunControl& control)
        {
            const store::RegionCacheKey key { estimator.hardwareHash(), estimator.name(), estimator.version(),
                regionKey(region, m_fusion, kernels) };
            std::optional<std::vector<KernelEstimate>> estimates;
            const std::string memoKey = key.estimator + "\n" + key.regionHash;
            if (const auto seen = m_memo.find(memoKey); seen != m_memo.end()) {
                // A repeated layer of this module: the same estimate, re-addressed to these kernels.
                estimates = seen->second;
                for (std::size_t i = 0; i < estimates->size(); ++i)
                    (*estimates)[i].kernel = kernels[i];
                ++m_result.cacheHits;
            } else if (m_cache != nullptr) {
                if (const auto hit = m_cache->loadRegion(key))
                    estimates = decodeBreakdown(hit->breakdown, kernels);
                if (estimates)
                    ++m_result.cacheHits;
            }
            if (!estimates) {
                ++m_result.cacheMisses;
                allCached = false;
                estimates = estimator.estimate(m_program, m_fusion, kernels, control);
                if (control.stopRequested())
                    return std::nullopt;
                if (m_cache != nullptr) {
                    double seconds = 0;
                    for (const KernelEstimate& estimate : *estimates)
                        seconds += estimate.seconds * m_fusion.kernels[estimate.kernel].executions;
                    toStore.emplace_back(key, store::CachedRegion { seconds, encodeBreakdown(*estimates) });
                }
            }
            m_memo.emplace(memoKey, *estimates);
            return estimates;
        }

        void addKernel(std::uint32_t k, RegionReport& report)
        {
            const Kernel& kernel = m_fusion.kernels[k];
            const KernelEstimate& estimate = m_kernelEstimates[k];
            report.seconds += estimate.seconds * kernel.executions;
            report.flops += kernel.flops * kernel.executions;
            report.bytes += kernel.bytes * kernel.executions;
            KernelPoint point;
            point.kernel = k;
            point.label = kernelLabel(m_program, kernel);
            point.flops = kernel.flops;
            point.bytes = kernel.bytes;
            point.seconds = estimate.seconds;
            point.executions = kernel.executions;
            point.computeBound = estimate.computeBound;
            point.estimator = estimate.estimator;
            point.peakType = kernel.peakType;
            point.signature = kernel.signature;
            m_result.kernels.push_back(std::move(point));
        }

        const HloProgram& m_program;
        const FusionResult& m_fusion;
        Chain& m_chain;
        store::ResultStore* m_cache;
        HloRunResult& m_result;
        std::vector<KernelEstimate> m_kernelEstimates;
        std::set<std::string> m_notes; // estimator notes, each said once
        std::map<std::string, std::vector<KernelEstimate>> m_memo; // regions estimated in this run, by cache key
    };

    /// A kernel nobody priced would count 0 s: a step time that looks like an answer and is not. False
    /// when the run is refused for it (without --allow-unpriced).
    bool reportUnpriced(const std::vector<std::uint32_t>& unpriced, const Module& module, const HloProgram& program,
        const FusionResult& fusion, const Chain& chain, const HloRunOptions& options, HloRunResult& result)
    {
        if (unpriced.empty())
            return true;
        std::string tried;
        for (const auto& estimator : chain.estimators)
            tried += (tried.empty() ? "" : ", ") + estimator->name();
        std::string list;
        constexpr std::size_t kListed = 5;
        for (std::size_t i = 0; i < unpriced.size() && i < kListed; ++i) {
            const Kernel& kernel = fusion.kernels[unpriced[i]];
            const FlatOp& first = program.ops.at(kernel.ops.front());
            list += "\n  " + module.sourceName + ":" + std::to_string(first.op->location.line) + ":"
                + std::to_string(first.op->location.column) + ": " + kernelLabel(program, kernel) + ", signature "
                + kernel.signature;
        }
        if (unpriced.size() > kListed)
            list += "\n  ... and " + std::to_string(unpriced.size() - kListed) + " more";
        const std::string what
            = std::to_string(unpriced.size()) + " kernel(s) no estimator of the chain (" + tried + ") supports";
        if (!options.allowUnpriced) {
            result.errors.push_back(what + "; add an estimator that prices them (e.g. --estimator roofline last), or "
                + "--allow-unpriced to count them as 0 s:" + list);
            return false;
        }
        result.unpricedKernels = std::int64_t(unpriced.size());
        result.warnings.push_back(what + " count as 0 s (--allow-unpriced):" + list);
        return true;
    }

} // namespace

HloRunResult runHloModule(
    const Module& given, const HloRunOptions& options, store::ResultStore* cache, RunControl& control)
{
    // `?` dims without a bound: bound from the options on a copy, or the run is refused.
    std::optional<Module> bound;
    if (options.dynamicDimSize) {
        bound = given;
        bindDynamicDims(*bound, *options.dynamicDimSize);
    }
    const Module& module = bound ? *bound : given;
    HloRunResult result;
    result.moduleName = module.name.empty() ? "(anonymous)" : module.name;
    result.sourceFile = module.sourceName;
    result.fusionEnabled = options.fusion.enabled;
    Chain chain;
    if (!prepareRun(module, options, result, chain)) {
        result.status = RunStatus::Failed;
        return result;
    }

    control.progress(0, 1, "analyse");
    FlattenOptions flatten;
    flatten.defaultTripCount = options.defaultTripCount;
    flatten.deviceCount = result.system.deviceCount();
    const HloProgram program = flattenModule(module, flatten);
    result.warnings = program.warnings;
    if (!program.ok()) {
        result.errors = program.errors;
        result.status = RunStatus::Failed;
        return result;
    }
    if (!checkCollectives(module, program, result.system, result)) {
        result.status = RunStatus::Failed;
        return result;
    }
    result.unknownOps = program.unknownOps;
    for (const FlatOp& op : program.ops)
        if (op.opClass != OpClass::Free)
            ++result.opCount;
    result.totalFlops = program.totalFlops();

    const FusionResult fusion = fuseProgram(program, options.fusion);
    result.fusionMode = toString(fusion.mode);
    result.fusionEnabled = fusion.mode != FusionMode::None;
    result.unfusedBytes = fusion.unfusedBytes;
    result.fusedBytes = fusion.fusedBytes;
    const SliceResult slices = sliceProgram(program, fusion, options.slice);
    if (control.stopRequested()) {
        result.status = RunStatus::Stopped;
        return result;
    }

    ComputePricing pricing(program, fusion, chain, cache, result);
    const auto regionCount = std::int64_t(slices.regions.size());
    for (std::size_t r = 0; r < slices.regions.size(); ++r) {
        control.progress(std::int64_t(r), regionCount, "estimate");
        if (control.stopRequested()) {
            result.status = RunStatus::Stopped;
            return result;
        }
        const SliceRegion& region = slices.regions[r];
        RegionReport report;
        report.kind = region.kind;
        report.kernels = std::int64_t(region.kernels.size());
        StepNode node;
        node.kind = region.kind;
        node.dependencies = region.dependencies;
        for (std::uint32_t k : region.kernels)
            report.ops += std::int64_t(fusion.kernels[k].ops.size());
        if (region.kind == RegionKind::Communication) {
            priceCollective(region, fusion, program, result.system, options, report, node);
        } else if (!pricing.price(region, r, report, node, control)) {
            result.status = RunStatus::Stopped;
            return result;
        }
        node.seconds = report.seconds;
        result.stepNodes.push_back(std::move(node));
        result.regions.push_back(std::move(report));
    }
    if (!reportUnpriced(pricing.unpriced, module, program, fusion, chain, options, result)) {
        result.status = RunStatus::Failed;
        return result;
    }
    if (cache != nullptr && !pricing.toStore.empty()) {
        std::string error;
        if (!cache->saveRegions(pricing.toStore, &error))
            result.warnings.push_back("region cache: " + error);
    }

    control.progress(regionCount, regionCount, "simulate");
    result.timeline = simulateStep(result.stepNodes);
    for (std::size_t r = 0; r < result.regions.size(); ++r) {
        result.regions[r].startSeconds = result.timeline.startSeconds[r];
        result.regions[r].endSeconds = result.timeline.endSeconds[r];
    }
    result.computeSeconds = result.timeline.computeSeconds;
    result.commSeconds = result.timeline.commSeconds;
    result.exposedCommSeconds = result.timeline.exposedCommSeconds;
    result.stepSeconds = result.timeline.stepSeconds;
    return result;
}

HloRunResult runHloFile(
    const std::string& path, const HloRunOptions& options, store::ResultStore* cache, RunControl& control)
{
    const ReadResult read = readHloFile(path);
    const auto parsed = int(read.modules.size());
    if (parsed == 0 || options.partIndex < 0 || options.partIndex >= parsed) {
        HloRunResult result;
        result.sourceFile = path;
        for (const ReadError& error : read.errors)
            result.errors.push_back(toString(error));
        if (parsed > 0)
            result.errors.push_back(path + ": part " + std::to_string(options.partIndex) + " not found ("
                + std::to_string(parsed) + " part" + (parsed == 1 ? "" : "s") + " parsed)");
        else if (read.onlyComments)
            result.errors.push_back(path + ": holds only comments: no module or function to cost");
        else if (result.errors.empty())
            result.errors.push_back(path + ": expected a module or a function, found none");
        result.status = RunStatus::Failed;
        return result;
    }
    HloRunResult result = runHloModule(read.modules[std::size_t(options.partIndex)], options, cache, control);
    result.warnings.insert(result.warnings.begin(), read.warnings.begin(), read.warnings.end());
    for (const ReadError& error : read.errors)
        result.warnings.push_back("skipped a part that does not parse: " + toString(error));
    return result;
}

std::string hloRegionsToCsv(const HloRunResult& result)
{
    std::string csv = "index,kind,ops,kernels,seconds,start_s,end_s,estimator,collective,bytes,group_size\n";
    char line[512];
    for (std::size_t r = 0; r < result.regions.size(); ++r) {
        const RegionReport& region = result.regions[r];
        std::snprintf(line, sizeof line, "%zu,%s,%" PRId64 ",%" PRId64 ",%.9g,%.9g,%.9g,%s,%s,%.0f,%" PRId64 "\n", r,
            region.kind == RegionKind::Compute ? "compute" : "comm", region.ops, region.kernels, region.seconds,
            region.startSeconds, region.endSeconds, region.estimator.c_str(), region.collective.c_str(), region.bytes,
            region.groupSize);
        csv += line;
    }
    return csv;
}

} // namespace elk::hlo
