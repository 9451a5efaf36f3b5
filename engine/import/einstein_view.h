// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Extents and views of the einstein importer (internal).
//
// Extents are handled twice: structurally in the file's raw numbers (where the exporter's
// placeholders 99 and 66 are ordinary, distinct numbers, so reshapes line up unambiguously even
// when the bound sequence length is 1) and bound to the run's batch / sequence / KV length.
//
// A Value is what a node's output looks like to its consumers: a storage tensor seen through a
// view. The view is a list of atoms (indivisible extents): each view axis is a run of atoms, each
// storage axis is a run of atoms, outer to inner. A reshape regroups atoms, a transpose reorders
// view axes, a broadcast adds atoms that no storage axis holds. Views cost nothing: consumers
// address the storage directly.

namespace elk::import::einstein {

struct Bindings {
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> seqLen;
    std::optional<std::int64_t> kvLen; ///< set: decode attention reads a KV cache of this length
};

/// What a raw extent stands for: coeff × batch (99) × sequence (66). 99, 66, 6534 = 99·66 and
/// multiples of 99 (heads merged with the batch, e.g. 3960 = 40·99) are placeholders.
struct Placeholder {
    std::int64_t coeff = 1;
    bool batch = false;
    bool seq = false;
    bool any() const { return batch || seq; }
};
Placeholder decodeExtent(std::int64_t raw);

/// An extent in both forms. `kv`: the sequence factor is the KV length, not the new tokens.
struct Atom {
    std::int64_t raw = 1;
    bool kv = false;
    std::int64_t bound = 1;
    bool flexible = false; ///< broadcast, where-clause or new external: may adopt a consumer's kv
};

/// The bound extent of `raw`, or nothing with `error` saying which binding is missing (or that the
/// product overflows 2^53).
std::optional<std::int64_t> bindExtent(std::int64_t raw, bool kv, const Bindings& bindings, std::string& error);

struct Value {
    int storage = -1;
    std::vector<Atom> atoms;
    std::vector<std::vector<int>> viewAxes; ///< view axis -> atom ids, outer to inner
    std::vector<std::vector<int>> storageAxes; ///< storage axis -> atom ids, outer to inner

    std::int64_t viewRaw(std::size_t axis) const;
    std::vector<std::int64_t> viewShapeRaw() const;
    std::vector<std::int64_t> viewShapeBound() const;
    /// -1 for broadcast atoms (and atoms of unknown place).
    int storageAxisOf(int atom) const;
};

/// The identity view of a storage with these axes.
Value plainValue(int storage, const std::vector<Atom>& axes);

/// Splits atoms of view axis `axis` so that every breakpoint (a product of inner extents, in raw
/// numbers) falls between two atoms. Returns false with `error` set when a breakpoint cuts an atom
/// into pieces that are not whole numbers or that separate placeholder factors.
bool refineViewAxis(Value& value, std::size_t axis, const std::vector<std::int64_t>& breaks, const Bindings& bindings,
    std::string& error);

/// "[99, 66, 5120]".
std::string shapeText(const std::vector<std::int64_t>& shape);

/// Saturating product; values above 2^53 come back as 2^53 + 1.
std::int64_t checkedProduct(std::int64_t a, std::int64_t b);

} // namespace elk::import::einstein
