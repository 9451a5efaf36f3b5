// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/einstein_expr_parser.h"
#include "engine/import/einstein_view.h"
#include "engine/model/dtype.h"
#include "engine/model/tensor_expr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// Lowering of one einstein_v2 node into operators on storage tensors (internal to the einstein
// importer). Views (reshape, transpose, broadcast, dtype casts) produce no operator; slices and
// paddings become data-movement operators; everything else becomes one operator whose kind is read
// off the expression.

namespace elk::import::einstein {

struct Storage {
    std::string name;
    std::vector<Atom> axes;
    model::DType dtype = model::DType::F32;
    bool external = false; ///< not produced by an operator: a weight, a graph input or a KV cache
    bool kvCache = false;
    bool graphOutput = false;
    bool placeholder = false; ///< some axis holds the batch or sequence placeholder (activation data)
    /// false for an external no operator has read yet: its sequence extents may still turn out to be
    /// KV lengths (an attention mask declared [.., 66, 66] is [.., 1, kv] in a decode step).
    bool settled = true;
    int producer = -1; ///< op index
};

struct AxisRef {
    int dim = 0;
    int windowDim = -1;
    std::int64_t stride = 1;
};

struct OperandRec {
    int storage = -1;
    std::vector<AxisRef> axes;
};

struct LoopDimRec {
    std::string name;
    Atom extent;
};

enum class ReduceOp { None, Sum, Max, Min, Product };

struct OpRec {
    std::string name;
    model::OpKind kind = model::OpKind::Elementwise;
    std::vector<LoopDimRec> dims;
    std::vector<OperandRec> operands; ///< 0 = output
    // Facts kept for the softmax pass.
    ReduceOp reduce = ReduceOp::None;
    bool usesExp = false;
    std::string topOperator; ///< the outermost binary operator of the expression, e.g. "/"
    bool removed = false;
};

struct Program {
    std::vector<Storage> storages;
    std::vector<OpRec> ops;
    std::map<int, int> kvCacheOf; ///< storage of new K/V rows -> the KV-cache storage read in their place
    std::map<int, int> kvAppendOf; ///< storage of new K/V rows -> the op writing them into the cache
};

/// One problem of a node, located in its kernel text when possible (column 0: no position).
struct NodeError {
    std::size_t column = 0;
    std::string message;
};

/// How a node input was resolved before lowering.
struct NodeInput {
    const Value* value = nullptr; ///< produced by an earlier node or an external seen before; null: new external
    std::string externalName; ///< name for a new external storage
    std::string description; ///< "the output of node 40 (Dot)", for messages
};

struct NodeInfo {
    std::int64_t id = 0;
    std::string type;
    std::string opName; ///< e.g. "Dot.12", or "Dot.12@2" for the second definition of id 12
    /// The output shape (raw extents) the node's first reader declares in its input_dict, if any.
    std::optional<std::vector<std::int64_t>> readerShape;
    std::string nameSuffix; ///< "" or "@2", "@3", ... for a redefined id
};

/// What lowering one node needs from the importer and gives back.
struct LoweringContext {
    Program& program;
    const Bindings& bindings;
    const NodeInfo& node;
    const Kernel& kernel;
    std::vector<NodeInput> inputs; ///< one per node input, in order (input0, input1, ...)
    /// Filled for inputs that were new externals: the value created for them (the importer keeps it).
    std::vector<std::optional<Value>> createdExternals;
    /// What lowering accepted but the user should know (the importer names the node).
    std::vector<NodeError> warnings;
};

/// Lowers all statements of the node's kernel; returns the node's output value or nothing with
/// `error` set. Operators and storages are appended to the context's program.
std::optional<Value> lowerNode(LoweringContext& context, NodeError& error);

/// "float32" -> F32 and the like; nothing for unknown names.
std::optional<model::DType> dtypeFromEinstein(const std::string& name);

} // namespace elk::import::einstein
