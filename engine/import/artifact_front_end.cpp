// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/artifact_front_end.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

// Step numbers in comments are those of elk-reference.md §1.2.

namespace elk::import::artifact {

namespace {

    using nlohmann::json;

    struct Node {
        std::int64_t id = 0;
        std::string kernel;
        std::string type;
        std::vector<std::int64_t> inputs; ///< producer ids (the port is always 0 and is not used)
        std::size_t entry = 0; ///< position in the file, for messages
    };

    std::string describe(const Node& n)
    {
        return "node " + std::to_string(n.id) + " (" + n.type + ", entry " + std::to_string(n.entry) + ")";
    }

    bool isUpper(char c)
    {
        return c >= 'A' && c <= 'Z';
    }
    bool isDigit(char c)
    {
        return c >= '0' && c <= '9';
    }
    bool isWordChar(char c)
    {
        return isUpper(c) || isDigit(c) || (c >= 'a' && c <= 'z') || c == '_';
    }

    /// Saturating product, so a capacity test on huge extents cannot overflow.
    std::int64_t mulSat(std::int64_t a, std::int64_t b)
    {
        if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
            return std::numeric_limits<std::int64_t>::max();
        return a * b;
    }

    /// One index entry of a tensor access: the first index name in it ("N2 + 10240" → N2), or none for
    /// a constant ("0"). The expression itself is not evaluated, as in the artifact (§1.1).
    struct IndexEntry {
        std::string name;
        bool constant = false;
    };

    /// The entries of the first `tensor[...]` in `expr` (e.g. tensor = "input1"); nullopt when absent.
    std::optional<std::vector<IndexEntry>> indexEntries(std::string_view expr, std::string_view tensor)
    {
        const std::string opener = std::string(tensor) + "[";
        std::size_t at = 0;
        while (true) {
            at = expr.find(opener, at);
            if (at == std::string_view::npos)
                return std::nullopt;
            if (at == 0 || !isWordChar(expr[at - 1]))
                break;
            ++at;
        }
        std::vector<IndexEntry> entries;
        std::string current;
        int depth = 0;
        auto flush = [&] {
            static const std::regex indexName(R"(\b[A-Z][A-Z0-9]*)");
            IndexEntry e;
            if (std::smatch m; std::regex_search(current, m, indexName))
                e.name = m.str();
            e.constant = e.name.empty();
            entries.push_back(e);
            current.clear();
        };
        for (std::size_t i = at + opener.size(); i < expr.size(); ++i) {
            const char c = expr[i];
            if (c == '[' || c == '(') {
                ++depth;
            } else if (c == ']' || c == ')') {
                if (depth == 0) {
                    if (c != ']')
                        return std::nullopt;
                    flush();
                    return entries;
                }
                --depth;
            } else if (c == ',' && depth == 0) {
                flush();
                continue;
            }
            current += c;
        }
        return std::nullopt; // unbalanced
    }

    /// The number after `<name> *` in `expr` (the stride of "HO * 2", "D0 * 2"), or nullopt.
    std::optional<std::int64_t> factorAfter(const std::string& expr, const std::string& name)
    {
        std::smatch m;
        if (!std::regex_search(expr, m, std::regex("\\b" + name + "\\s*\\*\\s*(\\d{1,12})")))
            return std::nullopt;
        return std::stoll(m[1].str());
    }

    /// A kernel text ` - einstein_v2(" <expr> ", input_dict={...}) ## @: memcpy`, split up.
    struct Kernel {
        std::string expr;
        std::vector<std::vector<std::int64_t>> shapes; ///< input0, input1, ... of input_dict
        std::map<std::string, std::int64_t> whereExtents;
    };

    std::optional<Kernel> parseKernel(const Node& n, bool needShapes, std::string& error)
    {
        const std::string& text = n.kernel;
        const std::size_t call = text.find("einstein_v2(");
        const std::size_t dict = text.find("input_dict");
        const std::size_t open = call == std::string::npos ? call : text.find('"', call);
        const std::size_t close = dict == std::string::npos ? dict : text.rfind('"', dict);
        if (call == std::string::npos || dict == std::string::npos || open == std::string::npos || close <= open) {
            error = describe(n) + ": kernel text is not einstein_v2(\"<expression>\", input_dict={...})";
            return std::nullopt;
        }
        Kernel k;
        k.expr = text.substr(open + 1, close - open - 1);
        if (const std::size_t w = k.expr.find("where"); w != std::string::npos) {
            // "where N2 in 5120, N1 in 66;": extents of indices used only on the left.
            static const std::regex extent(R"(\b([A-Z][A-Z0-9]*)\s+in\s+(\d{1,15}))");
            const std::string clause = k.expr.substr(w, k.expr.find(';', w) - w);
            for (std::sregex_iterator it(clause.begin(), clause.end(), extent), last; it != last; ++it)
                k.whereExtents[(*it)[1].str()] = std::stoll((*it)[2].str());
        }
        if (!needShapes)
            return k;
        // input_dict={ "input0" : { "dtype" : "float32", "shape" : [..]} , ...} is JSON: cut it out.
        const std::size_t brace = text.find('{', dict);
        std::size_t end = brace;
        for (int depth = 0; end != std::string::npos && end < text.size(); ++end) {
            if (text[end] == '{')
                ++depth;
            else if (text[end] == '}' && --depth == 0)
                break;
        }
        if (brace == std::string::npos || end >= text.size()) {
            error = describe(n) + ": input_dict is not a {...} object";
            return std::nullopt;
        }
        const json inputs = json::parse(text.substr(brace, end - brace + 1), nullptr, false);
        if (inputs.is_discarded() || !inputs.is_object()) {
            error = describe(n) + ": input_dict is not valid JSON";
            return std::nullopt;
        }
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const std::string key = "input" + std::to_string(i);
            const auto it = inputs.find(key);
            if (it == inputs.end()) {
                error = describe(n) + ": input_dict has no \"" + key + "\" (expected input0..input"
                    + std::to_string(inputs.size() - 1) + ")";
                return std::nullopt;
            }
            const auto shape = it->is_object() ? it->find("shape") : it->end();
            if (!it->is_object() || shape == it->end() || !shape->is_array()) {
                error = describe(n) + ": input_dict " + key + " has no \"shape\" array";
                return std::nullopt;
            }
            std::vector<std::int64_t> extents;
            for (const json& e : *shape) {
                if (!e.is_number_integer() || e.get<std::int64_t>() < 0) {
                    error = describe(n) + ": input_dict " + key + " shape must hold non-negative integers";
                    return std::nullopt;
                }
                extents.push_back(e.get<std::int64_t>());
            }
            k.shapes.push_back(std::move(extents));
        }
        return k;
    }

    /// A placeholder extent (§1.1): 99 batch, 66 sequence, 6534 = 99·66, any multiple of 99.
    bool isActivationExtent(std::int64_t raw)
    {
        return raw > 0 && (raw == 66 || raw % 99 == 0);
    }

    /// Removes loop dim `d` from `op`: from dims, strides and every tensor axis; indices renumbered.
    void removeDim(Op& op, int d)
    {
        op.dims.erase(op.dims.begin() + d);
        if (!op.strides.empty())
            op.strides.erase(op.strides.begin() + d);
        for (auto& tensor : op.tensors) {
            for (auto& axis : tensor) {
                axis.erase(std::remove(axis.begin(), axis.end(), d), axis.end());
                for (int& i : axis)
                    i -= i > d ? 1 : 0;
            }
            tensor.erase(
                std::remove_if(tensor.begin(), tensor.end(), [](const auto& a) { return a.empty(); }), tensor.end());
        }
    }

    std::optional<OpType> opTypeOf(std::string_view type)
    {
        static const std::map<std::string_view, OpType> table = {
            { "Dot", OpType::MatMul },
            { "BatchMatMul", OpType::MatMul },
            { "Add", OpType::Element },
            { "Multiply", OpType::Element },
            { "Divide", OpType::Element },
            { "Subtract", OpType::Element },
            { "Power", OpType::Element },
            { "Maximum", OpType::Element },
            { "SoftmaxBasic", OpType::Element },
            { "Relu", OpType::Unary },
            { "Negative", OpType::Unary },
            { "Sigmoid", OpType::Unary },
            { "Sqrt", OpType::Unary },
            { "Tanh", OpType::Unary },
            { "Erf", OpType::Unary },
            { "Sum", OpType::Reduce },
            { "Convolution", OpType::Conv },
            { "MaxPool", OpType::Pool },
            { "GatherV2", OpType::Gather },
            { "Slice", OpType::Slice },
        };
        const auto it = table.find(type);
        return it == table.end() ? std::nullopt : std::optional<OpType>(it->second);
    }

    /// Step 6, generic rule: loop dims = output names, then new names of inputK .. input0; raw extents
    /// (placeholders not yet substituted) from the input shapes by position, else from `where`.
    bool buildGeneric(const Node& n, const Kernel& k, Op& op, std::vector<std::int64_t>& raw, std::string& error)
    {
        const auto out = indexEntries(k.expr, "output0");
        if (!out) {
            error = describe(n) + ": expression has no output0[...]";
            return false;
        }
        std::vector<std::vector<IndexEntry>> ins;
        for (std::size_t i = 0; i < k.shapes.size(); ++i) {
            const std::string name = "input" + std::to_string(i);
            auto entries = indexEntries(k.expr, name);
            if (!entries) {
                error = describe(n) + ": input_dict lists " + name + " but the expression has no " + name + "[...]";
                return false;
            }
            if (entries->size() != k.shapes[i].size()) {
                error = describe(n) + ": " + name + " has " + std::to_string(entries->size())
                    + " indices but its shape has " + std::to_string(k.shapes[i].size()) + " dims";
                return false;
            }
            ins.push_back(std::move(*entries));
        }
        // A constant index ("input0[N0, 0, N1]") is a dim of its own with extent 0 (a Slice drops it).
        auto keyOf = [](const IndexEntry& e, std::size_t tensor, std::size_t axis) {
            return e.constant ? "#" + std::to_string(tensor) + ":" + std::to_string(axis) : e.name;
        };
        std::vector<std::string> names;
        std::map<std::string, int> position;
        auto add = [&](const std::string& key) {
            if (position.emplace(key, int(names.size())).second)
                names.push_back(key);
        };
        for (std::size_t a = 0; a < out->size(); ++a)
            add(keyOf((*out)[a], 0, a));
        for (std::size_t i = ins.size(); i-- > 0;)
            for (std::size_t a = 0; a < ins[i].size(); ++a)
                add(keyOf(ins[i][a], i + 1, a));
        std::map<std::string, std::int64_t> extent;
        for (std::size_t i = 0; i < ins.size(); ++i)
            for (std::size_t a = 0; a < ins[i].size(); ++a)
                extent.emplace(keyOf(ins[i][a], i + 1, a), ins[i][a].constant ? 0 : k.shapes[i][a]);
        raw.clear();
        for (const std::string& name : names) {
            if (const auto it = extent.find(name); it != extent.end()) {
                raw.push_back(it->second);
            } else if (const auto w = k.whereExtents.find(name); w != k.whereExtents.end()) {
                raw.push_back(w->second);
            } else if (name[0] == '#') {
                raw.push_back(0);
            } else {
                error = describe(n) + ": index " + name + " has no extent (in no input and not in the where clause)";
                return false;
            }
        }
        auto tensorOf = [&](const std::vector<IndexEntry>& entries, std::size_t tensor) {
            std::vector<std::vector<int>> axes;
            for (std::size_t a = 0; a < entries.size(); ++a)
                axes.push_back({ position.at(keyOf(entries[a], tensor, a)) });
            return axes;
        };
        op.tensors.push_back(tensorOf(*out, 0));
        for (std::size_t i = 0; i < ins.size(); ++i)
            op.tensors.push_back(tensorOf(ins[i], i + 1));
        return true;
    }

    /// Convolution and MaxPool are hard-coded (end of §1.2); composite axes are sliding windows.
    bool buildWindowed(const Node& n, const Kernel& k, Op& op, std::vector<std::int64_t>& raw, std::string& error)
    {
        if (n.type == "Convolution") {
            const auto sh = factorAfter(k.expr, "HO");
            const auto sw = factorAfter(k.expr, "WO");
            if (k.shapes.size() != 2 || k.shapes[0].size() != 4 || k.shapes[1].size() != 4 || !sh || !sw || *sh <= 0
                || *sw <= 0) {
                error = describe(n)
                    + ": expected input0 [N,C,H,W], input1 [F,C,KH,KW] and \"HO * s\", \"WO * s\" strides "
                      "(not supported by the parity front end otherwise)";
                return false;
            }
            const auto& x = k.shapes[0];
            const auto& w = k.shapes[1];
            raw = { x[0], w[0], x[1], x[2] / *sh, x[3] / *sw, w[2], w[3] }; // N F C HO WO KH KW
            op.tensors = { { { 0 }, { 1 }, { 3 }, { 4 } }, { { 0 }, { 2 }, { 3, 5 }, { 4, 6 } },
                { { 2 }, { 1 }, { 5 }, { 6 } } };
            op.strides = { 1, 1, 1, *sh, *sw, 1, 1 };
            return true;
        }
        const auto& w = k.whereExtents;
        if (k.shapes.size() != 1 || k.shapes[0].size() != 4 || !w.count("D0") || !w.count("D1") || !w.count("K0")
            || !w.count("K1")) {
            error = describe(n)
                + ": expected input0 [N,C,H,W] and \"where D0 in .., K0 in .., D1 in .., K1 in ..\" "
                  "(not supported by the parity front end otherwise)";
            return false;
        }
        raw = { k.shapes[0][0], k.shapes[0][1], w.at("D0"), w.at("D1"), w.at("K0"), w.at("K1") };
        op.tensors = { { { 0 }, { 1 }, { 2 }, { 3 } }, { { 0 }, { 1 }, { 2, 4 }, { 3, 5 } } };
        op.strides = { 1, 1, factorAfter(k.expr, "D0").value_or(1), factorAfter(k.expr, "D1").value_or(1), 1, 1 };
        return true;
    }

    /// Step 8: true when the artifact would halve this op (CAP in elements).
    bool exceedsCapacity(const Op& op, std::int64_t capElements)
    {
        std::vector<std::int64_t> sorted = op.dims;
        std::sort(sorted.rbegin(), sorted.rend());
        std::size_t take = 0;
        if (op.nodeType == "BatchMatMul")
            take = 4;
        else if (op.tensors.size() == 3)
            take = 2;
        if (take == 0)
            return false;
        std::int64_t product = 1;
        for (std::size_t i = 0; i < std::min(take, sorted.size()); ++i)
            product = mulSat(product, sorted[i]);
        return product > capElements;
    }

    std::optional<std::vector<Node>> readNodes(std::string_view text, std::string& error)
    {
        json doc;
        try {
            doc = json::parse(text);
        } catch (const json::exception& e) {
            error = std::string("not JSON: ") + e.what();
            return std::nullopt;
        }
        if (!doc.is_array()) {
            error = "expected a JSON array of nodes [id, kernel text, node type, [[input id, port], ...]]";
            return std::nullopt;
        }
        std::vector<Node> nodes;
        for (std::size_t i = 0; i < doc.size(); ++i) {
            const json& e = doc[i];
            const bool hasId = e.is_array() && !e.empty() && e[0].is_number_integer();
            const std::string where
                = (hasId ? "node " + std::to_string(e[0].get<std::int64_t>()) + " (entry " : "entry (")
                + std::to_string(i) + ")";
            if (!e.is_array() || e.size() != 4) {
                error = where + ": expected a 4-element array [id, kernel text, node type, inputs]";
                return std::nullopt;
            }
            if (!hasId || !e[1].is_string() || !e[2].is_string() || !e[3].is_array()) {
                error = where + ": expected [integer id, string kernel text, string node type, array of inputs]";
                return std::nullopt;
            }
            Node n;
            n.id = e[0].get<std::int64_t>();
            n.kernel = e[1].get<std::string>();
            n.type = e[2].get<std::string>();
            n.entry = i;
            for (std::size_t j = 0; j < e[3].size(); ++j) {
                const json& in = e[3][j];
                if (!in.is_array() || in.empty() || !in[0].is_number_integer()) {
                    error = where + ": input " + std::to_string(j) + " must be [producer id, port]";
                    return std::nullopt;
                }
                n.inputs.push_back(in[0].get<std::int64_t>());
            }
            // Step 1: parameters, constants and results are no operators.
            if (n.type != "Result" && n.type != "Constant" && n.type != "Parameter")
                nodes.push_back(std::move(n));
        }
        return nodes;
    }

    bool isSpliced(std::string_view type)
    {
        return type == "Reshape" || type == "Convert" || type == "Broadcast";
    }

    using BroadcastSources
        = std::unordered_map<std::int64_t, std::vector<int>>; ///< source id -> positions in the output

    /// Step 2: Reshape, Broadcast and Convert spliced out of the node list, as the artifact does it;
    /// fills each Broadcast's source positions. False with `error` on a malformed node.
    bool spliceNodes(std::vector<Node>& nodes, BroadcastSources& broadcastSource, std::string& error)
    {
        // Step 2, as the artifact does it. An id names the last node carrying it, and that node holds
        // the id's user list: one entry per read, so a user id appears once for every copy of the user
        // that reads it (llama2-70 and gemma2 list repeated layers under the same ids). Splicing a node
        // puts its inputs into a user once per entry but takes its id out only once, and each op later
        // keeps only as many inputs as its node listed: a user entered twice reads the replacement
        // twice and loses its last input. Earlier copies of a node have no users (their reads went to
        // the last copy), so they splice nothing and keep reading the Reshape/Broadcast id (an unknown,
        // off-chip, untrimmed tensor); a spliced node's users pass to its inputs, so a chain spliced out
        // of file order still reaches them. The §1.4 figures of those files need exactly this:
        // deduplicated user lists give 44 distinct expressions instead of 47, and splicing every copy
        // 129.67 / 58.80 GiB instead of 129.81 / 58.81.
        std::unordered_map<std::int64_t, std::size_t> live; // id -> the last node with it, until spliced
        for (std::size_t i = 0; i < nodes.size(); ++i)
            live[nodes[i].id] = i;
        std::vector<std::vector<std::int64_t>> users(nodes.size()); // user ids, on the last node of each id
        std::vector<std::size_t> listedInputs(nodes.size());
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            listedInputs[i] = nodes[i].inputs.size();
            for (const std::int64_t x : nodes[i].inputs)
                if (const auto it = live.find(x); it != live.end())
                    users[it->second].push_back(nodes[i].id);
        }
        auto eraseFirst = [](std::vector<std::int64_t>& list, std::int64_t value) {
            if (const auto it = std::find(list.begin(), list.end(), value); it != list.end())
                list.erase(it);
        };
        // A file whose nodes read a spliced node several times over grows these lists exponentially down
        // a chain; real files insert a few thousand entries.
        constexpr std::size_t kMaxInserted = 10'000'000;
        std::size_t inserted = 0;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const Node& n = nodes[i];
            if (!isSpliced(n.type) && n.type != "Concat")
                continue;
            if (n.type == "Broadcast") {
                std::string kernelError;
                const auto k = parseKernel(n, false, kernelError);
                const auto out = k ? indexEntries(k->expr, "output0") : std::nullopt;
                const auto src = k ? indexEntries(k->expr, "input0") : std::nullopt;
                if (!out || !src || n.inputs.size() != 1) {
                    error = kernelError.empty() ? describe(n) + ": expected one input and output0[...] = input0[...]"
                                                : kernelError;
                    return false;
                }
                std::vector<int> positions;
                for (const IndexEntry& e : *src) {
                    if (e.constant)
                        continue; // input0[0]: a scalar source
                    const auto it
                        = std::find_if(out->begin(), out->end(), [&](const IndexEntry& o) { return o.name == e.name; });
                    if (it == out->end()) {
                        error = describe(n) + ": source index " + e.name + " is not an index of output0";
                        return false;
                    }
                    positions.push_back(int(it - out->begin()));
                }
                broadcastSource[n.inputs[0]] = positions;
            }
            const std::vector<std::int64_t> nodeUsers = users[i]; // copies: the lists below may be the same
            const std::vector<std::int64_t> replacement = n.inputs;
            // At most: the replacement into each user, and the users into each input's list.
            inserted += 2 * replacement.size() * nodeUsers.size();
            if (inserted > kMaxInserted) {
                error = describe(n) + ": splicing out Reshape/Broadcast/Convert/Concat would insert more than "
                    + std::to_string(kMaxInserted) + " input and user entries (nodes read one node many times over)";
                return false;
            }
            // Concat is not spliced: its users keep its id, which then names no op (an external tensor).
            if (n.type != "Concat")
                for (const std::int64_t u : nodeUsers)
                    if (const auto it = live.find(u); it != live.end()) {
                        auto& in = nodes[it->second].inputs;
                        const auto at = std::find(in.begin(), in.end(), n.id);
                        if (at != in.end())
                            in.insert(at + 1, replacement.begin(), replacement.end());
                    }
            for (const std::int64_t x : replacement)
                if (const auto it = live.find(x); it != live.end()) {
                    auto& list = users[it->second];
                    const auto at = std::find(list.begin(), list.end(), n.id);
                    if (at != list.end())
                        list.insert(at + 1, nodeUsers.begin(), nodeUsers.end());
                }
            for (const std::int64_t x : replacement)
                if (const auto it = live.find(x); it != live.end())
                    eraseFirst(users[it->second], n.id);
            if (n.type != "Concat")
                for (const std::int64_t u : nodeUsers)
                    if (const auto it = live.find(u); it != live.end())
                        eraseFirst(nodes[it->second].inputs, n.id);
            live.erase(n.id);
        }
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].inputs.size() > listedInputs[i])
                nodes[i].inputs.resize(listedInputs[i]);
        return true;
    }

    /// Step 3: an input is on chip iff the op just before produced it or also read it (or, with the
    /// quirk off, iff any earlier op of the chain produced it).
    std::vector<std::vector<bool>> onchipInputs(const std::vector<const Node*>& chain, const ParseOptions& options)
    {
        std::vector<std::vector<bool>> onchip(chain.size());
        std::set<std::int64_t> produced;
        for (std::size_t i = 0; i < chain.size(); ++i) {
            for (const std::int64_t x : chain[i]->inputs) {
                const Node* prev = i > 0 ? chain[i - 1] : nullptr;
                const bool fromPrevious
                    = prev && (x == prev->id || std::count(prev->inputs.begin(), prev->inputs.end(), x) > 0);
                onchip[i].push_back(
                    options.onchipOnlyFromPrevious ? fromPrevious : fromPrevious || produced.count(x) > 0);
            }
            produced.insert(chain[i]->id);
        }
        return onchip;
    }

    /// Steps 4, 6 and 7 for one node of the chain: its op with the KV placeholders bound, broadcast inputs
    /// trimmed to their sources, constant Slice indices and decode-time unit dims removed.
    bool opOfNode(const Node& n, const std::vector<bool>& onchip, const ParseOptions& options,
        const BroadcastSources& broadcastSource, Op& op, std::string& error)
    {
        const auto type = opTypeOf(n.type);
        if (!type) {
            error = describe(n) + ": node type " + n.type + " is not supported by the parity front end";
            return false;
        }
        const auto k = parseKernel(n, true, error);
        if (!k)
            return false;
        if (k->shapes.size() != n.inputs.size()) {
            error = describe(n) + ": input_dict declares " + std::to_string(k->shapes.size())
                + " inputs but the node has " + std::to_string(n.inputs.size())
                + " after splicing Reshape/Broadcast/Convert";
            return false;
        }
        op.nodeType = n.type;
        op.type = *type;
        op.sourceNode = n.id;
        op.inputIds = n.inputs;
        op.onchip = onchip;
        std::vector<std::int64_t> raw;
        const bool windowed = n.type == "Convolution" || n.type == "MaxPool";
        if (!(windowed ? buildWindowed(n, *k, op, raw, error) : buildGeneric(n, *k, op, raw, error)))
            return false;

        // KV detection and placeholder substitution (step 6).
        auto isActivation = [&](const std::vector<std::vector<int>>& tensor) {
            for (const auto& axis : tensor)
                for (const int d : axis)
                    if (isActivationExtent(raw[std::size_t(d)]))
                        return true;
            return false;
        };
        op.kv = n.type == "BatchMatMul" && options.seq == 1 && op.tensors.size() >= 2 && isActivation(op.tensors[1])
            && isActivation(op.tensors.back());
        bool firstSeq = true;
        for (const std::int64_t x : raw) {
            std::int64_t d = x;
            if (x == 99) {
                d = options.batch;
            } else if (x == 66) {
                d = op.kv ? (firstSeq ? 1 : options.kvLen) : options.seq; // the first 66 of a KV op is the query
                firstSeq = false;
            } else if (x == 6534) {
                d = options.batch * (op.kv ? options.kvLen : options.seq);
            } else if (isActivationExtent(x)) {
                d = x / 99 * options.batch;
            }
            op.dims.push_back(d);
        }

        // Broadcast trimming: the broadcast's source axes, mapped through its output positions onto
        // this input's axes; a scalar source deletes the input with its flag.
        for (std::size_t in = op.inputIds.size(); in-- > 0;) {
            const auto it = broadcastSource.find(op.inputIds[in]);
            if (it == broadcastSource.end())
                continue;
            auto& tensor = op.tensors[in + 1];
            if (it->second.empty()) {
                op.tensors.erase(op.tensors.begin() + std::ptrdiff_t(in + 1));
                op.onchip.erase(op.onchip.begin() + std::ptrdiff_t(in));
                op.inputIds.erase(op.inputIds.begin() + std::ptrdiff_t(in));
                continue;
            }
            std::vector<std::vector<int>> trimmed;
            for (const int p : it->second) {
                if (std::size_t(p) >= tensor.size()) {
                    error = describe(n) + ": input " + std::to_string(in) + " is a broadcast of "
                        + std::to_string(it->first) + " whose axis " + std::to_string(p) + " it does not have";
                    return false;
                }
                trimmed.push_back(tensor[std::size_t(p)]);
            }
            tensor = std::move(trimmed);
        }
        if (n.type == "Slice") // constant indices (extent 0) are no loop dims
            for (auto z = std::find(op.dims.begin(), op.dims.end(), 0); z != op.dims.end();
                 z = std::find(op.dims.begin(), op.dims.end(), 0))
                removeDim(op, int(z - op.dims.begin()));
        if (n.type == "Dot") // decode-time [B, 1, in] x [in, out] becomes [B, out, in]
            while (op.dims.size() > 3 && *std::min_element(op.dims.begin(), op.dims.end()) == 1)
                removeDim(op, int(std::find(op.dims.begin(), op.dims.end(), 1) - op.dims.begin()));
        return true;
    }

    /// Step 8: halve the largest extent of an op too big for the capacity, duplicate it right after,
    /// until nothing changes (no partial-sum add even when the halved dim is a reduction).
    bool capacitySplit(std::vector<Op>& ops, const ParseOptions& options, std::string& error)
    {
        if (options.capacityMB > 0) {
            const std::int64_t capElements = mulSat(options.capacityMB, std::int64_t(1) << 19); // MB · 2^20 / 2 bytes
            constexpr std::size_t kMaxOps = 1'000'000;
            for (bool changed = true; changed;) {
                changed = false;
                for (std::size_t i = 0; i < ops.size(); ++i) {
                    Op& op = ops[i];
                    if (op.dims.empty() || !exceedsCapacity(op, capElements))
                        continue;
                    auto largest = std::max_element(op.dims.begin(), op.dims.end()); // the first of equal maxima
                    *largest /= 2;
                    ops.insert(ops.begin() + std::ptrdiff_t(i + 1), ops[i]);
                    ++i;
                    changed = true;
                    if (ops.size() > kMaxOps) {
                        error = "capacity split: more than 1000000 ops (capacity " + std::to_string(options.capacityMB)
                            + " MB is far too small for node " + std::to_string(ops[i].sourceNode) + ")";
                        ops.clear();
                        return false;
                    }
                }
            }
        }
        return true;
    }

    ParseResult parseChecked(std::string_view jsonText, const ParseOptions& options)
    {
        ParseResult result;
        if (options.batch < 1 || options.seq < 1 || options.kvLen < 1 || options.capacityMB < 0) {
            result.error = "options: batch, seq and kvLen must be >= 1 and capacityMB >= 0";
            return result;
        }
        if (options.modelName.starts_with("retnet")) {
            result.error
                = "retnet: not supported by the parity front end (the artifact's parser replicates its op list "
                  "24 times and then crashes with an IndexError, elk-reference.md §1.2 step 7)";
            return result;
        }
        auto read = readNodes(jsonText, result.error);
        if (!read)
            return result;
        std::vector<Node>& nodes = *read;

        BroadcastSources broadcastSource;
        if (!spliceNodes(nodes, broadcastSource, result.error))
            return result;
        std::vector<const Node*> chain;
        for (const Node& n : nodes)
            if (!isSpliced(n.type) && n.type != "Concat")
                chain.push_back(&n);

        const std::vector<std::vector<bool>> onchip = onchipInputs(chain, options);

        // Step 5: the embedding lookup is dropped for a decode step and for the LLM files.
        const std::string_view model = options.modelName;
        const bool dropGather = options.dropGatherV2
            && (options.seq == 1 || model.starts_with("opt-") || model.starts_with("llam")
                || model.starts_with("gemm"));

        for (std::size_t i = 0; i < chain.size(); ++i) {
            const Node& n = *chain[i];
            if (dropGather && n.type == "GatherV2")
                continue;
            Op op;
            if (!opOfNode(n, onchip[i], options, broadcastSource, op, result.error))
                return result;
            result.ops.push_back(std::move(op));
        }

        if (!capacitySplit(result.ops, options, result.error))
            return result;
        for (std::size_t i = 0; i < result.ops.size(); ++i)
            result.ops[i].name = "Op_" + std::to_string(i) + "_" + result.ops[i].nodeType;
        return result;
    }

} // namespace

ParseResult parseModel(std::string_view jsonText, const ParseOptions& options)
{
    try {
        ParseResult result = parseChecked(jsonText, options);
        if (!result.ok())
            result.ops.clear(); // all or nothing
        return result;
    } catch (const std::exception& e) { // last line of defence: nothing escapes
        ParseResult result;
        result.error = std::string("internal error while parsing: ") + e.what();
        return result;
    }
}

std::int64_t tensorElements(const Op& op, std::size_t tensor)
{
    if (tensor >= op.tensors.size())
        return 0;
    std::int64_t elements = 1;
    for (const auto& axis : op.tensors[tensor]) {
        std::int64_t span = 0;
        for (const int d : axis) {
            const std::int64_t stride = op.strides.empty() ? 1 : op.strides[std::size_t(d)];
            span += op.dims[std::size_t(d)] * stride;
        }
        elements = mulSat(elements, span - std::int64_t(axis.size() - 1));
    }
    return elements;
}

std::optional<ModelDefaults> paperModelDefaults(std::string_view modelName)
{
    static const std::map<std::string_view, ModelDefaults> table = {
        { "llama2-13", { 40, 3 } },
        { "llama2-70", { 80, 3 } },
        { "opt-30", { 48, 4 } },
        { "gemma2", { 46, 2 } },
        { "vit-huge", { 32, 3 } },
    };
    const auto it = table.find(modelName);
    return it == table.end() ? std::nullopt : std::optional<ModelDefaults>(it->second);
}

} // namespace elk::import::artifact
