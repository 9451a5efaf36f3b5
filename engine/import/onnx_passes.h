// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The ONNX importer's passes, in the order importOnnxBytes() runs them. Each returns false with
// errors in the context; none throws for bad input.

#include "engine/import/onnx_context.h"
#include "engine/model/graph.h"

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace elk::import::onnx_detail {

/// Largest file accepted: protobuf's 2 GiB limit (ParseProtoFromBytes uses 2 GiB - 1).
inline constexpr std::size_t kMaxModelBytes = 0x7fffffff;

/// Size, leading bytes and protobuf parsing, then ir_version, opset_import and a non-empty graph,
/// all before anything trusts the content (an empty or text file must not "parse").
bool parseModel(std::string_view bytes, onnx::ModelProto& model, Context& ctx);

/// Opsets and IR version in range, node count, value types (tensors of supported element types
/// only), and one error listing every unsupported op (unknown op, custom domain, sequence or
/// optional op, op newer than ONNX 1.12 without an own shape rule).
bool checkModel(Context& ctx);

/// The value table (initializers, inputs with symbolic dims bound, declared types), node records
/// and a topological order of the main graph (cycles and undefined inputs are errors).
bool buildGraph(Context& ctx);

/// Value of a symbolic dim from the bindings (exact names first, then the conventional batch /
/// new-token / KV-length names); `isKv` tells whether the name is a KV-length name.
std::optional<std::int64_t> lookupDim(const DimBindings& dims, const std::string& param, bool& isKv);

/// Shapes, element types and constants of every node in order, If/Loop/Scan inlined; fills
/// ctx.order. ONNX shape inference (opset <= 17) only fills in what the own rules do not cover.
bool inferShapes(Context& ctx);

/// ONNX 1.12's shape inference for one node (opset <= 17), run on a model holding only that node
/// and its inputs after checking the node against its schema: element type and shape per output,
/// nullopt where it found none; `error` tells why there are none.
std::vector<std::optional<std::pair<int, std::vector<std::int64_t>>>> libraryNodeShapes(
    const Context& ctx, const NodeRec& node, std::string& error);

/// Inlines an If, Loop or Scan node (its body nodes are shaped and appended to ctx.order).
bool inlineControlFlow(Context& ctx, int nodeIndex);

/// Shapes one node (own rule, else fallbacks), marks constants, appends it to ctx.order.
bool processNode(Context& ctx, int nodeIndex);

/// Shapes a sequence op (SequenceEmpty/Construct/Insert/Erase/At/Length, ConcatFromSequence,
/// SplitToSequence): sequences made inside the graph are tracked as lists of tensors.
bool processSequenceOp(Context& ctx, int nodeIndex);
bool isSequenceOp(const std::string& opType);
/// The element a SequenceAt reads, when the sequence and the position are known at import time.
std::optional<int> knownElement(const Context& ctx, const NodeRec& node);

/// Adds a node the importer makes itself (opset 13 conventions: axes and sizes as inputs), with an
/// optional `axis` attribute, and shapes it right away.
bool synthesizeNode(Context& ctx, const NodeRec& parent, const std::string& opType, const std::vector<int>& inputs,
    const std::vector<int>& outputs, std::optional<std::int64_t> axis, const std::string& suffix);
/// A new constant value (int64 unless `elemType` says otherwise) known at import time.
int addConstValue(Context& ctx, const std::string& name, std::vector<std::int64_t> values,
    std::vector<std::int64_t> shape, int elemType = onnx::TensorProto::INT64);

/// Lowers the shaped nodes to the Graph IR.
bool lowerGraph(Context& ctx, model::Graph& graph);

} // namespace elk::import::onnx_detail
