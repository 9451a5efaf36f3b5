// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

#include <QString>

namespace elk::widgets {

/// Binary units, chosen so the number stays readable: "512 B", "3.00 KiB", "635.94 MiB", "1.24 GiB".
QString formatBytes(std::int64_t bytes);

/// Floating-point operations in GFLOP (1e9), e.g. "10.62 GFLOP"; below 0.01 GFLOP in MFLOP.
QString formatFlops(std::int64_t flops);

/// Floating-point operations of one op, SI prefix chosen per value with 3 significant digits:
/// "0 FLOP", "48 FLOP", "81.9 kFLOP", "336 MFLOP", "2.26 GFLOP", "1.05 TFLOP" (a table of ops spans
/// many orders of magnitude, where a fixed unit shows "0.000").
QString formatOpFlops(std::int64_t flops);

/// Bytes of one op with 3 significant digits in binary units: "128 B", "81.9 KiB", "640 KiB",
/// "151 MiB", "1.95 GiB" (narrow enough for a table column).
QString formatOpBytes(std::int64_t bytes);

/// Integer with thin grouping for long counts: "18", "13 824", "1 048 576".
QString formatCount(std::int64_t count);

} // namespace elk::widgets
