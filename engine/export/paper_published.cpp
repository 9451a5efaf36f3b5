// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Reader of published-values files (elk.published/1): the paper's numbers with where they come from.
#include "engine/core/json_text.h"
#include "engine/core/read_file.h"
#include "engine/export/paper_report.h"

#include <nlohmann/json.hpp>

namespace elk::exports {

namespace detail {
    std::string_view bundledPublishedText();
}

namespace {

    using Json = nlohmann::json;

    /// Reads one field of entry `index`; sets `error` (with its JSON pointer) when it has the wrong type.
    template <typename T>
    bool field(const Json& entry, const char* name, T& out, bool required, const std::string& where, std::string& error)
    {
        const auto it = entry.find(name);
        if (it == entry.end()) {
            if (required)
                error = where + "/" + name + ": missing";
            return !required;
        }
        try {
            out = it->get<T>();
        } catch (const Json::exception&) {
            if constexpr (std::is_same_v<T, std::string>)
                error = where + "/" + name + ": expected a string";
            else if constexpr (std::is_same_v<T, bool>)
                error = where + "/" + name + ": expected true or false";
            else
                error = where + "/" + name + ": expected a number";
            return false;
        }
        return true;
    }

} // namespace

PublishedValues parsePublishedValues(std::string_view text, const std::string& fileName)
{
    PublishedValues published;
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& e) {
        published.error
            = fileName + ": " + positionText(parseErrorPosition(text, e.byte)) + ": " + jsonSyntaxReason(e.what());
        return published;
    }
    auto fail = [&](const std::string& message) {
        published.values.clear();
        published.error = fileName + ": " + message;
        return published;
    };
    if (!root.is_object())
        return fail("expected a JSON object with \"schema\": \"elk.published/1\"");
    if (root.value("schema", std::string()) != "elk.published/1")
        return fail("/schema: expected \"elk.published/1\"");
    if (root.contains("paper") && root["paper"].is_string())
        published.paper = root["paper"].get<std::string>();
    if (!root.contains("values") || !root["values"].is_array())
        return fail("/values: expected an array of published values");
    const Json& values = root["values"];
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string where = "/values/" + std::to_string(i);
        const Json& entry = values[i];
        if (!entry.is_object())
            return fail(where + ": expected an object");
        PublishedValue value;
        std::string error;
        const bool ok = field(entry, "kind", value.kind, true, where, error)
            && field(entry, "figure", value.figure, true, where, error)
            && field(entry, "panel", value.panel, false, where, error)
            && field(entry, "page", value.page, false, where, error)
            && field(entry, "metric", value.metric, true, where, error)
            && field(entry, "design", value.design, false, where, error)
            && field(entry, "point", value.point, false, where, error)
            && field(entry, "value", value.value, true, where, error)
            && field(entry, "read_off_plot", value.readOffPlot, true, where, error)
            && field(entry, "precision", value.precision, false, where, error)
            && field(entry, "source", value.source, true, where, error);
        if (!ok)
            return fail(error);
        if (value.kind != "paper" && value.kind != "artifact")
            return fail(where + "/kind: expected \"paper\" or \"artifact\", got \"" + value.kind + "\"");
        if (value.kind == "paper" && value.page <= 0)
            return fail(where + "/page: a paper value needs the page it is printed on (1 or more)");
        if (value.readOffPlot && value.precision <= 0)
            return fail(where + "/precision: a value read off a plot needs its reading precision (> 0)");
        if (value.source.empty())
            return fail(where + "/source: say where the number comes from");
        published.values.push_back(std::move(value));
    }
    return published;
}

PublishedValues bundledPublishedValues()
{
    return parsePublishedValues(detail::bundledPublishedText(), "resources/paper/elk-micro25-published.json");
}

PublishedValues readPublishedValues(const std::string& path)
{
    std::string error;
    const std::optional<std::string> text = readFileText(path, error);
    if (!text) {
        PublishedValues failed;
        failed.error = error;
        return failed;
    }
    return parsePublishedValues(*text, path);
}

} // namespace elk::exports
