// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/json_text.h"

#include <algorithm>

namespace elk {

std::string jsonPointerToken(std::string_view key)
{
    std::string token;
    token.reserve(key.size());
    for (char c : key) {
        if (c == '~')
            token += "~0";
        else if (c == '/')
            token += "~1";
        else
            token += c;
    }
    return token;
}

TextPosition textPositionAt(std::string_view text, std::size_t byteOffset)
{
    const std::size_t end = std::min(byteOffset, text.size());
    TextPosition position;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++position.line;
            lineStart = i + 1;
        }
    }
    position.column = end - lineStart + 1;
    return position;
}

TextPosition parseErrorPosition(std::string_view text, std::size_t bytesRead)
{
    return textPositionAt(text, bytesRead > 0 ? bytesRead - 1 : 0);
}

std::string positionText(TextPosition position)
{
    return "line " + std::to_string(position.line) + ", column " + std::to_string(position.column);
}

std::string jsonSyntaxReason(std::string_view what)
{
    if (!what.empty() && what.front() == '[') {
        const std::size_t close = what.find("] ");
        if (close != std::string_view::npos)
            what.remove_prefix(close + 2);
    }
    // Only the first ": " ends the position; the reason itself may contain more ("last read: '{x'").
    if (what.substr(0, 11) == "parse error") {
        const std::size_t colon = what.find(": ");
        if (colon != std::string_view::npos)
            what.remove_prefix(colon + 2);
    }
    return std::string(what);
}

std::string locateJsonLiteral(std::string_view text, std::string_view what, std::string_view fallback)
{
    const std::size_t open = what.find('\'');
    const std::size_t close = what.rfind('\'');
    if (open == std::string_view::npos || close <= open + 1)
        return std::string(fallback);
    const std::size_t at = text.find(what.substr(open + 1, close - open - 1));
    return at == std::string_view::npos ? std::string(fallback) : positionText(textPositionAt(text, at));
}

} // namespace elk
