// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// Text helpers shared by the JSON readers, so every file format reports pointers and syntax errors
// the same way. Deliberately free of nlohmann: callers pass what they took from its exceptions.

namespace elk {

/// `key` as one RFC 6901 JSON-pointer reference token: '~' -> "~0", '/' -> "~1".
std::string jsonPointerToken(std::string_view key);

/// 1-based line and column; columns count bytes, and '\r' is an ordinary byte (so in CRLF text
/// the '\r' is the last column of its line and the next line still starts at column 1).
struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};

/// Position of the byte at 0-based `byteOffset`; an offset at or past the end gives the position
/// just after the last byte.
TextPosition textPositionAt(std::string_view text, std::size_t byteOffset);

/// Position of a JSON syntax error from nlohmann's `parse_error::byte`, which counts the bytes read
/// with the offending one included (1 = the first byte; 0 and "one past the end" also occur).
TextPosition parseErrorPosition(std::string_view text, std::size_t bytesRead);

/// "line L, column C".
std::string positionText(TextPosition position);

/// nlohmann's what() without its "[json.exception.<kind>.<id>] " tag and, for a parse error, without
/// "parse error at line L, column C: " (the caller says where, from the byte offset). Text
/// without those prefixes comes back unchanged.
std::string jsonSyntaxReason(std::string_view what);

/// Where a JSON exception that is not a parse error happened (nlohmann's out_of_range 406, a number
/// too large for a double, names the literal in quotes: the literal's first occurrence in `text`),
/// as "line L, column C"; `fallback` when the message names nothing that the text holds.
std::string locateJsonLiteral(std::string_view text, std::string_view what, std::string_view fallback = "/");

} // namespace elk
