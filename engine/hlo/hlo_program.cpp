// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Flattening a module into the ops one device executes (hlo-design §2): calls inlined at each call
// site, while bodies weighted by inferred trip counts, the most expensive case branch, and the data
// dependencies followed through calls, loops and region arguments.
#include "engine/hlo/hlo_program.h"
#include "engine/hlo/hlo_sharding.h"

#include "engine/hlo/hlo_attrs.h"
#include "engine/hlo/hlo_op_costs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

namespace elk::hlo {

namespace {

    using detail::baseOpName;

    struct Source {
        std::int32_t op = -1; ///< FlatOp index; -1: an entry argument (or nothing known)
        std::uint32_t result = 0; ///< result of that op, or the entry argument's index
    };

    struct DefSite {
        const Op* op = nullptr;
        std::uint32_t result = 0;
    };

    constexpr std::size_t kMaxFlatOps = 4'000'000;

    struct CachedOp {
        detail::OpCostDetail detail;
        std::optional<CollectiveInfo> collective;
        std::string signature;
        std::string unknownName;
    };

    class Flattener {
    public:
        Flattener(const Module& module, const FlattenOptions& options, HloProgram& program)
            : m_module(module)
            , m_options(options)
            , m_program(program)
            , m_tiledModule(moduleHasTiledShardings())
        {
        }

        void run()
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
                    const AttributeList* attrs
                        = i < entry->argumentAttributes.size() ? &entry->argumentAttributes[i] : nullptr;
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

    private:
        const Module& m_module;
        const FlattenOptions& m_options;
        HloProgram& m_program;
        std::vector<Source> m_sources; // by ValueId, for the invocation being flattened
        std::vector<DefSite> m_defs; // by ValueId
        std::vector<std::optional<std::int64_t>> m_argConstants; // function arguments bound to constants
        std::vector<std::string> m_callStack;
        std::unordered_map<const Op*, CachedOp> m_cache;
        std::set<const Op*> m_warnedLoops;
        std::size_t m_opCount = 0; // in the whole module, to size the program
        bool m_tooLarge = false;
        bool m_tiledModule = false; ///< carries shardings that split tensors: not partitioned yet
        std::vector<std::optional<std::vector<std::int64_t>>> m_pieces; ///< by FlatOp: pieces per dim of result 0
        std::vector<std::optional<std::vector<std::int64_t>>> m_argPieces; ///< by entry argument
        std::int32_t m_currentFusion = -1; ///< the XLA fusion being inlined
        std::int32_t m_fusionCount = 0;
        std::map<std::string, double> m_inlinedCounts;

        Source& source(ValueId v)
        {
            if (v >= m_sources.size())
                m_sources.resize(std::size_t(v) + 1);
            return m_sources[v];
        }

        std::string where(const SourceLocation& at) const
        {
            std::string text = m_module.sourceName;
            if (at.line > 0)
                text += ':' + std::to_string(at.line) + ':' + std::to_string(at.column);
            return text;
        }

        void addError(const std::string& message, const SourceLocation& at)
        {
            const std::string text = where(at) + ": " + message;
            if (std::find(m_program.errors.begin(), m_program.errors.end(), text) == m_program.errors.end())
                m_program.errors.push_back(text);
        }

        void indexDefinitions()
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
        double inlinedOpCount(const Function& function)
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

        static std::string formatCount(double count)
        {
            char text[32];
            std::snprintf(text, sizeof text, "%.3g", count);
            return text;
        }

        const DefSite* definition(ValueId v) const { return v < m_defs.size() && m_defs[v].op ? &m_defs[v] : nullptr; }

        // ---- constants and loop counters (import.md §4.7) ----

        std::optional<std::int64_t> constantOf(ValueId v, int depth = 0) const
        {
            if (depth > 16)
                return std::nullopt;
            if (v < m_argConstants.size() && m_argConstants[v])
                return m_argConstants[v];
            const DefSite* def = definition(v);
            if (!def)
                return std::nullopt;
            const Op& op = *def->op;
            const std::string_view base = baseOpName(op.name);
            if (base == "constant" || base == "arith.constant" || base == "sdy.constant")
                return constantInteger(op);
            if ((base == "convert" || base == "reshape" || base == "broadcast_in_dim" || base == "broadcast")
                && !op.operands.empty())
                return constantOf(op.operands[0], depth + 1);
            if (base == "func.call" || base == "call") {
                const Function* callee = calleeFunction(op);
                if (!callee || callee->body.blocks.empty() || callee->body.blocks[0].ops.empty())
                    return std::nullopt;
                const Op& ret = callee->body.blocks[0].ops.back();
                if (def->result >= ret.operands.size())
                    return std::nullopt;
                const ValueId returned = ret.operands[def->result];
                const auto arg = std::find(callee->arguments.begin(), callee->arguments.end(), returned);
                if (arg != callee->arguments.end()) {
                    const std::size_t i = std::size_t(arg - callee->arguments.begin());
                    return i < op.operands.size() ? constantOf(op.operands[i], depth + 1) : std::nullopt;
                }
                return constantOf(returned, depth + 1);
            }
            return std::nullopt;
        }

        // The block argument `v` is (seen through scalar converts and reshapes), if any.
        std::optional<std::size_t> blockArgumentOf(ValueId v, const Block& block) const
        {
            for (int depth = 0; depth < 8; ++depth) {
                const auto found = std::find(block.arguments.begin(), block.arguments.end(), v);
                if (found != block.arguments.end())
                    return std::size_t(found - block.arguments.begin());
                const DefSite* def = definition(v);
                if (!def || def->op->operands.empty())
                    return std::nullopt;
                const std::string_view base = baseOpName(def->op->name);
                if (base != "convert" && base != "reshape" && base != "broadcast_in_dim")
                    return std::nullopt;
                v = def->op->operands[0];
            }
            return std::nullopt;
        }

        const Function* calleeFunction(const Op& op) const
        {
            const auto name = calleeOf(op);
            return name ? m_module.findFunction(*name) : nullptr;
        }

        std::optional<std::int64_t> inferTripCount(const Op& loop) const
        {
            if (loop.regions.size() < 2 || loop.regions[0].blocks.empty() || loop.regions[1].blocks.empty())
                return std::nullopt;
            const Block& cond = loop.regions[0].blocks[0];
            const Block& body = loop.regions[1].blocks[0];
            if (cond.ops.empty() || body.ops.empty() || cond.ops.back().operands.empty())
                return std::nullopt;
            const DefSite* test = definition(cond.ops.back().operands[0]);
            if (!test)
                return std::nullopt;
            // The compare, possibly inside a called function whose arguments are cond values.
            const Op* compare = test->op;
            std::vector<ValueId> sides;
            if (baseOpName(compare->name) == "func.call" || baseOpName(compare->name) == "call") {
                const Function* callee = calleeFunction(*compare);
                if (!callee || callee->body.blocks.empty() || callee->body.blocks[0].ops.empty())
                    return std::nullopt;
                const Op& ret = callee->body.blocks[0].ops.back();
                const DefSite* inner = ret.operands.empty() ? nullptr : definition(ret.operands[0]);
                if (!inner || baseOpName(inner->op->name) != "compare" || inner->op->operands.size() < 2)
                    return std::nullopt;
                for (std::size_t s = 0; s < 2; ++s) {
                    ValueId v = inner->op->operands[s];
                    const auto arg = std::find(callee->arguments.begin(), callee->arguments.end(), v);
                    if (arg != callee->arguments.end()) {
                        const std::size_t i = std::size_t(arg - callee->arguments.begin());
                        if (i >= compare->operands.size())
                            return std::nullopt;
                        v = compare->operands[i];
                    }
                    sides.push_back(v);
                }
                compare = inner->op;
            } else if (baseOpName(compare->name) == "compare" && compare->operands.size() >= 2) {
                sides = { compare->operands[0], compare->operands[1] };
            } else {
                return std::nullopt;
            }
            std::string direction = comparisonDirection(*compare).value_or("");
            // A bound is a constant, or a carried value the body passes through unchanged.
            auto boundOf = [&](ValueId v) -> std::optional<std::int64_t> {
                if (const auto k = blockArgumentOf(v, cond)) {
                    const Op& ret = body.ops.back();
                    if (*k < ret.operands.size() && *k < body.arguments.size() && ret.operands[*k] == body.arguments[*k]
                        && *k < loop.operands.size())
                        return constantOf(loop.operands[*k]);
                    return std::nullopt;
                }
                return constantOf(v);
            };
            for (int swap = 0; swap < 2; ++swap) {
                const auto counter = blockArgumentOf(sides[std::size_t(swap)], cond);
                const auto bound = boundOf(sides[std::size_t(1 - swap)]);
                if (!counter || !bound || *counter >= loop.operands.size())
                    continue;
                const auto init = constantOf(loop.operands[*counter]);
                const auto step = stepOf(body, *counter);
                if (!init || !step)
                    continue;
                std::string dir = direction;
                if (swap == 1)
                    dir = dir == "LT" ? "GT" : dir == "GT" ? "LT" : dir == "LE" ? "GE" : dir == "GE" ? "LE" : dir;
                return tripCount(dir, *init, *bound, *step);
            }
            return std::nullopt;
        }

        // The constant the body adds to carried value `k` (negative for a subtraction).
        std::optional<std::int64_t> stepOf(const Block& body, std::size_t k) const
        {
            const Op& ret = body.ops.back();
            if (k >= ret.operands.size())
                return std::nullopt;
            const DefSite* def = definition(ret.operands[k]);
            if (!def || def->op->operands.size() != 2)
                return std::nullopt;
            const std::string_view base = baseOpName(def->op->name);
            if (base != "add" && base != "subtract")
                return std::nullopt;
            for (std::size_t s = 0; s < 2; ++s) {
                if (blockArgumentOf(def->op->operands[s], body) != k)
                    continue;
                if (base == "subtract" && s == 1)
                    return std::nullopt;
                const auto step = constantOf(def->op->operands[1 - s]);
                if (step)
                    return base == "subtract" ? -*step : *step;
            }
            return std::nullopt;
        }

        static std::optional<std::int64_t> tripCount(
            const std::string& dir, std::int64_t init, std::int64_t bound, std::int64_t step)
        {
            constexpr std::int64_t kLimit = std::int64_t(1) << 52; // keeps the spans below free of overflow
            if (init <= -kLimit || init >= kLimit || bound <= -kLimit || bound >= kLimit || step <= -kLimit
                || step >= kLimit)
                return std::nullopt;
            auto ceilDiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
            if ((dir == "LT" || dir == "LE") && step > 0) {
                const std::int64_t span = bound - init + (dir == "LE" ? 1 : 0);
                return span > 0 ? ceilDiv(span, step) : 0;
            }
            if ((dir == "GT" || dir == "GE") && step < 0) {
                const std::int64_t span = init - bound + (dir == "GE" ? 1 : 0);
                return span > 0 ? ceilDiv(span, -step) : 0;
            }
            if (dir == "NE" && step != 0 && (bound - init) % step == 0 && (bound - init) / step >= 0)
                return (bound - init) / step;
            return std::nullopt;
        }

        // ---- flattening ----

        std::vector<Source> flattenBlock(const Block& block, double executions, const std::string& function, bool entry)
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

        void bindResults(const Op& op, const std::vector<Source>& values)
        {
            for (std::size_t i = 0; i < op.results.size(); ++i)
                source(op.results[i]) = i < values.size() ? values[i] : Source {};
        }

        void bindArguments(const std::vector<ValueId>& arguments, const Op& op)
        {
            for (std::size_t i = 0; i < arguments.size(); ++i)
                source(arguments[i]) = i < op.operands.size() ? source(op.operands[i]) : Source {};
        }

        void flattenCall(const Op& op, double executions)
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

        void flattenWhile(const Op& op, double executions, const std::string& function)
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
                    m_program.warnings.push_back(where(op.location) + ": while loop at "
                        + std::to_string(op.location.line) + ':' + std::to_string(op.location.column)
                        + ": trip count not inferred; using " + std::to_string(trips));
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
        void flattenCase(const Op& op, double executions, const std::string& function)
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

        void flattenInline(const Op& op, double executions, const std::string& function)
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

        const CachedOp& cached(const Op& op)
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

        void emitOp(const Op& op, double executions, const std::string& function)
        {
            if (m_program.ops.size() >= kMaxFlatOps) { // calls nested many times over: refuse, not exhaust memory
                m_tooLarge = true;
                addError(
                    "the program exceeds " + std::to_string(kMaxFlatOps) + " ops with its calls inlined", op.location);
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

        // ---- A module not partitioned yet: per-device pieces of each value, and each op's share ----

        using Pieces = std::optional<std::vector<std::int64_t>>; ///< per dim of a value; none: unknown

        Pieces operandPieces(const FlatOp& flat, std::size_t operand) const
        {
            const std::int32_t producer = flat.operandSources[operand];
            const std::uint32_t result = flat.operandResultIndex[operand];
            if (producer < 0)
                return result < m_argPieces.size() ? m_argPieces[result] : Pieces {};
            return result == 0 && std::size_t(producer) < m_pieces.size() ? m_pieces[std::size_t(producer)] : Pieces {};
        }

        static std::int64_t productOf(const std::vector<std::int64_t>& pieces)
        {
            std::int64_t total = 1;
            for (std::int64_t p : pieces)
                total *= std::max<std::int64_t>(1, p);
            return total;
        }

        /// How the op's result is split and which share of the op's global work one device does: from
        /// its own sharding annotation, else from its operands' pieces by the op's semantics
        /// (elementwise, broadcast_in_dim, transpose, dot_general, reduce, views). Unknown: global shape.
        void shardInstance(const Op& op, FlatOp& flat)
        {
            const std::size_t rank = op.resultTypes.empty() ? 0 : op.resultTypes[0].dims.size();
            Pieces result;
            double share = 1;
            bool decided = false;
            const std::string_view base = baseOpName(op.name);
            const Attribute* own = op.attribute("mhlo.sharding");
            if (!own)
                own = op.attribute("sdy.sharding");
            if (own) {
                result = shardingTiles(*own, m_module, rank, 0);
                if (result) {
                    share = 1.0 / double(productOf(*result));
                    decided = true;
                }
            } else if (base == "dot_general" || base == "dot") {
                const auto dims = dotDimensions(op);
                const Pieces lhs = op.operands.size() > 1 ? operandPieces(flat, 0) : Pieces {};
                const Pieces rhs = op.operands.size() > 1 ? operandPieces(flat, 1) : Pieces {};
                if (dims && lhs && rhs) {
                    std::vector<std::int64_t> pieces;
                    const auto freeDims = [](std::size_t rankOf, const std::vector<std::int64_t>& batch,
                                              const std::vector<std::int64_t>& contracting) {
                        std::vector<std::int64_t> free;
                        for (std::int64_t d = 0; d < std::int64_t(rankOf); ++d)
                            if (std::find(batch.begin(), batch.end(), d) == batch.end()
                                && std::find(contracting.begin(), contracting.end(), d) == contracting.end())
                                free.push_back(d);
                        return free;
                    };
                    bool fits = true;
                    const auto at = [&fits](const std::vector<std::int64_t>& of, std::int64_t d) {
                        fits = fits && d >= 0 && std::size_t(d) < of.size();
                        return fits ? of[std::size_t(d)] : 1;
                    };
                    for (std::int64_t d : dims->lhsBatch)
                        pieces.push_back(at(*lhs, d));
                    for (std::int64_t d : freeDims(lhs->size(), dims->lhsBatch, dims->lhsContracting))
                        pieces.push_back(at(*lhs, d));
                    for (std::int64_t d : freeDims(rhs->size(), dims->rhsBatch, dims->rhsContracting))
                        pieces.push_back(at(*rhs, d));
                    std::int64_t contracted = 1;
                    for (std::size_t k = 0; k < dims->lhsContracting.size() && k < dims->rhsContracting.size(); ++k)
                        contracted *= std::max(at(*lhs, dims->lhsContracting[k]), at(*rhs, dims->rhsContracting[k]));
                    if (fits && pieces.size() == rank) {
                        result = pieces;
                        share = 1.0 / double(productOf(pieces) * contracted);
                        decided = true;
                    }
                }
            } else if (base == "broadcast_in_dim") {
                const Pieces in = op.operands.empty() ? Pieces {} : operandPieces(flat, 0);
                const auto mapping = intList(op, "broadcast_dimensions");
                if (in && mapping && mapping->size() == in->size()) {
                    std::vector<std::int64_t> pieces(rank, 1);
                    for (std::size_t i = 0; i < mapping->size(); ++i)
                        if ((*mapping)[i] >= 0 && std::size_t((*mapping)[i]) < rank)
                            pieces[std::size_t((*mapping)[i])] = (*in)[i];
                    result = pieces;
                    share = 1.0 / double(productOf(pieces));
                    decided = true;
                }
            } else if (base == "transpose") {
                const Pieces in = op.operands.empty() ? Pieces {} : operandPieces(flat, 0);
                const auto permutation = intList(op, "permutation");
                if (in && permutation && permutation->size() == rank && in->size() == rank) {
                    std::vector<std::int64_t> pieces(rank, 1);
                    for (std::size_t d = 0; d < rank; ++d)
                        pieces[d] = (*in)[std::size_t((*permutation)[d])];
                    result = pieces;
                    share = 1.0 / double(productOf(pieces));
                    decided = true;
                }
            } else if (base == "reduce" && !op.operands.empty()) {
                const Pieces in = operandPieces(flat, 0);
                const auto reduced = intList(op, "dimensions");
                if (in && reduced) {
                    std::vector<std::int64_t> pieces;
                    for (std::int64_t d = 0; d < std::int64_t(in->size()); ++d)
                        if (std::find(reduced->begin(), reduced->end(), d) == reduced->end())
                            pieces.push_back((*in)[std::size_t(d)]);
                    if (pieces.size() == rank) {
                        result = pieces;
                        share = 1.0 / double(productOf(*in));
                        decided = true;
                    }
                }
            } else if (flat.opClass != OpClass::Collective && !op.resultTypes.empty()
                && op.operandTypes.size() == op.operands.size()) {
                // Elementwise and same-shape views: the operands' common pieces (scalars aside).
                bool sameShapes = !op.operands.empty();
                Pieces common;
                for (std::size_t k = 0; k < op.operands.size() && sameShapes; ++k) {
                    const Type& type = op.operandTypes[k];
                    if (type.dims.empty())
                        continue;
                    if (type.dims != op.resultTypes.front().dims) {
                        sameShapes = false;
                        break;
                    }
                    const Pieces pieces = operandPieces(flat, k);
                    if (!pieces || (common && *common != *pieces)) {
                        sameShapes = false;
                        break;
                    }
                    common = pieces;
                }
                if (sameShapes) {
                    result = common ? common : std::vector<std::int64_t>(rank, 1);
                    share = 1.0 / double(productOf(*result));
                    decided = true;
                } else if (flat.opClass == OpClass::Free && !op.operands.empty()) {
                    // A reshape of an unsplit value stays unsplit.
                    const Pieces in = operandPieces(flat, 0);
                    if (in && productOf(*in) == 1) {
                        result = std::vector<std::int64_t>(rank, 1);
                        decided = true;
                    }
                }
            }
            m_pieces.push_back(result);
            if (flat.opClass != OpClass::Compute)
                return;
            if (!decided) {
                ++m_program.globalShapeOps;
                return;
            }
            if (share < 1) {
                flat.cost.flops *= share;
                flat.cost.transcendentals *= share;
                flat.cost.bytesRead *= share;
                flat.cost.bytesWritten *= share;
                flat.shardShare = share;
                flat.signature += " share=1/" + std::to_string(std::llround(1 / share));
                ++m_program.shardedOps;
            }
        }

        /// A sharding that splits something (not "", "{replicated}", "{manual}" or a single device) on
        /// an argument, a result or an op: the module is not partitioned yet.
        bool moduleHasTiledShardings() const
        {
            const auto tiled = [this](const AttributeList& list) {
                for (const char* key : { "mhlo.sharding", "sdy.sharding" })
                    if (const Attribute* sharding = findAttribute(list, key);
                        sharding && isTiledSharding(*sharding, m_module))
                        return true;
                return false;
            };
            for (const Function& function : m_module.functions) {
                for (const auto* lists : { &function.argumentAttributes, &function.resultAttributes })
                    for (const AttributeList& list : *lists)
                        if (tiled(list))
                            return true;
                bool found = false;
                forEachOp(function.body, [&](const Op& op, int) { found = found || tiled(op.attributes); });
                if (found)
                    return true;
            }
            return false;
        }

        void finish()
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
                    m_program.warnings.push_back(m_module.sourceName
                        + ": the module is not partitioned yet (it carries " + "tiled shardings); "
                        + std::to_string(global) + " compute op(s) have no sharding of their own "
                        + "and none follows from their operands: they are costed at their global shape on every device"
                        + (local > 0 ? " (" + std::to_string(local) + " ops are costed at their local piece)"
                                     : std::string())
                        + "; export the per-device (post-SPMD) program for per-device costs");
                if (!anyCollective)
                    m_program.warnings.push_back(m_module.sourceName
                        + ": the module carries tiled shardings but no explicit collectives: communication implied by "
                          "the partitioner is not modelled; export the per-device (post-SPMD) program to include it");
            }
        }
    };

} // namespace

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
    Flattener(module, options, program).run();
    return program;
}

} // namespace elk::hlo
