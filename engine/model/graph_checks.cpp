// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/model/graph_checks.h"

#include <algorithm>
#include <deque>
#include <sstream>

namespace elk::model::detail {

namespace {

    std::string quoted(const std::string& name)
    {
        return "'" + name + "'";
    }

    std::string opName(const Graph& graph, OpId id)
    {
        return id < graph.ops().size() ? graph.op(id).name : "#" + std::to_string(id);
    }

    std::string tensorName(const Graph& graph, TensorId id)
    {
        return id < graph.tensors().size() ? graph.tensor(id).name : "#" + std::to_string(id);
    }

    std::string shapeText(const std::vector<std::int64_t>& shape)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < shape.size(); ++i)
            text += (i ? "," : "") + std::to_string(shape[i]);
        return text + "]";
    }

    // Ops writing each tensor (operand 0), in op order.
    std::vector<std::vector<OpId>> producersOf(const Graph& graph)
    {
        std::vector<std::vector<OpId>> producers(graph.tensors().size());
        for (OpId id = 0; id < graph.ops().size(); ++id) {
            const auto& tensors = graph.op(id).tensors;
            if (!tensors.empty() && tensors.front() < producers.size())
                producers[tensors.front()].push_back(id);
        }
        return producers;
    }

    void checkTensors(const Graph& graph, std::vector<GraphError>& errors)
    {
        for (TensorId id = 0; id < graph.tensors().size(); ++id) {
            const Tensor& tensor = graph.tensor(id);
            const auto label = [&tensor] { return "tensor " + quoted(tensor.name); };
            if (tensor.name.empty())
                errors.push_back({ "", "", "tensor #" + std::to_string(id) + " has an empty name" });
            else if (graph.findTensor(tensor.name) != id)
                errors.push_back({ "", tensor.name, label() + " is declared twice (tensor names must be unique)" });
            // Name an op that uses the tensor, so the problem can be found from either side.
            const std::string user = tensor.producer ? opName(graph, *tensor.producer)
                : tensor.consumers.empty()           ? std::string()
                                                     : opName(graph, tensor.consumers.front());
            const auto where = [&] { return label() + (user.empty() ? "" : " (used by op " + quoted(user) + ")"); };
            for (std::size_t axis = 0; axis < tensor.shape.size(); ++axis) {
                if (tensor.shape[axis] <= 0) {
                    errors.push_back({ user, tensor.name,
                        where() + ": shape " + shapeText(tensor.shape) + " has extent "
                            + std::to_string(tensor.shape[axis]) + " at axis " + std::to_string(axis)
                            + "; extents must be >= 1" });
                }
            }
            if (elementCount(tensor.shape) > kMaxIterations)
                errors.push_back({ user, tensor.name,
                    where() + ": shape " + shapeText(tensor.shape) + " has more than 2^53 elements" });
        }
    }

    void checkOperands(
        const Graph& graph, OpId id, const std::vector<bool>& operandHasProblem, std::vector<GraphError>& errors)
    {
        const Op& op = graph.op(id);
        const TensorExpr& expr = graph.exprOf(id);
        const std::string opLabel = "op " + quoted(op.name);
        if (op.tensors.size() != expr.operands.size()) {
            errors.push_back({ op.name, "",
                opLabel + " binds " + std::to_string(op.tensors.size()) + " tensor(s) but its expression has "
                    + std::to_string(expr.operands.size()) + " operand(s)" });
        }
        const std::size_t count = std::min(op.tensors.size(), expr.operands.size());
        for (std::size_t i = 0; i < count; ++i) {
            const TensorId t = op.tensors[i];
            // Messages are built only on failure: validation runs on every graph, errors are rare.
            auto where = [&] { return opLabel + " operand " + std::to_string(i); };
            if (t >= graph.tensors().size()) {
                errors.push_back({ op.name, "",
                    where() + " refers to tensor id " + std::to_string(t) + ", but the graph has "
                        + std::to_string(graph.tensors().size()) + " tensor(s)" });
                continue;
            }
            const Tensor& tensor = graph.tensor(t);
            const Operand& operand = expr.operands[i];
            auto report = [&](const std::string& message) {
                errors.push_back(
                    { op.name, tensor.name, where() + " (tensor " + quoted(tensor.name) + "): " + message });
            };
            if (tensor.shape.size() != operand.axes.size()) {
                report("tensor has rank " + std::to_string(tensor.shape.size()) + " " + shapeText(tensor.shape)
                    + " but the operand has " + std::to_string(operand.axes.size()) + " axes");
            } else if (!operandHasProblem[i]) {
                const auto expected = operandShape(expr, i);
                // A Slice reads a region of each input; the IR has no offsets, so the region may be
                // smaller than the tensor along any axis. Everything else reads whole tensors.
                const bool region = expr.kind == OpKind::Slice && i > 0
                    && std::equal(expected.begin(), expected.end(), tensor.shape.begin(), tensor.shape.end(),
                        [](std::int64_t read, std::int64_t declared) { return read <= declared; });
                if (expected != tensor.shape && !region) {
                    report("declared shape " + shapeText(tensor.shape) + " but the operand's axes give "
                        + shapeText(expected));
                }
            }
            if (tensor.dtype != operand.dtype)
                report(std::string("tensor dtype ") + toString(tensor.dtype) + " but operand dtype "
                    + toString(operand.dtype));
            if (tensor.role != operand.role)
                report(std::string("tensor role ") + toString(tensor.role) + " but operand role "
                    + toString(operand.role));
        }
    }

    void checkOps(const Graph& graph, std::vector<GraphError>& errors)
    {
        for (OpId id = 0; id < graph.ops().size(); ++id) {
            const Op& op = graph.op(id);
            const TensorExpr& expr = graph.exprOf(id);
            const std::string opLabel = "op " + quoted(op.name);
            if (op.name.empty())
                errors.push_back({ "", "", "op #" + std::to_string(id) + " has an empty name" });
            else if (graph.findOp(op.name) != id)
                errors.push_back({ op.name, "", opLabel + " is declared twice (op names must be unique)" });
            if (op.dimNames.size() != expr.dimExtents.size()) {
                errors.push_back({ op.name, "",
                    opLabel + " names " + std::to_string(op.dimNames.size()) + " loop dim(s) but has "
                        + std::to_string(expr.dimExtents.size()) });
            }
            std::vector<bool> operandHasProblem(expr.operands.size(), false);
            for (const ExprProblem& problem : validateExpr(expr)) {
                std::string tensor;
                std::string location = opLabel;
                if (problem.operand >= 0) {
                    operandHasProblem[std::size_t(problem.operand)] = true;
                    location += " operand " + std::to_string(problem.operand);
                    if (std::size_t(problem.operand) < op.tensors.size()) {
                        tensor = tensorName(graph, op.tensors[std::size_t(problem.operand)]);
                        location += " (tensor " + quoted(tensor) + ")";
                    }
                    if (problem.axis >= 0)
                        location += " axis " + std::to_string(problem.axis);
                } else if (problem.dim >= 0) {
                    location += " loop dim " + std::to_string(problem.dim);
                    if (std::size_t(problem.dim) < op.dimNames.size())
                        location += " (" + quoted(op.dimNames[std::size_t(problem.dim)]) + ")";
                    // The shapes of the operands using a bad dim cannot be checked; name the first one.
                    for (std::size_t i = 0; i < expr.operands.size(); ++i) {
                        const auto& axes = expr.operands[i].axes;
                        if (std::none_of(axes.begin(), axes.end(),
                                [&](const Axis& a) { return a.dim == problem.dim || a.windowDim == problem.dim; }))
                            continue;
                        operandHasProblem[i] = true;
                        if (tensor.empty() && i < op.tensors.size()) {
                            tensor = tensorName(graph, op.tensors[i]);
                            location += ", used by operand " + std::to_string(i) + " (tensor " + quoted(tensor) + ")";
                        }
                    }
                }
                errors.push_back({ op.name, tensor, location + ": " + problem.message });
            }
            checkOperands(graph, id, operandHasProblem, errors);
        }
    }

    void checkLinks(const Graph& graph, std::vector<GraphError>& errors)
    {
        const std::size_t tensorCount = graph.tensors().size();
        for (const auto* list : { &graph.inputs(), &graph.outputs() }) {
            const char* what = list == &graph.inputs() ? "input" : "output";
            for (std::size_t i = 0; i < list->size(); ++i) {
                const TensorId t = (*list)[i];
                if (t >= tensorCount) {
                    errors.push_back({ "", "",
                        std::string("graph ") + what + " refers to tensor id " + std::to_string(t)
                            + ", but the graph has " + std::to_string(tensorCount) + " tensor(s)" });
                } else if (std::find(list->begin(), list->begin() + std::ptrdiff_t(i), t)
                    != list->begin() + std::ptrdiff_t(i)) {
                    errors.push_back({ "", tensorName(graph, t),
                        "tensor " + quoted(tensorName(graph, t)) + " is listed twice as a graph " + what });
                }
            }
        }
        const auto producers = producersOf(graph);
        for (TensorId t = 0; t < tensorCount; ++t) {
            const Tensor& tensor = graph.tensor(t);
            const auto label = [&tensor] { return "tensor " + quoted(tensor.name); };
            const bool declaredInput
                = std::find(graph.inputs().begin(), graph.inputs().end(), t) != graph.inputs().end();
            if (declaredInput && !producers[t].empty()) {
                errors.push_back({ opName(graph, producers[t].front()), tensor.name,
                    label() + " is a graph input but op " + quoted(opName(graph, producers[t].front()))
                        + " produces it" });
            }
            for (std::size_t k = 1; k < producers[t].size(); ++k) {
                errors.push_back({ opName(graph, producers[t][k]), tensor.name,
                    label() + " is produced by op " + quoted(opName(graph, producers[t].front())) + " and again by op "
                        + quoted(opName(graph, producers[t][k])) });
            }
            if (producers[t].empty() && !graph.isGraphInput(t) && !tensor.consumers.empty()) {
                const std::string reader = opName(graph, tensor.consumers.front());
                errors.push_back({ reader, tensor.name,
                    "op " + quoted(reader) + " reads " + label()
                        + ", which no op produces and which is not a graph input (list it in the inputs, or give it "
                          "role weight, kv_cache or optimizer_state)" });
            }
            if (tensor.consumers.empty() && !graph.isGraphOutput(t)) {
                const std::string writer = producers[t].empty() ? "" : opName(graph, producers[t].front());
                errors.push_back({ writer, tensor.name,
                    label() + (writer.empty() ? "" : " (produced by op " + quoted(writer) + ")")
                        + " is never consumed and is not a graph output" });
            }
            if (tensor.role == TensorRole::Output && !graph.isGraphOutput(t)) {
                const std::string writer = producers[t].empty() ? "" : opName(graph, producers[t].front());
                errors.push_back({ writer, tensor.name,
                    label() + (writer.empty() ? "" : " (produced by op " + quoted(writer) + ")")
                        + " has role output but is not listed as a graph output" });
            }
        }
    }

} // namespace

OpEdges opEdges(const Graph& graph)
{
    const auto producers = producersOf(graph);
    OpEdges edges(graph.ops().size());
    for (OpId to = 0; to < graph.ops().size(); ++to) {
        const auto& tensors = graph.op(to).tensors;
        for (std::size_t i = 1; i < tensors.size(); ++i) {
            if (tensors[i] >= producers.size())
                continue;
            for (OpId from : producers[tensors[i]])
                edges[from].push_back({ to, tensors[i] });
        }
    }
    for (auto& successors : edges) {
        std::sort(successors.begin(), successors.end(),
            [](const OpEdge& a, const OpEdge& b) { return a.to != b.to ? a.to < b.to : a.tensor < b.tensor; });
        successors.erase(std::unique(successors.begin(), successors.end(),
                             [](const OpEdge& a, const OpEdge& b) { return a.to == b.to; }),
            successors.end());
    }
    return edges;
}

std::vector<GraphError> findCycles(const Graph& graph, const OpEdges& edges)
{
    // Tarjan's strongly connected components, iterative so deep chains cannot overflow the stack.
    const std::size_t n = edges.size();
    constexpr std::size_t unvisited = std::size_t(-1);
    std::vector<std::size_t> index(n, unvisited), lowLink(n, 0);
    std::vector<bool> onStack(n, false);
    std::vector<OpId> stack;
    std::vector<std::size_t> component(n, unvisited);
    std::size_t nextIndex = 0;
    std::size_t componentCount = 0;
    struct Frame {
        OpId op;
        std::size_t nextEdge;
    };
    for (OpId root = 0; root < n; ++root) {
        if (index[root] != unvisited)
            continue;
        std::vector<Frame> frames { { root, 0 } };
        index[root] = lowLink[root] = nextIndex++;
        stack.push_back(root);
        onStack[root] = true;
        while (!frames.empty()) {
            Frame& frame = frames.back();
            const OpId v = frame.op;
            if (frame.nextEdge < edges[v].size()) {
                const OpId w = edges[v][frame.nextEdge++].to;
                if (index[w] == unvisited) {
                    index[w] = lowLink[w] = nextIndex++;
                    stack.push_back(w);
                    onStack[w] = true;
                    frames.push_back({ w, 0 });
                } else if (onStack[w]) {
                    lowLink[v] = std::min(lowLink[v], index[w]);
                }
                continue;
            }
            if (lowLink[v] == index[v]) {
                OpId w;
                do {
                    w = stack.back();
                    stack.pop_back();
                    onStack[w] = false;
                    component[w] = componentCount;
                } while (w != v);
                ++componentCount;
            }
            frames.pop_back();
            if (!frames.empty())
                lowLink[frames.back().op] = std::min(lowLink[frames.back().op], lowLink[v]);
        }
    }

    std::vector<std::size_t> componentSize(componentCount, 0);
    for (std::size_t c : component)
        ++componentSize[c];
    std::vector<GraphError> errors;
    std::vector<bool> reported(componentCount, false);
    for (OpId start = 0; start < n; ++start) {
        const std::size_t c = component[start];
        const bool selfLoop = !edges[start].empty()
            && std::any_of(edges[start].begin(), edges[start].end(), [&](const OpEdge& e) { return e.to == start; });
        if (reported[c] || (componentSize[c] < 2 && !selfLoop))
            continue;
        reported[c] = true;
        // Shortest cycle through `start`: BFS inside the component until an edge returns to it.
        std::vector<std::size_t> parent(n, unvisited);
        std::vector<TensorId> viaTensor(n, 0);
        std::deque<OpId> queue { start };
        std::vector<bool> seen(n, false);
        seen[start] = true;
        OpId last = start;
        TensorId closing = 0;
        bool closed = false;
        while (!queue.empty() && !closed) {
            const OpId v = queue.front();
            queue.pop_front();
            for (const OpEdge& edge : edges[v]) {
                if (component[edge.to] != c)
                    continue;
                if (edge.to == start) {
                    last = v;
                    closing = edge.tensor;
                    closed = true;
                    break;
                }
                if (!seen[edge.to]) {
                    seen[edge.to] = true;
                    parent[edge.to] = v;
                    viaTensor[edge.to] = edge.tensor;
                    queue.push_back(edge.to);
                }
            }
        }
        std::vector<OpId> path;
        std::vector<TensorId> tensors { closing };
        for (OpId v = last; v != start; v = OpId(parent[v])) {
            path.push_back(v);
            tensors.push_back(viaTensor[v]);
        }
        path.push_back(start);
        std::reverse(path.begin(), path.end());
        std::reverse(tensors.begin(), tensors.end());
        // path = start, ..., last; tensors[i] flows from path[i] to path[i + 1] (the last one closes).
        std::ostringstream text;
        text << "ops form a cycle: ";
        for (std::size_t i = 0; i < path.size(); ++i)
            text << quoted(opName(graph, path[i])) << " -(" << tensorName(graph, tensors[i]) << ")-> ";
        text << quoted(opName(graph, start));
        errors.push_back({ opName(graph, start), tensorName(graph, tensors.front()), text.str() });
    }
    return errors;
}

std::vector<GraphError> validateGraph(const Graph& graph)
{
    std::vector<GraphError> errors;
    checkTensors(graph, errors);
    checkOps(graph, errors);
    checkLinks(graph, errors);
    const auto cycles = findCycles(graph, opEdges(graph));
    errors.insert(errors.end(), cycles.begin(), cycles.end());
    return errors;
}

} // namespace elk::model::detail
