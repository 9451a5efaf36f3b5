// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_lowering.h"

#include "engine/import/onnx_lower_ops.h"
#include "engine/import/onnx_passes.h"
#include "engine/import/onnx_shapes.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace elk::import::onnx_detail {

int PlannedOp::addAxis(std::string axisName, std::int64_t extent)
{
    axes.push_back(LogicalAxis { std::move(axisName), extent, {}, false });
    return int(axes.size()) - 1;
}

Lowering::Lowering(Context& context)
    : ctx(context)
    , m_views(context.values.size())
    , m_live(context.values.size(), false)
{
}

bool Lowering::fail(const NodeRec& node, std::string message)
{
    ctx.error(node.label, std::move(message));
    return false;
}

std::string Lowering::opName(const NodeRec& node, const std::string& suffix)
{
    return ctx.uniqueName(node.irName + suffix);
}

RootId Lowering::newRootInfo(const View& view, std::string name, int elemType, RootOrigin origin)
{
    if (roots.size() <= view.root)
        roots.resize(std::size_t(view.root) + 1);
    RootInfo& info = roots[view.root];
    info.name = std::move(name);
    info.elemType = elemType;
    info.origin = origin;
    return view.root;
}

bool Lowering::isImmediate(const NodeRec& node, std::size_t input) const
{
    const Value* v = inputValue(ctx, node, input);
    return v && v->isConst && checkedElements(v->shape).value_or(2) <= 1;
}

std::optional<View> Lowering::operand(const NodeRec& node, std::size_t input, bool allowImmediate)
{
    if (input >= node.inputs.size() || node.inputs[input] < 0)
        return std::nullopt;
    return operandOf(node, node.inputs[input], allowImmediate);
}

std::optional<View> Lowering::operandOf(const NodeRec& node, int id, bool allowImmediate)
{
    if (m_views[std::size_t(id)])
        return m_views[std::size_t(id)];
    const Value& v = ctx.value(id);
    if (isEmpty(id) && !v.isGraphInput)
        return std::nullopt; // an empty result contributes nothing (a Concat drops it)
    RootOrigin origin;
    if (v.optimizerState) {
        origin = v.isGraphInput ? RootOrigin::GraphInput : RootOrigin::Constant; // stored, not computed
    } else if (v.isConst) {
        if (allowImmediate && checkedElements(v.shape).value_or(2) <= 1)
            return std::nullopt;
        origin = RootOrigin::Constant;
    } else if (v.isGraphInput) {
        origin = RootOrigin::GraphInput;
    } else {
        fail(node, "internal: input '" + v.name + "' has no storage (its producer was not lowered)");
        return std::nullopt;
    }
    if (std::find(v.shape.begin(), v.shape.end(), 0) != v.shape.end()) {
        fail(node,
            "tensor '" + v.name + "' " + shapeText(v.shape) + " has a zero-size dim; empty tensors cannot be modelled");
        return std::nullopt;
    }
    View view = layout.newRoot(v.shape);
    newRootInfo(view, v.name, v.elemType, origin);
    roots[view.root].kvCache = origin == RootOrigin::GraphInput && v.kvHint;
    roots[view.root].optimizerState = v.optimizerState;
    roots[view.root].fill = origin == RootOrigin::Constant && v.producer >= 0
        && ctx.nodes[std::size_t(v.producer)].opType == "ConstantOfShape";
    m_views[std::size_t(id)] = view;
    return view;
}

View Lowering::newOutput(const NodeRec& node, std::size_t index)
{
    if (index >= node.outputs.size() || node.outputs[index] < 0) {
        fail(node, "internal: output " + std::to_string(index) + " is omitted");
        return {};
    }
    const int id = node.outputs[index];
    const Value& v = ctx.value(id);
    if (isEmpty(id)) {
        fail(node,
            "output '" + v.name + "' " + shapeText(v.shape) + " has a zero-size dim; empty tensors cannot be modelled");
        return {};
    }
    View view = layout.newRoot(v.shape);
    newRootInfo(view, v.name, v.elemType, RootOrigin::OpOutput);
    m_views[std::size_t(id)] = view;
    return view;
}

View Lowering::newTemp(const std::vector<std::int64_t>& shape, const std::string& name, int elemType)
{
    if (!checkedElements(shape)) {
        ctx.error(
            "tensor '" + name + "'", "an intermediate of shape " + shapeText(shape) + " has more than 2^53 elements");
        return {};
    }
    View view = layout.newRoot(shape);
    newRootInfo(view, name, elemType, RootOrigin::OpOutput);
    return view;
}

void Lowering::markKvWrite(RootId root)
{
    roots.at(root).kvCache = true;
    roots.at(root).graphOutput = true;
    m_outputRoots.push_back(root);
}

bool Lowering::isLiveOutput(const NodeRec& node, std::size_t index) const
{
    return index < node.outputs.size() && node.outputs[index] >= 0 && m_live[std::size_t(node.outputs[index])]
        && !isEmpty(node.outputs[index]);
}

Lowering::UnifyFailure Lowering::tryUnify(PlannedOp& op)
{
    for (const LogicalAxis& axis : op.axes) {
        if (axis.bindings.size() < 2)
            continue;
        const Binding& ref = axis.bindings.front();
        const ViewAxis& refAtoms = op.operands[std::size_t(ref.operand)].axes[std::size_t(ref.axis)];
        for (std::size_t b = 1; b < axis.bindings.size(); ++b) {
            const Binding& other = axis.bindings[b];
            if (!layout.unify(refAtoms, op.operands[std::size_t(other.operand)].axes[std::size_t(other.axis)]))
                return { other.operand != 0 ? other.operand : ref.operand, -1 };
        }
    }
    // A window reads its operand axis, and indexes its two loop axes, as single atoms.
    auto single = [this](const View& view, int axis) {
        const AtomList leaves = layout.leaves(view.axes[std::size_t(axis)]);
        return leaves.empty()
            || (leaves.size() == 1 && layout.owner(leaves[0]) == view.root && layout.makeRigid(leaves[0]));
    };
    for (const WindowBinding& w : op.windows) {
        if (!single(op.operands[std::size_t(w.operand)], w.axis))
            return { w.operand, w.axis };
        for (int logical : { w.first, w.second }) {
            for (const Binding& b : op.axes[std::size_t(logical)].bindings) {
                if (!single(op.operands[std::size_t(b.operand)], b.axis))
                    return { b.operand, b.axis };
            }
        }
    }
    return {};
}

bool Lowering::addOp(PlannedOp op)
{
    for (const LogicalAxis& axis : op.axes) {
        for (const Binding& b : axis.bindings) {
            const auto extent = layout.extent(op.operands.at(std::size_t(b.operand)).axes.at(std::size_t(b.axis)));
            if (extent != axis.extent) {
                ctx.error(op.label(),
                    "internal: operand " + std::to_string(b.operand) + " axis " + std::to_string(b.axis)
                        + " has extent " + std::to_string(extent) + " but is bound to a loop axis of extent "
                        + std::to_string(axis.extent));
                return false;
            }
        }
    }
    std::int64_t iterations = 1;
    for (const LogicalAxis& axis : op.axes)
        iterations = iterations > kMaxElements / std::max<std::int64_t>(1, axis.extent)
            ? kMaxElements + 1
            : iterations * std::max<std::int64_t>(1, axis.extent);
    if (iterations > kMaxElements) {
        ctx.error(op.label(),
            "modelling it as op '" + op.name + "' takes more than 2^53 loop iterations (its tensors are too large)");
        return false;
    }
    for (std::size_t attempt = 0; attempt <= 2 * op.operands.size(); ++attempt) {
        const Layout::Mark mark = layout.mark();
        const UnifyFailure failure = tryUnify(op);
        if (failure.operand < 0) {
            layout.commit(mark);
            roots[op.operands.front().root].produced = true;
            m_ops.push_back(std::move(op));
            return true;
        }
        layout.rollback(mark);
        if (failure.operand == 0)
            break;
        const auto copy = materialize(op.operands[std::size_t(failure.operand)],
            op.name + "/copy" + std::to_string(failure.operand), op.label(),
            failure.unsplitAxis >= 0 ? std::vector<int> { failure.unsplitAxis } : std::vector<int> {});
        if (!copy)
            return false;
        op.operands[std::size_t(failure.operand)] = *copy;
    }
    ctx.error(op.label(), "internal: the operands of op '" + op.name + "' cannot be laid out");
    return false;
}

std::vector<int> Lowering::rigidAxes(const View& view)
{
    std::vector<int> axes;
    for (std::size_t i = 0; i < view.axes.size(); ++i) {
        const auto leaves = layout.leaves(view.axes[i]);
        if (std::any_of(leaves.begin(), leaves.end(), [this](AtomId a) { return layout.isRigid(a); }))
            axes.push_back(int(i));
    }
    return axes;
}

std::optional<View> Lowering::materialize(
    const View& view, const std::string& name, const std::string& label, const std::vector<int>& unsplit)
{
    if (!view.valid() || view.root >= roots.size())
        return std::nullopt;
    const std::vector<std::int64_t> shape = layout.shapeOf(view);
    View fresh = layout.newRoot(shape);
    newRootInfo(fresh, name, roots[view.root].elemType, RootOrigin::OpOutput);
    PlannedOp copy;
    copy.name = ctx.uniqueName(name);
    copy.kind = model::OpKind::Slice;
    copy.nodeLabel = &label;
    copy.operands = { fresh, view };
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] <= 1)
            continue;
        const int axis = copy.addAxis("d" + std::to_string(i), shape[i]);
        copy.bind(axis, 0, int(i));
        if (std::find(unsplit.begin(), unsplit.end(), int(i)) != unsplit.end())
            copy.bind(copy.addAxis("s" + std::to_string(i), shape[i]), 1, int(i)); // no refinement passes over
        else
            copy.bind(axis, 1, int(i));
    }
    if (!addOp(std::move(copy)))
        return std::nullopt;
    return fresh;
}

std::optional<View> Lowering::reshapeView(const View& view, const std::vector<std::int64_t>& shape)
{
    ViewAxis flat;
    for (const ViewAxis& axis : view.axes)
        flat.insert(flat.end(), axis.begin(), axis.end());
    const Layout::Mark mark = layout.mark();
    auto groups = layout.regroup(flat, shape);
    if (!groups) {
        layout.rollback(mark);
        return std::nullopt;
    }
    layout.commit(mark);
    return View { view.root, std::move(*groups) };
}

bool Lowering::opaqueCopy(const NodeRec& node, const View& input, std::size_t outputIndex, model::OpKind kind)
{
    const View out = newOutput(node, outputIndex);
    if (!out.valid())
        return false;
    PlannedOp op;
    op.name = opName(node, outputIndex ? "/" + std::to_string(outputIndex) : "");
    op.kind = kind;
    op.nodeLabel = &node.label;
    op.operands = { out, input };
    const auto outShape = layout.shapeOf(out);
    for (std::size_t i = 0; i < outShape.size(); ++i) {
        if (outShape[i] > 1)
            op.bind(op.addAxis("o" + std::to_string(i), outShape[i]), 0, int(i));
    }
    const auto inShape = layout.shapeOf(input);
    for (std::size_t i = 0; i < inShape.size(); ++i) {
        if (inShape[i] > 1)
            op.bind(op.addAxis("i" + std::to_string(i), inShape[i]), 1, int(i));
    }
    return addOp(std::move(op));
}

bool Lowering::isEmpty(int valueId) const
{
    return checkedElements(ctx.value(valueId).shape).value_or(1) == 0;
}

bool Lowering::generatedByEmpty(const NodeRec& node) const
{
    // An op reading an empty tensor computes nothing from it; only a Concat keeps its other parts.
    if (node.opType == "Concat")
        return false;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        if (node.inputs[k] >= 0 && !isParamInput(node, k) && isEmpty(node.inputs[k]))
            return true;
    }
    return false;
}

bool Lowering::isConstantView(const NodeRec& node, std::size_t index) const
{
    static const std::set<std::string, std::less<>> views
        = { "Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity" };
    if (!node.domain.empty() || !views.count(node.opType) || index >= node.outputs.size() || node.outputs[index] < 0)
        return false;
    const Value& out = ctx.value(node.outputs[index]);
    return out.isConst && checkedElements(out.shape).value_or(2) > 1;
}

bool Lowering::needsPlanning(const NodeRec& node) const
{
    for (std::size_t i = 0; i < node.outputs.size(); ++i) {
        if (!isLiveOutput(node, i) || ctx.value(node.outputs[i]).isSequence)
            continue;
        if (!ctx.value(node.outputs[i]).isConst || isConstantView(node, i))
            return true;
    }
    return false;
}

void Lowering::computeLiveness()
{
    for (int v : ctx.graphOutputs)
        m_live[std::size_t(v)] = true;
    for (auto it = ctx.order.rbegin(); it != ctx.order.rend(); ++it) {
        const NodeRec& node = ctx.nodes[std::size_t(*it)];
        if (!needsPlanning(node) || generatedByEmpty(node))
            continue;
        if (node.opType == "SequenceAt") {
            if (const auto element = knownElement(ctx, node)) {
                markLive(*element); // reads one element, not the whole sequence
                continue;
            }
        }
        for (std::size_t k = 0; k < node.inputs.size(); ++k) {
            if (node.inputs[k] >= 0 && !isParamInput(node, k))
                markLive(node.inputs[k]);
        }
    }
}

void Lowering::markLive(int valueId)
{
    const Value& v = ctx.value(valueId);
    if (!v.isSequence) {
        m_live[std::size_t(valueId)] = true;
        return;
    }
    for (int element : v.elements) // a sequence is read through the tensors it holds
        markLive(element);
}

bool Lowering::planNode(const NodeRec& node)
{
    // An empty tensor a graph input declares is bad input (an empty result of an op computes
    // nothing, and is dropped).
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
        const int id = node.inputs[k];
        if (id >= 0 && !isParamInput(node, k) && ctx.value(id).isGraphInput && isEmpty(id))
            return fail(node,
                "tensor '" + ctx.value(id).name + "' " + shapeText(ctx.value(id).shape)
                    + " has a zero-size dim; empty tensors cannot be modelled");
    }
    if (!needsPlanning(node))
        return true;
    if (generatedByEmpty(node)) {
        for (std::size_t i = 0; i < node.outputs.size(); ++i) {
            if (!isLiveOutput(node, i) || isEmpty(node.outputs[i]))
                continue;
            const View view = newOutput(node, i);
            if (!view.valid())
                return false;
            roots[view.root].origin = RootOrigin::Constant; // computed from an empty tensor: a fill
        }
        return true;
    }
    // Shapes the file declared (no rule derived them) may not fit the op's semantics: the
    // generic lowering takes any shapes.
    for (int out : node.outputs) {
        if (out >= 0 && ctx.value(out).shapeDeclared)
            return planGeneric(*this, node, false);
    }
    return planOp(*this, node);
}

bool Lowering::plan()
{
    computeLiveness();
    for (std::size_t k = 0; k < ctx.order.size(); ++k) {
        if (ctx.stopRequestedEvery(k) || !planNode(ctx.nodes[std::size_t(ctx.order[k])]) || ctx.failed())
            return false;
    }
    return planGraphOutputs() && !ctx.stopRequested();
}

bool Lowering::planGraphOutputs()
{
    for (int id : ctx.graphOutputs) {
        const Value& v = ctx.value(id);
        NodeRec pseudo;
        pseudo.label = m_labels.emplace_back("graph output '" + v.name + "'");
        if (v.isSequence) {
            ctx.error(pseudo.label, "is a sequence; graph outputs must be tensors");
            return false;
        }
        if (isEmpty(id)) {
            ctx.warning(pseudo.label, "is empty " + shapeText(v.shape) + "; there is nothing to model");
            continue;
        }
        if (!m_views[std::size_t(id)]) {
            if (!v.isConst && !v.isGraphInput && !v.optimizerState) {
                ctx.error(pseudo.label, "internal: the output was not lowered");
                return false;
            }
            if (std::find(v.shape.begin(), v.shape.end(), 0) != v.shape.end()) {
                ctx.error(pseudo.label,
                    "tensor '" + v.name + "' " + shapeText(v.shape)
                        + " has a zero-size dim; empty tensors cannot be modelled");
                return false;
            }
            View view = layout.newRoot(v.shape);
            newRootInfo(view, v.name, v.elemType,
                v.isConst || (v.optimizerState && !v.isGraphInput) ? RootOrigin::Constant : RootOrigin::GraphInput);
            roots[view.root].kvCache = v.kvHint;
            roots[view.root].optimizerState = v.optimizerState;
            m_views[std::size_t(id)] = view;
        }
        View view = *m_views[std::size_t(id)];
        if (layout.hasVirtual(view)) {
            const auto copy = materialize(view, v.name + "/expanded", m_labels.back());
            if (!copy)
                return false;
            view = *copy;
        }
        RootInfo& info = roots[view.root];
        info.graphOutput = true;
        info.kvCache = info.kvCache || v.kvHint;
        m_outputRoots.push_back(view.root);
    }
    return true;
}

namespace {

    /// The loop dims of a planned op: each logical axis becomes the leaves of the atoms its first binding
    /// refines into (name.0, name.1, ...), or one dim of its extent when nothing binds it. `dimsOf[l]`:
    /// the dims of logical axis l.
    std::vector<model::LoopDim> loopDimsOf(const PlannedOp& op, Layout& layout, std::vector<std::vector<int>>& dimsOf)
    {
        std::vector<model::LoopDim> dims;
        dimsOf.assign(op.axes.size(), {});
        for (std::size_t l = 0; l < op.axes.size(); ++l) {
            const LogicalAxis& axis = op.axes[l];
            if (!axis.bindings.empty()) {
                const Binding& ref = axis.bindings.front();
                const auto leaves = layout.leaves(op.operands[std::size_t(ref.operand)].axes[std::size_t(ref.axis)]);
                for (std::size_t j = 0; j < leaves.size(); ++j) {
                    dimsOf[l].push_back(int(dims.size()));
                    dims.push_back({ leaves.size() > 1 ? axis.name + "." + std::to_string(j) : axis.name,
                        layout.extent(leaves[j]) });
                }
            }
            if (dimsOf[l].empty() && (axis.extent > 1 || axis.forceDim)) {
                dimsOf[l].push_back(int(dims.size()));
                dims.push_back({ axis.name, axis.extent });
            }
        }
        return dims;
    }

    /// A root's tensor role: KV cache, optimizer state, weight, output or activation. `consumed`: some op
    /// reads it as an input.
    model::TensorRole roleOf(const RootInfo& info, bool consumed)
    {
        using model::TensorRole;
        if (info.kvCache)
            return TensorRole::KvCache;
        switch (info.origin) {
        case RootOrigin::GraphInput:
            return info.optimizerState ? TensorRole::OptimizerState : TensorRole::Activation;
        case RootOrigin::Constant:
            if (info.graphOutput && !consumed)
                return TensorRole::Output;
            if (info.fill)
                return TensorRole::Activation;
            return info.optimizerState ? TensorRole::OptimizerState : TensorRole::Weight;
        case RootOrigin::OpOutput:
            break;
        }
        return info.graphOutput ? TensorRole::Output : TensorRole::Activation;
    }

} // namespace

bool Lowering::emit(model::Graph& graph)
{
    using model::TensorRole;
    std::vector<bool> consumed(roots.size(), false);
    std::vector<bool> referenced(roots.size(), false);
    for (const PlannedOp& op : m_ops) {
        for (std::size_t k = 0; k < op.operands.size(); ++k) {
            referenced[op.operands[k].root] = true;
            if (k > 0)
                consumed[op.operands[k].root] = true;
        }
    }
    for (RootId r : m_outputRoots)
        referenced[r] = true;

    // Planning is over: every root's atoms are final.
    std::vector<AtomList> leavesOf(roots.size());
    for (RootId r = 0; r < roots.size(); ++r) {
        if (referenced[r])
            leavesOf[r] = layout.rootLeaves(r);
    }
    std::vector<std::optional<model::TensorId>> tensorOf(roots.size());
    std::set<std::string> tensorNames;
    auto ensureTensor = [&](RootId r) -> std::optional<model::TensorId> {
        if (tensorOf[r])
            return tensorOf[r];
        std::vector<std::int64_t> shape;
        for (AtomId atom : leavesOf[r])
            shape.push_back(layout.extent(atom));
        if (int(shape.size()) > 2 * ctx.options.maxRank) {
            ctx.error("tensor '" + roots[r].name + "'",
                "needs rank " + std::to_string(shape.size()) + " " + shapeText(shape)
                    + " once its axes are split to express the reshapes that read it; the limit is "
                    + std::to_string(2 * ctx.options.maxRank));
            return std::nullopt;
        }
        std::string name = roots[r].name.empty() ? "tensor" : roots[r].name;
        for (int n = 2; !tensorNames.insert(name).second; ++n)
            name = roots[r].name + "_" + std::to_string(n);
        tensorOf[r] = graph.addTensor(name, shape, *dtypeOf(roots[r].elemType), roleOf(roots[r], consumed[r]));
        return tensorOf[r];
    };

    for (int id : ctx.graphInputs) {
        const auto& view = m_views[std::size_t(id)];
        if (!view || !referenced[view->root] || roots[view->root].origin != RootOrigin::GraphInput)
            continue;
        const auto tensor = ensureTensor(view->root);
        if (!tensor)
            return false;
        graph.addInput(*tensor);
    }

    for (const PlannedOp& op : m_ops) {
        std::vector<std::vector<int>> dimsOf;
        std::vector<model::LoopDim> dims = loopDimsOf(op, layout, dimsOf);
        std::vector<model::OperandRef> refs;
        for (std::size_t k = 0; k < op.operands.size(); ++k) {
            const View& view = op.operands[k];
            std::vector<std::pair<AtomId, model::Axis>> axisOf; // ranks are small: a linear search beats a hash
            auto setAxis = [&axisOf](AtomId atom, model::Axis axis) { axisOf.emplace_back(atom, axis); };
            for (std::size_t l = 0; l < op.axes.size(); ++l) {
                for (const Binding& b : op.axes[l].bindings) {
                    if (b.operand != int(k))
                        continue;
                    const auto leaves = layout.leaves(view.axes[std::size_t(b.axis)]);
                    if (leaves.size() != dimsOf[l].size()) {
                        ctx.error(op.label(), "internal: operand axes of op '" + op.name + "' did not refine alike");
                        return false;
                    }
                    for (std::size_t j = 0; j < leaves.size(); ++j) {
                        if (layout.owner(leaves[j]) == view.root)
                            setAxis(leaves[j], model::Axis::loop(dimsOf[l][j]));
                    }
                }
            }
            for (const WindowBinding& w : op.windows) {
                if (w.operand != int(k))
                    continue;
                const auto leaves = layout.leaves(view.axes[std::size_t(w.axis)]);
                if (leaves.empty())
                    continue;
                const auto& first = dimsOf[std::size_t(w.first)];
                const auto& second = dimsOf[std::size_t(w.second)];
                if (!first.empty() && !second.empty())
                    setAxis(leaves[0], model::Axis::window(first[0], second[0], w.stride));
                else if (!second.empty())
                    setAxis(leaves[0], model::Axis::loop(second[0]));
                else if (!first.empty() && w.stride == 1)
                    setAxis(leaves[0], model::Axis::loop(first[0]));
                else {
                    ctx.error(op.label(), "internal: window of op '" + op.name + "' lost a loop dim");
                    return false;
                }
            }
            model::OperandRef ref;
            const auto tensor = ensureTensor(view.root);
            if (!tensor)
                return false;
            ref.tensor = *tensor;
            for (AtomId leaf : leavesOf[view.root]) {
                const auto it
                    = std::find_if(axisOf.begin(), axisOf.end(), [leaf](const auto& p) { return p.first == leaf; });
                if (it == axisOf.end()) {
                    ctx.error(op.label(),
                        "internal: operand " + std::to_string(k) + " ('" + roots[view.root].name + "') of op '"
                            + op.name + "' has an axis of extent " + std::to_string(layout.extent(leaf))
                            + " that no loop dim indexes");
                    return false;
                }
                ref.axes.push_back(it->second);
            }
            refs.push_back(std::move(ref));
        }
        if (dims.empty())
            dims.push_back({ "one", 1 });
        graph.addOp(op.name, op.kind, dims, refs);
    }

    for (RootId r = 0; r < roots.size(); ++r) {
        if (tensorOf[r] && roots[r].fill && graph.tensor(*tensorOf[r]).role == TensorRole::Activation)
            graph.addInput(*tensorOf[r]); // set up before the step, like an input
    }
    std::set<RootId> listed;
    for (RootId r : m_outputRoots) {
        if (!listed.insert(r).second)
            continue;
        const auto tensor = ensureTensor(r);
        if (!tensor)
            return false;
        graph.addOutput(*tensor);
    }
    return true;
}

bool Lowering::run(model::Graph& graph)
{
    if (!plan())
        return false;
    if (!emit(graph) || ctx.stopRequested())
        return false;
    for (const model::GraphError& problem : graph.validate()) {
        std::string location = problem.op.empty() ? "" : "op '" + problem.op + "'";
        ctx.error(location, "internal: the lowered graph is inconsistent: " + problem.message);
    }
    return !ctx.failed();
}

} // namespace elk::import::onnx_detail
