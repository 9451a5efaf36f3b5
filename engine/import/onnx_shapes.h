// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The importer's own shape rules (every opset 1..21) and constant evaluation for small tensors.
// ONNX 1.12's shape inference stops at opset 17 and silently uses older schemas beyond it, so the
// ops that matter have rules here at every opset; the library is only a fallback for the rest.

#include "engine/import/onnx_context.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace elk::import::onnx_detail {

enum class ShapeStatus {
    Done, ///< every output got its type and shape
    NoRule, ///< no own rule for this case: fall back to ONNX shape inference or declared shapes
    Failed, ///< the node is inconsistent (an error naming it was reported)
};

using ShapeFn = ShapeStatus (*)(Context&, const NodeRec&);
/// Computes the outputs' constant values from the inputs' (all known); false when it cannot.
using EvalFn = bool (*)(Context&, const NodeRec&);

/// What the importer knows about one op type of the default (or training) domain.
struct ShapeRule {
    ShapeFn shape = nullptr;
    EvalFn eval = nullptr;
    std::uint32_t paramInputs = 0; ///< bit i: input i is read as a parameter (shape, axes, ...), never as data
    int sinceOpset = 1; ///< first opset of an op that ONNX 1.12's registry does not know (18+)
    bool folds = true; ///< an op whose data inputs are all constants yields a constant
};

/// The rule for a node's op type, or nullptr (then only ONNX's schema and shape inference know it).
const ShapeRule* findShapeRule(const std::string& domain, const std::string& opType);
/// The node's rule (looked up once per node).
const ShapeRule* ruleOf(const NodeRec& node);
/// Whether input `index` of the node is a parameter (never lowered as an operand).
bool isParamInput(const NodeRec& node, std::size_t index);

// --- helpers for the rules ------------------------------------------------------------------

/// The node's input `index`, or nullptr when omitted.
const Value* inputValue(const Context& ctx, const NodeRec& node, std::size_t index);
/// Sets output `index` (ignored when the output is omitted).
void setOutput(Context& ctx, const NodeRec& node, std::size_t index, int elemType, std::vector<std::int64_t> shape);
ShapeStatus failNode(Context& ctx, const NodeRec& node, std::string message);
/// Integer values of a constant input; nullopt when omitted or not known at import time.
std::optional<std::vector<std::int64_t>> constInts(const Context& ctx, const NodeRec& node, std::size_t index);
std::optional<std::vector<double>> constReals(const Context& ctx, const NodeRec& node, std::size_t index);
/// Numpy-style broadcast of several shapes; nullopt when they are incompatible.
std::optional<std::vector<std::int64_t>> broadcastShapes(const std::vector<const std::vector<std::int64_t>*>& shapes);

/// Sliding-window geometry of one spatial axis of a convolution or pooling node.
struct WindowAxis {
    std::int64_t in = 1;
    std::int64_t kernel = 1;
    std::int64_t stride = 1;
    std::int64_t dilation = 1;
    std::int64_t padBegin = 0;
    std::int64_t padEnd = 0;
    std::int64_t out = 1;
    /// Input extent the windows span: (out - 1) * stride + (kernel - 1) * dilation + 1.
    std::int64_t span() const { return (out - 1) * stride + (kernel - 1) * dilation + 1; }
};

/// Geometry of the spatial axes of `xShape` ([N, C, spatial...]) for `kernel` (one extent per
/// spatial axis), from the node's strides, dilations, pads, auto_pad and ceil_mode attributes.
/// nullopt with `error` set when the attributes do not fit or an output extent would be < 1.
std::optional<std::vector<WindowAxis>> windowGeometry(const NodeRec& node, const std::vector<std::int64_t>& xShape,
    const std::vector<std::int64_t>& kernel, std::string& error);

/// A parsed Einsum equation: one letter id per axis of each input and of the output; an ellipsis
/// becomes letter ids of their own. `extents` is indexed by letter id.
struct EinsumSpec {
    std::vector<std::vector<int>> inputs;
    std::vector<int> output;
    std::vector<std::int64_t> extents;
};
std::optional<EinsumSpec> parseEinsum(
    const std::string& equation, const std::vector<std::vector<std::int64_t>>& shapes, std::string& error);

/// One sliced axis of a Slice node: output index i reads input index start + i * step.
struct SliceAxis {
    int axis = 0;
    std::int64_t start = 0;
    std::int64_t step = 1;
    std::int64_t out = 0;
};
/// The Slice node's effective parameters (clamped as ONNX specifies); nullopt when the starts or
/// ends are not known at import time, or (with `error` set) when they are invalid.
std::optional<std::vector<SliceAxis>> sliceAxes(
    const Context& ctx, const NodeRec& node, const std::vector<std::int64_t>& dataShape, std::string& error);

/// Output sizes of a Split node along its axis; nullopt when the sizes are not known at import time,
/// or (with `error` set) when they do not add up.
std::optional<std::vector<std::int64_t>> splitSizes(
    const Context& ctx, const NodeRec& node, std::int64_t extent, std::string& error);

/// Which axes a Reduce* node reduces (axes attribute or input by opset, noop_with_empty_axes);
/// nullopt when the axes are not known at import time or (with `error` set) invalid. All false
/// means the node is a no-op.
std::optional<std::vector<bool>> reducedAxes(
    const Context& ctx, const NodeRec& node, std::size_t rank, std::string& error);

// Families of rules (onnx_shapes_math.cpp, onnx_shapes_nn.cpp, onnx_shapes_tensor.cpp).
ShapeStatus shapeUnary(Context& ctx, const NodeRec& node);
ShapeStatus shapeBroadcast(Context& ctx, const NodeRec& node);
ShapeStatus shapeReduce(Context& ctx, const NodeRec& node);
ShapeStatus shapeMatMul(Context& ctx, const NodeRec& node);
ShapeStatus shapeGemm(Context& ctx, const NodeRec& node);
ShapeStatus shapeConv(Context& ctx, const NodeRec& node);
ShapeStatus shapeConvTranspose(Context& ctx, const NodeRec& node);
ShapeStatus shapePool(Context& ctx, const NodeRec& node);
ShapeStatus shapeNormalization(Context& ctx, const NodeRec& node);
ShapeStatus shapeEinsum(Context& ctx, const NodeRec& node);
ShapeStatus shapeRecurrent(Context& ctx, const NodeRec& node);
ShapeStatus shapeOptimizer(Context& ctx, const NodeRec& node);
ShapeStatus shapeQuantize(Context& ctx, const NodeRec& node);
ShapeStatus shapeReshape(Context& ctx, const NodeRec& node);
ShapeStatus shapeFlatten(Context& ctx, const NodeRec& node);
ShapeStatus shapeSqueeze(Context& ctx, const NodeRec& node);
ShapeStatus shapeUnsqueeze(Context& ctx, const NodeRec& node);
ShapeStatus shapeTranspose(Context& ctx, const NodeRec& node);
ShapeStatus shapeConcat(Context& ctx, const NodeRec& node);
ShapeStatus shapeSplit(Context& ctx, const NodeRec& node);
ShapeStatus shapeSlice(Context& ctx, const NodeRec& node);
ShapeStatus shapeGather(Context& ctx, const NodeRec& node);
ShapeStatus shapeGatherElements(Context& ctx, const NodeRec& node);
ShapeStatus shapeGatherND(Context& ctx, const NodeRec& node);
ShapeStatus shapeExpand(Context& ctx, const NodeRec& node);
ShapeStatus shapeTile(Context& ctx, const NodeRec& node);
ShapeStatus shapePad(Context& ctx, const NodeRec& node);
ShapeStatus shapeResize(Context& ctx, const NodeRec& node);
ShapeStatus shapeDepthToSpace(Context& ctx, const NodeRec& node);
ShapeStatus shapeShape(Context& ctx, const NodeRec& node);
ShapeStatus shapeConstant(Context& ctx, const NodeRec& node);
ShapeStatus shapeConstantOfShape(Context& ctx, const NodeRec& node);
ShapeStatus shapeRange(Context& ctx, const NodeRec& node);
ShapeStatus shapeTopK(Context& ctx, const NodeRec& node);
ShapeStatus shapeOneHot(Context& ctx, const NodeRec& node);
ShapeStatus shapeCast(Context& ctx, const NodeRec& node);
ShapeStatus shapeLike(Context& ctx, const NodeRec& node);
ShapeStatus shapeArgReduce(Context& ctx, const NodeRec& node);

// Constant evaluation (onnx_fold.cpp).
bool evalElementwise(Context& ctx, const NodeRec& node);
bool evalUnaryMath(Context& ctx, const NodeRec& node);
bool evalReduce(Context& ctx, const NodeRec& node);
bool evalMovement(Context& ctx, const NodeRec& node);
bool evalShapeOps(Context& ctx, const NodeRec& node);

} // namespace elk::import::onnx_detail
