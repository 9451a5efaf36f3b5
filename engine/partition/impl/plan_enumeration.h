// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/partition/impl/expr_facts.h"

#include <cstdint>
#include <vector>

namespace elk::partition::detail {

/// Walks the valid spatial splits S of elk-reference.md §2.3 in lexicographic order (dim 0
/// outermost, ascending values). Every S[d] in 1..min(C, dims[d]) is a candidate, divisor or not,
/// except values whose own dimension's padding dims/(ceil(dims/S)·S) is already below Pad: the
/// padding test multiplies those per-dimension ratios (each <= 1), so such a value can never be
/// part of a valid split. Dropping them loses no valid plan. The utilisation and padding tests are
/// applied to prefixes so that hopeless subtrees are never visited.
class SpatialEnumerator {
public:
    explicit SpatialEnumerator(const ExprFacts& facts);

    /// Only splits whose first dim takes candidates [begin, end) of its (ascending) candidate list.
    void restrictFirstDim(std::size_t begin, std::size_t end);
    std::size_t firstDimCandidates() const { return m_end.empty() ? 0 : m_end[0] - m_begin[0]; }
    /// Advances to the next valid split; false when there is none left.
    bool next();
    const std::int32_t* spatial() const { return m_spatial.data(); } ///< [d]
    const std::int64_t* tile() const { return m_tile.data(); } ///< [d]: ceil(dims[d] / S[d])

private:
    /// Index of the first candidate of level d that can still reach C·U cores.
    std::size_t firstReachable(int d) const;

    const ExprFacts& m_facts;
    std::vector<std::int32_t> m_candidate; ///< all levels' candidate values, ascending per level
    std::vector<std::int64_t> m_candidateTile;
    std::vector<double> m_candidatePad;
    std::vector<std::size_t> m_begin, m_end; ///< [d]: level d's candidates
    std::vector<double> m_suffixMax; ///< [d]: product of the largest candidates of levels > d
    double m_minCores = 0; ///< C·U
    std::vector<std::size_t> m_pos; ///< [d]: current candidate of level d
    std::vector<std::int64_t> m_prod; ///< [d + 1]: product of S over levels <= d
    std::vector<double> m_pad; ///< [d + 1]: padding ratio over levels <= d
    std::vector<std::int32_t> m_spatial;
    std::vector<std::int64_t> m_tile;
    bool m_started = false;
};

/// Walks the valid temporal (rotation) matrices T of one spatial split (elk-reference.md §2.4, with
/// the dimension scramble fixed: level d draws from dim d's own list, so an operand is rotated only
/// along dims it uses). reset() and next() allocate nothing once the buffers have grown.
class TemporalEnumerator {
public:
    explicit TemporalEnumerator(const ExprFacts& facts);

    /// Starts the walk for split `spatial` with tiles `tile` (both [d]).
    void reset(const std::int32_t* spatial, const std::int64_t* tile);
    /// Advances to the next valid T; false when there is none left.
    bool next();
    const std::int32_t* temporal() const { return m_temporal.data(); } ///< [d * V + v]
    /// [v]: ceil(tile[d] ÷ T[d][v]) of the current matrix, precomputed per candidate vector so that
    /// measuring a plan divides nothing.
    const std::int64_t* extents(int d) const
    {
        return m_listExtent.data() + m_pos[std::size_t(d)] * std::size_t(m_operands);
    }
    /// Whether elements() holds: every operand's axes are plain and on distinct dims (no windows).
    bool plainAxes() const { return m_plainAxes; }
    /// [v]: elements of operand v's per-iteration sub-tensor (the product of its axes' extents), kept
    /// as running products level by level; valid only when plainAxes().
    const std::int64_t* elements() const
    {
        return m_elementProd.data() + std::size_t(m_dims) * std::size_t(m_operands);
    }
    /// [v]: product over dims of T[d][v] (> 1: operand v is rotated).
    const std::int64_t* rotationProducts() const
    {
        return m_prod.data() + std::size_t(m_dims) * std::size_t(m_operands);
    }
    /// The current matrix's largest factor of dim d, and ceil(tile[d] ÷ it).
    std::int32_t largest(int d) const { return m_listLargest[m_pos[std::size_t(d)]]; }
    std::int64_t iterExtent(int d) const { return m_listIterExtent[m_pos[std::size_t(d)]]; }
    const std::int64_t* replicas() const { return m_replicas.data(); } ///< [v]: cores holding the same tile

private:
    void buildDimList(int d);
    void extendDimList(int d, std::size_t user, std::int32_t largest);
    bool chainsWith(std::int32_t value) const;

    const ExprFacts& m_facts;
    int m_dims = 0;
    int m_operands = 0;
    const std::int64_t* m_tileRef = nullptr;
    std::vector<std::int64_t> m_replicas; ///< [v]
    std::vector<std::int32_t> m_divisors; ///< all operands' divisors of r[v] ascending
    std::vector<std::size_t> m_divBegin; ///< [v + 1]
    std::vector<std::int32_t> m_list; ///< per-dim candidate vectors, V entries each
    std::vector<double> m_listPad; ///< padding ratio t/(m·ceil(t/m)) per candidate vector
    std::vector<std::int64_t> m_listExtent; ///< parallel to m_list: ceil(tile ÷ factor)
    std::vector<std::int32_t> m_listLargest; ///< per candidate vector: its largest factor
    std::vector<std::int64_t> m_listIterExtent; ///< per candidate vector: ceil(tile ÷ largest)
    std::vector<std::int64_t> m_elementProd; ///< [(d + 1) * V + v]: product of v's axis extents over dims <= d
    bool m_plainAxes = false;
    std::vector<std::size_t> m_listBegin, m_listEnd; ///< [d]: in units of vectors
    std::vector<std::int32_t> m_work; ///< [v]: vector being built by buildDimList
    std::vector<std::size_t> m_pos; ///< [d]
    std::vector<std::int64_t> m_prod; ///< [(d + 1) * V + v]: product of T[<= d][v]
    std::vector<double> m_pad; ///< [d + 1]
    std::vector<std::int32_t> m_temporal; ///< [d * V + v]
    bool m_started = false;
};

} // namespace elk::partition::detail
