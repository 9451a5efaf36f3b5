// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Attributes and dense literals of the MLIR text reader (see hlo_parser.h). Dense values are
// never materialised beyond a few thousand integers; hex blobs are only measured.
#include "engine/hlo/hlo_parser.h"

#include <cctype>
#include <charconv>
#include <limits>

namespace elk::hlo::detail {

namespace {

    int hexValue(char c)
    {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }

    // Little-endian element `index` of `bytes` bytes from a hex blob's digits.
    std::int64_t hexElement(std::string_view digits, std::size_t index, int bytes, bool isUnsigned)
    {
        std::uint64_t value = 0;
        for (int b = bytes - 1; b >= 0; --b) {
            const std::size_t at = (index * std::size_t(bytes) + std::size_t(b)) * 2;
            value = (value << 8) | std::uint64_t(hexValue(digits[at]) * 16 + hexValue(digits[at + 1]));
        }
        if (!isUnsigned && bytes < 8) {
            const std::uint64_t sign = std::uint64_t(1) << (bytes * 8 - 1);
            if (value & sign)
                value |= ~((sign << 1) - 1);
        }
        return std::int64_t(value);
    }

} // namespace

bool Parser::parseNumber(Attribute& attribute)
{
    const bool negative = consume(TokenKind::Minus);
    if (is(TokenKind::Integer)) {
        attribute.kind = Attribute::Kind::Integer;
        if (!parseIntegerText(m_tok.text, negative, attribute.intValue))
            return fail(m_tok, "integer literal " + std::string(m_tok.text) + " does not fit in 64 bits");
        attribute.floatValue = double(attribute.intValue);
        advance();
        return true;
    }
    if (is(TokenKind::Float)) {
        attribute.kind = Attribute::Kind::Float;
        double value = 0;
        std::from_chars(m_tok.text.data(), m_tok.text.data() + m_tok.text.size(), value);
        attribute.floatValue = negative ? -value : value;
        advance();
        return true;
    }
    if (isId("inf") || isId("nan")) {
        attribute.kind = Attribute::Kind::Float;
        attribute.floatValue
            = m_tok.text == "inf" ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
        if (negative)
            attribute.floatValue = -attribute.floatValue;
        advance();
        return true;
    }
    return failExpected("a number");
}

bool Parser::parseAttribute(Attribute& attribute, bool allowTypeSuffix, DenseLiteral* literal)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    auto typeSuffix = [&]() {
        if (allowTypeSuffix && consume(TokenKind::Colon))
            return parseType(attribute.type);
        return true;
    };
    switch (m_tok.kind) {
    case TokenKind::Integer:
    case TokenKind::Float:
    case TokenKind::Minus:
        return parseNumber(attribute) && typeSuffix();
    case TokenKind::String:
        attribute.kind = Attribute::Kind::String;
        attribute.text = mlir::unescapeString(m_tok.text);
        advance();
        return typeSuffix();
    case TokenKind::AtId:
        attribute.kind = Attribute::Kind::Symbol;
        attribute.text = std::string(m_tok.text.substr(1));
        if (!attribute.text.empty() && attribute.text.front() == '"')
            attribute.text = mlir::unescapeString(attribute.text);
        advance();
        while (is(TokenKind::Colon) && peek().kind == TokenKind::Colon) { // nested @a::@b
            advance();
            advance();
            if (!is(TokenKind::AtId))
                return failExpected("symbol after '::'");
            attribute.text += "::" + std::string(m_tok.text.substr(1));
            advance();
        }
        return true;
    case TokenKind::LSquare:
        attribute.kind = Attribute::Kind::Array;
        advance();
        while (!is(TokenKind::RSquare)) {
            Attribute item;
            if (!parseAttribute(item, true))
                return false;
            attribute.items.push_back(std::move(item));
            if (!consume(TokenKind::Comma))
                break;
        }
        return expect(TokenKind::RSquare, "',' or ']' in the array");
    case TokenKind::LBrace:
        attribute.kind = Attribute::Kind::Dictionary;
        return parseDictionary(attribute.fields);
    case TokenKind::HashId: {
        dropPeek();
        if (m_lexer.peekChar() == '<') {
            attribute.kind = Attribute::Kind::Dialect;
            attribute.text = std::string(m_tok.text.substr(1));
            advance();
            return parseDialectBody(attribute) && typeSuffix();
        }
        if (auto alias = m_attributeAliases.find(m_tok.text); alias != m_attributeAliases.end()) {
            attribute = alias->second;
            advance();
            return true;
        }
        attribute.kind = Attribute::Kind::Dialect;
        attribute.text = std::string(m_tok.text.substr(1));
        advance();
        return typeSuffix();
    }
    case TokenKind::Less: // a bare `<...>` in pretty ops (sdy shardings)
        attribute.kind = Attribute::Kind::Dialect;
        return parseDialectBody(attribute);
    case TokenKind::LParen:
        if (peek().kind == TokenKind::Integer) { // a sub-axis `(pre_size)size`
            attribute.kind = Attribute::Kind::Dialect;
            attribute.text = "stablehlo.sub_axis_info";
            const std::size_t start = m_tok.offset;
            advance();
            Attribute pre, size;
            if (!parseNumber(pre) || !expect(TokenKind::RParen, "')' after the sub-axis pre-size")
                || !parseNumber(size))
                return false;
            attribute.body = std::string(sourceSince(start));
            attribute.fields.emplace_back("pre_size", std::move(pre));
            attribute.fields.emplace_back("size", std::move(size));
            return true;
        }
        [[fallthrough]];
    case TokenKind::BangId:
        attribute.kind = Attribute::Kind::Type;
        return parseType(attribute.type);
    case TokenKind::Question:
        attribute.kind = Attribute::Kind::Enum;
        attribute.text = "?";
        advance();
        return true;
    case TokenKind::BareId:
        break;
    default:
        return failExpected("attribute value");
    }
    const std::string_view name = m_tok.text;
    if (name == "true" || name == "false") {
        attribute.kind = Attribute::Kind::Bool;
        attribute.boolValue = name == "true";
        attribute.intValue = attribute.boolValue ? 1 : 0;
        advance();
        return typeSuffix();
    }
    if (name == "unit") {
        attribute.kind = Attribute::Kind::Unit;
        advance();
        return true;
    }
    if (name == "inf" || name == "nan")
        return parseNumber(attribute) && typeSuffix();
    if (name == "dense")
        return parseDense(attribute, allowTypeSuffix, literal);
    if (name == "array")
        return parseArrayAttribute(attribute);
    if (name == "tensor" || name == "tuple" || name == "complex" || name == "none" || isElementTypeName(name)) {
        attribute.kind = Attribute::Kind::Type;
        return parseType(attribute.type);
    }
    dropPeek();
    if (m_lexer.peekChar() == '<') { // dense_resource<...>, sparse<...>, affine_map<...>, ...
        const bool isData = name == "dense_resource" || name == "sparse";
        attribute.kind = isData ? Attribute::Kind::Dense : Attribute::Kind::Dialect;
        attribute.text = std::string(name);
        advance();
        std::string_view raw;
        if (!captureBalanced(raw))
            return false;
        attribute.body = std::string(raw.substr(1, raw.size() - 2));
        return typeSuffix();
    }
    attribute.kind = Attribute::Kind::Enum;
    attribute.text = std::string(name);
    advance();
    return true;
}

bool Parser::parseDictionary(AttributeList& list)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    if (!expect(TokenKind::LBrace, "'{' to open an attribute dictionary"))
        return false;
    while (!is(TokenKind::RBrace)) {
        std::string key;
        if (is(TokenKind::BareId))
            key = std::string(m_tok.text);
        else if (is(TokenKind::String))
            key = mlir::unescapeString(m_tok.text);
        else
            return failExpected("attribute name");
        advance();
        Attribute value;
        if (consume(TokenKind::Equal)) {
            if (!parseAttribute(value, true))
                return false;
        }
        list.emplace_back(std::move(key), std::move(value));
        if (!consume(TokenKind::Comma))
            break;
    }
    return expect(TokenKind::RBrace, "',' or '}' in the attribute dictionary");
}

bool Parser::parseArrayAttribute(Attribute& attribute)
{
    attribute.kind = Attribute::Kind::Array;
    advance(); // array
    if (!expect(TokenKind::Less, "'<' after 'array'"))
        return false;
    if (!is(TokenKind::BareId))
        return failExpected("element type of the array");
    attribute.type.elementType = std::string(m_tok.text);
    advance();
    if (consume(TokenKind::Colon)) {
        while (!is(TokenKind::Greater)) {
            Attribute item;
            if (isId("true") || isId("false")) {
                item.kind = Attribute::Kind::Bool;
                item.boolValue = isId("true");
                item.intValue = item.boolValue ? 1 : 0;
                advance();
            } else if (!parseNumber(item)) {
                return false;
            }
            attribute.items.push_back(std::move(item));
            if (!consume(TokenKind::Comma))
                break;
        }
    }
    return expect(TokenKind::Greater, "',' or '>' in the array");
}

bool Parser::parseIntegerList(std::vector<std::int64_t>& values)
{
    if (!expect(TokenKind::LSquare, "'['"))
        return false;
    while (!is(TokenKind::RSquare)) {
        const bool negative = consume(TokenKind::Minus);
        std::int64_t value = 0;
        if (!is(TokenKind::Integer) || !parseIntegerText(m_tok.text, negative, value))
            return failExpected("an integer");
        values.push_back(value);
        advance();
        if (!consume(TokenKind::Comma))
            break;
    }
    return expect(TokenKind::RSquare, "',' or ']' in the integer list");
}

bool Parser::parseDialectBody(Attribute& attribute)
{
    // The current token is '<'; its body is kept raw and, when it reads `key = value, ...`,
    // also split into fields.
    dropPeek();
    const mlir::Lexer::State bodyStart = m_lexer.state();
    std::string_view raw;
    if (!captureBalanced(raw))
        return false;
    const std::size_t bodyEnd = bodyStart.pos + raw.size() - 2;
    attribute.body = std::string(raw.substr(1, raw.size() - 2));
    tryParseFields(attribute, bodyStart, bodyEnd);
    return true;
}

void Parser::tryParseFields(Attribute& attribute, const mlir::Lexer::State& bodyStart, std::size_t bodyEnd)
{
    const std::string_view body = attribute.body;
    std::size_t i = 0;
    while (i < body.size() && (body[i] == ' ' || body[i] == '\n' || body[i] == '\t' || body[i] == '\r'))
        ++i;
    if (body.substr(i).starts_with("raw") && i + 3 < body.size()
        && std::isspace(static_cast<unsigned char>(body[i + 3]))) {
        i += 3;
        while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i])))
            ++i;
    } else if (body.substr(i).starts_with("manual_axes")) { // #sdy<manual_axes{"x", "y"}>
        for (std::size_t q = body.find('"'); q != std::string_view::npos; q = body.find('"', q)) {
            const std::size_t close = body.find('"', q + 1);
            if (close == std::string_view::npos)
                break;
            Attribute axis;
            axis.kind = Attribute::Kind::String;
            axis.text = std::string(body.substr(q + 1, close - q - 1));
            attribute.items.push_back(std::move(axis));
            q = close + 1;
        }
        return;
    }
    if (i >= body.size() || !(std::isalpha(static_cast<unsigned char>(body[i])) || body[i] == '_'))
        return;
    // Cheap check that the body opens with `key =` before paying for a full parse.
    std::size_t j = i;
    while (j < body.size() && mlir::isIdentifierChar(body[j]))
        ++j;
    while (j < body.size() && std::isspace(static_cast<unsigned char>(body[j])))
        ++j;
    if (j >= body.size() || body[j] != '=')
        return;

    // Parse the body with a lexer of its own; errors are dropped (the body stays raw).
    const mlir::Lexer savedLexer = m_lexer;
    const Token savedToken = m_tok;
    const std::size_t savedPrevEnd = m_prevEnd;
    const bool savedHasPeek = m_hasPeek;
    const Token savedPeek = m_peek;
    const mlir::Lexer::State savedPeekState = m_peekState;
    m_lexer = mlir::Lexer(m_text, bodyStart.pos, bodyEnd, bodyStart.line, bodyStart.lineStart);
    m_hasPeek = false;
    m_tok = m_lexer.next();
    if (isId("raw"))
        advance();
    AttributeList fields;
    while (!m_failed && !is(TokenKind::EndOfFile)) {
        if (!is(TokenKind::BareId)) {
            failExpected("field name");
            break;
        }
        std::string key(m_tok.text);
        advance();
        if (!expect(TokenKind::Equal, "'='"))
            break;
        Attribute value;
        if (!parseAttribute(value, true))
            break;
        fields.emplace_back(std::move(key), std::move(value));
        if (!consume(TokenKind::Comma) && !is(TokenKind::EndOfFile)) {
            failExpected("',' or the end of the attribute");
            break;
        }
    }
    if (m_failed) {
        m_failed = false;
        m_error = ReadError {};
    } else {
        attribute.fields = std::move(fields);
    }
    m_lexer = savedLexer;
    m_tok = savedToken;
    m_prevEnd = savedPrevEnd;
    m_hasPeek = savedHasPeek;
    m_peek = savedPeek;
    m_peekState = savedPeekState;
}

// ---- dense literals --------------------------------------------------------------------------

bool Parser::parseDenseScalar(std::vector<std::int64_t>& ints, DenseLiteral& literal)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    auto keep = [&](std::int64_t value) {
        if (ints.size() < kMaxDenseInts)
            ints.push_back(value);
        else
            literal.tooMany = true;
    };
    const bool negative = consume(TokenKind::Minus);
    switch (m_tok.kind) {
    case TokenKind::Integer: {
        std::int64_t value = 0;
        if (!parseIntegerText(m_tok.text, negative, value))
            literal.integral = false; // wider than 64 bits: keep no values
        keep(value);
        advance();
        return true;
    }
    case TokenKind::Float:
        literal.integral = false;
        advance();
        return true;
    case TokenKind::String:
        literal.integral = false;
        advance();
        return true;
    case TokenKind::LParen: { // complex (re, im)
        literal.integral = false;
        advance();
        std::vector<std::int64_t> ignored;
        DenseLiteral part;
        if (!parseDenseScalar(ignored, part) || !expect(TokenKind::Comma, "',' in the complex value")
            || !parseDenseScalar(ignored, part))
            return false;
        return expect(TokenKind::RParen, "')' to close the complex value");
    }
    case TokenKind::BareId:
        if (isId("true") || isId("false")) {
            keep(isId("true") ? 1 : 0);
            advance();
            return true;
        }
        if (isId("inf") || isId("nan")) {
            literal.integral = false;
            advance();
            return true;
        }
        break;
    default:
        break;
    }
    return failExpected("a dense element value");
}

bool Parser::parseDenseList(std::vector<std::int64_t>& ints, DenseLiteral& literal)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    advance(); // '['
    while (!is(TokenKind::RSquare)) {
        if (is(TokenKind::LSquare)) {
            if (!parseDenseList(ints, literal))
                return false;
        } else if (!parseDenseScalar(ints, literal)) {
            return false;
        }
        if (!consume(TokenKind::Comma))
            break;
    }
    return expect(TokenKind::RSquare, "',' or ']' in the dense literal");
}

bool Parser::parseDense(Attribute& attribute, bool allowTypeSuffix, DenseLiteral* literalOut)
{
    attribute.kind = Attribute::Kind::Dense;
    attribute.text = "dense";
    advance(); // dense
    if (!expect(TokenKind::Less, "'<' after 'dense'"))
        return false;
    DenseLiteral literal;
    if (is(TokenKind::Greater)) {
        literal.scalar = false;
    } else if (is(TokenKind::String) && m_tok.text.starts_with("\"0x")) {
        literal.hex = m_tok.text.substr(3, m_tok.text.size() - 4);
        literal.hexBlob = true;
        advance();
    } else if (is(TokenKind::LSquare)) {
        if (!parseDenseList(attribute.denseInts, literal))
            return false;
    } else {
        literal.scalar = true;
        if (!parseDenseScalar(attribute.denseInts, literal))
            return false;
    }
    if (!expect(TokenKind::Greater, "'>' to close the dense literal"))
        return false;
    if (allowTypeSuffix && consume(TokenKind::Colon)) {
        if (!parseType(attribute.type))
            return false;
        finalizeDense(attribute, literal);
        return true;
    }
    if (literalOut)
        *literalOut = literal;
    else
        finalizeDense(attribute, literal);
    return true;
}

void finalizeDense(Attribute& attribute, const DenseLiteral& literal)
{
    const std::string& element = attribute.type.elementType;
    const bool integralType = isIntegralElementType(element) || element.empty();
    if (literal.hexBlob) {
        // "0x..." blob: little-endian elements, or one element for a splat.
        const std::size_t bytes = literal.hex.size() / 2;
        const double elementSize = elementBytes(element);
        const int size = int(elementSize);
        const std::int64_t count = elementCount(attribute.type);
        attribute.denseSplat = size >= 1 && double(size) == elementSize && bytes == std::size_t(size) && count != 1;
        attribute.denseInts.clear();
        const std::size_t values = attribute.denseSplat ? 1 : std::size_t(count);
        const bool decodable = isIntegralElementType(element) && element != "i1"
            && (size == 1 || size == 2 || size == 4 || size == 8) && values <= Parser::kMaxDenseInts
            && bytes == values * std::size_t(size);
        if (decodable) {
            const bool isUnsigned = element.starts_with("ui");
            for (std::size_t k = 0; k < values; ++k)
                attribute.denseInts.push_back(hexElement(literal.hex, k, size, isUnsigned));
        }
        return;
    }
    attribute.denseSplat = literal.scalar;
    if (!integralType || !literal.integral || literal.tooMany)
        attribute.denseInts.clear();
}

} // namespace elk::hlo::detail
