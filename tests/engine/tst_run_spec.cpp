// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "engine/chip/chip_spec_json.h"
#include "engine/chip/presets.h"
#include "engine/core/build_fingerprint.h"
#include "engine/core/sha256.h"
#include "engine/core/version.h"
#include "engine/run/run_spec.h"

using elk::run::Phase;
using elk::run::RunSpec;

namespace {

RunSpec meshSpec()
{
    RunSpec spec;
    spec.model = { "models/tiny.onnx", elk::sha256Hex("tiny"), "onnx" };
    spec.batch = 16;
    spec.seqLen = 1;
    spec.kvLen = 2048;
    spec.phase = Phase::Decode;
    spec.chip = elk::chip::findBuiltinPreset("teaching-mesh-4x4").value();
    spec.designs = { "elk-dyn", "basic" };
    spec.options.preloadNocThreshold = 0.9;
    spec.options.preloadIngressGBpsPerCore = 16;
    spec.options.delayCompute = true;
    spec.options.seed = 42;
    spec.engineVersion = elk::kEngineVersion;
    return spec;
}

/// Reaches the chip fields a mesh/roofline preset leaves empty (fitted model, explicit controllers).
RunSpec fittedExplicitSpec()
{
    RunSpec spec = meshSpec();
    spec.phase = Phase::Prefill;
    spec.seqLen = 128;
    spec.kvLen = 0;
    spec.chip.tileCost.model = elk::chip::TileCostModelKind::Fitted;
    spec.chip.tileCost.fitted.modelPath = "fits/tile.json";
    spec.chip.hbm.controllerPlacement = elk::chip::ControllerPlacement::Explicit;
    spec.chip.hbm.controllerCoreIds = { 5 };
    return spec;
}

std::string errorsText(const std::vector<elk::chip::FieldError>& errors)
{
    std::string text;
    for (const auto& error : errors)
        text += error.field + ": " + error.message + "\n";
    return text;
}

/// The canonical text with every string literal emptied, so format checks ignore string contents.
std::string withoutStrings(const std::string& text)
{
    std::string out;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"') {
                inString = false;
                out += c;
            }
        } else {
            inString = c == '"';
            out += c;
        }
    }
    return out;
}

/// Checks that inside every object the keys come in strictly increasing byte order.
bool keysSorted(const std::string& text, std::string& where)
{
    struct Frame {
        bool isObject;
        std::string lastKey;
    };
    std::vector<Frame> stack;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '{' || c == '[') {
            stack.push_back({ c == '{', {} });
        } else if (c == '}' || c == ']') {
            stack.pop_back();
        } else if (c == '"') {
            std::string literal;
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\')
                    literal += text[i++];
                literal += text[i];
            }
            const bool isKey = i + 1 < text.size() && text[i + 1] == ':';
            if (isKey && !stack.empty() && stack.back().isObject) {
                if (!stack.back().lastKey.empty() && !(stack.back().lastKey < literal)) {
                    where = "'" + literal + "' after '" + stack.back().lastKey + "'";
                    return false;
                }
                stack.back().lastKey = literal;
            }
        }
    }
    return true;
}

QStringList pointerTokens(const QString& pointer)
{
    return pointer.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

/// `node` with the value at `path` replaced (or removed when `value` is empty); missing objects are created.
QJsonValue edited(const QJsonValue& node, const QStringList& path, qsizetype at, const std::optional<QJsonValue>& value)
{
    if (at == path.size())
        return *value;
    const QString& key = path[at];
    const bool last = at + 1 == path.size();
    if (node.isArray()) {
        QJsonArray array = node.toArray();
        const int index = key.toInt();
        if (last && !value)
            array.removeAt(index);
        else
            array[index] = edited(array.at(index), path, at + 1, value);
        return array;
    }
    QJsonObject object = node.toObject();
    if (last && !value)
        object.remove(key);
    else
        object[key] = edited(object.value(key), path, at + 1, value);
    return object;
}

std::string editedText(const std::string& text, const QString& pointer, const std::optional<QJsonValue>& value)
{
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text));
    const QJsonValue root = edited(document.object(), pointerTokens(pointer), 0, value);
    return QJsonDocument(root.toObject()).toJson(QJsonDocument::Compact).toStdString();
}

void collectLeaves(const QJsonValue& node, const QString& pointer, QList<QPair<QString, QJsonValue>>& leaves)
{
    if (node.isObject()) {
        const QJsonObject object = node.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            collectLeaves(it.value(), pointer + QLatin1Char('/') + it.key(), leaves);
    } else if (node.isArray()) {
        const QJsonArray array = node.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            collectLeaves(array.at(i), pointer + QLatin1Char('/') + QString::number(i), leaves);
    } else {
        leaves.append({ pointer, node });
    }
}

/// Other values a leaf could take; the first that still parses is used (enum fields need a valid name).
QList<QJsonValue> alternatives(const QJsonValue& value)
{
    if (value.isBool())
        return { !value.toBool() };
    if (value.isDouble()) {
        const double number = value.toDouble();
        if (number == std::trunc(number) && std::fabs(number) < 1e15)
            return { QJsonValue(qint64(number) + 1), QJsonValue(qint64(number) - 1) };
        return { number * 1.5, number / 2 };
    }
    QList<QJsonValue> values;
    for (const char* name : { "decode", "prefill", "train", "all-to-all", "mesh2d", "ipu-mk2", "roofline", "fitted",
             "spread", "west-edge", "west-east-edges", "all-edges", "explicit", "basic", "static", "elk-dyn",
             "elk-full", "ideal", "onnx", "stablehlo" }) {
        if (value.toString() != QLatin1String(name))
            values.append(QString::fromLatin1(name));
    }
    values.append(QString(value.toString() + QStringLiteral("x")));
    return values;
}

std::string writeFile(const QTemporaryDir& dir, const QString& name, const std::string& bytes)
{
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream file(path, std::ios::binary);
    file << bytes;
    return path;
}

struct ValidationCase {
    const char* row;
    void (*mutate)(RunSpec&);
    const char* field; ///< nullptr: the spec stays valid
};

const ValidationCase kValidationCases[] = {
    { "the base spec is valid", [](RunSpec&) {}, nullptr },
    { "batch 0", [](RunSpec& s) { s.batch = 0; }, "/batch" },
    { "batch above the bound", [](RunSpec& s) { s.batch = elk::run::kMaxBatch + 1; }, "/batch" },
    { "seqLen 0", [](RunSpec& s) { s.seqLen = 0; }, "/seqLen" },
    { "seqLen above the bound", [](RunSpec& s) { s.seqLen = elk::run::kMaxTokens + 1; }, "/seqLen" },
    { "negative kvLen", [](RunSpec& s) { s.kvLen = -1; }, "/kvLen" },
    { "decode without KV cache", [](RunSpec& s) { s.kvLen = 0; }, "/kvLen" },
    { "prefill without KV cache is fine",
        [](RunSpec& s) {
            s.phase = Phase::Prefill;
            s.kvLen = 0;
        },
        nullptr },
    { "train with a KV cache",
        [](RunSpec& s) {
            s.phase = Phase::Train;
            s.kvLen = 5;
        },
        "/kvLen" },
    { "no design", [](RunSpec& s) { s.designs.clear(); }, "/designs" },
    { "unknown design", [](RunSpec& s) { s.designs = { "fast" }; }, "/designs/0" },
    { "duplicate design",
        [](RunSpec& s) {
            s.designs = { "ideal", "ideal" };
        },
        "/designs/1" },
    { "threshold 0", [](RunSpec& s) { s.options.preloadNocThreshold = 0; }, "/options/preloadNocThreshold" },
    { "threshold above 1", [](RunSpec& s) { s.options.preloadNocThreshold = 1.5; }, "/options/preloadNocThreshold" },
    { "threshold NaN", [](RunSpec& s) { s.options.preloadNocThreshold = std::nan(""); },
        "/options/preloadNocThreshold" },
    { "ingress 0", [](RunSpec& s) { s.options.preloadIngressGBpsPerCore = 0; }, "/options/preloadIngressGBpsPerCore" },
    { "ingress infinite",
        [](RunSpec& s) { s.options.preloadIngressGBpsPerCore = std::numeric_limits<double>::infinity(); },
        "/options/preloadIngressGBpsPerCore" },
    { "ingress above the link", [](RunSpec& s) { s.options.preloadIngressGBpsPerCore = 16.5; },
        "/options/preloadIngressGBpsPerCore" },
    { "bad sha256", [](RunSpec& s) { s.model.sha256 = "xyz"; }, "/model/sha256" },
    { "unknown format", [](RunSpec& s) { s.model.format = "pytorch"; }, "/model/format" },
    { "empty model path", [](RunSpec& s) { s.model.path.clear(); }, "/model/path" },
    { "empty engine version", [](RunSpec& s) { s.engineVersion.clear(); }, "/engineVersion" },
    { "chip with zero cores", [](RunSpec& s) { s.chip.coresPerChip = 0; }, "/chip/coresPerChip" },
};

} // namespace

class TestRunSpec : public QObject {
    Q_OBJECT

private slots:
    void sameSpecGivesSameTextAndHash()
    {
        const RunSpec spec = meshSpec();
        const std::string text = elk::run::runSpecToCanonicalJson(spec);
        QCOMPARE(elk::run::runSpecToCanonicalJson(spec), text);
        const RunSpec copy = spec;
        QCOMPARE(elk::run::runSpecToCanonicalJson(copy), text);
        QCOMPARE(elk::run::runSpecHash(spec), elk::sha256Hex(text));
        QCOMPARE(elk::run::runSpecHash(copy), elk::run::runSpecHash(spec));
        QVERIFY(elk::isSha256Hex(elk::run::runSpecHash(spec)));
    }

    void roundTripKeepsSpecTextAndHash_data()
    {
        QTest::addColumn<int>("which");
        QTest::addRow("mesh, roofline, decode") << 0;
        QTest::addRow("fitted, explicit controllers, prefill") << 1;
    }

    void roundTripKeepsSpecTextAndHash()
    {
        QFETCH(int, which);
        const RunSpec spec = which == 0 ? meshSpec() : fittedExplicitSpec();
        const std::string text = elk::run::runSpecToCanonicalJson(spec);
        const auto parsed = elk::run::runSpecFromJson(text);
        QVERIFY2(parsed.ok(), errorsText(parsed.errors).c_str());
        QVERIFY(parsed.spec == spec);
        QCOMPARE(elk::run::runSpecToCanonicalJson(parsed.spec), text);
        QCOMPARE(elk::run::runSpecHash(parsed.spec), elk::run::runSpecHash(spec));
    }

    void dimBindingsAreInTheTextAndTheHash()
    {
        // --dim and --input-shape change what the model is, so they are part of the spec and its hash
        // (and of the partition key); a spec without them keeps its old text.
        RunSpec spec = meshSpec();
        const std::string plain = elk::run::runSpecToCanonicalJson(spec);
        QVERIFY(plain.find("\"dims\"") == std::string::npos && plain.find("\"inputShapes\"") == std::string::npos);
        spec.dims = { { "p2o.DynamicDimension.0", 1 } };
        spec.inputShapes = { { "x", { 1, 3, 640, 640 } } };
        const std::string text = elk::run::runSpecToCanonicalJson(spec);
        QVERIFY2(text.find("\"dims\":{\"p2o.DynamicDimension.0\":1}") != std::string::npos, text.c_str());
        QVERIFY2(text.find("\"inputShapes\":{\"x\":[1,3,640,640]}") != std::string::npos, text.c_str());
        QVERIFY(elk::run::runSpecHash(spec) != elk::sha256Hex(plain));
        const auto parsed = elk::run::runSpecFromJson(text);
        QVERIFY2(parsed.ok(), errorsText(parsed.errors).c_str());
        QVERIFY(parsed.spec == spec);
        QVERIFY(elk::run::validateRunSpec(spec).empty());
        spec.inputShapes["x"][2] = 0;
        const auto errors = elk::run::validateRunSpec(spec);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors.front().field, std::string("/inputShapes/x/2"));
        const auto bad = elk::run::runSpecFromJson(R"({"dims": {"n": "one"}})");
        QVERIFY(!bad.ok());
        QVERIFY2(errorsText(bad.errors).find("/dims/n") != std::string::npos, errorsText(bad.errors).c_str());
    }

    void everyPresetRoundTrips_data()
    {
        QTest::addColumn<QString>("preset");
        const auto presets = elk::chip::builtinPresets();
        QVERIFY(presets.size() >= 5);
        for (const auto& preset : presets)
            QTest::addRow("%s", preset.name.c_str()) << QString::fromStdString(preset.name);
    }

    void everyPresetRoundTrips()
    {
        QFETCH(QString, preset);
        RunSpec spec = meshSpec();
        spec.chip = elk::chip::findBuiltinPreset(preset.toStdString()).value();
        spec.options.preloadIngressGBpsPerCore = spec.chip.interconnect.linkBandwidthGBpsPerCore;
        QVERIFY2(elk::run::validateRunSpec(spec).empty(), errorsText(elk::run::validateRunSpec(spec)).c_str());
        const std::string text = elk::run::runSpecToCanonicalJson(spec);
        const auto parsed = elk::run::runSpecFromJson(text);
        QVERIFY2(parsed.ok(), errorsText(parsed.errors).c_str());
        QVERIFY(parsed.spec == spec);
        QCOMPARE(elk::run::runSpecHash(parsed.spec), elk::run::runSpecHash(spec));
        // Clock rates are whole numbers of Hz: written as integers, not 1.325e+09 or 1325000000.0.
        QVERIFY2(
            QRegularExpression(QStringLiteral(R"("clockHz":\d+[,}])")).match(QString::fromStdString(text)).hasMatch(),
            text.c_str());
    }

    void layoutAndKeyOrderDoNotChangeTheHash()
    {
        const RunSpec spec = meshSpec();
        const std::string canonical = elk::run::runSpecToCanonicalJson(spec);
        // Same content, indented and with "16.0" for an integer: must give the same key.
        QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(canonical));
        std::string indented = document.toJson(QJsonDocument::Indented).toStdString();
        const std::size_t at = indented.find("\"batch\": 16");
        QVERIFY(at != std::string::npos);
        indented.replace(at, 11, "\"batch\": 16.0");
        const auto parsed = elk::run::runSpecFromJson(indented);
        QVERIFY2(parsed.ok(), errorsText(parsed.errors).c_str());
        QCOMPARE(elk::run::runSpecToCanonicalJson(parsed.spec), canonical);
    }

    void canonicalTextFormat()
    {
        const RunSpec spec = meshSpec();
        const std::string text = elk::run::runSpecToCanonicalJson(spec);
        const std::string bare = withoutStrings(text);
        QVERIFY2(bare.find_first_of(" \t\r\n") == std::string::npos, text.c_str());
        std::string where;
        QVERIFY2(keysSorted(text, where), where.c_str());
        QVERIFY2(text.rfind("{\"batch\":16,\"chip\":{", 0) == 0, text.c_str());
        QVERIFY(text.back() == '}');
        // Integral doubles (clockHz, overheadFactor 1.0 in the preset file, κ 16) carry no ".0".
        QVERIFY2(!QRegularExpression(QStringLiteral(R"(\d\.0+(?!\d))")).match(QString::fromStdString(bare)).hasMatch(),
            text.c_str());
        for (const char* expected :
            { "\"clockHz\":1000000000,", "\"overheadFactor\":1}", "\"designs\":[\"elk-dyn\",\"basic\"],",
                "\"options\":{\"delayCompute\":true,\"preloadIngressGBpsPerCore\":16,\"preloadNocThreshold\":0.9,"
                "\"seed\":42}",
                "\"phase\":\"decode\",\"schema\":\"elk.runspec/1\",\"seqLen\":1}" }) {
            QVERIFY2(text.find(expected) != std::string::npos, (std::string(expected) + " in " + text).c_str());
        }
        const std::string model = "\"model\":{\"format\":\"onnx\",\"path\":\"models/tiny.onnx\",\"sha256\":\""
            + elk::sha256Hex("tiny") + "\"}";
        QVERIFY2(text.find(model) != std::string::npos, text.c_str());
    }

    void nonFiniteNumbersAreRefused()
    {
        RunSpec spec = meshSpec();
        spec.options.preloadNocThreshold = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, elk::run::runSpecToCanonicalJson(spec));
        spec = meshSpec();
        spec.chip.clockHz = std::numeric_limits<double>::infinity();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, elk::run::runSpecToCanonicalJson(spec));
    }

    void anySingleFieldChangeChangesTheHash_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("mutated"); // empty: no parseable change was found (a failure)
        int rows = 0;
        for (int which : { 0, 1 }) {
            const std::string text = elk::run::runSpecToCanonicalJson(which == 0 ? meshSpec() : fittedExplicitSpec());
            QList<QPair<QString, QJsonValue>> leaves;
            collectLeaves(QJsonDocument::fromJson(QByteArray::fromStdString(text)).object(), QString(), leaves);
            for (const auto& [pointer, value] : leaves) {
                if (pointer.endsWith(QLatin1String("/schema")))
                    continue; // a different schema is a different format, checked in parseErrors
                QByteArray mutated;
                for (const QJsonValue& candidate : alternatives(value)) {
                    const std::string edited = editedText(text, pointer, candidate);
                    if (elk::run::runSpecFromJson(edited).ok()) {
                        mutated = QByteArray::fromStdString(edited);
                        break;
                    }
                }
                QTest::addRow("%s %s", which == 0 ? "mesh" : "fitted", qPrintable(pointer))
                    << which << pointer << mutated;
                ++rows;
            }
        }
        QVERIFY(rows > 40); // every chip field is a leaf; a collapse of the table would hide fields
    }

    void anySingleFieldChangeChangesTheHash()
    {
        QFETCH(int, which);
        QFETCH(QString, pointer);
        QFETCH(QByteArray, mutated);
        QVERIFY2(!mutated.isEmpty(), "no changed value of this field parses");
        const RunSpec base = which == 0 ? meshSpec() : fittedExplicitSpec();
        const auto parsed = elk::run::runSpecFromJson(mutated.toStdString());
        QVERIFY2(parsed.ok(), errorsText(parsed.errors).c_str());
        QVERIFY2(!(parsed.spec == base), "the parser ignored the changed field");
        QVERIFY(elk::run::runSpecToCanonicalJson(parsed.spec) != elk::run::runSpecToCanonicalJson(base));
        QVERIFY(elk::run::runSpecHash(parsed.spec) != elk::run::runSpecHash(base));
    }

    void designOrderMatters()
    {
        RunSpec reordered = meshSpec();
        std::swap(reordered.designs[0], reordered.designs[1]);
        QVERIFY(elk::run::runSpecHash(reordered) != elk::run::runSpecHash(meshSpec()));
    }

    void parseErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const std::string base = elk::run::runSpecToCanonicalJson(meshSpec());
        auto set = [&base](const char* pointer, const QJsonValue& value) {
            return QByteArray::fromStdString(editedText(base, QString::fromLatin1(pointer), value));
        };
        auto remove = [&base](const char* pointer) {
            return QByteArray::fromStdString(editedText(base, QString::fromLatin1(pointer), std::nullopt));
        };
        QTest::addRow("empty text") << QByteArray() << QStringLiteral("line 1, column 1") << QString();
        QTest::addRow("bad literal on line 3")
            << QByteArray("{\n  \"batch\": 1,\n  oops\n}") << QStringLiteral("line 3, column 3") << QString();
        QTest::addRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("/") << QStringLiteral("object");
        QTest::addRow("missing phase") << remove("/phase") << QStringLiteral("/phase") << QStringLiteral("missing");
        QTest::addRow("unknown key") << set("/extra", 1) << QStringLiteral("/extra") << QStringLiteral("unknown key");
        QTest::addRow("batch as string") << set("/batch", QStringLiteral("16")) << QStringLiteral("/batch")
                                         << QStringLiteral("integer");
        QTest::addRow("fractional batch")
            << set("/batch", 1.5) << QStringLiteral("/batch") << QStringLiteral("integer");
        QTest::addRow("unknown phase") << set("/phase", QStringLiteral("sideways")) << QStringLiteral("/phase")
                                       << QStringLiteral("decode, prefill, train");
        QTest::addRow("other schema") << set("/schema", QStringLiteral("elk.runspec/2")) << QStringLiteral("/schema")
                                      << QStringLiteral("elk.runspec/1");
        QTest::addRow("designs not an array")
            << set("/designs", QStringLiteral("basic")) << QStringLiteral("/designs") << QStringLiteral("array");
        QTest::addRow("design not a string")
            << set("/designs/1", 3) << QStringLiteral("/designs/1") << QStringLiteral("design name");
        QTest::addRow("negative seed") << set("/options/seed", -1) << QStringLiteral("/options/seed")
                                       << QStringLiteral("≥ 0");
        QTest::addRow("delayCompute as string")
            << set("/options/delayCompute", QStringLiteral("yes")) << QStringLiteral("/options/delayCompute")
            << QStringLiteral("true or false");
        QTest::addRow("missing sha256") << remove("/model/sha256") << QStringLiteral("/model/sha256")
                                        << QStringLiteral("missing");
        QTest::addRow("unknown chip key")
            << set("/chip/interconnect/bogus", 1) << QStringLiteral("/chip/interconnect/bogus") << QString();
        QTest::addRow("chip field of wrong type")
            << set("/chip/coresPerChip", QStringLiteral("four")) << QStringLiteral("/chip/coresPerChip") << QString();
        QTest::addRow("chip not an object") << set("/chip", 7) << QStringLiteral("/chip") << QStringLiteral("object");
    }

    void parseErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const auto parsed = elk::run::runSpecFromJson(text.toStdString());
        QVERIFY(!parsed.ok());
        bool found = false;
        for (const auto& error : parsed.errors) {
            found = found
                || (QString::fromStdString(error.field).startsWith(field)
                    && QString::fromStdString(error.message).contains(message));
        }
        QVERIFY2(found, errorsText(parsed.errors).c_str());
    }

    void validation_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kValidationCases)); ++i)
            QTest::addRow("%s", kValidationCases[i].row) << i;
    }

    void validation()
    {
        QFETCH(int, index);
        const ValidationCase& c = kValidationCases[index];
        RunSpec spec = meshSpec();
        c.mutate(spec);
        const auto errors = elk::run::validateRunSpec(spec);
        if (c.field == nullptr) {
            QVERIFY2(errors.empty(), errorsText(errors).c_str());
            return;
        }
        QVERIFY(!errors.empty());
        bool named = false;
        for (const auto& error : errors)
            named = named || (error.field == c.field && !error.message.empty());
        QVERIFY2(named, errorsText(errors).c_str());
    }

    void resolveFillsDefaults()
    {
        QTemporaryDir dir;
        elk::run::RunRequest request;
        request.modelPath = writeFile(dir, QStringLiteral("tiny.onnx"), "abc");
        request.chip = "ipu-pod4-hbm";
        const auto result = elk::run::resolveRunSpec(request);
        QVERIFY2(result.ok(), errorsText(result.errors).c_str());
        const RunSpec& spec = result.spec;
        QCOMPARE(spec.model.path, request.modelPath);
        QCOMPARE(spec.model.sha256, std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(spec.model.format, std::string("onnx"));
        QVERIFY(spec.chip == elk::chip::findBuiltinPreset("ipu-pod4-hbm").value());
        QCOMPARE(spec.phase, Phase::Decode);
        QCOMPARE(spec.batch, std::int64_t(1));
        QCOMPARE(spec.seqLen, std::int64_t(1));
        QCOMPARE(spec.kvLen, std::int64_t(2048));
        QVERIFY(spec.designs == elk::run::knownDesigns());
        QCOMPARE(spec.options.preloadIngressGBpsPerCore, 5.5);
        QCOMPARE(spec.engineVersion, elk::engineBuildId());
        QCOMPARE(elk::run::runSpecHash(elk::run::resolveRunSpec(request).spec), elk::run::runSpecHash(spec));

        request.phase = Phase::Prefill;
        const auto prefill = elk::run::resolveRunSpec(request);
        QVERIFY2(prefill.ok(), errorsText(prefill.errors).c_str());
        QCOMPARE(prefill.spec.seqLen, std::int64_t(2048));
        QCOMPARE(prefill.spec.kvLen, std::int64_t(0));
    }

    void resolveHashesModelContent()
    {
        QTemporaryDir dir;
        elk::run::RunRequest request;
        request.chip = "teaching-mesh-4x4";
        request.modelPath = writeFile(dir, QStringLiteral("a.mlir"), "module {}");
        const auto first = elk::run::resolveRunSpec(request);
        writeFile(dir, QStringLiteral("a.mlir"), "module { }");
        const auto second = elk::run::resolveRunSpec(request);
        QVERIFY(first.ok() && second.ok());
        QCOMPARE(first.spec.model.format, std::string("stablehlo"));
        QVERIFY(first.spec.model.sha256 != second.spec.model.sha256);
        QVERIFY(elk::run::runSpecHash(first.spec) != elk::run::runSpecHash(second.spec));
    }

    void resolveFromChipFile()
    {
        QTemporaryDir dir;
        elk::run::RunRequest request;
        request.modelPath = writeFile(dir, QStringLiteral("m.onnx"), "x");
        request.chip = writeFile(dir, QStringLiteral("chip.json"), elk::chip::builtinPresetJson("ipu-mk2-hbm").value());
        const auto result = elk::run::resolveRunSpec(request);
        QVERIFY2(result.ok(), errorsText(result.errors).c_str());
        QVERIFY(result.spec.chip == elk::chip::findBuiltinPreset("ipu-mk2-hbm").value());
    }

    void overrides_data()
    {
        QTest::addColumn<QString>("chip");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("expected"); // in the canonical run spec text
        QTest::addRow("dotted number") << QStringLiteral("ipu-pod4-hbm")
                                       << QStringList { QStringLiteral("interconnect.linkBandwidthGBpsPerCore=8") }
                                       << QStringLiteral("\"linkBandwidthGBpsPerCore\":8,");
        QTest::addRow("κ follows the overridden link")
            << QStringLiteral("ipu-pod4-hbm")
            << QStringList { QStringLiteral("interconnect.linkBandwidthGBpsPerCore=8") }
            << QStringLiteral("\"preloadIngressGBpsPerCore\":8,");
        QTest::addRow("JSON pointer") << QStringLiteral("ipu-pod4-hbm")
                                      << QStringList { QStringLiteral("/hbm/stacksPerChip=2") }
                                      << QStringLiteral("\"stacksPerChip\":2");
        QTest::addRow("bare word is a string") << QStringLiteral("teaching-mesh-4x4")
                                               << QStringList { QStringLiteral("hbm.controllerPlacement=all-edges") }
                                               << QStringLiteral("\"controllerPlacement\":\"all-edges\"");
        QTest::addRow("string field keeps digits as text")
            << QStringLiteral("teaching-mesh-4x4") << QStringList { QStringLiteral("name=1234") }
            << QStringLiteral("\"name\":\"1234\"");
        QTest::addRow("all-to-all to mesh")
            << QStringLiteral("ipu-mk2-hbm")
            << QStringList { QStringLiteral("interconnect.topology=mesh2d"),
                   QStringLiteral("interconnect.meshWidth=46"), QStringLiteral("interconnect.meshHeight=32") }
            << QStringLiteral("\"meshHeight\":32,\"meshWidth\":46");
        // The artifact's --hbm_bw 16000 on 16 stacks, in its own unit (MiB/ms): 1048.576 GB/s per stack.
        QTest::addRow("HBM bandwidth in the artifact's MiB/ms")
            << QStringLiteral("ipu-pod4-hbm") << QStringList { QStringLiteral("hbm.bandwidthMiBPerMsPerStack=1000") }
            << QStringLiteral("\"bandwidthGBpsPerStack\":1048.576,");
        QTest::addRow("later override wins")
            << QStringLiteral("ipu-pod4-hbm") << QStringList { QStringLiteral("chips=2"), QStringLiteral("chips=3") }
            << QStringLiteral("\"chips\":3,");
    }

    void overrides()
    {
        QFETCH(QString, chip);
        QFETCH(QStringList, overrides);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        elk::run::RunRequest request;
        request.modelPath = writeFile(dir, QStringLiteral("m.onnx"), "x");
        request.chip = chip.toStdString();
        for (const QString& o : overrides)
            request.chipOverrides.push_back(o.toStdString());
        const auto result = elk::run::resolveRunSpec(request);
        QVERIFY2(result.ok(), errorsText(result.errors).c_str());
        const std::string text = elk::run::runSpecToCanonicalJson(result.spec);
        QVERIFY2(text.find(expected.toStdString()) != std::string::npos, text.c_str());
    }

    void resolveErrors_data()
    {
        QTest::addColumn<QString>("model"); // file name in the temporary dir; "-" = no such file
        QTest::addColumn<QString>("chip");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const QString model = QStringLiteral("m.onnx");
        const QString pod4 = QStringLiteral("ipu-pod4-hbm");
        QTest::addRow("unknown override field")
            << model << pod4 << QStringList { QStringLiteral("interconnect.bogus=1") }
            << QStringLiteral("/chip/interconnect/bogus") << QStringLiteral("unknown chip field 'interconnect.bogus'");
        QTest::addRow("override through a number")
            << model << pod4 << QStringList { QStringLiteral("chips.x=1") } << QStringLiteral("/chip/chips/x")
            << QStringLiteral("unknown chip field 'chips.x'");
        QTest::addRow("override without =") << model << pod4 << QStringList { QStringLiteral("chips") }
                                            << QStringLiteral("/chip") << QStringLiteral("not field=value");
        QTest::addRow("override to an invalid value")
            << model << pod4 << QStringList { QStringLiteral("coresPerChip=0") } << QStringLiteral("/chip/coresPerChip")
            << QStringLiteral("override 'coresPerChip=0'");
        QTest::addRow("override to an unknown enum value")
            << model << pod4 << QStringList { QStringLiteral("interconnect.topology=ring") }
            << QStringLiteral("/chip/interconnect/topology") << QStringLiteral("override 'interconnect.topology=ring'");
        QTest::addRow("override of the wrong type")
            << model << pod4 << QStringList { QStringLiteral("sramBytesPerCore=lots") }
            << QStringLiteral("/chip/sramBytesPerCore") << QStringLiteral("sramBytesPerCore=lots");
        QTest::addRow("missing model file") << QStringLiteral("-") << pod4 << QStringList {}
                                            << QStringLiteral("/model/path") << QStringLiteral("absent.onnx");
        QTest::addRow("unknown model extension")
            << QStringLiteral("m.bin") << pod4 << QStringList {} << QStringLiteral("/model/format")
            << QStringLiteral(".onnx, .mlir or .elk.json");
        QTest::addRow("unknown preset") << model << QStringLiteral("ipu-pod5") << QStringList {}
                                        << QStringLiteral("/chip") << QStringLiteral("ipu-pod4-hbm-mesh");
        QTest::addRow("broken chip file") << model << QStringLiteral("broken.json") << QStringList {}
                                          << QStringLiteral("/chip") << QStringLiteral("broken.json: line 2");
    }

    void resolveErrors()
    {
        QFETCH(QString, model);
        QFETCH(QString, chip);
        QFETCH(QStringList, overrides);
        QFETCH(QString, field);
        QFETCH(QString, message);
        QTemporaryDir dir;
        elk::run::RunRequest request;
        request.modelPath = model == QLatin1String("-") ? dir.filePath(QStringLiteral("absent.onnx")).toStdString()
                                                        : writeFile(dir, model, "x");
        request.chip
            = chip.endsWith(QLatin1String(".json")) ? writeFile(dir, chip, "{\n  \"chips\": ,\n}") : chip.toStdString();
        for (const QString& o : overrides)
            request.chipOverrides.push_back(o.toStdString());
        const auto result = elk::run::resolveRunSpec(request);
        QVERIFY(!result.ok());
        bool found = false;
        for (const auto& error : result.errors) {
            found = found
                || (QString::fromStdString(error.field) == field
                    && QString::fromStdString(error.message).contains(message));
        }
        QVERIFY2(found, errorsText(result.errors).c_str());
    }

    void resolveValidatesRequestFields()
    {
        QTemporaryDir dir;
        elk::run::RunRequest request;
        request.modelPath = writeFile(dir, QStringLiteral("m.onnx"), "x");
        request.chip = "ipu-pod4-hbm";
        request.phase = Phase::Train;
        request.kvLen = 5;
        request.batch = 0;
        request.designs = { "basic", "warp" };
        const auto result = elk::run::resolveRunSpec(request);
        QStringList fields;
        for (const auto& error : result.errors)
            fields << QString::fromStdString(error.field);
        QCOMPARE(
            fields, (QStringList { QStringLiteral("/batch"), QStringLiteral("/designs/1"), QStringLiteral("/kvLen") }));
    }
};

QTEST_GUILESS_MAIN(TestRunSpec)
#include "tst_run_spec.moc"
