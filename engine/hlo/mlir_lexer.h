// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Tokeniser for MLIR's textual syntax (import.md §4.9). Tokens are views into the text, so lexing
// allocates nothing. `loc(...)` is trivia here: it is skipped wherever it appears, like a comment.
// The parser drops to character level for what tokens cannot express: `4x?xbf16` dimension lists
// and the raw bodies of `#dialect<...>` attributes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace elk::hlo::mlir {

enum class TokenKind : std::uint8_t {
    EndOfFile,
    Error, ///< `Lexer::errorMessage()` says what is wrong
    BareId, ///< foo, stablehlo.add, i32, x, true
    PercentId, ///< %0, %arg0, %0#1 (text includes '%' and the '#N' suffix)
    AtId, ///< @main, @"quoted" (text includes '@' and quotes)
    HashId, ///< #loc1, #stablehlo.dot
    BangId, ///< !stablehlo.token
    CaretId, ///< ^bb0
    String, ///< "..." (text includes the quotes, escapes kept)
    Integer, ///< 12, 0x7FC00000
    Float, ///< 1.5, 1.000000e+00
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Colon,
    Comma,
    Equal,
    Arrow, ///< ->
    Minus,
    Plus,
    Question,
    Star,
    Pipe,
    MetadataBegin, ///< {-#
    MetadataEnd, ///< #-}
};

struct Token {
    TokenKind kind = TokenKind::EndOfFile;
    std::string_view text;
    std::size_t offset = 0; ///< into the whole text
    int line = 1;
    int column = 1;
    bool newLine = false; ///< a line break separates it from the previous token
};

class Lexer {
public:
    struct State {
        std::size_t pos = 0;
        std::size_t lineStart = 0;
        int line = 1;
    };

    /// Lexes text[begin, end); `line` and `lineStart` locate `begin` in the whole text.
    Lexer(std::string_view text, std::size_t begin, std::size_t end, int line, std::size_t lineStart);

    Token next();

    State state() const { return m_state; }
    void restore(const State& state) { m_state = state; }
    std::size_t end() const { return m_end; }
    std::string_view text() const { return m_text; }
    const std::string& errorMessage() const { return m_error; }

    /// Line and column of a position at or after the current line start.
    int columnOf(std::size_t pos) const { return int(pos - m_state.lineStart) + 1; }

    /// The next character (no trivia skipped), '\0' at the end.
    char peekChar() const { return m_state.pos < m_end ? m_text[m_state.pos] : '\0'; }
    /// True when, after trivia other than `loc(...)`, the text continues with `prefix`.
    bool nextTextIs(std::string_view prefix);

    enum class DimResult { Ok, Overflow, MissingX };
    /// Reads `(N|?)x` groups of a tensor type (right after its '<'); stops before the element type.
    /// On failure `errorPos` is where the problem is.
    DimResult scanDimensions(std::vector<std::int64_t>& dims, std::size_t& errorPos);

    /// After an opening bracket `opener` (the last token), moves past its matching closer, skipping
    /// strings and comments; `->` and `>=` do not close '<'. Returns false at the end of the text
    /// or at a closer of the wrong kind (`mismatch()` tells which: '\0' for the end); `closePos` is
    /// the closer's position.
    bool skipBalanced(char opener, std::size_t& closePos);
    char mismatch() const { return m_mismatch; }
    /// Moves past the next `#-}` (after a `{-#`). False if there is none.
    bool skipMetadata();

private:
    Token make(TokenKind kind, std::size_t start, bool newLine);
    Token error(const State& at, std::size_t length, std::string message, bool newLine);
    bool skipTrivia(); ///< returns true if a line break was crossed
    bool skipLocation(); ///< after `loc`, at '('
    bool skipString(std::size_t& pos); ///< at '"'; moves past the closing quote
    void newLineAt(std::size_t pos)
    {
        ++m_state.line;
        m_state.lineStart = pos + 1;
    }

    std::string_view m_text;
    std::size_t m_end;
    State m_state;
    std::string m_error;
    char m_mismatch = '\0';
};

/// Content of a string token (without quotes), escapes resolved: `\22` → '"', `\\`, `\n`, `\t`.
std::string unescapeString(std::string_view quoted);
/// True for characters of a bare identifier after the first one.
bool isIdentifierChar(char c);
/// "'text'" (shortened) or "end of file", for error messages.
std::string describe(const Token& token);

} // namespace elk::hlo::mlir
