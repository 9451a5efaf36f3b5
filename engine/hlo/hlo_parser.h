// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal: the recursive-descent parser behind readHloText. Split over hlo_reader.cpp (parts,
// tokens, errors, values), hlo_reader_structure.cpp (modules, functions, regions, generic ops),
// hlo_reader_types.cpp, hlo_reader_attrs.cpp (attributes, dense literals), hlo_reader_ops.cpp and
// hlo_reader_forms.cpp (pretty op forms). Failures are recorded once and every parse function
// returns false from then on; every loop consumes a token or fails, so no input can loop or throw.

#include "engine/hlo/hlo_reader.h"
#include "engine/hlo/mlir_lexer.h"

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace elk::hlo::detail {

using mlir::Token;
using mlir::TokenKind;

/// What a `dense<...>` literal held, kept until its type is known (it may follow the literal
/// only as the op's result type).
struct DenseLiteral {
    std::string_view hex; ///< digits of a "0x..." blob
    bool hexBlob = false;
    bool scalar = false; ///< one literal for the whole tensor
    bool integral = true; ///< every literal an integer or bool
    bool tooMany = false; ///< more integral literals than are kept
};

/// An entry-block argument known before its region is parsed (function, while, reducer).
struct EntryArgument {
    std::string_view key; ///< name as written, empty when unnamed
    Type type;
};

/// A `: ...` type signature of a pretty op.
struct Signature {
    std::vector<Type> inputs;
    std::vector<Type> results;
    bool present = false;
    bool functional = false; ///< `(A) -> B`, `A -> B`, `A to B`
};

/// What the item parser of a pretty op collected besides operands and named attributes.
struct PrettyState {
    std::string_view shortName; ///< "add" for stablehlo.add
    std::vector<ValueId> inits; ///< reduce's `init:` operands (they follow the inputs)
    std::vector<EntryArgument> iterArgs; ///< while's `%iterArg = %init`
    std::vector<EntryArgument> blockArgs; ///< `(%a: type, ...)` before a region
    std::vector<Attribute> positionals; ///< keywords, symbols, strings, literals without a name
    DenseLiteral positionalLiteral;
    bool hasBracket = false;
    bool bracketHasColon = false;
    std::vector<std::int64_t> sliceStart, sliceLimit, sliceStride;
    std::string_view applies;
    Token appliesToken;
    bool hasDot = false;
    std::vector<std::int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
    std::vector<Type> arrowResults;
    bool hasArrow = false;
};

Attribute integerAttribute(std::int64_t value);
Attribute integerArray(const std::vector<std::int64_t>& values); ///< `[1, 2]` of i64

class Parser {
public:
    Parser(std::string_view text, std::string sourceName, const ReadLimits& limits, Module& module);

    enum class PartResult { Parsed, Failed, Empty };
    PartResult parsePart(std::size_t begin, std::size_t end, int line);
    const ReadError& error() const { return m_error; }

    static constexpr std::size_t kMaxDenseInts = 4096;

private:
    friend struct DepthGuard;

    // Tokens.
    void advance();
    const Token& peek();
    void dropPeek();
    /// After a raw scan that ended at `endPos`: lex the next token.
    void resumeAfterRaw(std::size_t endPos);
    bool is(TokenKind kind) const { return m_tok.kind == kind; }
    bool isId(std::string_view text) const { return m_tok.kind == TokenKind::BareId && m_tok.text == text; }
    bool consume(TokenKind kind);
    bool expect(TokenKind kind, std::string_view what);
    std::string_view sourceSince(std::size_t offset) const;
    /// Raw text of the balanced `<...>`, `[...]`, `{...}` starting at the current token; the
    /// current token must be the opening bracket. Moves past it.
    bool captureBalanced(std::string_view& raw);

    // Errors.
    bool fail(int line, int column, std::string message);
    bool fail(const Token& at, std::string message) { return fail(at.line, at.column, std::move(message)); }
    bool failExpected(std::string_view what);
    bool depthExceeded();

    // Structure (hlo_reader_structure.cpp).
    bool parseBody(bool topLevel);
    bool parseModule();
    bool parseFunction();
    bool parseMesh();
    bool parseAliasDefinition();
    bool parseRegion(Region& region, const std::vector<EntryArgument>* entry);
    bool parseBlockLabel(Block& block);
    bool parseOperation(Block& block);
    bool parseGenericOp(Op& op);
    bool parseResultTypeList(std::vector<Type>& types);

    // Values.
    ValueId newValue(std::string name, const Type& type);
    ValueId defineValue(std::string_view key, std::string name, const Type& type);
    void bind(std::string_view key, ValueId id);
    void popScope(std::size_t mark);
    void clearScope();
    bool useValue(const Token& token, ValueId& id);
    void fillOperandTypes(Op& op, const std::vector<Type>* declared);

    // Types (hlo_reader_types.cpp) and attributes (hlo_reader_attrs.cpp).
    bool parseType(Type& type);
    bool parseTensorType(Type& type);
    bool parseElementType(std::string& elementType);
    bool parseTensorEncoding(Type& type);
    bool checkShape(const Token& at, const Type& type);
    bool parseAttribute(Attribute& attribute, bool allowTypeSuffix, DenseLiteral* literal = nullptr);
    bool parseNumber(Attribute& attribute);
    bool parseDictionary(AttributeList& list);
    bool parseDense(Attribute& attribute, bool allowTypeSuffix, DenseLiteral* literal);
    bool parseDenseList(std::vector<std::int64_t>& ints, DenseLiteral& literal);
    bool parseDenseScalar(std::vector<std::int64_t>& ints, DenseLiteral& literal);
    bool parseArrayAttribute(Attribute& attribute);
    bool parseDialectBody(Attribute& attribute);
    void tryParseFields(Attribute& attribute, const mlir::Lexer::State& bodyStart, std::size_t bodyEnd);
    bool parseIntegerList(std::vector<std::int64_t>& values);

    // Pretty op forms (hlo_reader_ops.cpp, hlo_reader_forms.cpp).
    bool parsePrettyOp(Op& op, std::size_t resultCount);
    bool parseConstantBody(Op& op);
    bool parsePrettyItems(Op& op, PrettyState& state, bool inParens);
    bool parsePrettyValue(Op& op, PrettyState& state, bool inParens);
    bool takeValue(ValueId& id, const char* what);
    bool parseKeywordValue(Op& op, PrettyState& state, std::string_view key);
    bool parseBracketSpec(Op& op, PrettyState& state);
    bool parseSignature(Signature& signature);
    bool startsStatement();
    /// A generic-form `"func.func"` op (sym_name, function_type, one region) as a Function.
    bool functionFromGenericOp(Op& op);
    /// At a '%' name: whether it begins a result definition (`%0 =`, `%0:2 =`, `%a, %b =`) rather than
    /// operands of the op before it continued on the next line.
    bool percentStartsDefinition();
    bool braceStartsDictionary();
    bool finishPrettyOp(Op& op, PrettyState& state, const Signature& signature, std::size_t resultCount);
    bool parseReducerSuffix(Op& op);
    void addAppliedReduction(Op& op, const PrettyState& state);

    std::string_view m_text;
    std::string m_sourceName;
    const ReadLimits& m_limits;
    Module& m_module;
    mlir::Lexer m_lexer;
    Token m_tok;
    Token m_peek;
    mlir::Lexer::State m_peekState;
    bool m_hasPeek = false;
    std::size_t m_prevEnd = 0;
    int m_depth = 0;
    bool m_failed = false;
    ReadError m_error;

    std::unordered_map<std::string_view, ValueId> m_values;
    std::vector<std::pair<std::string_view, ValueId>> m_undo; ///< previous binding, kNoValue if none
    std::deque<std::string> m_nameArena; ///< keys made up for `%0:2` results ("%0#1")
    std::unordered_map<std::string_view, Attribute> m_attributeAliases;
    std::unordered_map<std::string_view, Type> m_typeAliases;
};

/// Counts nesting; the parse fails (never overflows the stack) past ReadLimits::maxNestingDepth.
struct DepthGuard {
    explicit DepthGuard(Parser& parser)
        : m_parser(parser)
    {
        ++m_parser.m_depth;
    }
    ~DepthGuard() { --m_parser.m_depth; }
    bool ok() const { return m_parser.m_depth <= m_parser.m_limits.maxNestingDepth || m_parser.depthExceeded(); }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

private:
    Parser& m_parser;
};

/// Axes and device ids of a mesh written as `#sdy.mesh<["x"=2], device_ids=[...]>`,
/// `#stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>]>` or
/// `{axes = [{name = "x", size = 2}], device_ids = dense<...>}`.
bool meshFromAttribute(const Attribute& attribute, Mesh& mesh);
/// Sets denseSplat / denseInts of a dense attribute once its type is known.
void finalizeDense(Attribute& attribute, const DenseLiteral& literal);
bool isElementTypeName(std::string_view name);
bool isIntegralElementType(std::string_view name);
/// Integer literal text (decimal or 0x hex) to int64; values up to 2^64-1 wrap (ui64 literals).
bool parseIntegerText(std::string_view text, bool negative, std::int64_t& value);

} // namespace elk::hlo::detail
