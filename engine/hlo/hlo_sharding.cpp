// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_sharding.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace elk::hlo {

namespace {

    std::string_view trim(std::string_view text)
    {
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
            text.remove_prefix(1);
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
            text.remove_suffix(1);
        return text;
    }

    /// "8,1" -> {8, 1}; none on anything else.
    std::optional<std::vector<std::int64_t>> integers(std::string_view text)
    {
        std::vector<std::int64_t> values;
        while (!text.empty()) {
            text = trim(text);
            std::int64_t value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error != std::errc() || value < 1)
                return std::nullopt;
            values.push_back(value);
            text.remove_prefix(std::size_t(end - text.data()));
            text = trim(text);
            if (!text.empty()) {
                if (text.front() != ',')
                    return std::nullopt;
                text.remove_prefix(1);
            }
        }
        return values;
    }

    std::int64_t product(const std::vector<std::int64_t>& values, std::size_t count)
    {
        std::int64_t total = 1;
        for (std::size_t i = 0; i < count && i < values.size(); ++i)
            total = values[i] > 0 && total <= (std::int64_t(1) << 40) / values[i] ? total * values[i] : total;
        return total;
    }

    /// The n-th `<...>` group at the top level of a sharding_per_value body "[<...>, <...>]".
    std::optional<std::string_view> perValueEntry(std::string_view body, std::size_t n)
    {
        int depth = 0;
        std::size_t start = std::string_view::npos, index = 0;
        for (std::size_t i = 0; i < body.size(); ++i) {
            const char c = body[i];
            if (c == '<') {
                if (depth++ == 0)
                    start = i + 1;
            } else if (c == '>' && depth > 0 && --depth == 0) {
                if (index++ == n)
                    return body.substr(start, i - start);
            }
        }
        return std::nullopt;
    }

    /// `rank` of mhloTiles that accepts the tile dims as written (none for a replicated form).
    constexpr std::size_t kAnyRank = std::size_t(-1);

    /// Per-dim pieces of an mhlo.sharding string ("{devices=[2,1]<=[2]}": {2, 1}); replicated and
    /// the like: all 1.
    std::optional<std::vector<std::int64_t>> mhloTiles(std::string_view sharding, std::size_t rank)
    {
        std::string_view text = trim(sharding);
        if (text.size() < 2 || text.front() != '{' || text.back() != '}')
            return std::nullopt;
        text = trim(text.substr(1, text.size() - 2));
        if (!text.empty() && text.front() == '{') {
            const std::size_t close = text.find('}');
            return close == std::string_view::npos ? std::nullopt : mhloTiles(text.substr(0, close + 1), rank);
        }
        if (text.rfind("replicated", 0) == 0 || text.rfind("maximal", 0) == 0 || text.rfind("manual", 0) == 0)
            return std::vector<std::int64_t>(rank == kAnyRank ? 0 : rank, 1);
        if (text.rfind("devices=[", 0) != 0)
            return std::nullopt;
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        auto dims = integers(text.substr(9, close - 9));
        if (!dims || dims->empty())
            return std::nullopt;
        std::size_t replicated = 0;
        if (text.find("last_tile_dim_replicate") != std::string_view::npos)
            replicated = 1;
        if (const std::size_t at = text.find("last_tile_dims={"); at != std::string_view::npos) {
            const std::size_t end = text.find('}', at);
            if (end == std::string_view::npos)
                return std::nullopt;
            const std::string_view list = text.substr(at + 16, end - at - 16);
            replicated = list.empty() ? 0 : std::size_t(std::count(list.begin(), list.end(), ',')) + 1;
        }
        if (replicated > dims->size())
            return std::nullopt;
        dims->resize(dims->size() - replicated);
        if (rank != kAnyRank && dims->size() != rank)
            return std::nullopt;
        return dims;
    }

    /// Per-dim pieces of `@mesh, [{"x"}, {}]`.
    std::optional<std::vector<std::int64_t>> sdyValueTiles(std::string_view text, const Module& module)
    {
        text = trim(text);
        if (text.empty() || text.front() != '@')
            return std::nullopt;
        const std::size_t comma = text.find(',');
        if (comma == std::string_view::npos)
            return std::nullopt;
        const Mesh* mesh = module.findMesh(trim(text.substr(1, comma - 1)));
        if (!mesh)
            return std::nullopt;
        const std::size_t open = text.find('[', comma);
        if (open == std::string_view::npos)
            return std::nullopt;
        std::vector<std::int64_t> tiles;
        int braces = 0;
        for (std::size_t i = open + 1; i < text.size() && text[i] != ']'; ++i) {
            if (text[i] == '{') {
                if (braces++ == 0)
                    tiles.push_back(1);
            } else if (text[i] == '}') {
                --braces;
            } else if (text[i] == '"' && braces > 0) {
                const std::size_t close = text.find('"', i + 1);
                if (close == std::string_view::npos)
                    return std::nullopt;
                const std::string_view axis = text.substr(i + 1, close - i - 1);
                bool found = false;
                for (const MeshAxis& meshAxis : mesh->axes) {
                    if (meshAxis.name == axis) {
                        tiles.back() *= std::max<std::int64_t>(1, meshAxis.size);
                        found = true;
                    }
                }
                if (!found)
                    return std::nullopt;
                i = close;
            }
        }
        return tiles;
    }

    /// Per-dim pieces of a Shardy sharding (`result` picks the value of a sharding_per_value).
    std::optional<std::vector<std::int64_t>> sdyTiles(
        const Attribute& sharding, const Module& module, std::size_t result)
    {
        if (sharding.kind != Attribute::Kind::Dialect)
            return std::nullopt;
        if (sharding.text == "sdy.sharding")
            return sdyValueTiles(sharding.body, module);
        if (sharding.text == "sdy.sharding_per_value")
            if (const auto entry = perValueEntry(sharding.body, result))
                return sdyValueTiles(*entry, module);
        return std::nullopt;
    }

} // namespace

std::optional<std::vector<std::int64_t>> shardingTiles(
    const Attribute& sharding, const Module& module, std::size_t rank, std::size_t result)
{
    if (sharding.kind == Attribute::Kind::String)
        return mhloTiles(sharding.text, rank);
    const auto tiles = sdyTiles(sharding, module, result);
    if (tiles && tiles->size() != rank)
        return std::nullopt;
    return tiles;
}

std::optional<std::int64_t> mhloShardCount(std::string_view sharding)
{
    const auto tiles = mhloTiles(sharding, kAnyRank);
    return tiles ? std::optional<std::int64_t>(product(*tiles, tiles->size())) : std::nullopt;
}

std::optional<std::int64_t> sdyShardCount(const Attribute& sharding, const Module& module, std::size_t result)
{
    const auto tiles = sdyTiles(sharding, module, result);
    return tiles ? std::optional<std::int64_t>(product(*tiles, tiles->size())) : std::nullopt;
}

bool isTiledSharding(const Attribute& sharding, const Module& module)
{
    std::optional<std::int64_t> pieces;
    if (sharding.kind == Attribute::Kind::String)
        pieces = mhloShardCount(sharding.text);
    else
        pieces = sdyShardCount(sharding, module, 0);
    return pieces && *pieces > 1;
}

} // namespace elk::hlo
