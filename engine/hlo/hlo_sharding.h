// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sharding annotations of a not yet partitioned module: how many pieces a value is split into, per
// dim, so that ops are costed at their per-device (local) shape (hlo_program_unpartitioned.cpp follows them).
// Read forms: mhlo.sharding strings ("{devices=[8,1]<=[8]}", "{devices=[2,1,2]0,1,2,3
// last_tile_dim_replicate}", "{replicated}", "{maximal device=0}", "{manual}") and Shardy's
// #sdy.sharding<@mesh, [{"x"}, {}]> / #sdy.sharding_per_value<[<@mesh, [...]>, ...]> with the axis
// sizes of the module's sdy.mesh.

#include "engine/hlo/hlo_module.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace elk::hlo {

/// Pieces an mhlo.sharding string splits a tensor into: the product of its tile dims (replication
/// dims left out); 1 for replicated, maximal and manual; none for "" or a form we cannot read.
std::optional<std::int64_t> mhloShardCount(std::string_view sharding);

/// The same for a Shardy sharding of one value (`result` picks the value of a sharding_per_value).
std::optional<std::int64_t> sdyShardCount(const Attribute& sharding, const Module& module, std::size_t result = 0);

/// Whether a sharding attribute splits anything (a tile count above 1).
bool isTiledSharding(const Attribute& sharding, const Module& module);

/// Pieces per tensor dim (`rank` of them) of an mhlo.sharding string or a Shardy sharding: 1 for an
/// untiled dim; none when the form is not read or does not fit the rank.
std::optional<std::vector<std::int64_t>> shardingTiles(
    const Attribute& sharding, const Module& module, std::size_t rank, std::size_t result = 0);

} // namespace elk::hlo
