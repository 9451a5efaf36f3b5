// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Constants and loop counters (import.md §4.7): the values a while loop's trip count is inferred
// from, followed through converts, reshapes, calls and the loop's carried values.
#include "engine/hlo/hlo_program_flattener.h"

#include "engine/hlo/hlo_attrs.h"

#include <algorithm>

namespace elk::hlo::detail {

namespace {

    std::optional<std::int64_t> tripCount(
        const std::string& dir, std::int64_t init, std::int64_t bound, std::int64_t step)
    {
        constexpr std::int64_t kLimit = std::int64_t(1) << 52; // keeps the spans below free of overflow
        if (init <= -kLimit || init >= kLimit || bound <= -kLimit || bound >= kLimit || step <= -kLimit
            || step >= kLimit)
            return std::nullopt;
        auto ceilDiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
        if ((dir == "LT" || dir == "LE") && step > 0) {
            const std::int64_t span = bound - init + (dir == "LE" ? 1 : 0);
            return span > 0 ? ceilDiv(span, step) : 0;
        }
        if ((dir == "GT" || dir == "GE") && step < 0) {
            const std::int64_t span = init - bound + (dir == "GE" ? 1 : 0);
            return span > 0 ? ceilDiv(span, -step) : 0;
        }
        if (dir == "NE" && step != 0 && (bound - init) % step == 0 && (bound - init) / step >= 0)
            return (bound - init) / step;
        return std::nullopt;
    }

} // namespace

std::optional<std::int64_t> Flattener::constantOf(ValueId v, int depth) const
{
    if (depth > 16)
        return std::nullopt;
    if (v < m_argConstants.size() && m_argConstants[v])
        return m_argConstants[v];
    const DefSite* def = definition(v);
    if (!def)
        return std::nullopt;
    const Op& op = *def->op;
    const std::string_view base = baseOpName(op.name);
    if (base == "constant" || base == "arith.constant" || base == "sdy.constant")
        return constantInteger(op);
    if ((base == "convert" || base == "reshape" || base == "broadcast_in_dim" || base == "broadcast")
        && !op.operands.empty())
        return constantOf(op.operands[0], depth + 1);
    if (base == "func.call" || base == "call") {
        const Function* callee = calleeFunction(op);
        if (!callee || callee->body.blocks.empty() || callee->body.blocks[0].ops.empty())
            return std::nullopt;
        const Op& ret = callee->body.blocks[0].ops.back();
        if (def->result >= ret.operands.size())
            return std::nullopt;
        const ValueId returned = ret.operands[def->result];
        const auto arg = std::find(callee->arguments.begin(), callee->arguments.end(), returned);
        if (arg != callee->arguments.end()) {
            const std::size_t i = std::size_t(arg - callee->arguments.begin());
            return i < op.operands.size() ? constantOf(op.operands[i], depth + 1) : std::nullopt;
        }
        return constantOf(returned, depth + 1);
    }
    return std::nullopt;
}

// The block argument `v` is (seen through scalar converts and reshapes), if any.
std::optional<std::size_t> Flattener::blockArgumentOf(ValueId v, const Block& block) const
{
    for (int depth = 0; depth < 8; ++depth) {
        const auto found = std::find(block.arguments.begin(), block.arguments.end(), v);
        if (found != block.arguments.end())
            return std::size_t(found - block.arguments.begin());
        const DefSite* def = definition(v);
        if (!def || def->op->operands.empty())
            return std::nullopt;
        const std::string_view base = baseOpName(def->op->name);
        if (base != "convert" && base != "reshape" && base != "broadcast_in_dim")
            return std::nullopt;
        v = def->op->operands[0];
    }
    return std::nullopt;
}
std::optional<std::int64_t> Flattener::inferTripCount(const Op& loop) const
{
    if (loop.regions.size() < 2 || loop.regions[0].blocks.empty() || loop.regions[1].blocks.empty())
        return std::nullopt;
    const Block& cond = loop.regions[0].blocks[0];
    const Block& body = loop.regions[1].blocks[0];
    if (cond.ops.empty() || body.ops.empty() || cond.ops.back().operands.empty())
        return std::nullopt;
    const DefSite* test = definition(cond.ops.back().operands[0]);
    if (!test)
        return std::nullopt;
    // The compare, possibly inside a called function whose arguments are cond values.
    const Op* compare = test->op;
    std::vector<ValueId> sides;
    if (baseOpName(compare->name) == "func.call" || baseOpName(compare->name) == "call") {
        const Function* callee = calleeFunction(*compare);
        if (!callee || callee->body.blocks.empty() || callee->body.blocks[0].ops.empty())
            return std::nullopt;
        const Op& ret = callee->body.blocks[0].ops.back();
        const DefSite* inner = ret.operands.empty() ? nullptr : definition(ret.operands[0]);
        if (!inner || baseOpName(inner->op->name) != "compare" || inner->op->operands.size() < 2)
            return std::nullopt;
        for (std::size_t s = 0; s < 2; ++s) {
            ValueId v = inner->op->operands[s];
            const auto arg = std::find(callee->arguments.begin(), callee->arguments.end(), v);
            if (arg != callee->arguments.end()) {
                const std::size_t i = std::size_t(arg - callee->arguments.begin());
                if (i >= compare->operands.size())
                    return std::nullopt;
                v = compare->operands[i];
            }
            sides.push_back(v);
        }
        compare = inner->op;
    } else if (baseOpName(compare->name) == "compare" && compare->operands.size() >= 2) {
        sides = { compare->operands[0], compare->operands[1] };
    } else {
        return std::nullopt;
    }
    std::string direction = comparisonDirection(*compare).value_or("");
    // A bound is a constant, or a carried value the body passes through unchanged.
    auto boundOf = [&](ValueId v) -> std::optional<std::int64_t> {
        if (const auto k = blockArgumentOf(v, cond)) {
            const Op& ret = body.ops.back();
            if (*k < ret.operands.size() && *k < body.arguments.size() && ret.operands[*k] == body.arguments[*k]
                && *k < loop.operands.size())
                return constantOf(loop.operands[*k]);
            return std::nullopt;
        }
        return constantOf(v);
    };
    for (int swap = 0; swap < 2; ++swap) {
        const auto counter = blockArgumentOf(sides[std::size_t(swap)], cond);
        const auto bound = boundOf(sides[std::size_t(1 - swap)]);
        if (!counter || !bound || *counter >= loop.operands.size())
            continue;
        const auto init = constantOf(loop.operands[*counter]);
        const auto step = stepOf(body, *counter);
        if (!init || !step)
            continue;
        std::string dir = direction;
        if (swap == 1)
            dir = dir == "LT" ? "GT" : dir == "GT" ? "LT" : dir == "LE" ? "GE" : dir == "GE" ? "LE" : dir;
        return tripCount(dir, *init, *bound, *step);
    }
    return std::nullopt;
}

// The constant the body adds to carried value `k` (negative for a subtraction).
std::optional<std::int64_t> Flattener::stepOf(const Block& body, std::size_t k) const
{
    const Op& ret = body.ops.back();
    if (k >= ret.operands.size())
        return std::nullopt;
    const DefSite* def = definition(ret.operands[k]);
    if (!def || def->op->operands.size() != 2)
        return std::nullopt;
    const std::string_view base = baseOpName(def->op->name);
    if (base != "add" && base != "subtract")
        return std::nullopt;
    for (std::size_t s = 0; s < 2; ++s) {
        if (blockArgumentOf(def->op->operands[s], body) != k)
            continue;
        if (base == "subtract" && s == 1)
            return std::nullopt;
        const auto step = constantOf(def->op->operands[1 - s]);
        if (step)
            return base == "subtract" ? -*step : *step;
    }
    return std::nullopt;
}

} // namespace elk::hlo::detail
