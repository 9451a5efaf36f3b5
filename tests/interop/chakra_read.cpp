// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Reads Chakra execution traces with Chakra's own ETFeeder (../shared/third_party/chakra, what
// ASTRA-sim uses) and prints what it saw, one line per file:
//   FILE issued=I comp=C num_ops=F comm=K comm_size=B pg=1,2
// (pg: the distinct pg_name values of its collectives, sorted)
// Nodes are issued as ASTRA-sim issues them: a node once its data dependencies have been issued, so
// fewer issued nodes than the file holds means a dependency that never resolves (a cycle or a
// missing node).
// Built only when the Chakra sources are present (tests/interop/CMakeLists.txt). No Elk code here.
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include "et_feeder.h"

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s TRACE.et...\n", argv[0]);
        return 2;
    }
    for (int a = 1; a < argc; ++a) {
        Chakra::ETFeeder feeder(argv[a]);
        std::uint64_t issued = 0, comp = 0, comm = 0;
        std::uint64_t numOps = 0, commSize = 0;
        std::set<std::string> groups;
        while (feeder.hasNodesToIssue()) {
            std::shared_ptr<Chakra::ETFeederNode> node = feeder.getNextIssuableNode();
            if (!node)
                break;
            ++issued;
            const auto type = node->type();
            if (type == ChakraProtoMsg::COMP_NODE) {
                ++comp;
                numOps += node->num_ops();
            } else if (type == ChakraProtoMsg::COMM_COLL_NODE) {
                ++comm;
                commSize += node->comm_size();
                if (!node->pg_name().empty())
                    groups.insert(node->pg_name());
            }
            const std::uint64_t id = node->id();
            feeder.freeChildrenNodes(id);
            feeder.removeNode(id);
        }
        std::string pg;
        for (const std::string& group : groups)
            pg += (pg.empty() ? "" : ",") + group;
        std::printf("%s issued=%llu comp=%llu num_ops=%llu comm=%llu comm_size=%llu pg=%s\n", argv[a],
            static_cast<unsigned long long>(issued), static_cast<unsigned long long>(comp),
            static_cast<unsigned long long>(numOps), static_cast<unsigned long long>(comm),
            static_cast<unsigned long long>(commSize), pg.c_str());
    }
    return 0;
}
