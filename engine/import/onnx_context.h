// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internals of the ONNX importer (engine/import only: this header includes the ONNX protobuf
// classes). The pipeline: preflight checks -> value table -> node records in execution order with
// shapes and constants (own rules, ONNX shape inference as fallback) -> lowering to the Graph IR.

#include "engine/import/import_result.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace elk::import::onnx_detail {

/// Newest default-domain opset the importer accepts (own shape rules cover 18..21).
inline constexpr int kMaxOpset = 21;
/// Newest opset Debian's ONNX 1.12 knows; its shape inference is used only up to here.
inline constexpr int kLibraryOpset = 17;
/// Newest IR version accepted (IR 10 goes with opset 21).
inline constexpr std::int64_t kMaxIrVersion = 10;
/// Largest constant whose values are decoded (shape vectors, axes, small tables).
inline constexpr std::int64_t kMaxConstElements = 1 << 16;
/// Most nodes If/Loop/Scan inlining may add in one import (on top of the file's own): a few bytes
/// of Loop must not expand into millions of ops.
inline constexpr std::int64_t kMaxInlinedNodes = 200'000;
/// Largest element count of any tensor (the Graph IR's kMaxIterations).
inline constexpr std::int64_t kMaxElements = std::int64_t(1) << 53;

/// A small tensor whose values are known at import time.
struct ConstTensor {
    std::vector<std::int64_t> shape;
    bool isFloat = false;
    std::vector<std::int64_t> ints; ///< when !isFloat (bool as 0/1)
    std::vector<double> reals; ///< when isFloat

    std::size_t size() const { return isFloat ? reals.size() : ints.size(); }
    double real(std::size_t i) const { return isFloat ? reals[i] : double(ints[i]); }
    /// The element as an integer; a float beyond +-2^53 (or NaN) gives 0, never undefined behaviour.
    std::int64_t integer(std::size_t i) const
    {
        if (!isFloat)
            return ints[i];
        const double v = reals[i];
        return v > -9007199254740992.0 && v < 9007199254740992.0 ? std::int64_t(v) : 0;
    }
    std::vector<std::int64_t> asInts() const;
};

/// One ONNX value (a tensor name) with what the importer knows about it.
struct Value {
    std::string name;
    int elemType = 0; ///< onnx::TensorProto_DataType; 0 while unknown
    bool hasShape = false;
    std::vector<std::int64_t> shape;
    bool isConst = false; ///< computed from constants only: no run-time input reaches it
    std::optional<ConstTensor> constant; ///< its values, when known and small
    bool isGraphInput = false;
    bool isInitializer = false;
    bool isGraphOutput = false;
    bool kvHint = false; ///< a graph input/output that is a KV cache (by name or by its bound KV dim)
    /// Optimizer state (Adam moments, momentum buffers): stored like a weight, but run-time state
    /// the step reads and rewrites, so never folded as a constant and not counted as parameters.
    bool optimizerState = false;
    int producer = -1; ///< index into Context::nodes
    bool shapeDeclared = false; ///< the shape came from the file's value_info, not from a rule
    /// A sequence built inside the graph: the tensors it holds (no shape of its own). When not
    /// `exactSequence`, positions were computed at run time: `elements` may hold more tensors
    /// than the sequence, in unknown order (an upper bound).
    bool isSequence = false;
    std::vector<int> elements;
    bool exactSequence = true;
};

struct ShapeRule;

/// One node to import: a node of the file, or one synthesized while inlining If/Loop/Scan.
struct NodeRec {
    const onnx::NodeProto* proto = nullptr;
    std::string opType;
    std::string domain; ///< "" for the default domain
    int opset = 0; ///< version of its domain in the model
    std::string label; ///< "node 'name' (OpType, ai.onnx)" for messages
    std::string irName; ///< base name of its ops in the Graph IR (unique)
    std::vector<int> inputs; ///< value ids; -1 for an omitted optional input
    std::vector<int> outputs; ///< value ids; -1 for an omitted optional output
    mutable const ShapeRule* rule = nullptr; ///< cached by ruleOf()
    mutable bool ruleKnown = false;
};

struct Context {
    Context(const ImportOptions& importOptions, std::string name)
        : options(importOptions)
        , displayName(std::move(name))
    {
    }

    const ImportOptions& options;
    std::string displayName;
    onnx::ModelProto* model = nullptr;
    std::unordered_map<std::string, int> opsets; ///< domain ("" = default) -> version
    std::vector<Value> values;
    std::unordered_map<std::string, int> valueByName; ///< the main graph's scope
    std::unordered_map<std::string, const onnx::TypeProto*> declared; ///< value_info and graph outputs
    std::deque<NodeRec> nodes; ///< a deque: inlining appends while references are held
    std::vector<int> topoOrder; ///< the main graph's nodes, dependencies first
    std::vector<int> order; ///< nodes in execution order, control flow inlined
    /// Name scopes of the subgraphs being inlined, innermost last (body-local name -> value id).
    std::vector<const std::unordered_map<std::string, int>*> scopes;
    std::deque<onnx::NodeProto> synthesized; ///< protos of nodes made while inlining (stable addresses)
    std::vector<int> graphOutputs; ///< value ids, in file order
    std::vector<int> graphInputs; ///< value ids of real inputs (initializers excluded), in file order
    std::set<std::string> irNames; ///< op and tensor names handed out so far
    std::vector<ImportIssue> errors;
    std::vector<ImportIssue> warnings;
    std::vector<FreeDim> freeDims;

    int addValue(std::string name);
    Value& value(int id) { return values.at(std::size_t(id)); }
    const Value& value(int id) const { return values.at(std::size_t(id)); }
    bool failed() const { return !errors.empty(); }
    bool stopped = false;
    /// Polls options.control; the first time it asks to stop, records the stop as an error so every
    /// pass unwinds as it does on a failure.
    bool stopRequested()
    {
        if (!stopped && options.control && options.control->stopRequested()) {
            stopped = true;
            error("", kStoppedMessage);
        }
        return stopped;
    }
    /// stopRequested() every 256th call with a counter of its own (the per-node loops).
    bool stopRequestedEvery(std::size_t index) { return (index & 255) == 0 && stopRequested(); }
    void error(std::string location, std::string message)
    {
        errors.push_back({ std::move(location), std::move(message) });
    }
    void warning(std::string location, std::string message)
    {
        warnings.push_back({ std::move(location), std::move(message) });
    }
    /// A name not handed out yet: `base`, else base_2, base_3, ...
    std::string uniqueName(const std::string& base);
    int opsetOf(const std::string& domain) const;
    /// The value a name refers to in the current scope (subgraph scopes first); -1 if none.
    int resolve(const std::string& name) const;
};

// --- attributes -----------------------------------------------------------------------------

const onnx::AttributeProto* findAttr(const NodeRec& node, std::string_view name);
std::int64_t attrInt(const NodeRec& node, std::string_view name, std::int64_t fallback);
float attrFloat(const NodeRec& node, std::string_view name, float fallback);
std::string attrString(const NodeRec& node, std::string_view name, const std::string& fallback);
std::vector<std::int64_t> attrInts(const NodeRec& node, std::string_view name);
bool hasAttr(const NodeRec& node, std::string_view name);

// --- tensors and types ----------------------------------------------------------------------

/// Graph IR dtype of an ONNX element type; nullopt for types the IR cannot hold (string,
/// complex, 4-bit). Unsigned integers map to the signed type of the same width (same bytes).
std::optional<model::DType> dtypeOf(int elemType);
/// "FLOAT16", "STRING", ... for messages.
std::string elemTypeName(int elemType);
bool isFloatType(int elemType);
/// Decodes a TensorProto's values when they are inline and at most kMaxConstElements; external
/// data and large tensors give nullopt (their bytes are never read).
std::optional<ConstTensor> decodeTensor(const onnx::TensorProto& tensor);

// --- shapes ---------------------------------------------------------------------------------

/// Size arithmetic on numbers taken from a model file: nullopt on int64 overflow (never UB).
inline std::optional<std::int64_t> safeAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
}
inline std::optional<std::int64_t> safeMul(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
}
inline std::optional<std::int64_t> safeAdd(std::optional<std::int64_t> a, std::int64_t b)
{
    return a ? safeAdd(*a, b) : std::nullopt;
}
/// A double as a size, when it is finite and within +-2^53.
inline std::optional<std::int64_t> sizeFromDouble(double v)
{
    if (!(v > -double(kMaxElements) && v < double(kMaxElements)))
        return std::nullopt;
    return std::int64_t(v);
}

/// Product of dims, nullopt on overflow past kMaxElements or a negative dim.
std::optional<std::int64_t> checkedElements(const std::vector<std::int64_t>& shape);
std::string shapeText(const std::vector<std::int64_t>& shape);
/// Axis in [-rank, rank) -> [0, rank), or nullopt.
std::optional<int> normalizeAxis(std::int64_t axis, std::size_t rank);

/// "node 'name' (OpType, domain)", or "node #index (OpType, domain)" for an unnamed node.
std::string nodeLabel(const onnx::NodeProto& node, int index);

} // namespace elk::import::onnx_detail
