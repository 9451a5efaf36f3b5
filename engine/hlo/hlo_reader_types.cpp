// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Types of the MLIR text reader (see hlo_parser.h).
#include "engine/hlo/hlo_parser.h"

#include <charconv>
#include <limits>

namespace elk::hlo::detail {

namespace {

    bool allDigits(std::string_view text)
    {
        if (text.empty())
            return false;
        for (char c : text)
            if (c < '0' || c > '9')
                return false;
        return true;
    }

} // namespace

bool isElementTypeName(std::string_view name)
{
    static constexpr std::string_view kFloats[] = { "bf16", "f16", "f32", "f64", "f80", "f128", "tf32", "index" };
    for (std::string_view known : kFloats)
        if (name == known)
            return true;
    if (name.starts_with("f8E") || name.starts_with("f6E") || name.starts_with("f4E"))
        return true;
    if (name.starts_with("si") || name.starts_with("ui"))
        return allDigits(name.substr(2));
    if (name.starts_with("i"))
        return allDigits(name.substr(1));
    return false;
}

bool isIntegralElementType(std::string_view name)
{
    if (name == "index")
        return true;
    if (name.starts_with("si") || name.starts_with("ui"))
        return allDigits(name.substr(2));
    return name.starts_with("i") && allDigits(name.substr(1));
}

bool parseIntegerText(std::string_view text, bool negative, std::int64_t& value)
{
    std::uint64_t magnitude = 0;
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* begin = text.data() + (hex ? 2 : 0);
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(begin, end, magnitude, hex ? 16 : 10);
    if (ec != std::errc() || ptr != end)
        return false;
    if (negative) {
        if (magnitude > std::uint64_t(std::numeric_limits<std::int64_t>::max()) + 1)
            return false;
        value = std::int64_t(0 - magnitude);
    } else {
        value = std::int64_t(magnitude); // ui64 values above INT64_MAX wrap, as their bits do
    }
    return true;
}

// ---- types -----------------------------------------------------------------------------------

bool Parser::parseType(Type& type)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    const Token start = m_tok;
    switch (m_tok.kind) {
    case TokenKind::BareId: {
        const std::string_view name = m_tok.text;
        if (name == "tensor")
            return parseTensorType(type);
        if (name == "tuple") {
            type = Type {};
            type.kind = TypeKind::Tuple;
            advance();
            if (!expect(TokenKind::Less, "'<' after 'tuple'"))
                return false;
            while (!is(TokenKind::Greater)) {
                Type element;
                if (!parseType(element))
                    return false;
                type.elements.push_back(std::move(element));
                if (!consume(TokenKind::Comma))
                    break;
            }
            return expect(TokenKind::Greater, "',' or '>' in the tuple type");
        }
        if (name == "complex" || isElementTypeName(name)) {
            type = Type {};
            if (name == "index") {
                type.kind = TypeKind::Other;
                type.text = "index";
                advance();
                return true;
            }
            return parseElementType(type.elementType);
        }
        dropPeek();
        if ((name == "vector" || name == "memref") && m_lexer.peekChar() == '<') { // kept as text
            advance();
            std::string_view raw;
            if (!captureBalanced(raw))
                return false;
            type = Type {};
            type.kind = TypeKind::Other;
            type.text = std::string(sourceSince(start.offset));
            return true;
        }
        if (name == "none") {
            type = Type {};
            type.kind = TypeKind::Other;
            type.text = "none";
            advance();
            return true;
        }
        return failExpected("type");
    }
    case TokenKind::BangId: {
        if (m_tok.text == "!stablehlo.token" || m_tok.text == "!mhlo.token") {
            type = Type {};
            type.kind = TypeKind::Token;
            advance();
            return true;
        }
        if (auto alias = m_typeAliases.find(m_tok.text); alias != m_typeAliases.end()) {
            type = alias->second;
            advance();
            return true;
        }
        dropPeek();
        const bool hasBody = m_lexer.peekChar() == '<';
        advance();
        if (hasBody) {
            std::string_view raw;
            if (!captureBalanced(raw))
                return false;
        }
        type = Type {};
        type.kind = TypeKind::Other;
        type.text = std::string(sourceSince(start.offset));
        return true;
    }
    case TokenKind::LParen: { // a function type used as a type
        advance();
        while (!is(TokenKind::RParen)) {
            Type input;
            if (!parseType(input))
                return false;
            if (!consume(TokenKind::Comma))
                break;
        }
        if (!expect(TokenKind::RParen, "',' or ')' in the function type")
            || !expect(TokenKind::Arrow, "'->' in the function type"))
            return false;
        std::vector<Type> results;
        if (!parseResultTypeList(results))
            return false;
        type = Type {};
        type.kind = TypeKind::Other;
        type.text = std::string(sourceSince(start.offset));
        return true;
    }
    default:
        return failExpected("type");
    }
}

bool Parser::parseTensorType(Type& type)
{
    const Token start = m_tok;
    type = Type {};
    dropPeek();
    advance(); // tensor
    if (!is(TokenKind::Less))
        return failExpected("'<' after 'tensor'");
    if (m_lexer.peekChar() == '*') { // unranked: kept as text
        std::string_view raw;
        if (!captureBalanced(raw))
            return false;
        type.kind = TypeKind::Other;
        type.text = std::string(sourceSince(start.offset));
        return true;
    }
    std::size_t errorPos = 0;
    switch (m_lexer.scanDimensions(type.dims, errorPos)) {
    case mlir::Lexer::DimResult::Ok:
        break;
    case mlir::Lexer::DimResult::Overflow:
        return fail(m_lexer.state().line, m_lexer.columnOf(errorPos), "dimension does not fit in int64");
    case mlir::Lexer::DimResult::MissingX: {
        const std::size_t end = m_lexer.end();
        const std::string found = errorPos < end ? "'" + std::string(1, m_text[errorPos]) + "'" : "end of file";
        return fail(m_lexer.state().line, m_lexer.columnOf(errorPos), "expected 'x' after a dimension, found " + found);
    }
    }
    resumeAfterRaw(m_lexer.state().pos);
    if (!parseElementType(type.elementType))
        return false;
    if (consume(TokenKind::Comma) && !parseTensorEncoding(type))
        return false;
    if (!expect(TokenKind::Greater, "'>' to close the tensor type"))
        return false;
    return checkShape(start, type);
}

bool Parser::parseElementType(std::string& elementType)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    const Token start = m_tok;
    if (is(TokenKind::BareId) && m_tok.text == "complex") {
        advance();
        if (!expect(TokenKind::Less, "'<' after 'complex'"))
            return false;
        std::string part;
        if (!parseElementType(part))
            return false;
        if (!expect(TokenKind::Greater, "'>' to close 'complex<'"))
            return false;
        elementType = std::string(sourceSince(start.offset));
        return true;
    }
    if (is(TokenKind::BareId) && isElementTypeName(m_tok.text)) {
        elementType = std::string(m_tok.text);
        advance();
        return true;
    }
    if (is(TokenKind::BangId)) { // !quant.uniform<...> and other dialect element types
        dropPeek();
        const bool hasBody = m_lexer.peekChar() == '<';
        advance();
        std::string_view raw;
        if (hasBody && !captureBalanced(raw))
            return false;
        elementType = std::string(sourceSince(start.offset));
        return true;
    }
    return failExpected("element type");
}

bool Parser::parseTensorEncoding(Type& type)
{
    const std::size_t start = m_tok.offset;
    auto parseBounds = [this, &type]() {
        while (!is(TokenKind::Greater) && !is(TokenKind::RSquare)) {
            if (consume(TokenKind::Question)) {
                type.bounds.push_back(kDynamicDim);
            } else {
                const bool negative = consume(TokenKind::Minus); // old encoding: -1 means none
                std::int64_t bound = 0;
                if (!is(TokenKind::Integer) || !parseIntegerText(m_tok.text, negative, bound))
                    return failExpected("a bound or '?'");
                type.bounds.push_back(bound < 0 ? kDynamicDim : bound);
                advance();
            }
            if (!consume(TokenKind::Comma))
                break;
        }
        return true;
    };
    if (is(TokenKind::HashId) && m_tok.text == "#stablehlo.bounds") {
        advance();
        return expect(TokenKind::Less, "'<' after '#stablehlo.bounds'") && parseBounds()
            && expect(TokenKind::Greater, "',' or '>' in the bounds");
    }
    if (is(TokenKind::HashId) && m_tok.text == "#stablehlo.type_extensions") {
        advance();
        if (!expect(TokenKind::Less, "'<'"))
            return false;
        if (!isId("bounds"))
            return failExpected("'bounds'");
        advance();
        return expect(TokenKind::Equal, "'='") && expect(TokenKind::LSquare, "'['") && parseBounds()
            && expect(TokenKind::RSquare, "',' or ']' in the bounds") && expect(TokenKind::Greater, "'>'");
    }
    Attribute encoding;
    if (!parseAttribute(encoding, false))
        return false;
    type.encoding = std::string(sourceSince(start));
    return true;
}

bool Parser::checkShape(const Token& at, const Type& type)
{
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t count = 1;
    bool overflow = false;
    bool zero = false;
    for (std::size_t i = 0; i < type.dims.size(); ++i) {
        std::int64_t dim = type.dims[i];
        if (dim == kDynamicDim)
            dim = i < type.bounds.size() && type.bounds[i] > 0 ? type.bounds[i] : 1;
        if (dim == 0)
            zero = true;
        else if (!overflow && count > kMax / dim)
            overflow = true;
        else if (!overflow)
            count *= dim;
    }
    if (zero)
        return true;
    if (overflow)
        return fail(at, "absurd shape " + toString(type) + ": its element count overflows int64");
    if (count > m_limits.maxElementsPerTensor)
        return fail(at,
            "absurd shape " + toString(type) + ": " + std::to_string(count) + " elements, more than the limit of "
                + std::to_string(m_limits.maxElementsPerTensor));
    return true;
}

} // namespace elk::hlo::detail
