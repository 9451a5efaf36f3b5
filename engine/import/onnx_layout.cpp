// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_layout.h"

namespace elk::import::onnx_detail {

std::uint32_t Layout::newClass(std::int64_t extent)
{
    const auto id = std::uint32_t(m_classes.size());
    ClassRec rec;
    rec.parent = id;
    rec.extent = extent;
    m_classes.push_back(std::move(rec));
    return id;
}

AtomId Layout::newAtom(std::uint32_t cls, RootId owner)
{
    const auto id = AtomId(m_atoms.size());
    m_atoms.push_back(AtomRec { cls, owner, {} });
    return id;
}

View Layout::newRoot(const std::vector<std::int64_t>& shape)
{
    View view;
    view.root = RootId(m_rootSlots.size());
    std::vector<AtomId>& slots = m_rootSlots.emplace_back();
    view.axes.resize(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] <= 1)
            continue;
        const AtomId atom = newAtom(newClass(shape[i]), view.root);
        view.axes[i].push_back(atom);
        slots.push_back(atom);
    }
    return view;
}

View Layout::newRootFactored(const std::vector<std::vector<std::int64_t>>& factors)
{
    View view;
    view.root = RootId(m_rootSlots.size());
    m_rootSlots.emplace_back();
    for (const auto& axisFactors : factors) {
        ViewAxis axis;
        for (std::int64_t extent : axisFactors) {
            if (extent <= 1)
                continue;
            const AtomId atom = newAtom(newClass(extent), view.root);
            axis.push_back(atom);
            m_rootSlots.back().push_back(atom);
        }
        view.axes.push_back(std::move(axis));
    }
    return view;
}

AtomId Layout::newVirtual(std::int64_t extent)
{
    return newAtom(newClass(extent), kVirtualRoot);
}

std::uint32_t Layout::find(std::uint32_t cls) const
{
    // Union by size keeps trees shallow; no path compression, so rollback stays a plain journal.
    while (m_classes[cls].parent != cls)
        cls = m_classes[cls].parent;
    return cls;
}

std::int64_t Layout::extent(AtomId atom) const
{
    return m_classes[find(m_atoms[atom].cls)].extent;
}

std::int64_t Layout::extent(const ViewAxis& axis) const
{
    std::int64_t product = 1;
    for (AtomId atom : axis)
        product *= extent(atom);
    return product;
}

std::vector<std::int64_t> Layout::shapeOf(const View& view) const
{
    std::vector<std::int64_t> shape;
    for (const ViewAxis& axis : view.axes)
        shape.push_back(extent(axis));
    return shape;
}

bool Layout::hasVirtual(const View& view) const
{
    for (const ViewAxis& axis : view.axes) {
        for (AtomId atom : axis) {
            if (m_atoms[atom].owner == kVirtualRoot)
                return true;
        }
    }
    return false;
}

void Layout::saveClass(std::uint32_t cls)
{
    if (m_open == 0)
        return;
    JournalEntry entry;
    entry.isClass = true;
    entry.index = cls;
    entry.cls = m_classes[cls];
    m_journal.push_back(std::move(entry));
}

void Layout::split(std::uint32_t cls, std::int64_t first)
{
    const std::int64_t total = m_classes[cls].extent;
    saveClass(cls);
    const std::uint32_t a = newClass(first);
    const std::uint32_t b = newClass(total / first);
    m_classes[cls].children = { a, b };
}

void Layout::join(std::uint32_t a, std::uint32_t b)
{
    if (m_classes[a].size > m_classes[b].size)
        std::swap(a, b);
    saveClass(a);
    saveClass(b);
    m_classes[a].parent = b;
    m_classes[b].size += m_classes[a].size;
    m_classes[b].rigid = m_classes[b].rigid || m_classes[a].rigid;
}

const std::vector<AtomId>& Layout::expand(AtomId atom)
{
    const std::uint32_t cls = find(m_atoms[atom].cls);
    if (m_classes[cls].children.empty() || !m_atoms[atom].children.empty())
        return m_atoms[atom].children;
    if (m_open > 0) {
        JournalEntry entry;
        entry.isClass = false;
        entry.index = atom;
        m_journal.push_back(std::move(entry));
    }
    std::vector<AtomId> children;
    children.reserve(m_classes[cls].children.size());
    for (std::uint32_t child : m_classes[cls].children) // m_classes does not grow here
        children.push_back(newAtom(child, m_atoms[atom].owner));
    m_atoms[atom].children = std::move(children);
    return m_atoms[atom].children;
}

void Layout::appendLeaves(AtomId atom, AtomList& out)
{
    if (expand(atom).empty()) {
        out.push_back(atom);
        return;
    }
    const std::vector<AtomId> children = m_atoms[atom].children; // expanding below may grow m_atoms
    for (AtomId child : children)
        appendLeaves(child, out);
}

AtomList Layout::leaves(const ViewAxis& atoms)
{
    AtomList out;
    for (AtomId atom : atoms)
        appendLeaves(atom, out);
    return out;
}

AtomList Layout::rootLeaves(RootId root)
{
    AtomList out;
    for (AtomId atom : m_rootSlots.at(root))
        appendLeaves(atom, out);
    return out;
}

void Layout::commit(const Mark& mark)
{
    if (--m_open == 0)
        m_journal.clear();
    else
        (void)mark; // an enclosing transaction may still roll these changes back
}

void Layout::rollback(const Mark& mark)
{
    while (m_journal.size() > mark.journal) {
        JournalEntry& entry = m_journal.back();
        if (entry.isClass) {
            if (entry.index < m_classes.size())
                m_classes[entry.index] = std::move(entry.cls);
        } else if (entry.index < m_atoms.size()) {
            m_atoms[entry.index].children.clear();
        }
        m_journal.pop_back();
    }
    m_classes.resize(mark.classes);
    m_atoms.resize(mark.atoms);
    m_rootSlots.resize(mark.roots);
    if (--m_open == 0)
        m_journal.clear();
}

bool Layout::unify(const ViewAxis& a, const ViewAxis& b)
{
    // Work lists with the next atom at the back.
    std::vector<AtomId> left(a.rbegin(), a.rend());
    std::vector<AtomId> right(b.rbegin(), b.rend());
    auto refineFront = [this](std::vector<AtomId>& list) {
        const AtomId front = list.back();
        if (expand(front).empty())
            return false;
        list.pop_back();
        const std::vector<AtomId>& children = m_atoms[front].children;
        list.insert(list.end(), children.rbegin(), children.rend());
        return true;
    };
    while (!left.empty() && !right.empty()) {
        if (refineFront(left) || refineFront(right))
            continue;
        const std::uint32_t cx = find(m_atoms[left.back()].cls);
        const std::uint32_t cy = find(m_atoms[right.back()].cls);
        const std::int64_t ex = m_classes[cx].extent;
        const std::int64_t ey = m_classes[cy].extent;
        if (ex == ey) {
            if (cx != cy)
                join(cx, cy);
            left.pop_back();
            right.pop_back();
        } else if (ex < ey) {
            if (ey % ex != 0 || m_classes[cy].rigid)
                return false;
            split(cy, ex);
        } else {
            if (ex % ey != 0 || m_classes[cx].rigid)
                return false;
            split(cx, ey);
        }
    }
    return left.empty() && right.empty();
}

std::optional<std::vector<ViewAxis>> Layout::regroup(const ViewAxis& atoms, const std::vector<std::int64_t>& extents)
{
    std::vector<AtomId> queue(atoms.rbegin(), atoms.rend()); // next atom at the back
    std::vector<ViewAxis> groups;
    groups.reserve(extents.size());
    for (std::int64_t target : extents) {
        ViewAxis group;
        std::int64_t need = target;
        while (need > 1) {
            if (queue.empty())
                return std::nullopt;
            const AtomId front = queue.back();
            if (!expand(front).empty()) {
                queue.pop_back();
                const std::vector<AtomId>& children = m_atoms[front].children;
                queue.insert(queue.end(), children.rbegin(), children.rend());
                continue;
            }
            const std::uint32_t cls = find(m_atoms[front].cls);
            const std::int64_t e = m_classes[cls].extent;
            if (need % e == 0) {
                group.push_back(front);
                queue.pop_back();
                need /= e;
            } else if (e % need == 0 && !m_classes[cls].rigid) {
                split(cls, need);
            } else {
                return std::nullopt;
            }
        }
        groups.push_back(std::move(group));
    }
    if (!queue.empty())
        return std::nullopt;
    return groups;
}

bool Layout::isRigid(AtomId atom) const
{
    return m_classes[find(m_atoms[atom].cls)].rigid;
}

bool Layout::makeRigid(AtomId atom)
{
    const std::uint32_t cls = find(m_atoms[atom].cls);
    if (!m_classes[cls].children.empty())
        return false;
    if (!m_classes[cls].rigid) {
        saveClass(cls);
        m_classes[cls].rigid = true;
    }
    return true;
}

} // namespace elk::import::onnx_detail
