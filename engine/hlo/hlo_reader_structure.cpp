// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Structure of the MLIR text reader (see hlo_parser.h): modules, functions, meshes, aliases,
// regions, blocks, and ops in the generic form.
#include "engine/hlo/hlo_parser.h"

#include <algorithm>

namespace elk::hlo::detail {

namespace {

    std::string symbolName(std::string_view atId)
    {
        atId.remove_prefix(1); // '@'
        if (!atId.empty() && atId.front() == '"')
            return mlir::unescapeString(atId);
        return std::string(atId);
    }

} // namespace

// ---- structure -------------------------------------------------------------------------------

Parser::PartResult Parser::parsePart(std::size_t begin, std::size_t end, int line)
{
    // About one value per 80 bytes of StableHLO text: reserving avoids regrowing big tables.
    const std::size_t expectedValues = (end - begin) / 80 + 16;
    m_module.valueNames.reserve(expectedValues);
    m_module.valueTypes.reserve(expectedValues);
    m_values.reserve(std::min<std::size_t>(expectedValues, 1 << 16));
    m_lexer = mlir::Lexer(m_text, begin, end, line, begin);
    m_hasPeek = false;
    m_tok = m_lexer.next();
    m_prevEnd = begin;
    if (is(TokenKind::EndOfFile))
        return PartResult::Empty;
    const bool ok = parseBody(true);
    return ok && !m_failed ? PartResult::Parsed : PartResult::Failed;
}

bool Parser::parseBody(bool topLevel)
{
    for (;;) {
        if (m_failed)
            return false;
        if (is(TokenKind::EndOfFile)) {
            if (topLevel)
                return true;
            return failExpected("'}' to close the module");
        }
        if (!topLevel && is(TokenKind::RBrace))
            return true;
        switch (m_tok.kind) {
        case TokenKind::MetadataBegin:
            dropPeek();
            if (!m_lexer.skipMetadata())
                return fail(m_tok, "expected '#-}' to close '{-#', found end of file");
            resumeAfterRaw(m_lexer.state().pos);
            continue;
        case TokenKind::HashId:
        case TokenKind::BangId:
            if (peek().kind == TokenKind::Equal) {
                if (!parseAliasDefinition())
                    return false;
                continue;
            }
            break;
        case TokenKind::BareId:
            if (isId("module") || isId("builtin.module")) {
                if (!parseModule())
                    return false;
                continue;
            }
            if (isId("func.func")) {
                if (!parseFunction())
                    return false;
                continue;
            }
            if (isId("sdy.mesh")) {
                if (!parseMesh())
                    return false;
                continue;
            }
            break;
        default:
            break;
        }
        if (!is(TokenKind::BareId) && !is(TokenKind::String) && !is(TokenKind::PercentId))
            return failExpected(topLevel ? "'module' or 'func.func'" : "'func.func' or '}'");
        // Any other op at module level (ml_program.global, a generic "func.func", ...) is parsed
        // so that its syntax is checked, then dropped: costing only needs functions.
        clearScope();
        Block scratch;
        if (!parseOperation(scratch))
            return false;
        Op& op = scratch.ops.back();
        if (op.name == "func.func") { // generic form: "func.func"() <{sym_name = "f", function_type = ...}> ({...})
            if (!functionFromGenericOp(op))
                return false;
            continue;
        }
        if (op.name == "sdy.mesh") { // generic form: "sdy.mesh"() <{mesh = #sdy.mesh<...>, sym_name = "m"}>
            Mesh mesh;
            const Attribute* name = op.attribute("sym_name");
            const Attribute* body = op.attribute("mesh");
            if (!body)
                body = op.attribute("stablehlo.mesh");
            if (name && name->kind == Attribute::Kind::String && body && meshFromAttribute(*body, mesh)) {
                mesh.name = name->text;
                m_module.meshes.push_back(std::move(mesh));
            }
        }
    }
}

bool Parser::parseModule()
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    advance(); // module
    if (is(TokenKind::AtId)) {
        if (m_module.name.empty())
            m_module.name = symbolName(m_tok.text);
        advance();
    }
    if (isId("attributes")) {
        advance();
        if (!parseDictionary(m_module.attributes))
            return false;
    }
    if (!expect(TokenKind::LBrace, "'{' to open the module body"))
        return false;
    if (!parseBody(false))
        return false;
    return expect(TokenKind::RBrace, "'}' to close the module");
}

bool Parser::parseFunction()
{
    Function function;
    function.location = { m_tok.line, m_tok.column };
    advance(); // func.func
    if (isId("public") || isId("private") || isId("nested")) {
        function.visibility = std::string(m_tok.text);
        advance();
    }
    if (!is(TokenKind::AtId))
        return failExpected("function name '@...'");
    function.name = symbolName(m_tok.text);
    advance();
    clearScope();
    if (!expect(TokenKind::LParen, "'(' to open the argument list"))
        return false;
    std::vector<EntryArgument> arguments;
    if (!is(TokenKind::RParen)) {
        for (;;) {
            EntryArgument argument;
            if (is(TokenKind::PercentId)) {
                argument.key = m_tok.text;
                advance();
                if (!expect(TokenKind::Colon, "':' after the argument name"))
                    return false;
            }
            if (!parseType(argument.type))
                return false;
            AttributeList attributes;
            if (is(TokenKind::LBrace) && !parseDictionary(attributes))
                return false;
            arguments.push_back(std::move(argument));
            function.argumentTypes.push_back(arguments.back().type);
            function.argumentAttributes.push_back(std::move(attributes));
            if (consume(TokenKind::Comma))
                continue;
            break;
        }
    }
    if (!expect(TokenKind::RParen, "',' or ')' in the argument list"))
        return false;
    if (consume(TokenKind::Arrow)) {
        const bool parenthesized = consume(TokenKind::LParen);
        if (!parenthesized || !is(TokenKind::RParen)) {
            for (;;) {
                Type type;
                if (!parseType(type))
                    return false;
                AttributeList attributes;
                if (parenthesized && is(TokenKind::LBrace) && !parseDictionary(attributes))
                    return false;
                function.resultTypes.push_back(std::move(type));
                function.resultAttributes.push_back(std::move(attributes));
                if (!parenthesized || !consume(TokenKind::Comma))
                    break;
            }
        }
        if (parenthesized && !expect(TokenKind::RParen, "',' or ')' in the result list"))
            return false;
    }
    if (isId("attributes")) {
        advance();
        if (!parseDictionary(function.attributes))
            return false;
    }
    if (is(TokenKind::LBrace)) {
        if (!parseRegion(function.body, &arguments))
            return false;
        if (!function.body.blocks.empty())
            function.arguments = function.body.blocks.front().arguments;
    } else {
        // A declaration: arguments exist but have no names.
        for (std::size_t i = 0; i < arguments.size(); ++i)
            function.arguments.push_back(newValue("%arg" + std::to_string(i), arguments[i].type));
    }
    m_module.functions.push_back(std::move(function));
    return true;
}

bool Parser::functionFromGenericOp(Op& op)
{
    const Attribute* name = op.attribute("sym_name");
    if (!name || name->kind != Attribute::Kind::String)
        return fail(op.location.line, op.location.column, "generic 'func.func' without a string 'sym_name'");
    Function function;
    function.location = op.location;
    function.name = name->text;
    if (const Attribute* visibility = op.attribute("sym_visibility");
        visibility && visibility->kind == Attribute::Kind::String)
        function.visibility = visibility->text;
    for (const auto& [key, value] : op.attributes) {
        if (key != "sym_name" && key != "sym_visibility" && key != "function_type")
            function.attributes.emplace_back(key, value);
    }
    if (!op.regions.empty() && !op.regions.front().blocks.empty()) {
        function.body = std::move(op.regions.front());
        const Block& entry = function.body.blocks.front();
        function.arguments = entry.arguments;
        function.argumentTypes = entry.argumentTypes;
        // The results are what the body returns.
        for (const Block& block : function.body.blocks) {
            if (!block.ops.empty() && (block.ops.back().name == "func.return" || block.ops.back().name == "return")) {
                function.resultTypes = block.ops.back().operandTypes;
                break;
            }
        }
    }
    function.argumentAttributes.resize(function.arguments.size());
    function.resultAttributes.resize(function.resultTypes.size());
    m_module.functions.push_back(std::move(function));
    return true;
}

bool Parser::parseMesh()
{
    advance(); // sdy.mesh
    if (!is(TokenKind::AtId))
        return failExpected("mesh name '@...'");
    Mesh mesh;
    mesh.name = symbolName(m_tok.text);
    advance();
    if (!expect(TokenKind::Equal, "'=' after the mesh name"))
        return false;
    if (m_tok.kind == TokenKind::HashId && m_tok.text == "#sdy.mesh")
        advance();
    else if (isId("mesh"))
        advance();
    if (!expect(TokenKind::Less, "'<' to open the mesh"))
        return false;
    auto readInt = [this](std::int64_t& value) {
        const bool negative = consume(TokenKind::Minus);
        if (!is(TokenKind::Integer) || !parseIntegerText(m_tok.text, negative, value))
            return failExpected("an integer");
        advance();
        return true;
    };
    if (isId("device_id")) {
        advance();
        std::int64_t id = 0;
        if (!expect(TokenKind::Equal, "'='") || !readInt(id))
            return false;
        mesh.deviceIds.push_back(id);
    } else {
        if (!expect(TokenKind::LSquare, "'[' or 'device_id' in the mesh"))
            return false;
        while (!is(TokenKind::RSquare)) {
            if (!is(TokenKind::String))
                return failExpected("mesh axis name \"...\"");
            MeshAxis axis;
            axis.name = mlir::unescapeString(m_tok.text);
            advance();
            if (!expect(TokenKind::Equal, "'=' after the axis name") || !readInt(axis.size))
                return false;
            mesh.axes.push_back(std::move(axis));
            if (!consume(TokenKind::Comma))
                break;
        }
        if (!expect(TokenKind::RSquare, "',' or ']' in the mesh axes"))
            return false;
        if (consume(TokenKind::Comma)) {
            if (!isId("device_ids"))
                return failExpected("'device_ids'");
            advance();
            if (!expect(TokenKind::Equal, "'='") || !parseIntegerList(mesh.deviceIds))
                return false;
        }
    }
    if (!expect(TokenKind::Greater, "'>' to close the mesh"))
        return false;
    m_module.meshes.push_back(std::move(mesh));
    return true;
}

bool Parser::parseAliasDefinition()
{
    const Token name = m_tok;
    advance(); // name
    dropPeek();
    const bool isLocation = m_lexer.nextTextIs("loc(");
    advance(); // '=' (the lexer skips a `loc(...)` that follows)
    if (isLocation)
        return true;
    if (name.kind == TokenKind::HashId) {
        Attribute value;
        if (!parseAttribute(value, true))
            return false;
        m_attributeAliases[name.text] = std::move(value);
    } else {
        Type type;
        if (!parseType(type))
            return false;
        m_typeAliases[name.text] = std::move(type);
    }
    return true;
}

bool Parser::parseRegion(Region& region, const std::vector<EntryArgument>* entry)
{
    DepthGuard guard(*this);
    if (!guard.ok())
        return false;
    if (!expect(TokenKind::LBrace, "'{' to open a region"))
        return false;
    const std::size_t mark = m_undo.size();
    bool labelled = false;
    if (entry) {
        Block& block = region.blocks.emplace_back();
        for (const EntryArgument& argument : *entry) {
            block.arguments.push_back(defineValue(argument.key, std::string(argument.key), argument.type));
            block.argumentTypes.push_back(argument.type);
        }
    }
    while (!is(TokenKind::RBrace)) {
        if (m_failed)
            return false;
        if (is(TokenKind::EndOfFile) || is(TokenKind::Error))
            return failExpected("'}' to close the region");
        if (is(TokenKind::CaretId)) {
            const bool reuseEntry = region.blocks.size() == 1 && !labelled && region.blocks.back().ops.empty();
            if (!reuseEntry)
                region.blocks.emplace_back();
            labelled = true;
            if (!parseBlockLabel(region.blocks.back()))
                return false;
            continue;
        }
        if (region.blocks.empty())
            region.blocks.emplace_back();
        if (!parseOperation(region.blocks.back()))
            return false;
    }
    advance(); // '}'
    popScope(mark);
    return true;
}

bool Parser::parseBlockLabel(Block& block)
{
    advance(); // ^bb0
    if (consume(TokenKind::LParen)) {
        while (!is(TokenKind::RParen)) {
            if (!is(TokenKind::PercentId))
                return failExpected("block argument '%...'");
            const Token name = m_tok;
            advance();
            if (!expect(TokenKind::Colon, "':' after the block argument"))
                return false;
            Type type;
            if (!parseType(type))
                return false;
            block.arguments.push_back(defineValue(name.text, std::string(name.text), type));
            block.argumentTypes.push_back(std::move(type));
            if (!consume(TokenKind::Comma))
                break;
        }
        if (!expect(TokenKind::RParen, "',' or ')' after the block arguments"))
            return false;
    }
    return expect(TokenKind::Colon, "':' after the block label");
}

bool Parser::parseOperation(Block& block)
{
    const Token first = m_tok;
    struct ResultGroup {
        std::string_view name;
        std::size_t count = 1;
    };
    std::vector<ResultGroup> groups;
    std::size_t resultCount = 0;
    if (is(TokenKind::PercentId)) {
        for (;;) {
            if (!is(TokenKind::PercentId))
                return failExpected("result name '%...'");
            ResultGroup group { m_tok.text };
            advance();
            if (consume(TokenKind::Colon)) {
                std::int64_t count = 0;
                if (!is(TokenKind::Integer) || !parseIntegerText(m_tok.text, false, count) || count < 1
                    || count > 65536)
                    return failExpected("a result count");
                group.count = std::size_t(count);
                advance();
            }
            resultCount += group.count;
            groups.push_back(group);
            if (!consume(TokenKind::Comma))
                break;
        }
        if (!expect(TokenKind::Equal, "'=' after the results"))
            return false;
    }
    Op op;
    op.location = { first.line, first.column };
    if (is(TokenKind::String)) {
        if (!parseGenericOp(op))
            return false;
    } else if (is(TokenKind::BareId)) {
        if (!parsePrettyOp(op, resultCount))
            return false;
    } else {
        return failExpected(groups.empty() ? "an operation" : "an operation name");
    }
    if (m_failed)
        return false;
    if (resultCount > 0 && op.resultTypes.size() != resultCount)
        return fail(first,
            "'" + op.name + "' defines " + std::to_string(resultCount) + " result(s) but its type lists "
                + std::to_string(op.resultTypes.size()));
    std::size_t index = 0;
    for (const ResultGroup& group : groups) {
        if (group.count == 1) {
            op.results.push_back(defineValue(group.name, std::string(group.name), op.resultTypes[index++]));
            continue;
        }
        for (std::size_t k = 0; k < group.count; ++k) {
            const std::string& key = m_nameArena.emplace_back(std::string(group.name) + "#" + std::to_string(k));
            const ValueId id = defineValue(key, key, op.resultTypes[index++]);
            if (k == 0)
                bind(group.name, id);
            op.results.push_back(id);
        }
    }
    block.ops.push_back(std::move(op));
    return true;
}

bool Parser::parseGenericOp(Op& op)
{
    op.name = m_tok.text.find('\\') == std::string_view::npos ? std::string(m_tok.text.substr(1, m_tok.text.size() - 2))
                                                              : mlir::unescapeString(m_tok.text);
    advance();
    if (!expect(TokenKind::LParen, "'(' to open the operand list"))
        return false;
    while (!is(TokenKind::RParen)) {
        if (!is(TokenKind::PercentId))
            return failExpected("operand '%...' or ')'");
        ValueId id = 0;
        if (!useValue(m_tok, id))
            return false;
        op.operands.push_back(id);
        advance();
        if (!consume(TokenKind::Comma))
            break;
    }
    if (!expect(TokenKind::RParen, "',' or ')' in the operand list"))
        return false;
    if (is(TokenKind::LSquare)) { // successors: ^bb1, ... (control flow; not costed)
        std::string_view raw;
        if (!captureBalanced(raw))
            return false;
    }
    if (consume(TokenKind::Less)) {
        if (!is(TokenKind::LBrace))
            return failExpected("'{' to open the properties");
        if (!parseDictionary(op.attributes) || !expect(TokenKind::Greater, "'>' to close the properties"))
            return false;
    }
    if (consume(TokenKind::LParen)) {
        for (;;) {
            Region& region = op.regions.emplace_back();
            if (!parseRegion(region, nullptr))
                return false;
            if (!consume(TokenKind::Comma))
                break;
        }
        if (!expect(TokenKind::RParen, "',' or ')' after the regions"))
            return false;
    }
    if (is(TokenKind::LBrace) && !parseDictionary(op.attributes))
        return false;
    if (!expect(TokenKind::Colon, "':' and the op's function type"))
        return false;
    if (!expect(TokenKind::LParen, "'(' to open the operand types"))
        return false;
    std::vector<Type> operandTypes;
    while (!is(TokenKind::RParen)) {
        Type type;
        if (!parseType(type))
            return false;
        operandTypes.push_back(std::move(type));
        if (!consume(TokenKind::Comma))
            break;
    }
    if (!expect(TokenKind::RParen, "',' or ')' in the operand types"))
        return false;
    if (!expect(TokenKind::Arrow, "'->' and the result types"))
        return false;
    if (!parseResultTypeList(op.resultTypes))
        return false;
    fillOperandTypes(op, &operandTypes);
    return true;
}

bool Parser::parseResultTypeList(std::vector<Type>& types)
{
    if (!consume(TokenKind::LParen)) {
        Type type;
        if (!parseType(type))
            return false;
        types.push_back(std::move(type));
        return true;
    }
    while (!is(TokenKind::RParen)) {
        Type type;
        if (!parseType(type))
            return false;
        types.push_back(std::move(type));
        if (!consume(TokenKind::Comma))
            break;
    }
    return expect(TokenKind::RParen, "',' or ')' in the result types");
}

} // namespace elk::hlo::detail
