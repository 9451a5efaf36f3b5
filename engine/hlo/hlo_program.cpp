// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Flattening a module into the ops one device executes (hlo-design §2): calls inlined at each call
// site, while bodies weighted by inferred trip counts, the most expensive case branch, and the data
// dependencies followed through calls, loops and region arguments.
#include "engine/hlo/hlo_program.h"
#include "engine/hlo/hlo_program_flattener.h"

#include "engine/hlo/hlo_attrs.h"
#include "engine/hlo/hlo_sharding.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace elk::hlo::detail {

namespace {

    std::string formatCount(double count)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.3g", count);
        return text;
    }

} // namespace

void Flattener::run()
{
    const Function* entry
        = m_options.entryFunction.empty() ? m_module.entry() : m_module.findFunction(m_options.entryFunction);
    if (!entry) {
        addError(m_options.entryFunction.empty() ? "no entry function"
                                                 : "entry function @" + m_options.entryFunction + " not found",
            {});
        return;
    }
    indexDefinitions();
    m_sources.resize(m_defs.size() + m_module.valueNames.size());
    m_argConstants.resize(m_sources.size());
    m_cache.reserve(m_opCount);
    for (std::size_t i = 0; i < entry->arguments.size(); ++i)
        source(entry->arguments[i]) = Source { -1, std::uint32_t(i) };
    if (m_tiledModule) {
        m_argPieces.resize(entry->arguments.size());
        for (std::size_t i = 0; i < entry->arguments.size(); ++i) {
            const Type& type = entry->argumentTypes[i];
            const AttributeList* attrs = i < entry->argumentAttributes.size() ? &entry->argumentAttributes[i] : nullptr;
            const Attribute* sharding = attrs ? findAttribute(*attrs, "mhlo.sharding") : nullptr;
            if (!sharding && attrs)
                sharding = findAttribute(*attrs, "sdy.sharding");
            if (sharding)
                m_argPieces[i] = shardingTiles(*sharding, m_module, type.dims.size());
            else
                m_argPieces[i] = std::vector<std::int64_t>(type.dims.size(), 1); // unannotated: replicated
        }
    }
    if (const double inlined = inlinedOpCount(*entry); inlined > double(kMaxFlatOps)) {
        addError("the program would hold " + formatCount(inlined) + " ops with its calls inlined (at most "
                + std::to_string(kMaxFlatOps) + ")",
            entry->location);
        return;
    } else {
        m_program.ops.reserve(std::size_t(inlined) + 1);
    }
    m_callStack.push_back(entry->name);
    if (!entry->body.blocks.empty())
        flattenBlock(entry->body.blocks.front(), 1.0, entry->name, true);
    finish();
}

Source& Flattener::source(ValueId v)
{
    if (v >= m_sources.size())
        m_sources.resize(std::size_t(v) + 1);
    return m_sources[v];
}

std::string Flattener::where(const SourceLocation& at) const
{
    std::string text = m_module.sourceName;
    if (at.line > 0)
        text += ':' + std::to_string(at.line) + ':' + std::to_string(at.column);
    return text;
}

void Flattener::addError(const std::string& message, const SourceLocation& at)
{
    const std::string text = where(at) + ": " + message;
    if (std::find(m_program.errors.begin(), m_program.errors.end(), text) == m_program.errors.end())
        m_program.errors.push_back(text);
}

void Flattener::indexDefinitions()
{
    m_defs.resize(m_module.valueNames.size());
    for (const Function& function : m_module.functions)
        forEachOp(function.body, [this](const Op& op, int) {
            ++m_opCount;
            for (std::size_t r = 0; r < op.results.size(); ++r) {
                const ValueId v = op.results[r];
                if (v >= m_defs.size())
                    m_defs.resize(std::size_t(v) + 1);
                m_defs[v] = DefSite { &op, std::uint32_t(r) };
            }
        });
}

// Ops of a function with every call inlined (all branches counted), to refuse call graphs that
// multiply out beyond memory before building them.
double Flattener::inlinedOpCount(const Function& function)
{
    const auto known = m_inlinedCounts.find(function.name);
    if (known != m_inlinedCounts.end())
        return known->second;
    m_inlinedCounts[function.name] = 0; // a recursive call counts nothing (flattening reports it)
    double count = 0;
    forEachOp(function.body, [&](const Op& op, int) {
        count += 1;
        const std::string_view base = baseOpName(op.name);
        if (base == "func.call" || base == "call" || base == "composite")
            if (const Function* callee = calleeFunction(op))
                count += inlinedOpCount(*callee);
    });
    m_inlinedCounts[function.name] = count;
    return count;
}

const Function* Flattener::calleeFunction(const Op& op) const
{
    const auto name = calleeOf(op);
    return name ? m_module.findFunction(*name) : nullptr;
}

std::vector<Source> Flattener::flattenBlock(
    const Block& block, double executions, const std::string& function, bool entry)
{
    std::vector<Source> returned;
    for (const Op& op : block.ops) {
        if (m_tooLarge)
            break;
        if (detail::isTerminator(op.name)) {
            for (ValueId v : op.operands)
                returned.push_back(source(v));
            if (entry)
                emitOp(op, executions, function);
            continue;
        }
        const std::string_view base = baseOpName(op.name);
        if (base == "func.call" || base == "call" || base == "composite")
            flattenCall(op, executions);
        else if (base == "while")
            flattenWhile(op, executions, function);
        else if (base == "case" || base == "if")
            flattenCase(op, executions, function);
        else if (detail::isStructuralOp(op.name) && op.regions.size() == 1) // sdy computations, mhlo.fusion
            flattenInline(op, executions, function);
        else
            emitOp(op, executions, function);
    }
    return returned;
}

void Flattener::bindResults(const Op& op, const std::vector<Source>& values)
{
    for (std::size_t i = 0; i < op.results.size(); ++i)
        source(op.results[i]) = i < values.size() ? values[i] : Source {};
}

void Flattener::bindArguments(const std::vector<ValueId>& arguments, const Op& op)
{
    for (std::size_t i = 0; i < arguments.size(); ++i)
        source(arguments[i]) = i < op.operands.size() ? source(op.operands[i]) : Source {};
}

void Flattener::flattenCall(const Op& op, double executions)
{
    const auto name = calleeOf(op);
    const Function* callee = name ? m_module.findFunction(*name) : nullptr;
    if (!callee) {
        addError("call to missing function @" + name.value_or("?"), op.location);
        return;
    }
    if (std::find(m_callStack.begin(), m_callStack.end(), callee->name) != m_callStack.end()) {
        addError("recursive call to @" + callee->name, op.location);
        return;
    }
    for (std::size_t i = 0; i < callee->arguments.size(); ++i) {
        const ValueId arg = callee->arguments[i];
        if (arg >= m_argConstants.size())
            m_argConstants.resize(std::size_t(arg) + 1);
        m_argConstants[arg] = i < op.operands.size() ? constantOf(op.operands[i]) : std::nullopt;
    }
    bindArguments(callee->arguments, op);
    m_callStack.push_back(callee->name);
    std::vector<Source> returned;
    if (!callee->body.blocks.empty())
        returned = flattenBlock(callee->body.blocks.front(), executions, callee->name, false);
    m_callStack.pop_back();
    bindResults(op, returned);
}

void Flattener::flattenWhile(const Op& op, double executions, const std::string& function)
{
    if (op.regions.size() < 2 || op.regions[0].blocks.empty() || op.regions[1].blocks.empty()) {
        emitOp(op, executions, function);
        return;
    }
    std::int64_t trips = 0;
    if (const auto inferred = inferTripCount(op)) {
        trips = *inferred;
    } else {
        trips = std::max<std::int64_t>(0, m_options.defaultTripCount);
        if (m_warnedLoops.insert(&op).second)
            m_program.warnings.push_back(where(op.location) + ": while loop at " + std::to_string(op.location.line)
                + ':' + std::to_string(op.location.column) + ": trip count not inferred; using "
                + std::to_string(trips));
    }
    const Block& cond = op.regions[0].blocks[0];
    const Block& body = op.regions[1].blocks[0];
    bindArguments(cond.arguments, op);
    flattenBlock(cond, executions * double(trips + 1), function, false);
    bindArguments(body.arguments, op);
    const std::vector<Source> returned = flattenBlock(body, executions * double(trips), function, false);
    if (trips > 0) {
        bindResults(op, returned);
    } else {
        std::vector<Source> initial;
        for (ValueId v : op.operands)
            initial.push_back(source(v));
        bindResults(op, initial);
    }
}

// The most expensive branch (FLOPs, then bytes) stands for the op.
void Flattener::flattenCase(const Op& op, double executions, const std::string& function)
{
    const std::size_t mark = m_program.ops.size();
    const std::size_t warningMark = m_program.warnings.size();
    const std::set<const Op*> warned = m_warnedLoops;
    std::size_t best = 0;
    double bestFlops = -1, bestBytes = -1;
    for (std::size_t b = 0; b < op.regions.size(); ++b) {
        if (op.regions[b].blocks.empty())
            continue;
        flattenBlock(op.regions[b].blocks[0], executions, function, false);
        double flops = 0, bytes = 0;
        for (std::size_t i = mark; i < m_program.ops.size(); ++i) {
            const FlatOp& f = m_program.ops[i];
            if (f.opClass != OpClass::Compute)
                continue;
            flops += f.cost.flops * f.executions;
            bytes += f.cost.bytes() * f.executions;
        }
        if (flops > bestFlops || (flops == bestFlops && bytes > bestBytes)) {
            best = b;
            bestFlops = flops;
            bestBytes = bytes;
        }
        m_program.ops.resize(mark);
        m_program.warnings.resize(warningMark);
        m_warnedLoops = warned;
    }
    std::vector<Source> returned;
    if (best < op.regions.size() && !op.regions[best].blocks.empty())
        returned = flattenBlock(op.regions[best].blocks[0], executions, function, false);
    bindResults(op, returned);
}

void Flattener::flattenInline(const Op& op, double executions, const std::string& function)
{
    if (op.regions[0].blocks.empty()) {
        bindResults(op, {});
        return;
    }
    const Block& block = op.regions[0].blocks[0];
    bindArguments(block.arguments, op);
    // An XLA fusion (one kernel of an optimised export): its ops are tagged with the instance,
    // a fusion nested in another belongs to the outer one.
    const bool fusion = baseOpName(op.name) == "fusion" && m_currentFusion < 0;
    if (fusion)
        m_currentFusion = m_fusionCount++;
    bindResults(op, flattenBlock(block, executions, function, false));
    if (fusion)
        m_currentFusion = -1;
}

const CachedOp& Flattener::cached(const Op& op)
{
    const auto found = m_cache.find(&op);
    if (found != m_cache.end())
        return found->second;
    CachedOp c;
    std::int64_t groupSize = 0;
    if (const auto kind = collectiveKindFromOpName(op.name)) {
        CollectiveInfo info;
        info.kind = *kind;
        if (*kind == CollectiveKind::CollectivePermute) {
            const auto pairs = sourceTargetPairs(op);
            info.pairCount = std::int64_t(pairs.size());
            info.pairs.assign(pairs.begin(), pairs.end());
            std::set<std::int64_t> devices;
            for (const auto& [from, to] : pairs) {
                devices.insert(from);
                devices.insert(to);
            }
            if (!devices.empty())
                info.groups.emplace_back(devices.begin(), devices.end());
        } else if (const auto groups = replicaGroups(op, m_module)) {
            info.groups = *groups;
        }
        info.groupSize = info.groups.empty() ? std::max<std::int64_t>(1, m_options.deviceCount)
                                             : std::int64_t(info.groups.front().size());
        for (const Type& type : op.operandTypes)
            info.operandBytes += typeBytes(type);
        for (const Type& type : op.resultTypes)
            info.resultBytes += typeBytes(type);
        groupSize = info.groupSize;
        c.collective = std::move(info);
    }
    c.detail = detail::costOpDetail(op, groupSize);
    c.signature = detail::signatureOf(op);
    if (!c.detail.known) {
        c.unknownName = op.name;
        if (baseOpName(op.name) == "custom_call")
            c.unknownName += " @" + customCallTarget(op).value_or("?");
    }
    return m_cache.emplace(&op, std::move(c)).first->second;
}

void Flattener::emitOp(const Op& op, double executions, const std::string& function)
{
    if (m_program.ops.size() >= kMaxFlatOps) { // calls nested many times over: refuse, not exhaust memory
        m_tooLarge = true;
        addError("the program exceeds " + std::to_string(kMaxFlatOps) + " ops with its calls inlined", op.location);
        return;
    }
    const CachedOp& c = cached(op);
    FlatOp flat;
    flat.op = &op;
    flat.function = function;
    flat.executions = executions;
    flat.operandSources.reserve(op.operands.size());
    flat.operandResultIndex.reserve(op.operands.size());
    for (ValueId v : op.operands) {
        const Source s = source(v);
        flat.operandSources.push_back(s.op);
        flat.operandResultIndex.push_back(s.result);
        if (s.op >= 0)
            flat.inputs.push_back(std::uint32_t(s.op));
    }
    std::sort(flat.inputs.begin(), flat.inputs.end());
    flat.inputs.erase(std::unique(flat.inputs.begin(), flat.inputs.end()), flat.inputs.end());
    flat.opClass = c.detail.opClass;
    flat.cost = c.detail.cost;
    flat.collective = c.collective;
    flat.known = c.detail.known;
    flat.signature = c.signature;
    flat.xlaFusion = m_currentFusion;
    if (m_tiledModule)
        shardInstance(op, flat);
    const auto index = std::int32_t(m_program.ops.size());
    m_program.ops.push_back(std::move(flat));
    for (std::size_t r = 0; r < op.results.size(); ++r)
        source(op.results[r]) = Source { index, std::uint32_t(r) };
}

void Flattener::finish()
{
    std::map<std::string, std::int64_t> unknown;
    std::int64_t unknownCount = 0;
    bool anyCollective = false;
    for (const FlatOp& flat : m_program.ops) {
        anyCollective = anyCollective || flat.opClass == OpClass::Collective;
        if (!flat.known) {
            ++unknown[m_cache.at(flat.op).unknownName];
            ++unknownCount;
        }
    }
    for (const auto& [name, count] : unknown)
        m_program.unknownOps.push_back(name);
    if (unknownCount > 0) {
        std::string list;
        for (const std::string& name : m_program.unknownOps)
            list += (list.empty() ? "" : ", ") + name;
        m_program.warnings.push_back(m_module.sourceName + ": " + std::to_string(unknownCount)
            + " ops of unknown kind costed as memory traffic: " + list);
    }
    if (m_tiledModule) {
        const std::int64_t local = m_program.shardedOps;
        const std::int64_t global = m_program.globalShapeOps;
        if (global > 0)
            m_program.warnings.push_back(m_module.sourceName + ": the module is not partitioned yet (it carries "
                + "tiled shardings); " + std::to_string(global) + " compute op(s) have no sharding of their own "
                + "and none follows from their operands: they are costed at their global shape on every device"
                + (local > 0 ? " (" + std::to_string(local) + " ops are costed at their local piece)" : std::string())
                + "; export the per-device (post-SPMD) program for per-device costs");
        if (!anyCollective)
            m_program.warnings.push_back(m_module.sourceName
                + ": the module carries tiled shardings but no explicit collectives: communication implied by "
                  "the partitioner is not modelled; export the per-device (post-SPMD) program to include it");
    }
}

} // namespace elk::hlo::detail

namespace elk::hlo {

double HloProgram::totalFlops() const
{
    double sum = 0;
    for (const FlatOp& flat : ops)
        if (flat.opClass == OpClass::Compute)
            sum += flat.cost.flops * flat.executions;
    return sum;
}

double HloProgram::totalBytes() const
{
    double sum = 0;
    for (const FlatOp& flat : ops)
        if (flat.opClass == OpClass::Compute)
            sum += flat.cost.bytes() * flat.executions;
    return sum;
}

HloProgram flattenModule(const Module& module, const FlattenOptions& options)
{
    HloProgram program;
    program.module = &module;
    detail::Flattener(module, options, program).run();
    return program;
}

} // namespace elk::hlo
