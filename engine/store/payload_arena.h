// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The result cache's payload bytes (cbor_payload.h maps structs onto them): the header, the arena of
// number lists (written through zlib as it grows, read back forward only), and strings as runs.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <limits>
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

} // namespace elk::store::detail::cbor
