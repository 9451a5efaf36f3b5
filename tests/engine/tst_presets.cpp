// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/chip/chip_spec.h"
#include "engine/chip/chip_spec_json.h"
#include "engine/chip/chip_validate.h"
#include "engine/chip/presets.h"

using namespace elk::chip;

namespace {

QByteArray listErrors(const std::vector<FieldError>& errors)
{
    QByteArray text;
    for (const FieldError& error : errors)
        text += "\n  " + QByteArray::fromStdString(error.field) + ": " + QByteArray::fromStdString(error.message);
    return text.isEmpty() ? QByteArray("(no errors)") : text;
}

ChipSpec preset(const char* name)
{
    const std::optional<ChipSpec> spec = findBuiltinPreset(name);
    return spec ? *spec : ChipSpec {};
}

} // namespace

class TestPresets : public QObject {
    Q_OBJECT

private slots:
    void requiredPresetsArePresent()
    {
        const std::vector<ChipSpec> presets = builtinPresets();
        QVERIFY2(presets.size() >= 6, QByteArray::number(qulonglong(presets.size())).constData());
        std::vector<std::string> names;
        for (const ChipSpec& spec : presets)
            names.push_back(spec.name);
        QVERIFY(std::is_sorted(names.begin(), names.end()));
        QVERIFY(std::adjacent_find(names.begin(), names.end()) == names.end());
        for (const char* required : { "ipu-mk2-hbm", "ipu-pod4-hbm", "ipu-pod4-hbm-mesh", "tt-wormhole-n300",
                 "sn40l-rdu", "teaching-mesh-4x4" })
            QVERIFY2(std::find(names.begin(), names.end(), required) != names.end(), required);
    }

    void presetIsValidAndSourced_data()
    {
        QTest::addColumn<QByteArray>("name");
        for (const ChipSpec& spec : builtinPresets())
            QTest::addRow("%s", spec.name.c_str()) << QByteArray::fromStdString(spec.name);
    }

    void presetIsValidAndSourced()
    {
        QFETCH(QByteArray, name);
        const std::optional<ChipSpec> spec = findBuiltinPreset(name.toStdString());
        QVERIFY(spec);
        QCOMPARE(QByteArray::fromStdString(spec->name), name);
        const std::vector<FieldError> errors = validateChipSpec(*spec);
        QVERIFY2(errors.empty(), listErrors(errors).constData());
        QVERIFY(spec->source.size() > 20); // a real citation, not a placeholder
        QVERIFY(!spec->description.empty());

        // The raw text is what the spec was read from.
        const std::optional<std::string> text = builtinPresetJson(name.toStdString());
        QVERIFY(text);
        const ChipParseResult parsed = chipSpecFromJson(*text);
        QVERIFY2(parsed.ok(), listErrors(parsed.errors).constData());
        QVERIFY(parsed.spec == *spec);
    }

    void everyPresetFileIsCompiledIn()
    {
        // Catches a stale build and a file whose name differs from its "name".
        const QDir dir(QStringLiteral(ELK_SOURCE_DIR "/resources/presets"));
        const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
        QCOMPARE(qsizetype(builtinPresets().size()), files.size());
        for (const QString& file : files) {
            QFile in(dir.filePath(file));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray onDisk = in.readAll();
            const std::string name = QFileInfo(file).completeBaseName().toStdString();
            const std::optional<std::string> compiled = builtinPresetJson(name);
            QVERIFY2(compiled, name.c_str());
            QCOMPARE(QByteArray::fromStdString(*compiled), onDisk);
            QCOMPARE(QByteArray::fromStdString(chipSpecFromJson(onDisk.toStdString()).spec.name),
                QByteArray::fromStdString(name));
        }
    }

    void keyNumbersMatchThePaper()
    {
        const ChipSpec pod4 = preset("ipu-pod4-hbm");
        QCOMPARE(pod4.totalCores(), std::int64_t(5888));
        QCOMPARE(pod4.sramBytesPerCore, std::int64_t(624 * 1024));
        QCOMPARE(pod4.totalHbmBandwidthGBps(), 16000.0);
        QCOMPARE(pod4.clockHz, 1.325e9);
        QCOMPARE(pod4.interconnect.linkBandwidthGBpsPerCore, 5.5);
        QCOMPARE(pod4.interconnect.syncCostCycles, std::int64_t(118));
        QVERIFY(pod4.tileCost.model == TileCostModelKind::IpuMk2);
        QVERIFY(pod4.interconnect.topology == Topology::AllToAll);

        const ChipSpec mk2 = preset("ipu-mk2-hbm");
        QCOMPARE(mk2.totalCores(), std::int64_t(1472));
        QCOMPARE(mk2.totalHbmBandwidthGBps(), 4000.0);

        const ChipSpec mesh = preset("ipu-pod4-hbm-mesh");
        QVERIFY(mesh.interconnect.topology == Topology::Mesh2d);
        QCOMPARE(mesh.interconnect.meshWidth * mesh.interconnect.meshHeight, 1472);
        QCOMPARE(mesh.totalCores(), std::int64_t(5888));
        QCOMPARE(mesh.totalHbmBandwidthGBps(), 16000.0);
    }

    void unknownNamesGiveNothing()
    {
        QVERIFY(!findBuiltinPreset("no-such-chip"));
        QVERIFY(!builtinPresetJson("no-such-chip"));
        QVERIFY(!findBuiltinPreset(""));
        QVERIFY(findBuiltinPreset("sn40l-rdu"));
    }
};

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
