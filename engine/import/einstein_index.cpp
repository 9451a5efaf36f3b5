// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_index.h"

#include "engine/model/tensor_expr.h"

#include <cstdlib>

namespace elk::import::einstein {

namespace {

    // Index arithmetic stays within ±2^53, so sums and products below never overflow int64.
    constexpr std::int64_t kLimit = model::kMaxIterations;

    bool inRange(std::int64_t value)
    {
        return value >= -kLimit && value <= kLimit;
    }

    IndexForm unsupported(const Expr& at, std::string why)
    {
        IndexForm form;
        form.supported = false;
        form.column = at.column;
        form.why = std::move(why);
        return form;
    }

    bool constantOnly(const IndexForm& form)
    {
        return form.supported && !form.nestedLoad && form.terms.empty();
    }

    // The form must be exactly one term with multiplier 1 and no constant, for / and %.
    bool singleBareTerm(const IndexForm& form)
    {
        return form.supported && !form.nestedLoad && form.terms.size() == 1 && form.terms[0].multiplier == 1
            && form.constant == 0;
    }

} // namespace

IndexForm analyzeIndex(const Expr& expr)
{
    IndexForm form;
    form.column = expr.column;
    switch (expr.kind) {
    case ExprKind::Number:
        if (!expr.isInteger)
            return unsupported(expr, "an index must be an integer, not " + expr.text);
        if (!inRange(expr.integer))
            return unsupported(expr, "index constant " + expr.text + " is larger than 2^53");
        form.constant = expr.integer;
        return form;
    case ExprKind::Name:
        form.terms.push_back({ expr.text, 1, 0, 1, expr.column });
        return form;
    case ExprKind::Load:
        form.nestedLoad = &expr;
        return form;
    case ExprKind::Unary: {
        IndexForm inner = analyzeIndex(*expr.children[0]);
        if (!inner.supported || inner.nestedLoad)
            return inner.supported ? unsupported(expr, "a tensor element cannot be negated in an index") : inner;
        if (expr.text == "-") {
            for (auto& term : inner.terms)
                term.multiplier = -term.multiplier;
            inner.constant = -inner.constant;
        } else if (expr.text != "+") {
            return unsupported(expr, "operator " + expr.text + " is not allowed in an index");
        }
        inner.column = expr.column;
        return inner;
    }
    case ExprKind::Binary: {
        IndexForm a = analyzeIndex(*expr.children[0]);
        IndexForm b = analyzeIndex(*expr.children[1]);
        if (!a.supported)
            return a;
        if (!b.supported)
            return b;
        const std::string& op = expr.text;
        if (a.nestedLoad || b.nestedLoad)
            return unsupported(expr, "a tensor element used as an index can only stand alone");
        if (op == "+" || op == "-") {
            const std::int64_t sign = op == "-" ? -1 : 1;
            for (auto term : b.terms) {
                term.multiplier *= sign;
                a.terms.push_back(term);
            }
            a.constant += sign * b.constant;
            if (!inRange(a.constant))
                return unsupported(expr, "index arithmetic exceeds 2^53");
            a.column = expr.column;
            return a;
        }
        if (op == "*") {
            if (!constantOnly(a) && !constantOnly(b))
                return unsupported(expr, "an index may multiply an index name by a constant only");
            IndexForm& scaled = constantOnly(a) ? b : a;
            const std::int64_t factor = constantOnly(a) ? a.constant : b.constant;
            auto scale = [&](std::int64_t& value) {
                if (factor != 0 && std::llabs(value) > kLimit / std::llabs(factor))
                    return false;
                value *= factor;
                return true;
            };
            for (auto& term : scaled.terms) {
                if (!scale(term.multiplier))
                    return unsupported(expr, "index arithmetic exceeds 2^53");
            }
            if (!scale(scaled.constant))
                return unsupported(expr, "index arithmetic exceeds 2^53");
            scaled.column = expr.column;
            return scaled;
        }
        if (op == "/" || op == "//" || op == "%") {
            if (!constantOnly(b) || b.constant <= 0)
                return unsupported(*expr.children[1], "expected a positive integer after " + op + " in an index");
            if (!singleBareTerm(a))
                return unsupported(expr, "expected an index name (or name / n) before " + op);
            IndexTerm& term = a.terms[0];
            const std::int64_t n = b.constant;
            if (op == "%") {
                if (term.modulus != 0 && term.modulus % n != 0)
                    return unsupported(expr, "nested % with moduli that do not divide each other");
                term.modulus = n;
            } else {
                if (term.modulus != 0) {
                    if (term.modulus % n != 0)
                        return unsupported(expr, "a division that does not divide the preceding modulus");
                    term.modulus /= n;
                }
                if (term.divisor > kLimit / n)
                    return unsupported(expr, "index arithmetic exceeds 2^53");
                term.divisor *= n;
            }
            a.column = expr.column;
            return a;
        }
        return unsupported(expr, "operator " + op + " is not allowed in an index");
    }
    case ExprKind::Method:
        // input0[N].cast(...) inside an index is still that element.
        if (expr.text == "cast" && !expr.children.empty())
            return analyzeIndex(*expr.children[0]);
        return unsupported(expr, "." + expr.text + "(...) is not allowed in an index");
    default:
        break;
    }
    return unsupported(expr, "expected an index such as N, N * 4 + K, N / 4 % 8 or an integer");
}

} // namespace elk::import::einstein
