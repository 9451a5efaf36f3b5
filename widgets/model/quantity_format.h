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

/// Integer with thin grouping for long counts: "18", "13 824", "1 048 576".
QString formatCount(std::int64_t count);

} // namespace elk::widgets
