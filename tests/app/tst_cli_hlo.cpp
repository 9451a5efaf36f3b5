// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk hlo and elk validate, driven in-process through runCli: exit codes, located errors, the JSON
// report schema, exports written, validation against the bundled reference.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include "app/cli/cli_commands.h"

using namespace Qt::Literals::StringLiterals;

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

CliResult runElk(const QStringList& args)
{
    CliResult result;
    QTextStream out(&result.out);
    QTextStream err(&result.err);
    result.exitCode = elk::app::runCli(QStringList { u"elk"_s } + args, out, err);
    out.flush();
    err.flush();
    return result;
}

const QString kHespas = QStringLiteral(ELK_TEST_DATA_DIR "/stablehlo/hespas");

} // namespace

class TestCliHlo : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("ELK_CACHE_DIR", m_cacheDir.path().toUtf8()); }

    void checkAcceptsAFixture()
    {
        const CliResult result = runElk({ u"hlo"_s, kHespas + u"/jax_example.mlir"_s, u"--check"_s });
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains(u": ok, 1 module"_s), qPrintable(result.out));
    }

    void checkLocatesAnError()
    {
        const QString path = m_cacheDir.path() + u"/truncated.mlir"_s;
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("module {\n  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n    %0 = stablehlo.add %a, ");
        file.close();
        const CliResult result = runElk({ u"hlo"_s, path, u"--check"_s });
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.startsWith(path + u":3:"_s), qPrintable(result.err));
        QVERIFY2(result.err.contains(u"expected"_s), qPrintable(result.err));
    }

    void jsonReportAndExports()
    {
        QTemporaryDir out;
        const QString json = out.path() + u"/report.json"_s;
        const QString chakra = out.path() + u"/chakra"_s;
        const CliResult result = runElk({ u"hlo"_s, kHespas + u"/test_split_replica_groups.mlir"_s, u"--system"_s,
            u"4x-a100-sxm-40gb"_s, u"--split"_s, u"dependency"_s, u"--json"_s, json, u"--trace"_s,
            out.path() + u"/trace.json"_s, u"--csv"_s, out.path() + u"/regions.csv"_s, u"--chakra"_s, chakra });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(u"step"_s), qPrintable(result.out));
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        for (const char* key :
            { "module", "ops", "unknown_ops", "regions", "compute_s", "comm_s", "exposed_comm_s", "step_s", "cache" })
            QVERIFY2(root.contains(QLatin1String(key)), key);
        QVERIFY(root[u"cache"_s].toObject().contains(u"hits"_s));
        // hlo-reference.md §6.1: two all_reduces, groups [[0,1],[2,3]] and [[0,1,2,3]].
        QList<int> groupSizes;
        for (const QJsonValue& value : root[u"regions"_s].toArray())
            if (value.toObject()[u"kind"_s].toString() == u"comm"_s)
                groupSizes << value.toObject()[u"group_size"_s].toInt();
        std::sort(groupSizes.begin(), groupSizes.end());
        QCOMPARE(groupSizes, (QList<int> { 2, 4 }));
        QVERIFY(QFileInfo(out.path() + u"/trace.json"_s).size() > 0);
        QVERIFY(QFileInfo(out.path() + u"/regions.csv"_s).size() > 0);
        for (int rank = 0; rank < 4; ++rank)
            QVERIFY2(QFileInfo::exists(chakra + u"/elk.%1.et"_s.arg(rank)), qPrintable(chakra));
        QVERIFY(QFileInfo::exists(chakra + u"/comm_group.json"_s));
    }

    void badOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no module") << QStringList { u"hlo"_s } << u"no MODULE given"_s;
        QTest::addRow("bad split") << QStringList { u"hlo"_s, u"x.mlir"_s, u"--split"_s, u"random"_s }
                                   << u"--split: 'random'"_s;
        QTest::addRow("missing file") << QStringList { u"hlo"_s, u"/no/such/file.mlir"_s } << u"/no/such/file.mlir"_s;
        QTest::addRow("unknown system") << QStringList { u"hlo"_s, kHespas + u"/jax_example.mlir"_s, u"--system"_s,
            u"nope"_s } << u"nope"_s;
        QTest::addRow("bad module mapping")
            << QStringList { u"validate"_s, u"--module"_s, u"x"_s } << u"WORKLOAD=PATH"_s;
    }

    void badOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult result = runElk(args);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(expected), qPrintable(result.err));
    }

    void listsPresets()
    {
        const CliResult result = runElk({ u"hlo"_s, u"--list"_s });
        QCOMPARE(result.exitCode, 0);
        for (const QString& name : { u"a100-sxm-40gb"_s, u"h100-sxm"_s, u"h200-sxm"_s, u"b200-sxm"_s, u"mi300x"_s,
                 u"tpu-v3-core"_s, u"4x-a100-sxm-40gb"_s, u"8x-h100-sxm"_s, u"tpu-v3-8"_s })
            QVERIFY2(result.out.contains(name), qPrintable(name));
    }

    void validateBundledResnet()
    {
        const CliResult result = runElk({ u"validate"_s, u"--module"_s,
            u"resnet50-train="_s + kHespas + u"/resnet_50_train_step_4_devices_1024_batch.mlir"_s });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(u"1 of 34 rows predicted"_s), qPrintable(result.out));
        QVERIFY(result.out.contains(u"MAPE"_s));
        QVERIFY(result.out.contains(u"no module (give --module llama3-100m-train=PATH)"_s));
    }

    // A fit on one row would fit it exactly and prove nothing: refused. On two rows, the fitted device
    // preset carries its provenance.
    void fitWritesADevicePreset()
    {
        const QString resnet = kHespas + u"/resnet_50_train_step_4_devices_1024_batch.mlir"_s;
        const QString device = m_cacheDir.path() + u"/a100-fitted.json"_s;
        const CliResult oneRow = runElk({ u"validate"_s, u"--module"_s, u"resnet50-train="_s + resnet, u"--fit-on"_s,
            u"4x-a100-sxm-40gb"_s, u"--fit-out"_s, device });
        QCOMPARE(oneRow.exitCode, 2);
        QVERIFY2(oneRow.err.contains(u"a fit needs at least 2 predicted rows on the fit system(s); found 1"_s),
            qPrintable(oneRow.err));
        // Two measured rows of the same module on the fit system (times chosen so that the fitted
        // efficiency is below 1), one on another system to judge it.
        const QString reference = m_cacheDir.path() + u"/two-rows.csv"_s;
        QFile csv(reference);
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("workload,system,measured_s,source,module\n"
                  "r50-a,4x-a100-sxm-40gb,0.13,test,\n"
                  "r50-b,4x-a100-sxm-40gb,0.14,test,\n"
                  "r50-c,4x-h100-sxm,0.05,test,\n");
        csv.close();
        const CliResult result = runElk({ u"validate"_s, u"--reference"_s, reference, u"--module"_s,
            u"r50-a="_s + resnet, u"--module"_s, u"r50-b="_s + resnet, u"--module"_s, u"r50-c="_s + resnet,
            u"--fit-on"_s, u"4x-a100-sxm-40gb"_s, u"--fit-out"_s, device });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(u"fitted scale"_s), qPrintable(result.out));
        QFile file(device);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject preset = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY2(preset[u"efficiencyProvenance"_s].toString().contains(u"fitted by elk validate on 4x-a100-sxm-40gb"_s),
            qPrintable(preset[u"efficiencyProvenance"_s].toString()));
        QVERIFY(preset[u"computeEfficiency"_s].toDouble() > 0);
        const CliResult missing
            = runElk({ u"validate"_s, u"--fit-on"_s, u"4x-a100-sxm-40gb"_s, u"--fit-out"_s, device });
        QCOMPARE(missing.exitCode, 2);
    }

private:
    QTemporaryDir m_cacheDir;
};

QTEST_GUILESS_MAIN(TestCliHlo)
#include "tst_cli_hlo.moc"
