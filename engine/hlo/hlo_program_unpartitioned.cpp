// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// A module not partitioned yet: per-device pieces of each value, and each op's share.
#include "engine/hlo/hlo_program_flattener.h"

#include "engine/hlo/hlo_attrs.h"
#include "engine/hlo/hlo_sharding.h"

#include <algorithm>
#include <cmath>

namespace elk::hlo::detail {

namespace {

    std::int64_t productOf(const std::vector<std::int64_t>& pieces)
    {
        std::int64_t total = 1;
        for (std::int64_t p : pieces)
            total *= std::max<std::int64_t>(1, p);
        return total;
    }

} // namespace

Flattener::Pieces Flattener::operandPieces(const FlatOp& flat, std::size_t operand) const
{
    const std::int32_t producer = flat.operandSources[operand];
    const std::uint32_t result = flat.operandResultIndex[operand];
    if (producer < 0)
        return result < m_argPieces.size() ? m_argPieces[result] : Pieces {};
    return result == 0 && std::size_t(producer) < m_pieces.size() ? m_pieces[std::size_t(producer)] : Pieces {};
}

/// How the op's result is split and which share of the op's global work one device does: from
/// its own sharding annotation, else from its operands' pieces by the op's semantics
/// (elementwise, broadcast_in_dim, transpose, dot_general, reduce, views). Unknown: global shape.
void Flattener::shardInstance(const Op& op, FlatOp& flat)
{
    const std::size_t rank = op.resultTypes.empty() ? 0 : op.resultTypes[0].dims.size();
    Pieces result;
    double share = 1;
    bool decided = false;
    const std::string_view base = baseOpName(op.name);
    const Attribute* own = op.attribute("mhlo.sharding");
    if (!own)
        own = op.attribute("sdy.sharding");
    if (own) {
        result = shardingTiles(*own, m_module, rank, 0);
        if (result) {
            share = 1.0 / double(productOf(*result));
            decided = true;
        }
    } else if (base == "dot_general" || base == "dot") {
        const auto dims = dotDimensions(op);
        const Pieces lhs = op.operands.size() > 1 ? operandPieces(flat, 0) : Pieces {};
        const Pieces rhs = op.operands.size() > 1 ? operandPieces(flat, 1) : Pieces {};
        if (dims && lhs && rhs) {
            std::vector<std::int64_t> pieces;
            const auto freeDims = [](std::size_t rankOf, const std::vector<std::int64_t>& batch,
                                      const std::vector<std::int64_t>& contracting) {
                std::vector<std::int64_t> free;
                for (std::int64_t d = 0; d < std::int64_t(rankOf); ++d)
                    if (std::find(batch.begin(), batch.end(), d) == batch.end()
                        && std::find(contracting.begin(), contracting.end(), d) == contracting.end())
                        free.push_back(d);
                return free;
            };
            bool fits = true;
            const auto at = [&fits](const std::vector<std::int64_t>& of, std::int64_t d) {
                fits = fits && d >= 0 && std::size_t(d) < of.size();
                return fits ? of[std::size_t(d)] : 1;
            };
            for (std::int64_t d : dims->lhsBatch)
                pieces.push_back(at(*lhs, d));
            for (std::int64_t d : freeDims(lhs->size(), dims->lhsBatch, dims->lhsContracting))
                pieces.push_back(at(*lhs, d));
            for (std::int64_t d : freeDims(rhs->size(), dims->rhsBatch, dims->rhsContracting))
                pieces.push_back(at(*rhs, d));
            std::int64_t contracted = 1;
            for (std::size_t k = 0; k < dims->lhsContracting.size() && k < dims->rhsContracting.size(); ++k)
                contracted *= std::max(at(*lhs, dims->lhsContracting[k]), at(*rhs, dims->rhsContracting[k]));
            if (fits && pieces.size() == rank) {
                result = pieces;
                share = 1.0 / double(productOf(pieces) * contracted);
                decided = true;
            }
        }
    } else if (base == "broadcast_in_dim") {
        const Pieces in = op.operands.empty() ? Pieces {} : operandPieces(flat, 0);
        const auto mapping = intList(op, "broadcast_dimensions");
        if (in && mapping && mapping->size() == in->size()) {
            std::vector<std::int64_t> pieces(rank, 1);
            for (std::size_t i = 0; i < mapping->size(); ++i)
                if ((*mapping)[i] >= 0 && std::size_t((*mapping)[i]) < rank)
                    pieces[std::size_t((*mapping)[i])] = (*in)[i];
            result = pieces;
            share = 1.0 / double(productOf(pieces));
            decided = true;
        }
    } else if (base == "transpose") {
        const Pieces in = op.operands.empty() ? Pieces {} : operandPieces(flat, 0);
        const auto permutation = intList(op, "permutation");
        // The reader does not check that the permutation names the operand's dims; an entry out of
        // range leaves the op on its global shape (and says where) rather than reading past the pieces.
        const auto inRange = [rank](std::int64_t d) { return d >= 0 && std::size_t(d) < rank; };
        const bool valid = permutation && std::all_of(permutation->begin(), permutation->end(), inRange);
        if (permutation && !valid)
            m_program.warnings.push_back(where(op.location) + ": transpose permutation names a dim outside 0.."
                + std::to_string(std::int64_t(rank) - 1) + "; costed on its global shape");
        if (in && valid && permutation->size() == rank && in->size() == rank) {
            std::vector<std::int64_t> pieces(rank, 1);
            for (std::size_t d = 0; d < rank; ++d)
                pieces[d] = (*in)[std::size_t((*permutation)[d])];
            result = pieces;
            share = 1.0 / double(productOf(pieces));
            decided = true;
        }
    } else if (base == "reduce" && !op.operands.empty()) {
        const Pieces in = operandPieces(flat, 0);
        const auto reduced = intList(op, "dimensions");
        if (in && reduced) {
            std::vector<std::int64_t> pieces;
            for (std::int64_t d = 0; d < std::int64_t(in->size()); ++d)
                if (std::find(reduced->begin(), reduced->end(), d) == reduced->end())
                    pieces.push_back((*in)[std::size_t(d)]);
            if (pieces.size() == rank) {
                result = pieces;
                share = 1.0 / double(productOf(*in));
                decided = true;
            }
        }
    } else if (flat.opClass != OpClass::Collective && !op.resultTypes.empty()
        && op.operandTypes.size() == op.operands.size()) {
        // Elementwise and same-shape views: the operands' common pieces (scalars aside).
        bool sameShapes = !op.operands.empty();
        Pieces common;
        for (std::size_t k = 0; k < op.operands.size() && sameShapes; ++k) {
            const Type& type = op.operandTypes[k];
            if (type.dims.empty())
                continue;
            if (type.dims != op.resultTypes.front().dims) {
                sameShapes = false;
                break;
            }
            const Pieces pieces = operandPieces(flat, k);
            if (!pieces || (common && *common != *pieces)) {
                sameShapes = false;
                break;
            }
            common = pieces;
        }
        if (sameShapes) {
            result = common ? common : std::vector<std::int64_t>(rank, 1);
            share = 1.0 / double(productOf(*result));
            decided = true;
        } else if (flat.opClass == OpClass::Free && !op.operands.empty()) {
            // A reshape of an unsplit value stays unsplit.
            const Pieces in = operandPieces(flat, 0);
            if (in && productOf(*in) == 1) {
                result = std::vector<std::int64_t>(rank, 1);
                decided = true;
            }
        }
    }
    m_pieces.push_back(result);
    if (flat.opClass != OpClass::Compute)
        return;
    if (!decided) {
        ++m_program.globalShapeOps;
        return;
    }
    if (share < 1) {
        flat.cost.flops *= share;
        flat.cost.transcendentals *= share;
        flat.cost.bytesRead *= share;
        flat.cost.bytesWritten *= share;
        flat.shardShare = share;
        flat.signature += " share=1/" + std::to_string(std::llround(1 / share));
        ++m_program.shardedOps;
    }
}

/// A sharding that splits something (not "", "{replicated}", "{manual}" or a single device) on
/// an argument, a result or an op: the module is not partitioned yet.
bool Flattener::moduleHasTiledShardings() const
{
    const auto tiled = [this](const AttributeList& list) {
        for (const char* key : { "mhlo.sharding", "sdy.sharding" })
            if (const Attribute* sharding = findAttribute(list, key); sharding && isTiledSharding(*sharding, m_module))
                return true;
        return false;
    };
    for (const Function& function : m_module.functions) {
        for (const auto* lists : { &function.argumentAttributes, &function.resultAttributes })
            for (const AttributeList& list : *lists)
                if (tiled(list))
                    return true;
        bool found = false;
        forEachOp(function.body, [&](const Op& op, int) { found = found || tiled(op.attributes); });
        if (found)
            return true;
    }
    return false;
}

} // namespace elk::hlo::detail
