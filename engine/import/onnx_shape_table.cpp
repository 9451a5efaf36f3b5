// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The op table: which rule gives each op type its shapes, which inputs are parameters, and which
// ops ONNX 1.12 does not know (added in opsets 18..21, or RMSNormalization).
#include "engine/import/onnx_shapes.h"

#include <initializer_list>
#include <unordered_map>

namespace elk::import::onnx_detail {

namespace {

    constexpr std::uint32_t params(std::initializer_list<int> inputs)
    {
        std::uint32_t mask = 0;
        for (int i : inputs)
            mask |= 1u << i;
        return mask;
    }

    ShapeStatus shapeMisc(Context& ctx, const NodeRec& node)
    {
        const std::string& op = node.opType;
        const Value* x = inputValue(ctx, node, 0);
        if (op == "RandomNormal" || op == "RandomUniform") {
            setOutput(ctx, node, 0, int(attrInt(node, "dtype", onnx::TensorProto::FLOAT)), attrInts(node, "shape"));
            return ShapeStatus::Done;
        }
        if (op == "HannWindow" || op == "HammingWindow" || op == "BlackmanWindow") {
            const auto size = constInts(ctx, node, 0);
            if (!size || size->size() != 1 || (*size)[0] < 0)
                return ShapeStatus::NoRule;
            setOutput(ctx, node, 0, int(attrInt(node, "output_datatype", onnx::TensorProto::FLOAT)), { (*size)[0] });
            return ShapeStatus::Done;
        }
        if (!x)
            return failNode(ctx, node, "the first input is missing");
        if (op == "Det") {
            if (x->shape.size() < 2)
                return failNode(ctx, node, "input '" + x->name + "' must have rank >= 2");
            setOutput(ctx, node, 0, x->elemType, { x->shape.begin(), x->shape.end() - 2 });
            return ShapeStatus::Done;
        }
        if (op == "GridSample") {
            const Value* grid = inputValue(ctx, node, 1);
            if (!grid || grid->shape.size() != x->shape.size() || x->shape.size() < 3)
                return failNode(ctx, node, "needs X [N, C, spatial...] and a grid [N, spatial..., rank]");
            std::vector<std::int64_t> out { x->shape[0], x->shape[1] };
            out.insert(out.end(), grid->shape.begin() + 1, grid->shape.end() - 1);
            setOutput(ctx, node, 0, x->elemType, out);
            return ShapeStatus::Done;
        }
        if (op == "RoiAlign") {
            const Value* rois = inputValue(ctx, node, 1);
            if (!rois || rois->shape.size() != 2 || x->shape.size() != 4)
                return failNode(ctx, node, "needs X [N, C, H, W] and rois [num_rois, 4]");
            setOutput(ctx, node, 0, x->elemType,
                { rois->shape[0], x->shape[1], attrInt(node, "output_height", 1), attrInt(node, "output_width", 1) });
            return ShapeStatus::Done;
        }
        if (op == "CenterCropPad") {
            const auto shape = constInts(ctx, node, 1);
            if (!shape)
                return ShapeStatus::NoRule;
            std::vector<std::int64_t> axes = attrInts(node, "axes");
            if (axes.empty()) {
                for (std::size_t i = 0; i < x->shape.size(); ++i)
                    axes.push_back(std::int64_t(i));
            }
            if (axes.size() != shape->size())
                return failNode(ctx, node, "shape " + shapeText(*shape) + " does not match the axes");
            std::vector<std::int64_t> out = x->shape;
            for (std::size_t i = 0; i < axes.size(); ++i) {
                const auto axis = normalizeAxis(axes[i], out.size());
                if (!axis)
                    return failNode(ctx, node, "axis " + std::to_string(axes[i]) + " is out of range");
                out[std::size_t(*axis)] = (*shape)[i];
            }
            setOutput(ctx, node, 0, x->elemType, out);
            return ShapeStatus::Done;
        }
        return ShapeStatus::NoRule;
    }

    using Table = std::unordered_map<std::string, ShapeRule>;

    Table buildDefaultDomain()
    {
        Table t;
        auto add = [&t](std::initializer_list<const char*> ops, ShapeRule rule) {
            for (const char* op : ops)
                t[op] = rule;
        };
        add({ "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cos", "Cosh", "Erf", "Sigmoid", "Sin", "Sinh",
                "Softplus", "Softsign", "Tan", "Tanh", "Elu", "Selu", "Celu", "LeakyRelu", "HardSigmoid", "HardSwish",
                "ThresholdedRelu", "Shrink", "IsInf", "IsNaN", "Softmax", "LogSoftmax", "Hardmax", "LRN",
                "LpNormalization", "MeanVarianceNormalization", "InstanceNormalization", "Scatter", "ScatterElements",
                "ScatterND" },
            { shapeUnary, nullptr });
        add({ "Abs", "Ceil", "Exp", "Floor", "Log", "Neg", "Reciprocal", "Relu", "Round", "Sign", "Sqrt", "Not" },
            { shapeUnary, evalUnaryMath });
        add({ "Identity" }, { shapeUnary, evalMovement });
        add({ "Dropout" }, { shapeUnary, evalMovement, params({ 1, 2 }) });
        add({ "Clip" }, { shapeUnary, nullptr, params({ 1, 2 }) });
        add({ "CumSum", "Trilu", "ReverseSequence" }, { shapeUnary, nullptr, params({ 1 }) });
        add({ "Bernoulli" }, { shapeUnary, nullptr, 0, 1, false });
        add({ "RandomUniformLike", "RandomNormalLike" }, { shapeUnary, nullptr, params({ 0 }), 1, false });
        add({ "EyeLike" }, { shapeUnary, nullptr, params({ 0 }) });
        add({ "Mish", "BitwiseNot" }, { shapeUnary, nullptr, 0, 18 });
        add({ "GroupNormalization" }, { shapeUnary, nullptr, 0, 18 });
        add({ "Gelu" }, { shapeUnary, nullptr, 0, 20 });
        // RMSNormalization arrived in opset 23; shape-only LLM exports use it earlier, so it is
        // accepted at every opset (its shape rule is unambiguous).
        add({ "RMSNormalization" }, { shapeUnary, nullptr });
        add({ "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Equal", "Less", "Greater",
                "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Where" },
            { shapeBroadcast, evalElementwise });
        add({ "BitShift", "PRelu" }, { shapeBroadcast, nullptr });
        add({ "BitwiseAnd", "BitwiseOr", "BitwiseXor" }, { shapeBroadcast, nullptr, 0, 18 });
        add({ "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd" },
            { shapeReduce, evalReduce, params({ 1 }) });
        add({ "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare" },
            { shapeReduce, nullptr, params({ 1 }) });
        add({ "ArgMax", "ArgMin" }, { shapeArgReduce, nullptr });
        add({ "Cast" }, { shapeCast, evalUnaryMath });
        add({ "CastLike" }, { shapeLike, evalUnaryMath, params({ 1 }) });
        add({ "QuantizeLinear" }, { shapeQuantize, nullptr, params({ 1, 2 }) });
        add({ "DequantizeLinear" }, { shapeQuantize, nullptr, params({ 1, 2 }), 1, false });
        add({ "DynamicQuantizeLinear" }, { shapeQuantize, nullptr });
        add({ "MatMul" }, { shapeMatMul, nullptr });
        add({ "MatMulInteger" }, { shapeMatMul, nullptr, params({ 2, 3 }) });
        add({ "QLinearMatMul" }, { shapeMatMul, nullptr, params({ 1, 2, 4, 5, 6, 7 }) });
        add({ "Gemm" }, { shapeGemm, nullptr });
        add({ "Conv" }, { shapeConv, nullptr });
        add({ "ConvInteger" }, { shapeConv, nullptr, params({ 2, 3 }) });
        add({ "QLinearConv" }, { shapeConv, nullptr, params({ 1, 2, 4, 5, 6, 7 }) });
        add({ "ConvTranspose" }, { shapeConvTranspose, nullptr });
        add({ "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "MaxRoiPool" },
            { shapePool, nullptr });
        add({ "MaxUnpool" }, { shapePool, nullptr, params({ 2 }) });
        add({ "LayerNormalization" }, { shapeNormalization, nullptr });
        add({ "BatchNormalization" }, { shapeNormalization, nullptr, params({ 3, 4 }) });
        add({ "Einsum" }, { shapeEinsum, nullptr });
        add({ "RNN", "GRU", "LSTM" }, { shapeRecurrent, nullptr, params({ 4 }) });
        add({ "Reshape" }, { shapeReshape, evalMovement, params({ 1 }) });
        add({ "Flatten" }, { shapeFlatten, evalMovement });
        add({ "Transpose" }, { shapeTranspose, evalMovement });
        add({ "Squeeze" }, { shapeSqueeze, evalMovement, params({ 1 }) });
        add({ "Unsqueeze" }, { shapeUnsqueeze, evalMovement, params({ 1 }) });
        add({ "Concat" }, { shapeConcat, evalMovement });
        add({ "Split" }, { shapeSplit, evalMovement, params({ 1 }) });
        add({ "Slice" }, { shapeSlice, evalMovement, params({ 1, 2, 3, 4 }) });
        add({ "Gather" }, { shapeGather, evalMovement });
        add({ "GatherElements" }, { shapeGatherElements, nullptr });
        add({ "GatherND" }, { shapeGatherND, nullptr });
        add({ "Expand" }, { shapeExpand, evalMovement, params({ 1 }) });
        add({ "Tile" }, { shapeTile, nullptr, params({ 1 }) });
        add({ "Pad" }, { shapePad, nullptr, params({ 1, 2, 3 }) });
        add({ "Resize" }, { shapeResize, nullptr, params({ 1, 2, 3 }) });
        add({ "Upsample" }, { shapeResize, nullptr, params({ 1 }) });
        add({ "DepthToSpace", "SpaceToDepth" }, { shapeDepthToSpace, nullptr });
        add({ "Shape", "Size" }, { shapeShape, evalShapeOps, params({ 0 }) });
        add({ "Constant" }, { shapeConstant, nullptr });
        add({ "ConstantOfShape" }, { shapeConstantOfShape, evalShapeOps, params({ 0 }) });
        add({ "Range" }, { shapeRange, evalShapeOps, params({ 0, 1, 2 }) });
        add({ "TopK" }, { shapeTopK, nullptr, params({ 1 }) });
        add({ "OneHot" }, { shapeOneHot, nullptr, params({ 1, 2 }) });
        add({ "RandomNormal", "RandomUniform" }, { shapeMisc, nullptr, 0, 1, false });
        add({ "HannWindow", "HammingWindow", "BlackmanWindow" }, { shapeMisc, nullptr, params({ 0 }) });
        add({ "Det", "GridSample", "RoiAlign" }, { shapeMisc, nullptr });
        add({ "CenterCropPad" }, { shapeMisc, nullptr, params({ 1 }), 18 });
        // Known ops without an own rule: ONNX shape inference (opset <= 17) or declared shapes.
        add({ "NonZero", "Unique", "Compress", "TfIdfVectorizer", "NegativeLogLikelihoodLoss",
                "SoftmaxCrossEntropyLoss", "Multinomial" },
            { nullptr, nullptr });
        add({ "NonMaxSuppression" }, { nullptr, nullptr, params({ 2, 3, 4 }) });
        add({ "DFT" }, { nullptr, nullptr, params({ 1, 2 }) });
        add({ "STFT" }, { nullptr, nullptr, params({ 1, 3 }) });
        add({ "MelWeightMatrix" }, { nullptr, nullptr, params({ 0, 1, 2, 3, 4 }) });
        add({ "Col2Im" }, { nullptr, nullptr, params({ 1, 2 }), 18 });
        return t;
    }

    Table buildTrainingDomain()
    {
        Table t;
        for (const char* op : { "Adagrad", "Momentum", "Adam" })
            t[op] = { shapeOptimizer, nullptr, params({ 0, 1 }) };
        t["Gradient"] = { shapeOptimizer, nullptr };
        return t;
    }

} // namespace

const ShapeRule* findShapeRule(const std::string& domain, const std::string& opType)
{
    static const Table defaultDomain = buildDefaultDomain();
    static const Table training = buildTrainingDomain();
    const Table* table = domain.empty() ? &defaultDomain : domain == "ai.onnx.preview.training" ? &training : nullptr;
    if (!table)
        return nullptr;
    const auto it = table->find(opType);
    return it == table->end() ? nullptr : &it->second;
}

const ShapeRule* ruleOf(const NodeRec& node)
{
    if (!node.ruleKnown) {
        node.rule = findShapeRule(node.domain, node.opType);
        node.ruleKnown = true;
    }
    return node.rule;
}

bool isParamInput(const NodeRec& node, std::size_t index)
{
    const ShapeRule* rule = ruleOf(node);
    return rule && index < 32 && ((rule->paramInputs >> index) & 1u) != 0;
}

} // namespace elk::import::onnx_detail
