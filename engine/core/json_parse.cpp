// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/json_parse.h"

#include <set>

#include "engine/core/json_text.h"

namespace elk {

namespace {

    /// Follows nlohmann's parse events: the pointer of the container being read and the keys seen in it.
    class DuplicateKeyTracker {
    public:
        explicit DuplicateKeyTracker(std::vector<DuplicateJsonKey>& duplicates)
            : m_duplicates(duplicates)
        {
        }

        bool onEvent(nlohmann::json::parse_event_t event, const nlohmann::json& parsed)
        {
            using Event = nlohmann::json::parse_event_t;
            switch (event) {
            case Event::object_start:
            case Event::array_start:
                m_stack.push_back({ event == Event::object_start, pointerOfNextChild(), {}, {}, 0 });
                break;
            case Event::key: {
                Frame& top = m_stack.back();
                top.lastKey = parsed.get<std::string>();
                if (!top.keys.insert(top.lastKey).second)
                    m_duplicates.push_back({ top.pointer + "/" + jsonPointerToken(top.lastKey), top.lastKey });
                break;
            }
            case Event::object_end:
            case Event::array_end:
                m_stack.pop_back();
                elementDone();
                break;
            case Event::value:
                elementDone();
                break;
            }
            return true; // keep everything: the readers report what is wrong with the values
        }

    private:
        struct Frame {
            bool isObject = false;
            std::string pointer;
            std::set<std::string> keys;
            std::string lastKey;
            std::size_t index = 0;
        };

        std::string pointerOfNextChild() const
        {
            if (m_stack.empty())
                return {};
            const Frame& top = m_stack.back();
            return top.pointer + "/" + (top.isObject ? jsonPointerToken(top.lastKey) : std::to_string(top.index));
        }

        void elementDone()
        {
            if (!m_stack.empty() && !m_stack.back().isObject)
                ++m_stack.back().index;
        }

        std::vector<DuplicateJsonKey>& m_duplicates;
        std::vector<Frame> m_stack;
    };

} // namespace

std::string jsonQuoted(std::string_view text)
{
    return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string describeJsonValue(const nlohmann::json& value)
{
    using Type = nlohmann::json::value_t;
    switch (value.type()) {
    case Type::string: {
        std::string text = value.get<std::string>();
        constexpr std::size_t kMaxShown = 60;
        if (text.size() > kMaxShown) {
            std::size_t cut = kMaxShown;
            while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
                --cut; // never split a UTF-8 sequence
            text = text.substr(0, cut) + "...";
        }
        return "string " + jsonQuoted(text);
    }
    case Type::boolean:
        return value.get<bool>() ? "boolean true" : "boolean false";
    case Type::null:
        return "null";
    case Type::object:
        return "an object";
    case Type::array:
        return "an array";
    default:
        return "number " + value.dump();
    }
}

std::string DuplicateJsonKey::message() const
{
    return "duplicate key " + jsonQuoted(key) + "; each key may appear only once";
}

nlohmann::json parseJsonReportingDuplicates(std::string_view text, std::vector<DuplicateJsonKey>& duplicates)
{
    DuplicateKeyTracker tracker(duplicates);
    return nlohmann::json::parse(
        text.begin(), text.end(), [&tracker](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
            return tracker.onEvent(event, parsed);
        });
}

} // namespace elk
