// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The result cache's payloads: partition tables and design runs as CBOR (nlohmann_json) from one
// field mapping per struct, lists of numbers as typed byte strings, compressed with zlib. Round
// trips are bit-identical (a double is written as a float only when that loses nothing).
#pragma once

#include "engine/run/run_compile.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::store::detail {

/// Bumped when the meaning of a stored field changes: older payloads then decode as nothing (a cache
/// miss, rebuilt). A field added to a mapping needs no bump: a payload without it is a miss by itself.
/// Formats 1-3 were a hand-written binary codec, format 4 kept the document after the arena in one
/// zlib stream; their payloads are recognised and are a miss too.
inline constexpr int kPayloadFormat = 5;

std::string encodePartitionTables(const run::PartitionTables& tables);
/// Nothing when the payload is truncated, garbled, of another kind or of another format version.
std::optional<run::PartitionTables> decodePartitionTables(std::string_view payload);

/// `withDetail` false: the simulated results are written without their per-link detail and
/// counter curves (link list, bytes per link, utilisation bins, HBM/NoC/SRAM curves), as sweeps keep them.
std::string encodeDesigns(const std::vector<run::DesignRun>& designs, bool withDetail);
std::optional<std::vector<run::DesignRun>> decodeDesigns(std::string_view payload);

} // namespace elk::store::detail
