// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The machinery of the result cache's payload codec (payload_codec.cpp holds the mappings): structs
// written as CBOR maps (nlohmann_json) through one field mapping each, lists of structs as columns,
// lists of numbers in an arena beside the document, arena and document each a zlib stream.
#pragma once

#include "engine/schedule/schedule.h"
#include "engine/store/payload_arena.h"
#include "engine/store/payload_codec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <zlib.h>

namespace elk::store::detail::cbor {

template <typename T> struct IsListOfNumberLists : std::false_type {
};
template <Number V> struct IsListOfNumberLists<std::vector<std::vector<V>>> : std::true_type {
};

/// What reading checks an enumerator against: EnumRange<E>::last, specialised by the user of
/// this header for every enumeration its mappings hold.
template <typename E> struct EnumRange;

// ---- the struct mappings' readers and writers ----

// A mapping is a set of overloads `void fields(Io& io, T& value)`, one per reader and writer
// below, declared in this namespace by the user (found through the Io argument), each calling
// io("name", value.field) for every field of T.
class Encoder;
class Decoder;
class ColumnEncoder;
class ColumnDecoder;

template <typename T>
concept Mapped = requires(Decoder& io, T& value)
{
    fields(io, value);
};

/// Fields held as numbers in a column: numbers, enumerators (as int32), booleans (as uint8).
/// char becomes int32 too: its signedness differs between platforms.
template <typename T>
concept Scalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;
template <Scalar T> auto storedScalar(T value)
{
    if constexpr (std::is_enum_v<T> || std::same_as<T, char>)
        return std::int32_t(value);
    else if constexpr (std::same_as<T, bool>)
        return std::uint8_t(value ? 1 : 0);
    else
        return value;
}
template <Scalar T> using Stored = decltype(storedScalar(T {}));

template <Scalar T> T scalarFromStored(Stored<T> stored)
{
    if constexpr (std::is_enum_v<T>) {
        if (stored < 0 || stored > std::int32_t(EnumRange<T>::last))
            throw DecodeError("enumerator out of range");
        return T(stored);
    } else if constexpr (std::same_as<T, bool>) {
        if (stored > 1)
            throw DecodeError("not a boolean");
        return stored == 1;
    } else {
        return T(stored);
    }
}

/// Writes a struct as a CBOR map, each field under its name, and a list of structs as columns
/// (ColumnEncoder). The mappings take their struct by non-const reference so that one function
/// serves both directions; the encoders only read it.
class Encoder {
public:
    explicit Encoder(bool withDetail)
        : m_withDetail(withDetail)
    {
    }
    bool withDetail() const { return m_withDetail; }

    template <typename T> void operator()(const char* name, const T& value) { m_object->emplace(name, encode(value)); }

    template <typename T> Json encode(const T& value);
    PayloadWriter& arena() { return m_arena; }
    Json texts(const TextRun& run)
    {
        Json lengths = m_arena.add(run.lengths);
        return Json::array(
            { std::move(lengths), m_arena.add(run.bytes.data(), run.bytes.size(), elementTag<std::uint8_t>()) });
    }

private:
    bool m_withDetail;
    Json::object_t* m_object = nullptr;
    PayloadWriter m_arena;
};

/// A list of structs as [count, {field: column}]: a column of numbers is one typed byte string
/// (an interval takes two numbers per entry), any other column a CBOR array with one value per
/// entry. Few CBOR values however long the list: the step and link lists are thousands long.
/// Two passes over the list: the first gathers the columns of numbers and strings, the second
/// writes the arena in the order ColumnDecoder reads it (a column whole at the first entry, the
/// other values entry by entry).
class ColumnEncoder {
public:
    ColumnEncoder(Encoder& outer, std::size_t count)
        : m_outer(outer)
        , m_count(count)
    {
    }
    bool withDetail() const { return m_outer.withDetail(); }
    void entry(std::size_t index)
    {
        m_entry = index;
        m_field = 0;
    }
    void startWriting() { m_writing = true; }

    template <typename T> void operator()(const char* name, const T& value)
    {
        if (!m_writing) {
            if (m_field == m_columns.size())
                m_columns.push_back(Column { name, 0, {}, Json::array(), false, {} });
            Column& column = m_columns[m_field++];
            if constexpr (Scalar<T>) {
                append(column, storedScalar(value));
            } else if constexpr (std::same_as<T, schedule::Interval>) {
                append(column, value.startCycles);
                append(column, value.endCycles);
            } else if constexpr (std::same_as<T, std::string>) {
                column.isText = true;
                column.texts.add(value);
            }
            return;
        }
        Column& column = m_columns[m_field++];
        if constexpr (Scalar<T> || std::same_as<T, schedule::Interval>) {
            if (m_entry == 0)
                column.values = m_outer.arena().add(column.bytes.data(), column.bytes.size(), column.tag);
        } else if constexpr (std::same_as<T, std::string>) {
            if (m_entry == 0)
                column.values = m_outer.texts(column.texts);
        } else {
            column.values.push_back(m_outer.encode(value));
        }
    }

    Json finish()
    {
        Json::object_t columns;
        for (Column& column : m_columns)
            columns.emplace(column.name, std::move(column.values));
        return Json::array({ m_count, std::move(columns) });
    }

private:
    struct Column {
        const char* name;
        std::uint8_t tag = 0; ///< elementTag of a column of numbers; 0: a column of other values
        std::vector<std::uint8_t> bytes;
        Json values = Json::array(); ///< the column as written: an arena reference, or one value per entry
        bool isText = false;
        TextRun texts;
    };
    template <Number V> void append(Column& column, V value)
    {
        column.tag = elementTag<V>();
        const std::size_t at = column.bytes.size();
        column.bytes.resize(at + sizeof(V));
        copyLittleEndian<V>(&value, column.bytes.data() + at, 1);
    }

    Encoder& m_outer;
    std::size_t m_count;
    std::vector<Column> m_columns;
    std::size_t m_entry = 0;
    std::size_t m_field = 0;
    bool m_writing = false;
};

template <typename T> Json Encoder::encode(const T& value)
{
    if constexpr (Scalar<T>) {
        return Json(storedScalar(value));
    } else if constexpr (std::same_as<T, std::string>) {
        return Json(value);
    } else if constexpr (std::same_as<T, schedule::Interval>) {
        return Json::array({ value.startCycles, value.endCycles });
    } else if constexpr (Mapped<T>) {
        Json object = Json::object();
        Json::object_t* outer = std::exchange(m_object, object.get_ptr<Json::object_t*>());
        fields(*this, const_cast<T&>(value));
        m_object = outer;
        return object;
    } else if constexpr (requires { typename T::value_type; } && Number<typename T::value_type>) {
        return m_arena.add(value); // std::vector of numbers
    } else if constexpr (requires { value.has_value(); }) {
        return value ? encode(*value) : Json(nullptr); // std::optional
    } else if constexpr (
        requires { typename T::value_type; }
        && Mapped<typename T::value_type> && !requires { std::tuple_size<T>::value; }) {
        ColumnEncoder columns(*this, value.size()); // std::vector of structs
        for (int pass = 0; pass < 2; ++pass) {
            if (pass == 1)
                columns.startWriting();
            for (std::size_t i = 0; i < value.size(); ++i) {
                columns.entry(i);
                fields(columns, const_cast<typename T::value_type&>(value[i]));
            }
        }
        return columns.finish();
    } else if constexpr (std::same_as<T, std::vector<std::string>>) {
        TextRun run;
        for (const std::string& text : value)
            run.add(text);
        return texts(run);
    } else if constexpr (IsListOfNumberLists<T>::value) {
        // A list of lists of numbers (link bins): the lengths, then every list end to end. The
        // lists follow each other in the arena, so one reference covers them all.
        using V = typename T::value_type::value_type;
        std::vector<std::uint64_t> lengths;
        lengths.reserve(value.size());
        for (const auto& list : value)
            lengths.push_back(list.size());
        Json lengthsRef = m_arena.add(lengths);
        const std::uint64_t first = m_arena.rawBytes();
        for (const auto& list : value)
            m_arena.add(list);
        return Json::array(
            { std::move(lengthsRef), Json::array({ elementTag<V>(), first, m_arena.rawBytes() - first }) });
    } else if constexpr (std::same_as<T, std::vector<schedule::Interval>>) {
        std::vector<double> ends;
        ends.reserve(2 * value.size());
        for (const schedule::Interval& interval : value) {
            ends.push_back(interval.startCycles);
            ends.push_back(interval.endCycles);
        }
        return m_arena.add(ends);
    } else { // std::vector of other lists or strings, std::array
        Json array = Json::array();
        array.get_ref<Json::array_t&>().reserve(value.size());
        for (const auto& item : value)
            array.push_back(encode(item));
        return array;
    }
}

/// Reads a struct back from its CBOR map, and a list of structs from its columns. A missing
/// field, a value of another type, a column of another length or an enumerator out of range
/// throws: the payload is then a miss, never half-read.
class Decoder {
public:
    /// `rawBytes`: the payload's size; no list is longer (every entry takes a byte at least).
    Decoder(bool withDetail, std::size_t rawBytes, ArenaReader& arena)
        : m_withDetail(withDetail)
        , m_maxEntries(rawBytes)
        , m_arena(arena)
    {
    }
    ArenaReader& arena() { return m_arena; }
    bool withDetail() const { return m_withDetail; }

    template <typename T> void operator()(const char* name, T& value) { value = decode<T>(m_object->at(name)); }

    template <typename T> T decode(const Json& json);

private:
    bool m_withDetail;
    std::size_t m_maxEntries;
    ArenaReader& m_arena;
    const Json* m_object = nullptr;
};

class ColumnDecoder {
public:
    ColumnDecoder(Decoder& outer, const Json& columns, std::size_t count)
        : m_outer(outer)
        , m_columns(columns)
        , m_count(count)
    {
    }
    bool withDetail() const { return m_outer.withDetail(); }
    void entry(std::size_t index)
    {
        m_entry = index;
        m_field = 0;
    }

    template <typename T> void operator()(const char* name, T& value)
    {
        if (m_field == m_found.size())
            m_found.push_back(&m_columns.at(name));
        const Json& column = *m_found[m_field++];
        if constexpr (Scalar<T>) {
            value = scalarFromStored<T>(number<Stored<T>>(column, 1, 0));
        } else if constexpr (std::same_as<T, schedule::Interval>) {
            value.startCycles = number<double>(column, 2, 0);
            value.endCycles = number<double>(column, 2, 1);
        } else if constexpr (std::same_as<T, std::string>) {
            const std::size_t field = m_field - 1;
            if (m_texts.size() <= field)
                m_texts.resize(field + 1);
            if (m_entry == 0) {
                m_texts[field] = textsOf(column, m_outer.arena());
                if (m_texts[field].size() != m_count)
                    throw DecodeError("a column of another length");
            }
            value = std::move(m_texts[field][m_entry]);
        } else {
            if (!column.is_array() || column.size() != m_count)
                throw DecodeError("a column of another length");
            value = m_outer.decode<T>(column[m_entry]);
        }
    }

private:
    /// Entry m_entry's value `part` of `perEntry`, from a column of numbers of type V.
    template <Number V> V number(const Json& column, std::size_t perEntry, std::size_t part)
    {
        // The column is read whole on the first entry (where the writer put it), then only indexed.
        const std::size_t field = m_field - 1;
        if (m_numbers.size() <= field)
            m_numbers.resize(field + 1);
        if (m_entry == 0 && part == 0) {
            const ArenaRef run = arenaRef<V>(column, m_outer.arena());
            if (run.count != m_count * perEntry)
                throw DecodeError("a column of another length");
            m_numbers[field].resize(run.count * sizeof(V));
            readValues<V>(m_outer.arena(), run.at, run.count, reinterpret_cast<V*>(m_numbers[field].data()));
        }
        V value;
        std::memcpy(&value, m_numbers[field].data() + (m_entry * perEntry + part) * sizeof(V), sizeof(V));
        return value;
    }

    Decoder& m_outer;
    const Json& m_columns;
    std::size_t m_count;
    std::vector<const Json*> m_found; ///< by field index, looked up by name for the first entry
    std::vector<std::vector<std::uint8_t>> m_numbers; ///< by field index: a column of numbers, read whole
    std::vector<std::vector<std::string>> m_texts; ///< by field index: a column of strings, read whole
    std::size_t m_entry = 0;
    std::size_t m_field = 0;
};

template <typename T> T Decoder::decode(const Json& json)
{
    if constexpr (Scalar<T>) {
        if (!json.is_number_integer() && !(std::is_floating_point_v<T> && json.is_number()))
            throw DecodeError("not a number of this kind");
        return scalarFromStored<T>(json.get<Stored<T>>());
    } else if constexpr (std::same_as<T, std::string>) {
        return json.get<std::string>();
    } else if constexpr (std::same_as<T, schedule::Interval>) {
        if (!json.is_array() || json.size() != 2)
            throw DecodeError("not an interval");
        return schedule::Interval { decode<double>(json[0]), decode<double>(json[1]) };
    } else if constexpr (Mapped<T>) {
        if (!json.is_object())
            throw DecodeError("not a map");
        T value {};
        const Json* outer = std::exchange(m_object, &json);
        fields(*this, value);
        m_object = outer;
        return value;
    } else if constexpr (requires { typename T::value_type; } && Number<typename T::value_type>) {
        return valuesOf<typename T::value_type>(json, m_arena);
    } else if constexpr (requires(T optional) { optional.has_value(); }) {
        return json.is_null() ? T {} : T { decode<typename T::value_type>(json) };
    } else if constexpr (
        requires { typename T::value_type; }
        && Mapped<typename T::value_type> && !requires { std::tuple_size<T>::value; }) {
        if (!json.is_array() || json.size() != 2 || !json[0].is_number_unsigned() || !json[1].is_object())
            throw DecodeError("not a list of columns");
        const std::size_t count = json[0].get<std::size_t>();
        // A garbled count must not allocate: the list cannot be longer than the payload.
        if (count > m_maxEntries)
            throw DecodeError("implausible list length");
        ColumnDecoder columns(*this, json[1], count);
        T items;
        for (std::size_t i = 0; i < count; ++i) {
            columns.entry(i);
            typename T::value_type item {};
            fields(columns, item);
            // Reading the first entry checked every column's length against `count`: only now is
            // it safe to allocate for all of them.
            if (i == 0)
                items.reserve(count);
            items.push_back(std::move(item));
        }
        return items;
    } else if constexpr (std::same_as<T, std::vector<std::string>>) {
        return textsOf(json, m_arena);
    } else if constexpr (IsListOfNumberLists<T>::value) {
        using V = typename T::value_type::value_type;
        if (!json.is_array() || json.size() != 2)
            throw DecodeError("not a list of lists of numbers");
        const std::vector<std::uint64_t> lengths = valuesOf<std::uint64_t>(json[0], m_arena);
        const ArenaRef values = arenaRef<V>(json[1], m_arena);
        std::size_t total = 0; // checked before anything is allocated
        for (std::uint64_t length : lengths) {
            if (length > values.count - total)
                throw DecodeError("lists longer than their numbers");
            total += std::size_t(length);
        }
        if (total != values.count)
            throw DecodeError("numbers after the lists");
        T lists(lengths.size());
        std::uint64_t at = values.at;
        for (std::size_t i = 0; i < lists.size(); ++i) {
            lists[i].resize(std::size_t(lengths[i]));
            readValues<V>(m_arena, at, lists[i].size(), lists[i].data());
            at += lengths[i] * sizeof(V);
        }
        return lists;
    } else if constexpr (std::same_as<T, std::vector<schedule::Interval>>) {
        const std::vector<double> ends = valuesOf<double>(json, m_arena);
        if (ends.size() % 2 != 0)
            throw DecodeError("not a list of intervals");
        T intervals(ends.size() / 2);
        for (std::size_t i = 0; i < intervals.size(); ++i)
            intervals[i] = { ends[2 * i], ends[2 * i + 1] };
        return intervals;
    } else if constexpr (requires { std::tuple_size<T>::value; }) { // std::array
        if (!json.is_array() || json.size() != std::tuple_size<T>::value)
            throw DecodeError("not a list of the fixed length");
        T items {};
        for (std::size_t i = 0; i < items.size(); ++i)
            items[i] = decode<typename T::value_type>(json[i]);
        return items;
    } else { // std::vector of other lists or strings
        if (!json.is_array())
            throw DecodeError("not a list");
        T items;
        items.reserve(json.size());
        for (const Json& item : json)
            items.push_back(decode<typename T::value_type>(item));
        return items;
    }
}

// ---- the envelope ----

/// A payload split into its parts: the arena's stream and size, and the document inflated. Every
/// size is checked against what deflate can give (about 1032:1) before anything is allocated.
struct PayloadParts {
    std::string_view arenaStream;
    std::uint64_t arenaBytes = 0;
    std::vector<std::uint8_t> document;
};

inline PayloadParts payloadParts(std::string_view payload)
{
    if (payload.size() < kHeaderBytes || std::memcmp(payload.data(), kMagic, sizeof kMagic) != 0)
        throw DecodeError("not a payload of this format (an older cache row, or damaged)");
    std::uint64_t sizes[3] = {};
    copyLittleEndian<std::uint64_t>(payload.data() + sizeof kMagic, sizes, 3);
    const auto [arenaBytes, arenaStreamBytes, documentBytes] = sizes;
    const std::string_view streams = payload.substr(kHeaderBytes);
    if (arenaStreamBytes > streams.size())
        throw DecodeError("implausible size");
    const std::string_view documentStream = streams.substr(std::size_t(arenaStreamBytes));
    const auto plausible = [](std::uint64_t raw, std::size_t stream) {
        return raw <= kMaxRawBytes && raw <= 1032 * std::uint64_t(stream) + 64;
    };
    if (!plausible(arenaBytes, std::size_t(arenaStreamBytes)) || !plausible(documentBytes, documentStream.size()))
        throw DecodeError("implausible size");
    PayloadParts parts { streams.substr(0, std::size_t(arenaStreamBytes)), arenaBytes, {} };
    parts.document.resize(std::size_t(documentBytes));
    uLongf produced = uLongf(documentBytes);
    uLong consumed = uLong(documentStream.size());
    unsigned char empty = 0; // uncompress2 wants a buffer even for nothing
    const int rc = uncompress2(parts.document.empty() ? &empty : parts.document.data(), &produced,
        reinterpret_cast<const Bytef*>(documentStream.data()), &consumed);
    if (rc != Z_OK || produced != documentBytes || consumed != documentStream.size())
        throw DecodeError("truncated or damaged zlib stream");
    return parts;
}

template <typename Body> std::string encodePayload(const char* kind, const Body& body, bool withDetail)
{
    Encoder encoder(withDetail);
    Json encoded = encoder.encode(body);
    const Json envelope
        = { { "format", kPayloadFormat }, { "kind", kind }, { "detail", withDetail }, { "body", std::move(encoded) } };
    return encoder.arena().finish(Json::to_cbor(envelope));
}

template <typename Body> std::optional<Body> decodePayload(const char* kind, std::string_view payload)
{
    try {
        const PayloadParts parts = payloadParts(payload);
        const Json envelope = Json::from_cbor(parts.document); // strict: the map fills its bytes
        if (!envelope.is_object() || envelope.at("format") != kPayloadFormat || envelope.at("kind") != kind)
            return std::nullopt;
        ArenaReader arena(parts.arenaStream, parts.arenaBytes);
        Decoder decoder(
            envelope.at("detail").get<bool>(), std::size_t(parts.arenaBytes + parts.document.size()), arena);
        Body body = decoder.decode<Body>(envelope.at("body"));
        arena.finish(); // every byte checked, the Adler-32 included, before the body is used
        return body;
    } catch (const DecodeError&) {
        return std::nullopt;
    } catch (const Json::exception&) {
        return std::nullopt;
    }
}

} // namespace elk::store::detail::cbor
