// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The samples CSV of the fitted tile cost model (format in fitted_cost.h).
#include "engine/cost/fitted_cost.h"

#include <array>
#include <charconv>
#include <cmath>

#include "engine/core/read_file.h"

namespace elk::cost {

namespace {

    constexpr std::array<std::string_view, 4> kColumns { "kind", "extents", "dtype", "cycles" };

    std::string_view trimmed(std::string_view text)
    {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
            text.remove_suffix(1);
        return text;
    }

    std::string quoted(std::string_view text)
    {
        constexpr std::size_t kMaxShown = 60;
        std::string shown(text.substr(0, kMaxShown));
        if (text.size() > kMaxShown)
            shown += "...";
        return "\"" + shown + "\"";
    }

    std::vector<std::string_view> splitFields(std::string_view line)
    {
        std::vector<std::string_view> fields;
        std::size_t start = 0;
        while (true) {
            const std::size_t comma = line.find(',', start);
            fields.push_back(trimmed(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
            if (comma == std::string_view::npos)
                return fields;
            start = comma + 1;
        }
    }

    template <typename Names> std::string oneOf(const Names& names)
    {
        std::string list;
        for (const auto& name : names)
            list += (list.empty() ? "" : ", ") + std::string(toString(name));
        return list;
    }

    /// "32x128x64" → extents, or nothing when malformed.
    std::optional<std::vector<std::int64_t>> parseExtents(std::string_view text)
    {
        std::vector<std::int64_t> extents;
        double product = 1;
        std::size_t start = 0;
        while (true) {
            const std::size_t x = text.find('x', start);
            const std::string_view part = text.substr(start, x == std::string_view::npos ? x : x - start);
            std::int64_t value = 0;
            const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
            if (part.empty() || ec != std::errc() || end != part.data() + part.size() || value < 1)
                return std::nullopt;
            extents.push_back(value);
            product *= double(value);
            if (product > double(model::kMaxIterations))
                return std::nullopt;
            if (x == std::string_view::npos)
                return extents;
            start = x + 1;
        }
    }

} // namespace

CostSamplesResult parseCostSamplesCsv(std::string_view text, const std::string& fileName)
{
    CostSamplesResult result;
    const auto fail = [&](std::size_t line, const std::string& message) {
        result.samples.clear();
        result.error = fileName + ":" + std::to_string(line) + ": " + message;
        return result;
    };
    std::size_t lineNumber = 0;
    bool headerSeen = false;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t newline = text.find('\n', start);
        const std::string_view line
            = trimmed(text.substr(start, newline == std::string_view::npos ? newline : newline - start));
        start = newline == std::string_view::npos ? text.size() : newline + 1;
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        const std::vector<std::string_view> fields = splitFields(line);
        if (!headerSeen) {
            for (std::size_t c = 0; c < kColumns.size(); ++c) {
                const std::string_view found = c < fields.size() ? fields[c] : std::string_view();
                if (found != kColumns[c])
                    return fail(lineNumber,
                        "column " + std::to_string(c + 1) + ": expected header name \"" + std::string(kColumns[c])
                            + "\" (header kind,extents,dtype,cycles), found "
                            + (c < fields.size() ? quoted(found) : std::string("nothing")));
            }
            if (fields.size() != kColumns.size())
                return fail(lineNumber,
                    "expected 4 header columns (kind,extents,dtype,cycles), found " + std::to_string(fields.size()));
            headerSeen = true;
            continue;
        }
        if (fields.size() != kColumns.size())
            return fail(
                lineNumber, "expected 4 columns (kind,extents,dtype,cycles), found " + std::to_string(fields.size()));
        CostSample sample;
        const auto kind = model::opKindFromString(fields[0]);
        if (!kind)
            return fail(lineNumber,
                "column kind: expected one of " + oneOf(model::kAllOpKinds) + ", found " + quoted(fields[0]));
        sample.kind = *kind;
        const auto extents = parseExtents(fields[1]);
        if (!extents)
            return fail(lineNumber,
                "column extents: expected integers >= 1 joined by 'x' (e.g. 32x128x64) with at most "
                "2^53 iterations, found "
                    + quoted(fields[1]));
        if (int(extents->size()) < minSampleExtents(*kind))
            return fail(lineNumber,
                "column extents: expected at least " + std::to_string(minSampleExtents(*kind)) + " extents for "
                    + model::toString(*kind) + ", found " + quoted(fields[1]));
        sample.extents = *extents;
        const auto dtype = model::dtypeFromString(fields[2]);
        if (!dtype)
            return fail(lineNumber,
                "column dtype: expected one of " + oneOf(model::kAllDTypes) + ", found " + quoted(fields[2]));
        sample.dtype = *dtype;
        const std::string_view cyclesText = fields[3];
        double cycles = 0;
        const auto [end, ec] = std::from_chars(cyclesText.data(), cyclesText.data() + cyclesText.size(), cycles);
        if (cyclesText.empty() || ec != std::errc() || end != cyclesText.data() + cyclesText.size()
            || !std::isfinite(cycles) || cycles < 0)
            return fail(lineNumber, "column cycles: expected a finite number >= 0, found " + quoted(cyclesText));
        sample.cycles = cycles;
        result.samples.push_back(std::move(sample));
    }
    if (!headerSeen)
        return fail(
            std::max<std::size_t>(1, lineNumber), "expected the header kind,extents,dtype,cycles, found an empty file");
    if (result.samples.empty())
        return fail(lineNumber, "expected at least one sample after the header, found none");
    return result;
}

CostSamplesResult readCostSamplesCsv(const std::string& path)
{
    std::string error;
    const auto text = readFileText(path, error, std::uintmax_t(256) << 20);
    if (!text) {
        CostSamplesResult result;
        result.error = error;
        return result;
    }
    return parseCostSamplesCsv(*text, path);
}

} // namespace elk::cost
