// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Chakra execution-trace export: the hand-written protobuf encoding against bytes worked out from
// et_def.proto, encode/decode round trips, broken input, the per-device export and the files.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <string>
#include <vector>

#include "engine/hlo/hlo_chakra.h"
#include "engine/hlo/hlo_run.h"
#include "tests/support/hlo_loop_module.h"

using namespace elk::hlo;

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

bool equal(const ChakraNode& a, const ChakraNode& b)
{
    return a.id == b.id && a.name == b.name && a.type == b.type && a.dataDeps == b.dataDeps
        && a.durationMicros == b.durationMicros && a.isCpuOp == b.isCpuOp && a.numOps == b.numOps
        && a.tensorSize == b.tensorSize && a.commType == b.commType && a.commSize == b.commSize && a.pgName == b.pgName;
}

bool equal(const ChakraTrace& a, const ChakraTrace& b)
{
    if (a.version != b.version || a.nodes.size() != b.nodes.size())
        return false;
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (!equal(a.nodes[i], b.nodes[i]))
            return false;
    return true;
}

ChakraTrace sampleTrace()
{
    ChakraTrace trace;
    trace.version = "0.0.4";
    ChakraNode first;
    first.id = 0;
    first.name = "compute 0 (12 ops)";
    first.type = ChakraNodeType::Comp;
    first.durationMicros = 1234;
    first.numOps = 1ull << 40;
    first.tensorSize = 5'000'000;
    ChakraNode second;
    second.id = 1;
    second.name = "all_reduce";
    second.type = ChakraNodeType::CommColl;
    second.dataDeps = { 0 };
    second.commType = std::int64_t(ChakraCollective::AllReduce); // 0: must still be written
    second.commSize = 4096;
    second.pgName = "2";
    ChakraNode third;
    third.id = 300; // a multi-byte varint
    third.name = "compute 2";
    third.type = ChakraNodeType::Comp;
    third.dataDeps = { 0, 1, 200 };
    third.isCpuOp = true;
    third.durationMicros = 0;
    trace.nodes = { first, second, third };
    return trace;
}

StepNode computeStep(double seconds, std::vector<std::uint32_t> dependencies = {})
{
    StepNode node;
    node.kind = RegionKind::Compute;
    node.seconds = seconds;
    node.flops = 2e9;
    node.bytes = 3e6;
    node.dependencies = std::move(dependencies);
    node.label = "compute";
    return node;
}

StepNode commStep(
    CollectiveKind kind, std::vector<std::vector<std::int64_t>> groups, std::vector<std::uint32_t> dependencies)
{
    StepNode node;
    node.kind = RegionKind::Communication;
    node.seconds = 1e-4;
    CollectiveInfo info;
    info.kind = kind;
    info.groupSize = groups.empty() ? 4 : std::int64_t(groups.front().size());
    info.groups = std::move(groups);
    info.operandBytes = 1000;
    info.resultBytes = 2000;
    node.collective = info;
    node.commBytesPerDevice = 1000;
    node.dependencies = std::move(dependencies);
    node.label = "collective";
    return node;
}

QByteArray bytesOf(const std::string& text)
{
    return QByteArray(text.data(), qsizetype(text.size()));
}

} // namespace

class TestHloChakra : public QObject {
    Q_OBJECT

private slots:
    void knownBytes()
    {
        // Worked out by hand from et_def.proto: GlobalMetadata.version = field 1; Node.id = 1, type = 3,
        // duration_micros = 7, attr = 10; AttributeProto.name = 1, bool_val = 27 (tag 27 << 3 = 0xD8 0x01),
        // int64_val = 9 (tag 0x48), uint64_val = 13 (tag 0x68). A COMP node always carries num_ops
        // (int64, as Chakra's feeder reads it) and tensor_size (uint64), zero included.
        ChakraTrace trace;
        trace.version = "0.0.4";
        ChakraNode node;
        node.id = 1;
        node.type = ChakraNodeType::Comp;
        node.durationMicros = 5;
        trace.nodes = { node };
        const QByteArray expected = QByteArray::fromHex("07"
                                                        "0a05302e302e34" // metadata
                                                        "34"
                                                        "0801"
                                                        "1804"
                                                        "3805" // node: id, type, duration
                                                        "520e"
                                                        "0a09"
                                                        "69735f6370755f6f70"
                                                        "d80100" // is_cpu_op = false
                                                        "520b"
                                                        "0a07"
                                                        "6e756d5f6f7073"
                                                        "4800" // num_ops = 0 (int64_val)
                                                        "520f"
                                                        "0a0b"
                                                        "74656e736f725f73697a65"
                                                        "6800"); // tensor_size = 0 (uint64_val)
        QCOMPARE(bytesOf(encodeChakraTrace(trace)).toHex(), expected.toHex());
    }

    void packedDepsAndTypedAttributes()
    {
        ChakraNode node;
        node.id = 2;
        node.type = ChakraNodeType::CommColl;
        node.dataDeps = { 0, 1 };
        node.commType = std::int64_t(ChakraCollective::ReduceScatter);
        node.commSize = 300;
        node.pgName = "1";
        ChakraTrace trace;
        trace.version = "v";
        trace.nodes = { node };
        const QByteArray bytes = bytesOf(encodeChakraTrace(trace));
        QVERIFY(bytes.contains(QByteArray::fromHex("2a020001"))); // data_deps = 5, packed
        // comm_type as int64_val (field 9, tag 0x48), comm_size as int64_val, pg_name as string_val (29, 0xEA 0x01)
        QVERIFY(bytes.contains(QByteArray("\x0a\x09"
                                          "comm_type"
                                          "\x48\x07",
            13)));
        QVERIFY(bytes.contains(QByteArray("\x0a\x09"
                                          "comm_size"
                                          "\x48\xac\x02",
            14)));
        QVERIFY(bytes.contains(QByteArray("\x0a\x07"
                                          "pg_name"
                                          "\xea\x01\x01"
                                          "1",
            13)));
    }

    void roundTrip()
    {
        const ChakraTrace trace = sampleTrace();
        const ChakraDecodeResult decoded = decodeChakraTrace(encodeChakraTrace(trace));
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        QVERIFY(equal(decoded.trace, trace));
        QCOMPARE(decoded.trace.nodes[2].dataDeps, (std::vector<std::uint64_t> { 0, 1, 200 }));
        QCOMPARE(decoded.trace.nodes[1].commType, std::int64_t(0));
        QCOMPARE(decoded.trace.nodes[0].commType, std::int64_t(-1));
    }

    void decodesWhatOtherEncodersWrite()
    {
        // Unpacked data_deps, an unknown field (ctrl_deps = 4) and an unknown attribute: read or
        // skipped. An attribute under another value type than Chakra's feeder reads (comm_size as
        // uint64_val) reads as absent, as it does there: the trace would simulate nothing.
        std::string node;
        node += "\x08\x07"; // id 7
        node += "\x20\x03"; // ctrl_deps 3 (ignored)
        node += "\x28\x01\x28\x02"; // data_deps 1, 2 unpacked
        node += "\x18\x07"; // COMM_COLL_NODE
        const std::string size("\x0a\x09"
                               "comm_size"
                               "\x68\x80\x01",
            14); // uint64_val 128
        node += "\x52" + std::string(1, char(size.size())) + size;
        const std::string type("\x0a\x09"
                               "comm_type"
                               "\x48\x02",
            13); // int64_val 2 (ALL_GATHER)
        node += "\x52" + std::string(1, char(type.size())) + type;
        const std::string other("\x0a\x05"
                                "other"
                                "\x19"
                                "12345678",
            16); // a double_val (fixed64)
        node += "\x52" + std::string(1, char(other.size())) + other;
        const std::string metadata("\x0a\x03"
                                   "1.0",
            5);
        const std::string stream
            = std::string(1, char(metadata.size())) + metadata + std::string(1, char(node.size())) + node;
        const ChakraDecodeResult decoded = decodeChakraTrace(stream);
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        QCOMPARE(q(decoded.trace.version), QStringLiteral("1.0"));
        QCOMPARE(int(decoded.trace.nodes.size()), 1);
        QCOMPARE(decoded.trace.nodes[0].id, std::uint64_t(7));
        QCOMPARE(decoded.trace.nodes[0].dataDeps, (std::vector<std::uint64_t> { 1, 2 }));
        QCOMPARE(decoded.trace.nodes[0].commSize, std::uint64_t(0)); // uint64_val: not what the feeder reads
        QCOMPARE(decoded.trace.nodes[0].commType, std::int64_t(2));
        QCOMPARE(decoded.trace.nodes[0].type, ChakraNodeType::CommColl);
    }

    void brokenInput_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        QTest::addRow("empty") << QByteArray() << QStringLiteral("byte 0: empty stream");
        QTest::addRow("truncated length varint")
            << QByteArray::fromHex("ff") << QStringLiteral("byte 0: truncated varint");
        QTest::addRow("length past the end")
            << QByteArray::fromHex("0a0a05") << QStringLiteral("byte 0: message length 10 past the end");
        QTest::addRow("group wire type") << QByteArray::fromHex(
            "020b00") << QStringLiteral("byte 0: the first message does not parse as GlobalMetadata");
        QTest::addRow("varint longer than 10 bytes")
            << QByteArray::fromHex("ffffffffffffffffffffff01") << QStringLiteral("varint longer than 10 bytes");
        QTest::addRow("node with a truncated attribute") << QByteArray::fromHex(
            "00"
            "04"
            "5205"
            "0a09") << QStringLiteral("byte 1: node 0 does not parse as a Chakra Node");
    }
    void brokenInput()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        const ChakraDecodeResult decoded
            = decodeChakraTrace(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        QVERIFY(!decoded.ok());
        QVERIFY2(q(decoded.error).contains(error), decoded.error.c_str());
    }

    void everyTruncationIsSafe()
    {
        const std::string bytes = encodeChakraTrace(sampleTrace());
        // Message boundaries: a cut exactly there is a shorter, valid trace.
        std::vector<std::size_t> boundaries;
        for (std::size_t at = 0; at < bytes.size();) {
            at += 1 + std::size_t(static_cast<unsigned char>(bytes[at])); // every message here is < 128 bytes
            boundaries.push_back(at);
        }
        QCOMPARE(boundaries.back(), bytes.size());
        for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
            const ChakraDecodeResult decoded = decodeChakraTrace(std::string_view(bytes).substr(0, cut));
            const bool boundary = std::find(boundaries.begin(), boundaries.end(), cut) != boundaries.end();
            QVERIFY2(
                decoded.ok() == boundary, qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(q(decoded.error))));
        }
    }

    void garbledInputNeverCrashes()
    {
        const std::string bytes = encodeChakraTrace(sampleTrace());
        std::mt19937 random(7);
        int errors = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string garbled = bytes;
            const int flips = 1 + int(random() % 4);
            for (int i = 0; i < flips; ++i)
                garbled[random() % garbled.size()] = char(random() & 0xFF);
            const ChakraDecodeResult decoded = decodeChakraTrace(garbled);
            errors += decoded.ok() ? 0 : 1;
        }
        QVERIFY(errors > 0); // some garbling must be caught; none may crash
        std::string noise(4096, '\0');
        for (char& c : noise)
            c = char(random() & 0xFF);
        decodeChakraTrace(noise);
    }

    void perDeviceGroups()
    {
        const std::vector<StepNode> steps { computeStep(1.2346e-3),
            commStep(CollectiveKind::AllReduce, { { 0, 1 }, { 2, 3 } }, { 0 }), computeStep(2e-6, { 1 }),
            commStep(CollectiveKind::AllGather, {}, { 2 }),
            commStep(CollectiveKind::ReduceScatter, { { 0, 1 } }, { 3 }) };
        const ChakraExport chakra = buildChakraExport(steps, 4);
        QCOMPARE(int(chakra.traces.size()), 4);
        QCOMPARE(int(chakra.communicatorGroups.size()), 3);
        QVERIFY(chakra.communicatorGroups.at(1) == (std::vector<std::int64_t> { 0, 1 }));
        QVERIFY(chakra.communicatorGroups.at(2) == (std::vector<std::int64_t> { 2, 3 }));
        QVERIFY(chakra.communicatorGroups.at(3) == (std::vector<std::int64_t> { 0, 1, 2, 3 }));
        for (std::size_t rank = 0; rank < 4; ++rank) {
            const ChakraTrace& trace = chakra.traces[rank];
            QCOMPARE(q(trace.version), QStringLiteral("0.0.4"));
            QCOMPARE(int(trace.nodes.size()), 5);
            for (std::size_t i = 0; i < trace.nodes.size(); ++i) {
                QCOMPARE(trace.nodes[i].id, std::uint64_t(i));
                QCOMPARE(trace.nodes[i].dataDeps,
                    (std::vector<std::uint64_t>(steps[i].dependencies.begin(), steps[i].dependencies.end())));
                QVERIFY(!trace.nodes[i].isCpuOp);
            }
            QCOMPARE(trace.nodes[0].type, ChakraNodeType::Comp);
            QCOMPARE(trace.nodes[0].durationMicros, std::uint64_t(1235)); // 1234.6 µs rounded
            QCOMPARE(trace.nodes[0].numOps, std::uint64_t(2'000'000'000));
            QCOMPARE(trace.nodes[2].durationMicros, std::uint64_t(2));
            QCOMPARE(trace.nodes[1].type, ChakraNodeType::CommColl);
            QCOMPARE(trace.nodes[1].commType, std::int64_t(ChakraCollective::AllReduce));
            QCOMPARE(trace.nodes[1].commSize, std::uint64_t(1000));
            QCOMPARE(trace.nodes[3].commType, std::int64_t(ChakraCollective::AllGather));
            QCOMPARE(trace.nodes[4].commType, std::int64_t(ChakraCollective::ReduceScatter));
            QCOMPARE(q(trace.nodes[3].pgName), QStringLiteral("3")); // no groups: all devices
        }
        QCOMPARE(q(chakra.traces[0].nodes[1].pgName), QStringLiteral("1"));
        QCOMPARE(q(chakra.traces[1].nodes[1].pgName), QStringLiteral("1"));
        QCOMPARE(q(chakra.traces[2].nodes[1].pgName), QStringLiteral("2"));
        QCOMPARE(q(chakra.traces[3].nodes[1].pgName), QStringLiteral("2"));
        QCOMPARE(q(chakra.traces[0].nodes[4].pgName), QStringLiteral("1"));
        QCOMPARE(q(chakra.traces[2].nodes[4].pgName), QStringLiteral("")); // device 2 is in no group
    }

    void permuteAndBroadcastMapping()
    {
        const std::vector<StepNode> steps { commStep(CollectiveKind::CollectivePermute, { { 0, 1 }, { 1, 2 } }, {}),
            commStep(CollectiveKind::CollectiveBroadcast, { { 0, 1, 2 } }, { 0 }),
            commStep(CollectiveKind::AllToAll, { { 0, 1, 2 } }, { 1 }) };
        const ChakraExport chakra = buildChakraExport(steps, 3);
        QCOMPARE(chakra.traces[0].nodes[0].commType, std::int64_t(ChakraCollective::AllToAll));
        QCOMPARE(chakra.traces[0].nodes[1].commType, std::int64_t(ChakraCollective::Broadcast));
        QCOMPARE(chakra.traces[0].nodes[2].commType, std::int64_t(ChakraCollective::AllToAll));
        // the permute's pairs involve devices 0, 1, 2: the same set as the broadcast's group
        QCOMPARE(int(chakra.communicatorGroups.size()), 1);
        QCOMPARE(q(chakra.traces[2].nodes[0].pgName), QStringLiteral("1"));
    }

    void noCollectives()
    {
        const ChakraExport chakra = buildChakraExport({ computeStep(1e-3) }, 2);
        QCOMPARE(int(chakra.traces.size()), 2);
        QCOMPARE(q(communicatorGroupsToJson(chakra)), QStringLiteral("{\n  \"1\": [0, 1]\n}\n"));
        QVERIFY(buildChakraExport({}, 0).traces.empty());
    }

    void communicatorGroupJson()
    {
        const ChakraExport chakra
            = buildChakraExport({ commStep(CollectiveKind::AllReduce, { { 0, 1 }, { 2, 3 } }, {}),
                                    commStep(CollectiveKind::AllReduce, { { 0, 2 }, { 1, 3 } }, { 0 }) },
                4);
        const QJsonDocument document = QJsonDocument::fromJson(bytesOf(communicatorGroupsToJson(chakra)));
        QVERIFY(document.isObject());
        const QJsonObject groups = document.object();
        QCOMPARE(groups.size(), 4);
        QCOMPARE(groups.value(QStringLiteral("1")).toArray(), (QJsonArray { 0, 1 }));
        QCOMPARE(groups.value(QStringLiteral("2")).toArray(), (QJsonArray { 2, 3 }));
        QCOMPARE(groups.value(QStringLiteral("3")).toArray(), (QJsonArray { 0, 2 }));
        QCOMPARE(groups.value(QStringLiteral("4")).toArray(), (QJsonArray { 1, 3 }));
        QCOMPARE(q(chakra.traces[1].nodes[1].pgName), QStringLiteral("4"));
    }

    void writeAndReadBack()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<StepNode> steps { computeStep(1e-3),
            commStep(CollectiveKind::AllReduce, { { 0, 1 }, { 2, 3 } }, { 0 }) };
        const ChakraExport chakra = buildChakraExport(steps, 4);
        const QString target = dir.filePath(QStringLiteral("nested/et"));
        const std::string error = writeChakraExport(chakra, target.toStdString(), "llama");
        QVERIFY2(error.empty(), error.c_str());
        for (int rank = 0; rank < 4; ++rank) {
            QFile file(QDir(target).filePath(QStringLiteral("llama.%1.et").arg(rank)));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            const QByteArray bytes = file.readAll();
            const ChakraDecodeResult decoded
                = decodeChakraTrace(std::string_view(bytes.constData(), std::size_t(bytes.size())));
            QVERIFY2(decoded.ok(), decoded.error.c_str());
            QVERIFY(equal(decoded.trace, chakra.traces[std::size_t(rank)]));
        }
        QFile groups(QDir(target).filePath(QStringLiteral("comm_group.json")));
        QVERIFY(groups.open(QIODevice::ReadOnly));
        QCOMPARE(groups.readAll(), bytesOf(communicatorGroupsToJson(chakra)));
        QVERIFY(!QFile::exists(QDir(target).filePath(QStringLiteral("llama.4.et"))));
    }

    void writeErrorNamesThePath()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("a-file"));
        QFile blocker(file);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const std::string error = writeChakraExport(
            buildChakraExport({ computeStep(1e-3) }, 1), QString(file + QStringLiteral("/sub")).toStdString());
        QVERIFY(!error.empty());
        QVERIFY2(q(error).contains(file), error.c_str());
    }

    // A while of 10 iterations around a 4 MiB all_reduce: 10 collective nodes of 4 MiB each (the
    // simulator sees 40 MiB, as the device sends), chained; the loop's compute carries 10 iterations.
    void loopCollectivesRunPerIteration()
    {

        const auto read = elk::hlo::readHloText(kLoopAllReduceModule, "loop.mlir");
        QVERIFY(read.ok());
        elk::hlo::HloRunOptions options;
        elk::NullRunControl control;
        const auto run = elk::hlo::runHloModule(read.modules.front(), options, nullptr, control);
        QVERIFY2(run.ok(), run.errors.empty() ? "stopped" : run.errors.front().c_str());
        const ChakraExport chakra = buildChakraExport(run.stepNodes, 4);
        QCOMPARE(int(chakra.traces.size()), 4);
        const ChakraTrace& trace = chakra.traces[0];
        double commBytes = 0;
        int collectives = 0;
        double flops = 0;
        std::uint64_t previous = 0;
        for (const ChakraNode& node : trace.nodes) {
            if (node.type == ChakraNodeType::CommColl) {
                QCOMPARE(node.commSize, std::uint64_t(4) << 20);
                if (collectives > 0)
                    QCOMPARE(node.dataDeps, (std::vector<std::uint64_t> { previous }));
                previous = node.id;
                commBytes += double(node.commSize);
                ++collectives;
            } else {
                flops += double(node.numOps);
            }
        }
        QCOMPARE(collectives, 10);
        QCOMPARE(commBytes, 40.0 * (1 << 20));
        QCOMPARE(flops, run.totalFlops);
        // Ids stay unique and every dependency points to an earlier node.
        for (std::size_t i = 0; i < trace.nodes.size(); ++i) {
            QCOMPARE(trace.nodes[i].id, std::uint64_t(i));
            for (std::uint64_t dep : trace.nodes[i].dataDeps)
                QVERIFY(dep < trace.nodes[i].id);
        }
        const ChakraDecodeResult decoded = decodeChakraTrace(encodeChakraTrace(trace));
        QVERIFY2(decoded.ok(), decoded.error.c_str());
        QCOMPARE(decoded.trace.nodes.size(), trace.nodes.size());
    }
};

QTEST_GUILESS_MAIN(TestHloChakra)
#include "tst_hlo_chakra.moc"
