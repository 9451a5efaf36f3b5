// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Device and system presets of the StableHLO flow: built-ins, JSON round trips, field errors with
// JSON pointers, resolving names and files, the element-type → peak rule and the device hash.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <string>

#include "engine/hlo/hlo_presets.h"

using namespace elk::hlo;

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// Every error as "field: message", for failure output and substring checks.
template <typename Result> QString errorsOf(const Result& result)
{
    QStringList lines;
    for (const PresetError& error : result.errors)
        lines << q(error.field + ": " + error.message);
    return lines.join(QLatin1Char('\n'));
}

QJsonObject validDevice()
{
    QJsonObject peaks;
    peaks.insert(QStringLiteral("bf16"), 100);
    peaks.insert(QStringLiteral("f32"), 10);
    peaks.insert(QStringLiteral("tf32"), 50);
    QJsonObject device;
    device.insert(QStringLiteral("schema"), QStringLiteral("elk.hlo-device/1"));
    device.insert(QStringLiteral("name"), QStringLiteral("test-device"));
    device.insert(QStringLiteral("peakTflopsByType"), peaks);
    device.insert(QStringLiteral("fallbackTflops"), 10);
    device.insert(QStringLiteral("f32MatmulUsesTf32"), true);
    device.insert(QStringLiteral("memoryBandwidthGBps"), 1000);
    device.insert(QStringLiteral("memoryGB"), 16);
    device.insert(QStringLiteral("source"), QStringLiteral("test"));
    return device;
}

QJsonObject validSystem()
{
    QJsonObject system;
    system.insert(QStringLiteral("schema"), QStringLiteral("elk.hlo-system/1"));
    system.insert(QStringLiteral("name"), QStringLiteral("test-system"));
    system.insert(QStringLiteral("device"), QStringLiteral("h100-sxm"));
    system.insert(QStringLiteral("devicesPerNode"), 8);
    system.insert(QStringLiteral("linkGBpsPerDevice"), 450);
    system.insert(QStringLiteral("source"), QStringLiteral("test"));
    return system;
}

std::string text(const QJsonObject& object)
{
    return QJsonDocument(object).toJson().toStdString();
}

bool hasError(const std::vector<PresetError>& errors, const QString& field, const QString& fragment)
{
    for (const PresetError& error : errors)
        if (q(error.field) == field && q(error.message).contains(fragment))
            return true;
    return false;
}

bool equal(const DevicePreset& a, const DevicePreset& b)
{
    return a.name == b.name && a.displayName == b.displayName && a.peakTflopsByType == b.peakTflopsByType
        && a.fallbackTflops == b.fallbackTflops && a.f32MatmulUsesTf32 == b.f32MatmulUsesTf32
        && a.transcendentalTeraPerSecond == b.transcendentalTeraPerSecond
        && a.memoryBandwidthGBps == b.memoryBandwidthGBps && a.memoryGB == b.memoryGB
        && a.computeEfficiency == b.computeEfficiency && a.memoryEfficiency == b.memoryEfficiency
        && a.efficiencyProvenance == b.efficiencyProvenance && a.kernelLaunchMicros == b.kernelLaunchMicros
        && a.source == b.source;
}

bool equal(const SystemPreset& a, const SystemPreset& b)
{
    return a.name == b.name && a.displayName == b.displayName && a.device == b.device
        && a.devicesPerNode == b.devicesPerNode && a.nodes == b.nodes && a.nodeTopology == b.nodeTopology
        && a.linkGBpsPerDevice == b.linkGBpsPerDevice && a.linkLatencyMicros == b.linkLatencyMicros
        && a.torusX == b.torusX && a.torusY == b.torusY && a.nicGBpsPerNode == b.nicGBpsPerNode
        && a.hopLatencyMicros == b.hopLatencyMicros && a.nodesPerRouter == b.nodesPerRouter
        && a.routersPerGroup == b.routersPerGroup && a.globalLinkGBps == b.globalLinkGBps && a.source == b.source;
}

double peakOf(const DevicePreset& device, const char* type)
{
    for (const auto& [key, tflops] : device.peakTflopsByType)
        if (key == type)
            return tflops;
    return -1;
}

} // namespace

class TestHloPresets : public QObject {
    Q_OBJECT

private slots:
    void builtinNames()
    {
        const std::vector<std::string> devices { "a100-sxm-40gb", "a100-sxm-80gb", "b200-sxm", "h100-sxm", "h200-sxm",
            "mi300x", "tpu-v3-core" };
        QVERIFY(builtinDeviceNames() == devices);
        const std::vector<std::string> systems = builtinSystemNames();
        QCOMPARE(int(systems.size()), 15);
        for (const char* gpu : { "a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm", "h200-sxm", "b200-sxm", "mi300x" })
            for (const char* count : { "4x-", "8x-" })
                QVERIFY2(findSystemPreset(std::string(count) + gpu).has_value(), gpu);
        QVERIFY(findSystemPreset("16x-h100-dragonfly"));
        QVERIFY(findSystemPreset("128x-h100-dragonfly"));
        QVERIFY(findSystemPreset("tpu-v3-8"));
        QVERIFY(!findSystemPreset("no-such-system"));
        QVERIFY(!findDevicePreset("no-such-device"));
    }

    void builtinDevicesRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        for (const std::string& name : builtinDeviceNames())
            QTest::addRow("%s", name.c_str()) << q(name);
    }
    void builtinDevicesRoundTrip()
    {
        QFETCH(QString, name);
        const std::optional<DevicePreset> preset = findDevicePreset(name.toStdString());
        QVERIFY(preset);
        QVERIFY(!preset->source.empty());
        QVERIFY(preset->fallbackTflops > 0 && preset->memoryBandwidthGBps > 0 && preset->memoryGB > 0);
        const DevicePresetResult again = devicePresetFromJson(devicePresetToJson(*preset));
        QVERIFY2(again.ok(), qPrintable(errorsOf(again)));
        QVERIFY(equal(again.preset, *preset));
        QCOMPARE(q(devicePresetToJson(again.preset)), q(devicePresetToJson(*preset)));
    }

    void builtinSystemsRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        for (const std::string& name : builtinSystemNames())
            QTest::addRow("%s", name.c_str()) << q(name);
    }
    void builtinSystemsRoundTrip()
    {
        QFETCH(QString, name);
        const std::optional<SystemPreset> preset = findSystemPreset(name.toStdString());
        QVERIFY(preset);
        QVERIFY(findDevicePreset(preset->device));
        QVERIFY(!preset->source.empty());
        QVERIFY(preset->linkGBpsPerDevice > 0);
        if (preset->nodeTopology == TopologyKind::Torus2D)
            QCOMPARE(preset->torusX * preset->torusY, preset->devicesPerNode);
        if (preset->nodes > 1)
            QVERIFY(preset->nicGBpsPerNode > 0);
        const SystemPresetResult again = systemPresetFromJson(systemPresetToJson(*preset));
        QVERIFY2(again.ok(), qPrintable(errorsOf(again)));
        QVERIFY(equal(again.preset, *preset));
    }

    // The numbers the presets were chosen for (dense peaks only; sources in the JSON files).
    void presetNumbers_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("type");
        QTest::addColumn<double>("tflops");
        QTest::addRow("A100 bf16 dense") << "a100-sxm-40gb"
                                         << "bf16" << 312.0;
        QTest::addRow("A100 tf32") << "a100-sxm-80gb"
                                   << "tf32" << 156.0;
        QTest::addRow("H100 bf16 dense") << "h100-sxm"
                                         << "bf16" << 989.4;
        QTest::addRow("H200 f8 dense") << "h200-sxm"
                                       << "f8" << 1978.9;
        QTest::addRow("B200 bf16 dense, not hespas's sparse 4500") << "b200-sxm"
                                                                   << "bf16" << 2250.0;
        QTest::addRow("B200 f8 dense") << "b200-sxm"
                                       << "f8" << 4500.0;
        QTest::addRow("MI300X bf16 dense") << "mi300x"
                                           << "bf16" << 1307.4;
        QTest::addRow("MI300X f8 dense") << "mi300x"
                                         << "f8" << 2614.9;
        QTest::addRow("TPU v3 core bf16") << "tpu-v3-core"
                                          << "bf16" << 61.5;
    }
    void presetNumbers()
    {
        QFETCH(QString, device);
        QFETCH(QString, type);
        QFETCH(double, tflops);
        const std::optional<DevicePreset> preset = findDevicePreset(device.toStdString());
        QVERIFY(preset);
        QCOMPARE(peakOf(*preset, type.toStdString().c_str()), tflops);
    }

    void memoryAndLinks()
    {
        QCOMPARE(findDevicePreset("a100-sxm-40gb")->memoryBandwidthGBps, 1555.0);
        QCOMPARE(findDevicePreset("a100-sxm-80gb")->memoryBandwidthGBps, 2039.0);
        QCOMPARE(findDevicePreset("h100-sxm")->memoryBandwidthGBps, 3350.0);
        QCOMPARE(findDevicePreset("h200-sxm")->memoryBandwidthGBps, 4800.0);
        QCOMPARE(findDevicePreset("b200-sxm")->memoryBandwidthGBps, 8000.0);
        QCOMPARE(findSystemPreset("4x-a100-sxm-40gb")->linkGBpsPerDevice, 300.0);
        QCOMPARE(findSystemPreset("8x-h100-sxm")->linkGBpsPerDevice, 450.0);
        QCOMPARE(findSystemPreset("8x-b200-sxm")->linkGBpsPerDevice, 900.0);
        QCOMPARE(findSystemPreset("8x-mi300x")->linkGBpsPerDevice, 448.0);
        const SystemPreset tpu = *findSystemPreset("tpu-v3-8");
        QCOMPARE(tpu.nodeTopology, TopologyKind::Torus2D);
        QCOMPARE(tpu.torusX, 4);
        QCOMPARE(tpu.torusY, 2);
        QCOMPARE(tpu.linkGBpsPerDevice, 82.0);
        QCOMPARE(findSystemPreset("16x-h100-dragonfly")->deviceCount(), 16);
        QCOMPARE(findSystemPreset("128x-h100-dragonfly")->deviceCount(), 128);
    }

    void peakFlops_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("matrixUnit");
        QTest::addColumn<double>("tflops");
        QTest::addRow("A100 f32 matmul runs as TF32") << "a100-sxm-40gb"
                                                      << "f32" << true << 156.0;
        QTest::addRow("A100 f32 elementwise: CUDA cores") << "a100-sxm-40gb"
                                                          << "f32" << false << 19.5;
        QTest::addRow("MI300X f32 matmul: no TF32") << "mi300x"
                                                    << "f32" << true << 163.4;
        QTest::addRow("bf16 matmul") << "h100-sxm"
                                     << "bf16" << true << 989.4;
        QTest::addRow("f8E4M3FN is f8") << "h100-sxm"
                                        << "f8E4M3FN" << true << 1978.9;
        QTest::addRow("f8E5M2 is f8") << "b200-sxm"
                                      << "f8E5M2" << true << 4500.0;
        QTest::addRow("f4E2M1FN is f4") << "b200-sxm"
                                        << "f4E2M1FN" << true << 9000.0;
        QTest::addRow("ui8 is i8") << "h100-sxm"
                                   << "ui8" << true << 1978.9;
        QTest::addRow("si8 is i8") << "a100-sxm-40gb"
                                   << "si8" << true << 624.0;
        QTest::addRow("i1 is charged as i8") << "a100-sxm-40gb"
                                             << "i1" << false << 624.0;
        QTest::addRow("complex<f32> uses f32") << "a100-sxm-40gb"
                                               << "complex<f32>" << false << 19.5;
        QTest::addRow("i64 not listed: fallback") << "h100-sxm"
                                                  << "i64" << false << 67.0;
        QTest::addRow("f8 absent on A100: fallback") << "a100-sxm-40gb"
                                                     << "f8E4M3FN" << true << 19.5;
        QTest::addRow("empty type: fallback") << "b200-sxm"
                                              << "" << false << 80.0;
    }
    void peakFlops()
    {
        QFETCH(QString, device);
        QFETCH(QString, type);
        QFETCH(bool, matrixUnit);
        QFETCH(double, tflops);
        const DevicePreset preset = *findDevicePreset(device.toStdString());
        QCOMPARE(peakFlopsPerSecond(preset, type.toStdString(), matrixUnit), tflops * 1e12);
    }

    void deviceErrors_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value"); // Undefined: remove the key
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("fragment");
        QTest::addRow("missing fallback") << "fallbackTflops" << QJsonValue(QJsonValue::Undefined) << "/fallbackTflops"
                                          << "missing";
        QTest::addRow("negative bandwidth") << "memoryBandwidthGBps" << QJsonValue(-5) << "/memoryBandwidthGBps"
                                            << "> 0";
        QTest::addRow("zero memory") << "memoryGB" << QJsonValue(0) << "/memoryGB"
                                     << "> 0";
        QTest::addRow("bandwidth as text")
            << "memoryBandwidthGBps" << QJsonValue(QStringLiteral("fast")) << "/memoryBandwidthGBps"
            << "expected a number";
        QTest::addRow("missing source") << "source" << QJsonValue(QJsonValue::Undefined) << "/source"
                                        << "missing";
        QTest::addRow("unknown key") << "memoryBandwithGBps" << QJsonValue(1) << "/memoryBandwithGBps"
                                     << "unknown key";
        QTest::addRow("tf32 flag not a bool") << "f32MatmulUsesTf32" << QJsonValue(1) << "/f32MatmulUsesTf32"
                                              << "true or false";
        QTest::addRow("negative launch cost") << "kernelLaunchMicros" << QJsonValue(-1) << "/kernelLaunchMicros"
                                              << ">= 0";
        QJsonObject typo { { QStringLiteral("bfl6"), 1 } };
        QTest::addRow("unknown element type") << "peakTflopsByType" << QJsonValue(typo) << "/peakTflopsByType/bfl6"
                                              << "unknown element type";
        QJsonObject negative { { QStringLiteral("bf16"), -1 } };
        QTest::addRow("negative peak") << "peakTflopsByType" << QJsonValue(negative) << "/peakTflopsByType/bf16"
                                       << "> 0";
        QJsonObject noTf32 { { QStringLiteral("bf16"), 1 } };
        QTest::addRow("TF32 rule without a tf32 peak")
            << "peakTflopsByType" << QJsonValue(noTf32) << "/peakTflopsByType/tf32"
            << "f32MatmulUsesTf32";
        QTest::addRow("wrong schema") << "schema" << QJsonValue(QStringLiteral("elk.chip/1")) << "/schema"
                                      << "elk.hlo-device/1";
    }
    void deviceErrors()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, field);
        QFETCH(QString, fragment);
        QJsonObject device = validDevice();
        QVERIFY2(devicePresetFromJson(text(device)).ok(), "the base document must be valid");
        if (value.isUndefined())
            device.remove(key);
        else
            device.insert(key, value);
        const DevicePresetResult result = devicePresetFromJson(text(device));
        QVERIFY(!result.ok());
        QVERIFY2(hasError(result.errors, field, fragment), qPrintable(errorsOf(result)));
    }

    void syntaxAndDuplicates()
    {
        const DevicePresetResult syntax
            = devicePresetFromJson("{\n  \"schema\": \"elk.hlo-device/1\",\n  \"name\" 5\n}");
        QVERIFY(!syntax.ok());
        QVERIFY2(
            q(syntax.errors.front().field).startsWith(QStringLiteral("line 3, column")), qPrintable(errorsOf(syntax)));

        std::string duplicated = text(validDevice());
        duplicated.insert(duplicated.find('{') + 1, "\"memoryGB\": 3,");
        const DevicePresetResult duplicate = devicePresetFromJson(duplicated);
        QVERIFY2(hasError(duplicate.errors, QStringLiteral("/memoryGB"), QStringLiteral("duplicate key")),
            qPrintable(errorsOf(duplicate)));

        QVERIFY(!devicePresetFromJson("[1, 2]").ok());
        QVERIFY(!devicePresetFromJson("").ok());
    }

    void systemErrors_data()
    {
        QTest::addColumn<QJsonObject>("changes"); // Null values remove the key
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("fragment");
        QTest::addRow("unknown device") << QJsonObject { { QStringLiteral("device"), QStringLiteral("h900") } }
                                        << "/device"
                                        << "unknown device";
        QTest::addRow("torus shape does not match the node")
            << QJsonObject { { QStringLiteral("nodeTopology"), QStringLiteral("torus-2d") },
                   { QStringLiteral("torusX"), 4 }, { QStringLiteral("torusY"), 4 } }
            << "/torusY"
            << "must equal devicesPerNode = 8";
        QTest::addRow("torus without its shape")
            << QJsonObject { { QStringLiteral("nodeTopology"), QStringLiteral("torus-2d") } } << "/torusX"
            << "missing";
        QTest::addRow("torus shape on an all-to-all node")
            << QJsonObject { { QStringLiteral("torusX"), 2 } } << "/torusX"
            << "torus-2d";
        QTest::addRow("unknown topology")
            << QJsonObject { { QStringLiteral("nodeTopology"), QStringLiteral("mesh") } } << "/nodeTopology"
            << "expected one of";
        QTest::addRow("several nodes without a NIC")
            << QJsonObject { { QStringLiteral("nodes"), 4 } } << "/nicGBpsPerNode"
            << "missing";
        QTest::addRow("zero devices per node")
            << QJsonObject { { QStringLiteral("devicesPerNode"), 0 } } << "/devicesPerNode"
            << "whole number";
        QTest::addRow("fractional devices per node")
            << QJsonObject { { QStringLiteral("devicesPerNode"), 2.5 } } << "/devicesPerNode"
            << "whole number";
        QTest::addRow("negative link bandwidth")
            << QJsonObject { { QStringLiteral("linkGBpsPerDevice"), -1 } } << "/linkGBpsPerDevice"
            << "> 0";
        QTest::addRow("missing link bandwidth")
            << QJsonObject { { QStringLiteral("linkGBpsPerDevice"), QJsonValue() } } << "/linkGBpsPerDevice"
            << "missing";
        QTest::addRow("negative hop latency") << QJsonObject { { QStringLiteral("nodes"), 2 },
            { QStringLiteral("nicGBpsPerNode"), 100 }, { QStringLiteral("hopLatencyMicros"), -1 } }
                                              << "/hopLatencyMicros"
                                              << ">= 0";
    }
    void systemErrors()
    {
        QFETCH(QJsonObject, changes);
        QFETCH(QString, field);
        QFETCH(QString, fragment);
        QJsonObject system = validSystem();
        QVERIFY2(systemPresetFromJson(text(system)).ok(), qPrintable(errorsOf(systemPresetFromJson(text(system)))));
        for (auto it = changes.begin(); it != changes.end(); ++it) {
            if (it.value().isNull())
                system.remove(it.key());
            else
                system.insert(it.key(), it.value());
        }
        const SystemPresetResult result = systemPresetFromJson(text(system));
        QVERIFY(!result.ok());
        QVERIFY2(hasError(result.errors, field, fragment), qPrintable(errorsOf(result)));
    }

    void systemMayNameADeviceFile()
    {
        QJsonObject system = validSystem();
        system.insert(QStringLiteral("device"), QStringLiteral("devices/my-gpu.json"));
        const SystemPresetResult result = systemPresetFromJson(text(system));
        QVERIFY2(result.ok(), qPrintable(errorsOf(result)));
        QCOMPARE(q(result.preset.device), QStringLiteral("devices/my-gpu.json"));
        QCOMPARE(result.preset.nodes, 1);
        QCOMPARE(result.preset.nodeTopology, TopologyKind::AllToAll);
    }

    void resolveNamesAndFiles()
    {
        const DevicePresetResult builtin = resolveDevicePreset("h100-sxm");
        QVERIFY(builtin.ok());
        QCOMPARE(q(builtin.preset.name), QStringLiteral("h100-sxm"));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string goodPath = dir.filePath(QStringLiteral("good.json")).toStdString();
        std::ofstream(goodPath) << text(validDevice());
        const DevicePresetResult good = resolveDevicePreset(goodPath);
        QVERIFY2(good.ok(), qPrintable(errorsOf(good)));
        QCOMPARE(q(good.preset.name), QStringLiteral("test-device"));

        QJsonObject broken = validDevice();
        broken.insert(QStringLiteral("memoryGB"), -1);
        const std::string badPath = dir.filePath(QStringLiteral("bad.json")).toStdString();
        std::ofstream(badPath) << text(broken);
        const DevicePresetResult bad = resolveDevicePreset(badPath);
        QVERIFY(!bad.ok());
        QVERIFY2(hasError(bad.errors, QStringLiteral("/memoryGB"), q(badPath)), qPrintable(errorsOf(bad)));

        const DevicePresetResult unknown = resolveDevicePreset("h900");
        QVERIFY(!unknown.ok());
        QVERIFY2(errorsOf(unknown).contains(QStringLiteral("h900"))
                && errorsOf(unknown).contains(QStringLiteral("a100-sxm-40gb")),
            qPrintable(errorsOf(unknown)));

        const SystemPresetResult system = resolveSystemPreset("tpu-v3-8");
        QVERIFY(system.ok());
        const std::string systemPath = dir.filePath(QStringLiteral("system.json")).toStdString();
        std::ofstream(systemPath) << text(validSystem());
        QVERIFY(resolveSystemPreset(systemPath).ok());
        QVERIFY(!resolveSystemPreset(dir.filePath(QStringLiteral("missing.json")).toStdString()).ok());
    }

    void hashFollowsContent()
    {
        const DevicePreset h100 = *findDevicePreset("h100-sxm");
        const std::string hash = deviceHash(h100);
        QCOMPARE(int(hash.size()), 64);
        QCOMPARE(q(deviceHash(*findDevicePreset("h100-sxm"))), q(hash));
        DevicePreset changed = h100;
        changed.memoryBandwidthGBps += 1;
        QVERIFY(deviceHash(changed) != hash);
        QVERIFY(deviceHash(*findDevicePreset("h200-sxm")) != hash);
    }

    void topologyNames()
    {
        QCOMPARE(QLatin1String(toString(TopologyKind::AllToAll)), QLatin1String("all-to-all"));
        QCOMPARE(QLatin1String(toString(TopologyKind::Torus2D)), QLatin1String("torus-2d"));
    }
};

QTEST_GUILESS_MAIN(TestHloPresets)
#include "tst_hlo_presets.moc"
