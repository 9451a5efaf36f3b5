// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_lowering.h"

#include "engine/import/einstein_binding.h"
#include "engine/import/einstein_index.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace elk::import::einstein {

std::optional<model::DType> dtypeFromEinstein(const std::string& name)
{
    using model::DType;
    static const std::pair<const char*, DType> kNames[] = { { "float32", DType::F32 }, { "float", DType::F32 },
        { "float16", DType::F16 }, { "half", DType::F16 }, { "bfloat16", DType::BF16 }, { "float64", DType::F64 },
        { "double", DType::F64 }, { "int64", DType::I64 }, { "int32", DType::I32 }, { "int16", DType::I16 },
        { "int8", DType::I8 }, { "char", DType::I8 }, { "uint8", DType::U8 }, { "bool", DType::Bool } };
    for (const auto& [text, dtype] : kNames) {
        if (name == text)
            return dtype;
    }
    return std::nullopt;
}

namespace {

    using model::OpKind;

    /// A tensor a statement can read: a node input or an earlier statement's result.
    struct Slot {
        Value value;
        model::DType dtype = model::DType::F32;
    };

    struct Load {
        const Expr* expr = nullptr;
        std::vector<IndexForm> forms;
    };

    /// CropView: a reshape of part of the axis (`covered` elements from `constant`), as when an
    /// export reshapes 2048 of a 4608-wide slice into 16 heads of 128.
    enum class FormKind { View, CropView, Affine1, Constant, Window, Unsupported };

    struct Classified {
        FormKind kind = FormKind::Unsupported;
        std::vector<Piece> pieces; ///< View, CropView
        std::int64_t covered = 0; ///< CropView
        int var = -1; ///< Affine1: the variable; Window: the outer (output) variable
        int varB = -1; ///< Window: the window variable
        std::int64_t multiplier = 1; ///< Affine1: stride; Window: stride
        std::int64_t constant = 0;
    };

    bool hasLoad(const Expr& e)
    {
        if (e.kind == ExprKind::Load)
            return true;
        return std::any_of(e.children.begin(), e.children.end(), [](const auto& c) { return hasLoad(*c); });
    }

    bool usesExp(const Expr& e)
    {
        if ((e.kind == ExprKind::Str || e.kind == ExprKind::Call) && e.text == "exp")
            return true;
        return std::any_of(e.children.begin(), e.children.end(), [](const auto& c) { return usesExp(*c); });
    }

    /// The value an expression stores, without casts and without `.when(cond, constant)` guards (the
    /// zero padding of convolutions). `cast` receives the dtype of an outermost cast.
    const Expr& strip(const Expr& e, std::string* cast = nullptr)
    {
        const Expr* current = &e;
        while (current->kind == ExprKind::Method && !current->children.empty()) {
            if (current->text == "cast") {
                if (cast && cast->empty() && current->children.size() > 1
                    && current->children[1]->kind == ExprKind::Str)
                    *cast = current->children[1]->text;
                current = current->children[0].get();
            } else if (current->text == "when" && current->children.size() == 3 && !hasLoad(*current->children[2])) {
                current = current->children[0].get();
            } else {
                break;
            }
        }
        return *current;
    }

    /// Parts of a concatenation `a[..].when(N < 64, b[..].when(N < 128, c[..]))`; empty if the
    /// expression is something else.
    std::vector<const Expr*> concatParts(const Expr& e)
    {
        const Expr& core = strip(e);
        if (core.kind == ExprKind::Load)
            return { &core };
        if (core.kind != ExprKind::Method || core.text != "when" || core.children.size() != 3)
            return {};
        const Expr& first = strip(*core.children[0]);
        if (first.kind != ExprKind::Load)
            return {};
        auto rest = concatParts(*core.children[2]);
        if (rest.empty())
            return {};
        rest.insert(rest.begin(), &first);
        return rest;
    }

    void collectFactors(const Expr& e, std::vector<const Expr*>& factors)
    {
        if (e.kind == ExprKind::Binary && e.text == "*") {
            collectFactors(*e.children[0], factors);
            collectFactors(*e.children[1], factors);
        } else {
            factors.push_back(&e);
        }
    }

    int addVar(std::vector<VarRec>& vars, std::string name, std::int64_t raw, std::int64_t bound, bool synthetic,
        std::size_t column = 0)
    {
        vars.push_back({ std::move(name), raw, bound, synthetic, column });
        return int(vars.size()) - 1;
    }

    // Reads n elements at a * t + c from a plain axis of m elements (bound numbers). The IR has no
    // offsets: a crop becomes a window over an extra dimension (consecutive blocks when the offset
    // allows), a zero padding a window on the output (`padded`).
    // `merged`: the axis is one atom of a storage axis that holds several (a reshaped axis); a crop
    // of it is then read in place, as a smaller operand extent (AxisSpec::crop).
    bool regionAxis(std::vector<VarRec>& vars, int target, std::int64_t n, std::int64_t m, std::int64_t a,
        std::int64_t c, AxisSpec& spec, OutputAxis* padded, NodeError& error, bool merged = false)
    {
        const std::string name = vars[std::size_t(target)].name; // a copy: addVar may reallocate `vars`
        spec.kind = AxisSpec::Kind::Direct;
        const bool fits = c >= 0 && checkedProduct(n - 1, a) + c + 1 <= m;
        if (fits && a == 1 && n == m) {
            spec.varA = target;
            spec.crop = merged; // whole, but its storage axis holds other atoms too
            return true;
        }
        if (fits && merged) {
            spec.varA = target;
            spec.stride = a;
            spec.crop = true;
            return true;
        }
        if (fits && a == 1 && m % n == 0 && c % n == 0) {
            spec.varA = addVar(vars, name + ".part", m / n, m / n, true);
            spec.varB = target;
            spec.blockStride = true;
            return true;
        }
        if (fits) {
            const std::int64_t rest = m - checkedProduct(n - 1, a);
            spec.varA = target;
            spec.varB = addVar(vars, name + ".offset", rest, rest, true);
            spec.stride = a;
            return true;
        }
        if (padded && a == 1 && c <= 0 && m - c <= n) {
            const std::int64_t raw = vars[std::size_t(target)].raw;
            const int source = addVar(vars, name + ".src", m, m, true);
            const int pad = addVar(vars, name + ".pad", n - m + 1, n - m + 1, true);
            spec.varA = source;
            spec.crop = merged;
            *padded = { { source, pad }, true, raw, n };
            return true;
        }
        error = { spec.column,
            "the index reads " + std::to_string(n) + " element(s) at offset " + std::to_string(c) + ", stride "
                + std::to_string(a) + " from an axis of " + std::to_string(m) + " element(s)" };
        return false;
    }

    /// View axis `j` is a single atom of a storage axis that holds several.
    bool insideMergedAxis(const Value& value, std::size_t j)
    {
        const auto& run = value.viewAxes[j];
        if (run.size() != 1)
            return false;
        const int axis = value.storageAxisOf(run[0]);
        return axis >= 0 && value.storageAxes[std::size_t(axis)].size() > 1;
    }

    class StatementLowering {
    public:
        StatementLowering(
            LoweringContext& context, std::map<std::string, Slot>& slots, const Statement& statement, NodeError& error)
            : m_ctx(context)
            , m_slots(slots)
            , m_stmt(statement)
            , m_error(error)
        {
        }

        std::optional<Value> run()
        {
            if (!collectLoads(*m_stmt.rhs) || !determineVars())
                return std::nullopt;
            std::string cast;
            const Expr& core = strip(*m_stmt.rhs, &cast);
            if (!cast.empty()) {
                const auto dtype = dtypeFromEinstein(cast);
                if (!dtype) {
                    fail(m_stmt.rhs->column, "unknown dtype `" + cast + "` in .cast(...)");
                    return std::nullopt;
                }
                m_castDtype = *dtype;
            }
            const auto parts = concatParts(*m_stmt.rhs);
            if (m_stmt.op == AssignOp::Assign && parts.size() > 1)
                return lowerConcat(parts);
            const bool gather = std::any_of(m_loads.begin(), m_loads.end(), [](const Load& load) {
                return std::any_of(
                    load.forms.begin(), load.forms.end(), [](const IndexForm& form) { return form.nestedLoad; });
            });
            if (m_stmt.op == AssignOp::Assign && core.kind == ExprKind::Load && !gather)
                return lowerCopy(loadOf(core));
            return lowerCompute(core);
        }

    private:
        bool fail(std::size_t column, std::string message)
        {
            m_error = { column, std::move(message) };
            return false;
        }

        const Load& loadOf(const Expr& e) const
        {
            for (const Load& load : m_loads) {
                if (load.expr == &e)
                    return load;
            }
            return m_loads.front(); // not reached: every load was collected
        }

        const Slot& slotOf(const Load& load) const { return m_slots.at(load.expr->text); }

        bool collectLoads(const Expr& e)
        {
            if (e.kind == ExprKind::Load) {
                const auto it = m_slots.find(e.text);
                if (it == m_slots.end()) {
                    if (e.text.rfind("output", 0) == 0)
                        return fail(e.column, e.text + " is written by this kernel and cannot be read in it");
                    if (e.text.rfind("input", 0) == 0 && m_ctx.kernel.inputs.count(e.text) == 0)
                        return fail(e.column,
                            e.text + " is not declared in input_dict (the node has "
                                + std::to_string(m_ctx.inputs.size()) + " input(s))");
                    return fail(e.column,
                        "unknown tensor " + e.text + " (the node has " + std::to_string(m_ctx.inputs.size())
                            + " input(s): input0..input" + std::to_string(int(m_ctx.inputs.size()) - 1) + ")");
                }
                Load load { &e, {} };
                for (const auto& index : e.children) {
                    IndexForm form = analyzeIndex(*index);
                    if (!form.supported)
                        return fail(form.column, form.why);
                    load.forms.push_back(std::move(form));
                }
                if (load.forms.size() != it->second.value.viewAxes.size())
                    return fail(e.column,
                        e.text + " has " + std::to_string(it->second.value.viewAxes.size()) + " axes "
                            + shapeText(it->second.value.viewShapeRaw()) + " but is indexed with "
                            + std::to_string(load.forms.size()));
                m_loads.push_back(std::move(load));
            }
            for (const auto& child : e.children) {
                if (!collectLoads(*child))
                    return false;
            }
            return true;
        }

        int varIndex(const std::string& name) const
        {
            const auto it = m_varIndex.find(name);
            return it == m_varIndex.end() ? -1 : it->second;
        }

        int declareVar(const std::string& name, std::size_t column)
        {
            if (const int existing = varIndex(name); existing >= 0)
                return existing;
            m_varIndex[name] = int(m_vars.size());
            return addVar(m_vars, name, 0, 0, false, column);
        }

        // Extents come from `where` clauses, else from the axes an index names plainly; names only
        // used inside arithmetic are solved from mixed-radix sums when possible.
        bool determineVars()
        {
            std::set<std::string> seen;
            for (const IndexName& index : m_stmt.outputIndices) {
                if (!seen.insert(index.name).second)
                    return fail(index.column, "index " + index.name + " appears twice in " + m_stmt.target + "[...]");
                m_outputVars.push_back(declareVar(index.name, index.column));
            }
            for (const Load& load : m_loads) {
                for (const IndexForm& form : load.forms) {
                    for (const IndexTerm& term : form.terms)
                        declareVar(term.var, term.column);
                }
            }
            std::vector<std::string> source(m_vars.size());
            for (const WhereClause& where : m_stmt.where) {
                const int v = varIndex(where.name);
                if (v < 0)
                    return fail(
                        where.column, "the where clause names " + where.name + ", which the statement does not use");
                if (where.extent <= 0 || where.extent > model::kMaxIterations)
                    return fail(where.column,
                        "the extent of " + where.name + " must be between 1 and 2^53, not "
                            + std::to_string(where.extent));
                if (!source[std::size_t(v)].empty())
                    return fail(where.column, "the where clause gives " + where.name + " twice");
                m_vars[std::size_t(v)].raw = where.extent;
                source[std::size_t(v)] = "the where clause";
            }
            // Where a where clause gives the extent, a plain use may still be a crop (`N + 0`).
            const std::vector<bool> fromWhere = [&] {
                std::vector<bool> flags(m_vars.size());
                for (std::size_t v = 0; v < m_vars.size(); ++v)
                    flags[v] = !source[v].empty();
                return flags;
            }();
            for (const Load& load : m_loads) {
                const Value& value = slotOf(load).value;
                for (std::size_t j = 0; j < load.forms.size(); ++j) {
                    const IndexForm& form = load.forms[j];
                    if (form.terms.size() != 1 || !form.terms[0].whole() || form.terms[0].multiplier != 1
                        || form.constant != 0)
                        continue;
                    const int v = varIndex(form.terms[0].var);
                    if (fromWhere[std::size_t(v)])
                        continue;
                    const std::int64_t extent = value.viewRaw(j);
                    const std::string here = load.expr->text + " axis " + std::to_string(j);
                    VarRec& var = m_vars[std::size_t(v)];
                    if (var.raw == 0) {
                        var.raw = extent;
                        source[std::size_t(v)] = here;
                    } else if (var.raw != extent) {
                        return fail(form.column,
                            "index " + var.name + " has extent " + std::to_string(var.raw) + " in "
                                + source[std::size_t(v)] + " but " + here + " has extent " + std::to_string(extent));
                    }
                }
            }
            for (bool progress = true; progress;) {
                progress = false;
                for (const Load& load : m_loads) {
                    const Value& value = slotOf(load).value;
                    for (std::size_t j = 0; j < load.forms.size(); ++j)
                        progress = solveSum(load.forms[j], value.viewRaw(j)) || progress;
                }
            }
            for (const VarRec& var : m_vars) {
                if (var.raw == 0)
                    return fail(var.column,
                        "the extent of index " + var.name
                            + " is not known: it only appears inside arithmetic; give it with 'where " + var.name
                            + " in N'");
            }
            return true;
        }

        // In `A * m + B` with B known and A not, A = extent / m.
        bool solveSum(const IndexForm& form, std::int64_t extent)
        {
            if (form.terms.size() < 2 || form.constant != 0)
                return false;
            int unknown = -1;
            std::int64_t top = 0;
            for (const IndexTerm& term : form.terms) {
                if (!term.whole() || term.multiplier <= 0)
                    return false;
                const int v = varIndex(term.var);
                if (m_vars[std::size_t(v)].raw == 0) {
                    if (unknown >= 0)
                        return false;
                    unknown = v;
                    top = term.multiplier;
                }
            }
            if (unknown < 0)
                return false;
            for (const IndexTerm& term : form.terms) {
                if (term.multiplier > top)
                    return false; // only the outermost term can be solved
            }
            if (extent % top != 0)
                return false;
            m_vars[std::size_t(unknown)].raw = extent / top;
            return true;
        }

        Classified classify(const IndexForm& form, std::int64_t axisRaw, bool windowAllowed) const
        {
            Classified c;
            c.constant = form.constant;
            if (form.nestedLoad)
                return c;
            if (form.terms.empty()) {
                c.kind = form.constant == 0 && axisRaw == 1 ? FormKind::View : FormKind::Constant;
                return c;
            }
            const std::set<int> outputs(m_outputVars.begin(), m_outputVars.end());
            auto isOutput = [&](const IndexTerm& term) { return outputs.count(varIndex(term.var)) > 0; };
            if (windowAllowed && form.terms.size() == 2 && form.terms[0].whole() && form.terms[1].whole()) {
                // h * stride + kh: h names an output position, kh a window offset summed over.
                const IndexTerm* a = &form.terms[0];
                const IndexTerm* b = &form.terms[1];
                if (b->multiplier != 1 || (a->multiplier == 1 && !isOutput(*a)))
                    std::swap(a, b);
                if (b->multiplier == 1 && a->multiplier >= 1 && isOutput(*a) && !isOutput(*b)) {
                    c.kind = FormKind::Window;
                    c.var = varIndex(a->var);
                    c.varB = varIndex(b->var);
                    c.multiplier = a->multiplier;
                    return c;
                }
            }
            // A reshape: mixed-radix digits of the variables, covering the axis exactly (or a part of it).
            {
                std::vector<IndexTerm> terms = form.terms;
                std::sort(terms.begin(), terms.end(),
                    [](const IndexTerm& x, const IndexTerm& y) { return x.multiplier > y.multiplier; });
                bool ok = true;
                std::int64_t expect = 1;
                std::vector<Piece> pieces(terms.size());
                for (std::size_t k = terms.size(); k-- > 0 && ok;) {
                    const IndexTerm& term = terms[k];
                    const std::int64_t varRaw = m_vars[std::size_t(varIndex(term.var))].raw;
                    std::int64_t size = term.modulus;
                    if (size == 0) {
                        ok = varRaw % term.divisor == 0;
                        size = ok ? varRaw / term.divisor : 1;
                    }
                    ok = ok && term.multiplier == expect && size >= 1;
                    pieces[k] = { varIndex(term.var), term.divisor, size };
                    expect = checkedProduct(expect, size);
                }
                if (ok && expect == axisRaw && form.constant == 0) {
                    c.kind = FormKind::View;
                    c.pieces = std::move(pieces);
                    return c;
                }
                const bool affine = form.terms.size() == 1 && form.terms[0].whole();
                if (ok && !affine && form.constant >= 0 && expect < axisRaw && expect + form.constant <= axisRaw) {
                    c.kind = FormKind::CropView;
                    c.pieces = std::move(pieces);
                    c.covered = expect;
                    return c;
                }
            }
            if (form.terms.size() == 1 && form.terms[0].whole() && form.terms[0].multiplier >= 1) {
                c.kind = FormKind::Affine1;
                c.var = varIndex(form.terms[0].var);
                c.multiplier = form.terms[0].multiplier;
            }
            return c;
        }

        std::string unsupportedText(const Load& load, std::size_t j) const
        {
            return "index " + toString(*load.expr->children[j]) + " of " + load.expr->text + " axis "
                + std::to_string(j) + " (extent " + std::to_string(slotOf(load).value.viewRaw(j))
                + ") is neither a reshape, a slice nor a window of that axis";
        }

        std::int64_t boundOf(const std::vector<VarRec>& vars, int v) const
        {
            const VarRec& var = vars[std::size_t(v)];
            if (var.synthetic)
                return var.bound;
            std::string why;
            return bindExtent(var.raw, false, m_ctx.bindings, why).value_or(1);
        }

        std::string outputName() const
        {
            const std::string base = "n" + std::to_string(m_ctx.node.id) + m_ctx.node.nameSuffix;
            return m_stmt.target == "output0" ? base : base + "." + m_stmt.target;
        }

        std::string opName(const std::string& suffix = {}) const
        {
            std::string name = m_ctx.node.opName;
            if (m_stmt.target != "output0")
                name += "." + m_stmt.target;
            return suffix.empty() ? name : name + "." + suffix;
        }

        std::vector<OutputAxis> plainOutputs() const
        {
            std::vector<OutputAxis> axes;
            for (int v : m_outputVars)
                axes.push_back({ { v }, false, 1, 1 });
            return axes;
        }

        InputSpec inputSpec(const Load& load) const
        {
            InputSpec spec;
            spec.label = load.expr->text;
            spec.value = slotOf(load).value;
            return spec;
        }

        std::optional<Value> build(OpRequest& request)
        {
            NodeError error;
            const auto built = buildOp(m_ctx.program, m_ctx.bindings, request, error);
            if (!built) {
                m_error = error;
                return std::nullopt;
            }
            m_ctx.warnings.insert(m_ctx.warnings.end(), built->warnings.begin(), built->warnings.end());
            return built->output;
        }

        // '=' of a single element: a view when it only regroups, reorders or broadcasts, otherwise a
        // data-movement operator (slice, strided read, fixed index, zero padding).
        std::optional<Value> lowerCopy(const Load& load)
        {
            const Value& value = slotOf(load).value;
            const std::set<int> outputs(m_outputVars.begin(), m_outputVars.end());
            std::vector<VarRec> vars = m_vars;
            std::vector<OutputAxis> outputAxes = plainOutputs();
            InputSpec input = inputSpec(load);
            bool view = true;
            std::vector<Classified> kinds;
            bool cropped = false;
            for (std::size_t j = 0; j < load.forms.size(); ++j) {
                const IndexForm& form = load.forms[j];
                for (const IndexTerm& term : form.terms) {
                    if (!outputs.count(varIndex(term.var))) {
                        fail(term.column,
                            "index " + term.var + " of " + load.expr->text + " is not in " + m_stmt.target
                                + "[...]; an '=' statement cannot sum over it (use +=!)");
                        return std::nullopt;
                    }
                }
                kinds.push_back(classify(form, value.viewRaw(j), false));
                cropped = cropped || kinds.back().kind == FormKind::CropView;
            }
            if (const auto wrapped = wrappedVar(kinds); wrapped >= 0)
                return lowerWrap(load, kinds, wrapped);
            if (cropped) {
                // Crop first (a data-movement operator), then regroup the cropped tensor as a view.
                int serial = 0;
                if (!presliceIfNeeded(load, kinds, input, serial))
                    return std::nullopt;
                for (std::size_t j = 0; j < kinds.size(); ++j) {
                    AxisSpec spec;
                    spec.column = load.forms[j].column;
                    spec.pieces = kinds[j].pieces;
                    input.axes.push_back(spec);
                }
                return viewOf(input);
            }
            for (std::size_t j = 0; j < load.forms.size(); ++j) {
                const IndexForm& form = load.forms[j];
                const Classified& c = kinds[j];
                AxisSpec spec;
                spec.column = form.column;
                if (c.kind == FormKind::View) {
                    spec.pieces = c.pieces;
                } else if (c.kind == FormKind::Affine1 || c.kind == FormKind::Constant) {
                    view = false;
                    const int target
                        = c.kind == FormKind::Affine1 ? c.var : addVar(vars, "unit" + std::to_string(j), 1, 1, true);
                    std::int64_t offset = c.constant;
                    const std::int64_t axisRaw = value.viewRaw(j);
                    VarRec& read = vars[std::size_t(target)];
                    if (m_ctx.node.type == "Slice" && c.kind == FormKind::Affine1 && c.multiplier == 1 && offset >= 0
                        && read.raw + offset > axisRaw && !decodeExtent(axisRaw).any()
                        && !decodeExtent(read.raw).any()) {
                        // Exports with slips: gemma2's RoPE slices take "N2 in 40" (llama2-13's head count)
                        // of 16 heads, read as 16 by the next node; its MLP slices take 36864 at offsets 0
                        // and 36864 of a 27648-wide product, read as 36864. The slice takes the extent
                        // its reader declares: clamped to what is there, or padded to the declared size.
                        const std::string what = read.name + " in " + std::to_string(read.raw) + " at offset "
                            + std::to_string(offset) + " reads past the end of " + load.expr->text + " axis "
                            + std::to_string(j) + " (extent " + std::to_string(axisRaw) + ")";
                        const auto position = std::find(m_outputVars.begin(), m_outputVars.end(), target);
                        const auto& hint = m_ctx.node.readerShape;
                        const std::size_t p = std::size_t(position - m_outputVars.begin());
                        if (offset < axisRaw && hint && m_stmt.target == "output0" && p < hint->size()
                            && (*hint)[p] == axisRaw - offset) {
                            m_ctx.warnings.push_back({ form.column,
                                what + "; clamped to " + std::to_string(axisRaw - offset)
                                    + ", as its reader declares" });
                            read.raw = axisRaw - offset;
                            read.bound = read.raw;
                        } else {
                            offset = std::max<std::int64_t>(0, axisRaw - read.raw);
                            m_ctx.warnings.push_back({ form.column,
                                what + "; taken as a copy of " + std::to_string(std::min(axisRaw, read.raw))
                                    + " element(s) from offset " + std::to_string(offset)
                                    + (read.raw > axisRaw ? ", zero-padded to the declared " + std::to_string(read.raw)
                                                          : std::string()) });
                        }
                    }
                    OutputAxis padded;
                    const std::int64_t m = value.viewShapeBound()[j];
                    if (!regionAxis(vars, target, boundOf(vars, target), m, c.multiplier, offset, spec,
                            c.kind == FormKind::Affine1 ? &padded : nullptr, m_error, insideMergedAxis(value, j)))
                        return std::nullopt;
                    for (OutputAxis& axis : outputAxes) {
                        if (padded.window && axis.vars.size() == 1 && axis.vars[0] == target)
                            axis = padded;
                    }
                } else {
                    fail(form.column, unsupportedText(load, j));
                    return std::nullopt;
                }
                input.axes.push_back(spec);
            }
            if (view)
                return viewOf(input);
            OpRequest request;
            request.opName = opName();
            request.kind = OpKind::Slice;
            request.vars = std::move(vars);
            request.inputs.push_back(std::move(input));
            request.output = std::move(outputAxes);
            request.outputName = outputName();
            request.outputDtype = slotOf(load).dtype;
            return build(request);
        }

        // An output variable whose digits read less than its extent (`N2 / 128 % 16, N2 % 128` with
        // N2 in 4608) reads its input over and over: no reshape, since the element counts differ.
        int wrappedVar(const std::vector<Classified>& kinds) const
        {
            std::map<int, std::int64_t> covered;
            for (const Classified& c : kinds) {
                if (c.kind != FormKind::View && c.kind != FormKind::CropView)
                    continue;
                for (const Piece& piece : c.pieces)
                    covered[piece.var] = std::max(covered[piece.var], checkedProduct(piece.divisor, piece.size));
            }
            for (const auto& [var, extent] : covered) {
                if (extent < m_vars[std::size_t(var)].raw)
                    return var;
            }
            return -1;
        }

        // The exports' GQA slips (gemma2 reshapes 16 x 128 attention outputs into the 4608 the output
        // projection expects; llama2-70 8 x 128 into 8192) become one copy operator that reads the
        // input once and writes the declared output: the data movement the graph states, without
        // pretending to be a view.
        std::optional<Value> lowerWrap(const Load& load, const std::vector<Classified>& kinds, int wrapped)
        {
            const Value& value = slotOf(load).value;
            OpRequest request;
            request.vars = m_vars;
            InputSpec input = inputSpec(load);
            for (std::size_t j = 0; j < kinds.size(); ++j) {
                const Classified& c = kinds[j];
                AxisSpec spec;
                spec.column = load.forms[j].column;
                const bool touches = std::any_of(
                    c.pieces.begin(), c.pieces.end(), [&](const Piece& piece) { return piece.var == wrapped; });
                if (c.kind != FormKind::View && !touches) {
                    fail(load.forms[j].column, unsupportedText(load, j));
                    return std::nullopt;
                }
                if (touches) {
                    const int t = addVar(request.vars, m_vars[std::size_t(wrapped)].name + ".read" + std::to_string(j),
                        value.viewRaw(j), 0, false, spec.column);
                    spec.pieces.push_back({ t, 1, value.viewRaw(j) });
                } else {
                    spec.pieces = c.pieces;
                }
                input.axes.push_back(spec);
            }
            const VarRec& var = m_vars[std::size_t(wrapped)];
            m_ctx.warnings.push_back({ var.column,
                var.name + " in " + std::to_string(var.raw) + " reads " + load.expr->text
                    + " through digits that cover fewer elements, so the input is read over and over; not a "
                      "reshape (the element counts differ), it becomes a copy operator writing the declared "
                      "output" });
            request.inputs.push_back(std::move(input));
            request.opName = opName();
            request.kind = OpKind::Slice;
            request.output = plainOutputs();
            request.outputName = outputName();
            request.outputDtype = slotOf(load).dtype;
            return build(request);
        }

        // A view: the new value regroups the atoms of the input; broadcast extents become atoms that
        // no storage axis holds. The binder works out the common splits on a scratch program.
        std::optional<Value> viewOf(const InputSpec& input)
        {
            Program scratch;
            scratch.storages = { m_ctx.program.storages[std::size_t(input.value.storage)] };
            OpRequest request;
            request.opName = "view";
            request.kind = OpKind::Slice;
            request.vars = m_vars;
            request.inputs.push_back(input);
            request.inputs.back().value.storage = 0;
            request.output = plainOutputs();
            request.outputName = "view";
            request.viewOnly = true;
            NodeError error;
            const auto built = buildOp(scratch, m_ctx.bindings, request, error);
            if (!built) {
                m_error = error;
                return std::nullopt;
            }
            const OpRec& op = scratch.ops.back();
            const Value& refined = request.inputs[0].value;
            Value result;
            result.storage = input.value.storage;
            result.atoms = refined.atoms;
            result.storageAxes = refined.storageAxes;
            // Which input atom each loop dim reads (extent-1 atoms are never read).
            std::map<int, int> atomOfDim;
            for (const auto& [atom, dim] : built->dimOfAtom.at(0))
                atomOfDim[dim] = atom;
            const OperandRec& out = op.operands[0];
            const Value& outValue = built->output;
            for (const auto& run : outValue.viewAxes) {
                std::vector<int> atoms;
                for (int outAtom : run) {
                    const int dim = out.axes[std::size_t(outAtom)].dim; // output storage axis k holds atom k
                    if (const auto it = atomOfDim.find(dim); it != atomOfDim.end()) {
                        atoms.push_back(it->second);
                        continue;
                    }
                    Atom broadcast = outValue.atoms[std::size_t(outAtom)];
                    broadcast.flexible = true;
                    atoms.push_back(int(result.atoms.size()));
                    result.atoms.push_back(broadcast);
                }
                result.viewAxes.push_back(atoms);
            }
            // A view of a not yet settled external leaves it unsettled; the refinement is kept.
            return result;
        }

        std::optional<Value> lowerConcat(const std::vector<const Expr*>& parts)
        {
            std::vector<const Load*> loads;
            for (const Expr* part : parts)
                loads.push_back(&loadOf(*part));
            // The joined axis is where a part's index carries an offset.
            const std::size_t rank = loads[0]->forms.size();
            int axis = -1;
            for (const Load* load : loads) {
                if (load->forms.size() != rank) {
                    fail(load->expr->column, "the parts of a concatenation must have the same rank");
                    return std::nullopt;
                }
                for (std::size_t j = 0; j < rank; ++j) {
                    if (load->forms[j].constant == 0)
                        continue;
                    if (axis >= 0 && axis != int(j)) {
                        fail(load->forms[j].column, "a concatenation joins along one axis only");
                        return std::nullopt;
                    }
                    axis = int(j);
                }
            }
            if (axis < 0) {
                fail(loads[0]->expr->column, "expected one part of the concatenation to read at an offset (N - 64)");
                return std::nullopt;
            }
            const IndexForm& head = loads[0]->forms[std::size_t(axis)];
            const int concatVar = head.terms.size() == 1 ? varIndex(head.terms[0].var) : -1;
            const bool weights = std::all_of(loads.begin(), loads.end(), [&](const Load* load) {
                const Storage& s = m_ctx.program.storages[std::size_t(slotOf(*load).value.storage)];
                return s.external && !s.placeholder && !s.kvCache;
            });
            if (weights && concatVar >= 0) {
                // Packed offline, so only the packed extent matters. Some exports declare parts that do
                // not tile it (gemma2's QKV: three 4608-wide parts at offsets 0, 4608, 10240 of 15360);
                // the consumers' extent is what the model computes with, as the artifact takes it.
                std::string tiling = checkTiling(loads, std::size_t(axis), concatVar);
                if (!tiling.empty())
                    m_ctx.warnings.push_back({ head.column,
                        tiling + "; the packed weight takes the declared extent "
                            + std::to_string(m_vars[std::size_t(concatVar)].raw) + " of "
                            + m_vars[std::size_t(concatVar)].name });
                return foldedWeight(*loads[0]);
            }
            std::int64_t offset = 0;
            std::vector<std::int64_t> sizes;
            for (const Load* load : loads) {
                const IndexForm& form = load->forms[std::size_t(axis)];
                if (concatVar < 0 || form.terms.size() != 1 || varIndex(form.terms[0].var) != concatVar
                    || form.terms[0].multiplier != 1 || !form.terms[0].whole()) {
                    fail(form.column, "expected every part of the concatenation to index its axis as N - offset");
                    return std::nullopt;
                }
                if (-form.constant != offset) {
                    fail(form.column,
                        "part " + load->expr->text + " starts at offset " + std::to_string(-form.constant)
                            + " but the parts before it end at " + std::to_string(offset));
                    return std::nullopt;
                }
                const std::int64_t size = slotOf(*load).value.viewRaw(std::size_t(axis));
                if (decodeExtent(size).any()) {
                    fail(form.column, "concatenation along a batch or sequence axis is not supported");
                    return std::nullopt;
                }
                sizes.push_back(size);
                offset += size;
            }
            const VarRec& joined = m_vars[std::size_t(concatVar)];
            if (offset != joined.raw) {
                fail(head.column,
                    "the parts of the concatenation add up to " + std::to_string(offset) + " but " + joined.name
                        + " has extent " + std::to_string(joined.raw));
                return std::nullopt;
            }
            // Activations: one copy operator, a Slice with k inputs. The joined axis is stored as
            // (part, element) so that every part is read with plain indices; a part longer than the
            // common size reads several parts.
            const std::int64_t unit = std::accumulate(sizes.begin(), sizes.end(), std::int64_t(0),
                [](std::int64_t g, std::int64_t s) { return std::gcd(g, s); });
            OpRequest request;
            std::vector<int> remap(m_vars.size(), -1);
            int partVar = -1;
            int elementVar = -1;
            for (std::size_t v = 0; v < m_vars.size(); ++v) {
                if (int(v) == concatVar) {
                    partVar = addVar(request.vars, joined.name + ".part", offset / unit, offset / unit, true);
                    elementVar = addVar(request.vars, joined.name + ".elem", unit, unit, true);
                    continue;
                }
                remap[v] = int(request.vars.size());
                request.vars.push_back(m_vars[v]);
            }
            for (int v : m_outputVars) {
                if (v == concatVar)
                    request.output.push_back({ { partVar, elementVar }, false, 1, 1 });
                else
                    request.output.push_back({ { remap[std::size_t(v)] }, false, 1, 1 });
            }
            for (std::size_t p = 0; p < loads.size(); ++p) {
                const Load& load = *loads[p];
                const Value& value = slotOf(load).value;
                InputSpec input = inputSpec(load);
                for (std::size_t j = 0; j < rank; ++j) {
                    AxisSpec spec;
                    spec.column = load.forms[j].column;
                    if (int(j) == axis) {
                        if (sizes[p] != unit) {
                            const int q = addVar(request.vars, joined.name + ".in" + std::to_string(p), sizes[p] / unit,
                                sizes[p] / unit, true);
                            spec.pieces.push_back({ q, 1, sizes[p] / unit });
                        }
                        spec.pieces.push_back({ elementVar, 1, unit });
                    } else {
                        const Classified c = classify(load.forms[j], value.viewRaw(j), false);
                        if (c.kind != FormKind::View) {
                            fail(load.forms[j].column, unsupportedText(load, j));
                            return std::nullopt;
                        }
                        for (Piece piece : c.pieces) {
                            piece.var = remap[std::size_t(piece.var)];
                            spec.pieces.push_back(piece);
                        }
                    }
                    input.axes.push_back(spec);
                }
                request.inputs.push_back(std::move(input));
            }
            request.opName = opName();
            request.kind = OpKind::Slice; // a copy from k sources: zero FLOPs, each part read once
            request.outputName = outputName();
            request.outputDtype = slotOf(*loads[0]).dtype;
            return build(request);
        }

        // Empty when the parts of a concatenation tile the joined axis; otherwise what is wrong.
        std::string checkTiling(const std::vector<const Load*>& loads, std::size_t axis, int concatVar) const
        {
            std::int64_t offset = 0;
            for (const Load* load : loads) {
                const IndexForm& form = load->forms[axis];
                if (form.terms.size() != 1 || varIndex(form.terms[0].var) != concatVar || form.terms[0].multiplier != 1
                    || !form.terms[0].whole())
                    return "part " + load->expr->text + " does not index the joined axis as N - offset";
                if (-form.constant != offset)
                    return "part " + load->expr->text + " starts at offset " + std::to_string(-form.constant)
                        + " but the parts before it end at " + std::to_string(offset);
                offset += slotOf(*load).value.viewRaw(axis);
            }
            if (offset != m_vars[std::size_t(concatVar)].raw)
                return "the parts add up to " + std::to_string(offset);
            return {};
        }

        // Concatenated weights (fused QKV, gate/up) are packed once, offline: one weight tensor.
        std::optional<Value> foldedWeight(const Load& first)
        {
            Storage storage;
            storage.name = outputName();
            storage.dtype = slotOf(first).dtype;
            storage.external = true;
            for (int v : m_outputVars) {
                const VarRec& var = m_vars[std::size_t(v)];
                std::string why;
                const auto bound = bindExtent(var.raw, false, m_ctx.bindings, why);
                if (!bound) {
                    fail(var.column, "index " + var.name + ": " + why);
                    return std::nullopt;
                }
                storage.axes.push_back({ var.raw, false, *bound, false });
            }
            const int id = int(m_ctx.program.storages.size());
            m_ctx.program.storages.push_back(storage);
            return plainValue(id, storage.axes);
        }

        // A sub-tensor read (offset, stride, fixed index, zero padding) inside a computing statement
        // becomes its own data-movement operator; the statement then reads the result plainly.
        bool presliceIfNeeded(const Load& load, std::vector<Classified>& kinds, InputSpec& input, int& serial)
        {
            bool needed = false;
            for (std::size_t j = 0; j < kinds.size(); ++j) {
                const Classified& c = kinds[j];
                needed = needed || c.kind == FormKind::Affine1 || c.kind == FormKind::Constant
                    || c.kind == FormKind::CropView;
                if (c.kind == FormKind::Window) {
                    const std::int64_t windowRaw = checkedProduct(m_vars[std::size_t(c.var)].raw - 1, c.multiplier)
                        + m_vars[std::size_t(c.varB)].raw;
                    needed = needed || c.constant != 0 || windowRaw != input.value.viewRaw(j);
                }
            }
            if (!needed)
                return true;
            const Value& value = input.value;
            const auto boundShape = value.viewShapeBound();
            const std::string suffix = load.expr->text + ".read" + std::to_string(serial++);
            OpRequest request;
            request.opName = opName(suffix);
            request.outputName = outputName() + "." + suffix;
            request.kind = OpKind::Slice;
            request.outputDtype = slotOf(load).dtype;
            InputSpec source = input;
            source.axes.clear();
            for (std::size_t j = 0; j < kinds.size(); ++j) {
                const Classified& c = kinds[j];
                const std::string name = "s" + std::to_string(j);
                AxisSpec spec;
                spec.column = load.forms[j].column;
                if (c.kind == FormKind::View) {
                    // Untouched axes (reshapes included) keep their pieces; one variable per axis.
                    const int t = addVar(request.vars, name, value.viewRaw(j), 0, false, spec.column);
                    spec.pieces.push_back({ t, 1, value.viewRaw(j) });
                    source.axes.push_back(spec);
                    request.output.push_back({ { t }, false, 1, 1 });
                    continue;
                }
                int target = -1;
                std::int64_t stride = 1;
                if (c.kind == FormKind::Affine1) {
                    target = addVar(request.vars, name, m_vars[std::size_t(c.var)].raw, 0, false, spec.column);
                    stride = c.multiplier;
                } else if (c.kind == FormKind::Constant) {
                    target = addVar(request.vars, name, 1, 1, true, spec.column);
                } else if (c.kind == FormKind::CropView) {
                    std::string why;
                    const auto bound = bindExtent(c.covered, false, m_ctx.bindings, why);
                    if (!bound || decodeExtent(c.covered).any())
                        return fail(spec.column,
                            load.expr->text + " axis " + std::to_string(j)
                                + ": a reshape of part of an axis must not cover a batch or sequence extent");
                    target = addVar(request.vars, name, c.covered, *bound, true, spec.column);
                } else { // the window's input axis, padded or cropped to what the window reads
                    const std::int64_t raw = checkedProduct(m_vars[std::size_t(c.var)].raw - 1, c.multiplier)
                        + m_vars[std::size_t(c.varB)].raw;
                    const std::int64_t bound
                        = checkedProduct(boundOf(m_vars, c.var) - 1, c.multiplier) + boundOf(m_vars, c.varB);
                    target = addVar(request.vars, name, raw, bound, true, spec.column);
                }
                OutputAxis out { { target }, false, 1, 1 };
                if (!regionAxis(request.vars, target, boundOf(request.vars, target), boundShape[j], stride, c.constant,
                        spec, &out, m_error, insideMergedAxis(value, j)))
                    return false;
                source.axes.push_back(spec);
                request.output.push_back(out);
            }
            request.inputs.push_back(std::move(source));
            const auto sliced = build(request);
            if (!sliced)
                return false;
            // The statement now reads the sub-tensor: offsets are gone, windows start at 0.
            input.value = *sliced;
            for (Classified& c : kinds) {
                if (c.kind == FormKind::Affine1) {
                    c.kind = FormKind::View;
                    c.pieces = { Piece { c.var, 1, m_vars[std::size_t(c.var)].raw } };
                } else if (c.kind == FormKind::Constant) {
                    c.kind = FormKind::View;
                    c.pieces.clear();
                } else if (c.kind == FormKind::Window) {
                    c.constant = 0;
                } else if (c.kind == FormKind::CropView) {
                    c.kind = FormKind::View;
                    c.constant = 0;
                }
            }
            return true;
        }

        std::optional<Value> lowerCompute(const Expr& core)
        {
            const bool reduce = m_stmt.op != AssignOp::Assign;
            const std::set<int> outputs(m_outputVars.begin(), m_outputVars.end());
            bool hasReductionVar = false;
            for (std::size_t v = 0; v < m_vars.size(); ++v)
                hasReductionVar = hasReductionVar || !outputs.count(int(v));
            if (!reduce && hasReductionVar) {
                for (std::size_t v = 0; v < m_vars.size(); ++v) {
                    if (!outputs.count(int(v))) {
                        fail(m_vars[v].column,
                            "index " + m_vars[v].name + " is not in " + m_stmt.target
                                + "[...]; an '=' statement cannot sum over it (use +=!)");
                        return std::nullopt;
                    }
                }
            }
            // Distinct operands: a tensor read with the same indices twice is one operand.
            std::vector<const Load*> operands;
            std::map<const Expr*, int> operandOf;
            const Load* gatherTable = nullptr;
            for (const Load& load : m_loads) {
                const std::string text = toString(*load.expr);
                int index = -1;
                for (std::size_t k = 0; k < operands.size(); ++k) {
                    if (toString(*operands[k]->expr) == text)
                        index = int(k);
                }
                if (index < 0) {
                    index = int(operands.size());
                    operands.push_back(&load);
                }
                operandOf[load.expr] = index;
                for (const IndexForm& form : load.forms) {
                    if (form.nestedLoad)
                        gatherTable = &load;
                }
            }
            if (operands.empty()) {
                fail(m_stmt.rhs->column, "the statement reads no tensor");
                return std::nullopt;
            }
            OpKind kind = reduce ? OpKind::Reduce : operands.size() == 1 ? OpKind::Unary : OpKind::Elementwise;
            bool twoStep = false;
            if (gatherTable) {
                if (&core != gatherTable->expr || operands.size() != 2 || reduce) {
                    fail(core.column, "a gather must be output0[...] = table[indices[...], ...] and nothing more");
                    return std::nullopt;
                }
                kind = OpKind::Gather;
            } else if (reduce) {
                // A product of two different tensors summed over shared indices is a matrix product.
                std::vector<const Expr*> factors;
                collectFactors(core, factors);
                std::vector<int> factorOperands;
                bool product = true;
                for (const Expr* factor : factors) {
                    if (!hasLoad(*factor))
                        continue;
                    std::set<int> used;
                    for (const Load& load : m_loads) {
                        if (contains(*factor, load.expr))
                            used.insert(operandOf[load.expr]);
                    }
                    product = product && used.size() == 1;
                    factorOperands.push_back(*used.begin());
                }
                if (product && operands.size() == 2 && factorOperands.size() == 2
                    && factorOperands[0] != factorOperands[1] && hasReductionVar && m_stmt.op == AssignOp::Sum) {
                    kind = OpKind::MatMul;
                } else if (!hasReductionVar) {
                    kind = operands.size() == 1 ? OpKind::Unary : OpKind::Elementwise;
                } else if (operands.size() > 1) {
                    twoStep = true;
                }
            }
            const bool windowAllowed = reduce && !twoStep && kind != OpKind::Gather;
            bool hasWindow = false;
            std::vector<VarRec> vars = m_vars;
            std::vector<InputSpec> inputs;
            int serial = 0;
            for (const Load* load : operands) {
                std::vector<Classified> kinds;
                const Value& value = slotOf(*load).value;
                for (std::size_t j = 0; j < load->forms.size(); ++j) {
                    if (load->forms[j].nestedLoad) {
                        // The gathered axis is read at data-dependent rows: a dimension of its own.
                        Classified c;
                        c.kind = FormKind::View;
                        const std::int64_t extent = value.viewRaw(j);
                        const int g = addVar(vars, load->expr->text + ".row", extent, value.viewShapeBound()[j], true);
                        c.pieces = { Piece { g, 1, extent } };
                        kinds.push_back(c);
                        continue;
                    }
                    kinds.push_back(classify(load->forms[j], value.viewRaw(j), windowAllowed));
                    if (kinds.back().kind == FormKind::Unsupported) {
                        fail(load->forms[j].column, unsupportedText(*load, j));
                        return std::nullopt;
                    }
                    hasWindow = hasWindow || kinds.back().kind == FormKind::Window;
                }
                InputSpec input = inputSpec(*load);
                if (!presliceIfNeeded(*load, kinds, input, serial))
                    return std::nullopt;
                for (std::size_t j = 0; j < kinds.size(); ++j) {
                    AxisSpec spec;
                    spec.column = load->forms[j].column;
                    if (kinds[j].kind == FormKind::Window) {
                        spec.kind = AxisSpec::Kind::Direct;
                        spec.varA = kinds[j].var;
                        spec.varB = kinds[j].varB;
                        spec.stride = kinds[j].multiplier;
                    } else {
                        spec.pieces = kinds[j].pieces;
                    }
                    input.axes.push_back(spec);
                }
                inputs.push_back(std::move(input));
            }
            if (hasWindow)
                kind = kind == OpKind::MatMul ? OpKind::Conv : kind == OpKind::Reduce ? OpKind::Pool : kind;
            const model::DType dtype = m_castDtype.value_or(slotOf(*operands[0]).dtype);
            const ReduceOp reduceOp = m_stmt.op == AssignOp::Sum ? ReduceOp::Sum
                : m_stmt.op == AssignOp::Max                     ? ReduceOp::Max
                : m_stmt.op == AssignOp::Min                     ? ReduceOp::Min
                : m_stmt.op == AssignOp::Product                 ? ReduceOp::Product
                                                                 : ReduceOp::None;
            std::string top = core.kind == ExprKind::Binary ? core.text : "";
            if (twoStep) {
                // sum(f(a, b)): the elementwise f over every loop variable first, then the reduction.
                OpRequest pre;
                pre.opName = opName("map");
                pre.kind = OpKind::Elementwise;
                pre.vars = vars;
                for (std::size_t v = 0; v < m_vars.size(); ++v)
                    pre.output.push_back({ { int(v) }, false, 1, 1 });
                pre.inputs = std::move(inputs);
                pre.outputName = outputName() + ".map";
                pre.outputDtype = dtype;
                pre.usesExp = usesExp(core);
                pre.topOperator = top;
                const auto mapped = build(pre);
                if (!mapped)
                    return std::nullopt;
                InputSpec whole;
                whole.label = m_stmt.target + " (mapped)";
                whole.value = *mapped;
                for (std::size_t v = 0; v < m_vars.size(); ++v) {
                    AxisSpec spec;
                    spec.pieces = { Piece { int(v), 1, m_vars[v].raw } };
                    whole.axes.push_back(spec);
                }
                inputs.clear();
                inputs.push_back(std::move(whole));
                kind = OpKind::Reduce;
                top.clear();
            }
            OpRequest request;
            request.opName = opName();
            request.kind = kind;
            request.vars = std::move(vars);
            request.inputs = std::move(inputs);
            request.output = plainOutputs();
            request.outputName = outputName();
            request.outputDtype = dtype;
            request.attention = kind == OpKind::MatMul;
            request.reduce = reduceOp;
            request.usesExp = !twoStep && usesExp(core);
            request.topOperator = top;
            return build(request);
        }

        static bool contains(const Expr& e, const Expr* target)
        {
            if (&e == target)
                return true;
            return std::any_of(
                e.children.begin(), e.children.end(), [&](const auto& c) { return contains(*c, target); });
        }

        LoweringContext& m_ctx;
        std::map<std::string, Slot>& m_slots;
        const Statement& m_stmt;
        NodeError& m_error;
        std::vector<Load> m_loads;
        std::vector<VarRec> m_vars;
        std::map<std::string, int> m_varIndex;
        std::vector<int> m_outputVars;
        std::optional<model::DType> m_castDtype;
    };

} // namespace

std::optional<Value> lowerNode(LoweringContext& context, NodeError& error)
{
    const Kernel& kernel = context.kernel;
    const std::size_t inputCount = context.inputs.size();
    for (const auto& [name, decl] : kernel.inputs) {
        if (name.rfind("output", 0) == 0)
            continue; // some exporters declare the output too; its shape follows from the expression
        const bool numbered = name.size() > 5 && name.size() < 12 && name.rfind("input", 0) == 0
            && std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!numbered || std::stoull(name.substr(5)) >= inputCount) {
            error = { decl.column,
                "input_dict declares " + name + ", but the node has " + std::to_string(inputCount) + " input(s)"
                    + (inputCount ? " (input0..input" + std::to_string(inputCount - 1) + ")" : "") };
            return std::nullopt;
        }
    }
    std::map<std::string, Slot> slots;
    context.createdExternals.assign(inputCount, std::nullopt);
    for (std::size_t k = 0; k < inputCount; ++k) {
        const std::string name = "input" + std::to_string(k);
        const auto declIt = kernel.inputs.find(name);
        const NodeInput& input = context.inputs[k];
        if (declIt == kernel.inputs.end()) {
            if (input.value) {
                Slot slot;
                slot.value = *input.value;
                slot.dtype = context.program.storages[std::size_t(input.value->storage)].dtype;
                slots[name] = slot;
            }
            continue; // a new external that is never declared cannot be read (reported where it is)
        }
        const InputDecl& decl = declIt->second;
        const auto dtype = dtypeFromEinstein(decl.dtype);
        if (!dtype) {
            error = { decl.column, "unknown dtype \"" + decl.dtype + "\" of " + name };
            return std::nullopt;
        }
        Slot slot;
        slot.dtype = *dtype;
        if (input.value) {
            const auto actual = input.value->viewShapeRaw();
            if (actual != decl.shape) {
                error = { decl.column,
                    name + " is " + input.description + " of shape " + shapeText(actual) + ", but input_dict declares "
                        + shapeText(decl.shape) };
                return std::nullopt;
            }
            slot.value = *input.value;
            slot.dtype = context.program.storages[std::size_t(input.value->storage)].dtype;
            slots[name] = slot;
            continue;
        }
        Storage storage;
        storage.name = input.externalName;
        storage.dtype = *dtype;
        storage.external = true;
        storage.settled = false;
        for (std::size_t a = 0; a < decl.shape.size(); ++a) {
            const std::int64_t raw = decl.shape[a];
            if (raw <= 0) {
                error = { decl.column,
                    name + " axis " + std::to_string(a) + " has extent " + std::to_string(raw)
                        + "; extents must be at least 1" };
                return std::nullopt;
            }
            std::string why;
            const auto bound = bindExtent(raw, false, context.bindings, why);
            if (!bound) {
                error = { decl.column, name + " axis " + std::to_string(a) + ": " + why };
                return std::nullopt;
            }
            storage.axes.push_back({ raw, false, *bound, false });
            storage.placeholder = storage.placeholder || decodeExtent(raw).any();
        }
        const int id = int(context.program.storages.size());
        context.program.storages.push_back(storage);
        slot.value = plainValue(id, storage.axes);
        context.createdExternals[k] = slot.value;
        slots[name] = slot;
    }
    std::optional<Value> output;
    for (const Statement& statement : kernel.statements) {
        if (statement.target.rfind("input", 0) == 0) {
            error = { statement.targetColumn, statement.target + " is an input and cannot be written" };
            return std::nullopt;
        }
        if (statement.target.rfind("output", 0) == 0 && statement.target != "output0") {
            error = { statement.targetColumn,
                "only output0 is supported (a node has one output), not " + statement.target };
            return std::nullopt;
        }
        if (statement.target == "output0" && output) {
            error = { statement.targetColumn, "output0 is written twice" };
            return std::nullopt;
        }
        StatementLowering lowering(context, slots, statement, error);
        auto value = lowering.run();
        if (!value)
            return std::nullopt;
        if (statement.target == "output0") {
            output = *value;
        } else {
            Slot temp;
            temp.value = *value;
            temp.dtype = context.program.storages[std::size_t(value->storage)].dtype;
            slots[statement.target] = temp;
        }
    }
    if (!output) {
        error = { 1, "the kernel never writes output0" };
        return std::nullopt;
    }
    return output;
}

} // namespace elk::import::einstein
