// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/einstein_lowering.h"

#include <optional>
#include <string>
#include <vector>

// Builds one operator from loop variables and operands given as views (internal to the einstein
// importer). A loop variable that the operands see split in different places (a reshape, e.g.
// 5120 = 40 x 128) becomes several loop dimensions; a storage axis that merges two of them becomes
// a window axis with stride = the inner extent (an exact reshape), more than two is refused.

namespace elk::import::einstein {

struct VarRec {
    std::string name;
    std::int64_t raw = 1;
    std::int64_t bound = 0; ///< only for synthetic variables; others bind from `raw`
    bool synthetic = false; ///< made up by the importer (slice parts, gathered rows)
    std::size_t column = 0;
};

/// A factor of a variable: var / divisor % size, all in raw numbers.
struct Piece {
    int var = -1;
    std::int64_t divisor = 1;
    std::int64_t size = 1;
};

/// How one view axis of an operand is indexed.
struct AxisSpec {
    enum class Kind { Pieces, Direct };
    Kind kind = Kind::Pieces;
    std::vector<Piece> pieces; ///< Pieces: outer to inner; empty for an axis of extent 1
    int varA = -1; ///< Direct: the dim (a plain axis when varB < 0)
    int varB = -1; ///< Direct: the window dim
    std::int64_t stride = 1; ///< Direct: literal stride
    bool blockStride = false; ///< Direct: the stride is varB's bound extent (consecutive blocks)
    /// Direct, varB < 0: reads part of an atom that shares its storage axis with others (a slice of a
    /// reshaped axis). The IR has no offsets: the operand's extent is smaller than the tensor's.
    bool crop = false;
    std::size_t column = 0;
};

struct InputSpec {
    std::string label; ///< "input0", for messages
    Value value;
    std::vector<AxisSpec> axes; ///< one per view axis
};

/// One view axis of the output: the variables it is made of (outer to inner), or a window of two
/// variables with stride 1 (a zero-padded copy).
struct OutputAxis {
    std::vector<int> vars;
    bool window = false;
    std::int64_t raw = 1; ///< window only
    std::int64_t bound = 1; ///< window only
};

struct OpRequest {
    std::string opName;
    model::OpKind kind = model::OpKind::Elementwise;
    std::vector<VarRec> vars;
    std::vector<InputSpec> inputs;
    std::vector<OutputAxis> output;
    std::string outputName;
    model::DType outputDtype = model::DType::F32;
    bool attention = false; ///< decode: replace the K/V operands of an activation x activation matmul by the KV cache
    ReduceOp reduce = ReduceOp::None;
    bool usesExp = false;
    std::string topOperator;
    /// A scratch operator that only works out a view: storage axes may merge any number of dims.
    bool viewOnly = false;
};

struct OpResult {
    Value output;
    int op = -1;
    /// Per input: atom of its (refined) value -> the loop dimension that reads it.
    std::vector<std::map<int, int>> dimOfAtom;
    std::vector<NodeError> warnings;
};

/// Appends the operator (and, in decode, KV-cache tensors and append operators) to the program.
std::optional<OpResult> buildOp(Program& program, const Bindings& bindings, OpRequest& request, NodeError& error);

} // namespace elk::import::einstein
