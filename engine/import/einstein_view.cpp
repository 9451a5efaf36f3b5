// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/einstein_view.h"

#include "engine/model/tensor_expr.h"

#include <algorithm>

namespace elk::import::einstein {

namespace {

    constexpr std::int64_t kBatchCode = 99;
    constexpr std::int64_t kSeqCode = 66;

} // namespace

std::int64_t checkedProduct(std::int64_t a, std::int64_t b)
{
    if (a <= 0 || b <= 0)
        return 0;
    if (a > model::kMaxIterations / b)
        return model::kMaxIterations + 1;
    return a * b;
}

Placeholder decodeExtent(std::int64_t raw)
{
    Placeholder p;
    p.coeff = raw;
    if (raw == kSeqCode) {
        p.coeff = 1;
        p.seq = true;
    } else if (raw > 0 && raw % (kBatchCode * kSeqCode) == 0) {
        p.coeff = raw / (kBatchCode * kSeqCode);
        p.batch = p.seq = true;
    } else if (raw > 0 && raw % kBatchCode == 0) {
        p.coeff = raw / kBatchCode;
        p.batch = true;
    }
    return p;
}

std::optional<std::int64_t> bindExtent(std::int64_t raw, bool kv, const Bindings& bindings, std::string& error)
{
    const Placeholder p = decodeExtent(raw);
    std::int64_t value = p.coeff;
    if (p.batch) {
        if (!bindings.batch) {
            error = "extent " + std::to_string(raw) + " holds the batch placeholder 99, but no batch size is bound";
            return std::nullopt;
        }
        value = checkedProduct(value, *bindings.batch);
    }
    if (p.seq) {
        const auto& length = kv ? bindings.kvLen : bindings.seqLen;
        if (!length) {
            error = "extent " + std::to_string(raw) + " holds the sequence placeholder 66, but no "
                + (kv ? "KV length" : "sequence length") + " is bound";
            return std::nullopt;
        }
        value = checkedProduct(value, *length);
    }
    if (value > model::kMaxIterations || value <= 0) {
        error = "extent " + std::to_string(raw) + " binds to " + (value <= 0 ? std::to_string(value) : "more than 2^53")
            + "; extents must be between 1 and 2^53";
        return std::nullopt;
    }
    return value;
}

std::int64_t Value::viewRaw(std::size_t axis) const
{
    std::int64_t product = 1;
    for (int atom : viewAxes.at(axis))
        product = checkedProduct(product, atoms[std::size_t(atom)].raw);
    return product;
}

std::vector<std::int64_t> Value::viewShapeRaw() const
{
    std::vector<std::int64_t> shape;
    for (std::size_t axis = 0; axis < viewAxes.size(); ++axis)
        shape.push_back(viewRaw(axis));
    return shape;
}

std::vector<std::int64_t> Value::viewShapeBound() const
{
    std::vector<std::int64_t> shape;
    for (const auto& axis : viewAxes) {
        std::int64_t product = 1;
        for (int atom : axis)
            product = checkedProduct(product, atoms[std::size_t(atom)].bound);
        shape.push_back(product);
    }
    return shape;
}

int Value::storageAxisOf(int atom) const
{
    for (std::size_t axis = 0; axis < storageAxes.size(); ++axis) {
        if (std::find(storageAxes[axis].begin(), storageAxes[axis].end(), atom) != storageAxes[axis].end())
            return int(axis);
    }
    return -1;
}

Value plainValue(int storage, const std::vector<Atom>& axes)
{
    Value value;
    value.storage = storage;
    value.atoms = axes;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        value.viewAxes.push_back({ int(i) });
        value.storageAxes.push_back({ int(i) });
    }
    return value;
}

namespace {

    // Splits one atom into outer x inner (raw numbers), keeping placeholder factors whole.
    bool splitAtom(Value& value, int atomId, std::int64_t inner, const Bindings& bindings, std::string& error)
    {
        const Atom whole = value.atoms[std::size_t(atomId)];
        const std::int64_t outer = whole.raw / inner;
        const Placeholder all = decodeExtent(whole.raw);
        const Placeholder po = decodeExtent(outer);
        const Placeholder pi = decodeExtent(inner);
        const bool lineUp = po.coeff * pi.coeff == all.coeff && int(po.batch) + int(pi.batch) == int(all.batch)
            && int(po.seq) + int(pi.seq) == int(all.seq);
        if (!lineUp) {
            error = "splitting extent " + std::to_string(whole.raw) + " into " + std::to_string(outer) + " x "
                + std::to_string(inner) + " separates the batch/sequence placeholder factors";
            return false;
        }
        Atom a { outer, whole.kv && po.seq, 1, whole.flexible };
        Atom b { inner, whole.kv && pi.seq, 1, whole.flexible };
        const auto ba = bindExtent(a.raw, a.kv, bindings, error);
        const auto bb = bindExtent(b.raw, b.kv, bindings, error);
        if (!ba || !bb)
            return false;
        a.bound = *ba;
        b.bound = *bb;
        value.atoms[std::size_t(atomId)] = a;
        const int innerId = int(value.atoms.size());
        value.atoms.push_back(b);
        auto insertAfter = [&](std::vector<int>& run) {
            const auto it = std::find(run.begin(), run.end(), atomId);
            if (it != run.end())
                run.insert(it + 1, innerId);
        };
        for (auto& run : value.viewAxes)
            insertAfter(run);
        for (auto& run : value.storageAxes)
            insertAfter(run);
        return true;
    }

} // namespace

bool refineViewAxis(Value& value, std::size_t axis, const std::vector<std::int64_t>& breaks, const Bindings& bindings,
    std::string& error)
{
    for (std::int64_t target : breaks) {
        const std::int64_t total = value.viewRaw(axis);
        if (target <= 1 || target >= total)
            continue;
        // Walk from the inner end, keeping the product of the atoms passed so far.
        const auto& run = value.viewAxes[axis];
        std::int64_t inner = 1;
        bool done = false;
        for (std::size_t k = run.size(); k-- > 0;) {
            const Atom& atom = value.atoms[std::size_t(run[k])];
            const std::int64_t outerEdge = inner * atom.raw;
            if (inner == target || outerEdge == target) {
                done = true;
                break;
            }
            if (outerEdge > target) {
                if (target % inner != 0 || atom.raw % (target / inner) != 0) {
                    error = "extent " + std::to_string(total) + " cannot be split at " + std::to_string(target)
                        + " consistently with its other uses";
                    return false;
                }
                if (!splitAtom(value, run[k], target / inner, bindings, error))
                    return false;
                done = true;
                break;
            }
            inner = outerEdge;
        }
        if (!done) {
            error = "extent " + std::to_string(total) + " cannot be split at " + std::to_string(target);
            return false;
        }
    }
    return true;
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

} // namespace elk::import::einstein
