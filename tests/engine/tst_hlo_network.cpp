// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// α–β collective costs: hand-computed values for every collective × algorithm on a 4-device
// all-to-all node and on a 2D torus, sizing by semantics, hierarchical (dragonfly) collectives,
// monotonicity and Auto never slower than an explicit algorithm.
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

#include "engine/hlo/hlo_network.h"

using namespace elk::hlo;

namespace {

using Groups = std::vector<std::vector<std::int64_t>>;

/// 4 devices, 100 GB/s per device and direction, 1 µs per step.
SystemPreset nvlinkNode()
{
    SystemPreset system;
    system.name = "test-4";
    system.device = "h100-sxm";
    system.devicesPerNode = 4;
    system.linkGBpsPerDevice = 100;
    system.linkLatencyMicros = 1;
    return system;
}

/// 4 × 2 torus, 50 GB/s per link and direction, 2 µs per step.
SystemPreset torus()
{
    SystemPreset system;
    system.name = "test-torus";
    system.device = "tpu-v3-core";
    system.devicesPerNode = 8;
    system.nodeTopology = TopologyKind::Torus2D;
    system.torusX = 4;
    system.torusY = 2;
    system.linkGBpsPerDevice = 50;
    system.linkLatencyMicros = 2;
    return system;
}

/// 4 nodes of the NVLink node above; 100 GB/s of NIC per node (25 per device), 1 µs per hop,
/// one node per router, two routers per dragonfly group (so nodes 0-1 and 2-3 form the two groups).
SystemPreset dragonfly()
{
    SystemPreset system = nvlinkNode();
    system.name = "test-dragonfly";
    system.nodes = 4;
    system.nicGBpsPerNode = 100;
    system.hopLatencyMicros = 1;
    system.nodesPerRouter = 1;
    system.routersPerGroup = 2;
    return system;
}

CollectiveInfo collective(CollectiveKind kind, Groups groups, double operandBytes, double resultBytes)
{
    CollectiveInfo info;
    info.kind = kind;
    info.groupSize = groups.empty() ? 1 : std::int64_t(groups.front().size());
    info.groups = std::move(groups);
    info.operandBytes = operandBytes;
    info.resultBytes = resultBytes;
    return info;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 + 1e-9 * std::abs(b);
}

constexpr double GB = 1e9;
constexpr double us = 1e-6;

const CollectiveKind kAllKinds[]
    = { CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter, CollectiveKind::AllToAll,
          CollectiveKind::CollectivePermute, CollectiveKind::CollectiveBroadcast };
const CollectiveAlgorithm kExplicit[] = { CollectiveAlgorithm::Ring, CollectiveAlgorithm::Direct,
    CollectiveAlgorithm::HalvingDoubling, CollectiveAlgorithm::Tree };

/// A collective of `kind` over `groups` whose full buffer (see hlo_network.cpp) is `S` bytes.
CollectiveInfo withBuffer(CollectiveKind kind, const Groups& groups, double S)
{
    const double n = double(groups.front().size());
    switch (kind) {
    case CollectiveKind::AllGather:
        return collective(kind, groups, S / n, S);
    case CollectiveKind::ReduceScatter:
        return collective(kind, groups, S, S / n);
    default:
        return collective(kind, groups, S, S);
    }
}

} // namespace

Q_DECLARE_METATYPE(elk::hlo::CollectiveKind)
Q_DECLARE_METATYPE(elk::hlo::CollectiveAlgorithm)

class TestHloNetwork : public QObject {
    Q_OBJECT

private slots:
    void allToAllNode_data()
    {
        QTest::addColumn<CollectiveKind>("kind");
        QTest::addColumn<CollectiveAlgorithm>("algorithm");
        QTest::addColumn<CollectiveAlgorithm>("used");
        QTest::addColumn<int>("steps");
        QTest::addColumn<double>("bytes");
        // n = 4, S = 1 GB, B = 100 GB/s, α = 1 µs: seconds = steps·α + bytes/B.
        using K = CollectiveKind;
        using A = CollectiveAlgorithm;
        QTest::addRow("all_reduce ring: 2(n-1) steps, 2(n-1)/n S")
            << K::AllReduce << A::Ring << A::Ring << 6 << 1.5 * GB;
        QTest::addRow("all_reduce direct: RS + AG, 2 steps") << K::AllReduce << A::Direct << A::Direct << 2 << 1.5 * GB;
        QTest::addRow("all_reduce halving-doubling: 2 log n")
            << K::AllReduce << A::HalvingDoubling << A::HalvingDoubling << 4 << 1.5 * GB;
        QTest::addRow("all_reduce tree: 2 log n, 2S") << K::AllReduce << A::Tree << A::Tree << 4 << 2.0 * GB;
        QTest::addRow("all_gather ring") << K::AllGather << A::Ring << A::Ring << 3 << 0.75 * GB;
        QTest::addRow("all_gather direct") << K::AllGather << A::Direct << A::Direct << 1 << 0.75 * GB;
        QTest::addRow("all_gather halving-doubling")
            << K::AllGather << A::HalvingDoubling << A::HalvingDoubling << 2 << 0.75 * GB;
        QTest::addRow("all_gather tree falls back to ring") << K::AllGather << A::Tree << A::Ring << 3 << 0.75 * GB;
        QTest::addRow("reduce_scatter ring") << K::ReduceScatter << A::Ring << A::Ring << 3 << 0.75 * GB;
        QTest::addRow("reduce_scatter direct") << K::ReduceScatter << A::Direct << A::Direct << 1 << 0.75 * GB;
        QTest::addRow("reduce_scatter halving-doubling")
            << K::ReduceScatter << A::HalvingDoubling << A::HalvingDoubling << 2 << 0.75 * GB;
        QTest::addRow("all_to_all ring") << K::AllToAll << A::Ring << A::Ring << 3 << 0.75 * GB;
        QTest::addRow("all_to_all direct") << K::AllToAll << A::Direct << A::Direct << 1 << 0.75 * GB;
        QTest::addRow("all_to_all Bruck: log n steps of S/2")
            << K::AllToAll << A::HalvingDoubling << A::HalvingDoubling << 2 << 1.0 * GB;
        QTest::addRow("collective_broadcast pipelined ring")
            << K::CollectiveBroadcast << A::Ring << A::Ring << 3 << 1.0 * GB;
        QTest::addRow("collective_broadcast direct: root sends (n-1)S")
            << K::CollectiveBroadcast << A::Direct << A::Direct << 1 << 3.0 * GB;
        QTest::addRow("collective_broadcast scatter + all_gather")
            << K::CollectiveBroadcast << A::HalvingDoubling << A::HalvingDoubling << 4 << 1.5 * GB;
        QTest::addRow("collective_broadcast pipelined tree")
            << K::CollectiveBroadcast << A::Tree << A::Tree << 2 << 1.0 * GB;
    }
    void allToAllNode()
    {
        QFETCH(CollectiveKind, kind);
        QFETCH(CollectiveAlgorithm, algorithm);
        QFETCH(CollectiveAlgorithm, used);
        QFETCH(int, steps);
        QFETCH(double, bytes);
        const CollectiveTime time = collectiveTime(withBuffer(kind, { { 0, 1, 2, 3 } }, GB), nvlinkNode(), algorithm);
        QCOMPARE(time.algorithm, used);
        QCOMPARE(time.steps, steps);
        QVERIFY2(near(time.bytesSentPerDevice, bytes), qPrintable(QString::number(time.bytesSentPerDevice)));
        const double expected = steps * 1 * us + bytes / (100 * GB);
        QVERIFY2(near(time.seconds, expected),
            qPrintable(QStringLiteral("%1 s, expected %2 s").arg(time.seconds).arg(expected)));
        QCOMPARE(QString::fromStdString(time.path), QStringLiteral("nvlink"));
    }

    void permutePairs()
    {
        // S per pair in one step; the pairs run at once.
        const CollectiveInfo permute
            = collective(CollectiveKind::CollectivePermute, { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } }, GB, GB);
        const CollectiveTime time = collectiveTime(permute, nvlinkNode(), CollectiveAlgorithm::Ring);
        QCOMPARE(time.steps, 1);
        QVERIFY(near(time.seconds, 1 * us + GB / (100 * GB)));
        QVERIFY(near(time.bytesSentPerDevice, GB));
        // On the torus a pair two hops apart pays two hop latencies.
        const CollectiveInfo far = collective(CollectiveKind::CollectivePermute, { { 0, 2 } }, GB, GB);
        QVERIFY(near(collectiveTime(far, ::torus()).seconds, 2 * 2 * us + GB / (50 * GB)));
        // Across nodes it goes over the NIC share: 25 GB/s per device, 2 hops (same dragonfly group).
        const CollectiveInfo remote = collective(CollectiveKind::CollectivePermute, { { 0, 4 } }, GB, GB);
        const CollectiveTime across = collectiveTime(remote, dragonfly());
        QVERIFY(near(across.seconds, 2 * us + GB / (25 * GB)));
        QCOMPARE(QString::fromStdString(across.path), QStringLiteral("nvlink+dragonfly"));
    }

    // Pairs as a collective_permute carries them: each on its own path; a device that sends three
    // messages at once shares its link among them; pairs that cross the node boundary take the NIC.
    void permutePairsOnTheirPaths()
    {
        CollectiveInfo ring = collective(CollectiveKind::CollectivePermute, { { 0, 1, 2, 3 } }, GB, GB);
        ring.pairs = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } };
        QVERIFY(near(collectiveTime(ring, nvlinkNode()).seconds, 1 * us + GB / (100 * GB)));
        CollectiveInfo fanOut = collective(CollectiveKind::CollectivePermute, { { 0, 1, 2, 3 } }, GB, GB);
        fanOut.pairs = { { 0, 1 }, { 0, 2 }, { 0, 3 } };
        QVERIFY(near(collectiveTime(fanOut, nvlinkNode()).seconds, 1 * us + 3 * GB / (100 * GB)));
        CollectiveInfo mixed = collective(CollectiveKind::CollectivePermute, { { 0, 1, 4, 5 } }, GB, GB);
        mixed.pairs = { { 0, 1 }, { 5, 4 }, { 1, 4 } };
        const CollectiveTime time = collectiveTime(mixed, dragonfly());
        // The node-crossing pair is the slowest, and device 4 receives it and 5 -> 4 at once.
        QVERIFY(near(time.seconds, 2 * us + 2 * GB / (25 * GB)));
        QCOMPARE(QString::fromStdString(time.path), QStringLiteral("nvlink+dragonfly"));
    }

    void torus_data()
    {
        QTest::addColumn<CollectiveKind>("kind");
        QTest::addColumn<QList<int>>("ranks");
        QTest::addColumn<int>("steps");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<int>("hopsPerStep");
        using K = CollectiveKind;
        // 4 × 2 torus, S = 1 GB, B = 50 GB/s, α = 2 µs.
        QTest::addRow("all_reduce on the full torus: RS x, AR y on S/4, AG x")
            << K::AllReduce << QList<int> { 0, 1, 2, 3, 4, 5, 6, 7 } << 3 + 2 + 3 << 1.75 * GB << 1;
        QTest::addRow("all_gather on the full torus: AG y on S/4, AG x")
            << K::AllGather << QList<int> { 0, 1, 2, 3, 4, 5, 6, 7 } << 1 + 3 << 0.875 * GB << 1;
        QTest::addRow("reduce_scatter on the full torus: RS x, RS y on S/4")
            << K::ReduceScatter << QList<int> { 0, 1, 2, 3, 4, 5, 6, 7 } << 3 + 1 << 0.875 * GB << 1;
        QTest::addRow("all_to_all on the full torus: across x, then across y")
            << K::AllToAll << QList<int> { 0, 1, 2, 3, 4, 5, 6, 7 } << 3 + 1 << 1.25 * GB << 1;
        QTest::addRow("all_reduce along the x ring") << K::AllReduce << QList<int> { 0, 1, 2, 3 } << 6 << 1.5 * GB << 1;
        QTest::addRow("all_reduce along the y ring") << K::AllReduce << QList<int> { 1, 5 } << 2 << 1.0 * GB << 1;
        QTest::addRow("all_reduce of two devices two hops apart")
            << K::AllReduce << QList<int> { 0, 2 } << 2 << 1.0 * GB << 2;
    }
    void torus()
    {
        QFETCH(CollectiveKind, kind);
        QFETCH(QList<int>, ranks);
        QFETCH(int, steps);
        QFETCH(double, bytes);
        QFETCH(int, hopsPerStep);
        std::vector<std::int64_t> group(ranks.begin(), ranks.end());
        for (CollectiveAlgorithm algorithm :
            { CollectiveAlgorithm::Auto, CollectiveAlgorithm::Ring, CollectiveAlgorithm::Direct }) {
            const CollectiveTime time = collectiveTime(withBuffer(kind, { group }, GB), ::torus(), algorithm);
            QCOMPARE(time.algorithm, CollectiveAlgorithm::Ring); // rings only on a torus
            QCOMPARE(time.steps, steps);
            QVERIFY2(near(time.bytesSentPerDevice, bytes), qPrintable(QString::number(time.bytesSentPerDevice)));
            QVERIFY(near(time.seconds, steps * hopsPerStep * 2 * us + bytes / (50 * GB)));
            QCOMPARE(QString::fromStdString(time.path), QStringLiteral("torus"));
        }
    }

    // hespas sizes every collective by its output; by semantics all_gather of S_in per device sends
    // (n-1)·S_in and reduce_scatter of S_in sends (n-1)/n·S_in.
    void semanticSizing_data()
    {
        QTest::addColumn<CollectiveAlgorithm>("algorithm");
        QTest::addRow("ring") << CollectiveAlgorithm::Ring;
        QTest::addRow("direct") << CollectiveAlgorithm::Direct;
        QTest::addRow("halving-doubling") << CollectiveAlgorithm::HalvingDoubling;
    }
    void semanticSizing()
    {
        QFETCH(CollectiveAlgorithm, algorithm);
        const double sIn = 1e6;
        const Groups group { { 0, 1, 2, 3 } };
        const CollectiveTime gather
            = collectiveTime(collective(CollectiveKind::AllGather, group, sIn, 4 * sIn), nvlinkNode(), algorithm);
        QVERIFY2(near(gather.bytesSentPerDevice, 3 * sIn), qPrintable(QString::number(gather.bytesSentPerDevice)));
        const CollectiveTime scatter
            = collectiveTime(collective(CollectiveKind::ReduceScatter, group, sIn, sIn / 4), nvlinkNode(), algorithm);
        QVERIFY2(near(scatter.bytesSentPerDevice, 0.75 * sIn), qPrintable(QString::number(scatter.bytesSentPerDevice)));
        // Without result sizes the gathered size is n × the operand.
        const CollectiveTime gatherNoResult
            = collectiveTime(collective(CollectiveKind::AllGather, group, sIn, 0), nvlinkNode(), algorithm);
        QVERIFY(near(gatherNoResult.bytesSentPerDevice, 3 * sIn));
    }

    void hierarchical()
    {
        const SystemPreset system = dragonfly();
        const double S = GB;
        // Ring everywhere: RS in the node (3 steps, 0.75 S at 100 GB/s), all_reduce of S/4 between the two
        // nodes (2 steps of 2 hops, S/4 at 25 GB/s), AG in the node (3 steps, 0.75 S).
        const CollectiveInfo twoNodes = withBuffer(CollectiveKind::AllReduce, { { 0, 1, 2, 3, 4, 5, 6, 7 } }, S);
        const CollectiveTime ring = collectiveTime(twoNodes, system, CollectiveAlgorithm::Ring);
        QCOMPARE(ring.steps, 3 + 2 + 3);
        QVERIFY(near(ring.bytesSentPerDevice, 0.75 * S + 0.25 * S + 0.75 * S));
        QVERIFY2(
            near(ring.seconds,
                3 * us + 0.75 * S / (100 * GB) + 2 * 2 * us + 0.25 * S / (25 * GB) + 3 * us + 0.75 * S / (100 * GB)),
            qPrintable(QString::number(ring.seconds)));
        QCOMPARE(QString::fromStdString(ring.path), QStringLiteral("nvlink+dragonfly"));

        // The same bytes inside one node are cheaper.
        const CollectiveTime inside
            = collectiveTime(withBuffer(CollectiveKind::AllReduce, { { 0, 1, 2, 3 } }, S), system);
        QVERIFY(collectiveTime(twoNodes, system).seconds > inside.seconds);
        QCOMPARE(QString::fromStdString(inside.path), QStringLiteral("nvlink"));

        // Hops: 2 within a dragonfly group (nodes 0 and 1), 3 across groups (nodes 0 and 2).
        const CollectiveInfo tinyInGroup = withBuffer(CollectiveKind::AllReduce, { { 0, 4 } }, 0);
        const CollectiveInfo tinyAcross = withBuffer(CollectiveKind::AllReduce, { { 0, 8 } }, 0);
        QVERIFY(near(collectiveTime(tinyInGroup, system, CollectiveAlgorithm::Ring).seconds, 2 * 2 * us));
        QVERIFY(near(collectiveTime(tinyAcross, system, CollectiveAlgorithm::Ring).seconds, 2 * 3 * us));

        // all_gather and reduce_scatter: one intra-node and one inter-node phase each.
        const CollectiveTime gather
            = collectiveTime(withBuffer(CollectiveKind::AllGather, { { 0, 1, 2, 3, 4, 5, 6, 7 } }, S), system,
                CollectiveAlgorithm::Ring);
        QVERIFY(near(gather.bytesSentPerDevice, 0.5 * S / 4 + 0.75 * S));
        QCOMPARE(gather.steps, 1 + 3);
    }

    void hierarchicalOnBuiltinDragonfly()
    {
        const std::optional<SystemPreset> system = findSystemPreset("128x-h100-dragonfly");
        QVERIFY(system);
        Groups all(1);
        for (std::int64_t rank = 0; rank < 128; ++rank)
            all.front().push_back(rank);
        const CollectiveTime time = collectiveTime(withBuffer(CollectiveKind::AllReduce, all, 1e8), *system);
        const CollectiveTime node
            = collectiveTime(withBuffer(CollectiveKind::AllReduce, { { 0, 1, 2, 3 } }, 1e8), *system);
        QVERIFY(time.seconds > node.seconds);
        QVERIFY(std::isfinite(time.seconds));
    }

    void localGroups()
    {
        const CollectiveTime single = collectiveTime(
            collective(CollectiveKind::AllReduce, { { 0 }, { 1 }, { 2 }, { 3 } }, GB, GB), nvlinkNode());
        QCOMPARE(single.seconds, 0.0);
        QCOMPARE(single.bytesSentPerDevice, 0.0);
        QCOMPARE(QString::fromStdString(single.path), QStringLiteral("local"));
        CollectiveInfo noGroups = collective(CollectiveKind::AllGather, {}, GB, GB);
        noGroups.groupSize = 1;
        QCOMPARE(collectiveTime(noGroups, nvlinkNode()).seconds, 0.0);
    }

    void emptyGroupsMeanAllDevices()
    {
        CollectiveInfo all = collective(CollectiveKind::AllReduce, {}, GB, GB);
        all.groupSize = 4;
        const CollectiveTime implicit = collectiveTime(all, nvlinkNode(), CollectiveAlgorithm::Ring);
        const CollectiveTime explicitGroup = collectiveTime(
            collective(CollectiveKind::AllReduce, { { 0, 1, 2, 3 } }, GB, GB), nvlinkNode(), CollectiveAlgorithm::Ring);
        QCOMPARE(implicit.seconds, explicitGroup.seconds);
        QVERIFY(implicit.seconds > 0);
    }

    void concurrentGroupsTakeTheSlowest()
    {
        const CollectiveTime pairs
            = collectiveTime(collective(CollectiveKind::AllReduce, { { 0, 1 }, { 2, 3 } }, GB, GB), nvlinkNode(),
                CollectiveAlgorithm::Ring);
        const CollectiveTime pair = collectiveTime(
            collective(CollectiveKind::AllReduce, { { 0, 1 } }, GB, GB), nvlinkNode(), CollectiveAlgorithm::Ring);
        QCOMPARE(pairs.seconds, pair.seconds);
        const CollectiveTime mixed
            = collectiveTime(collective(CollectiveKind::AllReduce, { { 0 }, { 1, 2, 3 } }, GB, GB), nvlinkNode(),
                CollectiveAlgorithm::Ring);
        QVERIFY(near(mixed.seconds, 4 * us + 2.0 / 3.0 * GB * 2 / (100 * GB)));
    }

    void monotonicAndAutoIsBest_data()
    {
        QTest::addColumn<QString>("system");
        QTest::addRow("4-device NVLink node") << QStringLiteral("node");
        QTest::addRow("4 x 2 torus") << QStringLiteral("torus");
        QTest::addRow("dragonfly, group over two nodes") << QStringLiteral("dragonfly");
        QTest::addRow("built-in 8x-b200-sxm") << QStringLiteral("8x-b200-sxm");
        QTest::addRow("built-in 16x-h100-dragonfly") << QStringLiteral("16x-h100-dragonfly");
    }
    void monotonicAndAutoIsBest()
    {
        QFETCH(QString, system);
        SystemPreset preset;
        Groups groups;
        if (system == QLatin1String("node")) {
            preset = nvlinkNode();
            groups = { { 0, 1, 2, 3 } };
        } else if (system == QLatin1String("torus")) {
            preset = ::torus();
            groups = { { 0, 1, 2, 3, 4, 5, 6, 7 } };
        } else if (system == QLatin1String("dragonfly")) {
            preset = dragonfly();
            groups = { { 0, 1, 2, 3, 4, 5, 6, 7 } };
        } else {
            preset = *findSystemPreset(system.toStdString());
            groups.resize(1);
            for (std::int64_t rank = 0; rank < preset.deviceCount(); ++rank)
                groups.front().push_back(rank);
        }
        for (CollectiveKind kind : kAllKinds) {
            double previous = -1;
            for (double S = 1e3; S <= 1e10; S *= 10) {
                const CollectiveInfo info = withBuffer(kind, groups, S);
                const CollectiveTime best = collectiveTime(info, preset);
                QVERIFY2(
                    best.seconds >= previous, qPrintable(QStringLiteral("kind %1 at %2 bytes").arg(int(kind)).arg(S)));
                previous = best.seconds;
                for (CollectiveAlgorithm algorithm : kExplicit) {
                    const CollectiveTime chosen = collectiveTime(info, preset, algorithm);
                    QVERIFY2(best.seconds <= chosen.seconds,
                        qPrintable(QStringLiteral("kind %1, %2: auto %3 s > %4 s")
                                       .arg(int(kind))
                                       .arg(QLatin1String(toString(algorithm)))
                                       .arg(best.seconds)
                                       .arg(chosen.seconds)));
                    QVERIFY(std::isfinite(chosen.seconds) && chosen.seconds > 0);
                }
            }
        }
    }

    void algorithmNames_data()
    {
        QTest::addColumn<CollectiveAlgorithm>("algorithm");
        QTest::addColumn<QString>("name");
        QTest::addRow("auto") << CollectiveAlgorithm::Auto << QStringLiteral("auto");
        QTest::addRow("ring") << CollectiveAlgorithm::Ring << QStringLiteral("ring");
        QTest::addRow("direct") << CollectiveAlgorithm::Direct << QStringLiteral("direct");
        QTest::addRow("halving-doubling") << CollectiveAlgorithm::HalvingDoubling << QStringLiteral("halving-doubling");
        QTest::addRow("tree") << CollectiveAlgorithm::Tree << QStringLiteral("tree");
    }
    void algorithmNames()
    {
        QFETCH(CollectiveAlgorithm, algorithm);
        QFETCH(QString, name);
        QCOMPARE(QLatin1String(toString(algorithm)), name);
        QCOMPARE(collectiveAlgorithmFromString(name.toStdString()), std::optional<CollectiveAlgorithm>(algorithm));
        QVERIFY(!collectiveAlgorithmFromString("Ring"));
        QVERIFY(!collectiveAlgorithmFromString(""));
    }
};

QTEST_GUILESS_MAIN(TestHloNetwork)
#include "tst_hlo_network.moc"
