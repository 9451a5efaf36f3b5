// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_lowering_impl.h"

#include <algorithm>
#include <numeric>

// Concatenations `a[..].when(N < 64, b[..])`: packed offline when every part is a weight, otherwise
// one copy operator reading every part once.

namespace elk::import::einstein::detail {

std::optional<Value> StatementLowering::lowerConcat(const std::vector<const Expr*>& parts)
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
    const std::int64_t unit = std::accumulate(
        sizes.begin(), sizes.end(), std::int64_t(0), [](std::int64_t g, std::int64_t s) { return std::gcd(g, s); });
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
                    const int q = addVar(
                        request.vars, joined.name + ".in" + std::to_string(p), sizes[p] / unit, sizes[p] / unit, true);
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
std::string StatementLowering::checkTiling(const std::vector<const Load*>& loads, std::size_t axis, int concatVar) const
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
std::optional<Value> StatementLowering::foldedWeight(const Load& first)
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

} // namespace elk::import::einstein::detail
