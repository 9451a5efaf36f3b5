// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/import/einstein_binding.h"
#include "engine/import/einstein_index.h"
#include "engine/import/einstein_lowering.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// The lowering of one statement, shared by the einstein_lowering*.cpp files only. The members of
// StatementLowering are defined by topic: einstein_lowering.cpp (dispatch and operator requests),
// _indices.cpp (loads and index extents), _copy.cpp (views and data movement), _concat.cpp
// (concatenations) and _compute.cpp (computing statements).

namespace elk::import::einstein::detail {

using model::OpKind;

/// A tensor a statement can read: a node input or an earlier statement's result.
struct Slot {
    Value value;
    model::DType dtype = model::DType::F32;
};

struct Load {
    const Expr* expr = nullptr;
    std::vector<IndexForm> forms;
};

/// CropView: a reshape of part of the axis (`covered` elements from `constant`), as when an
/// export reshapes 2048 of a 4608-wide slice into 16 heads of 128.
enum class FormKind { View, CropView, Affine1, Constant, Window, Unsupported };

struct Classified {
    FormKind kind = FormKind::Unsupported;
    std::vector<Piece> pieces; ///< View, CropView
    std::int64_t covered = 0; ///< CropView
    int var = -1; ///< Affine1: the variable; Window: the outer (output) variable
    int varB = -1; ///< Window: the window variable
    std::int64_t multiplier = 1; ///< Affine1: stride; Window: stride
    std::int64_t constant = 0;
};

bool hasLoad(const Expr& e);

int addVar(std::vector<VarRec>& vars, std::string name, std::int64_t raw, std::int64_t bound, bool synthetic,
    std::size_t column = 0);

class StatementLowering {
public:
    StatementLowering(
        LoweringContext& context, std::map<std::string, Slot>& slots, const Statement& statement, NodeError& error)
        : m_ctx(context)
        , m_slots(slots)
        , m_stmt(statement)
        , m_error(error)
    {
    }

    std::optional<Value> run();

private:
    // einstein_lowering.cpp
    bool fail(std::size_t column, std::string message);
    const Load& loadOf(const Expr& e) const;
    const Slot& slotOf(const Load& load) const;
    std::int64_t boundOf(const std::vector<VarRec>& vars, int v) const;
    std::string outputName() const;
    std::string opName(const std::string& suffix = {}) const;
    std::vector<OutputAxis> plainOutputs() const;
    InputSpec inputSpec(const Load& load) const;
    std::optional<Value> build(OpRequest& request);

    // einstein_lowering_indices.cpp
    bool collectLoads(const Expr& e);
    void pickSingleRows();
    int varIndex(const std::string& name) const;
    int declareVar(const std::string& name, std::size_t column);
    bool determineVars();
    bool solveSum(const IndexForm& form, std::int64_t extent);
    Classified classify(const IndexForm& form, std::int64_t axisRaw, bool windowAllowed) const;
    std::string unsupportedText(const Load& load, std::size_t j) const;

    // einstein_lowering_copy.cpp
    std::optional<Value> lowerCopy(const Load& load);
    int wrappedVar(const std::vector<Classified>& kinds) const;
    std::optional<Value> lowerWrap(const Load& load, const std::vector<Classified>& kinds, int wrapped);
    std::optional<Value> viewOf(const InputSpec& input);
    bool presliceIfNeeded(const Load& load, std::vector<Classified>& kinds, InputSpec& input, int& serial);

    // einstein_lowering_concat.cpp
    std::optional<Value> lowerConcat(const std::vector<const Expr*>& parts);
    std::string checkTiling(const std::vector<const Load*>& loads, std::size_t axis, int concatVar) const;
    std::optional<Value> foldedWeight(const Load& first);

    // einstein_lowering_compute.cpp
    std::optional<Value> lowerCompute(const Expr& core);
    bool isProductOfTwo(const Expr& core, const std::map<const Expr*, int>& operandOf) const;
    static bool contains(const Expr& e, const Expr* target);

    LoweringContext& m_ctx;
    std::map<std::string, Slot>& m_slots;
    const Statement& m_stmt;
    NodeError& m_error;
    std::vector<Load> m_loads;
    std::vector<VarRec> m_vars;
    std::map<std::string, int> m_varIndex;
    std::vector<int> m_outputVars;
    std::optional<model::DType> m_castDtype;
};

} // namespace elk::import::einstein::detail
