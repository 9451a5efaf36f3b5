// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_network.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <vector>

// The model, in one place:
// * Every algorithm is α–β: time = steps·α + bytesSentPerDevice / B.
// * Sizes by semantics, with S the collective's full buffer per device: all_reduce S = operand,
//   all_gather S = result (n × operand), reduce_scatter S = operand (n × result), all_to_all S = operand,
//   collective_permute S = operand per pair, collective_broadcast S = operand.
// * AllToAll nodes (NVLink switch, NVLink/Infinity Fabric full mesh): each device has
//   linkGBpsPerDevice of egress in total, shared by its peers, so ring and direct move the same bytes
//   and differ only in their step counts.
// * Torus2D: one link per neighbour and direction at linkGBpsPerDevice; collectives run as rings
//   along the dimensions (a 2D all_reduce = reduce_scatter along x, all_reduce along y on S/x,
//   all_gather along x). Only Ring applies; other requests fall back to it.
// * Groups spanning nodes are hierarchical: intra-node phase(s) on the node links and an inter-node
//   phase per "lane" (one device per node) on the NICs of a dragonfly. In SPMD every device of a node
//   communicates at once, so a device gets nicGBpsPerNode / devicesPerNode. Per step the latency is
//   hops × hopLatency, hops = 1 (nodes under one router), 2 (one dragonfly group), 3 (local-global-local).
// * Several replica groups run at the same time on disjoint devices: the slowest group sets the time.

namespace elk::hlo {

namespace {

    struct Cost {
        double bytes = 0; ///< per device on the wire
        int steps = 0;
        CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring; ///< what actually ran
    };

    struct Link {
        double alphaSeconds = 0; ///< per step
        double bytesPerSecond = 0;
    };

    struct Timed {
        double seconds = 0;
        double bytes = 0;
        int steps = 0;
        CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
        std::string path;
    };

    double secondsOf(const Cost& cost, const Link& link)
    {
        double seconds = cost.steps * link.alphaSeconds;
        if (cost.bytes > 0)
            seconds
                += link.bytesPerSecond > 0 ? cost.bytes / link.bytesPerSecond : std::numeric_limits<double>::infinity();
        return seconds;
    }

    int ceilLog2(std::int64_t n)
    {
        int log = 0;
        while ((std::int64_t(1) << log) < n)
            ++log;
        return log;
    }

    bool treeApplies(CollectiveKind kind)
    {
        return kind == CollectiveKind::AllReduce || kind == CollectiveKind::CollectiveBroadcast;
    }

    /// One algorithm on n participants joined by an all-to-all fabric; S is the full buffer (see top).
    Cost flatCost(CollectiveKind kind, CollectiveAlgorithm algorithm, std::int64_t n, double S)
    {
        Cost cost;
        if (n <= 1)
            return cost;
        const double frac = double(n - 1) / double(n);
        const int logN = ceilLog2(n);
        const int ringSteps = int(std::min<std::int64_t>(n - 1, std::numeric_limits<int>::max() / 2));
        if (algorithm == CollectiveAlgorithm::Tree && !treeApplies(kind))
            algorithm = CollectiveAlgorithm::Ring; // trees reduce or broadcast; other collectives run as rings
        cost.algorithm = algorithm;
        switch (algorithm) {
        case CollectiveAlgorithm::Auto: // resolved by the caller
        case CollectiveAlgorithm::Ring:
            switch (kind) {
            case CollectiveKind::AllReduce:
                return { 2 * frac * S, 2 * ringSteps, algorithm };
            case CollectiveKind::AllGather:
            case CollectiveKind::ReduceScatter:
            case CollectiveKind::AllToAll:
                return { frac * S, ringSteps, algorithm };
            case CollectiveKind::CollectivePermute:
                return { S, 1, algorithm };
            case CollectiveKind::CollectiveBroadcast: // pipelined: every device forwards the buffer once
                return { S, ringSteps, algorithm };
            }
            break;
        case CollectiveAlgorithm::Direct:
            switch (kind) {
            case CollectiveKind::AllReduce: // direct reduce_scatter then direct all_gather
                return { 2 * frac * S, 2, algorithm };
            case CollectiveKind::AllGather:
            case CollectiveKind::ReduceScatter:
            case CollectiveKind::AllToAll:
                return { frac * S, 1, algorithm };
            case CollectiveKind::CollectivePermute:
                return { S, 1, algorithm };
            case CollectiveKind::CollectiveBroadcast: // the root sends the buffer to every peer
                return { double(n - 1) * S, 1, algorithm };
            }
            break;
        case CollectiveAlgorithm::HalvingDoubling: // non-powers of two: the step count rounds up
            switch (kind) {
            case CollectiveKind::AllReduce: // recursive halving reduce_scatter + recursive doubling all_gather
                return { 2 * frac * S, 2 * logN, algorithm };
            case CollectiveKind::AllGather:
            case CollectiveKind::ReduceScatter:
                return { frac * S, logN, algorithm };
            case CollectiveKind::AllToAll: // Bruck: half the buffer in each of log n steps
                return { logN * S / 2, logN, algorithm };
            case CollectiveKind::CollectivePermute:
                return { S, 1, algorithm };
            case CollectiveKind::CollectiveBroadcast: // binomial scatter + recursive doubling all_gather
                return { 2 * frac * S, 2 * logN, algorithm };
            }
            break;
        case CollectiveAlgorithm::Tree: // pipelined (double) binary trees
            if (kind == CollectiveKind::AllReduce)
                return { 2 * S, 2 * logN, algorithm };
            return { S, logN, algorithm }; // broadcast
        }
        return cost;
    }

    double fullBuffer(const CollectiveInfo& collective, std::int64_t n)
    {
        const double operand = collective.operandBytes;
        const double result = collective.resultBytes;
        switch (collective.kind) {
        case CollectiveKind::AllGather:
            return result > 0 ? result : operand * double(n);
        case CollectiveKind::ReduceScatter:
            return operand > 0 ? operand : result * double(n);
        default:
            return operand > 0 ? operand : result;
        }
    }

    /// Coordinates of a device in its node's torus.
    struct TorusPoint {
        int x = 0, y = 0;
    };

    int ringDistance(int a, int b, int size)
    {
        const int d = std::abs(a - b) % std::max(size, 1);
        return std::min(d, size - d);
    }

    class Evaluator {
    public:
        Evaluator(const CollectiveInfo& collective, const SystemPreset& system)
            : m_collective(collective)
            , m_system(system)
            , m_devicesPerNode(std::max(system.devicesPerNode, 1))
        {
        }

        /// Time of one group with one algorithm (Auto is resolved by the caller).
        Timed group(const std::vector<std::int64_t>& ranks, CollectiveAlgorithm algorithm) const
        {
            Timed timed;
            timed.algorithm = algorithm;
            const std::int64_t n = std::int64_t(ranks.size());
            if (n <= 1) {
                timed.path = "local";
                return timed;
            }
            const double S = fullBuffer(m_collective, n);
            std::map<std::int64_t, std::vector<std::int64_t>> byNode;
            for (std::int64_t rank : ranks)
                byNode[rank / m_devicesPerNode].push_back(rank);
            if (byNode.size() == 1)
                return intraNode(ranks, S, algorithm);
            return hierarchical(byNode, n, S, algorithm);
        }

        /// collective_permute: every pair sends S at once; the slowest pair sets the time.
        /// One source → target transfer; `sharing` transfers leave the source (or reach the target) at
        /// the same time and share its link.
        Timed permutePair(std::int64_t source, std::int64_t target, double sharing = 1) const
        {
            Timed timed;
            if (source == target) {
                timed.path = "local";
                return timed;
            }
            const double S = fullBuffer(m_collective, 2) * sharing;
            const Cost cost { S, 1, CollectiveAlgorithm::Direct };
            if (source / m_devicesPerNode == target / m_devicesPerNode) {
                Link link = nodeLink();
                if (m_system.nodeTopology == TopologyKind::Torus2D)
                    link.alphaSeconds *= torusHops(point(source), point(target));
                return finish(cost, link, intraPath());
            }
            const Link link = interLink({ source / m_devicesPerNode, target / m_devicesPerNode });
            return finish(cost, link, intraPath() + "+dragonfly");
        }

    private:
        Link nodeLink() const { return { m_system.linkLatencyMicros * 1e-6, m_system.linkGBpsPerDevice * 1e9 }; }

        std::string intraPath() const { return m_system.nodeTopology == TopologyKind::Torus2D ? "torus" : "nvlink"; }

        static Timed finish(const Cost& cost, const Link& link, std::string path)
        {
            return { secondsOf(cost, link), cost.bytes, cost.steps, cost.algorithm, std::move(path) };
        }

        static void add(Timed& into, const Timed& phase)
        {
            into.seconds += phase.seconds;
            into.bytes += phase.bytes;
            into.steps += phase.steps;
        }

        TorusPoint point(std::int64_t rank) const
        {
            const int local = int(rank % m_devicesPerNode);
            const int width = std::max(m_system.torusX, 1);
            return { local % width, local / width };
        }

        int torusHops(TorusPoint a, TorusPoint b) const
        {
            return ringDistance(a.x, b.x, std::max(m_system.torusX, 1))
                + ringDistance(a.y, b.y, std::max(m_system.torusY, 1));
        }

        Timed intraNode(const std::vector<std::int64_t>& ranks, double S, CollectiveAlgorithm algorithm) const
        {
            const std::int64_t n = std::int64_t(ranks.size());
            if (m_system.nodeTopology == TopologyKind::AllToAll)
                return finish(flatCost(m_collective.kind, algorithm, n, S), nodeLink(), "nvlink");
            return torus(ranks, S);
        }

        /// Rings along the torus dimensions (Ring only).
        Timed torus(const std::vector<std::int64_t>& ranks, double S) const
        {
            const CollectiveKind kind = m_collective.kind;
            const Link link = nodeLink();
            const int X = std::max(m_system.torusX, 1);
            const int Y = std::max(m_system.torusY, 1);
            const std::int64_t n = std::int64_t(ranks.size());
            std::vector<TorusPoint> points;
            for (std::int64_t rank : ranks)
                points.push_back(point(rank));
            bool fullGrid = n == std::int64_t(X) * Y;
            if (fullGrid) {
                std::vector<bool> seen(std::size_t(X) * Y, false);
                for (const TorusPoint& p : points)
                    seen[std::size_t(p.y) * X + p.x] = true;
                fullGrid = std::all_of(seen.begin(), seen.end(), [](bool b) { return b; });
            }
            if (fullGrid && X > 1 && Y > 1) {
                Timed timed { 0, 0, 0, CollectiveAlgorithm::Ring, "torus" };
                const auto ringPhase = [&](CollectiveKind phaseKind, int size, double buffer) {
                    add(timed, finish(flatCost(phaseKind, CollectiveAlgorithm::Ring, size, buffer), link, "torus"));
                };
                switch (kind) {
                case CollectiveKind::AllReduce:
                    ringPhase(CollectiveKind::ReduceScatter, X, S);
                    ringPhase(CollectiveKind::AllReduce, Y, S / X);
                    ringPhase(CollectiveKind::AllGather, X, S);
                    break;
                case CollectiveKind::ReduceScatter:
                    ringPhase(CollectiveKind::ReduceScatter, X, S);
                    ringPhase(CollectiveKind::ReduceScatter, Y, S / X);
                    break;
                case CollectiveKind::AllGather:
                    ringPhase(CollectiveKind::AllGather, Y, S / X);
                    ringPhase(CollectiveKind::AllGather, X, S);
                    break;
                case CollectiveKind::AllToAll: // dimension-ordered: across x, then across y
                    ringPhase(CollectiveKind::AllToAll, X, S);
                    ringPhase(CollectiveKind::AllToAll, Y, S);
                    break;
                case CollectiveKind::CollectivePermute:
                    ringPhase(CollectiveKind::CollectivePermute, 2, S);
                    break;
                case CollectiveKind::CollectiveBroadcast: // pipelined along x, then along every y ring
                    timed = finish({ S, (X - 1) + (Y - 1), CollectiveAlgorithm::Ring }, link, "torus");
                    break;
                }
                return timed;
            }
            // One ring through the members in rank order; a step waits for its longest hop distance.
            std::vector<std::int64_t> ordered = ranks;
            std::sort(ordered.begin(), ordered.end());
            int maxHops = 1;
            for (std::size_t i = 0; i < ordered.size(); ++i)
                maxHops = std::max(maxHops, torusHops(point(ordered[i]), point(ordered[(i + 1) % ordered.size()])));
            Link ringLink = link;
            ringLink.alphaSeconds *= maxHops;
            return finish(flatCost(kind, CollectiveAlgorithm::Ring, n, S), ringLink, "torus");
        }

        /// Per-device NIC share and per-step latency between these nodes.
        Link interLink(const std::vector<std::int64_t>& nodes) const
        {
            const int perRouter = std::max(m_system.nodesPerRouter, 1);
            const int perGroup = std::max(m_system.routersPerGroup, 1);
            bool oneRouter = true, oneGroup = true;
            for (std::int64_t node : nodes) {
                oneRouter = oneRouter && node / perRouter == nodes.front() / perRouter;
                oneGroup = oneGroup && node / perRouter / perGroup == nodes.front() / perRouter / perGroup;
            }
            const int hops = oneRouter ? 1 : (oneGroup ? 2 : 3);
            double gbps = m_system.nicGBpsPerNode / m_devicesPerNode;
            if (!oneGroup && m_system.globalLinkGBps > 0)
                gbps = std::min(gbps, m_system.globalLinkGBps / m_devicesPerNode);
            return { hops * m_system.hopLatencyMicros * 1e-6, gbps * 1e9 };
        }

        Timed hierarchical(const std::map<std::int64_t, std::vector<std::int64_t>>& byNode, std::int64_t n, double S,
            CollectiveAlgorithm algorithm) const
        {
            // The node holding most members stands for all (the phases of all nodes run in parallel).
            std::vector<std::int64_t> nodes;
            const std::vector<std::int64_t>* widest = nullptr;
            for (const auto& [node, members] : byNode) {
                nodes.push_back(node);
                if (!widest || members.size() > widest->size())
                    widest = &members;
            }
            const std::int64_t m = std::int64_t(nodes.size());
            const std::int64_t k = std::int64_t(widest->size());
            const Link inter = interLink(nodes);
            const std::string path = intraPath() + "+dragonfly";
            Timed timed { 0, 0, 0, algorithm, path };

            const auto intra = [&](CollectiveKind kind, double buffer) {
                if (k <= 1)
                    return;
                CollectiveInfo phase = m_collective;
                phase.kind = kind;
                phase.operandBytes = kind == CollectiveKind::AllGather ? buffer / double(k) : buffer;
                phase.resultBytes = kind == CollectiveKind::AllGather ? buffer : buffer / double(k);
                if (kind == CollectiveKind::AllReduce || kind == CollectiveKind::AllToAll
                    || kind == CollectiveKind::CollectiveBroadcast)
                    phase.resultBytes = buffer;
                add(timed, Evaluator(phase, m_system).intraNode(*widest, buffer, algorithm));
            };
            const auto across = [&](CollectiveKind kind, double buffer) {
                const Cost cost = flatCost(kind, algorithm, m, buffer);
                timed.algorithm = cost.algorithm;
                add(timed, finish(cost, inter, path));
            };
            switch (m_collective.kind) {
            case CollectiveKind::AllReduce:
                intra(CollectiveKind::ReduceScatter, S);
                across(CollectiveKind::AllReduce, S / double(k));
                intra(CollectiveKind::AllGather, S);
                break;
            case CollectiveKind::ReduceScatter:
                intra(CollectiveKind::ReduceScatter, S);
                across(CollectiveKind::ReduceScatter, S / double(k));
                break;
            case CollectiveKind::AllGather:
                across(CollectiveKind::AllGather, S / double(k));
                intra(CollectiveKind::AllGather, S);
                break;
            case CollectiveKind::AllToAll: // the share for peers in this node, then the rest across the NICs
                intra(CollectiveKind::AllToAll, S * double(k) / double(n));
                across(CollectiveKind::AllToAll, S);
                break;
            case CollectiveKind::CollectivePermute:
                across(CollectiveKind::CollectivePermute, S);
                break;
            case CollectiveKind::CollectiveBroadcast:
                across(CollectiveKind::CollectiveBroadcast, S);
                intra(CollectiveKind::CollectiveBroadcast, S);
                break;
            }
            return timed;
        }

        const CollectiveInfo& m_collective;
        const SystemPreset& m_system;
        std::int64_t m_devicesPerNode;
    };

    /// The slowest group (or pair) under one algorithm.
    Timed slowest(const CollectiveInfo& collective, const SystemPreset& system, CollectiveAlgorithm algorithm)
    {
        const Evaluator evaluator(collective, system);
        Timed worst { 0, 0, 0, algorithm, "local" };
        const auto consider = [&worst](const Timed& timed) {
            if (timed.seconds > worst.seconds || (worst.path == "local" && timed.path != "local"))
                worst = timed;
        };
        if (collective.kind == CollectiveKind::CollectivePermute && !collective.pairs.empty()) {
            // Every pair on its own path, all at once: the slowest pair sets the time, and a device that
            // sends (or receives) several messages shares its link among them.
            std::map<std::int64_t, int> sends, receives;
            for (const auto& [source, target] : collective.pairs) {
                if (source == target)
                    continue;
                ++sends[source];
                ++receives[target];
            }
            for (const auto& [source, target] : collective.pairs) {
                const double sharing = source == target ? 1 : double(std::max(sends[source], receives[target]));
                consider(evaluator.permutePair(source, target, sharing));
            }
            return worst;
        }
        if (collective.kind == CollectiveKind::CollectivePermute) {
            bool anyPair = false;
            for (const auto& group : collective.groups) {
                if (group.size() == 2) {
                    consider(evaluator.permutePair(group[0], group[1]));
                    anyPair = true;
                }
            }
            if (anyPair)
                return worst;
        }
        if (collective.groups.empty()) {
            std::vector<std::int64_t> all;
            for (std::int64_t rank = 0; rank < collective.groupSize; ++rank)
                all.push_back(rank);
            return evaluator.group(all, algorithm);
        }
        std::vector<const std::vector<std::int64_t>*> seen;
        for (const auto& group : collective.groups) {
            // Groups of one SPMD collective usually repeat one shape; evaluate each distinct one once.
            if (std::any_of(seen.begin(), seen.end(), [&](const auto* other) { return *other == group; }))
                continue;
            seen.push_back(&group);
            consider(evaluator.group(group, algorithm));
        }
        return worst;
    }

} // namespace

const char* toString(CollectiveAlgorithm algorithm)
{
    switch (algorithm) {
    case CollectiveAlgorithm::Auto:
        return "auto";
    case CollectiveAlgorithm::Ring:
        return "ring";
    case CollectiveAlgorithm::Direct:
        return "direct";
    case CollectiveAlgorithm::HalvingDoubling:
        return "halving-doubling";
    case CollectiveAlgorithm::Tree:
        return "tree";
    }
    return "auto";
}

std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text)
{
    for (CollectiveAlgorithm algorithm : { CollectiveAlgorithm::Auto, CollectiveAlgorithm::Ring,
             CollectiveAlgorithm::Direct, CollectiveAlgorithm::HalvingDoubling, CollectiveAlgorithm::Tree })
        if (text == toString(algorithm))
            return algorithm;
    return std::nullopt;
}

CollectiveTime collectiveTime(
    const CollectiveInfo& collective, const SystemPreset& system, CollectiveAlgorithm algorithm)
{
    Timed best;
    if (algorithm != CollectiveAlgorithm::Auto) {
        best = slowest(collective, system, algorithm);
    } else {
        bool first = true;
        for (CollectiveAlgorithm candidate : { CollectiveAlgorithm::Ring, CollectiveAlgorithm::Direct,
                 CollectiveAlgorithm::HalvingDoubling, CollectiveAlgorithm::Tree }) {
            const Timed timed = slowest(collective, system, candidate);
            if (first || timed.seconds < best.seconds)
                best = timed;
            first = false;
        }
    }
    CollectiveTime time;
    time.seconds = best.seconds;
    time.bytesSentPerDevice = best.bytes;
    time.steps = best.steps;
    time.algorithm = best.algorithm;
    time.path = best.path.empty() ? "local" : best.path;
    return time;
}

} // namespace elk::hlo
