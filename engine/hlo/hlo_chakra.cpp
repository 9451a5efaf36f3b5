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

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/delimited_message_util.h>

#include "engine/hlo/et_def.pb.h"

// The trace is written and read with the classes protoc generates from et_def.proto (this folder),
// each message prefixed by its varint length, as Chakra's protoio does. Attributes carry the value
// type Chakra's ETFeederNode reads them with; the decoder reads them the same way, so a value
// written under another type reads as absent here too.

namespace elk::hlo {

namespace {

    namespace pb = ChakraProtoMsg;

    void addInt64(pb::Node& node, const char* name, std::int64_t value)
    {
        pb::AttributeProto* attr = node.add_attr();
        attr->set_name(name);
        attr->set_int64_val(value);
    }

    void addUint64(pb::Node& node, const char* name, std::uint64_t value)
    {
        pb::AttributeProto* attr = node.add_attr();
        attr->set_name(name);
        attr->set_uint64_val(value);
    }

    void addBool(pb::Node& node, const char* name, bool value)
    {
        pb::AttributeProto* attr = node.add_attr();
        attr->set_name(name);
        attr->set_bool_val(value);
    }

    void addString(pb::Node& node, const char* name, const std::string& value)
    {
        pb::AttributeProto* attr = node.add_attr();
        attr->set_name(name);
        attr->set_string_val(value);
    }

    std::int64_t asInt64(std::uint64_t value)
    {
        return value > std::uint64_t(std::numeric_limits<std::int64_t>::max())
            ? std::numeric_limits<std::int64_t>::max()
            : std::int64_t(value);
    }

    pb::Node toProto(const ChakraNode& node)
    {
        pb::Node out;
        out.set_id(node.id);
        out.set_name(node.name);
        out.set_type(pb::NodeType(int(node.type)));
        for (std::uint64_t dep : node.dataDeps)
            out.add_data_deps(dep);
        out.set_duration_micros(node.durationMicros);
        addBool(out, "is_cpu_op", node.isCpuOp);
        if (node.type == ChakraNodeType::Comp) {
            addInt64(out, "num_ops", asInt64(node.numOps));
            addUint64(out, "tensor_size", node.tensorSize);
        }
        if (node.commType >= 0) {
            addInt64(out, "comm_type", node.commType);
            addInt64(out, "comm_size", asInt64(node.commSize));
        }
        if (!node.pgName.empty())
            addString(out, "pg_name", node.pgName);
        return out;
    }

    ChakraNode fromProto(const pb::Node& in)
    {
        ChakraNode node;
        node.id = in.id();
        node.name = in.name();
        node.type = in.type() >= 0 && in.type() <= 7 ? ChakraNodeType(int(in.type())) : ChakraNodeType::Invalid;
        node.dataDeps.assign(in.data_deps().begin(), in.data_deps().end());
        node.durationMicros = in.duration_micros();
        for (const pb::AttributeProto& attr : in.attr()) {
            const std::string& name = attr.name();
            if (name == "is_cpu_op" && attr.value_case() == pb::AttributeProto::kBoolVal)
                node.isCpuOp = attr.bool_val();
            else if (name == "num_ops" && attr.value_case() == pb::AttributeProto::kInt64Val)
                node.numOps = std::uint64_t(std::max<std::int64_t>(0, attr.int64_val()));
            else if (name == "tensor_size" && attr.value_case() == pb::AttributeProto::kUint64Val)
                node.tensorSize = attr.uint64_val();
            else if (name == "comm_type" && attr.value_case() == pb::AttributeProto::kInt64Val)
                node.commType = attr.int64_val();
            else if (name == "comm_size" && attr.value_case() == pb::AttributeProto::kInt64Val)
                node.commSize = std::uint64_t(std::max<std::int64_t>(0, attr.int64_val()));
            else if (name == "pg_name" && attr.value_case() == pb::AttributeProto::kStringVal)
                node.pgName = attr.string_val();
        }
        return node;
    }

    void appendDelimited(std::string& out, const google::protobuf::MessageLite& message)
    {
        google::protobuf::io::StringOutputStream stream(&out);
        google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, &stream);
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
    pb::GlobalMetadata metadata;
    metadata.set_version(trace.version);
    appendDelimited(out, metadata);
    for (const ChakraNode& node : trace.nodes)
        appendDelimited(out, toProto(node));
    return out;
}

ChakraDecodeResult decodeChakraTrace(std::string_view bytes)
{
    ChakraDecodeResult result;
    if (bytes.empty()) {
        result.error = "byte 0: empty stream; a Chakra trace starts with a GlobalMetadata message";
        return result;
    }
    // Lengths are read here so that a broken stream says where; each message is parsed by the
    // generated class. Broken input is expected here: protobuf's own log stays quiet.
    const google::protobuf::LogSilencer quiet;
    std::size_t position = 0;
    for (std::size_t index = 0; position < bytes.size(); ++index) {
        const std::size_t start = position;
        std::uint64_t length = 0;
        int shift = 0;
        while (true) {
            if (position >= bytes.size()) {
                result.error = "byte " + std::to_string(start) + ": truncated varint (a message length)";
                return result;
            }
            if (shift >= 64) {
                result.error = "byte " + std::to_string(start) + ": varint longer than 10 bytes";
                return result;
            }
            const auto byte = static_cast<unsigned char>(bytes[position++]);
            length |= std::uint64_t(byte & 0x7F) << shift;
            shift += 7;
            if ((byte & 0x80) == 0)
                break;
        }
        if (length > bytes.size() - position) {
            result.error = "byte " + std::to_string(start) + ": message length " + std::to_string(length)
                + " past the end (" + std::to_string(bytes.size() - position) + " byte(s) left)";
            return result;
        }
        const char* data = bytes.data() + position;
        position += std::size_t(length);
        if (index == 0) {
            pb::GlobalMetadata metadata;
            if (!metadata.ParseFromArray(data, int(length))) {
                result.error = "byte " + std::to_string(start) + ": the first message does not parse as GlobalMetadata";
                return result;
            }
            result.trace.version = metadata.version();
            continue;
        }
        pb::Node node;
        if (!node.ParseFromArray(data, int(length))) {
            result.error = "byte " + std::to_string(start) + ": node " + std::to_string(index - 1)
                + " does not parse as a Chakra Node";
            return result;
        }
        result.trace.nodes.push_back(fromProto(node));
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

    // A collective in a loop runs once per iteration: one node each, chained, so that the simulator
    // sees every message (a compute node carries all iterations' work). Ids are renumbered: step
    // node i becomes nodes first[i] .. last[i].
    std::vector<std::uint64_t> first(nodes.size()), last(nodes.size());
    std::uint64_t nextId = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const bool repeated = nodes[i].kind == RegionKind::Communication && nodes[i].executions > 1;
        const std::uint64_t copies
            = repeated ? std::uint64_t(std::max<long long>(1, std::llround(nodes[i].executions))) : 1;
        first[i] = nextId;
        nextId += copies;
        last[i] = nextId - 1;
    }
    for (std::int64_t rank = 0; rank < deviceCount; ++rank) {
        ChakraTrace trace;
        trace.version = "0.0.4"; // as hespas writes; ASTRA-sim does not check it
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const StepNode& step = nodes[i];
            ChakraNode node;
            node.id = first[i];
            for (std::uint32_t dependency : step.dependencies)
                node.dataDeps.push_back(last[dependency]);
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
            const std::uint64_t copies = last[i] - first[i] + 1;
            if (copies == 1) {
                trace.nodes.push_back(std::move(node));
                continue;
            }
            for (std::uint64_t c = 0; c < copies; ++c) {
                ChakraNode copy = node;
                copy.id = first[i] + c;
                if (c > 0)
                    copy.dataDeps = { first[i] + c - 1 };
                copy.name = node.name + " [iteration " + std::to_string(c + 1) + " of " + std::to_string(copies) + "]";
                trace.nodes.push_back(std::move(copy));
            }
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
