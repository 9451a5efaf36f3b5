// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_lowering_impl.h"

#include <algorithm>
#include <set>

// How a statement's indices are read: the loads it makes, the extents of its index names, and what
// each load index does to its axis (a reshape, a slice, a window).

namespace elk::import::einstein::detail {

bool StatementLowering::collectLoads(const Expr& e)
{
    if (e.kind == ExprKind::Load) {
        const auto it = m_slots.find(e.text);
        if (it == m_slots.end()) {
            if (e.text.rfind("output", 0) == 0)
                return fail(e.column, e.text + " is written by this kernel and cannot be read in it");
            if (e.text.rfind("input", 0) == 0 && m_ctx.kernel.inputs.count(e.text) == 0)
                return fail(e.column,
                    e.text + " is not declared in input_dict (the node has " + std::to_string(m_ctx.inputs.size())
                        + " input(s))");
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

void StatementLowering::pickSingleRows()
{
    // A gather by a one-element index tensor whose index the output drops
    // (`output0[N0, N1] = input0[N0, G3, N1] g input1[N2]`, a ViT class-token pick) takes one slice
    // of the table: N2 runs over one position only, so it reads position 0 and is no loop variable
    // (left in, an '=' statement would have to sum over it).
    std::set<std::string> outputs;
    for (const IndexName& index : m_stmt.outputIndices)
        outputs.insert(index.name);
    std::set<const Expr*> indexTensors;
    for (const Load& load : m_loads)
        for (const IndexForm& form : load.forms)
            if (form.nestedLoad)
                indexTensors.insert(form.nestedLoad);
    for (Load& load : m_loads) {
        if (!indexTensors.count(load.expr))
            continue;
        const Value& value = slotOf(load).value;
        for (std::size_t j = 0; j < load.forms.size(); ++j) {
            IndexForm& form = load.forms[j];
            if (form.terms.size() == 1 && form.terms[0].whole() && form.terms[0].multiplier == 1 && form.constant == 0
                && !outputs.count(form.terms[0].var) && value.viewRaw(j) == 1)
                form.terms.clear();
        }
    }
}

int StatementLowering::varIndex(const std::string& name) const
{
    const auto it = m_varIndex.find(name);
    return it == m_varIndex.end() ? -1 : it->second;
}

int StatementLowering::declareVar(const std::string& name, std::size_t column)
{
    if (const int existing = varIndex(name); existing >= 0)
        return existing;
    m_varIndex[name] = int(m_vars.size());
    return addVar(m_vars, name, 0, 0, false, column);
}

// Extents come from `where` clauses, else from the axes an index names plainly; names only
// used inside arithmetic are solved from mixed-radix sums when possible.
bool StatementLowering::determineVars()
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
            return fail(where.column, "the where clause names " + where.name + ", which the statement does not use");
        if (where.extent <= 0 || where.extent > model::kMaxIterations)
            return fail(where.column,
                "the extent of " + where.name + " must be between 1 and 2^53, not " + std::to_string(where.extent));
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
            if (form.terms.size() != 1 || !form.terms[0].whole() || form.terms[0].multiplier != 1 || form.constant != 0)
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
                    "index " + var.name + " has extent " + std::to_string(var.raw) + " in " + source[std::size_t(v)]
                        + " but " + here + " has extent " + std::to_string(extent));
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
                    + " is not known: it only appears inside arithmetic; give it with 'where " + var.name + " in N'");
    }
    return true;
}

// In `A * m + B` with B known and A not, A = extent / m.
bool StatementLowering::solveSum(const IndexForm& form, std::int64_t extent)
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

Classified StatementLowering::classify(const IndexForm& form, std::int64_t axisRaw, bool windowAllowed) const
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

std::string StatementLowering::unsupportedText(const Load& load, std::size_t j) const
{
    return "index " + toString(*load.expr->children[j]) + " of " + load.expr->text + " axis " + std::to_string(j)
        + " (extent " + std::to_string(slotOf(load).value.viewRaw(j))
        + ") is neither a reshape, a slice nor a window of that axis";
}

} // namespace elk::import::einstein::detail
