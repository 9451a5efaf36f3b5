// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_lowering_impl.h"

#include <algorithm>
#include <set>

// Data movement: '=' statements that copy one tensor (views, slices, fixed indices, zero paddings,
// wrapped reads), and the sub-tensor reads that computing statements slice off first.

namespace elk::import::einstein::detail {

namespace {

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

} // namespace

// '=' of a single element: a view when it only regroups, reorders or broadcasts, otherwise a
// data-movement operator (slice, strided read, fixed index, zero padding).
std::optional<Value> StatementLowering::lowerCopy(const Load& load)
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
                && read.raw + offset > axisRaw && !decodeExtent(axisRaw).any() && !decodeExtent(read.raw).any()) {
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
                        what + "; clamped to " + std::to_string(axisRaw - offset) + ", as its reader declares" });
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
int StatementLowering::wrappedVar(const std::vector<Classified>& kinds) const
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
std::optional<Value> StatementLowering::lowerWrap(const Load& load, const std::vector<Classified>& kinds, int wrapped)
{
    const Value& value = slotOf(load).value;
    OpRequest request;
    request.vars = m_vars;
    InputSpec input = inputSpec(load);
    for (std::size_t j = 0; j < kinds.size(); ++j) {
        const Classified& c = kinds[j];
        AxisSpec spec;
        spec.column = load.forms[j].column;
        const bool touches
            = std::any_of(c.pieces.begin(), c.pieces.end(), [&](const Piece& piece) { return piece.var == wrapped; });
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
std::optional<Value> StatementLowering::viewOf(const InputSpec& input)
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

// A sub-tensor read (offset, stride, fixed index, zero padding) inside a computing statement
// becomes its own data-movement operator; the statement then reads the result plainly.
bool StatementLowering::presliceIfNeeded(
    const Load& load, std::vector<Classified>& kinds, InputSpec& input, int& serial)
{
    bool needed = false;
    for (std::size_t j = 0; j < kinds.size(); ++j) {
        const Classified& c = kinds[j];
        needed = needed || c.kind == FormKind::Affine1 || c.kind == FormKind::Constant || c.kind == FormKind::CropView;
        if (c.kind == FormKind::Window) {
            const std::int64_t windowRaw
                = checkedProduct(m_vars[std::size_t(c.var)].raw - 1, c.multiplier) + m_vars[std::size_t(c.varB)].raw;
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
            const std::int64_t raw
                = checkedProduct(m_vars[std::size_t(c.var)].raw - 1, c.multiplier) + m_vars[std::size_t(c.varB)].raw;
            const std::int64_t bound
                = checkedProduct(boundOf(m_vars, c.var) - 1, c.multiplier) + boundOf(m_vars, c.varB);
            target = addVar(request.vars, name, raw, bound, true, spec.column);
        }
        OutputAxis out { { target }, false, 1, 1 };
        if (!regionAxis(request.vars, target, boundOf(request.vars, target), boundShape[j], stride, c.constant, spec,
                &out, m_error, insideMergedAxis(value, j)))
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

} // namespace elk::import::einstein::detail
