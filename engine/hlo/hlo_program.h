// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A module flattened into the ops one device executes in a step: calls inlined at their call sites,
// loop bodies weighted by their trip counts, each op with its FLOPs and bytes (import.md §5.2) and
// its data dependencies. Everything downstream (fusion, slicing, estimators) works on this.

#include "engine/hlo/hlo_module.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elk::hlo {

enum class CollectiveKind { AllReduce, AllGather, ReduceScatter, AllToAll, CollectivePermute, CollectiveBroadcast };
const char* toString(CollectiveKind kind); ///< "all_reduce", ...
std::optional<CollectiveKind> collectiveKindFromOpName(std::string_view opName); ///< "stablehlo.all_reduce" → AllReduce

struct CollectiveInfo {
    CollectiveKind kind = CollectiveKind::AllReduce;
    std::vector<std::vector<std::int64_t>> groups; ///< replica groups; empty: all devices
    std::int64_t groupSize = 1; ///< devices per group (all devices when groups is empty)
    double operandBytes = 0; ///< per device, all operands (variadic collectives summed)
    double resultBytes = 0; ///< per device, all results
    std::int64_t pairCount = 0; ///< collective_permute: source/target pairs
    /// collective_permute: the (source, target) pairs, each priced on its own path (`groups` holds
    /// the set of devices involved, for checks and exports).
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
};

enum class OpClass {
    Compute, ///< costs FLOPs and/or memory traffic
    Collective, ///< communication between devices
    Free, ///< no run-time cost: constants, reshape, sharding markers, tuples, returns
};

struct OpCost {
    double flops = 0; ///< per execution
    double transcendentals = 0; ///< exp, log, tanh, ... per execution (not in flops)
    double bytesRead = 0; ///< operands read from memory, unfused
    double bytesWritten = 0; ///< results written, unfused
    /// Element type that picks the peak (import.md §5.2, hlo-design §3): the widest float/int type
    /// among the op's operands and results; dot_general/convolution use their operand type.
    std::string peakType;
    bool matrixUnit = false; ///< dot_general/dot/convolution/ragged_dot: may use tensor cores (and TF32 for f32)
    double bytes() const { return bytesRead + bytesWritten; }
};

struct FlatOp {
    const Op* op = nullptr; ///< into the Module, which must outlive the program
    std::string function; ///< where the op is written
    double executions = 1; ///< product of call counts and trip counts around it
    std::vector<std::uint32_t> inputs; ///< indices of FlatOps producing its operands, ascending, unique
    /// By operand: index of the FlatOp producing it (through calls, loops and Free ops such as
    /// reshape, which are FlatOps too), or -1 for an entry-function argument.
    std::vector<std::int32_t> operandSources;
    /// By operand: which result of the producing op (0 for single-result ops); for an entry-function
    /// argument (source -1), the argument's index.
    std::vector<std::uint32_t> operandResultIndex;
    OpClass opClass = OpClass::Compute;
    OpCost cost; ///< per execution
    std::optional<CollectiveInfo> collective;
    bool known = true; ///< false: costed as memory traffic of its types (listed in unknownOps)
    /// Canonical text of what determines the cost: op name, operand and result types, and the
    /// attributes that change the cost (dims, windows, ...). Equal signatures cost the same.
    std::string signature;
    /// The XLA fusion (a `fusion` / `mhlo.fusion` op, per flattened instance) the op was written in;
    /// -1 outside any.
    std::int32_t xlaFusion = -1;
    /// The share of the op's global cost one device runs (1/pieces of its own result sharding in a
    /// module not partitioned yet); `cost` already includes it.
    double shardShare = 1;
};

struct FlattenOptions {
    std::string entryFunction; ///< empty: Module::entry()
    /// Trip count of a while loop whose count cannot be inferred (a warning names the loop).
    std::int64_t defaultTripCount = 1;
    /// Devices in the system, for collectives with no replica groups (all devices).
    std::int64_t deviceCount = 1;
};

struct HloProgram {
    const Module* module = nullptr;
    std::vector<FlatOp> ops; ///< in program order (callees inlined where called)
    std::vector<std::string> unknownOps; ///< op names costed as memory traffic, sorted, each once
    std::vector<std::string>
        warnings; ///< "file:line:column: message" (loops with default trip counts, shardings without collectives, ...)
    std::vector<std::string> errors; ///< no entry function, recursive calls, call to a missing function ...
    /// A module that is not partitioned yet (tiled shardings): compute ops costed at the local piece
    /// their own result sharding gives, and those left at their global shape (no sharding of their own).
    std::int64_t shardedOps = 0;
    std::int64_t globalShapeOps = 0;
    bool ok() const { return errors.empty(); }
    double totalFlops() const; ///< Σ flops × executions over compute ops
    double totalBytes() const; ///< Σ unfused bytes × executions over compute ops
};

HloProgram flattenModule(const Module& module, const FlattenOptions& options = {});

/// Cost of one op on its own (no callee/loop expansion). `known` is set false for ops outside the
/// cost table (then the cost is the memory traffic of its operand and result types).
OpCost costOfOp(const Op& op, bool& known);

} // namespace elk::hlo
