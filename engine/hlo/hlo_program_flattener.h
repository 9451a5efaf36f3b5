// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal: the flattener behind flattenModule. Split over hlo_program.cpp (the walk: calls, loops,
// branches, emitted ops, warnings), hlo_program_trip_counts.cpp (constants and loop counters) and
// hlo_program_unpartitioned.cpp (per-device shares in a module not partitioned yet).

#include "engine/hlo/hlo_op_costs.h"
#include "engine/hlo/hlo_program.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace elk::hlo::detail {

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

    void run();

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

    // ---- bookkeeping (hlo_program.cpp) ----

    Source& source(ValueId v);
    std::string where(const SourceLocation& at) const;
    void addError(const std::string& message, const SourceLocation& at);
    void indexDefinitions();
    double inlinedOpCount(const Function& function);
    const DefSite* definition(ValueId v) const { return v < m_defs.size() && m_defs[v].op ? &m_defs[v] : nullptr; }
    const Function* calleeFunction(const Op& op) const;

    // ---- constants and loop counters (hlo_program_trip_counts.cpp) ----

    std::optional<std::int64_t> constantOf(ValueId v, int depth = 0) const;
    std::optional<std::size_t> blockArgumentOf(ValueId v, const Block& block) const;
    std::optional<std::int64_t> inferTripCount(const Op& loop) const;
    std::optional<std::int64_t> stepOf(const Block& body, std::size_t k) const;

    // ---- flattening (hlo_program.cpp) ----

    std::vector<Source> flattenBlock(const Block& block, double executions, const std::string& function, bool entry);
    void bindResults(const Op& op, const std::vector<Source>& values);
    void bindArguments(const std::vector<ValueId>& arguments, const Op& op);
    void flattenCall(const Op& op, double executions);
    void flattenWhile(const Op& op, double executions, const std::string& function);
    void flattenCase(const Op& op, double executions, const std::string& function);
    void flattenInline(const Op& op, double executions, const std::string& function);
    const CachedOp& cached(const Op& op);
    void emitOp(const Op& op, double executions, const std::string& function);
    void finish();

    // ---- a module not partitioned yet (hlo_program_unpartitioned.cpp) ----

    using Pieces = std::optional<std::vector<std::int64_t>>; ///< per dim of a value; none: unknown

    Pieces operandPieces(const FlatOp& flat, std::size_t operand) const;
    void shardInstance(const Op& op, FlatOp& flat);
    bool moduleHasTiledShardings() const;
};

} // namespace elk::hlo::detail
