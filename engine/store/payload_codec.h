// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The result cache's payloads: a compact little-endian binary form of partition tables and design
// runs (doubles as their raw bits, so a round trip is bit-identical), compressed with zlib.
#pragma once

#include "engine/run/run_compile.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::store::detail {

/// Bumped whenever the encoding changes: older payloads then decode as nothing (a cache miss).
inline constexpr int kPayloadFormat = 3;

std::string encodePartitionTables(const run::PartitionTables& tables);
/// Nothing when the payload is truncated, garbled, of another kind or of another format version.
std::optional<run::PartitionTables> decodePartitionTables(std::string_view payload);

/// `withDetail` false: the simulated results are written without their per-link detail and
/// counter curves (link list, bytes per link, utilisation bins, HBM/NoC/SRAM curves), as sweeps keep them.
std::string encodeDesigns(const std::vector<run::DesignRun>& designs, bool withDetail);
std::optional<std::vector<run::DesignRun>> decodeDesigns(std::string_view payload);

} // namespace elk::store::detail
