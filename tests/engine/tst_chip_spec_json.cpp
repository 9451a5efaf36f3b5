// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QTest>

#include <cfloat>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/chip/chip_spec.h"
#include "engine/chip/chip_spec_json.h"
#include "engine/chip/chip_validate.h"
#include "engine/chip/presets.h"
#include "tests/support/compare_near.h"

using namespace elk::chip;

namespace {

QByteArray listErrors(const std::vector<FieldError>& errors)
{
    QByteArray text;
    for (const FieldError& error : errors)
        text += "\n  " + QByteArray::fromStdString(error.field) + ": " + QByteArray::fromStdString(error.message);
    return text.isEmpty() ? QByteArray("(no errors)") : text;
}

std::string presetText(const char* name)
{
    const std::optional<std::string> text = builtinPresetJson(name);
    return text ? *text : std::string();
}

// Draws values that stress the writer: extremes, signed zero, subnormals, long fractions.
class SpecMutator {
public:
    explicit SpecMutator(std::uint32_t seed)
        : m_random(seed)
    {
    }

    int anyInt()
    {
        static const int special[] = { 0, 1, -1, INT_MAX, INT_MIN, 46, 1472 };
        if (chance(3))
            return special[pick(std::size(special))];
        return std::uniform_int_distribution<int>(INT_MIN, INT_MAX)(m_random);
    }

    std::int64_t anyInt64()
    {
        static const std::int64_t special[] = { 0, -1, INT64_MAX, INT64_MIN, std::int64_t(1) << 53, 638976 };
        if (chance(3))
            return special[pick(std::size(special))];
        return std::uniform_int_distribution<std::int64_t>(INT64_MIN, INT64_MAX)(m_random);
    }

    double anyDouble()
    {
        static const double special[] = { 0.0, -0.0, 0.1, 1.0 / 3.0, 5e-324, DBL_MIN, DBL_MAX, -DBL_MAX, 1e21, 5.5,
            1325000000.0, 0.30000000000000004 };
        if (chance(3))
            return special[pick(std::size(special))];
        const double mantissa = std::uniform_real_distribution<double>(-10.0, 10.0)(m_random);
        const int exponent = std::uniform_int_distribution<int>(-300, 300)(m_random);
        return mantissa * std::pow(10.0, exponent);
    }

    std::string anyText()
    {
        static const char* const texts[] = { "", "x", "ipu-mk2-hbm", "ünïcødé ✓", "quote \" and back\\slash",
            "tab\tnew\nline", "\x01\x1f control", "/~ pointer chars ~1" };
        return texts[pick(std::size(texts))];
    }

    template <typename Enum, std::size_t N> Enum anyOf(const Enum (&all)[N]) { return all[pick(N)]; }

    bool chance(int oneIn) { return pick(std::size_t(oneIn)) == 0; }

    void mutate(ChipSpec& spec)
    {
        // Each field changes with probability 1/2, so many combinations of edited and preset values occur.
        if (chance(2))
            spec.name = anyText();
        if (chance(2))
            spec.description = anyText();
        if (chance(2))
            spec.source = anyText();
        if (chance(2))
            spec.chips = anyInt();
        if (chance(2))
            spec.coresPerChip = anyInt();
        if (chance(2))
            spec.sramBytesPerCore = anyInt64();
        if (chance(2))
            spec.sramBandwidthBytesPerCyclePerCore = anyDouble();
        if (chance(2))
            spec.clockHz = anyDouble();
        if (chance(2))
            spec.tileCost.model = anyOf(kAllTileCostModelKinds);
        if (chance(2))
            spec.tileCost.roofline.peakFlopPerCycleFp32 = anyDouble();
        if (chance(2))
            spec.tileCost.roofline.peakFlopPerCycleFp16 = anyDouble();
        if (chance(2))
            spec.tileCost.roofline.peakFlopPerCycleFp8 = anyDouble();
        if (chance(2))
            spec.tileCost.roofline.sramBytesPerCycle = anyDouble();
        if (chance(2))
            spec.tileCost.roofline.opOverheadCycles = anyInt64();
        if (chance(2))
            spec.tileCost.fitted.modelPath = anyText();
        if (chance(2))
            spec.interconnect.topology = anyOf(kAllTopologies);
        if (chance(2))
            spec.interconnect.meshWidth = anyInt();
        if (chance(2))
            spec.interconnect.meshHeight = anyInt();
        if (chance(2))
            spec.interconnect.linkBandwidthGBpsPerCore = anyDouble();
        if (chance(2))
            spec.interconnect.hopLatencyCycles = anyInt64();
        if (chance(2))
            spec.interconnect.syncCostCycles = anyInt64();
        if (chance(2))
            spec.interChip.linkBandwidthGBps = anyDouble();
        if (chance(2))
            spec.interChip.latencyCycles = anyInt64();
        if (chance(2))
            spec.interChip.overheadFactor = anyDouble();
        if (chance(2))
            spec.hbm.stacksPerChip = anyInt();
        if (chance(2))
            spec.hbm.bandwidthGBpsPerStack = anyDouble();
        if (chance(2))
            spec.hbm.capacityGiBPerStack = anyDouble();
        if (chance(2))
            spec.hbm.latencyNs = anyInt64();
        if (chance(2))
            spec.hbm.controllerPlacement = anyOf(kAllControllerPlacements);
        if (chance(2)) {
            spec.hbm.controllerCoreIds.resize(pick(6));
            for (int& id : spec.hbm.controllerCoreIds)
                id = anyInt();
        }
    }

private:
    std::size_t pick(std::size_t count) { return std::uniform_int_distribution<std::size_t>(0, count - 1)(m_random); }

    std::mt19937 m_random;
};

// The canonical form of resources/presets/teaching-mesh-4x4.json, written out by hand: sorted keys, two-space
// indent, inactive blocks present, doubles with a fraction, a final newline.
const char* const kTeachingCanonical = R"({
  "chips": 1,
  "clockHz": 1000000000.0,
  "coresPerChip": 16,
  "description": "A tiny 4 x 4 mesh chip for classes and hand-checked examples: 16 cores, 256 KiB each, one HBM stack on the west edge.",
  "hbm": {
    "bandwidthGBpsPerStack": 64.0,
    "capacityGiBPerStack": 1.0,
    "controllerCoreIds": [],
    "controllerPlacement": "west-edge",
    "latencyNs": 100,
    "stacksPerChip": 1
  },
  "interChip": {
    "latencyCycles": 0,
    "linkBandwidthGBps": 0.0,
    "overheadFactor": 1.0
  },
  "interconnect": {
    "hopLatencyCycles": 1,
    "linkBandwidthGBpsPerCore": 16.0,
    "meshHeight": 4,
    "meshWidth": 4,
    "syncCostCycles": 10,
    "topology": "mesh2d"
  },
  "name": "teaching-mesh-4x4",
  "schema": "elk.chip/1",
  "source": "Made-up teaching part; round numbers chosen so timelines can be computed by hand (not a real chip). SRAM port 64 B/cycle per core: the roofline sramBytesPerCycle.",
  "sramBandwidthBytesPerCyclePerCore": 64.0,
  "sramBytesPerCore": 262144,
  "tileCost": {
    "fitted": {
      "modelPath": ""
    },
    "model": "roofline",
    "roofline": {
      "opOverheadCycles": 0,
      "peakFlopPerCycleFp16": 128.0,
      "peakFlopPerCycleFp32": 64.0,
      "peakFlopPerCycleFp8": 256.0,
      "sramBytesPerCycle": 64.0
    }
  }
}
)";

} // namespace

class TestChipSpecJson : public QObject {
    Q_OBJECT

private slots:
    void roundTripsEveryPreset_data()
    {
        QTest::addColumn<QByteArray>("name");
        for (const ChipSpec& spec : builtinPresets())
            QTest::addRow("%s", spec.name.c_str()) << QByteArray::fromStdString(spec.name);
    }

    void roundTripsEveryPreset()
    {
        QFETCH(QByteArray, name);
        const ChipParseResult fromFile = chipSpecFromJson(presetText(name.constData()));
        QVERIFY2(fromFile.ok(), listErrors(fromFile.errors).constData());

        const std::string canonical = chipSpecToJson(fromFile.spec);
        const ChipParseResult again = chipSpecFromJson(canonical);
        QVERIFY2(again.ok(), listErrors(again.errors).constData());
        QCOMPARE(QByteArray::fromStdString(chipSpecToJson(again.spec)), QByteArray::fromStdString(canonical));
        QVERIFY(again.spec == fromFile.spec);
    }

    void roundTripsEditedSpecs()
    {
        const std::vector<ChipSpec> presets = builtinPresets();
        SpecMutator mutator(20260101u); // fixed seed: a failure reproduces
        for (int i = 0; i < 500; ++i) {
            ChipSpec spec = presets[std::size_t(i) % presets.size()];
            mutator.mutate(spec);
            const std::string text = chipSpecToJson(spec);
            const ChipParseResult parsed = chipSpecFromJson(text);
            QVERIFY2(parsed.ok(),
                QByteArray(listErrors(parsed.errors) + "\nin\n" + QByteArray::fromStdString(text)).constData());
            if (!(parsed.spec == spec)) {
                QCOMPARE(QByteArray::fromStdString(chipSpecToJson(parsed.spec)), QByteArray::fromStdString(text));
                QFAIL(("specs differ although their JSON is equal:\n" + text).c_str());
            }
        }
    }

    void writesCanonicalText()
    {
        const std::optional<ChipSpec> spec = findBuiltinPreset("teaching-mesh-4x4");
        QVERIFY(spec);
        QCOMPARE(QByteArray::fromStdString(chipSpecToJson(*spec)), QByteArray(kTeachingCanonical));
    }

    void canonicalTextIsStable()
    {
        // Same spec gives byte-identical text; any field edit changes it.
        const ChipSpec spec = *findBuiltinPreset("ipu-pod4-hbm");
        const std::string first = chipSpecToJson(spec);
        QCOMPARE(QByteArray::fromStdString(chipSpecToJson(ChipSpec(spec))), QByteArray::fromStdString(first));
        QCOMPARE(
            QByteArray::fromStdString(chipSpecToJson(chipSpecFromJson(first).spec)), QByteArray::fromStdString(first));
        ChipSpec edited = spec;
        edited.hbm.latencyNs += 1;
        QVERIFY(chipSpecToJson(edited) != first);
    }

    void writesInactiveFields()
    {
        const std::string text = chipSpecToJson(*findBuiltinPreset("ipu-mk2-hbm"));
        for (const char* key : { "\"roofline\"", "\"fitted\"", "\"modelPath\"", "\"meshWidth\"", "\"meshHeight\"",
                 "\"controllerCoreIds\"", "\"schema\": \"elk.chip/1\"" })
            QVERIFY2(text.find(key) != std::string::npos, key);
        QVERIFY(text.back() == '\n');
    }

    void acceptsMissingInactiveFields()
    {
        // The committed ipu-mk2-hbm file has no roofline/fitted block, no mesh size and no controller ids.
        const std::string text = presetText("ipu-mk2-hbm");
        QVERIFY(text.find("roofline") == std::string::npos);
        QVERIFY(text.find("meshWidth") == std::string::npos);
        const ChipParseResult parsed = chipSpecFromJson(text);
        QVERIFY2(parsed.ok(), listErrors(parsed.errors).constData());
        QCOMPARE(parsed.spec.tileCost.roofline.peakFlopPerCycleFp16, 0.0);
        QCOMPARE(parsed.spec.interconnect.meshWidth, 0);
        QVERIFY(parsed.spec.hbm.controllerCoreIds.empty());
    }

    void optionalSramPortKey_data()
    {
        // `value`: the key's JSON text in tt-wormhole-n300 (which has no such key); empty = left out.
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<double>("expected");
        QTest::addColumn<bool>("valid"); // parses and validates
        QTest::addRow("absent: 0, not modelled") << QByteArray() << 0.0 << true;
        QTest::addRow("64 B/cycle (link: 32)") << QByteArray("64") << 64.0 << true;
        QTest::addRow("negative: validation names the field") << QByteArray("-1") << -1.0 << false;
        QTest::addRow("a string: parsing names the field") << QByteArray("\"fast\"") << 0.0 << false;
    }

    void optionalSramPortKey()
    {
        QFETCH(QByteArray, value);
        QFETCH(double, expected);
        QFETCH(bool, valid);
        const char* key = "sramBandwidthBytesPerCyclePerCore";
        std::string text = presetText("tt-wormhole-n300");
        QVERIFY(text.find(key) == std::string::npos);
        if (!value.isEmpty())
            text.insert(text.find('{') + 1, "\"" + std::string(key) + "\": " + value.toStdString() + ",");
        const ChipParseResult parsed = chipSpecFromJson(text);
        std::vector<FieldError> errors = parsed.errors;
        if (parsed.ok()) {
            QCOMPARE(parsed.spec.sramBandwidthBytesPerCyclePerCore, expected);
            errors = validateChipSpec(parsed.spec);
            // Written back only when set: chips without the key keep their canonical text.
            const std::string canonical = chipSpecToJson(parsed.spec);
            QCOMPARE(canonical.find(key) != std::string::npos, expected != 0);
            QVERIFY(chipSpecFromJson(canonical).spec == parsed.spec);
        }
        QVERIFY2(errors.empty() == valid, listErrors(errors).constData());
        if (!valid) {
            QCOMPARE(errors.size(), std::size_t(1));
            QCOMPARE(errors.front().field, "/" + std::string(key));
        }
    }

    void hbmBandwidthInTheArtifactsUnit_data()
    {
        // `replacement`: what stands for "bandwidthGBpsPerStack": <value> in ipu-mk2-hbm's hbm block.
        QTest::addColumn<QByteArray>("replacement");
        QTest::addColumn<double>("expectedGBps"); // 0: an error naming `errorField`
        QTest::addColumn<QByteArray>("errorField");
        QTest::addRow("GB/s (SI)") << QByteArray("\"bandwidthGBpsPerStack\": 1000") << 1000.0 << QByteArray();
        // The artifact's --hbm_bw 16000 over 16 stacks: 1000 MiB/ms = 1.048576 TB/s per stack.
        QTest::addRow("MiB/ms (artifact)")
            << QByteArray("\"bandwidthMiBPerMsPerStack\": 1000") << 1048.576 << QByteArray();
        QTest::addRow("both: an error") << QByteArray(
            "\"bandwidthGBpsPerStack\": 1000, \"bandwidthMiBPerMsPerStack\": 1000")
                                        << 0.0 << QByteArray("/hbm/bandwidthMiBPerMsPerStack");
        QTest::addRow("MiB/ms as a string") << QByteArray("\"bandwidthMiBPerMsPerStack\": \"1000\"") << 0.0
                                            << QByteArray("/hbm/bandwidthMiBPerMsPerStack");
    }

    void hbmBandwidthInTheArtifactsUnit()
    {
        QFETCH(QByteArray, replacement);
        QFETCH(double, expectedGBps);
        QFETCH(QByteArray, errorField);
        std::string text = presetText("ipu-mk2-hbm");
        const std::string key = "\"bandwidthGBpsPerStack\": 1000";
        const std::size_t at = text.find(key);
        QVERIFY(at != std::string::npos);
        text.replace(at, key.size(), replacement.toStdString());
        const ChipParseResult parsed = chipSpecFromJson(text);
        if (expectedGBps == 0) {
            QVERIFY(!parsed.ok());
            QCOMPARE(parsed.errors.front().field, errorField.toStdString());
            return;
        }
        QVERIFY2(parsed.ok(), listErrors(parsed.errors).constData());
        ELK_COMPARE_NEAR(parsed.spec.hbm.bandwidthGBpsPerStack, expectedGBps, 1e-9);
        ELK_COMPARE_NEAR(parsed.spec.totalHbmBandwidthMiBPerMs(), expectedGBps * 4 / kGBpsPerMiBPerMs, 1e-9);
        // The canonical text is SI.
        QVERIFY(chipSpecToJson(parsed.spec).find("bandwidthGBpsPerStack") != std::string::npos);
    }

    void acceptsIntegralNumbersForIntegers()
    {
        std::string text = chipSpecToJson(*findBuiltinPreset("teaching-mesh-4x4"));
        const std::string from = "\"coresPerChip\": 16,";
        text.replace(text.find(from), from.size(), "\"coresPerChip\": 1.6e1,");
        const ChipParseResult parsed = chipSpecFromJson(text);
        QVERIFY2(parsed.ok(), listErrors(parsed.errors).constData());
        QCOMPARE(parsed.spec.coresPerChip, 16);
    }

    void reportsErrors_data()
    {
        // base: "canonical" (teaching-mesh-4x4 as written by chipSpecToJson), "file" (its committed text), or
        // "none" (the text is `to` alone). `from` must occur in the base; it is replaced once by `to`.
        QTest::addColumn<QByteArray>("base");
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QByteArray>("field");
        QTest::addColumn<QByteArray>("message");

        // Syntax errors: the field gives line and column.
        QTest::addRow("syntax: missing colon")
            << QByteArray("none") << QByteArray() << QByteArray("{\n  \"schema\": \"elk.chip/1\",\n  \"name\" 7\n}")
            << QByteArray("line 3, column 10") << QByteArray("syntax error while parsing object separator");
        QTest::addRow("syntax: trailing comma")
            << QByteArray("none") << QByteArray() << QByteArray("{\n  \"chips\": 1,\n}")
            << QByteArray("line 3, column 1") << QByteArray("syntax error");
        QTest::addRow("syntax: unterminated string")
            << QByteArray("none") << QByteArray() << QByteArray("{\n\n   \"name\": \"abc")
            << QByteArray("line 3, column 16") << QByteArray("missing closing quote");
        QTest::addRow("syntax: empty input") << QByteArray("none") << QByteArray() << QByteArray()
                                             << QByteArray("line 1, column 1") << QByteArray("unexpected end of input");
        QTest::addRow("syntax: number too large for a double")
            << QByteArray("canonical") << QByteArray("\"clockHz\": 1000000000.0") << QByteArray("\"clockHz\": 1e400")
            << QByteArray("line 3, column 14") << QByteArray("number overflow parsing '1e400'");
        QTest::addRow("document is not an object")
            << QByteArray("none") << QByteArray() << QByteArray("[1, 2]") << QByteArray("/")
            << QByteArray("expected a chip object, found an array");

        // Schema.
        QTest::addRow("schema: other version")
            << QByteArray("canonical") << QByteArray("\"elk.chip/1\"") << QByteArray("\"elk.chip/2\"")
            << QByteArray("/schema") << QByteArray("expected \"elk.chip/1\", found string \"elk.chip/2\"");
        QTest::addRow("schema: missing") << QByteArray("file") << QByteArray("\"schema\": \"elk.chip/1\",")
                                         << QByteArray() << QByteArray("/schema")
                                         << QByteArray("missing; expected \"elk.chip/1\"");
        QTest::addRow("schema: not a string")
            << QByteArray("canonical") << QByteArray("\"elk.chip/1\"") << QByteArray("1") << QByteArray("/schema")
            << QByteArray("expected \"elk.chip/1\", found number 1");

        // Unknown and duplicate keys.
        QTest::addRow("unknown top-level key")
            << QByteArray("canonical") << QByteArray("\"chips\": 1,")
            << QByteArray("\"chips\": 1,\n  \"colour\": \"red\",") << QByteArray("/colour")
            << QByteArray("unknown key \"colour\"; allowed keys here: schema, name, description, source, chips, "
                          "coresPerChip, sramBytesPerCore, sramBandwidthBytesPerCyclePerCore, clockHz, tileCost, "
                          "interconnect, interChip, hbm");
        QTest::addRow("unknown nested key")
            << QByteArray("canonical") << QByteArray("\"latencyNs\": 100,")
            << QByteArray("\"latencyNs\": 100,\n    \"latencyCycles\": 3,") << QByteArray("/hbm/latencyCycles")
            << QByteArray("allowed keys here: stacksPerChip, bandwidthGBpsPerStack, bandwidthMiBPerMsPerStack, "
                          "capacityGiBPerStack, latencyNs, "
                          "controllerPlacement, controllerCoreIds");
        QTest::addRow("unknown key in an inactive block")
            << QByteArray("canonical") << QByteArray("\"modelPath\": \"\"")
            << QByteArray("\"modelPath\": \"\", \"modelPth\": \"\"") << QByteArray("/tileCost/fitted/modelPth")
            << QByteArray("allowed keys here: modelPath");
        QTest::addRow("unknown key with pointer characters")
            << QByteArray("canonical") << QByteArray("\"chips\": 1,") << QByteArray("\"chips\": 1, \"a/b~c\": 0,")
            << QByteArray("/a~1b~0c") << QByteArray("unknown key \"a/b~c\"");
        QTest::addRow("duplicate key") << QByteArray("canonical") << QByteArray("\"chips\": 1,")
                                       << QByteArray("\"chips\": 1,\n  \"chips\": 2,") << QByteArray("/chips")
                                       << QByteArray("duplicate key \"chips\"");
        QTest::addRow("duplicate nested key")
            << QByteArray("canonical") << QByteArray("\"meshWidth\": 4,")
            << QByteArray("\"meshWidth\": 4, \"meshWidth\": 4,") << QByteArray("/interconnect/meshWidth")
            << QByteArray("duplicate key \"meshWidth\"");

        // Wrong types.
        QTest::addRow("integer given as a string")
            << QByteArray("canonical") << QByteArray("\"chips\": 1,") << QByteArray("\"chips\": \"four\",")
            << QByteArray("/chips") << QByteArray("expected an integer, found string \"four\"");
        QTest::addRow("integer with a fraction")
            << QByteArray("canonical") << QByteArray("\"coresPerChip\": 16,") << QByteArray("\"coresPerChip\": 16.5,")
            << QByteArray("/coresPerChip") << QByteArray("expected an integer, found number 16.5");
        QTest::addRow("integer given as a boolean")
            << QByteArray("canonical") << QByteArray("\"latencyNs\": 100") << QByteArray("\"latencyNs\": true")
            << QByteArray("/hbm/latencyNs") << QByteArray("expected an integer, found boolean true");
        QTest::addRow("integer given as null")
            << QByteArray("canonical") << QByteArray("\"syncCostCycles\": 10") << QByteArray("\"syncCostCycles\": null")
            << QByteArray("/interconnect/syncCostCycles") << QByteArray("expected an integer, found null");
        QTest::addRow("32-bit integer overflow")
            << QByteArray("canonical") << QByteArray("\"coresPerChip\": 16,")
            << QByteArray("\"coresPerChip\": 99999999999,") << QByteArray("/coresPerChip")
            << QByteArray("number 99999999999 does not fit in a 32-bit integer (-2147483648 to 2147483647)");
        QTest::addRow("64-bit integer overflow")
            << QByteArray("canonical") << QByteArray("\"sramBytesPerCore\": 262144,")
            << QByteArray("\"sramBytesPerCore\": 9223372036854775808,") << QByteArray("/sramBytesPerCore")
            << QByteArray("does not fit in a 64-bit integer");
        QTest::addRow("negative 64-bit integer overflow")
            << QByteArray("canonical") << QByteArray("\"latencyCycles\": 0,")
            << QByteArray("\"latencyCycles\": -99999999999999999999,") << QByteArray("/interChip/latencyCycles")
            << QByteArray("does not fit in a 64-bit integer");
        QTest::addRow("number given as a string") << QByteArray("canonical") << QByteArray("\"clockHz\": 1000000000.0,")
                                                  << QByteArray("\"clockHz\": \"1 GHz\",") << QByteArray("/clockHz")
                                                  << QByteArray("expected a number, found string \"1 GHz\"");
        QTest::addRow("string given as a number")
            << QByteArray("canonical") << QByteArray("\"name\": \"teaching-mesh-4x4\"") << QByteArray("\"name\": 4")
            << QByteArray("/name") << QByteArray("expected a string, found number 4");
        QTest::addRow("block given as an array")
            << QByteArray("canonical") << QByteArray("\"interChip\": {") << QByteArray("\"interChip\": [], \"x\": {")
            << QByteArray("/interChip") << QByteArray("expected an object, found an array");
        QTest::addRow("controller ids not an array")
            << QByteArray("canonical") << QByteArray("\"controllerCoreIds\": []")
            << QByteArray("\"controllerCoreIds\": 3") << QByteArray("/hbm/controllerCoreIds")
            << QByteArray("expected an array of core ids, found number 3");
        QTest::addRow("controller id not an integer")
            << QByteArray("canonical") << QByteArray("\"controllerCoreIds\": []")
            << QByteArray("\"controllerCoreIds\": [1, \"x\"]") << QByteArray("/hbm/controllerCoreIds/1")
            << QByteArray("expected an integer, found string \"x\"");

        // Missing fields.
        QTest::addRow("missing name") << QByteArray("canonical") << QByteArray("\"name\": \"teaching-mesh-4x4\",")
                                      << QByteArray() << QByteArray("/name")
                                      << QByteArray("missing; this key is required");
        QTest::addRow("missing nested field")
            << QByteArray("canonical") << QByteArray("\"hopLatencyCycles\": 1,") << QByteArray()
            << QByteArray("/interconnect/hopLatencyCycles") << QByteArray("missing; this key is required");
        QTest::addRow("missing block") << QByteArray("canonical") << QByteArray("\"hbm\": {")
                                       << QByteArray("\"hbmX\": {") << QByteArray("/hbm")
                                       << QByteArray("missing; this key is required");
        QTest::addRow("missing mesh width for mesh2d")
            << QByteArray("file") << QByteArray("\"meshWidth\": 4,") << QByteArray()
            << QByteArray("/interconnect/meshWidth") << QByteArray("missing");
        QTest::addRow("missing roofline block for roofline")
            << QByteArray("file") << QByteArray("\"roofline\": {") << QByteArray("\"rooflin\": {")
            << QByteArray("/tileCost/roofline") << QByteArray("missing");
        QTest::addRow("missing field in an inactive but present block")
            << QByteArray("canonical") << QByteArray("\"opOverheadCycles\": 0,") << QByteArray()
            << QByteArray("/tileCost/roofline/opOverheadCycles") << QByteArray("missing");
        QTest::addRow("missing fitted block for fitted")
            << QByteArray("file") << QByteArray("\"model\": \"roofline\"") << QByteArray("\"model\": \"fitted\"")
            << QByteArray("/tileCost/fitted") << QByteArray("missing");
        QTest::addRow("missing controller ids for explicit")
            << QByteArray("file") << QByteArray("\"west-edge\"") << QByteArray("\"explicit\"")
            << QByteArray("/hbm/controllerCoreIds") << QByteArray("missing");

        // Enum values.
        QTest::addRow("unknown tile cost model")
            << QByteArray("canonical") << QByteArray("\"model\": \"roofline\"") << QByteArray("\"model\": \"ipu-mk3\"")
            << QByteArray("/tileCost/model")
            << QByteArray("unknown value \"ipu-mk3\"; allowed values: \"ipu-mk2\", \"roofline\", \"fitted\"");
        QTest::addRow("unknown topology")
            << QByteArray("canonical") << QByteArray("\"topology\": \"mesh2d\"")
            << QByteArray("\"topology\": \"torus\"") << QByteArray("/interconnect/topology")
            << QByteArray("unknown value \"torus\"; allowed values: \"all-to-all\", \"mesh2d\"");
        QTest::addRow("unknown controller placement")
            << QByteArray("canonical") << QByteArray("\"west-edge\"") << QByteArray("\"north\"")
            << QByteArray("/hbm/controllerPlacement")
            << QByteArray("unknown value \"north\"; allowed values: \"spread\", \"west-edge\", \"west-east-edges\", "
                          "\"all-edges\", \"explicit\"");
        QTest::addRow("enum with wrong case")
            << QByteArray("canonical") << QByteArray("\"topology\": \"mesh2d\"")
            << QByteArray("\"topology\": \"Mesh2d\"") << QByteArray("/interconnect/topology")
            << QByteArray("unknown value \"Mesh2d\"");
    }

    void reportsErrors()
    {
        QFETCH(QByteArray, base);
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QByteArray, field);
        QFETCH(QByteArray, message);

        QByteArray text;
        if (base == "canonical")
            text = kTeachingCanonical;
        else if (base == "file")
            text = QByteArray::fromStdString(presetText("teaching-mesh-4x4"));
        if (base != "none") {
            QVERIFY2(text.count(from) == 1, "the row's `from` must occur exactly once in its base text");
            text.replace(from, to);
        } else {
            text = to;
        }

        const ChipParseResult parsed = chipSpecFromJson(text.toStdString());
        QVERIFY(!parsed.ok());
        bool found = false;
        for (const FieldError& error : parsed.errors)
            found = found
                || (error.field == field.toStdString()
                    && error.message.find(message.toStdString()) != std::string::npos);
        QVERIFY2(found,
            QByteArray("expected " + field + ": ..." + message + "...; got" + listErrors(parsed.errors)).constData());
    }

    void reportsEveryProblemAtOnce()
    {
        QByteArray text = kTeachingCanonical;
        text.replace("\"chips\": 1,", "\"chips\": \"one\", \"colour\": 1,");
        text.replace("\"hopLatencyCycles\": 1,", "");
        text.replace("\"topology\": \"mesh2d\"", "\"topology\": \"ring\"");
        const ChipParseResult parsed = chipSpecFromJson(text.toStdString());
        QCOMPARE(parsed.errors.size(), std::size_t(4));
        QStringList fields;
        for (const FieldError& error : parsed.errors)
            fields << QString::fromStdString(error.field);
        fields.sort();
        QCOMPARE(fields,
            QStringList({ QStringLiteral("/chips"), QStringLiteral("/colour"),
                QStringLiteral("/interconnect/hopLatencyCycles"), QStringLiteral("/interconnect/topology") }));
    }
};

QTEST_GUILESS_MAIN(TestChipSpecJson)
#include "tst_chip_spec_json.moc"
