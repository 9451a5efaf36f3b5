// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_lowering_impl.h"

#include <algorithm>

// The entry point: checks a node's input_dict, makes its input slots and lowers its statements one by
// one. The members of StatementLowering that every kind of statement shares live here too.

namespace elk::import::einstein {

std::optional<model::DType> dtypeFromEinstein(const std::string& name)
{
    using model::DType;
    static const std::pair<const char*, DType> kNames[] = { { "float32", DType::F32 }, { "float", DType::F32 },
        { "float16", DType::F16 }, { "half", DType::F16 }, { "bfloat16", DType::BF16 }, { "float64", DType::F64 },
        { "double", DType::F64 }, { "int64", DType::I64 }, { "int32", DType::I32 }, { "int16", DType::I16 },
        { "int8", DType::I8 }, { "char", DType::I8 }, { "uint8", DType::U8 }, { "bool", DType::Bool } };
    for (const auto& [text, dtype] : kNames) {
        if (name == text)
            return dtype;
    }
    return std::nullopt;
}

namespace detail {

    bool hasLoad(const Expr& e)
    {
        if (e.kind == ExprKind::Load)
            return true;
        return std::any_of(e.children.begin(), e.children.end(), [](const auto& c) { return hasLoad(*c); });
    }

    int addVar(std::vector<VarRec>& vars, std::string name, std::int64_t raw, std::int64_t bound, bool synthetic,
        std::size_t column)
    {
        vars.push_back({ std::move(name), raw, bound, synthetic, column });
        return int(vars.size()) - 1;
    }

    namespace {

        /// The value an expression stores, without casts and without `.when(cond, constant)` guards (the
        /// zero padding of convolutions). `cast` receives the dtype of an outermost cast.
        const Expr& strip(const Expr& e, std::string* cast = nullptr)
        {
            const Expr* current = &e;
            while (current->kind == ExprKind::Method && !current->children.empty()) {
                if (current->text == "cast") {
                    if (cast && cast->empty() && current->children.size() > 1
                        && current->children[1]->kind == ExprKind::Str)
                        *cast = current->children[1]->text;
                    current = current->children[0].get();
                } else if (current->text == "when" && current->children.size() == 3
                    && !hasLoad(*current->children[2])) {
                    current = current->children[0].get();
                } else {
                    break;
                }
            }
            return *current;
        }

        /// Parts of a concatenation `a[..].when(N < 64, b[..].when(N < 128, c[..]))`; empty if the
        /// expression is something else.
        std::vector<const Expr*> concatParts(const Expr& e)
        {
            const Expr& core = strip(e);
            if (core.kind == ExprKind::Load)
                return { &core };
            if (core.kind != ExprKind::Method || core.text != "when" || core.children.size() != 3)
                return {};
            const Expr& first = strip(*core.children[0]);
            if (first.kind != ExprKind::Load)
                return {};
            auto rest = concatParts(*core.children[2]);
            if (rest.empty())
                return {};
            rest.insert(rest.begin(), &first);
            return rest;
        }

    } // namespace

    std::optional<Value> StatementLowering::run()
    {
        if (!collectLoads(*m_stmt.rhs))
            return std::nullopt;
        pickSingleRows();
        if (!determineVars())
            return std::nullopt;
        std::string cast;
        const Expr& core = strip(*m_stmt.rhs, &cast);
        if (!cast.empty()) {
            const auto dtype = dtypeFromEinstein(cast);
            if (!dtype) {
                fail(m_stmt.rhs->column, "unknown dtype `" + cast + "` in .cast(...)");
                return std::nullopt;
            }
            m_castDtype = *dtype;
        }
        const auto parts = concatParts(*m_stmt.rhs);
        if (m_stmt.op == AssignOp::Assign && parts.size() > 1)
            return lowerConcat(parts);
        const bool gather = std::any_of(m_loads.begin(), m_loads.end(), [](const Load& load) {
            return std::any_of(
                load.forms.begin(), load.forms.end(), [](const IndexForm& form) { return form.nestedLoad; });
        });
        if (m_stmt.op == AssignOp::Assign && core.kind == ExprKind::Load && !gather)
            return lowerCopy(loadOf(core));
        return lowerCompute(core);
    }

    bool StatementLowering::fail(std::size_t column, std::string message)
    {
        m_error = { column, std::move(message) };
        return false;
    }

    const Load& StatementLowering::loadOf(const Expr& e) const
    {
        for (const Load& load : m_loads) {
            if (load.expr == &e)
                return load;
        }
        return m_loads.front(); // not reached: every load was collected
    }

    const Slot& StatementLowering::slotOf(const Load& load) const
    {
        return m_slots.at(load.expr->text);
    }

    std::int64_t StatementLowering::boundOf(const std::vector<VarRec>& vars, int v) const
    {
        const VarRec& var = vars[std::size_t(v)];
        if (var.synthetic)
            return var.bound;
        std::string why;
        return bindExtent(var.raw, false, m_ctx.bindings, why).value_or(1);
    }

    std::string StatementLowering::outputName() const
    {
        const std::string base = "n" + std::to_string(m_ctx.node.id) + m_ctx.node.nameSuffix;
        return m_stmt.target == "output0" ? base : base + "." + m_stmt.target;
    }

    std::string StatementLowering::opName(const std::string& suffix) const
    {
        std::string name = m_ctx.node.opName;
        if (m_stmt.target != "output0")
            name += "." + m_stmt.target;
        return suffix.empty() ? name : name + "." + suffix;
    }

    std::vector<OutputAxis> StatementLowering::plainOutputs() const
    {
        std::vector<OutputAxis> axes;
        for (int v : m_outputVars)
            axes.push_back({ { v }, false, 1, 1 });
        return axes;
    }

    InputSpec StatementLowering::inputSpec(const Load& load) const
    {
        InputSpec spec;
        spec.label = load.expr->text;
        spec.value = slotOf(load).value;
        return spec;
    }

    std::optional<Value> StatementLowering::build(OpRequest& request)
    {
        NodeError error;
        const auto built = buildOp(m_ctx.program, m_ctx.bindings, request, error);
        if (!built) {
            m_error = error;
            return std::nullopt;
        }
        m_ctx.warnings.insert(m_ctx.warnings.end(), built->warnings.begin(), built->warnings.end());
        return built->output;
    }

} // namespace detail

std::optional<Value> lowerNode(LoweringContext& context, NodeError& error)
{
    const Kernel& kernel = context.kernel;
    const std::size_t inputCount = context.inputs.size();
    for (const auto& [name, decl] : kernel.inputs) {
        if (name.rfind("output", 0) == 0)
            continue; // some exporters declare the output too; its shape follows from the expression
        const bool numbered = name.size() > 5 && name.size() < 12 && name.rfind("input", 0) == 0
            && std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!numbered || std::stoull(name.substr(5)) >= inputCount) {
            error = { decl.column,
                "input_dict declares " + name + ", but the node has " + std::to_string(inputCount) + " input(s)"
                    + (inputCount ? " (input0..input" + std::to_string(inputCount - 1) + ")" : "") };
            return std::nullopt;
        }
    }
    std::map<std::string, detail::Slot> slots;
    context.createdExternals.assign(inputCount, std::nullopt);
    for (std::size_t k = 0; k < inputCount; ++k) {
        const std::string name = "input" + std::to_string(k);
        const auto declIt = kernel.inputs.find(name);
        const NodeInput& input = context.inputs[k];
        if (declIt == kernel.inputs.end()) {
            if (input.value) {
                detail::Slot slot;
                slot.value = *input.value;
                slot.dtype = context.program.storages[std::size_t(input.value->storage)].dtype;
                slots[name] = slot;
            }
            continue; // a new external that is never declared cannot be read (reported where it is)
        }
        const InputDecl& decl = declIt->second;
        const auto dtype = dtypeFromEinstein(decl.dtype);
        if (!dtype) {
            error = { decl.column, "unknown dtype \"" + decl.dtype + "\" of " + name };
            return std::nullopt;
        }
        detail::Slot slot;
        slot.dtype = *dtype;
        if (input.value) {
            const auto actual = input.value->viewShapeRaw();
            if (actual != decl.shape) {
                error = { decl.column,
                    name + " is " + input.description + " of shape " + shapeText(actual) + ", but input_dict declares "
                        + shapeText(decl.shape) };
                return std::nullopt;
            }
            slot.value = *input.value;
            slot.dtype = context.program.storages[std::size_t(input.value->storage)].dtype;
            slots[name] = slot;
            continue;
        }
        Storage storage;
        storage.name = input.externalName;
        storage.dtype = *dtype;
        storage.external = true;
        storage.settled = false;
        for (std::size_t a = 0; a < decl.shape.size(); ++a) {
            const std::int64_t raw = decl.shape[a];
            if (raw <= 0) {
                error = { decl.column,
                    name + " axis " + std::to_string(a) + " has extent " + std::to_string(raw)
                        + "; extents must be at least 1" };
                return std::nullopt;
            }
            std::string why;
            const auto bound = bindExtent(raw, false, context.bindings, why);
            if (!bound) {
                error = { decl.column, name + " axis " + std::to_string(a) + ": " + why };
                return std::nullopt;
            }
            storage.axes.push_back({ raw, false, *bound, false });
            storage.placeholder = storage.placeholder || decodeExtent(raw).any();
        }
        const int id = int(context.program.storages.size());
        context.program.storages.push_back(storage);
        slot.value = plainValue(id, storage.axes);
        context.createdExternals[k] = slot.value;
        slots[name] = slot;
    }
    std::optional<Value> output;
    for (const Statement& statement : kernel.statements) {
        if (statement.target.rfind("input", 0) == 0) {
            error = { statement.targetColumn, statement.target + " is an input and cannot be written" };
            return std::nullopt;
        }
        if (statement.target.rfind("output", 0) == 0 && statement.target != "output0") {
            error = { statement.targetColumn,
                "only output0 is supported (a node has one output), not " + statement.target };
            return std::nullopt;
        }
        if (statement.target == "output0" && output) {
            error = { statement.targetColumn, "output0 is written twice" };
            return std::nullopt;
        }
        detail::StatementLowering lowering(context, slots, statement, error);
        auto value = lowering.run();
        if (!value)
            return std::nullopt;
        if (statement.target == "output0") {
            output = *value;
        } else {
            detail::Slot temp;
            temp.value = *value;
            temp.dtype = context.program.storages[std::size_t(value->storage)].dtype;
            slots[statement.target] = temp;
        }
    }
    if (!output) {
        error = { 1, "the kernel never writes output0" };
        return std::nullopt;
    }
    return output;
}

} // namespace elk::import::einstein
