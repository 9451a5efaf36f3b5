// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// readHloText / readHloFile, `// -----` parts, and the parser's token, error and value helpers.
#include "engine/hlo/hlo_reader.h"

#include "engine/hlo/hlo_parser.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

namespace elk::hlo {

namespace detail {

    namespace {

        constexpr ValueId kNoValue = std::numeric_limits<ValueId>::max();

    } // namespace

    Parser::Parser(std::string_view text, std::string sourceName, const ReadLimits& limits, Module& module)
        : m_text(text)
        , m_sourceName(std::move(sourceName))
        , m_limits(limits)
        , m_module(module)
        , m_lexer(text, 0, 0, 1, 0)
    {
    }

    // ---- tokens ----------------------------------------------------------------------------------

    void Parser::advance()
    {
        m_prevEnd = m_tok.offset + m_tok.text.size();
        if (m_hasPeek) {
            m_tok = m_peek;
            m_hasPeek = false;
        } else {
            m_tok = m_lexer.next();
        }
    }

    const Token& Parser::peek()
    {
        if (!m_hasPeek) {
            m_peekState = m_lexer.state();
            m_peek = m_lexer.next();
            m_hasPeek = true;
        }
        return m_peek;
    }

    void Parser::dropPeek()
    {
        if (m_hasPeek) {
            m_lexer.restore(m_peekState);
            m_hasPeek = false;
        }
    }

    void Parser::resumeAfterRaw(std::size_t endPos)
    {
        m_prevEnd = endPos;
        m_hasPeek = false;
        m_tok = m_lexer.next();
    }

    bool Parser::consume(TokenKind kind)
    {
        if (m_tok.kind != kind)
            return false;
        advance();
        return true;
    }

    bool Parser::expect(TokenKind kind, std::string_view what)
    {
        if (consume(kind))
            return true;
        return failExpected(what);
    }

    std::string_view Parser::sourceSince(std::size_t offset) const
    {
        return offset <= m_prevEnd ? m_text.substr(offset, m_prevEnd - offset) : std::string_view();
    }

    bool Parser::captureBalanced(std::string_view& raw)
    {
        dropPeek();
        const Token open = m_tok;
        std::size_t closePos = 0;
        const char opener = open.text.empty() ? '(' : open.text.front();
        if (!m_lexer.skipBalanced(opener, closePos)) {
            const char closer = opener == '<' ? '>' : opener == '[' ? ']' : opener == '(' ? ')' : '}';
            const char found = m_lexer.mismatch();
            return fail(open,
                std::string("expected '") + closer + "' to close this '" + opener + "', found "
                    + (found ? std::string("'") + found + "'" : std::string("end of file")));
        }
        raw = m_text.substr(open.offset, closePos + 1 - open.offset);
        resumeAfterRaw(closePos + 1);
        return true;
    }

    // ---- errors ----------------------------------------------------------------------------------

    bool Parser::fail(int line, int column, std::string message)
    {
        if (!m_failed) {
            m_failed = true;
            m_error = ReadError { m_sourceName, SourceLocation { line, column }, std::move(message) };
        }
        return false;
    }

    bool Parser::failExpected(std::string_view what)
    {
        if (m_tok.kind == TokenKind::Error)
            return fail(m_tok, m_lexer.errorMessage());
        return fail(m_tok, "expected " + std::string(what) + ", found " + mlir::describe(m_tok));
    }

    bool Parser::depthExceeded()
    {
        return fail(m_tok, "nesting deeper than " + std::to_string(m_limits.maxNestingDepth) + " levels");
    }

    // ---- values ----------------------------------------------------------------------------------

    ValueId Parser::newValue(std::string name, const Type& type)
    {
        const auto id = ValueId(m_module.valueNames.size());
        m_module.valueNames.push_back(std::move(name));
        m_module.valueTypes.push_back(type);
        return id;
    }

    ValueId Parser::defineValue(std::string_view key, std::string name, const Type& type)
    {
        const ValueId id = newValue(std::move(name), type);
        if (!key.empty())
            bind(key, id);
        return id;
    }

    void Parser::bind(std::string_view key, ValueId id)
    {
        auto [it, inserted] = m_values.try_emplace(key, id);
        m_undo.emplace_back(key, inserted ? kNoValue : it->second);
        if (!inserted)
            it->second = id;
    }

    void Parser::popScope(std::size_t mark)
    {
        while (m_undo.size() > mark) {
            const auto [key, previous] = m_undo.back();
            m_undo.pop_back();
            if (previous == kNoValue)
                m_values.erase(key);
            else
                m_values[key] = previous;
        }
    }

    void Parser::clearScope()
    {
        m_values.clear();
        m_undo.clear();
    }

    bool Parser::useValue(const Token& token, ValueId& id)
    {
        auto it = m_values.find(token.text);
        if (it == m_values.end() && token.text.size() > 2 && token.text.substr(token.text.size() - 2) == "#0")
            it = m_values.find(token.text.substr(0, token.text.size() - 2));
        if (it == m_values.end())
            return fail(token, "use of undefined value " + std::string(token.text));
        id = it->second;
        return true;
    }

    void Parser::fillOperandTypes(Op& op, const std::vector<Type>* declared)
    {
        if (declared && declared->size() == op.operands.size()) {
            op.operandTypes = *declared;
            return;
        }
        op.operandTypes.clear();
        op.operandTypes.reserve(op.operands.size());
        for (const ValueId id : op.operands)
            op.operandTypes.push_back(m_module.valueTypes[id]);
    }

    // ---- parts -----------------------------------------------------------------------------------

    namespace {

        struct Part {
            std::size_t begin = 0;
            std::size_t end = 0;
            int line = 1;
        };

        // `// -----` lines split a test file into independent parts (mlir-opt -split-input-file).
        std::vector<Part> splitParts(std::string_view text)
        {
            std::vector<Part> parts;
            Part current;
            std::size_t pos = 0;
            int line = 1;
            while (pos < text.size()) {
                const std::size_t eol = text.find('\n', pos);
                const std::size_t lineEnd = eol == std::string_view::npos ? text.size() : eol;
                std::size_t first = pos;
                while (first < lineEnd && (text[first] == ' ' || text[first] == '\t'))
                    ++first;
                if (text.compare(first, 8, "// -----") == 0) {
                    current.end = pos;
                    parts.push_back(current);
                    current = Part { lineEnd + 1 <= text.size() ? lineEnd + 1 : text.size(), 0, line + 1 };
                }
                pos = lineEnd + 1;
                ++line;
            }
            current.end = text.size();
            if (current.begin > current.end)
                current.begin = current.end;
            parts.push_back(current);
            return parts;
        }

    } // namespace

} // namespace detail

std::string toString(const ReadError& error)
{
    if (error.location.line <= 0)
        return error.file + ": " + error.message;
    return error.file + ":" + std::to_string(error.location.line) + ":" + std::to_string(error.location.column) + ": "
        + error.message;
}

ReadResult readHloText(std::string_view text, std::string sourceName, const ReadLimits& limits)
{
    ReadResult result;
    const std::vector<detail::Part> parts = detail::splitParts(text);
    for (const detail::Part& part : parts) {
        Module module;
        module.sourceName = sourceName;
        detail::Parser parser(text, sourceName, limits, module);
        switch (parser.parsePart(part.begin, part.end, part.line)) {
        case detail::Parser::PartResult::Parsed:
            result.modules.push_back(std::move(module));
            break;
        case detail::Parser::PartResult::Failed:
            result.errors.push_back(parser.error());
            break;
        case detail::Parser::PartResult::Empty:
            if (parts.size() == 1) {
                result.onlyComments = true;
                result.warnings.push_back(sourceName + ": holds only comments: no module or function");
            }
            break;
        }
    }
    return result;
}

ReadResult readHloFile(const std::string& path, const ReadLimits& limits)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        ReadResult result;
        result.errors.push_back(ReadError { path, {}, "cannot open the file" });
        return result;
    }
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (file.bad()) {
        ReadResult result;
        result.errors.push_back(ReadError { path, {}, "cannot read the file (I/O error)" });
        return result;
    }
    if (const void* nul = std::memchr(text.data(), '\0', text.size())) {
        const std::size_t offset = std::size_t(static_cast<const char*>(nul) - text.data());
        int line = 1;
        std::size_t lineStart = 0;
        for (std::size_t i = 0; i < offset; ++i)
            if (text[i] == '\n') {
                ++line;
                lineStart = i + 1;
            }
        ReadResult result;
        result.errors.push_back(
            ReadError { path, SourceLocation { line, int(offset - lineStart) + 1 }, "not a text file: NUL byte" });
        return result;
    }
    return readHloText(text, path, limits);
}

} // namespace elk::hlo
