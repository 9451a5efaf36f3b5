// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/import_result.h"

#include <algorithm>
#include <cctype>

namespace elk::import {

std::string toString(const std::string& file, const ImportIssue& issue)
{
    std::string text = file;
    if (!issue.location.empty())
        text += ": " + issue.location;
    return text + ": " + issue.message;
}

namespace {

    bool mentions(const std::string& name, std::initializer_list<const char*> words)
    {
        std::string lower;
        for (char c : name)
            lower += char(std::tolower(static_cast<unsigned char>(c)));
        return std::any_of(
            words.begin(), words.end(), [&](const char* word) { return lower.find(word) != std::string::npos; });
    }

} // namespace

std::int64_t suggestedSize(const std::string& name, int axis, const std::vector<std::int64_t>& fileShape,
    std::int64_t batch, std::int64_t seqLen)
{
    if (mentions(name, { "batch" }) || (axis == 0 && !mentions(name, { "seq", "len", "token", "time" })))
        return std::max<std::int64_t>(1, batch);
    if (mentions(name, { "seq", "len", "token", "time" }))
        return std::max<std::int64_t>(1, seqLen);
    const bool image = fileShape.size() == 4 && fileShape[1] > 0 && fileShape[1] <= 4;
    if (image && (axis == 2 || axis == 3))
        return 224;
    return 1;
}

DimBindings bindFreeDims(const std::vector<FreeDim>& dims, const std::vector<std::int64_t>& sizes)
{
    DimBindings bindings;
    for (std::size_t k = 0; k < dims.size() && k < sizes.size(); ++k) {
        const FreeDim& dim = dims[k];
        if (!dim.name.empty()) {
            bindings.named[dim.name] = sizes[k];
            continue;
        }
        auto [shape, fresh] = bindings.inputShapes.try_emplace(dim.input, dim.fileShape);
        if (std::size_t(dim.axis) < shape->second.size())
            shape->second[std::size_t(dim.axis)] = sizes[k];
    }
    // An input given whole takes its named free dims from the same sizes.
    for (std::size_t k = 0; k < dims.size() && k < sizes.size(); ++k) {
        const auto shape = bindings.inputShapes.find(dims[k].input);
        if (shape != bindings.inputShapes.end() && std::size_t(dims[k].axis) < shape->second.size())
            shape->second[std::size_t(dims[k].axis)] = sizes[k];
    }
    return bindings;
}

} // namespace elk::import
