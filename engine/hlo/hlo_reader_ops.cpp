// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Pretty (custom-printed) op forms of the MLIR text reader (import.md §4.4). One item parser
// reads the operands, `key = value` pairs, keywords and literals that pretty forms put between
// the op name and its `: types`; the few ops with their own shape (reduce, while, convolution,
// sdy.manual_computation, constants) add what is special to them. Attributes are stored under
// the names the generic form uses (hlo_reader_forms.cpp), so hlo_attrs.h reads both forms alike.
#include "engine/hlo/hlo_parser.h"

#include <array>

namespace elk::hlo::detail {

namespace {

    // Dialects whose ops may appear in pretty form; an op of any other dialect must be generic.
    bool isKnownDialect(std::string_view dialect)
    {
        static constexpr std::array<std::string_view, 19> kDialects
            = { "stablehlo", "chlo", "mhlo", "sdy", "func", "check", "interpreter", "arith", "tensor", "shape", "math",
                  "scf", "cf", "ml_program", "quant", "builtin", "vhlo", "memref", "bufferization" };
        for (std::string_view known : kDialects)
            if (dialect == known)
                return true;
        return false;
    }

    bool isConstantOp(std::string_view name)
    {
        return name == "stablehlo.constant" || name == "sdy.constant" || name == "mhlo.constant"
            || name == "arith.constant" || name == "chlo.constant";
    }

    // The generic attribute name of a pretty `key = value` (import.md §4.4).
    std::string_view genericKeyword(std::string_view op, std::string_view key)
    {
        if (key == "dims") {
            if (op == "broadcast_in_dim" || op == "dynamic_broadcast_in_dim")
                return "broadcast_dimensions";
            if (op == "transpose")
                return "permutation";
            return "dimensions";
        }
        if (key == "dim") {
            if (op == "iota" || op == "dynamic_iota")
                return "iota_dimension";
            return "dimension";
        }
        if (key == "sizes") {
            if (op == "dynamic_slice")
                return "slice_sizes";
            if (op == "broadcast")
                return "broadcast_sizes";
        }
        if (key == "low")
            return "edge_padding_low";
        if (key == "high")
            return "edge_padding_high";
        if (key == "interior")
            return "interior_padding";
        if (key == "precision")
            return "precision_config";
        if (key == "algorithm" && op == "rng_bit_generator")
            return "rng_algorithm";
        if (key == "distribution")
            return "rng_distribution";
        if (op == "fft" && key == "type")
            return "fft_type";
        if (op == "fft" && key == "length")
            return "fft_length";
        return key;
    }

    // Convolution window keys → generic attribute names.
    std::string_view windowKey(std::string_view key)
    {
        if (key == "stride")
            return "window_strides";
        if (key == "pad")
            return "padding";
        if (key == "lhs_dilate")
            return "lhs_dilation";
        if (key == "rhs_dilate")
            return "rhs_dilation";
        if (key == "reverse")
            return "window_reversal";
        return key;
    }

    // `pad = [[1, 1], [2, 2]]` → dense<[[1, 1], [2, 2]]> : tensor<2x2xi64>, as the generic form has it.
    Attribute paddingDense(const Attribute& pairs)
    {
        if (pairs.kind != Attribute::Kind::Array)
            return pairs;
        Attribute dense;
        dense.kind = Attribute::Kind::Dense;
        dense.text = "dense";
        dense.type.elementType = "i64";
        dense.type.dims = { std::int64_t(pairs.items.size()), 2 };
        for (const Attribute& pair : pairs.items) {
            if (pair.kind != Attribute::Kind::Array || pair.items.size() != 2)
                return pairs;
            for (const Attribute& value : pair.items) {
                if (value.kind != Attribute::Kind::Integer)
                    return pairs;
                dense.denseInts.push_back(value.intValue);
            }
        }
        return dense;
    }

} // namespace

bool Parser::parsePrettyOp(Op& op, std::size_t resultCount)
{
    const Token nameToken = m_tok;
    std::string_view name = m_tok.text;
    if (name == "return")
        name = "func.return";
    else if (name == "call")
        name = "func.call";
    const std::size_t dot = name.find('.');
    if (dot == std::string_view::npos || !isKnownDialect(name.substr(0, dot)))
        return fail(nameToken,
            "unknown op '" + std::string(name) + "' in pretty form; only the generic form is accepted for unknown ops");
    op.name = std::string(name);
    advance();
    if (isConstantOp(name))
        return parseConstantBody(op);

    PrettyState state;
    state.shortName = name.substr(dot + 1);
    // Items, then attribute dictionaries / regions / `-> types`, possibly more items after them
    // (`sdy.all_reduce {"y"} %x ...`), until the `: types`.
    for (;;) {
        if (!parsePrettyItems(op, state, false))
            return false;
        if (is(TokenKind::LBrace)) {
            const bool iterRegion = !state.iterArgs.empty() && state.shortName != "while";
            if (!state.blockArgs.empty() || iterRegion || !braceStartsDictionary()) {
                const std::vector<EntryArgument> arguments = state.blockArgs.empty() ? state.iterArgs : state.blockArgs;
                Region& region = op.regions.emplace_back();
                if (!parseRegion(region, arguments.empty() ? nullptr : &arguments))
                    return false;
                state.blockArgs.clear();
                if (iterRegion)
                    state.iterArgs.clear();
            } else if (!parseDictionary(op.attributes)) {
                return false;
            }
        } else if (isId("attributes") && peek().kind == TokenKind::LBrace) {
            advance();
            if (!parseDictionary(op.attributes))
                return false;
        } else if (consume(TokenKind::Arrow)) {
            state.hasArrow = true;
            if (!parseResultTypeList(state.arrowResults))
                return false;
        } else {
            break;
        }
        if (is(TokenKind::Colon) || (m_tok.newLine && startsStatement()))
            break;
    }
    Signature signature;
    if (consume(TokenKind::Colon) && !parseSignature(signature))
        return false;
    // Some printers put the attribute dictionary after the type: `... : tensor<4xf32> {attr = ...}`.
    if (is(TokenKind::LBrace) && !m_tok.newLine && braceStartsDictionary() && !parseDictionary(op.attributes))
        return false;
    if (isId("attributes") && peek().kind == TokenKind::LBrace) { // stablehlo.while ... : types attributes {...}
        advance();
        if (!parseDictionary(op.attributes))
            return false;
    }
    if (state.shortName == "while" && op.name != "scf.while") {
        for (const char* keyword : { "cond", "do" }) {
            if (!isId(keyword))
                return failExpected(std::string("'") + keyword + "' region of the while loop");
            advance();
            Region& region = op.regions.emplace_back();
            if (!parseRegion(region, &state.iterArgs))
                return false;
        }
    }
    if (isId("reducer") && !parseReducerSuffix(op))
        return false;
    return finishPrettyOp(op, state, signature, resultCount);
}

bool Parser::startsStatement()
{
    switch (m_tok.kind) {
    case TokenKind::PercentId:
        return percentStartsDefinition();
    case TokenKind::String:
    case TokenKind::CaretId:
    case TokenKind::RBrace:
        return true;
    case TokenKind::BareId:
        if (isId("applies") || isId("across"))
            return false;
        return peek().kind != TokenKind::Equal;
    default:
        return false;
    }
}

bool Parser::percentStartsDefinition()
{
    dropPeek();
    const mlir::Lexer::State saved = m_lexer.state();
    bool definition = false;
    // m_tok is the first '%' name; walk `(%name (: count)?) (, ...)*` and look for '='.
    for (int names = 0; names < 4096; ++names) {
        Token next = m_lexer.next();
        if (next.kind == TokenKind::Colon) {
            if (m_lexer.next().kind != TokenKind::Integer)
                break; // `%x : type`: an operand with its type
            next = m_lexer.next();
        }
        if (next.kind == TokenKind::Equal) {
            definition = true;
            break;
        }
        if (next.kind != TokenKind::Comma || m_lexer.next().kind != TokenKind::PercentId)
            break;
    }
    m_lexer.restore(saved);
    return definition;
}

bool Parser::braceStartsDictionary()
{
    dropPeek();
    const mlir::Lexer::State saved = m_lexer.state();
    const Token first = m_lexer.next();
    bool dictionary = first.kind == TokenKind::RBrace;
    if (first.kind == TokenKind::BareId || first.kind == TokenKind::String) {
        const TokenKind second = m_lexer.next().kind;
        dictionary = second == TokenKind::Equal || second == TokenKind::Comma || second == TokenKind::RBrace;
    }
    m_lexer.restore(saved);
    return dictionary;
}

/// A `%value` use at the current token (`what` names it in the error when the token is something else).
bool Parser::takeValue(ValueId& id, const char* what)
{
    if (!is(TokenKind::PercentId))
        return failExpected(what);
    if (!useValue(m_tok, id))
        return false;
    advance();
    return true;
}

/// A `%name` item of a pretty-printed op: an iteration argument (`%iterArg = %init`), a region argument
/// (`%a: type`) or an operand, with its optional `init: %v` and bracketed spec.
bool Parser::parsePrettyValue(Op& op, PrettyState& state, bool inParens)
{
    const Token name = m_tok;
    {
        const TokenKind next = peek().kind;
        if (next == TokenKind::Equal) { // %iterArg = %init (also scf.for's `%i = %lb`)
            advance();
            advance();
            ValueId init = 0;
            if (!takeValue(init, "initial value '%...'"))
                return false;
            op.operands.push_back(init);
            state.iterArgs.push_back(EntryArgument { name.text, m_module.valueTypes[init] });
            return true;
        }
        if (inParens && next == TokenKind::Colon) { // a region argument: %a: type
            advance();
            advance();
            EntryArgument argument { name.text, Type {} };
            if (!parseType(argument.type))
                return false;
            state.blockArgs.push_back(std::move(argument));
            return true;
        }
    }
    ValueId id = 0;
    if (!useValue(name, id))
        return false;
    advance();
    op.operands.push_back(id);
    if (isId("init") && peek().kind == TokenKind::Colon) {
        advance();
        advance();
        ValueId init = 0;
        if (!takeValue(init, "init value '%...'"))
            return false;
        state.inits.push_back(init);
    }
    if (is(TokenKind::LSquare) && !m_tok.newLine && !parseBracketSpec(op, state))
        return false;
    return true;
}

bool Parser::parsePrettyItems(Op& op, PrettyState& state, bool inParens)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    bool afterSeparator = false;
    for (;;) {
        if (m_failed)
            return false;
        if (inParens) {
            if (is(TokenKind::RParen))
                return true;
        } else {
            switch (m_tok.kind) {
            case TokenKind::Colon:
            case TokenKind::LBrace:
            case TokenKind::RBrace:
            case TokenKind::Arrow:
            case TokenKind::EndOfFile:
            case TokenKind::Error:
                return true;
            default:
                break;
            }
            if (m_tok.newLine && !afterSeparator && startsStatement())
                return true;
        }
        afterSeparator = false;
        switch (m_tok.kind) {
        case TokenKind::Comma:
            advance();
            afterSeparator = true;
            continue;
        case TokenKind::PercentId:
            if (!parsePrettyValue(op, state, inParens))
                return false;
            continue;
        case TokenKind::LParen:
            advance();
            if (!parsePrettyItems(op, state, true) || !expect(TokenKind::RParen, "',' or ')'"))
                return false;
            continue;
        case TokenKind::CaretId: // a successor (cf.br ^bb1(...)); control flow is not costed
            advance();
            if (is(TokenKind::LParen)) {
                std::string_view raw;
                if (!captureBalanced(raw))
                    return false;
            }
            continue;
        case TokenKind::LSquare: { // sdy collectives: [{"x"}, {}], [{"x"}: 0->1]
            Attribute value;
            value.kind = Attribute::Kind::Dialect;
            std::string_view raw;
            if (!captureBalanced(raw))
                return false;
            value.body = std::string(raw);
            state.positionals.push_back(std::move(value));
            continue;
        }
        case TokenKind::BareId:
            if (peek().kind == TokenKind::Equal) {
                const std::string_view key = m_tok.text;
                advance();
                advance();
                if (!parseKeywordValue(op, state, key))
                    return false;
                continue;
            }
            if (isId("applies")) {
                advance();
                if (!is(TokenKind::BareId))
                    return failExpected("op name after 'applies'");
                state.applies = m_tok.text;
                state.appliesToken = m_tok;
                advance();
                continue;
            }
            if (isId("across")) {
                advance();
                continue;
            }
            if (!inParens && (isId("attributes") || isId("cond") || isId("do") || isId("reducer")))
                return true;
            [[fallthrough]];
        case TokenKind::AtId:
        case TokenKind::String:
        case TokenKind::HashId:
        case TokenKind::Integer:
        case TokenKind::Float:
        case TokenKind::Minus:
        case TokenKind::Less:
        case TokenKind::BangId:
        case TokenKind::Question: {
            Attribute value;
            DenseLiteral literal;
            if (!parseAttribute(value, false, &literal))
                return false;
            if (value.kind == Attribute::Kind::Dense)
                state.positionalLiteral = literal;
            state.positionals.push_back(std::move(value));
            continue;
        }
        default:
            if (inParens)
                return failExpected("operand, attribute or ')'");
            return true;
        }
    }
}

bool Parser::parseKeywordValue(Op& op, PrettyState& state, std::string_view key)
{
    if (key == "contracting_dims" || key == "batching_dims") {
        std::vector<std::int64_t> lhs, rhs;
        if (!parseIntegerList(lhs))
            return false;
        if (!isId("x"))
            return failExpected("'x' between the lhs and rhs dimensions");
        advance();
        if (!parseIntegerList(rhs))
            return false;
        (key == "contracting_dims" ? state.lhsContracting : state.lhsBatch) = std::move(lhs);
        (key == "contracting_dims" ? state.rhsContracting : state.rhsBatch) = std::move(rhs);
        state.hasDot = true;
        return true;
    }
    if (key == "dim_numbers") { // [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
        const std::size_t start = m_tok.offset;
        for (int group = 0; group < 3; ++group) {
            if (group == 1) {
                if (!isId("x"))
                    return failExpected("'x' between the input and kernel layouts");
                advance();
            } else if (group == 2 && !expect(TokenKind::Arrow, "'->' before the output layout")) {
                return false;
            }
            if (!expect(TokenKind::LSquare, "'[' to open a convolution layout"))
                return false;
            while (is(TokenKind::BareId) || is(TokenKind::Integer)) {
                advance();
                if (!consume(TokenKind::Comma))
                    break;
            }
            if (!expect(TokenKind::RSquare, "',' or ']' in the convolution layout"))
                return false;
        }
        Attribute layout;
        layout.kind = Attribute::Kind::Dialect;
        layout.text = "stablehlo.conv";
        layout.body = std::string(sourceSince(start));
        op.attributes.emplace_back("dimension_numbers", std::move(layout));
        return true;
    }
    if (key == "window") {
        Attribute window;
        if (!parseAttribute(window, false))
            return false;
        if (window.kind != Attribute::Kind::Dictionary)
            return fail(m_tok, "expected '{...}' as the convolution window");
        for (auto& [field, value] : window.fields) {
            const std::string_view generic = windowKey(field);
            op.attributes.emplace_back(
                std::string(generic), generic == "padding" ? paddingDense(value) : std::move(value));
        }
        return true;
    }
    if ((key == "in_shardings" || key == "out_shardings") && is(TokenKind::LSquare)) {
        Attribute shardings;
        shardings.kind = Attribute::Kind::Dialect;
        shardings.text = "sdy.sharding_per_value";
        std::string_view raw;
        if (!captureBalanced(raw))
            return false;
        shardings.body = std::string(raw);
        op.attributes.emplace_back(std::string(key), std::move(shardings));
        return true;
    }
    if (key == "manual_axes" && is(TokenKind::LBrace)) {
        Attribute axes;
        axes.kind = Attribute::Kind::Dialect;
        axes.text = "sdy";
        std::string_view raw;
        if (!captureBalanced(raw))
            return false;
        axes.body = "manual_axes" + std::string(raw);
        for (std::size_t q = raw.find('"'); q != std::string_view::npos; q = raw.find('"', q)) {
            const std::size_t close = raw.find('"', q + 1);
            if (close == std::string_view::npos)
                break;
            Attribute axis;
            axis.kind = Attribute::Kind::String;
            axis.text = std::string(raw.substr(q + 1, close - q - 1));
            axes.items.push_back(std::move(axis));
            q = close + 1;
        }
        op.attributes.emplace_back("manual_axes", std::move(axes));
        return true;
    }
    if (key == "format" && is(TokenKind::BareId)) { // reduce_precision e8m10
        const std::string_view format = m_tok.text;
        const std::size_t m = format.find('m');
        std::int64_t exponent = 0, mantissa = 0;
        if (format.size() < 4 || format[0] != 'e' || m == std::string_view::npos
            || !parseIntegerText(format.substr(1, m - 1), false, exponent)
            || !parseIntegerText(format.substr(m + 1), false, mantissa))
            return failExpected("a format like e8m10");
        advance();
        op.attributes.emplace_back("exponent_bits", integerAttribute(exponent));
        op.attributes.emplace_back("mantissa_bits", integerAttribute(mantissa));
        return true;
    }
    Attribute value;
    if (!parseAttribute(value, false))
        return false;
    if (value.kind == Attribute::Kind::Dialect && value.text.empty()) {
        if (key == "algorithm")
            value.text = "stablehlo.dot_algorithm";
        else if (key.find("sharding") != std::string_view::npos)
            value.text = "sdy.sharding";
    }
    op.attributes.emplace_back(std::string(genericKeyword(state.shortName, key)), std::move(value));
    return true;
}

bool Parser::parseBracketSpec(Op& op, PrettyState& state)
{
    advance(); // '['
    if (is(TokenKind::PercentId)) { // tensor.extract %t[%i, %j]: dynamic indices are operands
        while (is(TokenKind::PercentId)) {
            ValueId id = 0;
            if (!useValue(m_tok, id))
                return false;
            op.operands.push_back(id);
            advance();
            if (!consume(TokenKind::Comma))
                break;
        }
        return expect(TokenKind::RSquare, "',' or ']' in the index list");
    }
    state.hasBracket = true;
    while (!is(TokenKind::RSquare)) {
        std::array<std::int64_t, 3> part = { 0, 0, 1 };
        int count = 0;
        for (;;) {
            const bool negative = consume(TokenKind::Minus);
            if (!is(TokenKind::Integer) || !parseIntegerText(m_tok.text, negative, part[std::size_t(count)]))
                return failExpected("an integer index");
            advance();
            ++count;
            if (count == 3 || !consume(TokenKind::Colon))
                break;
            state.bracketHasColon = true;
        }
        state.sliceStart.push_back(part[0]);
        state.sliceLimit.push_back(count >= 2 ? part[1] : part[0] + 1);
        state.sliceStride.push_back(count >= 3 ? part[2] : 1);
        if (!consume(TokenKind::Comma))
            break;
    }
    return expect(TokenKind::RSquare, "',' or ']' in the index list");
}

bool Parser::parseSignature(Signature& signature)
{
    signature.present = true;
    if (consume(TokenKind::LParen)) {
        while (!is(TokenKind::RParen)) {
            Type type;
            if (!parseType(type))
                return false;
            signature.inputs.push_back(std::move(type));
            if (!consume(TokenKind::Comma))
                break;
        }
        if (!expect(TokenKind::RParen, "',' or ')' in the operand types"))
            return false;
        if (consume(TokenKind::Arrow)) {
            signature.functional = true;
            return parseResultTypeList(signature.results);
        }
        return true;
    }
    for (;;) {
        Type type;
        if (!parseType(type))
            return false;
        signature.inputs.push_back(std::move(type));
        if (!consume(TokenKind::Comma))
            break;
    }
    if (consume(TokenKind::Arrow)) {
        signature.functional = true;
        return parseResultTypeList(signature.results);
    }
    if (isId("to")) { // tensor.cast %x : A to B
        advance();
        Type type;
        if (!parseType(type))
            return false;
        signature.functional = true;
        signature.results.push_back(std::move(type));
    }
    return true;
}

} // namespace elk::hlo::detail
