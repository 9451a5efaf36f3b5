// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/mlir_lexer.h"

#include <cstring>
#include <limits>

namespace elk::hlo::mlir {

namespace {

    bool isDigit(char c)
    {
        return c >= '0' && c <= '9';
    }
    bool isHexDigit(char c)
    {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
    bool isLetter(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
    // Characters of `%name`, `^bb`, `#alias`, `!type` suffixes (MLIR's suffix-id also allows '-').
    bool isSuffixChar(char c)
    {
        return isIdentifierChar(c) || c == '-';
    }

    std::string hexByte(unsigned char c)
    {
        const char* digits = "0123456789abcdef";
        return std::string("\\x") + digits[c >> 4] + digits[c & 15];
    }

} // namespace

bool isIdentifierChar(char c)
{
    return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.';
}

Lexer::Lexer(std::string_view text, std::size_t begin, std::size_t end, int line, std::size_t lineStart)
    : m_text(text)
    , m_end(end < text.size() ? end : text.size())
{
    m_state.pos = begin;
    m_state.line = line;
    m_state.lineStart = lineStart;
}

Token Lexer::make(TokenKind kind, std::size_t start, bool newLine)
{
    Token token;
    token.kind = kind;
    token.text = m_text.substr(start, m_state.pos - start);
    token.offset = start;
    token.line = m_state.line;
    token.column = int(start - m_state.lineStart) + 1;
    token.newLine = newLine;
    return token;
}

Token Lexer::error(const State& at, std::size_t length, std::string message, bool newLine)
{
    m_error = std::move(message);
    Token token;
    token.kind = TokenKind::Error;
    token.text = m_text.substr(at.pos, length);
    token.offset = at.pos;
    token.line = at.line;
    token.column = int(at.pos - at.lineStart) + 1;
    token.newLine = newLine;
    return token;
}

bool Lexer::skipTrivia()
{
    bool crossed = false;
    std::size_t pos = m_state.pos;
    while (pos < m_end) {
        const char c = m_text[pos];
        if (c == '\n') {
            newLineAt(pos);
            crossed = true;
            ++pos;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++pos;
        } else if (c == '/' && pos + 1 < m_end && m_text[pos + 1] == '/') {
            const void* eol = std::memchr(m_text.data() + pos, '\n', m_end - pos);
            pos = eol ? std::size_t(static_cast<const char*>(eol) - m_text.data()) : m_end;
        } else {
            break;
        }
    }
    m_state.pos = pos;
    return crossed;
}

bool Lexer::skipString(std::size_t& pos)
{
    ++pos; // opening quote
    while (pos < m_end) {
        const char c = m_text[pos];
        if (c == '"') {
            ++pos;
            return true;
        }
        if (c == '\\') {
            pos += 2;
            continue;
        }
        if (c == '\n')
            return false;
        ++pos;
    }
    return false;
}

bool Lexer::skipBalanced(char opener, std::size_t& closePos)
{
    auto closerOf = [](char c) { return c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>'; };
    std::string expected(1, closerOf(opener));
    std::size_t pos = m_state.pos;
    m_mismatch = '\0';
    while (pos < m_end) {
        const char c = m_text[pos];
        const char next = pos + 1 < m_end ? m_text[pos + 1] : '\0';
        switch (c) {
        case '\n':
            newLineAt(pos);
            ++pos;
            break;
        case '"':
            if (!skipString(pos)) {
                m_state.pos = pos;
                return false;
            }
            break;
        case '/':
            if (next == '/') {
                const void* eol = std::memchr(m_text.data() + pos, '\n', m_end - pos);
                pos = eol ? std::size_t(static_cast<const char*>(eol) - m_text.data()) : m_end;
            } else {
                ++pos;
            }
            break;
        case '-':
            pos += next == '>' ? 2 : 1;
            break;
        case '<':
        case '>':
            if (next == '=') { // a comparison (affine sets), not a bracket
                pos += 2;
                break;
            }
            [[fallthrough]];
        case '(':
        case '[':
        case '{':
        case ')':
        case ']':
        case '}':
            if (c == '(' || c == '[' || c == '{' || c == '<') {
                expected.push_back(closerOf(c));
                ++pos;
                break;
            }
            if (c != expected.back()) {
                m_mismatch = c;
                m_state.pos = pos;
                return false;
            }
            expected.pop_back();
            if (expected.empty()) {
                closePos = pos;
                m_state.pos = pos + 1;
                return true;
            }
            ++pos;
            break;
        default:
            ++pos;
        }
    }
    m_state.pos = pos;
    return false;
}

bool Lexer::skipMetadata()
{
    std::size_t pos = m_state.pos;
    while (pos < m_end) {
        const char c = m_text[pos];
        if (c == '\n') {
            newLineAt(pos);
            ++pos;
        } else if (c == '"') {
            if (!skipString(pos))
                break;
        } else if (c == '#' && pos + 2 < m_end && m_text[pos + 1] == '-' && m_text[pos + 2] == '}') {
            m_state.pos = pos + 3;
            return true;
        } else {
            ++pos;
        }
    }
    m_state.pos = pos;
    return false;
}

bool Lexer::skipLocation()
{
    ++m_state.pos; // '('
    std::size_t closePos = 0;
    return skipBalanced('(', closePos);
}

bool Lexer::nextTextIs(std::string_view prefix)
{
    const State saved = m_state;
    skipTrivia();
    const bool result = m_text.substr(m_state.pos, m_end - m_state.pos).substr(0, prefix.size()) == prefix;
    m_state = saved;
    return result;
}

Lexer::DimResult Lexer::scanDimensions(std::vector<std::int64_t>& dims, std::size_t& errorPos)
{
    skipTrivia();
    std::size_t pos = m_state.pos;
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    while (pos < m_end) {
        const char c = m_text[pos];
        std::int64_t value = 0;
        if (c == '?') {
            value = -1;
            ++pos;
        } else if (isDigit(c)) {
            const std::size_t start = pos;
            while (pos < m_end && isDigit(m_text[pos])) {
                const int digit = m_text[pos] - '0';
                if (value > (kMax - digit) / 10) {
                    errorPos = start;
                    m_state.pos = pos;
                    return DimResult::Overflow;
                }
                value = value * 10 + digit;
                ++pos;
            }
        } else {
            break;
        }
        if (pos >= m_end || m_text[pos] != 'x') {
            errorPos = pos;
            m_state.pos = pos;
            return DimResult::MissingX;
        }
        ++pos;
        dims.push_back(value);
    }
    m_state.pos = pos;
    return DimResult::Ok;
}

Token Lexer::next()
{
    bool newLine = false;
    for (;;) {
        newLine = skipTrivia() || newLine;
        const State startState = m_state;
        const std::size_t start = m_state.pos;
        if (start >= m_end)
            return make(TokenKind::EndOfFile, start, newLine);
        const char c = m_text[start];
        std::size_t& pos = m_state.pos;
        auto single = [&](TokenKind kind) {
            ++pos;
            return make(kind, start, newLine);
        };
        if (isLetter(c) || c == '_') {
            ++pos;
            while (pos < m_end && isIdentifierChar(m_text[pos]))
                ++pos;
            if (pos - start == 3 && m_text.compare(start, 3, "loc") == 0 && pos < m_end && m_text[pos] == '(') {
                if (!skipLocation()) {
                    const char found = m_mismatch;
                    return error(startState, 3,
                        std::string("expected ')' to close 'loc(', found ")
                            + (found ? std::string("'") + found + "'" : std::string("end of file")),
                        newLine);
                }
                continue;
            }
            return make(TokenKind::BareId, start, newLine);
        }
        if (isDigit(c)) {
            ++pos;
            if (c == '0' && pos + 1 < m_end && m_text[pos] == 'x' && isHexDigit(m_text[pos + 1])) {
                pos += 1;
                while (pos < m_end && isHexDigit(m_text[pos]))
                    ++pos;
                return make(TokenKind::Integer, start, newLine);
            }
            while (pos < m_end && isDigit(m_text[pos]))
                ++pos;
            if (pos >= m_end || m_text[pos] != '.')
                return make(TokenKind::Integer, start, newLine);
            ++pos;
            while (pos < m_end && isDigit(m_text[pos]))
                ++pos;
            if (pos < m_end && (m_text[pos] == 'e' || m_text[pos] == 'E')) {
                std::size_t exponent = pos + 1;
                if (exponent < m_end && (m_text[exponent] == '+' || m_text[exponent] == '-'))
                    ++exponent;
                if (exponent < m_end && isDigit(m_text[exponent])) {
                    pos = exponent;
                    while (pos < m_end && isDigit(m_text[pos]))
                        ++pos;
                }
            }
            return make(TokenKind::Float, start, newLine);
        }
        switch (c) {
        case '%':
        case '^':
        case '!':
        case '#': {
            if (c == '#' && start + 2 < m_end && m_text[start + 1] == '-' && m_text[start + 2] == '}') {
                pos += 3;
                return make(TokenKind::MetadataEnd, start, newLine);
            }
            ++pos;
            while (pos < m_end && isSuffixChar(m_text[pos]))
                ++pos;
            if (pos == start + 1)
                return error(startState, 1, std::string("expected an identifier after '") + c + "'", newLine);
            if (c == '%' && pos + 1 < m_end && m_text[pos] == '#' && isDigit(m_text[pos + 1])) {
                ++pos;
                while (pos < m_end && isDigit(m_text[pos]))
                    ++pos;
            }
            const TokenKind kind = c == '%' ? TokenKind::PercentId
                : c == '^'                  ? TokenKind::CaretId
                : c == '!'                  ? TokenKind::BangId
                                            : TokenKind::HashId;
            return make(kind, start, newLine);
        }
        case '@':
            ++pos;
            if (pos < m_end && m_text[pos] == '"') {
                if (!skipString(pos))
                    return error(startState, 1, "expected '\"' to close the string, found end of line", newLine);
                return make(TokenKind::AtId, start, newLine);
            }
            while (pos < m_end && (isSuffixChar(m_text[pos])))
                ++pos;
            if (pos == start + 1)
                return error(startState, 1, "expected a symbol name after '@'", newLine);
            return make(TokenKind::AtId, start, newLine);
        case '"':
            if (!skipString(pos)) {
                const bool atEnd = pos >= m_end;
                return error(startState, 1,
                    std::string("expected '\"' to close the string, found ") + (atEnd ? "end of file" : "end of line"),
                    newLine);
            }
            return make(TokenKind::String, start, newLine);
        case '(':
            return single(TokenKind::LParen);
        case ')':
            return single(TokenKind::RParen);
        case '{':
            if (start + 2 < m_end && m_text[start + 1] == '-' && m_text[start + 2] == '#') {
                pos += 3;
                return make(TokenKind::MetadataBegin, start, newLine);
            }
            return single(TokenKind::LBrace);
        case '}':
            return single(TokenKind::RBrace);
        case '[':
            return single(TokenKind::LSquare);
        case ']':
            return single(TokenKind::RSquare);
        case '<':
            return single(TokenKind::Less);
        case '>':
            return single(TokenKind::Greater);
        case ':':
            return single(TokenKind::Colon);
        case ',':
            return single(TokenKind::Comma);
        case '=':
            return single(TokenKind::Equal);
        case '-':
            if (start + 1 < m_end && m_text[start + 1] == '>') {
                pos += 2;
                return make(TokenKind::Arrow, start, newLine);
            }
            return single(TokenKind::Minus);
        case '+':
            return single(TokenKind::Plus);
        case '?':
            return single(TokenKind::Question);
        case '*':
            return single(TokenKind::Star);
        case '|':
            return single(TokenKind::Pipe);
        default:
            break;
        }
        const unsigned char byte = static_cast<unsigned char>(c);
        std::string shown = (byte >= 0x20 && byte < 0x7f) ? std::string(1, c) : hexByte(byte);
        return error(startState, 1, "unexpected character '" + shown + "'", newLine);
    }
}

std::string unescapeString(std::string_view quoted)
{
    std::string_view body = quoted;
    if (body.size() >= 2 && body.front() == '"' && body.back() == '"')
        body = body.substr(1, body.size() - 2);
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c != '\\' || i + 1 >= body.size()) {
            out += c;
            continue;
        }
        const char e = body[i + 1];
        if (isHexDigit(e) && i + 2 < body.size() && isHexDigit(body[i + 2])) {
            auto value = [](char h) { return isDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10; };
            out += char(value(e) * 16 + value(body[i + 2]));
            i += 2;
            continue;
        }
        switch (e) {
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        default:
            out += e; // \\, \"
        }
        ++i;
    }
    return out;
}

std::string describe(const Token& token)
{
    if (token.kind == TokenKind::EndOfFile)
        return "end of file";
    std::string shown;
    for (char c : token.text.substr(0, 40)) {
        const unsigned char byte = static_cast<unsigned char>(c);
        shown += (byte >= 0x20 && byte < 0x7f) ? std::string(1, c) : hexByte(byte);
    }
    if (token.text.size() > 40)
        shown += "...";
    return "'" + shown + "'";
}

} // namespace elk::hlo::mlir
