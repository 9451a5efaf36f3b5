// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

// One JSON parse for every reader of outside JSON: nlohmann keeps the last of a duplicated key
// silently, so a file saying "name" twice would lose one without a word. This reports each.

namespace elk {

struct DuplicateJsonKey {
    std::string pointer; ///< JSON pointer of the repeated member, e.g. "/ops/0/name"
    std::string key;
    /// "duplicate key \"name\"; each key may appear only once"
    std::string message() const;
};

/// `text` as a JSON string literal (invalid UTF-8 replaced), for messages: "\"four\"".
std::string jsonQuoted(std::string_view text);

/// A value as a message names it: "string \"four\"" (at most 60 bytes shown, never splitting a UTF-8
/// sequence), "number 4.5", "boolean true", "null", "an object", "an array".
std::string describeJsonValue(const nlohmann::json& value);

/// Parses `text`, listing in `duplicates` every key that appears twice in one object (in text order).
/// Throws what nlohmann::json::parse throws (parse_error with its byte offset; out_of_range for a
/// number beyond a double); callers turn those into located errors with json_text.h.
nlohmann::json parseJsonReportingDuplicates(std::string_view text, std::vector<DuplicateJsonKey>& duplicates);

} // namespace elk
