// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_lowering_impl.h"

#include <algorithm>
#include <set>

// Computing statements: the operator kind (elementwise, reduction, matrix product, convolution,
// pooling, gather) is read off the expression and the way its loads are indexed.

namespace elk::import::einstein::detail {

namespace {

    bool usesExp(const Expr& e)
    {
        if ((e.kind == ExprKind::Str || e.kind == ExprKind::Call) && e.text == "exp")
            return true;
        return std::any_of(e.children.begin(), e.children.end(), [](const auto& c) { return usesExp(*c); });
    }

    ReduceOp reduceOpOf(AssignOp op)
    {
        switch (op) {
        case AssignOp::Sum:
            return ReduceOp::Sum;
        case AssignOp::Max:
            return ReduceOp::Max;
        case AssignOp::Min:
            return ReduceOp::Min;
        case AssignOp::Product:
            return ReduceOp::Product;
        default:
            return ReduceOp::None;
        }
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

} // namespace

/// A product of two factors that each read one operand, two different ones: summed over shared indices,
/// a matrix product.
bool StatementLowering::isProductOfTwo(const Expr& core, const std::map<const Expr*, int>& operandOf) const
{
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
                used.insert(operandOf.at(load.expr));
        }
        product = product && used.size() == 1;
        factorOperands.push_back(*used.begin());
    }
    return product && factorOperands.size() == 2 && factorOperands[0] != factorOperands[1];
}

std::optional<Value> StatementLowering::lowerCompute(const Expr& core)
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
        if (operands.size() == 2 && isProductOfTwo(core, operandOf) && hasReductionVar && m_stmt.op == AssignOp::Sum) {
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
    const ReduceOp reduceOp = reduceOpOf(m_stmt.op);
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

bool StatementLowering::contains(const Expr& e, const Expr* target)
{
    if (&e == target)
        return true;
    return std::any_of(e.children.begin(), e.children.end(), [&](const auto& c) { return contains(*c, target); });
}

} // namespace elk::import::einstein::detail
