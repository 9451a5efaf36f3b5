// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Pretty op forms, second half: constants, reduce bodies, and the step that gives a pretty op its
// types and stores its unnamed items under the attribute names of the generic form.
#include "engine/hlo/hlo_parser.h"

namespace elk::hlo::detail {

namespace {

    std::string listText(const std::vector<std::int64_t>& values)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < values.size(); ++i)
            text += (i ? ", " : "") + std::to_string(values[i]);
        return text + "]";
    }

} // namespace

Attribute integerAttribute(std::int64_t value)
{
    Attribute attribute;
    attribute.kind = Attribute::Kind::Integer;
    attribute.intValue = value;
    attribute.floatValue = double(value);
    return attribute;
}

Attribute integerArray(const std::vector<std::int64_t>& values)
{
    Attribute attribute;
    attribute.kind = Attribute::Kind::Array;
    attribute.type.elementType = "i64";
    for (const std::int64_t value : values)
        attribute.items.push_back(integerAttribute(value));
    return attribute;
}

bool Parser::parseConstantBody(Op& op)
{
    if (is(TokenKind::LParen) && peek().kind == TokenKind::RParen) {
        // `stablehlo.constant() {value = ...} : () -> T`: the generic form under a pretty name, with
        // the value as a property (`<{value = ...}>`) or an attribute.
        advance();
        advance();
        if (consume(TokenKind::Less)) {
            if (!is(TokenKind::LBrace))
                return failExpected("'{' to open the properties");
            if (!parseDictionary(op.attributes) || !expect(TokenKind::Greater, "'>' to close the properties"))
                return false;
        }
        if (is(TokenKind::LBrace) && !parseDictionary(op.attributes))
            return false;
        if (!expect(TokenKind::Colon, "':' and the type of the constant") || !expect(TokenKind::LParen, "'('")
            || !expect(TokenKind::RParen, "')'") || !expect(TokenKind::Arrow, "'->'"))
            return false;
        return parseResultTypeList(op.resultTypes);
    }
    if (is(TokenKind::LBrace) && !parseDictionary(op.attributes))
        return false;
    Attribute value;
    DenseLiteral literal;
    if (!parseAttribute(value, false, &literal))
        return false;
    if (!expect(TokenKind::Colon, "':' and the type of the constant"))
        return false;
    Type type;
    if (!parseType(type))
        return false;
    value.type = type;
    if (value.kind == Attribute::Kind::Dense)
        finalizeDense(value, literal);
    op.attributes.insert(op.attributes.begin(), { "value", std::move(value) });
    op.resultTypes.push_back(std::move(type));
    return true;
}

bool Parser::parseReducerSuffix(Op& op)
{
    advance(); // reducer
    std::vector<EntryArgument> lhs, rhs;
    while (consume(TokenKind::LParen)) {
        for (int k = 0; k < 2; ++k) {
            if (k == 1 && !expect(TokenKind::Comma, "',' between the reducer arguments"))
                return false;
            if (!is(TokenKind::PercentId))
                return failExpected("reducer argument '%...'");
            EntryArgument argument { m_tok.text, Type {} };
            advance();
            if (!expect(TokenKind::Colon, "':' after the reducer argument") || !parseType(argument.type))
                return false;
            (k == 0 ? lhs : rhs).push_back(std::move(argument));
        }
        if (!expect(TokenKind::RParen, "')' after the reducer arguments"))
            return false;
    }
    // Block arguments: every accumulator first, then every element (MLIR's reduce body order).
    lhs.insert(lhs.end(), rhs.begin(), rhs.end());
    Region& region = op.regions.emplace_back();
    return parseRegion(region, &lhs);
}

void Parser::addAppliedReduction(Op& op, const PrettyState& state)
{
    // `applies stablehlo.add` stands for a body `^bb0(%a, %b): %r = add %a, %b; return %r`.
    Region& region = op.regions.emplace_back();
    Block& block = region.blocks.emplace_back();
    const std::size_t n = state.inits.size();
    for (int side = 0; side < 2; ++side)
        for (std::size_t k = 0; k < n; ++k) {
            Type scalar = m_module.valueTypes[state.inits[k]];
            block.arguments.push_back(newValue(std::string(), scalar));
            block.argumentTypes.push_back(std::move(scalar));
        }
    if (n == 0)
        return;
    Op body;
    body.name = std::string(state.applies);
    body.location = { state.appliesToken.line, state.appliesToken.column };
    body.operands = { block.arguments[0], block.arguments[n] };
    body.operandTypes = { block.argumentTypes[0], block.argumentTypes[n] };
    body.resultTypes = { block.argumentTypes[0] };
    body.results = { newValue(std::string(), block.argumentTypes[0]) };
    Op ret;
    ret.name = "stablehlo.return";
    ret.location = body.location;
    ret.operands = body.results;
    ret.operandTypes = body.resultTypes;
    block.ops.push_back(std::move(body));
    block.ops.push_back(std::move(ret));
}

bool Parser::finishPrettyOp(Op& op, PrettyState& state, const Signature& signature, std::size_t resultCount)
{
    const std::string_view shortName = state.shortName;
    // Types: `(A, B) -> C`, or one type for everything, or one type per result.
    const std::vector<Type>* declaredOperands = nullptr;
    if (signature.functional) {
        declaredOperands = &signature.inputs;
        op.resultTypes = signature.results;
    } else if (signature.present) {
        const std::vector<Type>& types = signature.inputs;
        if (resultCount == 0) {
            declaredOperands = &types;
        } else if (types.size() == 1) {
            op.resultTypes.assign(resultCount, types.front());
        } else if (types.size() == resultCount) {
            op.resultTypes = types;
        } else if (shortName == "select" && types.size() == 2 && resultCount == 1) {
            op.resultTypes = { types[1] };
        } else {
            return fail(op.location.line, op.location.column,
                "'" + op.name + "' defines " + std::to_string(resultCount) + " result(s) but its type lists "
                    + std::to_string(types.size()));
        }
    } else if (state.hasArrow) {
        op.resultTypes = state.arrowResults;
    } else if (resultCount > 0) {
        return failExpected("':' and the result types of '" + op.name + "'");
    }
    if (shortName == "reduce" && !state.inits.empty()) {
        op.operands.insert(op.operands.end(), state.inits.begin(), state.inits.end());
        if (!state.applies.empty())
            addAppliedReduction(op, state);
    }
    fillOperandTypes(op, declaredOperands);

    // Unnamed items take their generic names.
    for (std::size_t i = 0; i < state.positionals.size(); ++i) {
        Attribute& value = state.positionals[i];
        std::string name = "positional" + std::to_string(i);
        if (shortName == "compare" && value.kind == Attribute::Kind::Enum)
            name = i == 0 ? "comparison_direction" : "compare_type";
        else if (op.name == "stablehlo.custom_call" && value.kind == Attribute::Kind::Symbol && i == 0) {
            value.kind = Attribute::Kind::String;
            name = "call_target_name";
        } else if (op.name == "func.call" && value.kind == Attribute::Kind::Symbol && i == 0)
            name = "callee";
        else if (shortName == "composite" && value.kind == Attribute::Kind::String && i == 0)
            name = "name";
        else if (op.name.rfind("sdy.", 0) == 0 && value.kind == Attribute::Kind::Dialect && value.text.empty()
            && value.body.rfind('@', 0) == 0) { // sdy.sharding_constraint %x <@mesh, [...]>
            value.text = "sdy.sharding";
            name = "sharding";
        } else if (value.kind == Attribute::Kind::Dense) {
            name = "value";
            const std::vector<Type>& types = signature.functional ? signature.results : signature.inputs;
            if (!types.empty())
                value.type = types.back();
            finalizeDense(value, state.positionalLiteral);
        }
        op.attributes.emplace_back(std::move(name), std::move(value));
    }
    if (state.hasBracket) {
        if (shortName == "get_tuple_element" && !state.bracketHasColon && state.sliceStart.size() == 1) {
            op.attributes.emplace_back("index", integerAttribute(state.sliceStart.front()));
        } else {
            op.attributes.emplace_back("start_indices", integerArray(state.sliceStart));
            op.attributes.emplace_back("limit_indices", integerArray(state.sliceLimit));
            op.attributes.emplace_back("strides", integerArray(state.sliceStride));
        }
    }
    if (state.hasDot) {
        Attribute dims;
        dims.kind = Attribute::Kind::Dialect;
        dims.text = "stablehlo.dot";
        const std::pair<const char*, const std::vector<std::int64_t>*> fields[] = {
            { "lhs_batching_dimensions", &state.lhsBatch },
            { "rhs_batching_dimensions", &state.rhsBatch },
            { "lhs_contracting_dimensions", &state.lhsContracting },
            { "rhs_contracting_dimensions", &state.rhsContracting },
        };
        for (const auto& [field, values] : fields) {
            if (values->empty())
                continue;
            dims.body += (dims.body.empty() ? "" : ", ") + std::string(field) + " = " + listText(*values);
            dims.fields.emplace_back(field, integerArray(*values));
        }
        op.attributes.emplace_back("dot_dimension_numbers", std::move(dims));
    }
    return true;
}

} // namespace elk::hlo::detail
