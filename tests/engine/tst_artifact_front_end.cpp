// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The artifact's model front end (engine/import/artifact_front_end.h, elk-reference.md §1.2):
// small fixtures of our own for each rule and for bad files, then the artifact's own model files
// (../shared/corpus/einstein, skipped when absent) against the derived table of §1.4.
#include "engine/import/artifact_front_end.h"

#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace elk::import::artifact;

namespace {

using Tensors = std::vector<std::vector<std::vector<int>>>;
using Dims = std::vector<std::int64_t>;

const std::filesystem::path kCorpus = ELK_SHARED_DIR "/corpus/einstein/";
constexpr double kBytesPerElement = 2.0; // the artifact charges fp16 whatever the file declares
constexpr double kGiB = double(1ull << 30);

/// One kernel text as NNFusion writes it: ` - einstein_v2(" <expr> ", input_dict={ ... }) `.
std::string kernel(const std::string& expr, const std::vector<std::vector<int>>& shapes)
{
    std::string dict;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        std::string shape;
        for (const int d : shapes[i])
            shape += (shape.empty() ? "" : ", ") + std::to_string(d);
        dict += std::string(i ? " , " : " ") + "\"input" + std::to_string(i)
            + "\" : { \"dtype\" : \"float32\", \"shape\" : [" + shape + "]}";
    }
    return " - einstein_v2(\" " + expr + " \", input_dict={" + dict + " }) ";
}

std::string node(int id, const std::string& text, const std::string& type, const std::vector<int>& inputs)
{
    std::string ins;
    for (const int x : inputs)
        ins += (ins.empty() ? "[" : ", [") + std::to_string(x) + ", 0]";
    std::string quoted;
    for (const char c : text)
        quoted += c == '"' ? std::string("\\\"") : std::string(1, c);
    return "[" + std::to_string(id) + ", \"" + quoted + "\", \"" + type + "\", [" + ins + "]]";
}

std::string join(const std::vector<std::string>& nodes)
{
    std::string out = "[";
    for (std::size_t i = 0; i < nodes.size(); ++i)
        out += (i ? ",\n" : "\n") + nodes[i];
    return out + "\n]";
}

/// A decode-step fragment: embedding gather, RMS-style scale, Dot, a chain of reshapes, a residual
/// Add, a fused (Concat) weight, a Slice, a KV BatchMatMul and a division by a broadcast scalar.
/// External ids: 0/8 gather operands, 1 weight, 2 scale vector, 4/5 weight halves, 6 KV, 7 scalar.
std::string decodeFixture()
{
    const std::string ew3 = "output0[N0, N1, N2] = input0[N0, N1, N2] * input1[N0, N1, N2];";
    return join({
        node(9, kernel("output0[N0, N1, N2] = input0[G3, N2] g input1[N0, N1];", { { 1000, 64 }, { 99, 66 } }),
            "GatherV2", { 8, 0 }),
        node(10, kernel("output0[N1, N0] = input0[N0, N1] ;", { { 64, 64 } }), "Reshape", { 1 }),
        node(11, kernel("output0[N0, N1, N2] = input0[N2] where N0 in 99, N1 in 66;", { { 64 } }), "Broadcast", { 2 }),
        node(12, kernel(ew3, { { 99, 66, 64 }, { 99, 66, 64 } }), "Multiply", { 9, 11 }),
        node(13, kernel("output0[S0, N, M] +=! input0[S0, N, K] * input1[K, M];", { { 99, 66, 64 }, { 64, 64 } }),
            "Dot", { 12, 10 }),
        node(14, kernel("output0[N0, N1, N2] = input0[N0, N1, N2] ;", { { 99, 66, 64 } }), "Reshape", { 13 }),
        node(15, kernel("output0[N0, N1, N2] = input0[N0, N1, N2].cast(`float32`);", { { 99, 66, 64 } }), "Convert",
            { 14 }),
        node(16, kernel("output0[N0, N1, N2] = input0[N0, N1, N2].call(`sqrt`);", { { 99, 66, 64 } }), "Sqrt", { 15 }),
        node(17,
            kernel(
                "output0[N0, N1, N2] = input0[N0, N1, N2] + input1[N0, N1, N2];", { { 99, 66, 64 }, { 99, 66, 64 } }),
            "Add", { 16, 12 }),
        node(18,
            kernel("output0[N0, N1] = input0[N0, N1 - 0].when(N1 < 64, input1[N0, N1 - 64]) where N1 in 128;",
                { { 64, 64 }, { 64, 64 } }),
            "Concat", { 4, 5 }),
        node(19, kernel("output0[S0, N, M] +=! input0[S0, N, K] * input1[K, M];", { { 99, 66, 64 }, { 64, 128 } }),
            "Dot", { 17, 18 }),
        node(20,
            kernel("output0[N0, N1, N2] = input0[N0 + 0, N1 + 0, N2 + 64] where N0 in 99 , N1 in 66 , N2 in 64;",
                { { 99, 66, 128 } }),
            "Slice", { 19 }),
        node(21,
            kernel("output0[B0, N, M] +=! input0[B0, N, K] * input1[B0, K, M];", { { 396, 66, 16 }, { 396, 16, 66 } }),
            "BatchMatMul", { 20, 6 }),
        node(22, "", "Result", { 21 }),
        node(25, kernel("output0[N0, N1, N2] = input0[0] where N0 in 396, N1 in 66, N2 in 66;", { { 1 } }), "Broadcast",
            { 7 }),
        node(26,
            kernel(
                "output0[N0, N1, N2] = input0[N0, N1, N2] / input1[N0, N1, N2];", { { 396, 66, 66 }, { 396, 66, 66 } }),
            "Divide", { 21, 25 }),
    });
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

struct Summary {
    std::map<OpType, int> byType;
    std::map<std::pair<Dims, OpType>, int> shapes;
    std::size_t distinct = 0;
    double hbmGiB = 0; ///< every off-chip input, 2 bytes per element
    double dotWeightGiB = 0; ///< off-chip weight operands (input1) of Dot ops
    double kvGiB = 0; ///< off-chip inputs of KV BatchMatMuls
};

Summary summarize(const std::vector<Op>& ops)
{
    Summary s;
    std::set<std::tuple<Dims, int, Tensors, std::vector<bool>>> distinct;
    for (const Op& op : ops) {
        ++s.byType[op.type];
        ++s.shapes[{ op.dims, op.type }];
        distinct.emplace(op.dims, int(op.type), op.tensors, op.onchip);
        for (std::size_t in = 0; in < op.onchip.size(); ++in) {
            if (op.onchip[in])
                continue;
            const double gib = double(tensorElements(op, in + 1)) * kBytesPerElement / kGiB;
            s.hbmGiB += gib;
            s.dotWeightGiB += op.nodeType == "Dot" && in == 1 ? gib : 0;
            s.kvGiB += op.kv ? gib : 0;
        }
    }
    s.distinct = distinct.size();
    return s;
}

ParseResult parseCorpus(const std::string& model, std::int64_t capacityMB)
{
    ParseOptions options;
    options.batch = 32;
    options.seq = 1;
    options.kvLen = 2048;
    options.capacityMB = capacityMB;
    options.modelName = model;
    return parseModel(readFile(kCorpus / (model + ".json")), options);
}

QStringList words(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* w : list)
        out << QString::fromUtf8(w);
    return out;
}

/// §1.4 figures are printed with two decimals.
bool nearHundredth(double got, double want)
{
    return std::abs(got - want) <= 0.005 + 1e-9;
}

} // namespace

class TestArtifactFrontEnd : public QObject {
    Q_OBJECT

private slots:
    void decodeFragment();
    void quirksOff();
    void issue42_reusedIdUserReadsTheReplacementTwice();
    void capacitySplit_data();
    void capacitySplit();
    void trainingKeepsSequenceAndGather();
    void badInput_data();
    void badInput();
    void paperDefaults();
    void corpusTable_data();
    void corpusTable();
    void llama13Details();
};

void TestArtifactFrontEnd::decodeFragment()
{
    ParseOptions options;
    options.batch = 2;
    options.seq = 1;
    options.kvLen = 8;
    const ParseResult r = parseModel(decodeFixture(), options);
    QVERIFY2(r.ok(), r.error.c_str());
    // GatherV2 dropped (decode), Result/Reshape/Convert/Broadcast/Concat are no ops.
    QCOMPARE(r.ops.size(), std::size_t(8));
    const std::vector<std::string> names = { "Op_0_Multiply", "Op_1_Dot", "Op_2_Sqrt", "Op_3_Add", "Op_4_Dot",
        "Op_5_Slice", "Op_6_BatchMatMul", "Op_7_Divide" };
    for (std::size_t i = 0; i < names.size(); ++i)
        QCOMPARE(r.ops[i].name, names[i]);

    const Op& scale = r.ops[0];
    QCOMPARE(scale.dims, (Dims { 2, 1, 64 })); // 99 → batch, 66 → seq 1
    QCOMPARE(scale.tensors,
        (Tensors { { { 0 }, { 1 }, { 2 } }, { { 0 }, { 1 }, { 2 } }, { { 2 } } })); // [64] scale stays [64]
    QCOMPARE(
        scale.onchip, (std::vector<bool> { true, false })); // the gather ran just before (flags precede its removal)
    QCOMPARE(scale.inputIds, (std::vector<std::int64_t> { 9, 2 })); // the broadcast's source
    QCOMPARE(scale.type, OpType::Element);

    const Op& dot = r.ops[1];
    QCOMPARE(dot.dims, (Dims { 2, 64, 64 })); // [B, 1, out, in] less its size-1 dim
    QCOMPARE(dot.tensors, (Tensors { { { 0 }, { 1 } }, { { 0 }, { 2 } }, { { 2 }, { 1 } } }));
    QCOMPARE(dot.onchip, (std::vector<bool> { true, false }));
    QCOMPARE(dot.inputIds, (std::vector<std::int64_t> { 12, 1 })); // the transposing Reshape spliced out
    QCOMPARE(dot.type, OpType::MatMul);
    QCOMPARE(tensorElements(dot, 2), std::int64_t(64 * 64));

    QCOMPARE(r.ops[2].inputIds, (std::vector<std::int64_t> { 13 })); // through Reshape → Convert
    QCOMPARE(r.ops[2].onchip, (std::vector<bool> { true }));
    QCOMPARE(r.ops[2].type, OpType::Unary);
    // The residual 12 was made two ops earlier: reloaded from HBM.
    QCOMPARE(r.ops[3].onchip, (std::vector<bool> { true, false }));

    const Op& fused = r.ops[4];
    QCOMPARE(fused.inputIds, (std::vector<std::int64_t> { 17, 18 })); // Concat id: no op, an external tensor
    QCOMPARE(fused.onchip, (std::vector<bool> { true, false }));
    QCOMPARE(fused.dims, (Dims { 2, 128, 64 }));

    const Op& slice = r.ops[5];
    QCOMPARE(slice.dims, (Dims { 2, 1, 128 })); // "N2 + 64": N2 takes the input's extent
    QCOMPARE(slice.type, OpType::Slice);
    QCOMPARE(slice.onchip, (std::vector<bool> { true }));

    const Op& kv = r.ops[6];
    QVERIFY(kv.kv);
    QCOMPARE(kv.dims, (Dims { 8, 1, 8, 16 })); // 396 = 4·99 → 4·batch; first 66 → 1, second → kvLen
    QCOMPARE(kv.tensors, (Tensors { { { 0 }, { 1 }, { 2 } }, { { 0 }, { 1 }, { 3 } }, { { 0 }, { 3 }, { 2 } } }));
    QCOMPARE(kv.onchip, (std::vector<bool> { true, false }));

    const Op& scores = r.ops[7];
    QVERIFY(!scores.kv);
    QCOMPARE(scores.dims, (Dims { 8, 1, 1 })); // not a KV op: both 66 → seq 1
    QCOMPARE(scores.tensors.size(), std::size_t(2)); // the scalar divisor is deleted ...
    QCOMPARE(scores.onchip, (std::vector<bool> { true })); // ... with its flag
    QCOMPARE(scores.sourceNode, std::int64_t(26));
}

/// The parity ablation's front-end switches: earlier activations stay on chip, the gather is kept.
void TestArtifactFrontEnd::quirksOff()
{
    ParseOptions options;
    options.batch = 2;
    options.seq = 1;
    options.kvLen = 8;
    options.onchipOnlyFromPrevious = false;
    ParseResult r = parseModel(decodeFixture(), options);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.ops.size(), std::size_t(8));
    QCOMPARE(r.ops[3].onchip, (std::vector<bool> { true, true })); // the residual 12 stays on chip
    QCOMPARE(r.ops[1].onchip, (std::vector<bool> { true, false })); // weights still load
    QCOMPARE(r.ops[6].onchip, (std::vector<bool> { true, false })); // and the KV cache
    options.onchipOnlyFromPrevious = true;
    options.dropGatherV2 = false;
    r = parseModel(decodeFixture(), options);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.ops.size(), std::size_t(9));
    QCOMPARE(r.ops[0].nodeType, std::string("GatherV2"));
    QCOMPARE(r.ops[0].type, OpType::Gather);
}

/// llama2-70 and gemma2 list repeated layers under the same ids. The user list of an id holds one entry
/// per read, so a user listed twice gets a spliced node's inputs twice, and it keeps only as many
/// inputs as its node lists: here the second copy of node 7 reads 100 twice and loses 101. The earlier
/// copy is never spliced and still reads the Reshape id. This is what gives §1.4's 47 distinct
/// expressions on those files (44 with one entry per user).
void TestArtifactFrontEnd::issue42_reusedIdUserReadsTheReplacementTwice()
{
    const std::string add = "output0[N0, N1] = input0[N0, N1] + input1[N0, N1];";
    const std::string text = join({
        node(5, kernel("output0[N0, N1] = input0[N0, N1] ;", { { 99, 64 } }), "Reshape", { 100 }),
        node(7, kernel(add, { { 99, 64 }, { 99, 64 } }), "Add", { 5, 101 }),
        node(7, kernel(add, { { 99, 64 }, { 99, 64 } }), "Add", { 5, 101 }),
    });
    const ParseResult r = parseModel(text, ParseOptions {});
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.ops.size(), std::size_t(2));
    QCOMPARE(r.ops[0].inputIds, (std::vector<std::int64_t> { 5, 101 }));
    QCOMPARE(r.ops[1].inputIds, (std::vector<std::int64_t> { 100, 100 }));
    QCOMPARE(r.ops[1].onchip, (std::vector<bool> { false, false })); // neither is node 7's output or input
    QCOMPARE(r.ops[1].tensors, r.ops[0].tensors); // the index lists come from the kernel text
}

void TestArtifactFrontEnd::capacitySplit_data()
{
    QTest::addColumn<qint64>("capacityMB");
    QTest::addColumn<qint64>("kvLen");
    QTest::addColumn<int>("kvCopies");
    QTest::addColumn<qint64>("kvExtent");
    QTest::addColumn<int>("dotCopies");
    QTest::addColumn<qint64>("dotOut");
    // CAP = MB · 2^19 elements. Dot [1, 2048, 1024] (two largest: 2^21); KV BMM [8, 1, kv, 16].
    QTest::newRow("none") << qint64(0) << qint64(8192) << 1 << qint64(8192) << 1 << qint64(2048);
    QTest::newRow("large") << qint64(4) << qint64(8192) << 1 << qint64(8192) << 1 << qint64(2048);
    QTest::newRow("1 MB") << qint64(1) << qint64(8192) << 2 << qint64(4096) << 4 << qint64(512);
    QTest::newRow("1 MB, long KV") << qint64(1) << qint64(32768) << 8 << qint64(4096) << 4 << qint64(512);
}

void TestArtifactFrontEnd::capacitySplit()
{
    QFETCH(qint64, capacityMB);
    QFETCH(qint64, kvLen);
    QFETCH(int, kvCopies);
    QFETCH(qint64, kvExtent);
    QFETCH(int, dotCopies);
    QFETCH(qint64, dotOut);
    const std::string text = join({
        node(1, kernel("output0[S0, N, M] +=! input0[S0, N, K] * input1[K, M];", { { 99, 66, 1024 }, { 1024, 2048 } }),
            "Dot", { 100, 101 }),
        node(2,
            kernel("output0[B0, N, M] +=! input0[B0, N, K] * input1[B0, K, M];", { { 396, 66, 16 }, { 396, 16, 66 } }),
            "BatchMatMul", { 1, 102 }),
        node(3, kernel("output0[N0, N1, N2] = input0[N0, N1, N2].call(`sqrt`);", { { 396, 66, 66 } }), "Sqrt", { 2 }),
    });
    ParseOptions options;
    options.batch = 2;
    options.kvLen = kvLen;
    options.capacityMB = capacityMB;
    const ParseResult r = parseModel(text, options);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(int(r.ops.size()), dotCopies + kvCopies + 1);
    for (int i = 0; i < dotCopies; ++i) { // the duplicates sit right after the op, identical
        QCOMPARE(r.ops[std::size_t(i)].nodeType, std::string("Dot"));
        QCOMPARE(r.ops[std::size_t(i)].dims, (Dims { 2, dotOut, 1024 }));
        QCOMPARE(r.ops[std::size_t(i)].onchip, (std::vector<bool> { false, false }));
    }
    for (int i = dotCopies; i < dotCopies + kvCopies; ++i)
        QCOMPARE(r.ops[std::size_t(i)].dims, (Dims { 8, 1, kvExtent, 16 }));
    QCOMPARE(r.ops.back().nodeType, std::string("Sqrt")); // one input: never split
    QCOMPARE(r.ops.back().name, "Op_" + std::to_string(r.ops.size() - 1) + "_Sqrt");
}

void TestArtifactFrontEnd::trainingKeepsSequenceAndGather()
{
    ParseOptions options;
    options.batch = 2;
    options.seq = 16; // training: nothing is a KV op, 66 → seq everywhere, GatherV2 kept
    options.kvLen = 8;
    options.modelName = "bert";
    const ParseResult r = parseModel(decodeFixture(), options);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.ops.size(), std::size_t(9));
    QCOMPARE(r.ops[0].type, OpType::Gather);
    QCOMPARE(r.ops[0].dims, (Dims { 2, 16, 64, 1000 }));
    QCOMPARE(r.ops[2].dims, (Dims { 2, 16, 64, 64 })); // no size-1 dim left to remove
    QVERIFY(!r.ops[7].kv);
    QCOMPARE(r.ops[7].dims, (Dims { 8, 16, 16, 16 }));
    options.modelName = "llama2-test"; // the LLM files drop the gather even in training
    QCOMPARE(parseModel(decodeFixture(), options).ops.size(), std::size_t(8));
}

void TestArtifactFrontEnd::badInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("mentions");
    const std::string add = "output0[N0] = input0[N0] + input1[N0];";
    QTest::newRow("not JSON") << "[[1, \"x\", "
                              << "" << words({ "not JSON" });
    QTest::newRow("not an array") << "{\"nodes\": []}"
                                  << "" << words({ "JSON array" });
    QTest::newRow("3-array") << "[[5, \"\", \"Add\"]]"
                             << "" << words({ "node 5", "4-element" });
    QTest::newRow("scalar node") << "[[1, \"\", \"Result\", []], 7]"
                                 << "" << words({ "entry (1)", "4-element" });
    QTest::newRow("bad input pair") << "[[3, \"\", \"Relu\", [5]]]"
                                    << "" << words({ "node 3", "input 0" });
    QTest::newRow("no shape") << QString::fromStdString(join({ node(7,
        " - einstein_v2(\" " + add
            + " \", input_dict={ \"input0\" : { \"dtype\" : \"float32\"} , \"input1\" : { \"dtype\" : "
              "\"float32\", \"shape\" : [4]} }) ",
        "Add", { 1, 2 }) })) << ""
                              << words({ "node 7", "input0", "shape" });
    QTest::newRow("not einstein") << QString::fromStdString(join({ node(8, "garbage", "Add", { 1, 2 }) })) << ""
                                  << words({ "node 8", "einstein_v2" });
    QTest::newRow("rank mismatch") << QString::fromStdString(
        join({ node(4, kernel(add, { { 4, 2 }, { 4 } }), "Add", { 1, 2 }) }))
                                   << "" << words({ "node 4", "input0", "2 dims" });
    QTest::newRow("input count") << QString::fromStdString(
        join({ node(6, kernel(add, { { 4 }, { 4 } }), "Add", { 1 }) }))
                                 << "" << words({ "node 6", "2 inputs" });
    QTest::newRow("unknown type") << QString::fromStdString(
        join({ node(9, kernel(add, { { 4 }, { 4 } }), "Pad", { 1, 2 }) }))
                                  << "" << words({ "node 9", "Pad", "not supported" });
    QTest::newRow("no extent") << QString::fromStdString(
        join({ node(2, kernel("output0[N0, N9] = input0[N0];", { { 4 } }), "Relu", { 1 }) }))
                               << "" << words({ "node 2", "N9", "extent" });
    std::vector<std::string> doubling; // each Reshape reads the one before twice: 2^n entries once spliced
    for (int id = 1; id <= 40; ++id)
        doubling.push_back(node(id, kernel("output0[N0] = input0[N0] ;", { { 4 } }), "Reshape", { id - 1, id - 1 }));
    QTest::newRow("splice blow-up") << QString::fromStdString(join(doubling)) << ""
                                    << words({ "Reshape", "more than 10000000" });
    QTest::newRow("retnet") << "[]"
                            << "retnet" << words({ "retnet", "not supported" });
}

void TestArtifactFrontEnd::badInput()
{
    QFETCH(QString, text);
    QFETCH(QString, model);
    QFETCH(QStringList, mentions);
    ParseOptions options;
    options.modelName = model.toStdString();
    const ParseResult r = parseModel(text.toStdString(), options);
    QVERIFY(!r.ok());
    QVERIFY(r.ops.empty());
    for (const QString& word : mentions)
        QVERIFY2(QString::fromStdString(r.error).contains(word), (word.toStdString() + " not in: " + r.error).c_str());
}

void TestArtifactFrontEnd::paperDefaults()
{
    QCOMPARE(paperModelDefaults("llama2-13")->layers, 40);
    QCOMPARE(paperModelDefaults("llama2-70")->layers, 80);
    QCOMPARE(paperModelDefaults("opt-30")->splitFactor, 4);
    QCOMPARE(paperModelDefaults("gemma2")->splitFactor, 2);
    QCOMPARE(paperModelDefaults("gemma2")->layers, 46);
    QCOMPARE(paperModelDefaults("vit-huge")->layers, 32);
    QVERIFY(!paperModelDefaults("bert").has_value());
}

void TestArtifactFrontEnd::corpusTable_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("split");
    QTest::addColumn<int>("ops");
    QTest::addColumn<int>("matmuls");
    QTest::addColumn<int>("distinct");
    QTest::addColumn<double>("hbmGiB");
    QTest::addColumn<double>("dotWeightGiB"); ///< < 0: not listed
    QTest::addColumn<double>("kvGiB");
    // elk-reference.md §1.4, batch 32, seq 1, kv 2048, capacity 5888 // split MB.
    QTest::newRow("llama2-13") << "llama2-13" << 3 << 1928 << 241 << 34 << 74.11 << 23.94 << 50.00;
    QTest::newRow("llama2-70") << "llama2-70" << 3 << 3848 << 481 << 47 << 129.81 << 109.24 << 20.00;
    QTest::newRow("opt-30") << "opt-30" << 4 << 2269 << 289 << 34 << 140.05 << 55.80 << 84.00;
    QTest::newRow("gemma2") << "gemma2" << 2 << 2216 << 277 << 47 << 58.81 << 35.55 << 23.00;
    QTest::newRow("bert") << "bert" << 3 << 1075 << 145 << 30 << 6.57 << 0.56 << 6.00;
    QTest::newRow("llama2-13-layers") << "llama2-13-layers" << 3 << 169 << 22 << 35 << 6.29 << 2.52 << 3.75;
    QTest::newRow("vit") << "vit" << 3 << 581 << 73 << 30 << 0.51 << -1.0 << -1.0;
    QTest::newRow("resnet") << "resnet" << 3 << 70 << 1 << 30 << 0.10 << -1.0 << -1.0;
}

void TestArtifactFrontEnd::corpusTable()
{
    QFETCH(QString, model);
    QFETCH(int, split);
    QFETCH(int, ops);
    QFETCH(int, matmuls);
    QFETCH(int, distinct);
    QFETCH(double, hbmGiB);
    QFETCH(double, dotWeightGiB);
    QFETCH(double, kvGiB);
    if (!std::filesystem::exists(kCorpus / (model.toStdString() + ".json")))
        QSKIP("the einstein corpus (../shared/corpus/einstein) is not present");
    const ParseResult r = parseCorpus(model.toStdString(), 5888 / split);
    QVERIFY2(r.ok(), r.error.c_str());
    const Summary s = summarize(r.ops);
    qInfo("%s: %zu ops, %d matmuls, %zu distinct, HBM %.4f GiB (Dot weights %.4f, KV %.4f)", qPrintable(model),
        r.ops.size(), s.byType.count(OpType::MatMul) ? s.byType.at(OpType::MatMul) : 0, s.distinct, s.hbmGiB,
        s.dotWeightGiB, s.kvGiB);
    QCOMPARE(int(r.ops.size()), ops);
    QCOMPARE(s.byType.at(OpType::MatMul), matmuls);
    QVERIFY2(nearHundredth(s.hbmGiB, hbmGiB), qPrintable(QString::number(s.hbmGiB, 'f', 4)));
    if (dotWeightGiB >= 0)
        QVERIFY2(nearHundredth(s.dotWeightGiB, dotWeightGiB), qPrintable(QString::number(s.dotWeightGiB, 'f', 4)));
    if (kvGiB >= 0)
        QVERIFY2(nearHundredth(s.kvGiB, kvGiB), qPrintable(QString::number(s.kvGiB, 'f', 4)));
    QCOMPARE(int(s.distinct), distinct);
}

void TestArtifactFrontEnd::llama13Details()
{
    if (!std::filesystem::exists(kCorpus / "llama2-13.json"))
        QSKIP("the einstein corpus (../shared/corpus/einstein) is not present");
    const ParseResult r = parseCorpus("llama2-13", 5888 / 3);
    QVERIFY2(r.ok(), r.error.c_str());
    const Summary s = summarize(r.ops);
    QCOMPARE(s.byType.at(OpType::Element), 1045);
    QCOMPARE(s.byType.at(OpType::Unary), 201);
    QCOMPARE(s.byType.at(OpType::Reduce), 81);
    QCOMPARE(s.byType.at(OpType::Slice), 360);
    QCOMPARE(s.byType.size(), std::size_t(5));
    // Per-layer matmul shapes (§1.4), 40 layers each, and the LM head once.
    const std::vector<std::pair<Dims, int>> shapes = {
        { { 32, 15360, 5120 }, 40 }, // QKV (fused)
        { { 32, 40, 1, 2048, 128 }, 40 }, // QK^T
        { { 32, 40, 1, 128, 2048 }, 40 }, // S·V
        { { 32, 5120, 5120 }, 40 }, // out-proj
        { { 32, 27648, 5120 }, 40 }, // gate+up (fused)
        { { 32, 5120, 13824 }, 40 }, // down
        { { 32, 32000, 5120 }, 1 }, // LM head
    };
    int listed = 0;
    for (const auto& [dims, count] : shapes) {
        const auto it = s.shapes.find({ dims, OpType::MatMul });
        QVERIFY(it != s.shapes.end());
        QCOMPARE(it->second, count);
        listed += count;
    }
    QCOMPARE(listed, s.byType.at(OpType::MatMul));

    // 1472 cores: 1472 // 3 MB is too small for the KV BatchMatMuls, each split in two.
    const ParseResult small = parseCorpus("llama2-13", 1472 / 3);
    QVERIFY2(small.ok(), small.error.c_str());
    const Summary t = summarize(small.ops);
    QCOMPARE(small.ops.size(), std::size_t(2008));
    QCOMPARE(t.byType.at(OpType::MatMul), 321);
    QCOMPARE(t.shapes.at({ Dims { 32, 40, 1, 1024, 128 }, OpType::MatMul }), 80);
    QCOMPARE(t.shapes.at({ Dims { 32, 40, 1, 128, 1024 }, OpType::MatMul }), 80);
    QVERIFY(nearHundredth(t.hbmGiB, 74.11)); // the halves together read what the whole did
}

QTEST_GUILESS_MAIN(TestArtifactFrontEnd)
#include "tst_artifact_front_end.moc"
