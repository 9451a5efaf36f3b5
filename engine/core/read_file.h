// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace elk {

/// Whole contents of a (small, text) file such as a chip or run-spec JSON. On failure returns
/// nothing and sets `error` to a message naming the path and the reason (missing, a directory,
/// larger than `maxBytes`, unreadable).
std::optional<std::string> readFileText(
    const std::string& path, std::string& error, std::uintmax_t maxBytes = 16u << 20);

} // namespace elk
