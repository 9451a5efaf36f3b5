// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Storage layout of lowered tensors, so that ops which only re-view memory (Reshape, Flatten,
// Squeeze, Unsqueeze, Transpose, Expand, Identity, ...) cost nothing.
//
// A Graph IR operand axis is indexed by exactly one loop dimension. A consumer that reads
// reshape(x) to [B, S, 32, 128] from x stored as [B, S, 4096] therefore needs x stored as
// [B, S, 32, 128]. Each stored tensor (a "root") is a list of atoms; an atom can be split into
// finer atoms, and a view is a list of axes, each a list of atoms of one root (an axis of a
// broadcast view may hold "virtual" atoms that no root stores). Binding a view axis to a loop
// axis of an op "unifies" atom lists: both sides are refined until they have the same extents
// position by position, and the atoms paired up join a class that is split the same way from
// then on. Once all ops are planned, a root's leaves give its Graph IR shape and every operand
// axis maps to one loop dimension. Size-1 axes have no atoms, so broadcast axes drop out.
//
// Unification that cannot succeed (a [2,3] <-> [3,2] regrouping, or splitting an atom a sliding
// window reads) is rolled back; the caller then copies the view into a fresh root.

#include "engine/import/onnx_small_vector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace elk::import::onnx_detail {

using AtomId = std::uint32_t;
using RootId = std::uint32_t;
inline constexpr RootId kNoRoot = 0xffffffffu;
inline constexpr RootId kVirtualRoot = 0xfffffffeu;

/// One axis of a view: atoms, major to minor; empty for an axis of extent 1.
using ViewAxis = SmallVector<AtomId, 3>;
/// Leaves of an axis or a root.
using AtomList = SmallVector<AtomId, 6>;

/// How a value sees a stored tensor.
struct View {
    RootId root = kNoRoot;
    std::vector<ViewAxis> axes;
    bool valid() const { return root != kNoRoot; }
};

class Layout {
public:
    /// A new root storing `shape` (one atom per axis of extent > 1) and its natural view.
    View newRoot(const std::vector<std::int64_t>& shape);
    /// A new root whose axis i is stored as the atoms of `factors[i]` (extents > 1 only).
    View newRootFactored(const std::vector<std::vector<std::int64_t>>& factors);
    /// An atom no root stores: a broadcast axis of `extent`.
    AtomId newVirtual(std::int64_t extent);

    std::int64_t extent(AtomId atom) const;
    RootId owner(AtomId atom) const { return m_atoms[atom].owner; }
    std::int64_t extent(const ViewAxis& axis) const;
    std::vector<std::int64_t> shapeOf(const View& view) const;
    bool hasVirtual(const View& view) const;

    /// The finest atoms `atoms` are split into so far (creates storage atoms for new splits).
    AtomList leaves(const ViewAxis& atoms);
    void appendLeaves(AtomId atom, AtomList& out);
    /// The root's stored atoms in order: the Graph IR shape once planning is done.
    AtomList rootLeaves(RootId root);
    std::size_t rootCount() const { return m_rootSlots.size(); }

    struct Mark {
        std::size_t classes = 0;
        std::size_t atoms = 0;
        std::size_t journal = 0;
        std::size_t roots = 0;
    };
    /// Opens a transaction; every mark ends with commit() or rollback(). Changes are journaled
    /// only while one is open.
    Mark mark()
    {
        ++m_open;
        return { m_classes.size(), m_atoms.size(), m_journal.size(), m_rootSlots.size() };
    }
    void commit(const Mark& mark);
    void rollback(const Mark& mark);

    /// Refines both lists to equal extents position by position and pairs the atoms up.
    /// False when impossible (the state may be half-changed: roll back to a mark).
    bool unify(const ViewAxis& a, const ViewAxis& b);
    /// Splits `atoms` (in order) into consecutive groups of the given extents (1 = empty group).
    std::optional<std::vector<ViewAxis>> regroup(const ViewAxis& atoms, const std::vector<std::int64_t>& extents);
    /// Forbids splitting the atom's class (sliding windows read it as one axis); false if already split.
    bool makeRigid(AtomId atom);
    bool isRigid(AtomId atom) const;

private:
    struct ClassRec {
        std::uint32_t parent = 0;
        std::uint32_t size = 1;
        std::int64_t extent = 1;
        bool rigid = false;
        std::vector<std::uint32_t> children;
    };
    struct AtomRec {
        std::uint32_t cls = 0;
        RootId owner = kNoRoot;
        std::vector<AtomId> children;
    };
    struct JournalEntry {
        bool isClass = true;
        std::uint32_t index = 0;
        ClassRec cls;
        std::vector<AtomId> atomChildren;
    };

    std::uint32_t newClass(std::int64_t extent);
    AtomId newAtom(std::uint32_t cls, RootId owner);
    std::uint32_t find(std::uint32_t cls) const;
    void saveClass(std::uint32_t cls);
    void split(std::uint32_t cls, std::int64_t first);
    void join(std::uint32_t a, std::uint32_t b);
    /// Children of the atom when its class is split (created on first use), else empty.
    const std::vector<AtomId>& expand(AtomId atom);

    std::vector<ClassRec> m_classes;
    std::vector<AtomRec> m_atoms;
    std::vector<std::vector<AtomId>> m_rootSlots;
    std::vector<JournalEntry> m_journal;
    int m_open = 0; ///< open transactions
};

} // namespace elk::import::onnx_detail
