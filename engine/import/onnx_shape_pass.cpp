// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Shapes and constants node by node. Own rules come first at every opset (ONNX 1.12 gives wrong
// shapes for ops changed in opsets 18+ without complaint); ONNX shape inference runs, node by
// node, only where an opset <= 17 node has no own rule; declared value_info comes last.
#include "engine/import/onnx_passes.h"
#include "engine/import/onnx_shapes.h"

namespace elk::import::onnx_detail {

namespace {

    // Concrete dims of a declared type (symbolic dims bound); nullopt when any dim is unknown. A dim
    // of size 0 without a name is how some exporters write "unknown", so it is unknown too unless
    // `zeroIsEmpty` (see fallbackShapes).
    std::optional<std::vector<std::int64_t>> concreteDims(
        const Context& ctx, const onnx::TypeProto& type, bool zeroIsEmpty = false)
    {
        if (!type.has_tensor_type() || !type.tensor_type().has_shape())
            return std::nullopt;
        std::vector<std::int64_t> dims;
        for (const auto& dim : type.tensor_type().shape().dim()) {
            if (dim.has_dim_value() && (dim.dim_value() != 0 || zeroIsEmpty)) {
                dims.push_back(dim.dim_value());
                continue;
            }
            bool isKv = false;
            const auto bound = dim.has_dim_param() ? lookupDim(ctx.options.dims, dim.dim_param(), isKv) : std::nullopt;
            if (!bound)
                return std::nullopt;
            dims.push_back(*bound);
        }
        return dims;
    }

    bool libraryApplies(const NodeRec& node)
    {
        return !node.domain.empty() || node.opset <= kLibraryOpset;
    }

    bool fallbackShapes(Context& ctx, const NodeRec& node)
    {
        std::string libraryError;
        std::vector<std::optional<std::pair<int, std::vector<std::int64_t>>>> library;
        if (libraryApplies(node))
            library = libraryNodeShapes(ctx, node, libraryError);
        std::vector<std::string> missing;
        for (std::size_t o = 0; o < node.outputs.size(); ++o) {
            const int id = node.outputs[o];
            if (id < 0 || ctx.value(id).hasShape)
                continue;
            Value& v = ctx.value(id);
            if (o < library.size() && library[o]) {
                v.elemType = library[o]->first;
                v.shape = library[o]->second;
                v.hasShape = true;
                continue;
            }
            // A graph output declared with a size-0 dim is empty, as ONNX's backend tests declare the
            // results of ConstantOfShape of shape [0] and of a Slice starting past the end; the
            // import warns that such an output is empty. An intermediate's value_info keeps 0 as
            // unknown: read as empty, the ops after it would compute nothing without a word.
            const auto declared = ctx.declared.find(v.name);
            if (declared != ctx.declared.end()) {
                if (const auto dims = concreteDims(ctx, *declared->second, v.isGraphOutput)) {
                    v.elemType = declared->second->tensor_type().elem_type();
                    v.shape = *dims;
                    v.hasShape = true;
                    v.shapeDeclared = true;
                    continue;
                }
            }
            missing.push_back(v.name);
        }
        if (missing.empty())
            return true;
        const std::string why = !libraryApplies(node)
            ? "ONNX 1.12's shape inference stops at opset " + std::to_string(kLibraryOpset)
            : libraryError.empty() ? "ONNX shape inference gave none"
                                   : "ONNX shape inference gave none (" + libraryError + ")";
        ctx.error(node.label,
            "cannot determine the shape of output '" + missing.front()
                + "': the importer has no rule for it (its size depends on run-time data or parameters), " + why
                + "; declaring it in value_info would help");
        return false;
    }

    // ImportOptions::crossCheckShapes: the library's shapes next to the own rules' (opset <= 17).
    void crossCheck(Context& ctx, const NodeRec& node)
    {
        if (!ctx.options.crossCheckShapes || !libraryApplies(node))
            return;
        std::string error;
        const auto library = libraryNodeShapes(ctx, node, error);
        for (std::size_t o = 0; o < node.outputs.size() && o < library.size(); ++o) {
            if (node.outputs[o] < 0 || !library[o])
                continue;
            const Value& v = ctx.value(node.outputs[o]);
            if (library[o]->second != v.shape)
                ctx.warning(node.label,
                    "output '" + v.name + "' is " + shapeText(v.shape) + " by the importer's rules but "
                        + shapeText(library[o]->second) + " by ONNX shape inference");
        }
    }

    bool checkOutputs(Context& ctx, const NodeRec& node)
    {
        for (int id : node.outputs) {
            if (id < 0)
                continue;
            const Value& v = ctx.value(id);
            if (!v.hasShape) {
                ctx.error(node.label, "has an output '" + v.name + "' that the op does not produce (too many outputs)");
                return false;
            }
            if (!dtypeOf(v.elemType)) {
                ctx.error(node.label,
                    "output tensor '" + v.name + "' has element type " + elemTypeName(v.elemType)
                        + ", which cannot be modelled");
                return false;
            }
            if (int(v.shape.size()) > ctx.options.maxRank) {
                ctx.error(node.label,
                    "output '" + v.name + "' has rank " + std::to_string(v.shape.size()) + ", more than the limit "
                        + std::to_string(ctx.options.maxRank));
                return false;
            }
            if (!checkedElements(v.shape)) {
                ctx.error(node.label,
                    "output '" + v.name + "' " + shapeText(v.shape) + " has a negative dim or more than 2^53 elements");
                return false;
            }
            const auto declared = ctx.declared.find(v.name);
            if (declared == ctx.declared.end())
                continue;
            const auto dims = concreteDims(ctx, *declared->second);
            if (dims && *dims != v.shape) {
                ctx.error(node.label,
                    "mismatched shapes: output '" + v.name + "' is " + shapeText(v.shape)
                        + " by the op's rules, but the model declares " + shapeText(*dims));
                return false;
            }
        }
        return true;
    }

    // A Cast that widens (int8 -> fp16 weights) is a run-time conversion, not a constant.
    bool castFolds(const Context& ctx, const NodeRec& node)
    {
        const Value* in = inputValue(ctx, node, 0);
        if (!in || node.outputs.empty() || node.outputs[0] < 0)
            return true;
        const auto from = dtypeOf(in->elemType);
        const auto to = dtypeOf(ctx.value(node.outputs[0]).elemType);
        return !from || !to || model::bytesPerElement(*to) <= model::bytesPerElement(*from)
            || checkedElements(in->shape).value_or(0) <= kMaxConstElements;
    }

    void markConstants(Context& ctx, const NodeRec& node, const ShapeRule* rule)
    {
        bool allConst = true;
        bool allKnown = true;
        for (std::size_t k = 0; k < node.inputs.size(); ++k) {
            const Value* v = inputValue(ctx, node, k);
            if (!v || isParamInput(node, k))
                continue;
            allConst = allConst && v->isConst;
            allKnown = allKnown && (v->constant || checkedElements(v->shape) == 0);
        }
        bool folds = rule ? rule->folds : true;
        if (node.opType == "Cast" || node.opType == "CastLike")
            folds = castFolds(ctx, node);
        if (!allConst || !folds)
            return;
        for (int id : node.outputs) {
            if (id >= 0)
                ctx.value(id).isConst = true;
        }
        if (allKnown && rule && rule->eval)
            rule->eval(ctx, node);
    }

} // namespace

bool processNode(Context& ctx, int nodeIndex)
{
    const NodeRec& node = ctx.nodes[std::size_t(nodeIndex)];
    if (node.domain.empty() && (node.opType == "If" || node.opType == "Loop" || node.opType == "Scan"))
        return inlineControlFlow(ctx, nodeIndex);
    if (node.domain.empty() && isSequenceOp(node.opType))
        return processSequenceOp(ctx, nodeIndex);
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        const Value* v = inputValue(ctx, node, k);
        if (v && !v->hasShape) {
            ctx.error(node.label, "reads '" + v->name + "', whose shape is not known");
            return false;
        }
    }
    const ShapeRule* rule = ruleOf(node);
    const ShapeStatus status = rule && rule->shape ? rule->shape(ctx, node) : ShapeStatus::NoRule;
    if (status == ShapeStatus::Failed)
        return false;
    if (status == ShapeStatus::NoRule && !fallbackShapes(ctx, node))
        return false;
    if (status == ShapeStatus::Done)
        crossCheck(ctx, node);
    if (!checkOutputs(ctx, node))
        return false;
    markConstants(ctx, node, rule);
    ctx.order.push_back(nodeIndex);
    return true;
}

bool inferShapes(Context& ctx)
{
    for (std::size_t k = 0; k < ctx.topoOrder.size(); ++k) {
        if (ctx.stopRequestedEvery(k) || !processNode(ctx, ctx.topoOrder[k]))
            return false;
    }
    return !ctx.stopRequested();
}

} // namespace elk::import::onnx_detail
