// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Syntax of one NNFusion/Antares kernel text:
//   - einstein_v2("<statements>", input_dict={"input0": {"dtype": "float32", "shape": [99, 66, 5120]}, ...}) ## @:
//   memcpy
// Statements are `target[I, J] op rhs [where I in 4, J in 8]`, separated by ';', with op one of
// `=` `+=!` (sum) `>=!` (max) `<=!` (min) `*=!` (product). Internal to the einstein importer.

namespace elk::import::einstein {

enum class ExprKind {
    Number, ///< integer or floating literal
    Name, ///< an index variable (or a bare tensor name, for scalars)
    Load, ///< tensor[index, ...]
    Unary, ///< text = "-", "+" or "~"
    Binary, ///< text = the operator
    Call, ///< text = function name, children = arguments (const(1))
    Method, ///< text = method name, children[0] = object, the rest = arguments (.when, .call, .cast)
    List, ///< [a, b, ...]
    Str, ///< `backquoted`
};

struct Expr {
    ExprKind kind = ExprKind::Number;
    std::size_t column = 0; ///< 1-based column of the first character, within the whole kernel text
    std::string text;
    bool isInteger = false;
    std::int64_t integer = 0;
    double number = 0.0;
    std::vector<std::unique_ptr<Expr>> children;
};

enum class AssignOp { Assign, Sum, Max, Min, Product };

struct WhereClause {
    std::string name;
    std::int64_t extent = 0;
    std::size_t column = 0;
};

struct IndexName {
    std::string name;
    std::size_t column = 0;
};

struct Statement {
    std::string target; ///< "output0" or a temporary name
    std::size_t targetColumn = 0;
    std::vector<IndexName> outputIndices;
    AssignOp op = AssignOp::Assign;
    std::size_t opColumn = 0;
    std::unique_ptr<Expr> rhs;
    std::vector<WhereClause> where;
};

struct InputDecl {
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::size_t column = 0; ///< where the entry's key starts
};

struct Kernel {
    std::vector<Statement> statements;
    std::map<std::string, InputDecl> inputs; ///< by name ("input0", ...)
    std::string annotation; ///< text after "##", trimmed
};

/// Where the text stopped making sense: 1-based column within the kernel text, and what was found
/// and expected there.
struct SyntaxError {
    std::size_t column = 1;
    std::string message;
};

/// Parses a whole kernel text. Contract: never throws; on failure returns nothing and fills `error`.
std::optional<Kernel> parseKernel(std::string_view text, SyntaxError& error);

/// Parses only the statements (what sits between the quotes); `columnOffset` is added to every
/// column so that positions refer to the enclosing text.
std::optional<std::vector<Statement>> parseStatements(
    std::string_view text, std::size_t columnOffset, SyntaxError& error);

/// Human-readable source of an expression (for messages): "input0[N0, K] * input1[K, N1]".
std::string toString(const Expr& expr);

} // namespace elk::import::einstein
