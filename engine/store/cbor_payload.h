// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The machinery of the result cache's payload codec (payload_codec.cpp holds the mappings): structs
// written as CBOR maps (nlohmann_json) through one field mapping each, lists of structs as columns,
// lists of numbers in an arena beside the document, arena and document each a zlib stream.
#pragma once

#include "engine/schedule/schedule.h"
#include "engine/store/payload_codec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <zlib.h>

namespace elk::store::detail::cbor {

using Json = nlohmann::json;

// The payload: this magic, three sizes (the arena's raw bytes, its zlib stream's bytes, the
// document's raw bytes; 8 bytes each, little-endian), the arena's zlib stream, then the zlib stream
// of one CBOR map {format, kind, detail, body} that refers into the arena (PayloadWriter). Older
// payloads began with "ELKC" (format 4: document after the arena, in one stream) or "ELKP" (the
// hand-written codec of formats 1-3): they are recognised and are a miss.
inline constexpr char kMagic[4] = { 'E', 'L', 'K', 'D' };
inline constexpr std::uint64_t kMaxRawBytes = std::uint64_t(1) << 32;
inline constexpr std::size_t kLengthBytes = 8;
inline constexpr std::size_t kHeaderBytes = sizeof kMagic + 3 * kLengthBytes;

struct DecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---- lists of numbers: one CBOR byte string each, tagged with the element type ----

template <typename T>
concept Number = std::is_arithmetic_v<T> && !std::same_as<T, bool>;

template <Number T> constexpr std::uint8_t elementTag()
{
    if constexpr (std::is_floating_point_v<T>)
        return std::uint8_t(0x10 | sizeof(T));
    else
        return std::uint8_t((std::is_signed_v<T> ? 0x20 : 0x30) | sizeof(T));
}

template <Number T> void copyLittleEndian(const void* from, void* to, std::size_t count)
{
    if constexpr (std::endian::native == std::endian::little) {
        if (count > 0) // an empty vector's data() may be null, and memcpy must not see it
            std::memcpy(to, from, count * sizeof(T));
    } else {
        const auto* in = static_cast<const unsigned char*>(from);
        auto* out = static_cast<unsigned char*>(to);
        for (std::size_t i = 0; i < count; ++i, in += sizeof(T), out += sizeof(T))
            std::reverse_copy(in, in + sizeof(T), out);
    }
}

/// The payload being written (kMagic gives the layout). The arena holds the lists of numbers, each a
/// run of little-endian bytes that the document refers to as [element tag, byte offset, byte count].
/// They are outside the document because nlohmann_json reads a CBOR byte string a byte at a time
/// (measured: 6x slower decoding of a mesh run's link bins); the document stays the schema. The
/// arena goes straight into zlib as it is written (tens of MB for a mesh run), in the order the
/// decoder reads it, so that reading inflates it straight into the decoded lists (ArenaReader); the
/// document comes last, in its own small stream, because only then are all its offsets known.
class PayloadWriter {
public:
    PayloadWriter()
    {
        // Level 1: payloads are written on every run; speed matters more than the last few percent.
        if (deflateInit(&m_zlib, 1) != Z_OK)
            throw std::runtime_error("result cache: zlib deflateInit failed");
        m_out.resize(kHeaderBytes + (std::size_t(1) << 16));
        m_used = kHeaderBytes;
    }
    ~PayloadWriter() { deflateEnd(&m_zlib); }
    PayloadWriter(const PayloadWriter&) = delete;
    PayloadWriter& operator=(const PayloadWriter&) = delete;

    Json add(const void* data, std::size_t bytes, std::uint8_t tag)
    {
        const std::uint64_t at = m_rawBytes;
        write(data, bytes, Z_NO_FLUSH);
        return Json::array({ tag, at, bytes });
    }
    template <Number T> Json add(const std::vector<T>& values)
    {
        if constexpr (std::endian::native == std::endian::little) {
            return add(values.data(), values.size() * sizeof(T), elementTag<T>());
        } else {
            std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
            copyLittleEndian<T>(values.data(), bytes.data(), values.size());
            return add(bytes.data(), bytes.size(), elementTag<T>());
        }
    }

    std::uint64_t rawBytes() const { return m_rawBytes; }

    /// Ends the arena's stream and appends the document's; the payload.
    std::string finish(const std::vector<std::uint8_t>& cbor)
    {
        write(nullptr, 0, Z_FINISH);
        const std::uint64_t arenaStreamBytes = m_used - kHeaderBytes;
        uLongf documentBytes = compressBound(uLong(cbor.size()));
        m_out.resize(m_used + documentBytes);
        if (compress2(
                reinterpret_cast<Bytef*>(m_out.data() + m_used), &documentBytes, cbor.data(), uLong(cbor.size()), 1)
            != Z_OK)
            throw std::runtime_error("result cache: zlib compress2 failed");
        m_out.resize(m_used + documentBytes);
        const std::uint64_t sizes[3] = { m_rawBytes, arenaStreamBytes, cbor.size() };
        std::memcpy(m_out.data(), kMagic, sizeof kMagic);
        copyLittleEndian<std::uint64_t>(sizes, m_out.data() + sizeof kMagic, 3);
        return std::move(m_out);
    }

private:
    void write(const void* data, std::size_t bytes, int flush)
    {
        constexpr std::size_t kPieceBytes = std::size_t(1) << 30; // zlib counts in 32 bits
        const auto* in = static_cast<const unsigned char*>(data);
        m_rawBytes += bytes;
        do {
            const std::size_t piece = std::min(bytes, kPieceBytes);
            m_zlib.next_in = const_cast<unsigned char*>(in);
            m_zlib.avail_in = uInt(piece);
            const int pieceFlush = piece == bytes ? flush : Z_NO_FLUSH;
            while (true) {
                if (m_out.size() - m_used < 4096)
                    m_out.resize(2 * m_out.size());
                m_zlib.next_out = reinterpret_cast<unsigned char*>(m_out.data() + m_used);
                m_zlib.avail_out = uInt(std::min<std::size_t>(m_out.size() - m_used, kPieceBytes));
                const uInt before = m_zlib.avail_out;
                const int rc = deflate(&m_zlib, pieceFlush);
                m_used += before - m_zlib.avail_out;
                if (rc == Z_STREAM_END)
                    break;
                if (rc != Z_OK && rc != Z_BUF_ERROR) // Z_BUF_ERROR: no progress possible, not an error
                    throw std::runtime_error("result cache: zlib deflate failed (" + std::to_string(rc) + ")");
                if (pieceFlush == Z_NO_FLUSH && m_zlib.avail_in == 0 && m_zlib.avail_out != 0)
                    break;
            }
            in += piece;
            bytes -= piece;
        } while (bytes > 0);
    }

    z_stream m_zlib {};
    std::string m_out;
    std::size_t m_used = 0;
    std::uint64_t m_rawBytes = 0;
};

/// The arena being read: its zlib stream inflated on demand, forward only, straight into the lists
/// being decoded (no copy of the whole arena: it is tens of MB for a mesh run). The writer laid the
/// arena out in the order the decoder reads it; a read behind the last one is a damaged payload.
/// finish() inflates what is left and checks the stream's end and its Adler-32.
class ArenaReader {
public:
    ArenaReader(std::string_view stream, std::uint64_t rawBytes)
        : m_rawBytes(rawBytes)
        , m_streamBytes(stream.size())
    {
        if (inflateInit(&m_zlib) != Z_OK)
            throw DecodeError("zlib inflateInit failed");
        m_zlib.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stream.data()));
        m_zlib.avail_in = uInt(std::min<std::size_t>(stream.size(), std::numeric_limits<uInt>::max()));
    }
    ~ArenaReader() { inflateEnd(&m_zlib); }
    ArenaReader(const ArenaReader&) = delete;
    ArenaReader& operator=(const ArenaReader&) = delete;

    std::uint64_t size() const { return m_rawBytes; }

    /// Bytes [at, at + bytes) of the arena into `to`, skipping what lies before `at`.
    void read(std::uint64_t at, std::uint64_t bytes, void* to)
    {
        if (at < m_at)
            throw DecodeError("the payload's lists out of order");
        if (at > m_rawBytes || bytes > m_rawBytes - at)
            throw DecodeError("a list of numbers outside the payload");
        skipTo(at);
        inflateInto(static_cast<unsigned char*>(to), bytes);
    }

    void finish()
    {
        skipTo(m_rawBytes);
        unsigned char probe = 0; // a stream with more bytes than the header says is damaged
        m_zlib.next_out = &probe;
        m_zlib.avail_out = 1;
        const int rc = m_ended ? Z_STREAM_END : inflate(&m_zlib, Z_FINISH);
        if (rc != Z_STREAM_END || m_zlib.avail_out != 1 || m_zlib.avail_in != 0 || m_zlib.total_in != m_streamBytes)
            throw DecodeError("truncated or damaged zlib stream");
    }

private:
    void skipTo(std::uint64_t at)
    {
        unsigned char scratch[1 << 14];
        while (m_at < at)
            inflateInto(scratch, std::min<std::uint64_t>(at - m_at, sizeof scratch));
    }
    void inflateInto(unsigned char* to, std::uint64_t bytes)
    {
        while (bytes > 0) {
            const uInt piece = uInt(std::min<std::uint64_t>(bytes, std::uint64_t(1) << 30));
            m_zlib.next_out = to;
            m_zlib.avail_out = piece;
            const int rc = m_ended ? Z_BUF_ERROR : inflate(&m_zlib, Z_NO_FLUSH);
            const uInt produced = piece - m_zlib.avail_out;
            if (rc == Z_STREAM_END)
                m_ended = true;
            else if (rc != Z_OK || produced == 0)
                throw DecodeError("truncated or damaged zlib stream");
            to += produced;
            bytes -= produced;
            m_at += produced;
            if (m_ended && bytes > 0)
                throw DecodeError("truncated or damaged zlib stream");
        }
    }

    z_stream m_zlib {};
    std::uint64_t m_rawBytes;
    std::uint64_t m_streamBytes;
    std::uint64_t m_at = 0;
    bool m_ended = false;
};

/// A list of numbers of element type T in the arena: its first byte and its length.
struct ArenaRef {
    std::uint64_t at = 0;
    std::size_t count = 0;
};

template <Number T> ArenaRef arenaRef(const Json& ref, const ArenaReader& arena)
{
    if (!ref.is_array() || ref.size() != 3 || !ref[0].is_number_unsigned() || !ref[1].is_number_unsigned()
        || !ref[2].is_number_unsigned() || ref[0].get<std::uint64_t>() != elementTag<T>())
        throw DecodeError("not a list of this number type");
    const std::uint64_t at = ref[1].get<std::uint64_t>(), bytes = ref[2].get<std::uint64_t>();
    if (at > arena.size() || bytes > arena.size() - at || bytes % sizeof(T) != 0)
        throw DecodeError("a list of numbers outside the payload");
    return { at, std::size_t(bytes / sizeof(T)) };
}

/// `count` values of type T at arena offset `at`, into `to`.
template <Number T> void readValues(ArenaReader& arena, std::uint64_t at, std::size_t count, T* to)
{
    arena.read(at, count * sizeof(T), to);
    if constexpr (std::endian::native != std::endian::little) {
        auto* bytes = reinterpret_cast<unsigned char*>(to);
        for (std::size_t i = 0; i < count; ++i, bytes += sizeof(T))
            std::reverse(bytes, bytes + sizeof(T));
    }
}

template <Number T> std::vector<T> valuesOf(const Json& ref, ArenaReader& arena)
{
    const ArenaRef run = arenaRef<T>(ref, arena);
    std::vector<T> values(run.count);
    readValues<T>(arena, run.at, run.count, values.data());
    return values;
}

/// Strings as two arena runs: their lengths (uint32) and their bytes end to end. One CBOR value
/// for a whole column of link or step names.
struct TextRun {
    std::vector<std::uint32_t> lengths;
    std::string bytes;
    void add(const std::string& text)
    {
        if (text.size() > std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("result cache: a string of more than 4 GiB");
        lengths.push_back(std::uint32_t(text.size()));
        bytes += text;
    }
};

inline std::vector<std::string> textsOf(const Json& ref, ArenaReader& arena)
{
    if (!ref.is_array() || ref.size() != 2)
        throw DecodeError("not a list of strings");
    const std::vector<std::uint32_t> lengths = valuesOf<std::uint32_t>(ref[0], arena);
    const std::vector<std::uint8_t> bytes = valuesOf<std::uint8_t>(ref[1], arena);
    std::vector<std::string> texts;
    texts.reserve(lengths.size());
    std::size_t at = 0;
    for (std::uint32_t length : lengths) {
        if (length > bytes.size() - at)
            throw DecodeError("strings longer than their bytes");
        texts.emplace_back(reinterpret_cast<const char*>(bytes.data()) + at, length);
        at += length;
    }
    if (at != bytes.size())
        throw DecodeError("bytes after the strings");
    return texts;
}

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
