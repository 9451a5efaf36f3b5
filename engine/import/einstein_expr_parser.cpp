// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_expr_parser.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace elk::import::einstein {

namespace {

    enum class TokKind { Name, Int, Float, String, BackString, Punct, End };

    struct Token {
        TokKind kind = TokKind::End;
        std::string text;
        std::size_t column = 0; ///< 1-based, in the enclosing text
        std::int64_t integer = 0;
        double number = 0.0;
    };

    // Thrown inside the parser only; parseKernel()/parseStatements() turn it into a SyntaxError.
    struct ParseFailure {
        std::size_t column;
        std::string message;
    };

    constexpr int kMaxDepth = 200; // deeper nesting is refused, not recursed into

    std::string describe(const Token& token)
    {
        switch (token.kind) {
        case TokKind::End:
            return "the end of the text";
        case TokKind::String:
            return "a string";
        case TokKind::BackString:
            return "`" + token.text + "`";
        default:
            return "'" + token.text + "'";
        }
    }

    class Lexer {
    public:
        Lexer(std::string_view text, std::size_t columnOffset)
            : m_text(text)
            , m_offset(columnOffset)
        {
        }

        std::size_t columnAt(std::size_t pos) const { return m_offset + pos + 1; }

        Token next()
        {
            skipSpace();
            Token token;
            token.column = columnAt(m_pos);
            if (m_pos >= m_text.size())
                return token;
            const char c = m_text[m_pos];
            if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                const std::size_t start = m_pos;
                while (m_pos < m_text.size()
                    && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                    ++m_pos;
                token.kind = TokKind::Name;
                token.text = std::string(m_text.substr(start, m_pos - start));
                return token;
            }
            if (std::isdigit(static_cast<unsigned char>(c)))
                return number(token);
            if (c == '"' || c == '\'' || c == '`') {
                const std::size_t close = m_text.find(c, m_pos + 1);
                if (close == std::string_view::npos)
                    throw ParseFailure { token.column, std::string("unterminated string: no closing ") + c };
                token.kind = c == '`' ? TokKind::BackString : TokKind::String;
                token.text = std::string(m_text.substr(m_pos + 1, close - m_pos - 1));
                token.integer = std::int64_t(m_pos + 1); // where the contents start (0-based)
                m_pos = close + 1;
                return token;
            }
            static constexpr std::string_view kLong[]
                = { "+=!", ">=!", "<=!", "*=!", "==", "!=", "<=", ">=", "//", "##", "=." };
            for (std::string_view op : kLong) {
                if (m_text.substr(m_pos, op.size()) == op) {
                    token.kind = TokKind::Punct;
                    token.text = std::string(op);
                    m_pos += op.size();
                    return token;
                }
            }
            static constexpr std::string_view kSingle = "+-*/%()[]{},.;:<>=~&|!";
            if (kSingle.find(c) != std::string_view::npos) {
                token.kind = TokKind::Punct;
                token.text = std::string(1, c);
                ++m_pos;
                return token;
            }
            throw ParseFailure { token.column, std::string("unexpected character '") + c + "'" };
        }

    private:
        void skipSpace()
        {
            while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
                ++m_pos;
        }

        Token number(Token token)
        {
            const std::size_t start = m_pos;
            bool isFloat = false;
            auto digits = [&] {
                while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])))
                    ++m_pos;
            };
            digits();
            if (m_pos + 1 < m_text.size() && m_text[m_pos] == '.'
                && std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1]))) {
                isFloat = true;
                ++m_pos;
                digits();
            } else if (m_pos < m_text.size() && m_text[m_pos] == '.'
                && (m_pos + 1 >= m_text.size() || !std::isalpha(static_cast<unsigned char>(m_text[m_pos + 1])))) {
                isFloat = true; // "0." (but "4.cast" is not a float)
                ++m_pos;
            }
            if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
                std::size_t p = m_pos + 1;
                if (p < m_text.size() && (m_text[p] == '+' || m_text[p] == '-'))
                    ++p;
                if (p < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[p]))) {
                    isFloat = true;
                    m_pos = p;
                    digits();
                }
            }
            token.text = std::string(m_text.substr(start, m_pos - start));
            if (isFloat) {
                token.kind = TokKind::Float;
                token.number = std::strtod(token.text.c_str(), nullptr);
                return token;
            }
            token.kind = TokKind::Int;
            const auto [end, ec]
                = std::from_chars(token.text.data(), token.text.data() + token.text.size(), token.integer);
            if (ec != std::errc() || end != token.text.data() + token.text.size())
                throw ParseFailure { token.column, "integer " + token.text + " is too large" };
            token.number = double(token.integer);
            return token;
        }

        std::string_view m_text;
        std::size_t m_offset;
        std::size_t m_pos = 0;
    };

    // Recursive-descent parser over a token stream with one token of lookahead.
    class Parser {
    public:
        Parser(std::string_view text, std::size_t columnOffset)
            : m_lexer(text, columnOffset)
        {
            m_token = m_lexer.next();
        }

        const Token& peek() const { return m_token; }
        bool atPunct(std::string_view text) const { return m_token.kind == TokKind::Punct && m_token.text == text; }
        bool atName(std::string_view text) const { return m_token.kind == TokKind::Name && m_token.text == text; }

        Token take()
        {
            Token token = m_token;
            m_token = m_lexer.next();
            return token;
        }

        [[noreturn]] void fail(const std::string& expected) const
        {
            throw ParseFailure { m_token.column, "expected " + expected + ", found " + describe(m_token) };
        }

        Token expectPunct(std::string_view text, const std::string& what)
        {
            if (!atPunct(text))
                fail(what);
            return take();
        }

        Token expectName(const std::string& what)
        {
            if (m_token.kind != TokKind::Name)
                fail(what);
            return take();
        }

        std::int64_t expectInteger(const std::string& what)
        {
            if (m_token.kind != TokKind::Int)
                fail(what);
            std::int64_t value = take().integer;
            // Shapes are sometimes written as products ("[1024 * 512]").
            while (atPunct("*")) {
                take();
                if (m_token.kind != TokKind::Int)
                    fail("an integer after '*'");
                const std::int64_t factor = take().integer;
                if (factor != 0 && value > std::numeric_limits<std::int64_t>::max() / factor)
                    throw ParseFailure { m_token.column, "integer product overflows" };
                value *= factor;
            }
            return value;
        }

        std::vector<Statement> statements()
        {
            std::vector<Statement> result;
            while (m_token.kind != TokKind::End) {
                if (atPunct(";")) {
                    take();
                    continue;
                }
                result.push_back(statement());
                if (m_token.kind != TokKind::End && !atPunct(";"))
                    fail("';' or the end of the statements");
            }
            return result;
        }

    private:
        Statement statement()
        {
            Statement s;
            const Token target = expectName("a tensor name such as output0 at the start of a statement");
            s.target = target.text;
            s.targetColumn = target.column;
            expectPunct("[", "'[' after " + s.target);
            if (!atPunct("]")) {
                while (true) {
                    if (m_token.kind != TokKind::Name)
                        fail("an index name in the index list of " + s.target);
                    const Token name = take();
                    s.outputIndices.push_back({ name.text, name.column });
                    if (atPunct(","))
                        take();
                    else
                        break;
                }
            }
            expectPunct("]", "',' or ']' in the index list of " + s.target);
            s.opColumn = m_token.column;
            if (atPunct("="))
                s.op = AssignOp::Assign;
            else if (atPunct("=."))
                s.op = AssignOp::Assign;
            else if (atPunct("+=!"))
                s.op = AssignOp::Sum;
            else if (atPunct(">=!"))
                s.op = AssignOp::Max;
            else if (atPunct("<=!"))
                s.op = AssignOp::Min;
            else if (atPunct("*=!"))
                s.op = AssignOp::Product;
            else
                fail("an assignment ('=', '+=!', '>=!', '<=!' or '*=!') after " + s.target + "[...]");
            take();
            s.rhs = gatherExpression(s);
            if (atName("where")) {
                take();
                while (true) {
                    const Token name = expectName("an index name after 'where'");
                    if (!atName("in"))
                        fail("'in' after " + name.text + " in the where clause");
                    take();
                    const std::int64_t extent = expectInteger("the extent of " + name.text + " (an integer)");
                    s.where.push_back({ name.text, extent, name.column });
                    if (!atPunct(","))
                        break;
                    take();
                }
            }
            return s;
        }

        // NNFusion's GatherV2 form `table[G, N2] g indices[N0, N1]`: the table index absent from the
        // target's index list is the gathered axis; it is read at the rows the indices tensor holds,
        // i.e. the statement is `table[indices[N0, N1], N2]`, which is what we keep.
        std::unique_ptr<Expr> gatherExpression(const Statement& s)
        {
            auto table = expression(0);
            if (!atName("g"))
                return table;
            const Token op = take();
            auto indices = expression(0);
            if (table->kind != ExprKind::Load)
                throw ParseFailure { table->column,
                    "the left side of 'g' must be a table element such as input0[G, N]" };
            int gathered = -1;
            for (std::size_t k = 0; k < table->children.size(); ++k) {
                const Expr& index = *table->children[k];
                if (index.kind != ExprKind::Name)
                    continue;
                bool inTarget = false;
                for (const IndexName& name : s.outputIndices)
                    inTarget = inTarget || name.name == index.text;
                if (inTarget)
                    continue;
                if (gathered >= 0)
                    throw ParseFailure { index.column,
                        "'g' gathers one axis of " + table->text + ", but both "
                            + table->children[std::size_t(gathered)]->text + " and " + index.text + " are absent from "
                            + s.target + "[...]" };
                gathered = int(k);
            }
            if (gathered < 0)
                throw ParseFailure { op.column,
                    "'g' needs one index of " + table->text + " that is absent from " + s.target
                        + "[...] (the gathered axis), and every index is there" };
            table->children[std::size_t(gathered)] = std::move(indices);
            return table;
        }

        std::unique_ptr<Expr> make(ExprKind kind, const Token& at, std::string text = {})
        {
            auto e = std::make_unique<Expr>();
            e->kind = kind;
            e->column = at.column;
            e->text = std::move(text);
            return e;
        }

        std::unique_ptr<Expr> binary(std::unique_ptr<Expr> left, const Token& op, std::unique_ptr<Expr> right)
        {
            auto e = make(ExprKind::Binary, op, op.text);
            e->column = left->column;
            e->children.push_back(std::move(left));
            e->children.push_back(std::move(right));
            return e;
        }

        void enter(int depth) const
        {
            if (depth > kMaxDepth)
                throw ParseFailure { m_token.column, "expression nested deeper than 200 levels" };
        }

        std::unique_ptr<Expr> expression(int depth)
        {
            enter(depth);
            auto left = andExpr(depth);
            while (atPunct("|")) {
                const Token op = take();
                left = binary(std::move(left), op, andExpr(depth));
            }
            return left;
        }

        std::unique_ptr<Expr> andExpr(int depth)
        {
            auto left = comparison(depth);
            while (atPunct("&")) {
                const Token op = take();
                left = binary(std::move(left), op, comparison(depth));
            }
            return left;
        }

        std::unique_ptr<Expr> comparison(int depth)
        {
            auto left = additive(depth);
            for (std::string_view op : { "==", "!=", "<", "<=", ">", ">=" }) {
                if (atPunct(op)) {
                    const Token token = take();
                    return binary(std::move(left), token, additive(depth));
                }
            }
            return left;
        }

        std::unique_ptr<Expr> additive(int depth)
        {
            auto left = multiplicative(depth);
            while (atPunct("+") || atPunct("-")) {
                const Token op = take();
                left = binary(std::move(left), op, multiplicative(depth));
            }
            return left;
        }

        std::unique_ptr<Expr> multiplicative(int depth)
        {
            auto left = unary(depth);
            while (atPunct("*") || atPunct("/") || atPunct("//") || atPunct("%")) {
                const Token op = take();
                left = binary(std::move(left), op, unary(depth));
            }
            return left;
        }

        std::unique_ptr<Expr> unary(int depth)
        {
            if (atPunct("-") || atPunct("+") || atPunct("~")) {
                enter(depth + 1);
                const Token op = take();
                auto e = make(ExprKind::Unary, op, op.text);
                e->children.push_back(unary(depth + 1));
                return e;
            }
            return postfix(depth);
        }

        std::unique_ptr<Expr> postfix(int depth)
        {
            auto object = primary(depth);
            while (atPunct(".")) {
                take();
                const Token name = expectName("a method name after '.' (when, call, cast, dtype)");
                auto e = make(ExprKind::Method, name, name.text);
                e->column = object->column;
                e->children.push_back(std::move(object));
                expectPunct("(", "'(' after ." + name.text);
                arguments(*e, ")", depth);
                object = std::move(e);
            }
            return object;
        }

        // Parses "a, b, c" up to `close` (consumed) and appends to `into`.
        void arguments(Expr& into, std::string_view close, int depth)
        {
            if (!atPunct(close)) {
                while (true) {
                    into.children.push_back(expression(depth + 1));
                    if (!atPunct(","))
                        break;
                    take();
                    if (atPunct(close))
                        break; // trailing comma
                }
            }
            expectPunct(close, "',' or '" + std::string(close) + "'");
        }

        std::unique_ptr<Expr> primary(int depth)
        {
            enter(depth + 1);
            const Token& t = m_token;
            switch (t.kind) {
            case TokKind::Int:
            case TokKind::Float: {
                const Token token = take();
                auto e = make(ExprKind::Number, token, token.text);
                e->isInteger = token.kind == TokKind::Int;
                e->integer = token.integer;
                e->number = token.number;
                return e;
            }
            case TokKind::BackString: {
                const Token token = take();
                return make(ExprKind::Str, token, token.text);
            }
            case TokKind::Name: {
                const Token name = take();
                if (atPunct("[")) {
                    take();
                    auto e = make(ExprKind::Load, name, name.text);
                    arguments(*e, "]", depth);
                    return e;
                }
                if (atPunct("(")) {
                    take();
                    auto e = make(ExprKind::Call, name, name.text);
                    arguments(*e, ")", depth);
                    return e;
                }
                return make(ExprKind::Name, name, name.text);
            }
            case TokKind::Punct:
                if (t.text == "(") {
                    take();
                    auto inner = expression(depth + 1);
                    expectPunct(")", "')' to close '('");
                    return inner;
                }
                if (t.text == "[") {
                    const Token open = take();
                    auto e = make(ExprKind::List, open, "[]");
                    arguments(*e, "]", depth);
                    return e;
                }
                break;
            default:
                break;
            }
            fail("a value (a number, an index name, a tensor element such as input0[N], or '(')");
        }

        Lexer m_lexer;
        Token m_token;
    };

    // ---------------------------------------------------------------------------------------------
    // The kernel header: - einstein_v2("...", input_dict={...}) ## annotation

    // A Python literal (the input_dict): dicts, lists, strings, numbers, True/False/None.
    struct Literal {
        enum class Type { Dict, List, String, Integer, Float, Other } type = Type::Other;
        std::size_t column = 0;
        std::size_t keyColumn = 0; ///< where its key starts, for a dict entry
        std::string key; ///< its key, for a dict entry
        std::string text;
        std::int64_t integer = 0;
        // A vector of the type being defined (allowed since C++17); a pair of it is not (clang rejects it).
        std::vector<Literal> entries; // Dict, each with its key
        std::vector<Literal> items; // List
    };

    Literal literal(Parser& p, int depth)
    {
        if (depth > kMaxDepth)
            p.fail("a flatter input_dict (nested deeper than 200 levels)");
        Literal value;
        value.column = p.peek().column;
        if (p.atPunct("{")) {
            p.take();
            value.type = Literal::Type::Dict;
            while (!p.atPunct("}")) {
                if (p.peek().kind != TokKind::String)
                    p.fail("a quoted key or '}' in input_dict");
                Token key = p.take();
                p.expectPunct(":", "':' after the key \"" + key.text + "\"");
                Literal item = literal(p, depth + 1);
                item.keyColumn = key.column;
                item.key = key.text;
                value.entries.push_back(std::move(item));
                if (!p.atPunct(","))
                    break;
                p.take();
            }
            p.expectPunct("}", "',' or '}' in input_dict");
            return value;
        }
        if (p.atPunct("[")) {
            p.take();
            value.type = Literal::Type::List;
            while (!p.atPunct("]")) {
                value.items.push_back(literal(p, depth + 1));
                if (!p.atPunct(","))
                    break;
                p.take();
            }
            p.expectPunct("]", "',' or ']' in a list");
            return value;
        }
        if (p.peek().kind == TokKind::String) {
            value.type = Literal::Type::String;
            value.text = p.take().text;
            return value;
        }
        bool negative = false;
        if (p.atPunct("-")) {
            p.take();
            negative = true;
        }
        if (p.peek().kind == TokKind::Int) {
            value.type = Literal::Type::Integer;
            value.integer = p.expectInteger("an integer");
            if (negative)
                value.integer = -value.integer;
            return value;
        }
        if (p.peek().kind == TokKind::Float) {
            value.type = Literal::Type::Float;
            value.text = p.take().text;
            return value;
        }
        if (p.peek().kind == TokKind::Name) {
            value.text = p.take().text; // True, False, None
            return value;
        }
        p.fail("a value (a dict, a list, a string or a number) in input_dict");
    }

    std::map<std::string, InputDecl> inputDecls(const Literal& dict)
    {
        std::map<std::string, InputDecl> decls;
        if (dict.type != Literal::Type::Dict)
            throw ParseFailure { dict.column, "expected input_dict to be a dict {\"input0\": {...}, ...}" };
        for (const Literal& entry : dict.entries) {
            const std::string& name = entry.key;
            const std::size_t keyColumn = entry.keyColumn;
            if (entry.type != Literal::Type::Dict)
                throw ParseFailure { entry.column,
                    "expected the entry \"" + name
                        + "\" of input_dict to be a dict {\"dtype\": ..., \"shape\": [...]}" };
            InputDecl decl;
            decl.column = keyColumn ? keyColumn : entry.column;
            bool haveDtype = false;
            bool haveShape = false;
            for (const Literal& value : entry.entries) {
                const std::string& key = value.key;
                if (key == "dtype") {
                    if (value.type != Literal::Type::String)
                        throw ParseFailure { value.column, "expected \"dtype\" of " + name + " to be a string" };
                    decl.dtype = value.text;
                    haveDtype = true;
                } else if (key == "shape") {
                    if (value.type != Literal::Type::List)
                        throw ParseFailure { value.column,
                            "expected \"shape\" of " + name + " to be a list of integers" };
                    for (const Literal& extent : value.items) {
                        if (extent.type != Literal::Type::Integer)
                            throw ParseFailure { extent.column, "expected an integer extent in the shape of " + name };
                        decl.shape.push_back(extent.integer);
                    }
                    haveShape = true;
                }
            }
            if (!haveDtype || !haveShape)
                throw ParseFailure { decl.column,
                    "input_dict entry \"" + name + "\" needs both \"dtype\" and \"shape\"" };
            if (decls.count(name))
                throw ParseFailure { decl.column, "input_dict lists \"" + name + "\" twice" };
            decls.emplace(name, std::move(decl));
        }
        return decls;
    }

    void appendTo(std::string& out, const Expr& e);

    void appendList(std::string& out, const Expr& e, std::size_t from, const char* open, const char* close)
    {
        out += open;
        for (std::size_t i = from; i < e.children.size(); ++i) {
            if (i > from)
                out += ", ";
            appendTo(out, *e.children[i]);
        }
        out += close;
    }

    void appendTo(std::string& out, const Expr& e)
    {
        switch (e.kind) {
        case ExprKind::Number:
        case ExprKind::Name:
            out += e.text;
            break;
        case ExprKind::Str:
            out += "`" + e.text + "`";
            break;
        case ExprKind::Load:
            out += e.text;
            appendList(out, e, 0, "[", "]");
            break;
        case ExprKind::Call:
            out += e.text;
            appendList(out, e, 0, "(", ")");
            break;
        case ExprKind::List:
            appendList(out, e, 0, "[", "]");
            break;
        case ExprKind::Unary:
            out += e.text;
            appendTo(out, *e.children[0]);
            break;
        case ExprKind::Binary:
            out += "(";
            appendTo(out, *e.children[0]);
            out += " " + e.text + " ";
            appendTo(out, *e.children[1]);
            out += ")";
            break;
        case ExprKind::Method:
            appendTo(out, *e.children[0]);
            out += "." + e.text;
            appendList(out, e, 1, "(", ")");
            break;
        }
    }

} // namespace

std::optional<std::vector<Statement>> parseStatements(
    std::string_view text, std::size_t columnOffset, SyntaxError& error)
{
    try {
        Parser parser(text, columnOffset);
        auto statements = parser.statements();
        if (statements.empty()) {
            error = { columnOffset + 1, "expected at least one statement such as output0[N] = input0[N]" };
            return std::nullopt;
        }
        return statements;
    } catch (const ParseFailure& failure) {
        error = { failure.column, failure.message };
        return std::nullopt;
    }
}

std::optional<Kernel> parseKernel(std::string_view text, SyntaxError& error)
{
    try {
        Parser p(text, 0);
        if (p.atPunct("-"))
            p.take();
        if (!p.atName("einstein_v2"))
            p.fail("'- einstein_v2(' at the start of the kernel text");
        p.take();
        p.expectPunct("(", "'(' after einstein_v2");
        Kernel kernel;
        std::optional<Token> expression;
        bool haveDict = false;
        while (!p.atPunct(")")) {
            if (p.peek().kind == TokKind::String) {
                if (expression)
                    p.fail("only one expression string");
                expression = p.take();
            } else {
                const Token key = p.expectName("the expression string or a keyword argument (input_dict=...)");
                p.expectPunct("=", "'=' after " + key.text);
                if (key.text == "input_dict") {
                    kernel.inputs = inputDecls(literal(p, 0));
                    haveDict = true;
                } else if (key.text == "exprss" || key.text == "expression") {
                    if (p.peek().kind != TokKind::String || expression)
                        p.fail("one expression string after " + key.text + "=");
                    expression = p.take();
                } else {
                    literal(p, 0); // extra_outputs=[...] and the like: not needed for shapes
                }
            }
            if (!p.atPunct(","))
                break;
            p.take();
        }
        p.expectPunct(")", "',' or ')' to close einstein_v2(");
        if (!expression)
            throw ParseFailure { p.peek().column, "einstein_v2(...) has no expression string" };
        if (!haveDict)
            throw ParseFailure { p.peek().column, "einstein_v2(...) has no input_dict={...}" };
        if (p.atPunct("##")) {
            std::string annotation(text.substr(p.peek().column + 1)); // everything after "##" (column is 1-based)
            const auto first = annotation.find_first_not_of(" \t\r\n");
            const auto last = annotation.find_last_not_of(" \t\r\n");
            kernel.annotation = first == std::string::npos ? "" : annotation.substr(first, last - first + 1);
        } else if (p.peek().kind != TokKind::End) {
            p.fail("the end of the kernel text or a '## ...' annotation after einstein_v2(...)");
        }
        const std::size_t contentStart = std::size_t(expression->integer); // 0-based offset of the contents
        auto statements = parseStatements(expression->text, contentStart, error);
        if (!statements)
            return std::nullopt;
        kernel.statements = std::move(*statements);
        return kernel;
    } catch (const ParseFailure& failure) {
        error = { failure.column, failure.message };
        return std::nullopt;
    }
}

std::string toString(const Expr& expr)
{
    std::string out;
    appendTo(out, expr);
    return out;
}

} // namespace elk::import::einstein
