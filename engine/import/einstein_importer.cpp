// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_importer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>

#include "engine/core/json_text.h"
#include "engine/core/read_file.h"
#include "engine/import/einstein_expr_parser.h"
#include "engine/import/einstein_lowering.h"

namespace elk::import {

namespace {

    using nlohmann::json;
    using namespace einstein;

    constexpr std::size_t kMaxErrors = 100;
    constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(1) << 30;

    struct RawNode {
        std::int64_t id = 0;
        std::string kernel;
        std::string type;
        std::vector<std::pair<std::int64_t, std::int64_t>> inputs;
    };

    struct NodeState {
        std::string type;
        std::optional<Value> value;
        bool poisoned = false; ///< failed, or depends on a node that failed: not reported again
        bool external = false; ///< a Parameter or Constant node
    };

    std::string describe(const json& value)
    {
        if (value.is_null())
            return "null";
        if (value.is_number() || value.is_boolean())
            return std::string(value.type_name()) + " " + value.dump();
        return value.type_name();
    }

    std::string nodeLocation(const RawNode& node, std::size_t column = 0)
    {
        std::string text = "node " + std::to_string(node.id) + " (" + node.type + ")";
        if (column > 0)
            text += ", kernel column " + std::to_string(column);
        return text;
    }

    std::string graphName(const std::string& displayName)
    {
        std::string name = displayName;
        if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos)
            name = name.substr(slash + 1);
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
            name.resize(name.size() - 5);
        return name.empty() ? "einstein" : name;
    }

    class Importer {
    public:
        Importer(const std::string& displayName, const ImportOptions& options)
            : m_displayName(displayName)
            , m_options(options)
        {
            m_bindings.batch = options.dims.batch;
            m_bindings.seqLen = options.dims.seqLen;
            m_bindings.kvLen = options.dims.kvLen;
        }

        ImportResult run(std::string_view text)
        {
            if (readNodes(text) && !stopRequested() && processNodes() && !stopRequested()) {
                // In a decode step the new K/V rows reach the cache through their append operator; a
                // Result on them ("present" key/values) is that write, not a second one.
                for (const auto& [rows, op] : m_program.kvAppendOf)
                    m_program.storages[std::size_t(rows)].graphOutput = false;
                fuseSoftmax();
                keepUnreadOutputs();
                emit();
            }
            collapseRepeatedWarnings();
            return std::move(m_result);
        }

    private:
        // Layers repeat their slips: one warning per distinct message, naming where it first
        // occurs and how many other places have it.
        void collapseRepeatedWarnings()
        {
            std::vector<ImportIssue> kept;
            std::map<std::string, std::pair<std::size_t, std::size_t>> seen; // message -> (kept index, repeats)
            for (ImportIssue& warning : m_result.warnings) {
                const auto [it, fresh] = seen.try_emplace(warning.message, kept.size(), 0);
                if (fresh)
                    kept.push_back(std::move(warning));
                else
                    ++it->second.second;
            }
            for (const auto& [message, place] : seen) {
                if (place.second > 0)
                    kept[place.first].location += " and " + std::to_string(place.second) + " more like it";
            }
            m_result.warnings = std::move(kept);
        }

        /// Polls ImportOptions::control; a stop is recorded once, as an error.
        bool stopRequested()
        {
            if (!m_result.stopped && m_options.control && m_options.control->stopRequested()) {
                m_result.stopped = true;
                m_result.errors.push_back({ "", kStoppedMessage });
            }
            return m_result.stopped;
        }

        bool error(std::string location, std::string message)
        {
            if (m_result.errors.size() < kMaxErrors)
                m_result.errors.push_back({ std::move(location), std::move(message) });
            else if (m_result.errors.size() == kMaxErrors)
                m_result.errors.push_back({ "", "more errors follow; only the first 100 are listed" });
            return false;
        }

        // --- The file: a JSON array of [id, kernel, type, inputs] -----------------------------------

        bool readNodes(std::string_view text)
        {
            json document;
            try {
                document = json::parse(text.begin(), text.end());
            } catch (const json::parse_error& e) {
                return error(positionText(parseErrorPosition(text, e.byte)),
                    "JSON syntax error: " + jsonSyntaxReason(e.what())
                        + " (expected a JSON array of nodes [id, \"kernel\", \"Type\", [[input id, port], ...]])");
            } catch (const json::exception& e) {
                return error(locateJsonLiteral(text, e.what(), ""),
                    "JSON error: " + jsonSyntaxReason(e.what())); // e.g. a number beyond double range
            }
            if (!document.is_array())
                return error("",
                    "expected a JSON array of nodes [id, \"kernel\", \"Type\", [[input id, port], ...]], found "
                        + describe(document));
            if (document.size() > std::size_t(std::max<std::int64_t>(0, m_options.maxNodes)))
                return error("",
                    "the file has " + std::to_string(document.size()) + " nodes, more than the limit of "
                        + std::to_string(m_options.maxNodes));
            for (std::size_t i = 0; i < document.size(); ++i) {
                const json& element = document[i];
                const std::string at = "/" + std::to_string(i);
                if (!element.is_array() || element.size() != 4) {
                    error(at,
                        "expected a node [id, \"kernel\", \"Type\", [[input id, port], ...]], found "
                            + (element.is_array() ? "an array of " + std::to_string(element.size()) + " element(s)"
                                                  : describe(element)));
                    continue;
                }
                RawNode node;
                bool ok = true;
                if (!element[0].is_number_integer())
                    ok = error(at + "/0", "expected the node id (an integer), found " + describe(element[0]));
                else
                    node.id = element[0].get<std::int64_t>();
                if (!element[1].is_string())
                    ok = error(at + "/1", "expected the kernel text (a string), found " + describe(element[1]));
                else
                    node.kernel = element[1].get<std::string>();
                if (!element[2].is_string())
                    ok = error(
                        at + "/2", "expected the node type (a string such as \"Dot\"), found " + describe(element[2]));
                else
                    node.type = element[2].get<std::string>();
                if (!element[3].is_array()) {
                    ok = error(
                        at + "/3", "expected the inputs (an array of [node id, port]), found " + describe(element[3]));
                } else {
                    for (std::size_t k = 0; k < element[3].size(); ++k) {
                        const json& input = element[3][k];
                        if (!input.is_array() || input.size() != 2 || !input[0].is_number_integer()
                            || !input[1].is_number_integer()) {
                            ok = error(at + "/3/" + std::to_string(k),
                                "expected an input [node id, port] of two integers, found " + describe(input));
                            continue;
                        }
                        node.inputs.emplace_back(input[0].get<std::int64_t>(), input[1].get<std::int64_t>());
                    }
                }
                if (!ok)
                    continue;
                m_definitions[node.id].push_back(m_nodes.size());
                m_state.push_back(
                    NodeState { node.type, std::nullopt, false, node.type == "Parameter" || node.type == "Constant" });
                m_listsParameters = m_listsParameters || m_state.back().external;
                m_nodes.push_back(std::move(node));
            }
            warnAboutRedefinedIds();
            return m_result.errors.empty();
        }

        // Some exports reuse node ids (gemma2 lists one 86-node span 7 times, llama2-70 lists its
        // second 40 layers under the ids of the first 40). The file is a program in execution order,
        // so each element is an operator of its own and an id names its latest definition: that is
        // how the Elk artifact's parser runs these files, and it chains llama2-70's repeated layers.
        void warnAboutRedefinedIds()
        {
            std::size_t redefined = 0;
            std::size_t identical = 0;
            std::size_t mostDefinitions = 0;
            std::int64_t example = 0;
            for (const auto& [id, elements] : m_definitions) {
                if (elements.size() < 2)
                    continue;
                if (redefined++ == 0)
                    example = id;
                mostDefinitions = std::max(mostDefinitions, elements.size());
                const RawNode& first = m_nodes[elements[0]];
                bool same = true;
                for (std::size_t k = 1; k < elements.size(); ++k) {
                    const RawNode& other = m_nodes[elements[k]];
                    same = same && other.kernel == first.kernel && other.type == first.type
                        && other.inputs == first.inputs;
                }
                identical += same ? 1 : 0;
            }
            if (redefined == 0)
                return;
            std::string where;
            for (std::size_t element : m_definitions[example])
                where += (where.empty() ? "" : ", ") + std::to_string(element);
            m_result.warnings.push_back({ "node ids",
                std::to_string(redefined) + " node id(s) are defined more than once (up to "
                    + std::to_string(mostDefinitions) + " times; " + std::to_string(identical)
                    + " with identical content each time; e.g. id " + std::to_string(example) + " at elements " + where
                    + "). Every element runs as an operator of its own, in file order, as the Elk artifact runs "
                      "them, and an input reads the latest earlier definition of its id" });
        }

        // --- Nodes in file order --------------------------------------------------------------------

        // Kernels are parsed up front so that a node can see what its first reader declares for it.
        void parseKernels()
        {
            m_kernels.assign(m_nodes.size(), nullptr);
            m_syntax.resize(m_nodes.size());
            m_readerShape.resize(m_nodes.size());
            std::map<std::int64_t, std::size_t> latest;
            // Layers repeat the same kernel texts: each distinct text is parsed once.
            std::unordered_map<std::string_view, std::pair<const Kernel*, SyntaxError>> parsed;
            for (std::size_t n = 0; n < m_nodes.size(); ++n) {
                const RawNode& node = m_nodes[n];
                if (node.kernel.find_first_not_of(" \t\r\n") != std::string::npos) {
                    auto [it, fresh] = parsed.try_emplace(node.kernel, nullptr, SyntaxError {});
                    if (fresh) {
                        if (auto kernel = parseKernel(node.kernel, it->second.second))
                            it->second.first = &m_uniqueKernels.emplace_back(std::move(*kernel));
                    }
                    m_kernels[n] = it->second.first;
                    m_syntax[n] = it->second.second;
                }
                for (std::size_t k = 0; k < node.inputs.size(); ++k) {
                    const auto producer = latest.find(node.inputs[k].first);
                    if (producer == latest.end() || m_readerShape[producer->second] || !m_kernels[n])
                        continue;
                    const auto declared = m_kernels[n]->inputs.find("input" + std::to_string(k));
                    if (declared != m_kernels[n]->inputs.end())
                        m_readerShape[producer->second] = declared->second.shape;
                }
                latest[node.id] = n;
            }
        }

        void processNode(std::size_t n)
        {
            const RawNode& node = m_nodes[n];
            NodeState& state = m_state[n];
            if (state.value || state.poisoned)
                return; // hoisted for an earlier reader
            if (node.type == "Parameter" || node.type == "Constant")
                return; // declares an external tensor; its shape comes from the nodes reading it
            std::vector<NodeInput> inputs;
            std::vector<std::string> keys;
            if (!resolveInputs(node, n, inputs, keys)) {
                state.poisoned = true;
                return;
            }
            if (node.type == "Result") {
                for (const NodeInput& input : inputs) {
                    if (input.value)
                        m_program.storages[std::size_t(input.value->storage)].graphOutput = true;
                }
                return;
            }
            if (node.kernel.find_first_not_of(" \t\r\n") == std::string::npos) {
                error(nodeLocation(node),
                    "the node has no kernel text (only Result, Parameter and Constant nodes may have none)");
                state.poisoned = true;
                return;
            }
            const auto& kernel = m_kernels[n];
            if (!kernel) {
                error(nodeLocation(node, m_syntax[n].column), m_syntax[n].message);
                state.poisoned = true;
                return;
            }
            const auto& elements = m_definitions[node.id];
            const std::size_t occurrence
                = std::size_t(std::find(elements.begin(), elements.end(), n) - elements.begin());
            const std::string suffix = occurrence == 0 ? std::string() : "@" + std::to_string(occurrence + 1);
            const NodeInfo info { node.id, node.type, node.type + "." + std::to_string(node.id) + suffix,
                m_readerShape[n], suffix };
            LoweringContext context { m_program, m_bindings, info, *kernel, inputs, {}, {} };
            const std::size_t firstOp = m_program.ops.size();
            NodeError failure;
            auto value = lowerNode(context, failure);
            if (!value) {
                error(nodeLocation(node, failure.column), failure.message);
                state.poisoned = true;
                return;
            }
            for (const NodeError& warning : context.warnings)
                m_result.warnings.push_back({ nodeLocation(node, warning.column), warning.message });
            for (std::size_t op = firstOp; op < m_program.ops.size(); ++op)
                m_opNode.emplace(op, std::to_string(node.id) + suffix);
            state.value = std::move(*value);
            for (std::size_t k = 0; k < inputs.size(); ++k) {
                if (context.createdExternals[k])
                    m_externals.emplace(keys[k], *context.createdExternals[k]);
            }
        }

        // A node read before its place in the file (llama2-70 reads one transposed weight 3534 elements
        // early) can be lowered first when it is a view of external tensors: nothing it reads is
        // computed, so the order does not matter.
        bool hoist(std::size_t element)
        {
            const RawNode& node = m_nodes[element];
            if (node.type != "Reshape" && node.type != "Broadcast" && node.type != "Convert")
                return false;
            for (const auto& [source, port] : node.inputs) {
                const auto defined = m_definitions.find(source);
                if (defined != m_definitions.end() && !m_state[defined->second.front()].external)
                    return false;
            }
            processNode(element);
            return bool(m_state[element].value);
        }

        bool processNodes()
        {
            parseKernels();
            for (std::size_t n = 0; n < m_nodes.size() && m_result.errors.size() < kMaxErrors; ++n) {
                if ((n & 255) == 0 && stopRequested())
                    return false;
                processNode(n);
            }
            return m_result.errors.empty();
        }

        bool resolveInputs(
            const RawNode& node, std::size_t position, std::vector<NodeInput>& inputs, std::vector<std::string>& keys)
        {
            for (std::size_t k = 0; k < node.inputs.size(); ++k) {
                const auto [source, port] = node.inputs[k];
                const std::string which = "input " + std::to_string(k) + " (input" + std::to_string(k) + ")";
                NodeInput input;
                std::string key = "p" + std::to_string(source) + (port ? "." + std::to_string(port) : "");
                const auto defined = m_definitions.find(source);
                const NodeState* latest = nullptr;
                if (defined != m_definitions.end()) {
                    const auto& elements = defined->second;
                    const auto after = std::lower_bound(elements.begin(), elements.end(), position);
                    if (after == elements.begin() && source == node.id)
                        return error(nodeLocation(node), which + " refers to the node itself");
                    if (after == elements.begin() && !hoist(elements.front()))
                        return error(nodeLocation(node),
                            which + " refers to node " + std::to_string(source) + ", which comes later in the file "
                                + "(nodes must be listed in execution order)");
                    if (after == elements.begin())
                        m_result.warnings.push_back({ nodeLocation(node),
                            which + " refers to node " + std::to_string(source) + ", which comes later in the file; it "
                                + "only views external tensors, so it is read from there" });
                    latest = &m_state[after == elements.begin() ? elements.front() : *(after - 1)];
                }
                if (latest && !latest->external) {
                    const NodeState& producer = *latest;
                    if (producer.poisoned)
                        return false; // reported at the producer
                    if (producer.type == "Result")
                        return error(nodeLocation(node),
                            which + " refers to node " + std::to_string(source) + ", a Result, which has no output");
                    if (port != 0)
                        return error(nodeLocation(node),
                            which + " reads port " + std::to_string(port) + " of node " + std::to_string(source)
                                + ", which has only port 0");
                    input.value = &*producer.value;
                    input.description = "the output of node " + std::to_string(source) + " (" + producer.type + ")";
                } else {
                    if (!latest && m_listsParameters)
                        return error(nodeLocation(node),
                            which + " refers to node " + std::to_string(source)
                                + ", which is not in the file (the file lists its Parameter and Constant nodes, so "
                                  "every input must name a node)");
                    if (const auto ext = m_externals.find(key); ext != m_externals.end())
                        input.value = &ext->second;
                    input.externalName = key;
                    input.description = "external tensor " + key;
                }
                inputs.push_back(input);
                keys.push_back(key);
            }
            return true;
        }

        // --- Softmax: max, exp(x - max), sum, divide -> one operator -----------------------------

        std::vector<std::vector<int>> consumers() const
        {
            std::vector<std::vector<int>> users(m_program.storages.size());
            for (std::size_t o = 0; o < m_program.ops.size(); ++o) {
                const OpRec& op = m_program.ops[o];
                if (op.removed)
                    continue;
                for (std::size_t i = 1; i < op.operands.size(); ++i) {
                    auto& list = users[std::size_t(op.operands[i].storage)];
                    if (list.empty() || list.back() != int(o))
                        list.push_back(int(o));
                }
            }
            return users;
        }

        // Two spellings: NNFusion's four SoftmaxBasic stages
        //   r1 = max(x); e = exp(x - r1); r2 = sum(e); y = e / r2
        // and its one-node template with temporaries
        //   r1 = max(x); r2 = sum(exp(x - r1)) (lowered as map + sum); y = exp(x - r1) / r2.
        // Both become one Softmax operator x -> y when the intermediates have no other reader.
        void fuseSoftmax()
        {
            using model::OpKind;
            auto users = consumers();
            auto inputsOf = [&](const OpRec& op) {
                std::multiset<int> set;
                for (std::size_t i = 1; i < op.operands.size(); ++i)
                    set.insert(op.operands[i].storage);
                return set;
            };
            auto internal = [&](int storage, std::size_t count) {
                return !m_program.storages[std::size_t(storage)].graphOutput
                    && users[std::size_t(storage)].size() == count;
            };
            auto opAt = [&](int index) -> OpRec& { return m_program.ops[std::size_t(index)]; };
            auto isExp = [](const OpRec& op) { return op.kind == OpKind::Elementwise && op.usesExp; };
            auto isSum = [](const OpRec& op) {
                return op.kind == OpKind::Reduce && op.reduce == ReduceOp::Sum && op.operands.size() == 2;
            };
            auto isDivide = [](const OpRec& op) { return op.kind == OpKind::Elementwise && op.topOperator == "/"; };
            for (std::size_t a = 0; a < m_program.ops.size(); ++a) {
                OpRec& max = m_program.ops[a];
                if (max.removed || max.kind != OpKind::Reduce || max.reduce != ReduceOp::Max
                    || max.operands.size() != 2)
                    continue;
                const int x = max.operands[1].storage;
                const int r1 = max.operands[0].storage;
                int exp = -1;
                int sum = -1;
                int div = -1;
                int e = -1;
                if (internal(r1, 1)) { // four stages
                    exp = users[std::size_t(r1)][0];
                    e = opAt(exp).operands[0].storage;
                    if (!isExp(opAt(exp)) || inputsOf(opAt(exp)) != std::multiset<int> { x, r1 } || !internal(e, 2))
                        continue;
                    for (int u : users[std::size_t(e)]) {
                        if (isSum(opAt(u)))
                            sum = u;
                        else if (isDivide(opAt(u)))
                            div = u;
                    }
                    if (sum < 0 || div < 0
                        || inputsOf(opAt(div)) != std::multiset<int> { e, opAt(sum).operands[0].storage })
                        continue;
                } else if (internal(r1, 2)) { // one node with temporaries
                    for (int u : users[std::size_t(r1)]) {
                        if (isExp(opAt(u)) && isDivide(opAt(u)))
                            div = u;
                        else if (isExp(opAt(u)))
                            exp = u;
                    }
                    if (exp < 0 || div < 0 || inputsOf(opAt(exp)) != std::multiset<int> { x, r1 })
                        continue;
                    e = opAt(exp).operands[0].storage;
                    if (!internal(e, 1) || !isSum(opAt(users[std::size_t(e)][0])))
                        continue;
                    sum = users[std::size_t(e)][0];
                    if (inputsOf(opAt(div)) != std::multiset<int> { x, r1, opAt(sum).operands[0].storage })
                        continue;
                } else {
                    continue;
                }
                const int r2 = opAt(sum).operands[0].storage;
                if (!internal(r2, 1))
                    continue;
                OpRec& out = opAt(div);
                const auto source = std::find_if(out.operands.begin() + 1, out.operands.end(),
                    [&](const OperandRec& operand) { return operand.storage == x || operand.storage == e; });
                const auto& sa = m_program.storages[std::size_t(source->storage)].axes;
                const auto& ya = m_program.storages[std::size_t(out.operands[0].storage)].axes;
                const bool sameShape = sa.size() == ya.size()
                    && std::equal(sa.begin(), sa.end(), ya.begin(),
                        [](const Atom& p, const Atom& q) { return p.raw == q.raw && p.bound == q.bound; });
                if (source->storage == e && !sameShape)
                    continue;
                // The Softmax reads x as the exp stage (or the divide of the one-node form) reads it.
                const OpRec& reader = source->storage == x ? out : opAt(exp);
                OperandRec input = *std::find_if(reader.operands.begin() + 1, reader.operands.end(),
                    [&](const OperandRec& operand) { return operand.storage == x; });
                const std::string first = m_opNode[a];
                const std::string last = m_opNode[std::size_t(div)];
                OpRec fused = source->storage == x ? out : opAt(exp);
                fused.kind = OpKind::Softmax;
                fused.name = first == last ? "Softmax." + first : "Softmax." + first + "-" + last;
                fused.operands = { OperandRec { out.operands[0].storage, fused.operands[0].axes }, input };
                if (source->storage == x)
                    fused.operands[0].axes = out.operands[0].axes;
                // The fused operator takes the place of the divide, the last stage.
                for (int gone : { int(a), exp, sum, div })
                    opAt(gone).removed = true;
                opAt(div) = fused;
                opAt(div).removed = false;
                auto& xUsers = users[std::size_t(x)];
                xUsers.erase(
                    std::remove_if(xUsers.begin(), xUsers.end(), [&](int u) { return u == int(a) || u == exp; }),
                    xUsers.end());
                if (std::find(xUsers.begin(), xUsers.end(), div) == xUsers.end())
                    xUsers.push_back(div);
                for (int gone : { r1, e, r2 })
                    users[std::size_t(gone)].clear();
            }
        }

        // A node output nobody reads is still a result of the graph (the IR refuses dangling tensors).
        void keepUnreadOutputs()
        {
            const auto users = consumers();
            std::set<int> produced;
            for (const OpRec& op : m_program.ops) {
                if (!op.removed)
                    produced.insert(op.operands[0].storage);
            }
            for (int s : produced) {
                Storage& storage = m_program.storages[std::size_t(s)];
                if (users[std::size_t(s)].empty() && !storage.graphOutput) {
                    storage.graphOutput = true;
                    m_result.warnings.push_back({ "tensor '" + storage.name + "'",
                        "no node reads it and no Result lists it; it is kept as a graph output" });
                }
            }
        }

        // --- Graph IR -------------------------------------------------------------------------------

        void emit()
        {
            using model::TensorRole;
            model::Graph& graph = m_result.graph;
            graph.setName(graphName(m_displayName));
            std::string bound = "batch " + (m_bindings.batch ? std::to_string(*m_bindings.batch) : "unbound")
                + ", sequence " + (m_bindings.seqLen ? std::to_string(*m_bindings.seqLen) : "unbound");
            if (m_bindings.kvLen)
                bound += ", decode step over a KV cache of " + std::to_string(*m_bindings.kvLen);
            graph.setDescription("NNFusion einstein_v2 graph " + graphName(m_displayName) + " ("
                + std::to_string(m_nodes.size()) + " nodes; " + bound + ")");
            const auto users = consumers();
            std::vector<bool> used(m_program.storages.size(), false);
            for (const OpRec& op : m_program.ops) {
                if (op.removed)
                    continue;
                for (const OperandRec& operand : op.operands)
                    used[std::size_t(operand.storage)] = true;
            }
            std::vector<model::TensorId> tensorOf(m_program.storages.size(), 0);
            for (std::size_t s = 0; s < m_program.storages.size(); ++s) {
                if (!used[s])
                    continue;
                const Storage& storage = m_program.storages[s];
                if (int(storage.axes.size()) > m_options.maxRank) {
                    error("tensor '" + storage.name + "'",
                        "has rank " + std::to_string(storage.axes.size()) + ", more than the limit of "
                            + std::to_string(m_options.maxRank));
                    continue;
                }
                TensorRole role = TensorRole::Activation;
                if (storage.kvCache)
                    role = TensorRole::KvCache;
                else if (storage.external && !storage.placeholder)
                    role = TensorRole::Weight;
                else if (!storage.external && storage.graphOutput && users[s].empty())
                    role = TensorRole::Output;
                std::vector<std::int64_t> shape;
                for (const Atom& atom : storage.axes)
                    shape.push_back(atom.bound);
                tensorOf[s] = graph.addTensor(storage.name, shape, storage.dtype, role);
                if (storage.external && role == TensorRole::Activation)
                    graph.addInput(tensorOf[s]);
                if (!storage.external && storage.graphOutput)
                    graph.addOutput(tensorOf[s]);
            }
            if (!m_result.errors.empty())
                return;
            for (const OpRec& op : m_program.ops) {
                if (op.removed)
                    continue;
                std::vector<model::LoopDim> dims;
                for (const LoopDimRec& dim : op.dims)
                    dims.push_back({ dim.name, dim.extent.bound });
                std::vector<model::OperandRef> operands;
                for (const OperandRec& operand : op.operands) {
                    model::OperandRef ref { tensorOf[std::size_t(operand.storage)], {} };
                    for (const AxisRef& axis : operand.axes) {
                        ref.axes.push_back(axis.windowDim < 0
                                ? model::Axis::loop(axis.dim)
                                : model::Axis::window(axis.dim, axis.windowDim, axis.stride));
                    }
                    operands.push_back(std::move(ref));
                }
                graph.addOp(op.name, op.kind, dims, operands);
            }
            for (const model::GraphError& problem : graph.validate()) {
                error(problem.op.empty() ? "" : "op '" + problem.op + "'",
                    problem.message + " (the import produced an inconsistent graph)");
            }
        }

        std::string m_displayName;
        const ImportOptions& m_options;
        Bindings m_bindings;
        ImportResult m_result;
        std::vector<RawNode> m_nodes;
        std::vector<NodeState> m_state; ///< per element of m_nodes
        std::deque<Kernel> m_uniqueKernels; ///< one per distinct kernel text (stable addresses)
        std::vector<const Kernel*> m_kernels; ///< per element; null: no kernel text or a syntax error
        std::vector<SyntaxError> m_syntax;
        std::vector<std::optional<std::vector<std::int64_t>>> m_readerShape; ///< what the first reader declares
        std::map<std::int64_t, std::vector<std::size_t>> m_definitions; ///< node id -> its elements, in file order
        std::map<std::string, Value> m_externals;
        std::map<std::size_t, std::string> m_opNode; ///< op index -> node id (with "@k" for a redefined id)
        bool m_listsParameters = false;
        Program m_program;
    };

} // namespace

ImportResult importEinsteinText(std::string_view json, const std::string& displayName, const ImportOptions& options)
{
    try {
        return Importer(displayName, options).run(json);
    } catch (const std::exception& e) {
        // Not expected (inputs are checked); memory exhaustion on absurd files ends here.
        ImportResult result;
        result.errors.push_back({ "", std::string("import failed: ") + e.what() });
        return result;
    }
}

ImportResult importEinsteinFile(const std::string& path, const ImportOptions& options)
{
    std::string why;
    const auto text = readFileText(path, why, kMaxFileBytes);
    if (!text) {
        ImportResult result;
        result.errors.push_back({ "", why });
        return result;
    }
    return importEinsteinText(*text, path, options);
}

} // namespace elk::import
