// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QDir>
#include <QFile>
#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "engine/chip/presets.h"
#include "engine/core/version.h"
#include "engine/run/run_compile.h"
#include "engine/run/run_spec.h"

using namespace Qt::Literals::StringLiterals;

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

/// Runs the real `elk` binary (path in ELK_CLI) in a temporary folder holding small chip and model files.
class TestCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    CliResult runElk(const QStringList& args)
    {
        QProcess process;
        process.setWorkingDirectory(m_dir.path());
        process.start(qEnvironmentVariable("ELK_CLI"), args);
        CliResult result;
        if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
            return result;
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    void writeFile(const QString& name, const QByteArray& bytes)
    {
        QFile file(m_dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }

    /// The teaching preset's JSON with one text replacement (which must apply).
    QByteArray teachingChipWith(const QByteArray& from, const QByteArray& to)
    {
        QByteArray json = QByteArray::fromStdString(elk::chip::builtinPresetJson("teaching-mesh-4x4").value());
        if (!from.isEmpty() && !json.contains(from))
            return {};
        return json.replace(from, to);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("ELK_CLI").isEmpty(), "ELK_CLI must name the elk binary (set by ctest)");
        QVERIFY(m_dir.isValid());
        const QByteArray good = teachingChipWith({}, {});
        QVERIFY(!good.isEmpty());
        writeFile(u"good.json"_s, good);
        const QByteArray zeroCores = teachingChipWith("\"coresPerChip\": 16", "\"coresPerChip\": 0");
        QVERIFY(!zeroCores.isEmpty());
        writeFile(u"zero-cores.json"_s, zeroCores);
        const QByteArray meshMismatch = teachingChipWith("\"meshWidth\": 4", "\"meshWidth\": 5");
        QVERIFY(!meshMismatch.isEmpty());
        writeFile(u"mesh-mismatch.json"_s, meshMismatch);
        const QByteArray unknownKey = teachingChipWith("\"chips\": 1,", "\"chips\": 1,\n  \"bogus\": 3,");
        QVERIFY(!unknownKey.isEmpty());
        writeFile(u"unknown-key.json"_s, unknownKey);
        writeFile(u"syntax.json"_s, "{\n  \"schema\": \"elk.chip/1\",\n  \"chips\": 1 2\n}\n");
        writeFile(u"tiny.onnx"_s, "abc");
        QVERIFY(QDir(m_dir.path()).mkdir(u"folder.json"_s));
        writeFile(u"ws-missing-model.json"_s,
            "{\"schema\": \"elk.workspace/1\", \"model\": \"nowhere.elk.json\", \"chip\": \"ipu-pod4-hbm\"}");
        writeFile(u"ws-bad-chip.json"_s,
            "{\"schema\": \"elk.workspace/1\", \"model\": \"m.elk.json\", \"chip\": \"zero-cores.json\"}");
        writeFile(u"ws-syntax.json"_s, "{\"schema\": \"elk.workspace/1\",\n \"model\" \"x\"}");
        writeFile(u"ws-broken-model.json"_s,
            "{\"schema\": \"elk.workspace/1\", \"model\": \"broken.elk.json\", \"chip\": \"ipu-mk2-hbm\"}");
        writeFile(u"broken.elk.json"_s, "{\"schema\": \"elk.graph/1\",\n  \"ops\": [\n");
        writeFile(u"ws-bundled.elkproj"_s,
            "{\"schema\": \"elk.workspace/2\", \"model\": {\"bundled\": \"llama2-13b\"}, "
            "\"chip\": {\"preset\": \"teaching-mesh-4x4\"}, \"compareChip\": {\"preset\": \"ipu-pod4-hbm\"}, "
            "\"run\": {\"batch\": 2, \"kvLen\": 64}}");
        writeFile(u"model.txt"_s, "not a model\n");
        // NNFusion einstein_v2: a Dot of the batch placeholder 99 by a weight, then exp.
        writeFile(u"tiny-einstein.json"_s,
            "[[1, \" - einstein_v2(\\\" output0[N0, N2] +=! input0[N0, N1] * input1[N1, N2] \\\", "
            "input_dict={ \\\"input0\\\" : {\\\"dtype\\\": \\\"float16\\\", \\\"shape\\\": [99, 64]}, "
            "\\\"input1\\\": {\\\"dtype\\\": \\\"float16\\\", \\\"shape\\\": [64, 32]} })\", \"Dot\", [[100, 0], [101, "
            "0]]],\n"
            " [2, \" - einstein_v2(\\\" output0[N0, N1] = input0[N0, N1].call(`exp`) \\\", "
            "input_dict={ \\\"input0\\\" : {\\\"dtype\\\": \\\"float16\\\", \\\"shape\\\": [99, 32]} })\", \"Exp\", "
            "[[1, 0]]],\n"
            " [3, \"\", \"Result\", [[2, 0]]]]\n");
        writeFile(u"bad-einstein.json"_s, "[[1, \"bad\", \"Dot\", [[100, 0]]]]");
        // fit-cost: unary cycles = 0.5 · elements + 200, and one matmul shape per line.
        QByteArray samples = "kind,extents,dtype,cycles\n";
        for (int elements = 100; elements <= 2000; elements += 100)
            samples
                += "unary," + QByteArray::number(elements) + ",f16," + QByteArray::number(0.5 * elements + 200) + "\n";
        for (int m : { 8, 16, 32, 64, 128, 256 })
            samples += "matmul,1x" + QByteArray::number(m) + "x64x64,f16," + QByteArray::number(m * 64 * 64 / 100 + 300)
                + "\n";
        writeFile(u"samples.csv"_s, samples);
        writeFile(u"bad-samples.csv"_s, "kind,extents,dtype,cycles\nunary,100,f16,250\nunary,200,f16,fast\n");
    }

    void exitCodesAndMessages_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected"); // in stdout for exit 0, in stderr otherwise

        const QString version = QString::fromLatin1(elk::kEngineVersion);
        QTest::addRow("--version") << QStringList { u"--version"_s } << 0 << u"elk "_s + version + u" ("_s;
        QTest::addRow("-v") << QStringList { u"-v"_s } << 0 << version;
        QTest::addRow("--help") << QStringList { u"--help"_s } << 0 << u"Usage: elk <command>"_s;
        QTest::addRow("help lists commands") << QStringList { u"help"_s } << 0 << u"chip validate FILE"_s;
        QTest::addRow("no command") << QStringList {} << 2 << u"no command given"_s;
        QTest::addRow("unknown command") << QStringList { u"frob"_s } << 2 << u"unknown command 'frob'"_s;
        QTest::addRow("unknown top-level option") << QStringList { u"--frob"_s } << 2 << u"unknown option '--frob'"_s;

        QTest::addRow("presets table") << QStringList { u"presets"_s } << 0 << u"ipu-pod4-hbm-mesh-edge-fed  4×1472"_s;
        QTest::addRow("presets table header") << QStringList { u"presets"_s } << 0 << u"SRAM/CORE KiB"_s;
        QTest::addRow("presets --json") << QStringList { u"presets"_s, u"--json"_s } << 0
                                        << u"\"name\": \"tt-wormhole-n300\""_s;
        QTest::addRow("presets --show") << QStringList { u"presets"_s, u"--show"_s, u"ipu-pod4-hbm"_s } << 0
                                        << u"\"coresPerChip\": 1472"_s;
        QTest::addRow("presets --show unknown") << QStringList { u"presets"_s, u"--show"_s,
            u"ipu-pod5"_s } << 2 << u"unknown preset 'ipu-pod5'; valid names: ipu-mk2-hbm, ipu-pod4-hbm"_s;
        QTest::addRow("presets --show without name")
            << QStringList { u"presets"_s, u"--show"_s } << 2 << u"elk presets: Missing value after '--show'"_s;
        QTest::addRow("presets unknown option")
            << QStringList { u"presets"_s, u"--bogus"_s } << 2 << u"Unknown option 'bogus'"_s;
        QTest::addRow("presets stray argument")
            << QStringList { u"presets"_s, u"all"_s } << 2 << u"unexpected argument 'all'"_s;
        QTest::addRow("presets --json with --show")
            << QStringList { u"presets"_s, u"--json"_s, u"--show"_s, u"ipu-mk2-hbm"_s } << 2 << u"cannot be combined"_s;
        QTest::addRow("presets --help") << QStringList { u"presets"_s, u"--help"_s } << 0 << u"--show <NAME>"_s;

        const QStringList validate { u"chip"_s, u"validate"_s };
        QTest::addRow("valid chip") << validate + QStringList { u"good.json"_s } << 0
                                    << u"good.json: ok\n  teaching-mesh-4x4: 1 × 16 cores"_s;
        QTest::addRow("zero cores") << validate + QStringList { u"zero-cores.json"_s } << 2
                                    << u"zero-cores.json: /coresPerChip: "_s;
        QTest::addRow("mesh mismatch") << validate + QStringList { u"mesh-mismatch.json"_s } << 2
                                       << u"mesh-mismatch.json: /interconnect/mesh"_s;
        QTest::addRow("syntax error") << validate + QStringList { u"syntax.json"_s } << 2
                                      << u"syntax.json: line 3, column "_s;
        QTest::addRow("unknown key") << validate + QStringList { u"unknown-key.json"_s } << 2
                                     << u"unknown-key.json: /bogus: "_s;
        QTest::addRow("missing file") << validate + QStringList { u"missing.json"_s } << 2
                                      << u"missing.json: cannot read: no such file"_s;
        QTest::addRow("a directory") << validate + QStringList { u"folder.json"_s } << 2
                                     << u"folder.json: cannot read: is a directory"_s;
        QTest::addRow("one bad file among good ones")
            << validate + QStringList { u"good.json"_s, u"zero-cores.json"_s, u"good.json"_s } << 2
            << u"zero-cores.json: /coresPerChip: "_s;
        QTest::addRow("validate without file") << validate << 2 << u"elk chip validate: no file given"_s;
        QTest::addRow("chip without subcommand") << QStringList { u"chip"_s } << 2 << u"no subcommand given"_s;
        QTest::addRow("chip unknown subcommand")
            << QStringList { u"chip"_s, u"check"_s, u"good.json"_s } << 2 << u"unknown subcommand 'check'"_s;

        const QStringList resolve { u"runspec"_s, u"resolve"_s, u"--model"_s, u"tiny.onnx"_s, u"--chip"_s };
        QTest::addRow("resolve prints the cache key")
            << resolve + QStringList { u"ipu-pod4-hbm"_s } << 0 << u"\ncache key: "_s;
        QTest::addRow("resolve hashes the model")
            << resolve + QStringList { u"ipu-pod4-hbm"_s } << 0
            << u"\"sha256\":\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\""_s;
        QTest::addRow("resolve with dotted override")
            << resolve + QStringList { u"ipu-pod4-hbm"_s, u"--set"_s, u"interconnect.linkBandwidthGBpsPerCore=8"_s }
            << 0 << u"\"linkBandwidthGBpsPerCore\":8,"_s;
        QTest::addRow("resolve with pointer override")
            << resolve + QStringList { u"ipu-pod4-hbm"_s, u"--set"_s, u"/hbm/stacksPerChip=2"_s } << 0
            << u"\"stacksPerChip\":2}"_s;
        QTest::addRow("resolve with shape and designs") << resolve
                + QStringList { u"teaching-mesh-4x4"_s, u"--batch"_s, u"32"_s, u"--kv"_s, u"4096"_s, u"--design"_s,
                      u"elk-full"_s, u"--design"_s, u"basic"_s }
                                                        << 0 << u"\"batch\":32,"_s;
        QTest::addRow("resolve from a chip file")
            << resolve + QStringList { u"good.json"_s } << 0 << u"\"name\":\"teaching-mesh-4x4\""_s;
        QTest::addRow("resolve prefill") << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--phase"_s, u"prefill"_s } << 0
                                         << u"\"kvLen\":0,"_s;
        QTest::addRow("resolve without --model") << QStringList { u"runspec"_s, u"resolve"_s, u"--chip"_s,
            u"ipu-mk2-hbm"_s } << 2 << u"--model PATH is required"_s;
        QTest::addRow("resolve without --chip") << QStringList { u"runspec"_s, u"resolve"_s, u"--model"_s,
            u"tiny.onnx"_s } << 2 << u"--chip PRESET|FILE is required"_s;
        QTest::addRow("runspec without subcommand") << QStringList { u"runspec"_s } << 2 << u"expected 'resolve'"_s;
        QTest::addRow("missing model file")
            << QStringList { u"runspec"_s, u"resolve"_s, u"--model"_s, u"absent.onnx"_s, u"--chip"_s, u"ipu-mk2-hbm"_s }
            << 2 << u"/model/path: model file: cannot open 'absent.onnx'"_s;
        QTest::addRow("unknown preset") << resolve + QStringList { u"ipu-pod5"_s } << 2
                                        << u"/chip: 'ipu-pod5' is neither a built-in preset"_s;
        QTest::addRow("broken chip file")
            << resolve + QStringList { u"syntax.json"_s } << 2 << u"/chip: syntax.json: line 3, column "_s;
        QTest::addRow("unknown override field")
            << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--set"_s, u"interconnect.bogus=1"_s } << 2
            << u"/chip/interconnect/bogus: unknown chip field 'interconnect.bogus'"_s;
        QTest::addRow("override breaks the chip")
            << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--set"_s, u"coresPerChip=0"_s } << 2
            << u"/chip/coresPerChip: "_s;
        QTest::addRow("batch not a number") << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--batch"_s, u"x"_s } << 2
                                            << u"--batch: 'x' is not an integer"_s;
        QTest::addRow("batch 0") << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--batch"_s, u"0"_s } << 2
                                 << u"/batch: 0 is out of range"_s;
        QTest::addRow("train with a KV cache")
            << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--phase"_s, u"train"_s, u"--kv"_s, u"5"_s } << 2
            << u"/kvLen: "_s;
        QTest::addRow("unknown phase") << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--phase"_s, u"sideways"_s } << 2
                                       << u"--phase: 'sideways' is not decode, prefill or train"_s;
        QTest::addRow("unknown design") << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--design"_s, u"warp"_s } << 2
                                        << u"/designs/0: unknown design 'warp'"_s;
        QTest::addRow("threshold out of range")
            << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--preload-noc-threshold"_s, u"1.5"_s } << 2
            << u"/options/preloadNocThreshold: 1.5"_s;
        const QString defaultWorkspace = QStringLiteral(ELK_SOURCE_DIR "/resources/workspaces/default.json");
        QTest::addRow("workspace: the bundled default")
            << QStringList { u"workspace"_s, defaultWorkspace } << 0 << u"18 ops, 12 distinct expressions"_s;
        QTest::addRow("workspace: default chip")
            << QStringList { u"workspace"_s, defaultWorkspace } << 0 << u"Chip: ipu-pod4-hbm: 4 × 1472 cores"_s;
        const QString defaultElkproj = QStringLiteral(ELK_SOURCE_DIR "/resources/workspaces/default.elkproj");
        QTest::addRow("workspace: the bundled default, v2")
            << QStringList { u"workspace"_s, defaultElkproj } << 0 << u"18 ops, 12 distinct expressions"_s;
        QTest::addRow("workspace: v2 with a bundled model") << QStringList { u"workspace"_s, u"ws-bundled.elkproj"_s }
                                                            << 0 << u"Model: bundled:llama2-13b\n  name: llama2-13b"_s;
        QTest::addRow("workspace: v2 binds the run to the model")
            << QStringList { u"workspace"_s, u"ws-bundled.elkproj"_s } << 0
            << u"Compare against: ipu-pod4-hbm\nRun: decode, batch 2, seq 1, KV length 64"_s;
        QTest::addRow("workspace: no file") << QStringList { u"workspace"_s } << 2 << u"expected exactly one"_s;
        QTest::addRow("workspace: missing workspace")
            << QStringList { u"workspace"_s, u"absent.json"_s } << 2 << u"absent.json: /: "_s;
        QTest::addRow("workspace: syntax error")
            << QStringList { u"workspace"_s, u"ws-syntax.json"_s } << 2 << u"ws-syntax.json: line 2, column"_s;
        QTest::addRow("workspace: missing model")
            << QStringList { u"workspace"_s, u"ws-missing-model.json"_s } << 2 << u"nowhere.elk.json"_s;
        QTest::addRow("workspace: broken model names line")
            << QStringList { u"workspace"_s, u"ws-broken-model.json"_s } << 2 << u"broken.elk.json: "_s;
        QTest::addRow("workspace: invalid chip file")
            << QStringList { u"workspace"_s, u"ws-bad-chip.json"_s } << 2 << u"/coresPerChip"_s;
        const QString sample = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
        const QStringList inspect { u"inspect"_s };
        QTest::addRow("inspect: sample op count")
            << inspect + QStringList { sample } << 0 << u"ops: 18 (12 distinct expressions)"_s;
        QTest::addRow("inspect: sample op kinds")
            << inspect + QStringList { sample } << 0 << u"op kinds: unary 1 elementwise 3 matmul 9 slice 2 softmax 1"_s;
        QTest::addRow("inspect: sample is one layer")
            << inspect + QStringList { sample } << 0 << u"layers: 1 × 18 ops (prefix 0, suffix 0)"_s;
        QTest::addRow("inspect: sample weights")
            << inspect + QStringList { sample } << 0 << u"weight bytes: 634,408,960 (634.4 MB)"_s;
        QTest::addRow("inspect: sample KV") << inspect + QStringList { sample } << 0
                                            << u"KV bytes: 671,416,320 (671.4 MB): read 671.1 MB, written 327.7 kB"_s;
        QTest::addRow("inspect: --help") << inspect + QStringList { u"--help"_s } << 0 << u"--phase <PHASE>"_s;
        QTest::addRow("inspect: listed in help") << QStringList { u"help"_s } << 0 << u"inspect MODEL"_s;
        QTest::addRow("inspect: no model") << inspect << 2 << u"elk inspect: no MODEL given"_s;
        QTest::addRow("inspect: two models")
            << inspect + QStringList { sample, sample } << 2 << u"expected exactly one MODEL"_s;
        QTest::addRow("inspect: missing file")
            << inspect + QStringList { u"absent.elk.json"_s } << 2 << u"absent.elk.json: cannot read: no such file"_s;
        QTest::addRow("inspect: a directory")
            << inspect + QStringList { u"folder.json"_s } << 2 << u"folder.json: cannot read: is a directory"_s;
        QTest::addRow("inspect: unknown bundled name") << inspect
                + QStringList { u"llama9"_s } << 2 << u"'llama9' is neither a file nor a bundled model (llama2-13b"_s;
        QTest::addRow("inspect: broken model names line")
            << inspect + QStringList { u"broken.elk.json"_s } << 2 << u"broken.elk.json: line "_s;
        QTest::addRow("inspect: unknown format")
            << inspect + QStringList { u"model.txt"_s } << 2 << u"model.txt: unknown model format"_s;
        QTest::addRow("inspect: shape options on an elk.graph file")
            << inspect + QStringList { sample, u"--batch"_s, u"4"_s } << 2 << u"do not apply to an elk.graph file"_s;
        QTest::addRow("inspect: batch not a number") << inspect + QStringList { sample, u"--batch"_s, u"x"_s } << 2
                                                     << u"elk inspect: --batch: 'x' is not an integer"_s;
        QTest::addRow("inspect: batch 0")
            << inspect + QStringList { sample, u"--batch"_s, u"0"_s } << 2 << u"--batch: 0 is out of range 1.."_s;
        QTest::addRow("inspect: unknown phase")
            << inspect + QStringList { u"llama2-13b"_s, u"--phase"_s, u"sideways"_s } << 2
            << u"--phase: 'sideways' is not decode, prefill or train"_s;
        QTest::addRow("inspect: train with a KV cache")
            << inspect + QStringList { u"llama2-13b"_s, u"--phase"_s, u"train"_s, u"--kv"_s, u"8"_s } << 2
            << u"--kv: a training step has no KV cache"_s;
        QTest::addRow("inspect: einstein_v2 file")
            << inspect + QStringList { u"tiny-einstein.json"_s, u"--batch"_s, u"4"_s } << 0
            << u"op kinds: unary 1 matmul 1\n"_s;
        QTest::addRow("inspect: einstein_v2 batch bound") // 2 · 4 · 32 · 64 + 4 · 32
            << inspect + QStringList { u"tiny-einstein.json"_s, u"--batch"_s, u"4"_s } << 0 << u"FLOPs/step: 16,512 "_s;
        QTest::addRow("inspect: einstein_v2 bad kernel names the node")
            << inspect + QStringList { u"bad-einstein.json"_s } << 2 << u"bad-einstein.json: node 1 (Dot)"_s;
        QTest::addRow("inspect: einstein_v2 cannot train")
            << inspect + QStringList { u"tiny-einstein.json"_s, u"--phase"_s, u"train"_s } << 2
            << u"a training step needs a bundled model"_s;
        // The example; hand calculation in tst_graph_analysis (bundledLlama2_13bDecode).
        const QStringList llama13
            = inspect + QStringList { u"llama2-13b"_s, u"--batch"_s, u"32"_s, u"--seq"_s, u"2048"_s };
        QTest::addRow("inspect: llama2-13b layers") << llama13 << 0 << u"layers: 40 × "_s;
        QTest::addRow("inspect: llama2-13b params") << llama13 << 0 << u"params: 13,015,864,320 (13.02 G)\n"_s;
        QTest::addRow("inspect: llama2-13b weights") << llama13 << 0 << u"weight bytes: 26,031,728,640 (26.03 GB)"_s;
        QTest::addRow("inspect: llama2-13b KV") << llama13 << 0 << u"KV bytes: 53,7"_s;
        QTest::addRow("inspect: llama2-13b decode over the KV cache")
            << llama13 << 0 << u"decode, batch 32, 1 new token over a KV cache of 2048"_s;
        // A model without KV-cache inputs (a convolution from Debian's libonnx-testdata) is one
        // inference pass, not a decode step over a KV cache.
        QTest::addRow("inspect: a CNN is one inference pass") << inspect
                + QStringList { u"/usr/share/libonnx-testdata/data/node/test_conv_with_autopad_same/model.onnx"_s }
                                                              << 0 << u"model.onnx, one inference pass, batch 1)"_s;
        QTest::addRow("inspect: --dim needs NAME=SIZE")
            << inspect + QStringList { u"llama2-13b"_s, u"--dim"_s, u"batch"_s } << 2
            << u"--dim: 'batch' is not NAME=SIZE"_s;
        QTest::addRow("inspect: --input-shape needs sizes")
            << inspect + QStringList { u"llama2-13b"_s, u"--input-shape"_s, u"x=1,a"_s } << 2
            << u"--input-shape: 'x=1,a' is not INPUT=d0,d1,..."_s;
        QTest::addRow("inspect: --kv overrides --seq in decode")
            << llama13 + QStringList { u"--kv"_s, u"4096"_s } << 0 << u"over a KV cache of 4096"_s;
        QTest::addRow("inspect: bundled ONNX file") << inspect
                + QStringList { QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-decode.onnx"), u"--batch"_s,
                      u"32"_s, u"--seq"_s, u"2048"_s }
                                                    << 0 << u"weight bytes: 26,031,728,640 (26.03 GB)"_s;
        QTest::addRow("inspect: dit-xl patch tokens")
            << inspect + QStringList { u"dit-xl"_s, u"--phase"_s, u"prefill"_s } << 0 << u"256 patch tokens"_s;
        // Adam's fp32 moments m and v of every trained weight (DiT's sin-cos position table is fixed):
        // 8 × (675,129,632 − 256 × 1152) bytes, apart from the parameters.
        QTest::addRow("inspect: dit-xl train optimizer state")
            << inspect + QStringList { u"dit-xl"_s, u"--phase"_s, u"train"_s } << 0
            << u"optimizer state bytes: 5,398,677,760 (5.399 GB)"_s;
        QTest::addRow("inspect: dit-xl train params are weights only")
            << inspect + QStringList { u"dit-xl"_s, u"--phase"_s, u"train"_s } << 0
            << u"params: 675,129,632 (675.1 M)\n"_s;
        // The tied LM head is a view of the embedding table: parameters counted once.
        QTest::addRow("inspect: opt-30b tied head counted once")
            << inspect + QStringList { u"opt-30b"_s } << 0 << u"params: 29,974,540,288 (29.97 G)\n"_s;
        QTest::addRow("inspect: dit-xl has no decode step")
            << inspect + QStringList { u"dit-xl"_s } << 2 << u"dit-xl has no decode phase; it has prefill, train"_s;
        QTest::addRow("inspect: ONNX garbage names the file")
            << inspect + QStringList { u"tiny.onnx"_s } << 2 << u"tiny.onnx: "_s;
        const QStringList fitCost { u"fit-cost"_s };
        QTest::addRow("help lists fit-cost")
            << QStringList { u"help"_s } << 0 << u"fit-cost SAMPLES.csv --out MODEL.json"_s;
        QTest::addRow("fit-cost: per-kind table")
            << fitCost + QStringList { u"samples.csv"_s, u"--out"_s, u"fitted.json"_s } << 0
            << u"unary"_s + QString(16, u' ') + u"20       1  0.000 %"_s;
        QTest::addRow("fit-cost: names the model written")
            << fitCost + QStringList { u"samples.csv"_s, u"--out"_s, u"fitted.json"_s } << 0
            << u"wrote fitted.json (sha256 "_s;
        QTest::addRow("fit-cost: bad cycles name file, line and column")
            << fitCost + QStringList { u"bad-samples.csv"_s, u"--out"_s, u"x.json"_s } << 2
            << u"bad-samples.csv:3: column cycles: expected a finite number >= 0, found \"fast\""_s;
        QTest::addRow("fit-cost: missing samples file")
            << fitCost + QStringList { u"nowhere.csv"_s, u"--out"_s, u"x.json"_s } << 2 << u"nowhere.csv"_s;
        QTest::addRow("fit-cost: --out is required")
            << fitCost + QStringList { u"samples.csv"_s } << 2 << u"--out MODEL.json is required"_s;
        QTest::addRow("fit-cost: --folds below 2")
            << fitCost + QStringList { u"samples.csv"_s, u"--out"_s, u"x.json"_s, u"--folds"_s, u"1"_s } << 2
            << u"--folds: 1 is out of range 2..1000"_s;
        QTest::addRow("fit-cost: --max-depth not a number")
            << fitCost + QStringList { u"samples.csv"_s, u"--out"_s, u"x.json"_s, u"--max-depth"_s, u"deep"_s } << 2
            << u"--max-depth: 'deep' is not an integer"_s;
        const QStringList run { u"run"_s };
        const QStringList runSample = run + QStringList { sample, u"--chip"_s, u"ipu-mk2-hbm"_s };
        QTest::addRow("run: listed in help") << QStringList { u"help"_s } << 0 << u"run MODEL --chip PRESET|FILE"_s;
        QTest::addRow("run: one row per design") << runSample << 0 << u"elk-full"_s;
        QTest::addRow("run: speedup column") << runSample << 0 << u"vs basic"_s;
        QTest::addRow("run: basic is 1.00x of itself") << runSample << 0 << u"1.00×"_s;
        QTest::addRow("run: one design") << runSample + QStringList { u"--design"_s, u"elk-dyn"_s } << 0
                                         << u"elk-dyn"_s;
        QTest::addRow("run: no model") << run << 2 << u"elk run: no MODEL given"_s;
        QTest::addRow("run: --chip is required")
            << run + QStringList { sample } << 2 << u"--chip PRESET|FILE is required"_s;
        QTest::addRow("run: unknown design") << runSample + QStringList { u"--design"_s, u"warp"_s } << 2 << u"warp"_s;
        QTest::addRow("run: unknown override field")
            << runSample + QStringList { u"--set"_s, u"hbm.warp=1"_s } << 2 << u"hbm.warp"_s;
        QTest::addRow("run: missing model file")
            << run + QStringList { u"absent.onnx"_s, u"--chip"_s, u"ipu-mk2-hbm"_s } << 2 << u"absent.onnx"_s;
        QTest::addRow("run: operator that fits no plan")
            << run + QStringList { sample, u"--chip"_s, u"teaching-mesh-4x4"_s } << 2
            << u"bytes per core (execute state of its smallest plan); the chip has 262,144"_s;
        QTest::addRow("run: unwritable --json")
            << runSample + QStringList { u"--json"_s, u"folder.json"_s } << 2 << u"cannot write folder.json"_s;
        QTest::addRow("delay-compute not on/off")
            << resolve + QStringList { u"ipu-mk2-hbm"_s, u"--delay-compute"_s, u"maybe"_s } << 2
            << u"--delay-compute: 'maybe' is not on or off"_s;
    }

    void exitCodesAndMessages()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const CliResult result = runElk(args);
        const QString diagnostics
            = u"exit %1\nstdout:\n%2\nstderr:\n%3"_s.arg(result.exitCode).arg(result.out, result.err);
        QVERIFY2(result.exitCode == exitCode, qPrintable(diagnostics));
        if (exitCode == 0) {
            QVERIFY2(result.out.contains(expected), qPrintable(diagnostics));
            QVERIFY2(result.err.isEmpty(), qPrintable(diagnostics));
        } else {
            QVERIFY2(result.err.contains(expected), qPrintable(diagnostics));
            QVERIFY2(result.out.isEmpty() || args.contains(u"good.json"_s),
                qPrintable(diagnostics)); // errors only on stderr
        }
    }

    // --json prints exactly the documented keys; values are the sample's (sample_models/README.md).
    void inspectJson()
    {
        const CliResult result = runElk({ u"inspect"_s,
            QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json"), u"--json"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(result.out.toUtf8(), &error);
        QVERIFY2(document.isObject(), qPrintable(error.errorString()));
        const QJsonObject object = document.object();
        QStringList keys = object.keys();
        keys.sort();
        QStringList expected { u"name"_s, u"ops"_s, u"layers"_s, u"ops_per_layer"_s, u"params"_s, u"flops_per_step"_s,
            u"weight_bytes"_s, u"optimizer_state_bytes"_s, u"kv_bytes"_s, u"hbm_bytes_per_step"_s, u"op_kinds"_s };
        expected.sort();
        QCOMPARE(keys, expected);
        QCOMPARE(object.value(u"name"_s).toString(), u"llama2-13b-layer-decode"_s);
        QCOMPARE(object.value(u"ops"_s).toInteger(), 18);
        QCOMPARE(object.value(u"layers"_s).toInteger(), 1);
        QCOMPARE(object.value(u"ops_per_layer"_s).toInteger(), 18);
        QCOMPARE(object.value(u"params"_s).toInteger(), 317'204'480);
        QCOMPARE(object.value(u"flops_per_step"_s).toInteger(), 10'829'119'488);
        QCOMPARE(object.value(u"weight_bytes"_s).toInteger(), 634'408'960);
        QCOMPARE(object.value(u"optimizer_state_bytes"_s).toInteger(), 0); // an inference step
        QCOMPARE(object.value(u"kv_bytes"_s).toInteger(), 671'416'320);
        QVERIFY(object.value(u"hbm_bytes_per_step"_s).toInteger()
            > object.value(u"weight_bytes"_s).toInteger() + object.value(u"kv_bytes"_s).toInteger());
        const QJsonObject kinds = object.value(u"op_kinds"_s).toObject();
        QCOMPARE(kinds.value(u"matmul"_s).toInteger(), 9);
        QCOMPARE(kinds.value(u"normalization"_s).toInteger(), 2);
        qint64 total = 0;
        for (const QJsonValue& count : kinds)
            total += count.toInteger();
        QCOMPARE(total, 18);
    }

    // --json has the documented schema; --program writes every design's program except ideal's.
    void explainAndDiff()
    {
        const QString sample = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
        const QStringList explain { u"explain"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--cache"_s,
            u"explain.sqlite"_s };
        CliResult result = runElk(explain + QStringList { u"--json"_s, u"explain.json"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(u"computed in"_s));
        QFile file(m_dir.filePath(u"explain.json"_s));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray designs = QJsonDocument::fromJson(file.readAll()).object().value(u"designs"_s).toArray();
        QCOMPARE(designs.size(), 5);
        for (const QJsonValue& value : designs) {
            const QJsonObject design = value.toObject();
            double sum = design.value(u"floor"_s).toObject().value(u"ms"_s).toDouble();
            for (const QJsonValue& loss : design.value(u"losses"_s).toArray())
                sum += loss.toObject().value(u"ms"_s).toDouble();
            const double latency = design.value(u"latency_ms"_s).toDouble();
            QVERIFY2(latency > 0 && std::abs(sum - latency) <= 1e-6 * latency,
                qPrintable(design.value(u"design"_s).toString()));
            QVERIFY(design.value(u"floor"_s).toObject().value(u"ms"_s).toDouble() <= latency * (1 + 1e-9));
        }
        result = runElk(explain);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(u"served from the result cache"_s), qPrintable(result.out));

        // Two designs of one run: every op of each, and the deltas add up to the latency difference (each
        // design has its own pipelined splits: an operator run as other parts is on one side only).
        result = runElk({ u"diff"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--design"_s, u"basic"_s,
            u"--against-design"_s, u"elk-dyn"_s, u"--cache"_s, u"explain.sqlite"_s, u"--json"_s, u"diff.json"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile diffFile(m_dir.filePath(u"diff.json"_s));
        QVERIFY(diffFile.open(QIODevice::ReadOnly));
        const QJsonObject diff = QJsonDocument::fromJson(diffFile.readAll()).object();
        const QJsonArray ops = diff.value(u"ops"_s).toArray();
        QVERIFY(ops.size() >= 18); // the layer's 18 ops, split parts included
        double sum = 0, previous = 1e300;
        for (const QJsonValue& value : ops) {
            const QJsonObject op = value.toObject();
            QVERIFY(op.value(u"step_a"_s).toInt() >= 0 || op.value(u"step_b"_s).toInt() >= 0);
            const double delta = op.value(u"delta_ms"_s).toDouble();
            QVERIFY(std::abs(delta) <= previous + 1e-15); // sorted by |Δ|
            previous = std::abs(delta);
            sum += delta;
        }
        const double deltaLatency = diff.value(u"delta_latency_ms"_s).toDouble();
        QVERIFY(deltaLatency < 0); // elk-dyn beats basic here
        QVERIFY2(
            std::abs(sum - deltaLatency) <= 1e-9 + 1e-9 * std::abs(deltaLatency), qPrintable(QString::number(sum)));
        QVERIFY(diff.value(u"links"_s).toArray().size() > 0);
        // The text lists every op.
        result = runElk({ u"diff"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--design"_s, u"basic"_s,
            u"--against-design"_s, u"elk-dyn"_s, u"--cache"_s, u"explain.sqlite"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(u"\n%1 "_s.arg(ops.size(), 5))); // the last row: its rank, right-aligned
        // Another chip: aligned by op, no per-link delta (other links).
        result = runElk({ u"diff"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--design"_s, u"elk-full"_s,
            u"--against-chip"_s, u"ipu-pod4-hbm"_s, u"--no-cache"_s, u"--top"_s, u"3"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(u"more ops"_s));
        QVERIFY(result.out.contains(u"no per-link delta"_s));
        // Bad input: what is missing, exit 2.
        result = runElk({ u"diff"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--against-design"_s, u"basic"_s });
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.err.contains(u"name exactly one design"_s));
        result = runElk({ u"diff"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--design"_s, u"basic"_s });
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.err.contains(u"--against-design B, --against-chip C2"_s));
    }

    void runJsonAndProgram()
    {
        const QString sample = QStringLiteral(ELK_SOURCE_DIR "/sample_models/llama2-13b-layer-decode.elk.json");
        const CliResult result = runElk({ u"run"_s, sample, u"--chip"_s, u"ipu-mk2-hbm"_s, u"--json"_s, u"run.json"_s,
            u"--program"_s, u"program.json"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile runFile(m_dir.filePath(u"run.json"_s));
        QVERIFY(runFile.open(QIODevice::ReadOnly));
        const QJsonObject run = QJsonDocument::fromJson(runFile.readAll()).object();
        for (const QString& key : { u"engine_version"_s, u"model"_s, u"chip"_s, u"designs"_s, u"timings_s"_s })
            QVERIFY2(run.contains(key), qPrintable(key));
        const QJsonObject model = run.value(u"model"_s).toObject();
        QCOMPARE(model.value(u"ops"_s).toInteger(), 18);
        QCOMPARE(model.value(u"flops_per_step"_s).toInteger(), 10'829'119'488);
        QCOMPARE(run.value(u"chip"_s).toObject().value(u"coresPerChip"_s).toInt(), 1472);
        const QJsonArray designs = run.value(u"designs"_s).toArray();
        QCOMPARE(designs.size(), 5);
        // The numbers are the engine's: the same spec run in this process gives every design's
        // simulated and analytic latency, breakdown, link peak and speedup exactly (JSON keeps doubles).
        elk::run::RunRequest request;
        request.modelPath = sample.toStdString();
        request.chip = "ipu-mk2-hbm";
        const elk::run::RunSpecResult spec = elk::run::resolveRunSpec(request);
        QVERIFY(spec.ok());
        QCOMPARE(run.value(u"run_spec_sha256"_s).toString().toStdString(), elk::run::runSpecHash(spec.spec));
        elk::NullRunControl control;
        const elk::run::RunResult engine = elk::run::executeRun(spec.spec, control);
        QVERIFY(engine.ok());
        QCOMPARE(engine.designs.size(), std::size_t(5));
        const double msPerCycle = 1e3 / spec.spec.chip.clockHz;
        const double basicCycles = engine.designs.front().simulated->latencyCycles;
        QStringList names;
        for (qsizetype d = 0; d < designs.size(); ++d) {
            const QJsonObject design = designs.at(d).toObject();
            const elk::run::DesignRun& expected = engine.designs[std::size_t(d)];
            const elk::sim::SimResult& sim = *expected.simulated;
            names << design.value(u"design"_s).toString();
            QCOMPARE(names.back().toStdString(), std::string(elk::schedule::toString(expected.design)));
            QCOMPARE(design.value(u"latency_ms"_s).toDouble(), sim.latencyCycles * msPerCycle);
            QCOMPARE(design.value(u"analytic_latency_ms"_s).toDouble(), expected.metrics.latencyCycles * msPerCycle);
            QCOMPARE(design.value(u"max_link_utilization"_s).toDouble(), sim.maxLinkUtilization);
            QCOMPARE(design.value(u"speedup_vs_basic"_s).toDouble(), basicCycles / sim.latencyCycles);
            const QJsonObject breakdown = design.value(u"breakdown_ms"_s).toObject();
            QCOMPARE(breakdown.keys(),
                (QStringList { u"execute_only"_s, u"interconnect"_s, u"overlap"_s, u"preload_only"_s }));
            QCOMPARE(breakdown.value(u"overlap"_s).toDouble(), sim.overlapCycles * msPerCycle);
            QCOMPARE(breakdown.value(u"preload_only"_s).toDouble(), sim.preloadOnlyCycles * msPerCycle);
            QCOMPARE(breakdown.value(u"execute_only"_s).toDouble(), sim.executeOnlyCycles * msPerCycle);
            QCOMPARE(breakdown.value(u"interconnect"_s).toDouble(), sim.interconnectStallCycles * msPerCycle);
            QCOMPARE(design.value(u"sram_peak_bytes_per_core"_s).toInteger(), sim.sramPeakBytesPerCore);
            // The simulated SRAM peak stays within the chip, except for Ideal (unlimited preload space).
            if (expected.design != elk::schedule::Design::Ideal)
                QVERIFY(sim.sramPeakBytesPerCore <= spec.spec.chip.sramBytesPerCore);
            // Ideal is the fastest of the five (a bound), in the file as in the engine.
            QVERIFY(designs.at(4).toObject().value(u"latency_ms"_s).toDouble()
                <= design.value(u"latency_ms"_s).toDouble() * (1 + 1e-12));
        }
        QCOMPARE(names, (QStringList { u"basic"_s, u"static"_s, u"elk-dyn"_s, u"elk-full"_s, u"ideal"_s }));
        QCOMPARE(designs.at(0).toObject().value(u"speedup_vs_basic"_s).toDouble(), 1.0);
        QVERIFY(run.value(u"timings_s"_s).toObject().contains(u"simulate"_s));

        QFile programFile(m_dir.filePath(u"program.json"_s));
        QVERIFY(programFile.open(QIODevice::ReadOnly));
        const QJsonObject programs = QJsonDocument::fromJson(programFile.readAll()).object();
        QCOMPARE(programs.keys(), (QStringList { u"basic"_s, u"elk-dyn"_s, u"elk-full"_s, u"static"_s }));
        // Each op appears once as preload_async and once as execute.
        const QJsonObject dyn = programs.value(u"elk-dyn"_s).toObject();
        QCOMPARE(dyn.value(u"calls"_s).toArray().size(), 2 * 18);
    }

    // The written model is elk.fitted-cost/1 JSON, and fitting twice writes the same bytes.
    void fitCostWritesTheSameModelTwice()
    {
        QByteArray first;
        for (const QString& name : { u"fit-a.json"_s, u"fit-b.json"_s }) {
            const CliResult result
                = runElk({ u"fit-cost"_s, u"samples.csv"_s, u"--out"_s, name, u"--min-leaf"_s, u"3"_s });
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
            QFile file(m_dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            const QJsonObject object = QJsonDocument::fromJson(bytes).object();
            QCOMPARE(object.value(u"schema"_s).toString(), u"elk.fitted-cost/1"_s);
            QCOMPARE(object.value(u"minSamplesPerLeaf"_s).toInt(), 3);
            QCOMPARE(object.value(u"kinds"_s).toObject().keys(), (QStringList { u"matmul"_s, u"unary"_s }));
            if (first.isEmpty())
                first = bytes;
            else
                QCOMPARE(bytes, first);
        }
    }

    void presetsListsEveryBuiltinPreset()
    {
        const CliResult result = runElk({ u"presets"_s });
        QCOMPARE(result.exitCode, 0);
        const auto presets = elk::chip::builtinPresets();
        QVERIFY(presets.size() >= 5);
        const QStringList lines = result.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), qsizetype(presets.size()) + 1); // header + one line each
        for (std::size_t i = 0; i < presets.size(); ++i)
            QVERIFY(lines[qsizetype(i) + 1].startsWith(QString::fromStdString(presets[i].name) + u' '));
    }

    void cacheKeyIsStableAndFollowsOverrides()
    {
        const QStringList resolve { u"runspec"_s, u"resolve"_s, u"--model"_s, u"tiny.onnx"_s, u"--chip"_s,
            u"ipu-pod4-hbm"_s };
        auto cacheKey = [this](const QStringList& args) {
            const CliResult result = runElk(args);
            const qsizetype at = result.out.indexOf(u"cache key: "_s);
            return at < 0 ? QString() : result.out.mid(at + 11).trimmed();
        };
        const QString first = cacheKey(resolve);
        QCOMPARE(first.size(), 64);
        QCOMPARE(cacheKey(resolve), first);
        QVERIFY(cacheKey(resolve + QStringList { u"--set"_s, u"hbm.latencyNs=120"_s }) != first);
        QVERIFY(cacheKey(resolve + QStringList { u"--seed"_s, u"7"_s }) != first);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
