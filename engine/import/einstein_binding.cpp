// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_binding.h"

#include <algorithm>
#include <map>
#include <set>

namespace elk::import::einstein {

namespace {

    /// One loop dimension made from a variable: the variable's factor from `lo` (the product of the
    /// factors inside it) to lo × raw.
    struct SubDim {
        std::int64_t raw = 1;
        std::int64_t lo = 1;
        bool kv = false;
        std::int64_t bound = 1;
        int dim = -1;
    };

    struct Place {
        int var = -1;
        int sub = -1;
        bool operator==(const Place&) const = default;
    };

    /// (atom, product of the atoms inside it) for one view axis, outer to inner.
    std::vector<std::pair<int, std::int64_t>> atomEdges(const Value& value, std::size_t axis)
    {
        const auto& run = value.viewAxes[axis];
        std::vector<std::pair<int, std::int64_t>> edges(run.size());
        std::int64_t inner = 1;
        for (std::size_t k = run.size(); k-- > 0;) {
            edges[k] = { run[k], inner };
            inner = checkedProduct(inner, value.atoms[std::size_t(run[k])].raw);
        }
        return edges;
    }

    /// Product of the piece sizes inside each piece (the piece's stride in its view axis).
    std::vector<std::int64_t> pieceStrides(const AxisSpec& spec)
    {
        std::vector<std::int64_t> strides(spec.pieces.size(), 1);
        std::int64_t inner = 1;
        for (std::size_t p = spec.pieces.size(); p-- > 0;) {
            strides[p] = inner;
            inner = checkedProduct(inner, spec.pieces[p].size);
        }
        return strides;
    }

    class Builder {
    public:
        Builder(Program& program, const Bindings& bindings, OpRequest& request, NodeError& error)
            : m_program(program)
            , m_bindings(bindings)
            , m_req(request)
            , m_error(error)
        {
        }

        std::optional<OpResult> run()
        {
            for (InputSpec& input : m_req.inputs)
                refresh(input.value);
            if (!refinePieces() || !splitVars() || !mapAtoms() || !attention() || !resolveExtents())
                return std::nullopt;
            return emit();
        }

    private:
        bool fail(std::size_t column, std::string message)
        {
            m_error = { column, std::move(message) };
            return false;
        }

        const std::string& varName(int var) const { return m_req.vars[std::size_t(var)].name; }

        bool settled(const InputSpec& input) const
        {
            return m_program.storages[std::size_t(input.value.storage)].settled;
        }

        bool fixedAtom(const InputSpec& input, const Atom& atom) const { return !atom.flexible && settled(input); }

        // An external settled by an earlier operator may be seen through values made before that
        // (views, the importer's table of externals): take the sequence kind from the storage.
        void refresh(Value& value) const
        {
            const Storage& storage = m_program.storages[std::size_t(value.storage)];
            if (!storage.settled)
                return;
            for (std::size_t a = 0; a < value.storageAxes.size() && a < storage.axes.size(); ++a) {
                for (int id : value.storageAxes[a]) {
                    Atom& atom = value.atoms[std::size_t(id)];
                    if (!decodeExtent(atom.raw).seq || atom.kv == storage.axes[a].kv)
                        continue;
                    atom.kv = storage.axes[a].kv;
                    std::string why;
                    atom.bound = bindExtent(atom.raw, atom.kv, m_bindings, why).value_or(atom.bound);
                }
            }
        }

        bool refinePieces()
        {
            for (InputSpec& input : m_req.inputs) {
                if (input.axes.size() != input.value.viewAxes.size())
                    return fail(0,
                        input.label + " has " + std::to_string(input.value.viewAxes.size())
                            + " axes but is indexed with " + std::to_string(input.axes.size()));
                for (std::size_t j = 0; j < input.axes.size(); ++j) {
                    const AxisSpec& spec = input.axes[j];
                    if (spec.kind != AxisSpec::Kind::Pieces)
                        continue;
                    const auto strides = pieceStrides(spec);
                    std::int64_t covered = 1;
                    for (const Piece& piece : spec.pieces)
                        covered = checkedProduct(covered, piece.size);
                    const std::int64_t extent = input.value.viewRaw(j);
                    if (covered != extent)
                        return fail(spec.column,
                            input.label + " axis " + std::to_string(j) + " has extent " + std::to_string(extent)
                                + " but its index covers " + std::to_string(covered));
                    std::vector<std::int64_t> breaks;
                    for (std::size_t p = 0; p < spec.pieces.size(); ++p) {
                        breaks.push_back(strides[p]);
                        breaks.push_back(checkedProduct(strides[p], spec.pieces[p].size));
                    }
                    std::string why;
                    if (!refineViewAxis(input.value, j, breaks, m_bindings, why))
                        return fail(spec.column, input.label + " axis " + std::to_string(j) + ": " + why);
                }
            }
            return true;
        }

        // Calls f(input, axis, piece, stride of the piece in its view axis) for every piece.
        template <typename F> bool forEachPiece(F&& f)
        {
            for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                InputSpec& input = m_req.inputs[i];
                for (std::size_t j = 0; j < input.axes.size(); ++j) {
                    const AxisSpec& spec = input.axes[j];
                    if (spec.kind != AxisSpec::Kind::Pieces)
                        continue;
                    const auto strides = pieceStrides(spec);
                    for (std::size_t p = 0; p < spec.pieces.size(); ++p) {
                        if (!f(i, j, spec.pieces[p], strides[p], spec.column))
                            return false;
                    }
                }
            }
            return true;
        }

        bool splitVars()
        {
            const std::size_t varCount = m_req.vars.size();
            std::vector<std::set<std::int64_t>> breaks(varCount);
            for (std::size_t v = 0; v < varCount; ++v)
                breaks[v] = { 1, m_req.vars[v].raw };
            std::vector<std::map<int, std::vector<std::pair<std::int64_t, std::int64_t>>>> coverage(
                m_req.inputs.size());
            const bool ok = forEachPiece(
                [&](std::size_t i, std::size_t j, const Piece& piece, std::int64_t stride, std::size_t column) {
                    const VarRec& var = m_req.vars[std::size_t(piece.var)];
                    const std::int64_t hi = checkedProduct(piece.divisor, piece.size);
                    if (hi > var.raw || var.raw % hi != 0)
                        return fail(column,
                            "index " + var.name + " (extent " + std::to_string(var.raw) + ") cannot supply a factor "
                                + std::to_string(piece.size) + " at stride " + std::to_string(piece.divisor));
                    auto& ranges = coverage[i][piece.var];
                    for (const auto& [lo, end] : ranges) {
                        if (lo < hi && piece.divisor < end)
                            return fail(column, m_req.inputs[i].label + " uses index " + var.name + " twice");
                    }
                    ranges.emplace_back(piece.divisor, hi);
                    breaks[std::size_t(piece.var)].insert(piece.divisor);
                    breaks[std::size_t(piece.var)].insert(hi);
                    for (const auto& [atom, u] : atomEdges(m_req.inputs[i].value, j)) {
                        if (u < stride || u >= checkedProduct(stride, piece.size))
                            continue;
                        const std::int64_t raw = m_req.inputs[i].value.atoms[std::size_t(atom)].raw;
                        breaks[std::size_t(piece.var)].insert(piece.divisor * (u / stride));
                        breaks[std::size_t(piece.var)].insert(checkedProduct(piece.divisor, u * raw / stride));
                    }
                    return true;
                });
            if (!ok)
                return false;
            m_subs.assign(varCount, {});
            for (std::size_t v = 0; v < varCount; ++v) {
                const std::vector<std::int64_t> sorted(breaks[v].begin(), breaks[v].end());
                for (std::size_t k = 0; k + 1 < sorted.size(); ++k) {
                    if (sorted[k + 1] % sorted[k] != 0)
                        return fail(m_req.vars[v].column,
                            "index " + m_req.vars[v].name + " (extent " + std::to_string(m_req.vars[v].raw)
                                + ") is split into factors that do not nest (" + std::to_string(sorted[k]) + " and "
                                + std::to_string(sorted[k + 1]) + ")");
                }
                for (std::size_t k = sorted.size() - 1; k-- > 0;)
                    m_subs[v].push_back({ sorted[k + 1] / sorted[k], sorted[k], false, 1, -1 });
                if (m_subs[v].empty())
                    m_subs[v].push_back({ 1, 1, false, 1, -1 });
                // A synthetic variable splits only where its extent is a plain number (a concatenated
                // part seen as 7 x 7 patches); one bound to the run's dims cannot be cut.
                if (m_req.vars[v].synthetic && m_subs[v].size() != 1 && m_req.vars[v].bound != m_req.vars[v].raw)
                    return fail(m_req.vars[v].column, "index " + m_req.vars[v].name + " cannot be reshaped here");
            }
            return true;
        }

        bool mapAtoms()
        {
            // Second pass: cut atoms wherever the variable is cut by another operand.
            bool ok = forEachPiece(
                [&](std::size_t i, std::size_t j, const Piece& piece, std::int64_t stride, std::size_t column) {
                    std::vector<std::int64_t> cuts;
                    for (const SubDim& sub : m_subs[std::size_t(piece.var)]) {
                        if (sub.lo > piece.divisor && sub.lo < piece.divisor * piece.size)
                            cuts.push_back(checkedProduct(stride, sub.lo / piece.divisor));
                    }
                    std::string why;
                    if (!refineViewAxis(m_req.inputs[i].value, j, cuts, m_bindings, why))
                        return fail(column, m_req.inputs[i].label + " axis " + std::to_string(j) + ": " + why);
                    return true;
                });
            if (!ok)
                return false;
            m_place.assign(m_req.inputs.size(), {});
            m_broadcast.assign(m_req.inputs.size(), {});
            return forEachPiece(
                [&](std::size_t i, std::size_t j, const Piece& piece, std::int64_t stride, std::size_t column) {
                    const Value& value = m_req.inputs[i].value;
                    for (const auto& [atom, u] : atomEdges(value, j)) {
                        const std::int64_t raw = value.atoms[std::size_t(atom)].raw;
                        if (raw == 1 || u < stride || u >= checkedProduct(stride, piece.size))
                            continue;
                        const std::int64_t lo = piece.divisor * (u / stride);
                        const auto& subs = m_subs[std::size_t(piece.var)];
                        const auto it = std::find_if(
                            subs.begin(), subs.end(), [&](const SubDim& s) { return s.lo == lo && s.raw == raw; });
                        if (it == subs.end())
                            return fail(column,
                                m_req.inputs[i].label + " axis " + std::to_string(j) + " does not line up with index "
                                    + varName(piece.var));
                        m_place[i][atom] = { piece.var, int(it - subs.begin()) };
                    }
                    return true;
                });
        }

        bool usesSubs(std::size_t input, const std::set<std::pair<int, int>>& subs) const
        {
            for (const auto& [atom, place] : m_place[input]) {
                if (subs.count({ place.var, place.sub }))
                    return true;
            }
            return false;
        }

        bool isActivation(int storage) const
        {
            const Storage& s = m_program.storages[std::size_t(storage)];
            return !s.kvCache && (!s.external || s.placeholder);
        }

        // Decode step: the sequence dimension of K and V is the KV length. In the exported graph K and
        // V come from the new tokens; here the operand that carries the key positions but not the
        // query positions is read from the KV cache instead, and the new rows are appended to it.
        bool attention()
        {
            if (!m_req.attention || !m_bindings.kvLen || m_req.kind != model::OpKind::MatMul
                || m_req.inputs.size() != 2)
                return true;
            for (const InputSpec& input : m_req.inputs) {
                if (!isActivation(input.value.storage))
                    return true;
            }
            std::vector<std::pair<int, int>> seqSubs;
            std::set<std::pair<int, int>> keys;
            for (std::size_t v = 0; v < m_req.vars.size(); ++v) {
                if (m_req.vars[v].synthetic)
                    continue;
                for (std::size_t s = 0; s < m_subs[v].size(); ++s) {
                    if (!decodeExtent(m_subs[v][s].raw).seq)
                        continue;
                    seqSubs.emplace_back(int(v), int(s));
                    for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                        for (const auto& [atom, place] : m_place[i]) {
                            const Atom& a = m_req.inputs[i].value.atoms[std::size_t(atom)];
                            if (place == Place { int(v), int(s) } && a.kv && fixedAtom(m_req.inputs[i], a))
                                keys.insert({ int(v), int(s) });
                        }
                    }
                }
            }
            if (keys.empty()) {
                for (std::size_t k = 1; k < seqSubs.size(); ++k)
                    keys.insert(seqSubs[k]);
            }
            std::set<std::pair<int, int>> queries;
            for (const auto& sub : seqSubs) {
                if (!keys.count(sub))
                    queries.insert(sub);
            }
            if (keys.empty())
                return true;
            std::vector<std::size_t> replaced;
            for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                if (usesSubs(i, keys) && !usesSubs(i, queries))
                    replaced.push_back(i);
            }
            if (replaced.empty())
                return true;
            for (const auto& [v, s] : keys)
                m_subs[std::size_t(v)][std::size_t(s)].kv = true;
            for (std::size_t i : replaced) {
                if (!readFromCache(i, keys))
                    return false;
            }
            return true;
        }

        bool readFromCache(std::size_t i, const std::set<std::pair<int, int>>& keys)
        {
            InputSpec& input = m_req.inputs[i];
            Value& value = input.value;
            const int source = value.storage;
            // The cache holds one axis per factor the operator reads, in the storage's order.
            std::vector<std::vector<int>> axes;
            std::vector<Atom> cacheAxes;
            for (const auto& run : value.storageAxes) {
                for (int atom : run) {
                    const auto it = m_place[i].find(atom);
                    if (it == m_place[i].end())
                        continue; // an unread extent-1 factor
                    Atom& a = value.atoms[std::size_t(atom)];
                    a.kv = keys.count({ it->second.var, it->second.sub }) > 0 && decodeExtent(a.raw).seq;
                    a.flexible = false;
                    std::string why;
                    const auto bound = bindExtent(a.raw, a.kv, m_bindings, why);
                    if (!bound)
                        return fail(0, input.label + ": " + why);
                    a.bound = *bound;
                    axes.push_back({ atom });
                    cacheAxes.push_back(a);
                }
            }
            const Storage sourceStorage = m_program.storages[std::size_t(source)];
            int cache = -1;
            if (const auto it = m_program.kvCacheOf.find(source); it != m_program.kvCacheOf.end()) {
                const auto& existing = m_program.storages[std::size_t(it->second)].axes;
                const bool same = existing.size() == cacheAxes.size()
                    && std::equal(existing.begin(), existing.end(), cacheAxes.begin(),
                        [](const Atom& a, const Atom& b) { return a.raw == b.raw && a.bound == b.bound; });
                if (same)
                    cache = it->second;
            }
            if (cache < 0) {
                Storage storage;
                storage.name = "kv_cache." + sourceStorage.name;
                if (m_program.kvCacheOf.count(source))
                    storage.name += "." + m_req.opName;
                storage.axes = cacheAxes;
                storage.dtype = sourceStorage.dtype;
                storage.external = true;
                storage.kvCache = true;
                storage.placeholder = true;
                cache = int(m_program.storages.size());
                m_program.storages.push_back(storage);
                m_program.kvCacheOf.emplace(source, cache);
            }
            if (!sourceStorage.external && !m_program.kvAppendOf.count(source))
                appendRows(source);
            value.storage = cache;
            value.storageAxes = axes;
            return true;
        }

        // The new rows of K or V go to the cache: data movement, written back as part of the cache.
        void appendRows(int source)
        {
            const Storage sourceStorage = m_program.storages[std::size_t(source)];
            Storage rows;
            rows.name = "kv_new." + sourceStorage.name;
            rows.axes = sourceStorage.axes;
            rows.dtype = sourceStorage.dtype;
            rows.kvCache = true;
            rows.graphOutput = true;
            rows.placeholder = true;
            rows.producer = int(m_program.ops.size());
            const int rowsId = int(m_program.storages.size());
            m_program.storages.push_back(rows);
            OpRec op;
            op.name = "kv_append." + sourceStorage.name;
            op.kind = model::OpKind::Slice;
            OperandRec out { rowsId, {} };
            OperandRec in { source, {} };
            for (std::size_t a = 0; a < sourceStorage.axes.size(); ++a) {
                op.dims.push_back({ "a" + std::to_string(a), sourceStorage.axes[a] });
                out.axes.push_back({ int(a), -1, 1 });
                in.axes.push_back({ int(a), -1, 1 });
            }
            op.operands = { out, in };
            m_program.kvAppendOf.emplace(source, int(m_program.ops.size()));
            m_program.ops.push_back(std::move(op));
        }

        bool resolveExtents()
        {
            for (std::size_t v = 0; v < m_req.vars.size(); ++v) {
                const VarRec& var = m_req.vars[v];
                if (var.synthetic) {
                    if (m_subs[v].size() == 1)
                        m_subs[v][0].bound = var.bound;
                    else
                        for (SubDim& sub : m_subs[v])
                            sub.bound = sub.raw;
                    continue;
                }
                for (std::size_t s = 0; s < m_subs[v].size(); ++s) {
                    SubDim& sub = m_subs[v][s];
                    const bool seq = decodeExtent(sub.raw).seq;
                    std::set<bool> fixed;
                    for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                        for (const auto& [atom, place] : m_place[i]) {
                            const Atom& a = m_req.inputs[i].value.atoms[std::size_t(atom)];
                            if (place == Place { int(v), int(s) } && seq && fixedAtom(m_req.inputs[i], a))
                                fixed.insert(a.kv);
                        }
                    }
                    if (fixed.size() > 1 && m_bindings.seqLen == 1) {
                        // BERT's mask is computed from the token input before attention, so its first
                        // reader fixed its key axis to the new tokens (1 in a decode step); the scores
                        // add it over the KV positions. Broadcast it, as the artifact runs every
                        // non-attention op over one position.
                        for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                            for (auto it = m_place[i].begin(); it != m_place[i].end();) {
                                const Atom& a = m_req.inputs[i].value.atoms[std::size_t(it->first)];
                                if (it->second == Place { int(v), int(s) } && fixedAtom(m_req.inputs[i], a) && !a.kv) {
                                    m_broadcast[i].insert(it->first);
                                    m_warnings.push_back({ var.column,
                                        m_req.inputs[i].label + " holds " + var.name
                                            + " over the new tokens, which another operand holds over the KV "
                                              "positions: it is broadcast over them" });
                                    it = m_place[i].erase(it);
                                } else {
                                    ++it;
                                }
                            }
                        }
                        fixed = { true };
                    }
                    if (fixed.size() > 1)
                        return fail(var.column,
                            "index " + var.name
                                + " is the KV length in one operand and the new tokens' sequence length in another");
                    if (!fixed.empty() && !sub.kv)
                        sub.kv = *fixed.begin();
                    if (!fixed.empty() && sub.kv && !*fixed.rbegin())
                        return fail(var.column,
                            "index " + var.name
                                + " is the KV length of this attention but an operand holds it as the sequence length");
                    sub.kv = sub.kv && seq;
                    std::string why;
                    const auto bound = bindExtent(sub.raw, sub.kv, m_bindings, why);
                    if (!bound)
                        return fail(var.column, "index " + var.name + ": " + why);
                    sub.bound = *bound;
                }
            }
            for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                for (const auto& [atom, place] : m_place[i]) {
                    Atom& a = m_req.inputs[i].value.atoms[std::size_t(atom)];
                    const SubDim& sub = m_subs[std::size_t(place.var)][std::size_t(place.sub)];
                    a.kv = sub.kv;
                    a.bound = sub.bound;
                }
            }
            return true;
        }

        /// The input's plain, offset, strided and windowed axes (AxisSpec::Kind::Direct): each a loop dim (or
        /// a window of two) on one plain storage axis whose extent it must cover exactly. Crops of merged
        /// axes are only noted here (croppedDimOf, cropStrideOf) for croppedAxis(). False after fail().
        bool directAxes(const InputSpec& input, OperandRec& rec, std::vector<bool>& done,
            std::map<int, int>& croppedDimOf, std::map<int, std::int64_t>& cropStrideOf)
        {
            const Value& value = input.value;
            for (std::size_t j = 0; j < input.axes.size(); ++j) {
                const AxisSpec& spec = input.axes[j];
                if (spec.kind != AxisSpec::Kind::Direct)
                    continue;
                const auto& run = value.viewAxes[j];
                const int storageAxis = run.size() == 1 ? value.storageAxisOf(run[0]) : -1;
                if (spec.crop && storageAxis >= 0 && spec.varB < 0 && m_subs[std::size_t(spec.varA)].size() == 1) {
                    croppedDimOf[run[0]] = m_subs[std::size_t(spec.varA)].front().dim;
                    cropStrideOf[run[0]] = spec.stride;
                    continue;
                }
                if (storageAxis < 0 || value.storageAxes[std::size_t(storageAxis)].size() != 1) {
                    fail(spec.column,
                        input.label + " axis " + std::to_string(j)
                            + ": an offset, strided or windowed index needs a plain tensor axis, not a reshaped or "
                              "broadcast view");
                    return false;
                }
                if (m_subs[std::size_t(spec.varA)].size() != 1
                    || (spec.varB >= 0 && m_subs[std::size_t(spec.varB)].size() != 1)) {
                    fail(spec.column,
                        input.label + " axis " + std::to_string(j) + ": a windowed index cannot also be reshaped");
                    return false;
                }
                const SubDim& a = m_subs[std::size_t(spec.varA)].front();
                AxisRef ref { a.dim, -1, 1 };
                std::int64_t extent = a.bound;
                if (spec.varB >= 0) {
                    const SubDim& b = m_subs[std::size_t(spec.varB)].front();
                    ref.windowDim = b.dim;
                    ref.stride = spec.blockStride ? b.bound : spec.stride;
                    extent = checkedProduct(a.bound - 1, ref.stride) + b.bound;
                }
                const std::int64_t actual = value.atoms[std::size_t(run[0])].bound;
                if (extent != actual) {
                    fail(spec.column,
                        input.label + " axis " + std::to_string(j) + " has extent " + std::to_string(actual)
                            + " but its index covers " + std::to_string(extent));
                    return false;
                }
                rec.axes[std::size_t(storageAxis)] = ref;
                done[std::size_t(storageAxis)] = true;
            }
            return true;
        }

        std::optional<OpResult> emit()
        {
            OpRec op;
            op.name = m_req.opName;
            op.kind = m_req.kind;
            op.reduce = m_req.reduce;
            op.usesExp = m_req.usesExp;
            op.topOperator = m_req.topOperator;
            // A variable no operand reads (the target of a padded copy) is not a loop dimension.
            std::vector<bool> referenced(m_req.vars.size(), false);
            for (const InputSpec& input : m_req.inputs) {
                for (const AxisSpec& spec : input.axes) {
                    for (const Piece& piece : spec.pieces)
                        referenced[std::size_t(piece.var)] = true;
                    for (int v : { spec.varA, spec.varB }) {
                        if (v >= 0)
                            referenced[std::size_t(v)] = true;
                    }
                }
            }
            for (const OutputAxis& axis : m_req.output) {
                for (int v : axis.vars)
                    referenced[std::size_t(v)] = true;
            }
            for (std::size_t v = 0; v < m_req.vars.size(); ++v) {
                if (!referenced[v])
                    continue;
                for (std::size_t s = 0; s < m_subs[v].size(); ++s) {
                    SubDim& sub = m_subs[v][s];
                    sub.dim = int(op.dims.size());
                    std::string name = m_req.vars[v].name;
                    if (m_subs[v].size() > 1)
                        name += "." + std::to_string(s);
                    op.dims.push_back({ name, Atom { sub.raw, sub.kv, sub.bound, false } });
                }
            }
            int unitDim = -1;
            auto unit = [&] {
                if (unitDim < 0) {
                    unitDim = int(op.dims.size());
                    op.dims.push_back({ "unit", Atom { 1, false, 1, false } });
                }
                return unitDim;
            };
            auto subOf = [&](int var) -> const SubDim& { return m_subs[std::size_t(var)].front(); };

            // Output: one storage axis per loop dimension it names (outputs are stored unreshaped).
            Storage storage;
            storage.name = m_req.outputName;
            storage.dtype = m_req.outputDtype;
            storage.producer = int(m_program.ops.size());
            const int storageId = int(m_program.storages.size());
            OperandRec out { storageId, {} };
            OpResult result;
            result.output.storage = storageId;
            for (const OutputAxis& axis : m_req.output) {
                std::vector<int> viewRun;
                if (axis.window) {
                    const SubDim& a = subOf(axis.vars.at(0));
                    const SubDim& b = subOf(axis.vars.at(1));
                    out.axes.push_back({ a.dim, b.dim, 1 });
                    const Atom atom { axis.raw, false, axis.bound, false };
                    viewRun.push_back(int(result.output.atoms.size()));
                    result.output.storageAxes.push_back({ int(result.output.atoms.size()) });
                    result.output.atoms.push_back(atom);
                    storage.axes.push_back(atom);
                } else {
                    for (int var : axis.vars) {
                        for (const SubDim& sub : m_subs[std::size_t(var)]) {
                            out.axes.push_back({ sub.dim, -1, 1 });
                            const Atom atom { sub.raw, sub.kv, sub.bound, false };
                            viewRun.push_back(int(result.output.atoms.size()));
                            result.output.storageAxes.push_back({ int(result.output.atoms.size()) });
                            result.output.atoms.push_back(atom);
                            storage.axes.push_back(atom);
                        }
                    }
                }
                result.output.viewAxes.push_back(viewRun);
            }
            for (const Atom& atom : storage.axes)
                storage.placeholder = storage.placeholder || decodeExtent(atom.raw).any();
            op.operands.push_back(out);

            result.dimOfAtom.resize(m_req.inputs.size());
            for (std::size_t i = 0; i < m_req.inputs.size(); ++i) {
                const InputSpec& input = m_req.inputs[i];
                const Value& value = input.value;
                OperandRec rec { value.storage, std::vector<AxisRef>(value.storageAxes.size()) };
                std::vector<bool> done(value.storageAxes.size(), false);
                std::map<int, int> croppedDimOf; ///< atom -> dim, for crops of merged axes
                std::map<int, std::int64_t> cropStrideOf; ///< atom -> stride of the crop's elements
                if (!directAxes(input, rec, done, croppedDimOf, cropStrideOf))
                    return std::nullopt;
                for (const auto& [atom, place] : m_place[i])
                    result.dimOfAtom[i][atom] = m_subs[std::size_t(place.var)][std::size_t(place.sub)].dim;
                for (std::size_t a = 0; a < value.storageAxes.size(); ++a) {
                    if (done[a])
                        continue;
                    const bool cropped = std::any_of(value.storageAxes[a].begin(), value.storageAxes[a].end(),
                        [&](int atom) { return croppedDimOf.count(atom) > 0; });
                    if (cropped) {
                        if (!croppedAxis(input, a, croppedDimOf, cropStrideOf, op, unit, rec.axes[a]))
                            return std::nullopt;
                        continue;
                    }
                    std::vector<int> dims;
                    for (int atom : value.storageAxes[a]) {
                        const auto it = m_place[i].find(atom);
                        if (it != m_place[i].end()) {
                            dims.push_back(m_subs[std::size_t(it->second.var)][std::size_t(it->second.sub)].dim);
                        } else if (value.atoms[std::size_t(atom)].raw != 1 && !m_broadcast[i].count(atom)) {
                            fail(0,
                                input.label + " axis " + std::to_string(a)
                                    + " is not indexed by the expression (only extent-1 axes may be left out)");
                            return std::nullopt;
                        }
                    }
                    if (dims.empty()) {
                        rec.axes[a] = { unit(), -1, 1 };
                    } else if (dims.size() == 1) {
                        rec.axes[a] = { dims[0], -1, 1 };
                    } else if (dims.size() == 2) {
                        // A merged axis (reshape): index = outer * extent(inner) + inner.
                        rec.axes[a] = { dims[0], dims[1], op.dims[std::size_t(dims[1])].extent.bound };
                    } else if (m_req.viewOnly) {
                        rec.axes[a] = { dims[0], -1, 1 }; // a scratch operator: only dimOfAtom is used
                    } else {
                        std::string names;
                        for (int d : dims)
                            names += (names.empty() ? "" : ", ") + op.dims[std::size_t(d)].name;
                        fail(0,
                            input.label + ": one axis of its tensor merges " + std::to_string(dims.size())
                                + " loop dimensions (" + names + "); at most two fit one axis");
                        return std::nullopt;
                    }
                }
                op.operands.push_back(rec);
                if (!settled(input))
                    settle(input);
            }
            m_program.storages.push_back(storage);
            result.op = int(m_program.ops.size());
            result.warnings = m_warnings;
            m_program.ops.push_back(std::move(op));
            return result;
        }

        // A storage axis holding several atoms, some read in part (a slice of a reshaped axis): the
        // read dims with their strides in the axis, as one plain or window axis. Offsets are not part
        // of the IR, so the operand may cover less than the tensor's axis (a Slice reads a region).
        template <typename Unit>
        bool croppedAxis(const InputSpec& input, std::size_t a, const std::map<int, int>& croppedDimOf,
            const std::map<int, std::int64_t>& cropStrideOf, const OpRec& op, Unit& unit, AxisRef& ref)
        {
            const Value& value = input.value;
            const auto& run = value.storageAxes[a];
            const std::size_t i = std::size_t(&input - m_req.inputs.data());
            std::vector<std::pair<int, std::int64_t>> reads; // (dim, stride in the axis), outer to inner
            std::int64_t inner = 1;
            for (std::size_t k = run.size(); k-- > 0;) {
                const int atom = run[k];
                int dim = -1;
                std::int64_t stride = 1;
                if (const auto c = croppedDimOf.find(atom); c != croppedDimOf.end()) {
                    dim = c->second;
                    stride = cropStrideOf.at(atom);
                } else if (const auto it = m_place[i].find(atom); it != m_place[i].end())
                    dim = m_subs[std::size_t(it->second.var)][std::size_t(it->second.sub)].dim;
                else if (value.atoms[std::size_t(atom)].raw != 1 && !m_broadcast[i].count(atom))
                    return fail(0,
                        input.label + " axis " + std::to_string(a)
                            + " is not indexed by the expression (only extent-1 axes may be left out)");
                if (dim >= 0 && op.dims[std::size_t(dim)].extent.bound > 1)
                    reads.insert(reads.begin(), { dim, checkedProduct(inner, stride) });
                inner = checkedProduct(inner, value.atoms[std::size_t(atom)].bound);
            }
            if (reads.empty()) {
                ref = { unit(), -1, 1 };
            } else if (reads.size() == 1 && reads[0].second == 1) {
                ref = { reads[0].first, -1, 1 };
            } else if (reads.size() == 1) {
                ref = { reads[0].first, unit(), reads[0].second };
            } else if (reads.size() == 2
                && checkedProduct(op.dims[std::size_t(reads[1].first)].extent.bound, reads[1].second)
                    <= reads[0].second) {
                // index = outer * s0 + inner * s1. The IR's window has s1 = 1: an inner part read at a
                // stride (retnet's even elements) is recorded as the same count read contiguously; a
                // Slice's operand states how much it reads, not which elements (as for offsets).
                ref = { reads[0].first, reads[1].first, reads[0].second };
            } else {
                return fail(0,
                    input.label + " axis " + std::to_string(a) + ": a slice of a reshaped axis reads "
                        + std::to_string(reads.size())
                        + " strided parts of it; at most an outer and the innermost part fit one axis");
            }
            return true;
        }

        // A new external's sequence extents follow the operator that first reads it (e.g. an
        // attention mask declared [.., 66, 66] is [.., 1, kv] in a decode step).
        void settle(const InputSpec& input)
        {
            Storage& storage = m_program.storages[std::size_t(input.value.storage)];
            storage.settled = true;
            for (std::size_t a = 0; a < input.value.storageAxes.size() && a < storage.axes.size(); ++a) {
                Atom merged { 1, false, 1, false };
                for (int atom : input.value.storageAxes[a]) {
                    const Atom& part = input.value.atoms[std::size_t(atom)];
                    merged.raw = checkedProduct(merged.raw, part.raw);
                    merged.bound = checkedProduct(merged.bound, part.bound);
                    merged.kv = merged.kv || part.kv;
                }
                storage.axes[a] = merged;
            }
        }

        Program& m_program;
        const Bindings& m_bindings;
        OpRequest& m_req;
        NodeError& m_error;
        std::vector<std::vector<SubDim>> m_subs;
        std::vector<std::map<int, Place>> m_place;
        std::vector<std::set<int>> m_broadcast; ///< per input: atoms read as broadcast (extent 1 in this run)
        std::vector<NodeError> m_warnings;
    };

} // namespace

std::optional<OpResult> buildOp(Program& program, const Bindings& bindings, OpRequest& request, NodeError& error)
{
    return Builder(program, bindings, request, error).run();
}

} // namespace elk::import::einstein
