// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Lowering of shaped ONNX nodes to Graph IR ops. Planning runs over the nodes in execution order:
// view ops only give their output a new View of the input's storage; every other live node
// becomes one PlannedOp per live output, whose logical axes bind view axes of its operands. After
// planning (all storage refinements known) the ops are emitted with their final loop dims.

#include "engine/import/onnx_context.h"
#include "engine/import/onnx_layout.h"
#include "engine/model/graph.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace elk::import::onnx_detail {

/// A view axis of an operand bound to a logical axis.
struct Binding {
    int operand = 0; ///< 0 = output
    int axis = 0; ///< index into the operand view's axes
};

/// One loop axis of a planned op, before refinement splits it into loop dims.
struct LogicalAxis {
    std::string name;
    std::int64_t extent = 1;
    SmallVector<Binding, 4> bindings; ///< all refine alike; the first gives the loop dims
    bool forceDim = false; ///< keep a loop dim even when the extent is 1 (a window's second dim)
};

/// An operand axis read as a sliding window: index = first * stride + second (both logical axes,
/// each a single loop dim at most).
struct WindowBinding {
    int operand = 0;
    int axis = 0;
    int first = 0;
    int second = 0;
    std::int64_t stride = 1;
};

struct PlannedOp {
    std::string name;
    model::OpKind kind = model::OpKind::Elementwise;
    std::vector<View> operands; ///< 0 = output (a fresh root), then inputs
    std::vector<LogicalAxis> axes;
    std::vector<WindowBinding> windows;
    const std::string* nodeLabel = nullptr; ///< the node's label, for error messages (outlives the op)

    const std::string& label() const
    {
        static const std::string none;
        return nodeLabel ? *nodeLabel : none;
    }

    int addAxis(std::string axisName, std::int64_t extent);
    void bind(int logicalAxis, int operand, int viewAxis)
    {
        axes[std::size_t(logicalAxis)].bindings.push_back({ operand, viewAxis });
    }
};

enum class RootOrigin { GraphInput, Constant, OpOutput };

struct RootInfo {
    std::string name;
    int elemType = 0;
    RootOrigin origin = RootOrigin::OpOutput;
    bool kvCache = false; ///< role kv_cache (graph input/output of the KV cache, or a KV write)
    bool optimizerState = false; ///< role optimizer_state (a stored Adam moment, momentum buffer, ...)
    /// A constant fill (ConstantOfShape: a zero gradient table): a buffer set up before the step,
    /// an input activation rather than a parameter.
    bool fill = false;
    bool graphOutput = false;
    bool produced = false; ///< some planned op writes it
};

class Lowering {
public:
    explicit Lowering(Context& context);

    /// Plans every live node and emits the Graph IR. False with errors in the context.
    bool run(model::Graph& graph);

    // --- for the per-op planners (onnx_lower_ops.cpp) --------------------------------------

    Context& ctx;
    Layout layout;
    std::vector<RootInfo> roots;

    /// The view of a data input, creating the root of a graph input or constant on first use.
    /// nullopt for an omitted input, or for a one-element constant when `allowImmediate` (it is
    /// then an immediate of the op, not an operand). Reports an error (and returns nullopt) for
    /// an input that cannot be stored (zero-size dims).
    std::optional<View> operand(const NodeRec& node, std::size_t input, bool allowImmediate);
    /// Same for a value that is not an input of the node (an element of a sequence it reads).
    std::optional<View> operandOf(const NodeRec& node, int valueId, bool allowImmediate);
    bool isImmediate(const NodeRec& node, std::size_t input) const;
    /// A fresh root for output `index` of the node, registered as that value's view.
    View newOutput(const NodeRec& node, std::size_t index);
    /// A fresh root not bound to any value (an op's intermediate result).
    View newTemp(const std::vector<std::int64_t>& shape, const std::string& name, int elemType);
    /// Marks a root as written to the KV cache: role kv_cache, listed as a graph output.
    void markKvWrite(RootId root);
    void setView(int valueId, View view) { m_views.at(std::size_t(valueId)) = std::move(view); }
    const std::optional<View>& viewOf(int valueId) const { return m_views.at(std::size_t(valueId)); }
    bool isLiveOutput(const NodeRec& node, std::size_t index) const;
    std::string opName(const NodeRec& node, const std::string& suffix = {});

    /// Unifies the op's bindings and records it; an input that cannot be unified is copied into
    /// a fresh root first. False (error reported) only for inconsistent plans.
    bool addOp(PlannedOp op);
    /// A copy of `view` into a fresh root laid out like the view (a Slice-kind op). The fresh root
    /// takes the view's refinement, except on the `unsplit` axes, which stay one atom each (read
    /// through loop dims of their own, so that a window can read them or a reshape split them).
    std::optional<View> materialize(
        const View& view, const std::string& name, const std::string& label, const std::vector<int>& unsplit = {});
    /// Axes of the view holding an atom a window reads (such atoms cannot be split).
    std::vector<int> rigidAxes(const View& view);
    /// A view of `view` reshaped to `shape` (regrouping atoms); nullopt when no regrouping exists.
    std::optional<View> reshapeView(const View& view, const std::vector<std::int64_t>& shape);
    /// An op over both index spaces (for reshapes no tensor expression can index).
    bool opaqueCopy(const NodeRec& node, const View& input, std::size_t outputIndex, model::OpKind kind);
    bool fail(const NodeRec& node, std::string message);

private:
    bool plan();
    bool planNode(const NodeRec& node);
    bool isEmpty(int valueId) const;
    bool generatedByEmpty(const NodeRec& node) const;
    bool needsPlanning(const NodeRec& node) const;
    /// Output `index` of the node is a pure view (transpose, reshape, alias) of a constant that is
    /// not a single element: it stays a view of the constant's storage rather than being folded
    /// into a second constant (a tied LM head reads the embedding table transposed).
    bool isConstantView(const NodeRec& node, std::size_t index) const;
    bool planGraphOutputs();
    struct UnifyFailure {
        int operand = -1; ///< -1: none
        int unsplitAxis = -1; ///< a window needs this operand axis as one atom
    };
    UnifyFailure tryUnify(PlannedOp& op);
    bool emit(model::Graph& graph);
    void computeLiveness();
    void markLive(int valueId);
    RootId newRootInfo(const View& view, std::string name, int elemType, RootOrigin origin);

    std::vector<std::optional<View>> m_views; ///< per value id
    std::vector<bool> m_live; ///< per value id: needed as data by a graph output
    std::vector<PlannedOp> m_ops;
    std::vector<RootId> m_outputRoots; ///< roots of the graph outputs, in file order (may repeat)
    std::deque<std::string> m_labels; ///< labels of ops made for graph outputs (PlannedOp points at them)
};

/// Plans one node (dispatch on its op type). False with an error reported.
bool planOp(Lowering& lowering, const NodeRec& node);

} // namespace elk::import::onnx_detail
