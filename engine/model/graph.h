// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/model/dtype.h"
#include "engine/model/expression_pool.h"
#include "engine/model/tensor_expr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::model {

using TensorId = std::uint32_t;
using OpId = std::uint32_t;

/// A named tensor of the graph. `producer` and `consumers` are maintained by Graph::addOp().
struct Tensor {
    std::string name;
    std::vector<std::int64_t> shape;
    DType dtype = DType::F16;
    TensorRole role = TensorRole::Activation;
    std::optional<OpId> producer; ///< the first op writing it (validate() reports a second one)
    std::vector<OpId> consumers; ///< ops reading it, ascending, each once
    bool operator==(const Tensor&) const = default;
};

/// One operator: a name, its (shared) expression and the graph tensors bound to its operands.
struct Op {
    std::string name;
    ExprId expr = 0;
    std::vector<TensorId> tensors; ///< operand order: 0 = output, 1.. = inputs
    std::vector<std::string> dimNames; ///< one per loop dim, for display; not part of the expression
    bool operator==(const Op&) const = default;
};

/// A loop dimension as a front end declares it.
struct LoopDim {
    std::string name;
    std::int64_t extent = 0;
};

/// A graph tensor bound to an operand of a new op, with the operand's axes.
struct OperandRef {
    TensorId tensor = 0;
    std::vector<Axis> axes;
};

/// One problem found by Graph::validate(). `op` and `tensor` are names (empty when not concerned);
/// `message` is a full sentence that names them too, so it can be shown on its own.
struct GraphError {
    std::string op;
    std::string tensor;
    std::string message;
    bool operator==(const GraphError&) const = default;
};

/// The operator graph a front end produces: tensors, operators as tensor expressions (hash-consed
/// in an ExpressionPool), graph inputs and outputs. Program order (the order of addOp calls) is the
/// intended execution order.
/// Contract: building never fails; every inconsistency (bad ids, shapes, cycles, ...) is reported by
/// validate(), and later stages run only on a graph for which validate() returned nothing.
class Graph {
public:
    void setName(std::string name) { m_name = std::move(name); }
    const std::string& name() const { return m_name; }
    void setDescription(std::string description) { m_description = std::move(description); }
    const std::string& description() const { return m_description; }

    TensorId addTensor(std::string name, std::vector<std::int64_t> shape, DType dtype, TensorRole role);
    /// Declares a tensor as supplied from outside (the token's activations). Weight, KV-cache and
    /// optimizer-state tensors without a producer are inputs without being declared.
    void addInput(TensorId tensor);
    /// Declares a tensor as a result the graph hands back (it may still have consumers).
    void addOutput(TensorId tensor);

    /// Adds an op whose operand dtypes and roles are taken from the bound tensors.
    OpId addOp(
        std::string name, OpKind kind, const std::vector<LoopDim>& dims, const std::vector<OperandRef>& operands);
    /// Adds an op with a complete expression (operand dtypes/roles as given, checked by validate()).
    /// `dimNames` may be empty (names d0, d1, ... are used then).
    OpId addOp(std::string name, const TensorExpr& expr, std::vector<TensorId> tensors,
        std::vector<std::string> dimNames = {});

    const std::vector<Tensor>& tensors() const { return m_tensors; }
    const Tensor& tensor(TensorId id) const { return m_tensors.at(id); }
    const std::vector<Op>& ops() const { return m_ops; }
    const Op& op(OpId id) const { return m_ops.at(id); }
    const std::vector<TensorId>& inputs() const { return m_inputs; }
    const std::vector<TensorId>& outputs() const { return m_outputs; }
    const ExpressionPool& expressions() const { return m_pool; }
    const TensorExpr& exprOf(OpId id) const { return m_pool.at(m_ops.at(id).expr); }

    /// First tensor / op with that name.
    std::optional<TensorId> findTensor(std::string_view name) const;
    std::optional<OpId> findOp(std::string_view name) const;

    /// Available before any op runs: declared inputs, and tensors of a role that resides in HBM
    /// (weights, KV cache, optimizer state; residesInHbm()) that no op produces.
    bool isGraphInput(TensorId id) const;
    bool isGraphOutput(TensorId id) const;

    /// Bytes of one tensor as declared (elements × bytes per element).
    std::int64_t tensorBytes(TensorId id) const;
    /// Sum of flopCount() over ops (an op counts each time it appears, shared expression or not).
    std::int64_t totalFlops() const;
    /// Sum of byteCount() over ops.
    std::int64_t totalOperandBytes() const;
    /// Sum of tensorBytes() over the distinct tensors with that role (e.g. parameter bytes for Weight).
    std::int64_t bytesOfRole(TensorRole role) const;

    /// All problems, in a fixed order: tensors, then ops in program order, then graph-level
    /// (producers, dangling and unused tensors, inputs/outputs), then cycles.
    std::vector<GraphError> validate() const;

    /// Ops in an order where every op follows the producers of its inputs; among ready ops the one
    /// earliest in program order goes first, so a valid program order comes back unchanged.
    /// Ops on a cycle, or downstream of one, are left out (validate() reports the cycle).
    std::vector<OpId> topologicalOrder() const;

    bool operator==(const Graph& other) const = default;

private:
    void link(OpId id);

    std::string m_name;
    std::string m_description;
    std::vector<Tensor> m_tensors;
    std::vector<Op> m_ops;
    std::vector<TensorId> m_inputs;
    std::vector<TensorId> m_outputs;
    ExpressionPool m_pool;
    std::map<std::string, TensorId, std::less<>> m_tensorByName; ///< first of each name
    std::map<std::string, OpId, std::less<>> m_opByName; ///< first of each name
};

/// "message" (the message names op and tensor itself); for logs and test failures.
std::string toString(const GraphError& error);

} // namespace elk::model
