// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Chakra execution traces (formats-and-presets §3.2; mlcommons/chakra schema/protobuf/et_def.proto):
// one file per device, `<prefix>.<rank>.et`, a varint-length-delimited stream of a GlobalMetadata
// message then one Node per trace node, written and read with the protoc-generated classes of
// et_def.proto (this folder). A collective inside a loop is one node per iteration.

#include "engine/hlo/hlo_step.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace elk::hlo {

/// Chakra enums, values as in et_def.proto.
enum class ChakraNodeType {
    Invalid = 0,
    Metadata = 1,
    MemLoad = 2,
    MemStore = 3,
    Comp = 4,
    CommSend = 5,
    CommRecv = 6,
    CommColl = 7
};
enum class ChakraCollective {
    AllReduce = 0,
    Reduce = 1,
    AllGather = 2,
    Gather = 3,
    Scatter = 4,
    Broadcast = 5,
    AllToAll = 6,
    ReduceScatter = 7,
    ReduceScatterBlock = 8,
    Barrier = 9
};

struct ChakraNode {
    std::uint64_t id = 0;
    std::string name;
    ChakraNodeType type = ChakraNodeType::Invalid;
    std::vector<std::uint64_t> dataDeps;
    std::uint64_t durationMicros = 0;
    // attributes
    bool isCpuOp = false;
    std::uint64_t numOps = 0; ///< COMP: FLOPs
    std::uint64_t tensorSize = 0; ///< COMP: bytes
    std::int64_t commType = -1; ///< COMM_COLL: ChakraCollective; -1 absent
    std::uint64_t commSize = 0; ///< COMM_COLL: bytes
    std::string pgName; ///< COMM_COLL: communicator group id ("" absent)
};

struct ChakraTrace {
    std::string version; ///< GlobalMetadata.version
    std::vector<ChakraNode> nodes;
};

std::string encodeChakraTrace(const ChakraTrace& trace);
/// Errors: "byte N: truncated varint", "byte N: message length L past the end", unknown wire type.
struct ChakraDecodeResult {
    ChakraTrace trace;
    std::string error;
    bool ok() const { return error.empty(); }
};
ChakraDecodeResult decodeChakraTrace(std::string_view bytes);

struct ChakraExport {
    std::vector<ChakraTrace> traces; ///< by device rank
    std::map<int, std::vector<std::int64_t>> communicatorGroups; ///< id (from 1) → device ranks
};
/// Builds the per-device traces: compute nodes with duration (µs, rounded; the rounding loss is
/// reported by the caller), communication nodes with comm_type, comm_size (payload per device, by
/// semantics) and pg_name of the group the device belongs to.
ChakraExport buildChakraExport(const std::vector<StepNode>& nodes, std::int64_t deviceCount);
/// `{"1": [0, 1, 2, 3], ...}`
std::string communicatorGroupsToJson(const ChakraExport& chakra);
/// Writes DIR/PREFIX.<rank>.et for every device and DIR/comm_group.json; error text or "".
std::string writeChakraExport(
    const ChakraExport& chakra, const std::string& directory, const std::string& prefix = "elk");

} // namespace elk::hlo
