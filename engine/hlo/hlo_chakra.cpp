// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_chakra.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>

// Protobuf wire format written by hand from mlcommons/chakra schema/protobuf/et_def.proto (proto3,
// package ChakraProtoMsg). Field numbers used:
//   GlobalMetadata: version = 1 (string), attr = 2 (repeated AttributeProto)
//   Node: id = 1 (uint64), name = 2, type = 3 (NodeType), ctrl_deps = 4, data_deps = 5 (repeated uint64),
//         start_time_micros = 6, duration_micros = 7, inputs = 8, outputs = 9, attr = 10 (repeated AttributeProto)
//   AttributeProto: name = 1, doc_string = 2, oneof value: int32_val = 7, int64_val = 9, uint32_val = 11,
//         uint64_val = 13, sint32_val = 15, sint64_val = 17, bool_val = 27, string_val = 29
// The stream is what Chakra's protolib encodeMessage writes: each message prefixed by its varint length.
// We write like a proto3 encoder (packed repeated scalars, default scalars left out); the decoder also
// reads unpacked data_deps and skips fields it does not know.

namespace elk::hlo {

namespace {

    enum WireType : unsigned { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

    // ---- encoding ---------------------------------------------------------------------------------------

    void putVarint(std::string& out, std::uint64_t value)
    {
        while (value >= 0x80) {
            out += static_cast<char>((value & 0x7F) | 0x80);
            value >>= 7;
        }
        out += static_cast<char>(value);
    }

    void putTag(std::string& out, unsigned field, WireType wire)
    {
        putVarint(out, (std::uint64_t(field) << 3) | wire);
    }

    void putVarintField(std::string& out, unsigned field, std::uint64_t value)
    {
        putTag(out, field, Varint);
        putVarint(out, value);
    }

    void putBytesField(std::string& out, unsigned field, std::string_view bytes)
    {
        putTag(out, field, LengthDelimited);
        putVarint(out, bytes.size());
        out.append(bytes.data(), bytes.size());
    }

    enum AttrField : unsigned {
        AttrName = 1,
        AttrInt32 = 7,
        AttrInt64 = 9,
        AttrUint32 = 11,
        AttrUint64 = 13,
        AttrSint32 = 15,
        AttrSint64 = 17,
        AttrBool = 27,
        AttrString = 29
    };

    std::string attribute(std::string_view name, AttrField field, std::uint64_t value)
    {
        std::string out;
        putBytesField(out, AttrName, name);
        putVarintField(out, field, value); // oneof: written even when zero, so the value case is set
        return out;
    }

    std::string attribute(std::string_view name, std::string_view text)
    {
        std::string out;
        putBytesField(out, AttrName, name);
        putBytesField(out, AttrString, text);
        return out;
    }

    std::string encodeNode(const ChakraNode& node)
    {
        std::string out;
        if (node.id != 0)
            putVarintField(out, 1, node.id);
        if (!node.name.empty())
            putBytesField(out, 2, node.name);
        if (node.type != ChakraNodeType::Invalid)
            putVarintField(out, 3, std::uint64_t(node.type));
        if (!node.dataDeps.empty()) {
            std::string packed;
            for (const std::uint64_t dep : node.dataDeps)
                putVarint(packed, dep);
            putBytesField(out, 5, packed);
        }
        if (node.durationMicros != 0)
            putVarintField(out, 7, node.durationMicros);
        putBytesField(out, 10, attribute("is_cpu_op", AttrBool, node.isCpuOp ? 1 : 0));
        if (node.numOps != 0)
            putBytesField(out, 10, attribute("num_ops", AttrUint64, node.numOps));
        if (node.tensorSize != 0)
            putBytesField(out, 10, attribute("tensor_size", AttrUint64, node.tensorSize));
        // comm_type and comm_size as int64, like Chakra's own converters; ASTRA-sim reads any integer case.
        if (node.commType >= 0) {
            putBytesField(out, 10, attribute("comm_type", AttrInt64, std::uint64_t(node.commType)));
            putBytesField(out, 10, attribute("comm_size", AttrInt64, node.commSize));
        }
        if (!node.pgName.empty())
            putBytesField(out, 10, attribute("pg_name", node.pgName));
        return out;
    }

    // ---- decoding ---------------------------------------------------------------------------------------

    /// A bounded view of the stream; offsets in errors are absolute byte positions in the whole input.
    class Cursor {
    public:
        Cursor(std::string_view bytes, std::size_t base)
            : m_bytes(bytes)
            , m_base(base)
        {
        }

        bool atEnd() const { return m_pos >= m_bytes.size(); }
        std::size_t offset() const { return m_base + m_pos; }

        bool varint(std::uint64_t& value, std::string& error)
        {
            const std::size_t start = offset();
            value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (atEnd()) {
                    error = "byte " + std::to_string(start) + ": truncated varint";
                    return false;
                }
                const auto byte = static_cast<unsigned char>(m_bytes[m_pos++]);
                value |= std::uint64_t(byte & 0x7F) << shift;
                if (!(byte & 0x80))
                    return true;
            }
            error = "byte " + std::to_string(start) + ": varint longer than 10 bytes";
            return false;
        }

        /// A length-delimited payload as a sub-cursor.
        bool bytes(Cursor& inner, std::string& error)
        {
            const std::size_t start = offset();
            std::uint64_t length = 0;
            if (!varint(length, error))
                return false;
            if (length > m_bytes.size() - m_pos) {
                error
                    = "byte " + std::to_string(start) + ": message length " + std::to_string(length) + " past the end";
                return false;
            }
            inner = Cursor(m_bytes.substr(m_pos, std::size_t(length)), offset());
            m_pos += std::size_t(length);
            return true;
        }

        bool skip(unsigned wire, std::string& error)
        {
            const std::size_t start = offset();
            switch (wire) {
            case Varint: {
                std::uint64_t ignored = 0;
                return varint(ignored, error);
            }
            case Fixed64:
            case Fixed32: {
                const std::size_t size = wire == Fixed64 ? 8 : 4;
                if (m_bytes.size() - m_pos < size) {
                    error = "byte " + std::to_string(start) + ": truncated fixed-width field";
                    return false;
                }
                m_pos += size;
                return true;
            }
            case LengthDelimited: {
                Cursor ignored({}, 0);
                return bytes(ignored, error);
            }
            default:
                error = "byte " + std::to_string(start) + ": unknown wire type " + std::to_string(wire);
                return false;
            }
        }

        std::string_view text() const { return m_bytes; }

    private:
        std::string_view m_bytes;
        std::size_t m_pos = 0;
        std::size_t m_base = 0;
    };

    /// Reads a field tag; false with an error at a bad tag.
    bool readTag(Cursor& cursor, unsigned& field, unsigned& wire, std::string& error)
    {
        const std::size_t start = cursor.offset();
        std::uint64_t tag = 0;
        if (!cursor.varint(tag, error))
            return false;
        field = unsigned(std::min<std::uint64_t>(tag >> 3, std::numeric_limits<unsigned>::max()));
        wire = unsigned(tag & 7);
        if (field == 0) {
            error = "byte " + std::to_string(start) + ": field number 0";
            return false;
        }
        if (wire != Varint && wire != Fixed64 && wire != LengthDelimited && wire != Fixed32) {
            error = "byte " + std::to_string(start) + ": unknown wire type " + std::to_string(wire);
            return false;
        }
        return true;
    }

    std::string wrongWire(const Cursor& cursor, const char* what)
    {
        return "byte " + std::to_string(cursor.offset()) + ": " + what + " has the wrong wire type";
    }

    bool decodeAttribute(Cursor cursor, ChakraNode& node, std::string& error)
    {
        std::string name;
        std::uint64_t integer = 0;
        bool hasInteger = false;
        std::string text;
        bool hasText = false;
        while (!cursor.atEnd()) {
            unsigned field = 0, wire = 0;
            if (!readTag(cursor, field, wire, error))
                return false;
            if ((field == AttrName || field == AttrString) && wire == LengthDelimited) {
                Cursor payload({}, 0);
                if (!cursor.bytes(payload, error))
                    return false;
                (field == AttrName ? name : text) = std::string(payload.text());
                hasText = hasText || field == AttrString;
            } else if ((field == AttrInt32 || field == AttrInt64 || field == AttrUint32 || field == AttrUint64
                           || field == AttrSint32 || field == AttrSint64 || field == AttrBool)
                && wire == Varint) {
                if (!cursor.varint(integer, error))
                    return false;
                if (field == AttrSint32 || field == AttrSint64) // zigzag
                    integer = (integer >> 1) ^ (~(integer & 1) + 1);
                if (field == AttrInt32 || field == AttrUint32 || field == AttrSint32)
                    integer = std::uint64_t(std::int64_t(std::int32_t(std::uint32_t(integer))));
                hasInteger = true;
            } else if (!cursor.skip(wire, error)) {
                return false;
            }
        }
        if (name == "is_cpu_op" && hasInteger)
            node.isCpuOp = integer != 0;
        else if (name == "num_ops" && hasInteger)
            node.numOps = integer;
        else if (name == "tensor_size" && hasInteger)
            node.tensorSize = integer;
        else if (name == "comm_type" && hasInteger)
            node.commType = std::int64_t(integer);
        else if (name == "comm_size" && hasInteger)
            node.commSize = integer;
        else if (name == "pg_name" && hasText)
            node.pgName = text;
        return true;
    }

    bool decodeNode(Cursor cursor, ChakraNode& node, std::string& error)
    {
        while (!cursor.atEnd()) {
            unsigned field = 0, wire = 0;
            if (!readTag(cursor, field, wire, error))
                return false;
            std::uint64_t value = 0;
            if (field == 1 && wire == Varint) {
                if (!cursor.varint(node.id, error))
                    return false;
            } else if (field == 2 && wire == LengthDelimited) {
                Cursor payload({}, 0);
                if (!cursor.bytes(payload, error))
                    return false;
                node.name = std::string(payload.text());
            } else if (field == 3 && wire == Varint) {
                if (!cursor.varint(value, error))
                    return false;
                node.type = value <= 7 ? ChakraNodeType(value) : ChakraNodeType::Invalid;
            } else if (field == 5 && wire == Varint) { // unpacked data_deps
                if (!cursor.varint(value, error))
                    return false;
                node.dataDeps.push_back(value);
            } else if (field == 5 && wire == LengthDelimited) { // packed data_deps (proto3 default)
                Cursor packed({}, 0);
                if (!cursor.bytes(packed, error))
                    return false;
                while (!packed.atEnd()) {
                    if (!packed.varint(value, error))
                        return false;
                    node.dataDeps.push_back(value);
                }
            } else if (field == 7 && wire == Varint) {
                if (!cursor.varint(node.durationMicros, error))
                    return false;
            } else if (field == 10 && wire == LengthDelimited) {
                Cursor attr({}, 0);
                if (!cursor.bytes(attr, error) || !decodeAttribute(attr, node, error))
                    return false;
            } else if (field == 1 || field == 3 || field == 7 || field == 10 || field == 2) {
                error = wrongWire(cursor, "a known Node field");
                return false;
            } else if (!cursor.skip(wire, error)) {
                return false;
            }
        }
        return true;
    }

    bool decodeMetadata(Cursor cursor, ChakraTrace& trace, std::string& error)
    {
        while (!cursor.atEnd()) {
            unsigned field = 0, wire = 0;
            if (!readTag(cursor, field, wire, error))
                return false;
            if (field == 1 && wire == LengthDelimited) {
                Cursor payload({}, 0);
                if (!cursor.bytes(payload, error))
                    return false;
                trace.version = std::string(payload.text());
            } else if (!cursor.skip(wire, error)) {
                return false;
            }
        }
        return true;
    }

    ChakraCollective chakraCollectiveOf(CollectiveKind kind)
    {
        switch (kind) {
        case CollectiveKind::AllReduce:
            return ChakraCollective::AllReduce;
        case CollectiveKind::AllGather:
            return ChakraCollective::AllGather;
        case CollectiveKind::ReduceScatter:
            return ChakraCollective::ReduceScatter;
        case CollectiveKind::AllToAll:
            return ChakraCollective::AllToAll;
        case CollectiveKind::CollectivePermute:
            // Chakra has no permute collective and its send/recv nodes need per-pair tags; like hespas, an
            // all-to-all over the devices of the pairs stands in (comm_size is still the semantic payload).
            return ChakraCollective::AllToAll;
        case CollectiveKind::CollectiveBroadcast:
            return ChakraCollective::Broadcast;
        }
        return ChakraCollective::AllReduce;
    }

    std::uint64_t wholeNumber(double value)
    {
        if (!std::isfinite(value) || value <= 0)
            return 0;
        if (value >= 1.8e19)
            return std::numeric_limits<std::uint64_t>::max();
        return std::uint64_t(std::llround(value));
    }

    /// The device sets a collective runs on; permute pairs become the set of the devices they involve.
    std::vector<std::vector<std::int64_t>> groupsOf(const CollectiveInfo& collective, std::int64_t deviceCount)
    {
        if (collective.groups.empty()) {
            std::vector<std::int64_t> all;
            for (std::int64_t rank = 0; rank < deviceCount; ++rank)
                all.push_back(rank);
            return { all };
        }
        if (collective.kind == CollectiveKind::CollectivePermute) {
            std::vector<std::int64_t> involved;
            for (const auto& pair : collective.groups)
                involved.insert(involved.end(), pair.begin(), pair.end());
            std::sort(involved.begin(), involved.end());
            involved.erase(std::unique(involved.begin(), involved.end()), involved.end());
            return { involved };
        }
        return collective.groups;
    }

} // namespace

std::string encodeChakraTrace(const ChakraTrace& trace)
{
    std::string out;
    std::string metadata;
    putBytesField(metadata, 1, trace.version);
    putVarint(out, metadata.size());
    out += metadata;
    for (const ChakraNode& node : trace.nodes) {
        const std::string message = encodeNode(node);
        putVarint(out, message.size());
        out += message;
    }
    return out;
}

ChakraDecodeResult decodeChakraTrace(std::string_view bytes)
{
    ChakraDecodeResult result;
    if (bytes.empty()) {
        result.error = "byte 0: empty stream; a Chakra trace starts with a GlobalMetadata message";
        return result;
    }
    Cursor stream(bytes, 0);
    bool first = true;
    while (!stream.atEnd()) {
        Cursor message({}, 0);
        if (!stream.bytes(message, result.error))
            return result;
        if (first) {
            if (!decodeMetadata(message, result.trace, result.error))
                return result;
            first = false;
            continue;
        }
        ChakraNode node;
        if (!decodeNode(message, node, result.error))
            return result;
        result.trace.nodes.push_back(std::move(node));
    }
    return result;
}

ChakraExport buildChakraExport(const std::vector<StepNode>& nodes, std::int64_t deviceCount)
{
    ChakraExport chakra;
    // Communicator groups: every distinct device set of any collective, numbered from 1 in order of
    // first use (0 is ASTRA-sim's implicit "all NPUs").
    std::vector<std::vector<std::vector<std::int64_t>>> groupsByNode(nodes.size());
    std::vector<std::vector<std::int64_t>> distinct;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].kind != RegionKind::Communication || !nodes[i].collective)
            continue;
        groupsByNode[i] = groupsOf(*nodes[i].collective, deviceCount);
        for (const auto& group : groupsByNode[i]) {
            if (std::find(distinct.begin(), distinct.end(), group) == distinct.end()) {
                distinct.push_back(group);
                chakra.communicatorGroups[int(distinct.size())] = group;
            }
        }
    }
    if (chakra.communicatorGroups.empty()) { // as hespas: one group of every device
        std::vector<std::int64_t> all;
        for (std::int64_t rank = 0; rank < deviceCount; ++rank)
            all.push_back(rank);
        chakra.communicatorGroups[1] = all;
    }
    const auto groupIdOf = [&distinct](const std::vector<std::int64_t>& group) {
        return int(std::find(distinct.begin(), distinct.end(), group) - distinct.begin()) + 1;
    };

    for (std::int64_t rank = 0; rank < deviceCount; ++rank) {
        ChakraTrace trace;
        trace.version = "0.0.4"; // as hespas writes; ASTRA-sim does not check it
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const StepNode& step = nodes[i];
            ChakraNode node;
            node.id = i;
            node.dataDeps.assign(step.dependencies.begin(), step.dependencies.end());
            if (step.kind == RegionKind::Compute) {
                node.type = ChakraNodeType::Comp;
                node.name = step.label.empty() ? "COMP_NODE" : step.label;
                node.durationMicros = wholeNumber(step.seconds * 1e6);
                node.numOps = wholeNumber(step.flops);
                node.tensorSize = wholeNumber(step.bytes);
            } else {
                node.type = ChakraNodeType::CommColl;
                node.name = step.label.empty() ? "COMM_COLL_NODE" : step.label;
                if (step.collective) {
                    node.commType = std::int64_t(chakraCollectiveOf(step.collective->kind));
                    node.commSize = wholeNumber(
                        step.commBytesPerDevice > 0 ? step.commBytesPerDevice : step.collective->operandBytes);
                    // A device in none of the groups gets no pg_name (ASTRA-sim then uses all NPUs).
                    for (const auto& group : groupsByNode[i]) {
                        if (std::find(group.begin(), group.end(), rank) != group.end()) {
                            node.pgName = std::to_string(groupIdOf(group));
                            break;
                        }
                    }
                } else { // a communication node without its collective: charge it as an all-reduce
                    node.commType = std::int64_t(ChakraCollective::AllReduce);
                    node.commSize = wholeNumber(step.commBytesPerDevice);
                }
            }
            trace.nodes.push_back(std::move(node));
        }
        chakra.traces.push_back(std::move(trace));
    }
    return chakra;
}

std::string communicatorGroupsToJson(const ChakraExport& chakra)
{
    std::string out = "{";
    bool firstGroup = true;
    for (const auto& [id, ranks] : chakra.communicatorGroups) {
        out += std::string(firstGroup ? "\n" : ",\n") + "  \"" + std::to_string(id) + "\": [";
        for (std::size_t i = 0; i < ranks.size(); ++i)
            out += (i ? ", " : "") + std::to_string(ranks[i]);
        out += "]";
        firstGroup = false;
    }
    return out + "\n}\n";
}

std::string writeChakraExport(const ChakraExport& chakra, const std::string& directory, const std::string& prefix)
{
    namespace fs = std::filesystem;
    std::error_code code;
    fs::create_directories(directory, code);
    if (code)
        return "cannot create directory " + directory + ": " + code.message();
    const auto write = [](const fs::path& path, const std::string& bytes) -> std::string {
        std::ofstream file(path, std::ios::binary | std::ios::trunc);
        if (file)
            file.write(bytes.data(), std::streamsize(bytes.size()));
        if (!file)
            return "cannot write " + path.string() + ": " + std::strerror(errno);
        return {};
    };
    for (std::size_t rank = 0; rank < chakra.traces.size(); ++rank) {
        const std::string error = write(fs::path(directory) / (prefix + "." + std::to_string(rank) + ".et"),
            encodeChakraTrace(chakra.traces[rank]));
        if (!error.empty())
            return error;
    }
    return write(fs::path(directory) / "comm_group.json", communicatorGroupsToJson(chakra));
}

} // namespace elk::hlo
