// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/graph.h"

#include "engine/model/graph_checks.h"

#include <algorithm>
#include <queue>

namespace elk::model {

TensorId Graph::addTensor(std::string name, std::vector<std::int64_t> shape, DType dtype, TensorRole role)
{
    const auto id = TensorId(m_tensors.size());
    m_tensorByName.emplace(name, id); // keeps the first of a duplicated name; validate() reports it
    m_tensors.push_back(Tensor { std::move(name), std::move(shape), dtype, role, std::nullopt, {} });
    return id;
}

void Graph::addInput(TensorId tensor)
{
    m_inputs.push_back(tensor);
}

void Graph::addOutput(TensorId tensor)
{
    m_outputs.push_back(tensor);
}

OpId Graph::addOp(
    std::string name, OpKind kind, const std::vector<LoopDim>& dims, const std::vector<OperandRef>& operands)
{
    TensorExpr expr;
    expr.kind = kind;
    std::vector<std::string> dimNames;
    for (const LoopDim& dim : dims) {
        expr.dimExtents.push_back(dim.extent);
        dimNames.push_back(dim.name);
    }
    std::vector<TensorId> tensors;
    for (const OperandRef& ref : operands) {
        Operand operand;
        operand.axes = ref.axes;
        if (ref.tensor < m_tensors.size()) {
            operand.dtype = m_tensors[ref.tensor].dtype;
            operand.role = m_tensors[ref.tensor].role;
        }
        expr.operands.push_back(std::move(operand));
        tensors.push_back(ref.tensor);
    }
    return addOp(std::move(name), expr, std::move(tensors), std::move(dimNames));
}

OpId Graph::addOp(
    std::string name, const TensorExpr& expr, std::vector<TensorId> tensors, std::vector<std::string> dimNames)
{
    if (dimNames.empty()) {
        for (std::size_t d = 0; d < expr.dimExtents.size(); ++d)
            dimNames.push_back("d" + std::to_string(d));
    }
    const auto id = OpId(m_ops.size());
    m_opByName.emplace(name, id);
    m_ops.push_back(Op { std::move(name), m_pool.intern(expr), std::move(tensors), std::move(dimNames) });
    link(id);
    return id;
}

void Graph::link(OpId id)
{
    const Op& op = m_ops[id];
    for (std::size_t i = 0; i < op.tensors.size(); ++i) {
        const TensorId t = op.tensors[i];
        if (t >= m_tensors.size())
            continue; // reported by validate()
        Tensor& tensor = m_tensors[t];
        if (i == 0) {
            if (!tensor.producer)
                tensor.producer = id;
        } else if (tensor.consumers.empty() || tensor.consumers.back() != id) {
            tensor.consumers.push_back(id); // ops are added in id order, so the list stays sorted
        }
    }
}

std::optional<TensorId> Graph::findTensor(std::string_view name) const
{
    if (const auto it = m_tensorByName.find(name); it != m_tensorByName.end())
        return it->second;
    return std::nullopt;
}

std::optional<OpId> Graph::findOp(std::string_view name) const
{
    if (const auto it = m_opByName.find(name); it != m_opByName.end())
        return it->second;
    return std::nullopt;
}

bool Graph::isGraphInput(TensorId id) const
{
    if (std::find(m_inputs.begin(), m_inputs.end(), id) != m_inputs.end())
        return true;
    if (id >= m_tensors.size())
        return false;
    const Tensor& tensor = m_tensors[id];
    return !tensor.producer && residesInHbm(tensor.role);
}

bool Graph::isGraphOutput(TensorId id) const
{
    return std::find(m_outputs.begin(), m_outputs.end(), id) != m_outputs.end();
}

std::int64_t Graph::tensorBytes(TensorId id) const
{
    const Tensor& tensor = m_tensors.at(id);
    return elementCount(tensor.shape) * bytesPerElement(tensor.dtype);
}

std::int64_t Graph::totalFlops() const
{
    std::int64_t flops = 0;
    for (const Op& op : m_ops)
        flops += flopCount(m_pool.at(op.expr));
    return flops;
}

std::int64_t Graph::totalOperandBytes() const
{
    std::int64_t bytes = 0;
    for (const Op& op : m_ops)
        bytes += byteCount(m_pool.at(op.expr));
    return bytes;
}

std::int64_t Graph::bytesOfRole(TensorRole role) const
{
    std::int64_t bytes = 0;
    for (TensorId id = 0; id < m_tensors.size(); ++id) {
        if (m_tensors[id].role == role)
            bytes += tensorBytes(id);
    }
    return bytes;
}

std::vector<GraphError> Graph::validate() const
{
    return detail::validateGraph(*this);
}

std::vector<OpId> Graph::topologicalOrder() const
{
    const detail::OpEdges edges = detail::opEdges(*this);
    std::vector<std::size_t> pending(m_ops.size(), 0);
    for (const auto& successors : edges) {
        for (const detail::OpEdge& edge : successors)
            ++pending[edge.to];
    }
    // Min-heap on op id: among ready ops, program order wins, so the result is deterministic and a
    // program order that is already topological comes back unchanged.
    std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
    for (OpId id = 0; id < m_ops.size(); ++id) {
        if (pending[id] == 0)
            ready.push(id);
    }
    std::vector<OpId> order;
    order.reserve(m_ops.size());
    while (!ready.empty()) {
        const OpId id = ready.top();
        ready.pop();
        order.push_back(id);
        for (const detail::OpEdge& edge : edges[id]) {
            if (--pending[edge.to] == 0)
                ready.push(edge.to);
        }
    }
    return order;
}

std::string toString(const GraphError& error)
{
    return error.message;
}

} // namespace elk::model
